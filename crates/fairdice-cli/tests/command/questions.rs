//! `docs/questions.json`: every user's question there is asked of the command as
//! written, and its answer compared, exactly, with a calculation of this file's
//! own (every roll counted, or a closed form), which shares no code with the
//! engine.

use std::collections::BTreeSet;
use std::path::Path;

use num_bigint::BigInt;
use num_rational::BigRational;
use serde_json::Value;

/// The repository's root, where `argv` runs.
fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .and_then(Path::parent)
        .expect("the crate lies two folders below the root")
}

fn ratio(numerator: u64, denominator: u64) -> BigRational {
    BigRational::new(BigInt::from(numerator), BigInt::from(denominator))
}

/// Every roll of `n` dice of faces `1..=faces`, the mean of `value` over them.
fn every_roll(n: usize, faces: u64, value: impl Fn(&[u64]) -> u64) -> BigRational {
    let mut roll = vec![1u64; n];
    let (mut sum, mut rolls) = (BigInt::from(0), BigInt::from(0));
    loop {
        sum += value(&roll);
        rolls += 1;
        let Some(i) = roll.iter().position(|&x| x < faces) else {
            return BigRational::new(sum, rolls);
        };
        roll[i] += 1;
        roll[..i].fill(1);
    }
}

/// How many dice show each face shown, largest first.
fn sizes(roll: &[u64]) -> Vec<usize> {
    let faces: BTreeSet<u64> = roll.iter().copied().collect();
    let mut sizes: Vec<usize> = faces
        .iter()
        .map(|f| roll.iter().filter(|x| *x == f).count())
        .collect();
    sizes.sort_unstable_by(|a, b| b.cmp(a));
    sizes
}

fn holds(roll: &[u64], run: std::ops::RangeInclusive<u64>) -> bool {
    run.into_iter().all(|face| roll.contains(&face))
}

fn choose(n: u64, k: u64) -> u64 {
    (0..k).fold(1, |c, i| c * (n - i) / (i + 1))
}

/// The banner's chance of a 5-star at pull `k` since the last one, in
/// thousandths: 0.6%, from the 74th pull 6 points more each pull, certain at
/// the 90th.
fn five_star_thousandths(k: u64) -> u64 {
    match k {
        90.. => 1000,
        74..=89 => 6 + 60 * (k - 73),
        _ => 6,
    }
}

/// P(the first 5-star is pull k) times 1000^k, at index k: every chance is in
/// thousandths, so these are whole numbers.
fn first_five_star() -> Vec<BigInt> {
    let mut survive = BigInt::from(1);
    let mut first = vec![BigInt::from(0)];
    for k in 1..=90 {
        let q = five_star_thousandths(k);
        first.push(&survive * q);
        survive *= 1000 - q;
    }
    first
}

/// P(the pulls for `n` 5-stars total at most `budget`): the n-fold sum of the
/// first 5-star's pulls, each term P(total = t) times 1000^t.
fn five_stars_within(n: usize, budget: usize) -> BigRational {
    let one = first_five_star();
    let mut total = one.clone();
    for _ in 1..n {
        let mut sum = vec![BigInt::from(0); total.len() + one.len() - 1];
        for (i, x) in total.iter().enumerate() {
            for (j, y) in one.iter().enumerate() {
                sum[i + j] += x * y;
            }
        }
        total = sum;
    }
    let scale = |t: usize| BigInt::from(1000).pow(t as u32);
    let within: BigInt = total
        .iter()
        .enumerate()
        .take(budget + 1)
        .map(|(t, p)| p * scale(budget - t))
        .sum();
    BigRational::new(within, scale(budget))
}

/// The streak-breaking shot: its chance of a hit after `misses` misses in a row.
fn shot_chance(misses: u64) -> BigRational {
    ratio(5 + misses.min(5), 10)
}

/// The distribution of (misses in a row, longest run of misses) after `shots`
/// shots, walked shot by shot.
fn shot_runs(shots: usize) -> std::collections::BTreeMap<(u64, u64), BigRational> {
    let mut at = std::collections::BTreeMap::from([((0, 0), ratio(1, 1))]);
    for _ in 0..shots {
        let mut next = std::collections::BTreeMap::new();
        for ((run, longest), p) in at {
            let hit = shot_chance(run);
            let miss = ratio(1, 1) - &hit;
            *next.entry((0, longest)).or_insert_with(|| ratio(0, 1)) += &p * hit;
            *next
                .entry((run + 1, longest.max(run + 1)))
                .or_insert_with(|| ratio(0, 1)) += p * miss;
        }
        at = next;
    }
    at
}

/// This file's own answer to the question `id`.
fn independent(id: &str) -> Option<BigRational> {
    let yes = |b: bool| u64::from(b);
    Some(match id {
        "yahtzee" => every_roll(5, 6, |r| yes(sizes(r)[0] == 5)),
        "large-straight" => every_roll(5, 6, |r| yes(holds(r, 1..=5) || holds(r, 2..=6))),
        "full-house-dice" => every_roll(5, 6, |r| yes(sizes(r) == [3, 2])),
        "two-pairs-dice" => every_roll(5, 6, |r| yes(sizes(r) == [2, 2, 1])),
        "small-straight" => every_roll(5, 6, |r| {
            yes(holds(r, 1..=4) || holds(r, 2..=5) || holds(r, 3..=6))
        }),
        // No two of 10d10 alike: 10!/10^10 of the rolls.
        "ore-set" => ratio(1, 1) - ratio((1..=10).product(), 10u64.pow(10)),
        // The rolls of d100 from 9² to 10² − 1.
        "root-of-d100" => ratio(
            (1..=100u64).filter(|x| 81 <= *x && *x < 100).count() as u64,
            100,
        ),
        "ore-tens" => {
            // Every way 10 dice fall on faces 1..=10 as counts, with its
            // 10!/(c1!…c10!) rolls: the widest set at least two dice, and the
            // highest face among the widest 10.
            let factorial = |n: u64| (1..=n).product::<u64>();
            let mut hits = 0u64;
            let mut counts = [0u64; 10];
            fn each(
                counts: &mut [u64; 10],
                face: usize,
                left: u64,
                visit: &mut dyn FnMut(&[u64; 10]),
            ) {
                if face == 9 {
                    counts[9] = left;
                    visit(counts);
                    return;
                }
                for c in 0..=left {
                    counts[face] = c;
                    each(counts, face + 1, left - c, visit);
                }
            }
            each(&mut counts, 0, 10, &mut |c| {
                let widest = *c.iter().max().expect("ten faces");
                if widest >= 2 && c[9] == widest {
                    hits += factorial(10) / c.iter().map(|&k| factorial(k)).product::<u64>();
                }
            });
            ratio(hits, 10u64.pow(10))
        }
        // 7 to 12 ones, every other die a 2, 3 or 4.
        "critical-glitch" => ratio(
            (7..=12)
                .map(|k| choose(12, k) * 3u64.pow(12 - k as u32))
                .sum(),
            6u64.pow(12),
        ),
        "largest-set-mean" => every_roll(6, 6, |r| sizes(r)[0] as u64),
        // Each of 12 dice a hit with chance 2/6.
        "shadowrun-hits-mean" => ratio(12 * 2, 6),
        "advantage-hit" => every_roll(2, 20, |r| yes(r[0].max(r[1]) + 5 >= 15)),
        "ability-score-18" => every_roll(4, 6, |r| {
            let lowest = *r.iter().min().unwrap();
            yes(r.iter().sum::<u64>() - lowest == 18)
        }),
        "half-d20-rounded-up-mean" => every_roll(1, 20, |r| r[0].div_ceil(2)),
        // Unique dice: `u` makes every order of four different faces alike, so
        // the mean is over the rolls of 4d6 that show four different faces.
        "unique-4d6-kh3-mean" => {
            let (mut sum, mut rolls) = (0u64, 0u64);
            for code in 0..6u64.pow(4) {
                let r: Vec<u64> = (0..4).map(|i| code / 6u64.pow(i) % 6 + 1).collect();
                if sizes(&r).len() == 4 {
                    sum += r.iter().sum::<u64>() - r.iter().min().unwrap();
                    rolls += 1;
                }
            }
            ratio(sum, rolls)
        }
        // `uo`: each die a first roll and the roll it takes again (used when the
        // first repeats an earlier die's face): every one of the 6^6 rolls alike.
        "unique-once-3d6-at-least-15" => every_roll(6, 6, |r| {
            let mut dice: Vec<u64> = Vec::new();
            for pair in r.chunks(2) {
                let die = if dice.contains(&pair[0]) {
                    pair[1]
                } else {
                    pair[0]
                };
                dice.push(die);
            }
            yes(dice.iter().sum::<u64>() >= 15)
        }),
        // A chain of rolls: the i-th (i < 9) goes on when it shows 6; each roll
        // that stops ends at 1 only when it showed 1 and its one reroll shows 1
        // (1/36), and the tenth roll stands whatever it shows. Three chains alike.
        "reroll-after-explosion-no-ones" => {
            let sixth = ratio(1, 6);
            let mut chain = ratio(0, 1);
            for i in 0..9 {
                chain += sixth.pow(i) * ratio(29, 36);
            }
            chain += sixth.pow(9) * ratio(35, 36);
            chain.pow(3)
        }
        // Cards: hypergeometric counts of hands, written out.
        "ace-in-hand" => ratio(1, 1) - ratio(choose(48, 5), choose(52, 5)),
        "flush" => ratio(4 * choose(13, 5), choose(52, 5)),
        "full-house" => ratio(13 * choose(4, 3) * 12 * choose(4, 2), choose(52, 5)),
        // Ten runs of five ranks (A-2-3-4-5 to 10-J-Q-K-A): of one suit, or
        // not all of one.
        "straight-flush" => ratio(10 * 4, choose(52, 5)),
        "straight" => ratio(10 * (4u64.pow(5) - 4), choose(52, 5)),
        // Seven cards hold at most one suit five times or more.
        "holdem-flush" => ratio(
            4 * (5..=7)
                .map(|k| choose(13, k) * choose(39, 7 - k))
                .sum::<u64>(),
            choose(52, 7),
        ),
        "lands-2-to-4" => (2..=4)
            .map(|k| ratio(choose(24, k) * choose(36, 7 - k), choose(60, 7)))
            .sum(),
        "more-hearts" => {
            let mut more = 0;
            for a in 0..=5 {
                for b in 0..a {
                    more += choose(13, a)
                        * choose(39, 5 - a)
                        * choose(13 - a, b)
                        * choose(34 + a, 5 - b);
                }
            }
            ratio(more, choose(52, 5) * choose(47, 5))
        }
        "largest-rank-mean" => {
            // Hands by their largest set of one rank: four of a kind, a full
            // house or three of a kind, two pairs or one pair, five ranks.
            let four = 13 * 48;
            let three = 13 * 4 * 12 * 6 + 13 * 4 * choose(12, 2) * 16;
            let two = choose(13, 2) * 36 * 44 + 13 * 6 * choose(12, 3) * 64;
            let one = choose(13, 5) * 4u64.pow(5);
            assert_eq!(four + three + two + one, choose(52, 5));
            ratio(4 * four + 3 * three + 2 * two + one, choose(52, 5))
        }
        "pair-or-better" => ratio(1, 1) - ratio(choose(13, 5) * 4u64.pow(5), choose(52, 5)),
        "no-lands-opening" => ratio(choose(36, 7), choose(60, 7)),
        "both-players-ace" => {
            let mut both = 0;
            for i in 1..=4 {
                for j in 1..=4 - i {
                    both +=
                        choose(4, i) * choose(48, 5 - i) * choose(4 - i, j) * choose(43 + i, 5 - j);
                }
            }
            ratio(both, choose(52, 5) * choose(47, 5))
        }
        // The bands of a move: 2d6 plus the bonus, 7 to 9 a weak hit, 10 up strong.
        "pbta-weak-hit" => every_roll(2, 6, |r| yes((7..=9).contains(&(r[0] + r[1] + 1)))),
        "pbta-strong-hit" => every_roll(2, 6, |r| yes(r[0] + r[1] + 2 >= 10)),
        "function-crit-mean" => {
            let crit = |x: u64| match x {
                20 => 2,
                15..=19 => 1,
                _ => 0,
            };
            every_roll(2, 20, |r| crit(r[0]) + crit(r[1]))
        }
        // Four of twelve dice from {5, 6}, two of the other eight ones, the
        // six left from {2, 3, 4}.
        "four-hits-two-ones" => ratio(
            choose(12, 4) * choose(8, 2) * 2u64.pow(4) * 3u64.pow(6),
            6u64.pow(12),
        ),
        // Each featured 5-star takes one 5-star (won the 50/50) or two (lost it,
        // then guaranteed), each with chance 1/2; the pity starts over at each.
        "featured-mean" => {
            let pulls: BigRational = first_five_star()
                .into_iter()
                .enumerate()
                .map(|(k, p)| BigRational::new(p * k, BigInt::from(1000).pow(k as u32)))
                .sum();
            pulls * ratio(3, 2)
        }
        "featured-by-90" => {
            ratio(1, 2) * five_stars_within(1, 90) + ratio(1, 2) * five_stars_within(2, 90)
        }
        "two-featured-by-180" => {
            ratio(1, 4) * five_stars_within(2, 180)
                + ratio(1, 2) * five_stars_within(3, 180)
                + ratio(1, 4) * five_stars_within(4, 180)
        }
        // Every sequence of ten shots, each with its chance.
        "streak-shot-hits" => {
            let mut expected = ratio(0, 1);
            for shots in 0u32..1 << 10 {
                let (mut p, mut run) = (ratio(1, 1), 0);
                for t in 0..10 {
                    if shots >> t & 1 == 1 {
                        p *= shot_chance(run);
                        run = 0;
                    } else {
                        p *= ratio(1, 1) - shot_chance(run);
                        run += 1;
                    }
                }
                expected += p * BigInt::from(shots.count_ones());
            }
            expected
        }
        "streak-shot-drought" => shot_runs(20)
            .into_iter()
            .map(|((_, longest), p)| p * BigInt::from(longest))
            .sum(),
        _ => return None,
    })
}

/// The log `{log}` stands for: 60 sums of 2d6 dealt from a shuffled deck of two
/// copies of its 36 rolls (a fixed shuffle), so every entry is possible under
/// both plain dice and that deck.
fn log_of_sums() -> Vec<u64> {
    let mut cards: Vec<u64> = (1..=6)
        .flat_map(|a| (1..=6).map(move |b| a + b))
        .flat_map(|sum| [sum, sum])
        .collect();
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    for i in (1..cards.len()).rev() {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        cards.swap(i, (state >> 33) as usize % (i + 1));
    }
    cards.truncate(60);
    cards
}

/// This file's own answer to a question whose answer is not a fraction (a
/// logarithm), to within rounding.
fn independent_float(id: &str) -> Option<f64> {
    let ways = |sum: u64| 6 - sum.abs_diff(7);
    Some(match id {
        "log-likelihood-dice" => log_of_sums()
            .iter()
            .map(|&s| (ways(s) as f64 / 36.0).ln())
            .sum(),
        "log-likelihood-deck" => {
            // Each entry: the cards of its sum left over the cards left.
            let mut left: Vec<u64> = (0..=12)
                .map(|s| if s >= 2 { 2 * ways(s) } else { 0 })
                .collect();
            let mut total = 72;
            let mut sum = 0.0;
            for s in log_of_sums() {
                sum += (left[s as usize] as f64 / total as f64).ln();
                left[s as usize] -= 1;
                total -= 1;
            }
            sum
        }
        "aim-assist-tune" => fairest_boost(20, 0.9),
        _ => return None,
    })
}

/// The rise per miss, from 0 to 45% by 2.5%, that keeps the mean entropy of
/// `shots` shots at `least` or more with the counts closest to the long-run
/// share (the lowest chi-square over independent draws'), for a 50% shot that
/// gains the rise after each miss (at most 95%, five misses counted) and
/// returns to 50% after a hit. Walked shot by shot over (misses, hits).
fn fairest_boost(shots: usize, least: f64) -> f64 {
    let mut best: Option<(f64, f64)> = None;
    for i in 0..=18 {
        let boost = i as f64 * 0.025;
        let hit = |misses: usize| (0.5 + boost * misses as f64).min(0.95);
        let next = |misses: usize, hits: bool| if hits { 0 } else { (misses + 1).min(5) };
        // The long-run share of hits: the walk's limit from the start.
        let mut at = [1.0, 0.0, 0.0, 0.0, 0.0, 0.0];
        for _ in 0..10_000 {
            let mut then = [0.0; 6];
            for (m, p) in at.iter().enumerate() {
                then[next(m, true)] += p * hit(m);
                then[next(m, false)] += p * (1.0 - hit(m));
            }
            at = then;
        }
        let share: f64 = at.iter().enumerate().map(|(m, p)| p * hit(m)).sum();
        // (misses in a row, hits so far) → chance.
        let mut walk = vec![[0.0; 6]; shots + 1];
        walk[0][0] = 1.0;
        let mut entropy = 0.0;
        for shot in 0..shots {
            let mut then = vec![[0.0; 6]; shots + 1];
            for hits in 0..=shot {
                for m in 0..6 {
                    let p = walk[hits][m];
                    let h = hit(m);
                    entropy += p * -[h, 1.0 - h]
                        .iter()
                        .filter(|&&q| q > 0.0)
                        .map(|q| q * q.log2())
                        .sum::<f64>();
                    then[hits + 1][next(m, true)] += p * h;
                    then[hits][next(m, false)] += p * (1.0 - h);
                }
            }
            walk = then;
        }
        let mean_entropy = entropy / shots as f64;
        let t = shots as f64;
        let chi: f64 = walk
            .iter()
            .enumerate()
            .map(|(hits, row)| {
                row.iter().sum::<f64>() * (hits as f64 - share * t).powi(2)
                    / (t * share * (1.0 - share))
            })
            .sum();
        if mean_entropy >= least - 1e-12
            && best.is_none_or(|(_, lowest)| chi < lowest * (1.0 - 1e-9))
        {
            best = Some((boost, chi));
        }
    }
    best.expect("a rise qualifies").0
}

/// The answer a document holds at `at`: an RFC 6901 pointer to a number or an
/// exact `"p/q"`, or `outcome=N` for outcome N's exact probability in a `dist`
/// document.
fn answer(document: &Value, at: &str) -> BigRational {
    if let Some(outcome) = at.strip_prefix("outcome=") {
        let outcome: i64 = outcome.parse().expect("outcome=N names an integer");
        let count = |v: &Value| {
            v.as_str()
                .expect("counts are strings")
                .parse::<BigInt>()
                .unwrap()
        };
        let total = count(&document["total"]);
        let row = document["outcomes"]
            .as_array()
            .expect("a dist document lists its outcomes")
            .iter()
            .find(|row| row["outcome"] == outcome);
        let hits = row.map_or(BigInt::from(0), |row| count(&row["count"]));
        return BigRational::new(hits, total);
    }
    match document.pointer(at) {
        Some(Value::String(exact)) => exact.parse().expect("an exact p/q"),
        Some(Value::Number(n)) if n.is_i64() => {
            BigRational::from_integer(n.as_i64().unwrap().into())
        }
        other => panic!("{at}: {other:?} is not an exact answer"),
    }
}

#[test]
fn every_question_is_answered_exactly_by_its_command() {
    let path = root().join("docs/questions.json");
    let text = std::fs::read_to_string(&path).expect("docs/questions.json");
    let questions: Vec<Value> = serde_json::from_str(&text).expect("a JSON list");
    let mut ids = BTreeSet::new();
    for question in &questions {
        let id = question["id"].as_str().expect("an id");
        assert!(ids.insert(id), "{id} is listed twice");
        assert!(
            question["question"].as_str().is_some_and(|q| !q.is_empty()),
            "{id}: the question in words"
        );
        let argv: Vec<&str> = question["argv"]
            .as_array()
            .expect("argv")
            .iter()
            .map(|a| a.as_str().expect("string arguments"))
            .collect();
        let at = question["at"].as_str().expect("at");
        let log =
            std::env::temp_dir().join(format!("fairdice-question-{}.txt", std::process::id()));
        let text: String = log_of_sums().iter().map(|s| format!("{s}\n")).collect();
        std::fs::write(&log, text).expect("a temporary log");
        let argv: Vec<String> = argv
            .iter()
            .map(|a| a.replace("{log}", &log.to_string_lossy()))
            .collect();
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_fairdice"))
            .args(&argv)
            .current_dir(root())
            .output()
            .expect("fairdice runs");
        assert!(
            output.status.success(),
            "{id}: fairdice {argv:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        let document: Value = serde_json::from_slice(&output.stdout).expect("a JSON document");
        if let Some(expected) = independent_float(id) {
            let got = document
                .pointer(at)
                .and_then(Value::as_f64)
                .expect("a number");
            assert!(
                (got - expected).abs() <= 1e-12 * expected.abs().max(1.0),
                "{id}: fairdice {argv:?} gives {got}, expected {expected}"
            );
            continue;
        }
        let got = answer(&document, at);
        let expected = independent(id).unwrap_or_else(|| panic!("{id}: no calculation of its own"));
        assert_eq!(got, expected, "{id}: fairdice {argv:?}");
    }
    // The questions the cards-and-sets work answers first.
    for id in [
        "yahtzee",
        "large-straight",
        "full-house-dice",
        "ore-set",
        "critical-glitch",
        "largest-set-mean",
        "ace-in-hand",
        "flush",
        "full-house",
        "lands-2-to-4",
        "more-hearts",
        "largest-rank-mean",
    ] {
        assert!(ids.contains(id), "docs/questions.json lacks {id}");
    }
}
