//! Solving a whole battle: the probability of every way it can end.
//!
//! # Design decisions
//! Armies only decrease, so every roll moves from `(A, D)` to a state with fewer
//! armies in all; sweeping the states from the largest total down visits each one
//! after everything that leads to it. The exact sweep keeps each probability as
//! `N / faces^k` (every roll's denominator is a power of the die size), so adding
//! two paths only aligns powers — no gcd per step — and the fraction is reduced once
//! at the end. The float sweep is the same walk in `f64`, for battles of thousands.

use std::collections::HashMap;
use std::collections::hash_map::Entry;

use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;
use num_traits::{One, Zero};

use super::error::{BattleError, MAX_EXACT_STATES, MAX_FLOAT_STATES};
use super::roll::{RollLosses, roll_losses};
use super::rules::Rules;
use crate::contest::ContestError;
use crate::control::{Control, Meter};
use crate::dice::die::DieError;
use crate::dice::die::ratio_to_f64;

/// How a battle ends: the probability of each final state.
#[derive(Debug, Clone, PartialEq)]
pub struct BattleOutcome<P> {
    /// Armies at the start.
    pub attacker: u32,
    /// Armies at the start.
    pub defender: u32,
    /// The rules.
    pub rules: Rules,
    /// `attacker_wins[a]`: probability that the attacker wins with `a` armies left.
    pub attacker_wins: Vec<P>,
    /// `defender_wins[d]`: probability that the defender holds with `d` armies left.
    pub defender_wins: Vec<P>,
}

/// Exact probabilities.
pub type ExactOutcome = BattleOutcome<BigRational>;
/// Floating-point probabilities.
pub type FloatOutcome = BattleOutcome<f64>;

/// Solves the battle exactly, charging `control` one step per state and pair, so
/// its budget or cancel switch can stop the sweep (e.g. a server's time limit).
///
/// # Errors
/// [`BattleError::Rules`] for invalid rules or armies;
/// [`BattleError::TooManyStates`] past [`MAX_EXACT_STATES`] (use [`solve_float`]);
/// [`BattleError::Roll`] if a roll is too large for the pool engine;
/// [`BattleError::Stopped`] when `control` stops it.
pub fn solve_exact(
    attacker: u32,
    defender: u32,
    rules: &Rules,
    control: &Control,
) -> Result<ExactOutcome, BattleError> {
    let meter = &mut control.meter().scaled(EXACT_STEPS_PER_PAIR);
    rules.check(attacker, defender)?;
    BattleError::check_states(attacker, defender, MAX_EXACT_STATES, "an exact")?;
    control.afford(sweep_steps(attacker, defender, rules, EXACT_STEPS_PER_PAIR))?;
    exact(attacker, defender, rules, meter)
}

/// The exact sweep of checked rules; `meter` may stop it.
fn exact(
    attacker: u32,
    defender: u32,
    rules: &Rules,
    meter: &mut Meter,
) -> Result<ExactOutcome, BattleError> {
    let faces = BigUint::from(rules.faces);
    let mut powers = vec![BigUint::one()];
    let raw = sweep::<Scaled>(
        attacker,
        defender,
        rules,
        &mut |mass, roll, k, dice| {
            let count = &roll.counts[k];
            Scaled {
                numerator: &mass.numerator * count,
                exponent: mass.exponent + dice,
            }
        },
        &mut |acc: &mut Scaled, add: Scaled| acc.add(add, &faces, &mut powers),
        meter,
    )?;
    let to_ratio = |s: &Scaled| {
        if s.numerator.is_zero() {
            return BigRational::zero();
        }
        BigRational::new(
            BigInt::from(s.numerator.clone()),
            BigInt::from(faces.pow(s.exponent)),
        )
    };
    Ok(BattleOutcome {
        attacker,
        defender,
        rules: *rules,
        attacker_wins: raw.attacker_wins.iter().map(to_ratio).collect(),
        defender_wins: raw.defender_wins.iter().map(to_ratio).collect(),
    })
}

/// Solves the battle in floating point (fast for thousands of armies), metered by
/// `control` as [`solve_exact`] is.
///
/// # Errors
/// As [`solve_exact`], with the limit [`MAX_FLOAT_STATES`].
pub fn solve_float(
    attacker: u32,
    defender: u32,
    rules: &Rules,
    control: &Control,
) -> Result<FloatOutcome, BattleError> {
    let meter = &mut control.meter().scaled(FLOAT_STEPS_PER_PAIR);
    rules.check(attacker, defender)?;
    BattleError::check_states(attacker, defender, MAX_FLOAT_STATES, "a floating-point")?;
    control.afford(sweep_steps(attacker, defender, rules, FLOAT_STEPS_PER_PAIR))?;
    float(attacker, defender, rules, meter)
}

/// The floating-point sweep of checked rules; `meter` may stop it.
fn float(
    attacker: u32,
    defender: u32,
    rules: &Rules,
    meter: &mut Meter,
) -> Result<FloatOutcome, BattleError> {
    let mut probabilities: HashMap<(u32, u32), Vec<f64>> = HashMap::new();
    sweep::<f64>(
        attacker,
        defender,
        rules,
        &mut |mass, roll, k, _| {
            let p = probabilities
                .entry((roll.attacker_dice, roll.defender_dice))
                .or_insert_with(|| roll.probabilities());
            mass * p[k]
        },
        &mut |acc, add| *acc += add,
        meter,
    )
}

/// Budget steps a state's pair of dice costs the exact sweep: its fractions'
/// products and sums (measured: 100 against 100, 10,000 states, 7.1 ms).
pub const EXACT_STEPS_PER_PAIR: u64 = 256;

/// Budget steps a state's pair of dice costs in floating point (measured: 1000
/// against 1000, a million states, 48 ms).
pub const FLOAT_STEPS_PER_PAIR: u64 = 16;

/// What a sweep from `attacker` against `defender` armies is charged at most:
/// every army state, a step for it and one for each pair of dice its roll
/// compares, `per_pair` budget steps each. Priced before the sweep, so a refusal
/// states the whole battle's estimate.
fn sweep_steps(attacker: u32, defender: u32, rules: &Rules, per_pair: u64) -> f64 {
    let states = (f64::from(attacker) + 1.0) * (f64::from(defender) + 1.0);
    let pairs = f64::from(rules.attacker_dice.min(rules.defender_dice));
    states * (pairs + 1.0) * per_pair as f64
}

/// P(attacker wins) from every start `(A, D)` with `1 <= A, D <= n` at once:
/// `table[a - 1][d - 1]`. One backward sweep, `O(n²)`; starts the attacker cannot
/// fight from (`A = 1` under the official rule) have probability 0.
///
/// # Errors
/// As [`solve_float`] for `n` against `n` armies.
pub fn win_table(n: u32, rules: &Rules, control: &Control) -> Result<Vec<Vec<f64>>, BattleError> {
    let mut meter = control.meter().scaled(FLOAT_STEPS_PER_PAIR);
    rules.check(rules.beaten_at() + 1, 1)?;
    BattleError::check_states(n, n, MAX_FLOAT_STATES, "a floating-point")?;
    control.afford(sweep_steps(n, n, rules, FLOAT_STEPS_PER_PAIR))?;
    let size = n as usize + 1;
    control.reserve((size as u64).pow(2).saturating_mul(8))?;
    let mut win = vec![vec![0.0f64; size]; size];
    let mut rolls: HashMap<(u32, u32), Vec<f64>> = HashMap::new();
    for a in 0..=n {
        for d in 0..=n {
            let Some((ad, dd)) = rules.dice(a, d) else {
                win[a as usize][d as usize] = if d == 0 && a > rules.beaten_at() {
                    1.0
                } else {
                    0.0
                };
                continue;
            };
            let p = match rolls.entry((ad, dd)) {
                Entry::Occupied(known) => known.into_mut(),
                Entry::Vacant(new) => {
                    new.insert(solve_roll(ad, dd, rules.faces, control)?.probabilities())
                }
            };
            let pairs = ad.min(dd);
            meter.charge(u64::from(pairs) + 1)?;
            win[a as usize][d as usize] = (0..=pairs)
                .map(|k| p[k as usize] * win[(a - k) as usize][(d - (pairs - k)) as usize])
                .sum();
        }
    }
    Ok((1..size).map(|a| win[a][1..].to_vec()).collect())
}

/// One roll, with its failure told as a battle's.
fn solve_roll(
    attacker: u32,
    defender: u32,
    faces: u64,
    control: &Control,
) -> Result<RollLosses, BattleError> {
    roll_losses(attacker, defender, faces, control).map_err(|source| match source {
        // Stopped by the battle's own control, not a fault of the roll.
        ContestError::Die(DieError::Stopped(stop)) => BattleError::Stopped(stop),
        source => BattleError::Roll {
            attacker,
            defender,
            source,
        },
    })
}

/// A probability `numerator / faces^exponent`.
#[derive(Debug, Clone, PartialEq, Default)]
struct Scaled {
    numerator: BigUint,
    exponent: u32,
}

impl Scaled {
    fn add(&mut self, other: Scaled, faces: &BigUint, powers: &mut Vec<BigUint>) {
        if other.numerator.is_zero() {
            return;
        }
        if self.numerator.is_zero() {
            *self = other;
            return;
        }
        let mut power = |n: u32| -> BigUint {
            while powers.len() <= n as usize {
                let next = powers.last().expect("starts with 1") * faces;
                powers.push(next);
            }
            powers[n as usize].clone()
        };
        if self.exponent >= other.exponent {
            self.numerator += other.numerator * power(self.exponent - other.exponent);
        } else {
            self.numerator =
                &self.numerator * power(other.exponent - self.exponent) + other.numerator;
            self.exponent = other.exponent;
        }
    }
}

/// What the sweep needs of a probability type.
trait Mass: Clone + Default {
    fn one() -> Self;
}

impl Mass for Scaled {
    fn one() -> Self {
        Scaled {
            numerator: BigUint::one(),
            exponent: 0,
        }
    }
}

impl Mass for f64 {
    fn one() -> Self {
        1.0
    }
}

/// The sweep over states, from the most armies down. `step(mass, roll, k, dice)`
/// is the mass carried by the roll result "attacker loses `k`"; `add` accumulates;
/// `meter` is charged the work done at each state and may stop the sweep.
fn sweep<P: Mass>(
    attacker: u32,
    defender: u32,
    rules: &Rules,
    step: &mut dyn FnMut(&P, &RollLosses, usize, u32) -> P,
    add: &mut dyn FnMut(&mut P, P),
    meter: &mut Meter,
) -> Result<BattleOutcome<P>, BattleError> {
    // The mass of every army state is held at once.
    let states = (u64::from(attacker) + 1) * (u64::from(defender) + 1);
    meter
        .control()
        .reserve(states.saturating_mul(std::mem::size_of::<P>() as u64 + 8))?;
    let mut rolls: HashMap<(u32, u32), RollLosses> = HashMap::new();
    let width = defender as usize + 1;
    let mut mass: Vec<P> = vec![P::default(); (attacker as usize + 1) * width];
    mass[attacker as usize * width + defender as usize] = P::one();
    let mut outcome = BattleOutcome {
        attacker,
        defender,
        rules: *rules,
        attacker_wins: vec![P::default(); attacker as usize + 1],
        defender_wins: vec![P::default(); defender as usize + 1],
    };
    for total in (0..=attacker + defender).rev() {
        for a in total.saturating_sub(defender)..=total.min(attacker) {
            let d = total - a;
            let here = std::mem::take(&mut mass[a as usize * width + d as usize]);
            let Some((att_dice, def_dice)) = rules.dice(a, d) else {
                if d == 0 {
                    add(&mut outcome.attacker_wins[a as usize], here);
                } else {
                    add(&mut outcome.defender_wins[d as usize], here);
                }
                continue;
            };
            let roll = match rolls.entry((att_dice, def_dice)) {
                Entry::Occupied(known) => known.into_mut(),
                Entry::Vacant(new) => new.insert(solve_roll(
                    att_dice,
                    def_dice,
                    rules.faces,
                    meter.control(),
                )?),
            };
            let pairs = roll.pairs();
            meter.charge(u64::from(pairs) + 1)?;
            for k in 0..=pairs {
                if roll.counts[k as usize].is_zero() {
                    continue;
                }
                let carried = step(&here, roll, k as usize, att_dice + def_dice);
                let next = (a - k) as usize * width + (d - (pairs - k)) as usize;
                add(&mut mass[next], carried);
            }
        }
    }
    Ok(outcome)
}

impl<P> BattleOutcome<P> {
    /// The probability that the attacker wins, in the outcome's number type.
    pub fn p_attacker_wins(&self) -> P
    where
        P: Clone + std::iter::Sum<P>,
    {
        self.attacker_wins.iter().cloned().sum()
    }
}

impl ExactOutcome {
    /// The exact outcome as floats.
    pub fn to_float(&self) -> FloatOutcome {
        BattleOutcome {
            attacker: self.attacker,
            defender: self.defender,
            rules: self.rules,
            attacker_wins: self.attacker_wins.iter().map(ratio_to_f64).collect(),
            defender_wins: self.defender_wins.iter().map(ratio_to_f64).collect(),
        }
    }
}

impl FloatOutcome {
    /// The probability that the attacker wins.
    pub fn attacker_win_probability(&self) -> f64 {
        self.attacker_wins.iter().sum()
    }

    /// The attacker's mean armies left, given that it won.
    pub fn attacker_survivors_if_win(&self) -> f64 {
        conditional_mean(&self.attacker_wins)
    }

    /// The defender's mean armies left, given that it held.
    pub fn defender_survivors_if_win(&self) -> f64 {
        conditional_mean(&self.defender_wins)
    }

    /// Expected armies lost by (attacker, defender).
    pub fn expected_losses(&self) -> (f64, f64) {
        let beaten = f64::from(self.rules.beaten_at());
        let att_left: f64 = self
            .attacker_wins
            .iter()
            .enumerate()
            .map(|(a, p)| a as f64 * p)
            .sum::<f64>()
            + beaten * self.defender_wins.iter().sum::<f64>();
        let def_left: f64 = self
            .defender_wins
            .iter()
            .enumerate()
            .map(|(d, p)| d as f64 * p)
            .sum();
        (
            f64::from(self.attacker) - att_left,
            f64::from(self.defender) - def_left,
        )
    }
}

/// `Σ i·p_i / Σ p_i`.
fn conditional_mean(p: &[f64]) -> f64 {
    let total: f64 = p.iter().sum();
    if total == 0.0 {
        return 0.0;
    }
    p.iter().enumerate().map(|(i, p)| i as f64 * p).sum::<f64>() / total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battle::RulesError;
    use crate::battle::rules::Rule;

    fn rules(rule: Rule, faces: u64) -> Rules {
        Rules {
            rule,
            faces,
            ..Rules::default()
        }
    }

    /// The battle by brute-force recursion over rolls, in exact fractions.
    fn brute(
        a: u32,
        d: u32,
        rules: &Rules,
        p: BigRational,
        out: &mut HashMap<(u32, u32), BigRational>,
    ) {
        let Some((ad, dd)) = rules.dice(a, d) else {
            *out.entry((a, d)).or_insert_with(BigRational::zero) += p;
            return;
        };
        let roll = roll_losses(ad, dd, rules.faces, &Control::new()).unwrap();
        let total = BigInt::from(roll.total());
        for (k, c) in roll.counts.iter().enumerate() {
            let q = &p * BigRational::new(BigInt::from(c.clone()), total.clone());
            let k = k as u32;
            brute(a - k, d - (roll.pairs() - k), rules, q, out);
        }
    }

    #[test]
    fn small_battles_match_brute_force() {
        for rule in [Rule::Simple, Rule::Official] {
            for faces in [4, 6] {
                let r = rules(rule, faces);
                for a in 2..=5 {
                    for d in 1..=4 {
                        let exact = solve_exact(a, d, &r, &Control::new()).unwrap();
                        let mut expected = HashMap::new();
                        brute(a, d, &r, BigRational::one(), &mut expected);
                        for (x, p) in exact.attacker_wins.iter().enumerate() {
                            let e = expected
                                .get(&(x as u32, 0))
                                .cloned()
                                .unwrap_or_else(BigRational::zero);
                            assert_eq!(*p, e, "{rule} d{faces} {a}v{d}: attacker left {x}");
                        }
                        for (y, p) in exact.defender_wins.iter().enumerate() {
                            let e = expected
                                .get(&(r.beaten_at(), y as u32))
                                .cloned()
                                .unwrap_or_else(BigRational::zero);
                            assert_eq!(*p, e, "{rule} d{faces} {a}v{d}: defender left {y}");
                        }
                        let total: BigRational = exact
                            .attacker_wins
                            .iter()
                            .chain(&exact.defender_wins)
                            .cloned()
                            .sum();
                        assert_eq!(total, BigRational::one());
                        let float = solve_float(a, d, &r, &Control::new()).unwrap();
                        assert!(
                            (float.attacker_win_probability()
                                - ratio_to_f64(&exact.p_attacker_wins()))
                            .abs()
                                < 1e-12
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn the_table_agrees_with_single_battles() {
        for rule in [Rule::Simple, Rule::Official] {
            let r = rules(rule, 6);
            let table = win_table(8, &r, &Control::new()).unwrap();
            for a in (r.beaten_at() + 1)..=8 {
                for d in 1..=8 {
                    let single = solve_float(a, d, &r, &Control::new())
                        .unwrap()
                        .attacker_win_probability();
                    assert!((table[a as usize - 1][d as usize - 1] - single).abs() < 1e-12);
                }
            }
        }
    }

    #[test]
    fn one_on_one_is_the_single_die_duel() {
        // One d6 against one d6, defender wins ties: the attacker wins 15/36.
        let exact = solve_exact(1, 1, &rules(Rule::Simple, 6), &Control::new()).unwrap();
        assert_eq!(
            exact.p_attacker_wins(),
            BigRational::new(5.into(), 12.into())
        );
    }

    #[test]
    fn a_meter_stops_the_sweep_and_otherwise_changes_nothing() {
        let r = Rules::default();
        let control = Control::unlimited();
        let metered = solve_exact(20, 20, &r, &control).unwrap();
        // EXACT_STEPS_PER_PAIR a state and pair, at most 3 pairs per state of the
        // 21 × 21 grid, plus the work of solving each kind of roll once.
        let rolls = Control::unlimited();
        crate::battle::report::per_roll(&r, &rolls).unwrap();
        let used = control.steps_used();
        assert!(
            used > 400 * EXACT_STEPS_PER_PAIR
                && used <= 3 * 21 * 21 * EXACT_STEPS_PER_PAIR + rolls.steps_used(),
            "{used}"
        );
        assert_eq!(metered.attacker_wins.len(), 21);

        // The sweep is priced before it starts at what its meter could charge: a
        // budget of 1,000 steps refuses 200 against 200 with the whole battle's
        // estimate (201 × 201 states, 3 charges each at most), not a roll's.
        let small = Control::new().with_max_steps(1000);
        assert_eq!(
            solve_float(200, 200, &r, &small),
            Err(BattleError::Stopped(crate::Stop::OverEstimate {
                estimate: 201 * 201 * 3 * FLOAT_STEPS_PER_PAIR,
                limit: 1000
            }))
        );
        let priced = Control::unlimited();
        solve_float(200, 200, &r, &priced).unwrap();
        assert!(priced.steps_used() <= 201 * 201 * 3 * FLOAT_STEPS_PER_PAIR);
        let cancelled = Control::unlimited();
        cancelled.cancel();
        assert_eq!(
            solve_exact(200, 200, &r, &cancelled),
            Err(BattleError::Stopped(crate::Stop::Cancelled))
        );
        assert!(matches!(
            solve_exact(0, 3, &r, &Control::new()),
            Err(BattleError::Rules(RulesError::TooFewArmies { .. }))
        ));
    }

    #[test]
    fn invalid_armies_are_rejected() {
        assert!(matches!(
            solve_exact(1, 3, &rules(Rule::Official, 6), &Control::new()),
            Err(BattleError::Rules(RulesError::TooFewArmies {
                side: "attacker",
                least: 2,
                ..
            }))
        ));
        assert!(matches!(
            solve_float(3, 0, &Rules::default(), &Control::new()),
            Err(BattleError::Rules(RulesError::TooFewArmies {
                side: "defender",
                ..
            }))
        ));
        assert_eq!(
            solve_exact(3, 3, &rules(Rule::Simple, 1), &Control::new()),
            Err(BattleError::Rules(RulesError::TooFewFaces(1)))
        );
    }

    #[test]
    fn battles_too_large_for_a_sweep_are_refused_before_allocating() {
        let too_big = solve_float(100_000, 100_000, &Rules::default(), &Control::new());
        assert!(matches!(
            too_big,
            Err(BattleError::TooManyStates {
                states: 10_000_200_001,
                ..
            })
        ));
        assert!(too_big.unwrap_err().is_too_large());
        assert!(matches!(
            solve_exact(2_000, 2_000, &Rules::default(), &Control::new()),
            Err(BattleError::TooManyStates { .. })
        ));
        assert!(matches!(
            win_table(10_000, &Rules::default(), &Control::new()),
            Err(BattleError::TooManyStates { .. })
        ));
    }

    #[test]
    fn a_roll_too_large_for_the_pool_engine_is_an_error_not_a_panic() {
        let huge = Rules {
            attacker_dice: 1_000,
            defender_dice: 1_000,
            faces: 100_000,
            ..Rules::default()
        };
        // A budget the sweep's price (1001² states of 1,001 pairs) fits, but no
        // roll of a thousand dice of 100,000 faces a side.
        let control = Control::new().with_max_steps(100_000_000_000);
        let error = solve_float(1_000, 1_000, &huge, &control).unwrap_err();
        assert!(
            matches!(
                error,
                BattleError::Roll {
                    attacker: 1_000,
                    ..
                }
            ),
            "{error}"
        );
        assert!(error.is_too_large());
    }

    #[test]
    fn absurd_dice_are_invalid_rules() {
        let faces = Rules {
            faces: 1_000_000_000,
            ..Rules::default()
        };
        assert!(matches!(
            solve_exact(5, 5, &faces, &Control::new()),
            Err(BattleError::Rules(RulesError::TooManyFaces { .. }))
        ));
        let dice = Rules {
            attacker_dice: 4_000_000_000,
            ..Rules::default()
        };
        assert!(matches!(
            solve_exact(5, 5, &dice, &Control::new()),
            Err(BattleError::Rules(RulesError::TooManyDice { .. }))
        ));
    }
}
