//! Fair randomizers plugged into a generator the game already owns (here rand's
//! ChaCha8Rng): generic draws, trait objects over `&mut dyn Rng`, and the
//! `rand::distr::Distribution` impls.
//!
//! `cargo run -p fairdice --example own_generator`
//! (it also runs under `cargo test`, and exits non-zero if a check fails).

use std::error::Error;
use std::process::ExitCode;

use fairdice::randomizer::{Base, Deck, Dice, Randomizer, RefillMode, Spec};
use rand::rngs::ChaCha8Rng;
use rand::{Rng, RngExt, SeedableRng};

fn run() -> Result<(), Box<dyn Error>> {
    let mut game_rng = ChaCha8Rng::seed_from_u64(42);

    // A concrete randomizer draws with the game's generator, inlined.
    let mut deck = Deck::new(Base::values(6)?, 2, 1, RefillMode::TopUp)?;
    let dealt: Vec<i64> = deck.draws(&mut game_rng).take(12).collect();
    println!("deck, 12 cards: {dealt:?}");
    let mut counts = [0; 6];
    for &face in &dealt {
        counts[(face - 1) as usize] += 1;
    }
    if counts != [2; 6] {
        return Err(format!("the deck dealt {counts:?}, not every face twice").into());
    }

    // Randomizers of several kinds behind one trait object, over `&mut dyn Rng`.
    let specs = ["fair(base=2d6, tightness=1)", "prd(p=0.25)", "tgm2"];
    let sequence = |seed: u64| -> Result<Vec<i64>, Box<dyn Error>> {
        let mut systems: Vec<Box<dyn Randomizer>> = Vec::new();
        for spec in specs {
            systems.push(Box::new(Spec::build(spec)?));
        }
        let mut chacha = ChaCha8Rng::seed_from_u64(seed);
        let rng: &mut dyn Rng = &mut chacha;
        let mut drawn = Vec::new();
        for _ in 0..10 {
            for system in &mut systems {
                drawn.push(system.draw_outcome_dyn(rng));
            }
        }
        Ok(drawn)
    };
    let first = sequence(7)?;
    println!("fair 2d6, PRD and TGM2 interleaved: {first:?}");
    if sequence(7)? != first {
        return Err("the same ChaCha seed gave another sequence".into());
    }
    // The object path draws what the generic path draws.
    let mut generic = Spec::build(specs[0])?;
    let mut object: Box<dyn Randomizer> = Box::new(generic.clone());
    let (mut a, mut b) = (ChaCha8Rng::seed_from_u64(3), ChaCha8Rng::seed_from_u64(3));
    for _ in 0..100 {
        if generic.draw(&mut a) != object.draw_dyn(&mut b) {
            return Err("the dyn path drew another outcome".into());
        }
    }

    // rand's own vocabulary: dice keep no state, so they are a Distribution...
    let two_d6 = Dice::new(Base::expression("2d6")?);
    let sums: Vec<i64> = (&mut game_rng).sample_iter(&two_d6).take(8).collect();
    println!("2d6 as a Distribution: {sums:?}");
    if sums.iter().any(|s| !(2..=12).contains(s)) {
        return Err("a 2d6 sum outside 2..=12".into());
    }
    // ...and a randomizer's next draw is one, sampled without drawing.
    let mut bag = Spec::build("bag(min=1, max=3)")?;
    let drawn = bag.draw_outcome(&mut game_rng);
    let next = bag.next_sample();
    let guesses: Vec<i64> = (0..50).map(|_| game_rng.sample(&next)).collect();
    println!("after a {drawn}, the next draw could be: {guesses:?}");
    if guesses.contains(&drawn) {
        return Err("the next-sample distribution offered a die already drawn".into());
    }
    Ok(())
}

#[cfg_attr(test, allow(dead_code))]
fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_games_own_generator_drives_every_randomizer() {
        super::run().expect("the example's checks hold");
    }
}
