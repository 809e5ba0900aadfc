use fairdice::contest::{NetScore, PairCounts, SortedPairs, TieRule};
use fairdice::dice::budget::Meter;
use fairdice::dice::evaluator::engine::evaluate_by_pool_metered;
use fairdice::{Die, Pool};
fn main() {
    let mut total = 0;
    for sides in [2u64, 4, 6, 8, 10] {
        let p = Pool::new(&Die::standard(sides).unwrap(), 5).unwrap();
        let mut m = Meter::unlimited();
        evaluate_by_pool_metered(&SortedPairs::<NetScore>::new(TieRule::Stand), &[&p, &p], &mut m).unwrap();
        let mut m2 = Meter::unlimited();
        evaluate_by_pool_metered(&SortedPairs::<PairCounts>::new(TieRule::Stand), &[&p, &p], &mut m2).unwrap();
        println!("5d{sides}: net {} pairs {}", m.used(), m2.used());
        total += m.used();
    }
    println!("total net {total}");
}
