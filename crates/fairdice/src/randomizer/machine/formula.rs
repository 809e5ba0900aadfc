//! [`Formula`]: the small exact arithmetic a machine document writes its chances
//! and counter moves in: `0.6%`, `1/2`, `min(1, 0.006 + 0.06 * max(0, n - 72))`,
//! `n >= 19 ? 1 : 1/100`.
//!
//! ```text
//! formula = choice
//! choice  = compare [ "?" choice ":" choice ]
//! compare = sum [ ("<" | "<=" | ">" | ">=" | "==" | "!=") sum ]
//! sum     = product { ("+" | "-") product }
//! product = unary { ("*" | "/") unary }
//! unary   = "-" unary | atom
//! atom    = number [ "%" ] | "n" | parameter
//!         | ("min" | "max") "(" formula { "," formula } ")" | "(" formula ")"
//! ```
//! A parameter is a name the document's `parameters` defines; it reads as its
//! exact value.
//!
//! # Design decisions
//! Values are rationals of 128-bit integers with checked arithmetic: a chance is
//! exact (`0.006` is 3/500, never the nearest double), and a formula whose
//! numbers outgrow 128 bits is refused by name rather than rounded. Numbers are at
//! most [`MAX_FORMULA_DIGITS`] digits and formulas at most [`MAX_FORMULA_BYTES`] bytes and
//! [`MAX_FORMULA_DEPTH`] brackets deep, so hostile text costs nothing to refuse. A
//! comparison gives 1 or 0.

use num_rational::Ratio;
use num_traits::{CheckedAdd, CheckedDiv, CheckedMul, CheckedSub, One, Zero};

/// An exact value.
pub(crate) type Exact = Ratio<i128>;

/// The longest formula read, in bytes.
pub const MAX_FORMULA_BYTES: usize = 400;

/// The most digits in one number.
pub const MAX_FORMULA_DIGITS: usize = 30;

/// The deepest nesting of brackets and operators.
pub const MAX_FORMULA_DEPTH: usize = 32;

/// Why a formula could not be read or evaluated: a message naming the place.
pub(crate) type FormulaError = String;

/// A parsed formula, evaluated for each value of the counter `n`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Formula {
    Number(Exact),
    Counter,
    Negate(Box<Formula>),
    Binary(Operator, Box<Formula>, Box<Formula>),
    Extreme { max: bool, terms: Vec<Formula> },
    Choice(Box<[Formula; 3]>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Operator {
    Add,
    Subtract,
    Multiply,
    Divide,
    Less,
    LessOrEqual,
    Greater,
    GreaterOrEqual,
    Equal,
    NotEqual,
}

impl Formula {
    /// Reads `text`; `counter` says whether `n` is defined (a counter layer),
    /// `parameters` are the names it may use and their values.
    pub(crate) fn parse(
        text: &str,
        counter: bool,
        parameters: &[(String, Exact)],
    ) -> Result<Formula, FormulaError> {
        if text.len() > MAX_FORMULA_BYTES {
            return Err(format!(
                "the formula is {} bytes; accepted: at most {MAX_FORMULA_BYTES}",
                text.len()
            ));
        }
        let mut reader = Reader {
            text,
            at: 0,
            depth: 0,
            counter,
            parameters,
        };
        let formula = reader.choice()?;
        reader.skip_space();
        if reader.at < text.len() {
            return Err(reader.expected("an operator or the end"));
        }
        Ok(formula)
    }

    /// Its value with the counter at `n`.
    pub(crate) fn evaluate(&self, n: u64) -> Result<Exact, FormulaError> {
        let overflow = || "a number in the formula outgrows 128 bits".to_string();
        Ok(match self {
            Formula::Number(value) => *value,
            Formula::Counter => Exact::from_integer(i128::from(n)),
            Formula::Negate(a) => Exact::zero()
                .checked_sub(&a.evaluate(n)?)
                .ok_or_else(overflow)?,
            Formula::Binary(operator, a, b) => {
                let (a, b) = (a.evaluate(n)?, b.evaluate(n)?);
                let truth = |t: bool| if t { Exact::one() } else { Exact::zero() };
                match operator {
                    Operator::Add => a.checked_add(&b).ok_or_else(overflow)?,
                    Operator::Subtract => a.checked_sub(&b).ok_or_else(overflow)?,
                    Operator::Multiply => a.checked_mul(&b).ok_or_else(overflow)?,
                    Operator::Divide => {
                        if b.is_zero() {
                            return Err(format!("division by zero (n = {n})"));
                        }
                        a.checked_div(&b).ok_or_else(overflow)?
                    }
                    Operator::Less => truth(a < b),
                    Operator::LessOrEqual => truth(a <= b),
                    Operator::Greater => truth(a > b),
                    Operator::GreaterOrEqual => truth(a >= b),
                    Operator::Equal => truth(a == b),
                    Operator::NotEqual => truth(a != b),
                }
            }
            Formula::Extreme { max, terms } => {
                let mut best: Option<Exact> = None;
                for term in terms {
                    let value = term.evaluate(n)?;
                    best = Some(match best {
                        Some(b) if (value > b) != *max => b,
                        _ => value,
                    });
                }
                best.unwrap_or_else(Exact::zero)
            }
            Formula::Choice(parts) => {
                if parts[0].evaluate(n)?.is_zero() {
                    parts[2].evaluate(n)?
                } else {
                    parts[1].evaluate(n)?
                }
            }
        })
    }
}

struct Reader<'a> {
    text: &'a str,
    at: usize,
    depth: usize,
    counter: bool,
    parameters: &'a [(String, Exact)],
}

impl Reader<'_> {
    fn skip_space(&mut self) {
        while self.text[self.at..].starts_with(|c: char| c.is_ascii_whitespace()) {
            self.at += 1;
        }
    }

    fn expected(&self, what: &str) -> FormulaError {
        let found = self.text[self.at..]
            .chars()
            .next()
            .map_or_else(|| "the end".to_string(), |c| format!("`{c}`"));
        format!(
            "at byte {} of `{}`: expected {what}, found {found}",
            self.at, self.text
        )
    }

    /// Consumes `token` (after spaces) when it comes next.
    fn eat(&mut self, token: &str) -> bool {
        self.skip_space();
        if self.text[self.at..].starts_with(token) {
            self.at += token.len();
            true
        } else {
            false
        }
    }

    fn descend(&mut self) -> Result<(), FormulaError> {
        self.depth += 1;
        if self.depth > MAX_FORMULA_DEPTH {
            return Err(format!(
                "the formula nests more than {MAX_FORMULA_DEPTH} deep: `{}`",
                self.text
            ));
        }
        Ok(())
    }

    fn choice(&mut self) -> Result<Formula, FormulaError> {
        self.descend()?;
        let condition = self.compare()?;
        let formula = if self.eat("?") {
            let yes = self.choice()?;
            if !self.eat(":") {
                return Err(self.expected("`:` and the value when the condition fails"));
            }
            let no = self.choice()?;
            Formula::Choice(Box::new([condition, yes, no]))
        } else {
            condition
        };
        self.depth -= 1;
        Ok(formula)
    }

    fn compare(&mut self) -> Result<Formula, FormulaError> {
        let left = self.sum()?;
        for (token, operator) in [
            ("<=", Operator::LessOrEqual),
            (">=", Operator::GreaterOrEqual),
            ("==", Operator::Equal),
            ("!=", Operator::NotEqual),
            ("<", Operator::Less),
            (">", Operator::Greater),
        ] {
            if self.eat(token) {
                let right = self.sum()?;
                return Ok(Formula::Binary(operator, Box::new(left), Box::new(right)));
            }
        }
        Ok(left)
    }

    fn sum(&mut self) -> Result<Formula, FormulaError> {
        let mut left = self.product()?;
        loop {
            let operator = if self.eat("+") {
                Operator::Add
            } else if self.eat("-") {
                Operator::Subtract
            } else {
                return Ok(left);
            };
            let right = self.product()?;
            left = Formula::Binary(operator, Box::new(left), Box::new(right));
        }
    }

    fn product(&mut self) -> Result<Formula, FormulaError> {
        let mut left = self.unary()?;
        loop {
            let operator = if self.eat("*") {
                Operator::Multiply
            } else if self.eat("/") {
                Operator::Divide
            } else {
                return Ok(left);
            };
            let right = self.unary()?;
            left = Formula::Binary(operator, Box::new(left), Box::new(right));
        }
    }

    fn unary(&mut self) -> Result<Formula, FormulaError> {
        if self.eat("-") {
            self.descend()?;
            let inner = self.unary()?;
            self.depth -= 1;
            return Ok(Formula::Negate(Box::new(inner)));
        }
        self.atom()
    }

    fn atom(&mut self) -> Result<Formula, FormulaError> {
        self.skip_space();
        let rest = &self.text[self.at..];
        if rest.starts_with(|c: char| c.is_ascii_digit() || c == '.') {
            return self.number();
        }
        if self.eat("(") {
            let inner = self.choice()?;
            if !self.eat(")") {
                return Err(self.expected("`)`"));
            }
            return Ok(inner);
        }
        let word_len = rest
            .find(|c: char| !c.is_ascii_alphanumeric() && c != '_')
            .unwrap_or(rest.len());
        let word = &rest[..word_len];
        match word {
            "n" => {
                if !self.counter {
                    return Err(format!(
                        "`n` in `{}`: only a counter layer has a count n",
                        self.text
                    ));
                }
                self.at += 1;
                Ok(Formula::Counter)
            }
            "min" | "max" => {
                self.at += 3;
                if !self.eat("(") {
                    return Err(self.expected(&format!("`(` after {word}")));
                }
                let mut terms = vec![self.choice()?];
                while self.eat(",") {
                    terms.push(self.choice()?);
                }
                if !self.eat(")") {
                    return Err(self.expected("`,` or `)`"));
                }
                Ok(Formula::Extreme {
                    max: word == "max",
                    terms,
                })
            }
            _ => {
                if let Some((_, value)) = self.parameters.iter().find(|(name, _)| name == word) {
                    self.at += word.len();
                    return Ok(Formula::Number(*value));
                }
                let names: Vec<&str> = self.parameters.iter().map(|(n, _)| n.as_str()).collect();
                let what = if names.is_empty() {
                    "a number, n, min(…), max(…) or `(`".to_string()
                } else {
                    format!(
                        "a number, n, a parameter ({}), min(…), max(…) or `(`",
                        names.join(", ")
                    )
                };
                Err(self.expected(&what))
            }
        }
    }

    fn number(&mut self) -> Result<Formula, FormulaError> {
        let rest = &self.text[self.at..];
        let len = rest
            .find(|c: char| !c.is_ascii_digit() && c != '.')
            .unwrap_or(rest.len());
        let literal = &rest[..len];
        let (whole, fraction) = literal.split_once('.').unwrap_or((literal, ""));
        if fraction.contains('.') || (whole.is_empty() && fraction.is_empty()) {
            return Err(self.expected("a number such as 12, 0.5 or 1/3"));
        }
        if whole.len() + fraction.len() > MAX_FORMULA_DIGITS {
            let shown: String = literal.chars().take(20).collect();
            return Err(format!(
                "the number {shown}… ({} digits) has more than {MAX_FORMULA_DIGITS} digits",
                whole.len() + fraction.len()
            ));
        }
        let digits: i128 = format!("{whole}{fraction}")
            .parse()
            .map_err(|_| self.expected("a number"))?;
        // MAX_FORMULA_DIGITS < 38, so 10^len fits.
        let mut value = Exact::new(digits, 10i128.pow(fraction.len() as u32));
        self.at += len;
        if self.eat("%") {
            value = value
                .checked_div(&Exact::from_integer(100))
                .ok_or_else(|| format!("the number {literal}% outgrows 128 bits"))?;
        }
        Ok(Formula::Number(value))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(text: &str, n: u64) -> Exact {
        Formula::parse(text, true, &[])
            .and_then(|f| f.evaluate(n))
            .unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    #[test]
    fn arithmetic_is_exact() {
        assert_eq!(value("0.006", 0), Exact::new(3, 500));
        assert_eq!(value("0.6%", 0), Exact::new(3, 500));
        assert_eq!(value("1/3 + 1/6", 0), Exact::new(1, 2));
        assert_eq!(
            value("min(1, 0.006 + 0.06 * max(0, n - 72))", 73),
            Exact::new(33, 500)
        );
        assert_eq!(
            value("min(1, 0.006 + 0.06 * max(0, n - 72))", 89),
            Exact::one()
        );
        assert_eq!(value("n >= 19 ? 1 : 1/100", 19), Exact::one());
        assert_eq!(value("n >= 19 ? 1 : 1/100", 3), Exact::new(1, 100));
        assert_eq!(value("-(2 - 5) * 2", 0), Exact::from_integer(6));
        assert_eq!(value("2 - 3 - 4", 0), Exact::from_integer(-5));
        assert_eq!(
            value("n == 2 ? 1 : n == 3 ? 2 : 3", 3),
            Exact::from_integer(2)
        );
    }

    #[test]
    fn parameters_read_as_their_values() {
        let parameters = [
            ("step".to_string(), Exact::new(1, 10)),
            ("cap".to_string(), Exact::from_integer(25)),
        ];
        let value = |text: &str, n: u64| {
            Formula::parse(text, true, &parameters)
                .and_then(|f| f.evaluate(n))
                .unwrap_or_else(|e| panic!("{text}: {e}"))
        };
        assert_eq!(value("min(1, 1/2 + step * n)", 3), Exact::new(4, 5));
        assert_eq!(value("n == cap - 1 ? 1 : 2%", 24), Exact::one());
        let error = Formula::parse("steps", true, &parameters).unwrap_err();
        assert!(error.contains("a parameter (step, cap)"), "{error}");
    }

    #[test]
    fn bad_formulas_are_named() {
        for (text, needle) in [
            ("1 +", "expected a number"),
            ("min(1, 2", "`,` or `)`"),
            ("1 / 0", "division by zero"),
            ("n ? 1", "`:`"),
            ("1.2.3", "a number such as"),
            ("x", "expected a number, n"),
            ("1 2", "an operator or the end"),
        ] {
            let error = Formula::parse(text, true, &[])
                .and_then(|f| f.evaluate(0))
                .expect_err(text);
            assert!(error.contains(needle), "{text}: {error}");
        }
        assert!(
            Formula::parse("n", false, &[])
                .unwrap_err()
                .contains("counter layer")
        );
        let long = "1".repeat(MAX_FORMULA_DIGITS + 1);
        assert!(
            Formula::parse(&long, false, &[])
                .unwrap_err()
                .contains("digits")
        );
        let deep = format!("{}1{}", "(".repeat(40), ")".repeat(40));
        assert!(
            Formula::parse(&deep, false, &[])
                .unwrap_err()
                .contains("deep")
        );
        let minus = format!("{}1", "-".repeat(40));
        assert!(
            Formula::parse(&minus, false, &[])
                .unwrap_err()
                .contains("deep")
        );
        let huge = "1000000000000000000000000000 * ".repeat(3) + "1";
        assert!(
            Formula::parse(&huge, false, &[])
                .and_then(|f| f.evaluate(0))
                .unwrap_err()
                .contains("128 bits")
        );
    }
}
