use fairdice::contest::{Contest, Pairing, TieRule, isaksen};
use fairdice::{Die, Pool};
fn main() {
    let what = std::env::args().nth(1).unwrap();
    let reps: u32 = std::env::args().nth(2).unwrap().parse().unwrap();
    let d6 = Die::standard(6).unwrap();
    for _ in 0..reps {
        match what.as_str() {
            "isaksen" => {
                std::hint::black_box(isaksen::sections().unwrap());
            }
            "5d6" | "20d6" | "10d20" => {
                let (d, n) = match what.as_str() {
                    "5d6" => (d6.clone(), 5),
                    "20d6" => (d6.clone(), 20),
                    _ => (Die::standard(20).unwrap(), 10),
                };
                let p = Pool::new(&d, n).unwrap();
                std::hint::black_box(Contest::new(&p, &p).unwrap().evaluate().unwrap());
            }
            "reroll" | "stand" => {
                let ties = if what == "reroll" {
                    TieRule::Reroll
                } else {
                    TieRule::Stand
                };
                for sides in [2u64, 4, 6, 8, 10] {
                    let d = Die::standard(sides).unwrap();
                    std::hint::black_box(
                        Contest::from_dice([(d.clone(), 5)], [(d, 5)])
                            .unwrap()
                            .pairing(Pairing::Sorted)
                            .ties(ties)
                            .evaluate()
                            .unwrap(),
                    );
                }
            }
            "5d10" => {
                let d = Die::standard(10).unwrap();
                std::hint::black_box(
                    Contest::from_dice([(d.clone(), 5)], [(d, 5)])
                        .unwrap()
                        .evaluate()
                        .unwrap(),
                );
            }
            "tiny" => {
                let d = Die::standard(2).unwrap();
                std::hint::black_box(
                    Contest::from_dice([(d.clone(), 1)], [(d, 1)])
                        .unwrap()
                        .evaluate()
                        .unwrap(),
                );
            }
            "tinymetrics" => {
                let d = Die::standard(2).unwrap();
                let r = Contest::from_dice([(d.clone(), 1)], [(d, 1)])
                    .unwrap()
                    .evaluate()
                    .unwrap();
                std::hint::black_box((r.win_bias(), r.tie_percent(), r.closeness()));
            }
            _ => panic!(),
        }
    }
}
