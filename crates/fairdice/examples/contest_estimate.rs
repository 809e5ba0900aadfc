use fairdice::contest::{Contest, NetScore, SortedPairs, TieRule};
use fairdice::dice::budget::Meter;
use fairdice::dice::evaluator::engine::evaluate_by_pool_metered;
use fairdice::{Die, Pool};
fn main() {
    for (s, n) in [
        (6u64, 5u64),
        (6, 20),
        (20, 10),
        (2, 30),
        (10, 5),
        (6, 40),
        (6, 60),
        (100, 10),
        (6, 100),
    ] {
        let p = Pool::new(&Die::standard(s).unwrap(), n).unwrap();
        let est = Contest::new(&p, &p).unwrap().estimate();
        let mut m = Meter::unlimited();
        let t = std::time::Instant::now();
        if est.steps < 3e9 {
            evaluate_by_pool_metered(
                &SortedPairs::<NetScore>::new(TieRule::Stand),
                &[&p, &p],
                &mut m,
            )
            .unwrap();
        }
        println!(
            "{n}d{s}: est {:.2e} used {:.2e} ratio {:.1} time {:?}",
            est.steps,
            m.used() as f64,
            est.steps / m.used() as f64,
            t.elapsed()
        );
    }
}
