use fairdice::contest::{Contest, Pairing, TieRule, isaksen};
use fairdice::{Die, Pool};
fn cpu_ns() -> u64 {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").unwrap();
    s.split_whitespace().next().unwrap().parse().unwrap()
}
fn time<T>(reps: u32, mut f: impl FnMut() -> T) -> f64 {
    let t = cpu_ns();
    for _ in 0..reps {
        std::hint::black_box(f());
    }
    (cpu_ns() - t) as f64 / 1e3 / reps as f64
}
fn main() {
    println!(
        "isaksen all: {:.1} us",
        time(20, || isaksen::sections().unwrap())
    );
    for pairing in [Pairing::Sorted, Pairing::Unsorted] {
        for ties in [TieRule::Stand, TieRule::AWins, TieRule::Reroll] {
            let us = time(50, || {
                for sides in [2u64, 4, 6, 8, 10] {
                    let d = Die::standard(sides).unwrap();
                    Contest::from_dice([(d.clone(), 5)], [(d, 5)])
                        .unwrap()
                        .pairing(pairing)
                        .ties(ties)
                        .evaluate()
                        .unwrap();
                }
            });
            println!("{pairing:?} {ties:?} 5dN x5: {us:.1} us");
        }
    }
    let d6 = Die::standard(6).unwrap();
    let d20 = Die::standard(20).unwrap();
    for (name, die, n, reps) in [
        ("5d6", &d6, 5, 200),
        ("10d20", &d20, 10, 5),
        ("20d6", &d6, 20, 5),
    ] {
        let p = Pool::new(die, n).unwrap();
        for ties in [TieRule::Stand, TieRule::AWins] {
            let us = time(reps, || {
                Contest::new(&p, &p).unwrap().ties(ties).evaluate().unwrap()
            });
            println!("{name} sorted {ties:?}: {:.3} ms", us / 1e3);
        }
        let us = time(reps, || {
            Contest::new(&p, &p)
                .unwrap()
                .ties(TieRule::Stand)
                .pair_wins()
                .unwrap()
        });
        println!("{name} sorted pair_wins: {:.3} ms", us / 1e3);
    }
}
