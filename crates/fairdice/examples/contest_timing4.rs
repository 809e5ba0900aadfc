use fairdice::Die;
use fairdice::contest::{Contest, Pairing, TieRule};
fn main() {
    let ties = match std::env::args().nth(1).as_deref() {
        Some("stand") => TieRule::Stand,
        _ => TieRule::Reroll,
    };
    for _ in 0..300 {
        for sides in [2u64, 4, 6, 8, 10] {
            let d = Die::standard(sides).unwrap();
            Contest::from_dice([(d.clone(), 5)], [(d, 5)])
                .unwrap()
                .pairing(Pairing::Sorted)
                .ties(ties)
                .evaluate()
                .unwrap();
        }
    }
}
