use fairdice::Die;
use fairdice::contest::{Contest, Pairing, TieRule};
fn cpu_ns() -> u64 {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").unwrap();
    s.split_whitespace().next().unwrap().parse().unwrap()
}
fn d(s: u64) -> Die {
    Die::standard(s).unwrap()
}
fn main() {
    let reps = 2000;
    let cases: Vec<(String, Vec<(Die, u64)>, Vec<(Die, u64)>, Pairing, TieRule)> = {
        let mut v = vec![];
        for (p, t, name) in [
            (Pairing::Sorted, TieRule::Stand, "3.1"),
            (Pairing::Sorted, TieRule::AWins, "5.1"),
            (Pairing::Sorted, TieRule::Reroll, "8.1"),
            (Pairing::Unsorted, TieRule::Stand, "3.2"),
            (Pairing::Unsorted, TieRule::Reroll, "8.2"),
        ] {
            for s in [2, 4, 6, 8, 10] {
                v.push((
                    format!("{name} 5d{s}"),
                    vec![(d(s), 5)],
                    vec![(d(s), 5)],
                    p,
                    t,
                ));
            }
            for n in 1..=5 {
                v.push((
                    format!("{name} {n}d6"),
                    vec![(d(6), n)],
                    vec![(d(6), n)],
                    p,
                    t,
                ));
            }
        }
        for n in 2..=5 {
            v.push((
                format!("6 {n}v5"),
                vec![(d(6), n)],
                vec![(d(6), 5)],
                Pairing::Sorted,
                TieRule::AWins,
            ));
        }
        for k in 0..=5 {
            v.push((
                format!("7.1 {k}d8"),
                vec![(d(6), 5)],
                vec![(d(6), 5 - k), (d(8), k)],
                Pairing::Sorted,
                TieRule::AWins,
            ));
        }
        v.push((
            "7.1 3/1/1".into(),
            vec![(d(6), 5)],
            vec![(d(6), 3), (d(8), 1), (d(10), 1)],
            Pairing::Sorted,
            TieRule::AWins,
        ));
        v
    };
    let mut total = 0.0;
    for (name, a, b, p, t) in cases {
        let c = Contest::from_dice(a, b).unwrap().pairing(p).ties(t);
        let t0 = cpu_ns();
        for _ in 0..reps {
            std::hint::black_box(c.evaluate().unwrap());
        }
        let us = (cpu_ns() - t0) as f64 / 1e3 / reps as f64;
        total += us;
        println!("{name:14} {us:8.1} us");
    }
    println!("total {total:.0} us");
}
