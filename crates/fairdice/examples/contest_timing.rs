use fairdice::contest::{Contest, Pairing, TieRule, isaksen};
use fairdice::{Die, Pool};
use std::time::Instant;

fn cpu() -> f64 {
    // thread CPU time via /proc/self/stat is coarse; use Instant but repeat.
    0.0
}

fn main() {
    let _ = cpu();
    let reps = 20;
    let t = Instant::now();
    for _ in 0..reps {
        isaksen::sections().unwrap();
    }
    println!(
        "all tables: {:.3} ms",
        t.elapsed().as_secs_f64() * 1e3 / reps as f64
    );
    let d6 = Die::standard(6).unwrap();
    let d20 = Die::standard(20).unwrap();
    for (name, die, n) in [("5d6", &d6, 5), ("10d20", &d20, 10), ("20d6", &d6, 20)] {
        let p = Pool::new(die, n).unwrap();
        for ties in [TieRule::Stand, TieRule::AWins, TieRule::Reroll] {
            let t = Instant::now();
            let reps = 5;
            let mut r = None;
            for _ in 0..reps {
                r = Some(
                    Contest::new(&p, &p)
                        .unwrap()
                        .pairing(Pairing::Sorted)
                        .ties(ties)
                        .evaluate()
                        .unwrap(),
                );
            }
            println!(
                "{name} {ties:?}: {:.3} ms  tie {:.4} est {:?}",
                t.elapsed().as_secs_f64() * 1e3 / reps as f64,
                r.unwrap().tie_percent(),
                Contest::new(&p, &p).unwrap().ties(ties).estimate()
            );
        }
    }
}
