//! A game that keeps its randomness in its own save file: a loot deck and a
//! dynamic d20, saved mid-game inside the game's serde struct, restored, and
//! checked to continue exactly as the uninterrupted game does.
//!
//! `cargo run -p fairdice --features serde --example game_save`
//! (it also runs under `cargo test`, and exits non-zero if the check fails).

use std::error::Error;
use std::process::ExitCode;

use fairdice::randomizer::{Session, Spec};
use fairdice::rng;
use serde::{Deserialize, Serialize};

/// What a loot card deals.
const LOOT: [&str; 6] = ["copper", "herb", "arrow", "potion", "scroll", "gem"];

/// The game's own save file: its fields, and the two randomizers as sessions.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct SaveGame {
    turn: u32,
    bag: Vec<String>,
    /// Two of each loot card, dealt without replacement, refilled when empty.
    loot: Session,
    /// A d20 whose rolled faces grow less likely (no long streaks of misses).
    attack: Session,
}

impl SaveGame {
    fn new(seed: u64) -> Result<SaveGame, Box<dyn Error>> {
        Ok(SaveGame {
            turn: 0,
            bag: Vec::new(),
            // Two independent streams of one seed, one per randomizer.
            loot: Session::new(
                Spec::build("deck(values=6, copies=2)")?,
                rng::stream(seed, 0),
            ),
            attack: Session::new(
                Spec::build("dynamic(values=20, decrease=0.5)")?,
                rng::stream(seed, 1),
            ),
        })
    }

    /// One turn: an attack roll, and loot on a hit. Returns the turn's log line.
    fn play_turn(&mut self) -> String {
        self.turn += 1;
        let roll = self.attack.draw_outcome();
        if roll < 11 {
            return format!("turn {}: rolled {roll}, missed", self.turn);
        }
        let card = self.loot.draw_outcome();
        let item = LOOT[(card - 1) as usize];
        self.bag.push(item.to_string());
        format!("turn {}: rolled {roll}, hit, found {item}", self.turn)
    }
}

fn run() -> Result<(), Box<dyn Error>> {
    let mut uninterrupted = SaveGame::new(2024)?;
    let mut played = SaveGame::new(2024)?;
    for _ in 0..10 {
        let line = played.play_turn();
        assert_eq!(uninterrupted.play_turn(), line);
        println!("{line}");
    }

    let file = serde_json::to_string_pretty(&played)?;
    println!("-- saved ({} bytes), quit, loaded --", file.len());
    drop(played);
    let mut restored: SaveGame = serde_json::from_str(&file)?;

    for _ in 0..20 {
        let line = restored.play_turn();
        if line != uninterrupted.play_turn() {
            return Err(format!("the restored game diverged at {line}").into());
        }
        println!("{line}");
    }
    if restored != uninterrupted {
        return Err("the restored game ended in another state".into());
    }

    // A save edited by hand (the loot deck's draw counter changed) is refused.
    let mut tampered: serde_json::Value = serde_json::from_str(&file)?;
    tampered["loot"]["draws"] = serde_json::json!(99);
    match serde_json::from_value::<SaveGame>(tampered) {
        Ok(_) => return Err("an edited save was accepted".into()),
        Err(error) => println!("an edited save is refused: {error}"),
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
    fn the_restored_game_continues_exactly() {
        super::run().expect("the example's checks hold");
    }
}
