use fairdice::Die;
use fairdice::contest::{Contest, Pairing, TieRule};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let reps: u32 = args[1].parse().unwrap();
    let ties = match args[2].as_str() {
        "stand" => TieRule::Stand,
        "awins" => TieRule::AWins,
        _ => TieRule::Reroll,
    };
    let side = |s: &str| -> Vec<(Die, u64)> {
        s.split('+')
            .map(|t| {
                let (n, d) = t.split_once('d').unwrap();
                (
                    Die::standard(d.parse().unwrap()).unwrap(),
                    n.parse().unwrap(),
                )
            })
            .collect()
    };
    let (a, b) = (side(&args[3]), side(&args[4]));
    for _ in 0..reps {
        let c = Contest::from_dice(a.clone(), b.clone())
            .unwrap()
            .pairing(Pairing::Sorted)
            .ties(ties);
        std::hint::black_box(c.evaluate().unwrap());
    }
}
