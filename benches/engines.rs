//! The Rust engines of the dice benchmarks: fairdice (as users call it, and its core calls) and
//! the `xdy` crate, each turned into a [`Fingerprint`] outside any timing.
//!
//! [`fairdice()`] is what the comparisons time: parsing, the cost estimate and the exact
//! evaluation of [`fairdice::dice::notation::evaluate`], the path a user of the library or the
//! command runs. [`CoreCase`] calls [`Die::repeat_sum`] and [`Pool::keep_highest`] directly,
//! to show in the warm benchmark what the notation layer costs on top. [`xdy()`] compiles, plans
//! and builds an exact distribution with an unlimited budget, xdy's own full path.

use fairdice::Control;
use fairdice::{Die, Pool};
use num_bigint::BigUint;

use crate::fingerprint::Fingerprint;

/// Errors of any engine, as text: the benchmarks only report them.
pub type EngineError = Box<dyn std::error::Error + Send + Sync>;

/// The Rust engines the cold binary can time.
pub const RUST_ENGINES: [&str; 2] = ["fairdice", "xdy"];

/// Parses and evaluates `expression` exactly with fairdice's notation front end.
///
/// # Errors
/// As [`fairdice::dice::notation::evaluate`].
pub fn fairdice(expression: &str) -> Result<Die, EngineError> {
    Ok(fairdice::dice::notation::evaluate(expression)?)
}

/// Compiles `expression` with xdy and builds its exact distribution without a budget.
///
/// # Errors
/// A compilation, planning or build error of xdy.
pub fn xdy(expression: &str) -> Result<xdy::Distribution, EngineError> {
    let function = xdy::compile(expression).map_err(|e| format!("xdy: {e:?}"))?;
    let evaluator = xdy::Evaluator::new(function);
    let plan = evaluator.plan_distribution([])?;
    Ok(plan.build(xdy::Budget::UNLIMITED, &xdy::Unobserved)?)
}

/// Runs `engine` (one of [`RUST_ENGINES`]) on `expression`; the closure it returns computes
/// the fingerprint, so a caller can time the evaluation alone.
///
/// # Errors
/// An unknown engine, or the engine's own error.
pub fn run(engine: &str, expression: &str) -> Result<Evaluated, EngineError> {
    match engine {
        "fairdice" => Ok(Evaluated::Fairdice(fairdice(expression)?)),
        "xdy" => Ok(Evaluated::Xdy(xdy(expression)?)),
        _ => Err(format!("unknown engine `{engine}`; expected one of {RUST_ENGINES:?}").into()),
    }
}

/// A distribution as one of the Rust engines returned it.
#[derive(Debug)]
pub enum Evaluated {
    /// fairdice's die.
    Fairdice(Die),
    /// xdy's distribution.
    Xdy(xdy::Distribution),
}

impl Evaluated {
    /// The `(outcome, count)` pairs, ascending, with counts as exact integers.
    pub fn pairs(&self) -> Vec<(i64, BigUint)> {
        match self {
            Evaluated::Fairdice(die) => die.iter().collect(),
            Evaluated::Xdy(distribution) => distribution
                .iter()
                .map(|(outcome, weight)| {
                    let count = weight
                        .to_string()
                        .parse()
                        .expect("an xdy weight prints as a decimal integer");
                    (i64::from(outcome), count)
                })
                .collect(),
        }
    }

    /// The fingerprint of the distribution.
    pub fn fingerprint(&self) -> Fingerprint {
        Fingerprint::of(self.pairs())
    }
}

/// `NdM` or `NdMkhK`, evaluated through fairdice's core types rather than the notation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CoreCase {
    /// How many dice.
    pub dice: u64,
    /// Sides of each die.
    pub sides: u64,
    /// How many of the highest to keep (`None`: sum them all).
    pub keep_highest: Option<u64>,
}

impl CoreCase {
    /// Reads `NdM` or `NdMkhK`; `None` for anything else (the core path has no parser).
    pub fn parse(expression: &str) -> Option<CoreCase> {
        let (dice, rest) = expression.split_once('d')?;
        let (sides, keep) = match rest.split_once("kh") {
            Some((sides, keep)) => (sides, Some(keep.parse().ok()?)),
            None => (rest, None),
        };
        Some(CoreCase {
            dice: dice.parse().ok()?,
            sides: sides.parse().ok()?,
            keep_highest: keep,
        })
    }

    /// The exact distribution, by [`Die::repeat_sum`] or [`Pool::keep_highest`].
    ///
    /// # Errors
    /// A die or pool error of fairdice.
    pub fn evaluate(&self) -> Result<Die, EngineError> {
        let die = Die::standard(self.sides)?;
        Ok(match self.keep_highest {
            None => die.repeat_sum(self.dice, &Control::new())?,
            Some(k) => Pool::new(&die, self.dice)?.keep_highest(k).sum()?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cases::{CaseTable, DICE, DROPS, LANGUAGE, SHAPES};

    #[test]
    fn fairdice_and_xdy_agree_outcome_by_outcome_on_every_dice_case() {
        let table = CaseTable::parse(DICE).unwrap();
        for case in &table.cases {
            let ours = run("fairdice", case.expression(&table, "fairdice").unwrap()).unwrap();
            let theirs = run("xdy", case.expression(&table, "xdy").unwrap()).unwrap();
            assert_eq!(ours.pairs(), theirs.pairs(), "{}", case.name);
        }
    }

    #[test]
    fn the_core_path_computes_what_the_notation_computes() {
        let table = CaseTable::parse(DICE).unwrap();
        for case in &table.cases {
            let expression = case.expression(&table, "fairdice").unwrap();
            let core = CoreCase::parse(expression).expect(expression);
            assert_eq!(core.evaluate().unwrap(), fairdice(expression).unwrap());
        }
    }

    #[test]
    fn every_language_case_evaluates_with_icepools_total() {
        // icepool's totals, for the runner's fingerprints to match: a natural 20
        // mixes 4d6 over 20 rolls (25,920), six ability scores are 1296^6 rolls,
        // a d8 and a d6 exploding nine times 8^10·6^10, and ten d10 with every
        // explosion as a die 10^100.
        let table = CaseTable::parse(LANGUAGE).unwrap();
        let totals = [
            ("crit", BigUint::from(25_920u32)),
            ("6x4d6kh3", BigUint::from(1296u32).pow(6)),
            ("best6x4d6kh3", BigUint::from(1296u32).pow(6)),
            (
                "wild",
                BigUint::from(8u32).pow(10) * BigUint::from(6u32).pow(10),
            ),
            ("10d10!kh3", BigUint::from(10u32).pow(100)),
        ];
        assert_eq!(table.cases.len(), totals.len());
        for (case, (name, total)) in table.cases.iter().zip(totals) {
            assert_eq!(case.name, name);
            let expression = case.expression(&table, "fairdice").unwrap();
            assert_eq!(fairdice(expression).unwrap().total(), total, "{name}");
        }
    }

    #[test]
    fn every_drops_case_matches_the_engines_rank_walk() {
        // The drops table's pools built by hand and summed by the pool engine
        // itself, which walks their ranks instead of cutting them at each face.
        use fairdice::dice::evaluator::{SumOf, evaluate_die};
        use fairdice::{Control, Die, Pool};
        let d = |sides| Die::standard(sides).unwrap();
        let pools = [
            ("10d6dl1", Pool::new(&d(6), 10).unwrap().drop_lowest(1)),
            ("30d6dl1", Pool::new(&d(6), 30).unwrap().drop_lowest(1)),
            ("60d6dl2", Pool::new(&d(6), 60).unwrap().drop_lowest(2)),
            ("100d10dl1", Pool::new(&d(10), 100).unwrap().drop_lowest(1)),
            ("30d20dh1", Pool::new(&d(20), 30).unwrap().drop_highest(1)),
            (
                "10x3dl1",
                Pool::mixed([(d(4), 10), (d(6), 10), (d(8), 10)])
                    .unwrap()
                    .drop_lowest(1),
            ),
            (
                "20x3dl2",
                Pool::mixed([(d(4), 20), (d(6), 20), (d(8), 20)])
                    .unwrap()
                    .drop_lowest(2),
            ),
        ];
        let table = CaseTable::parse(DROPS).unwrap();
        assert_eq!(table.cases.len(), pools.len());
        for (case, (name, pool)) in table.cases.iter().zip(pools) {
            assert_eq!(case.name, name);
            let walked = evaluate_die(&SumOf::identity(), &[&pool], &Control::new()).unwrap();
            let expression = case.expression(&table, "fairdice").unwrap();
            assert_eq!(fairdice(expression).unwrap(), walked, "{name}");
        }
    }

    #[test]
    fn every_shapes_case_has_icepools_total_and_the_middle_die_is_the_median() {
        // icepool's totals, for the runner's fingerprints to match: a compounding
        // d6 or d10 exploding nine times weighs 6^10 or 10^10 a die.
        let table = CaseTable::parse(SHAPES).unwrap();
        let power = |base: u32, exponent: u32| BigUint::from(base).pow(exponent);
        let totals = [
            ("3d20dh1dl1", power(20, 3)),
            ("12d6dh1dl1", power(6, 12)),
            ("30d10dh2dl2", power(10, 30)),
            ("10x2dh1dl1", power(6, 10) * power(8, 10)),
            ("10d6!!kh3", power(6, 100)),
            ("20d10!!kl5", power(10, 200)),
            ("10d6!!dh1dl1", power(6, 100)),
            ("20d6!!dh2dl2", power(6, 200)),
            ("30d6!!dh2dl2", power(6, 300)),
            ("20d6!!", power(6, 200)),
            ("30d6!!dl1", power(6, 300)),
        ];
        assert_eq!(table.cases.len(), totals.len());
        for (case, (name, total)) in table.cases.iter().zip(totals) {
            assert_eq!(case.name, name);
            let expression = case.expression(&table, "fairdice").unwrap();
            assert_eq!(fairdice(expression).unwrap().total(), total, "{name}");
        }
        // The middle of three d20, counted roll by roll.
        let mut medians = [0u64; 21];
        for a in 1..=20 {
            for b in 1..=20 {
                for c in 1..=20 {
                    let mut roll = [a, b, c];
                    roll.sort_unstable();
                    medians[roll[1]] += 1;
                }
            }
        }
        let counted: Vec<(i64, BigUint)> = (1..=20)
            .map(|m| (m as i64, BigUint::from(medians[m])))
            .collect();
        let median: Vec<(i64, BigUint)> = fairdice("3d20dh1dl1").unwrap().iter().collect();
        assert_eq!(median, counted);
    }

    #[test]
    fn core_cases_read_sums_and_keep_highest_only() {
        let kh = CoreCase::parse("100d10kh10").unwrap();
        assert_eq!((kh.dice, kh.sides, kh.keep_highest), (100, 10, Some(10)));
        assert_eq!(CoreCase::parse("3d6").unwrap().keep_highest, None);
        assert_eq!(CoreCase::parse("d6"), None);
        assert_eq!(CoreCase::parse("4d6kl3"), None);
    }

    #[test]
    fn unknown_engines_are_named_in_the_error() {
        let error = run("anydice", "3d6").unwrap_err().to_string();
        assert!(error.contains("anydice"), "{error}");
    }
}
