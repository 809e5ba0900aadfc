//! Writing a [`Tree`] as notation, with varied whitespace and equivalent spellings.

use fairdice::BinaryOp;
use fairdice::dice::notation::ast::{Comparison, Condition, ExplodeKind, ExplodeLimit, Keep};

use super::tree::{Tree, Written, WrittenFaces};

/// Binding strength, loosest first: conditional 0, `or` 1, `and` 2, `not` 3,
/// comparisons 4, sums 5, products 6, unary minus 7, atoms 8.
fn precedence(tree: &Tree) -> u8 {
    match tree {
        Tree::Conditional(..) => 0,
        Tree::Binary(op, ..) => op_precedence(*op),
        Tree::Not(_) => 3,
        Tree::Negate(_) => 7,
        _ => 8,
    }
}

fn op_precedence(op: BinaryOp) -> u8 {
    match op {
        BinaryOp::Or => 1,
        BinaryOp::And => 2,
        BinaryOp::Add | BinaryOp::Sub => 5,
        BinaryOp::Mul | BinaryOp::Div | BinaryOp::Mod => 6,
        _ => 4,
    }
}

const ATOM: u8 = 8;

/// Writes a tree as notation, varying whitespace and equivalent spellings with
/// a seeded choice.
struct Writer {
    out: String,
    state: u64,
}

impl Writer {
    fn pick(&mut self, n: u64) -> u64 {
        // splitmix64
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        (z ^ (z >> 31)) % n
    }

    fn space(&mut self) {
        let spaces = ["", "", "", " ", "  ", "\t", "\n"];
        let i = self.pick(spaces.len() as u64) as usize;
        self.out.push_str(spaces[i]);
    }

    fn tree(&mut self, tree: &Tree, min_precedence: u8) {
        let parenthesized = precedence(tree) < min_precedence;
        if parenthesized {
            self.out.push('(');
            self.space();
        }
        match tree {
            Tree::Number(n) => self.out.push_str(&n.to_string()),
            Tree::Negate(inner) => {
                self.out.push('-');
                self.space();
                self.tree(inner, 7);
            }
            Tree::Not(inner) => {
                self.out.push_str("not ");
                self.space();
                self.tree(inner, 3);
            }
            Tree::Binary(op, left, right) => {
                let p = op_precedence(*op);
                // Comparisons do not chain: both sides bind tighter.
                self.tree(left, if p == 4 { 5 } else { p });
                self.separate();
                let word = matches!(op, BinaryOp::And | BinaryOp::Or);
                if word {
                    self.out.push(' ');
                }
                self.out.push_str(op.symbol());
                if word {
                    self.out.push(' ');
                }
                self.space();
                self.tree(right, p + 1);
            }
            Tree::Conditional(condition, then, otherwise) => {
                self.tree(condition, 1);
                self.separate();
                self.out.push('?');
                self.space();
                self.tree(then, 0);
                self.space();
                self.out.push(':');
                self.space();
                self.tree(otherwise, 0);
            }
            Tree::Call(function, arguments) => {
                self.out.push_str(function.name());
                self.out.push('(');
                self.list(arguments);
                self.out.push(')');
            }
            Tree::Group(members, modifiers) => {
                self.out.push('{');
                self.list(members);
                self.out.push('}');
                self.modifiers(modifiers);
            }
            Tree::Repeat(count, body, modifiers) => {
                match count.as_ref() {
                    Tree::Number(n) => self.out.push_str(&n.to_string()),
                    count => {
                        self.out.push('(');
                        self.tree(count, 0);
                        self.out.push(')');
                    }
                }
                self.out.push('#');
                // The modifiers after a dice term belong to it.
                let wrap = matches!(body.as_ref(), Tree::Repeat(..))
                    || (matches!(body.as_ref(), Tree::Dice { .. } | Tree::Group(..))
                        && !modifiers.is_empty());
                if wrap {
                    self.out.push('(');
                    self.tree(body, 0);
                    self.out.push(')');
                } else {
                    self.tree(body, ATOM);
                }
                self.modifiers(modifiers);
            }
            Tree::Dice {
                count,
                faces,
                modifiers,
            } => self.dice(count.as_deref(), faces, modifiers),
        }
        if parenthesized {
            self.space();
            self.out.push(')');
        }
    }

    /// Space before an operator: a modifier would swallow a `>=5` or `!=5`.
    fn separate(&mut self) {
        // A modifier that may still take a condition, or Foundry's `x` with a
        // number (`x5` reads on into `x5<3`, at most 5 extra rolls on under 3).
        let digits = self.out.trim_end_matches(|c: char| c.is_ascii_digit());
        let x_count = digits.len() < self.out.len() && digits.ends_with('x');
        if self.out.ends_with(['!', 'x', 'o', 'p']) || x_count {
            self.out.push(' ');
        }
        self.space();
    }

    fn list(&mut self, items: &[Tree]) {
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                self.space();
                self.out.push(',');
            }
            self.space();
            self.tree(item, 0);
            self.space();
        }
    }

    fn modifiers(&mut self, modifiers: &[Written]) {
        for modifier in modifiers {
            self.space();
            let text = self.modifier(modifier);
            // `!` then `!5` would read as `!!`; `!` then `p` as `!p`.
            if self.out.ends_with('!') && (text.starts_with('!') || text.starts_with('p')) {
                self.out.push(' ');
            }
            // After a number or `)`, `df…` would read as Fudge dice (`(2d6)dF`).
            if self.out.ends_with(|c: char| c.is_ascii_digit() || c == ')') && text.starts_with('d')
            {
                self.out.push(' ');
            }
            // `xo` then `odd` would read `o` twice; `x` then `o…` as `xo`.
            if self.out.ends_with(['x', 'o']) && text.starts_with('o') {
                self.out.push(' ');
            }
            self.out.push_str(&text);
        }
    }

    fn dice(&mut self, count: Option<&Tree>, faces: &WrittenFaces, modifiers: &[Written]) {
        match count {
            None => {}
            Some(Tree::Number(n)) => self.out.push_str(&n.to_string()),
            Some(count) => {
                self.out.push('(');
                self.space();
                self.tree(count, 0);
                self.space();
                self.out.push(')');
            }
        }
        let letter = if self.pick(4) == 0 { 'D' } else { 'd' };
        self.out.push(letter);
        match faces {
            WrittenFaces::Standard(n) => self.out.push_str(&n.to_string()),
            WrittenFaces::Percent => self.out.push('%'),
            WrittenFaces::Fudge => {
                let letter = if self.pick(2) == 0 { 'F' } else { 'f' };
                self.out.push(letter);
            }
            WrittenFaces::Ranges(ranges) => {
                self.out.push('{');
                for (i, &(low, high)) in ranges.iter().enumerate() {
                    if i > 0 {
                        self.space();
                        self.out.push(',');
                    }
                    self.space();
                    if low == high && self.pick(2) == 0 {
                        self.out.push_str(&low.to_string());
                    } else {
                        self.out.push_str(&low.to_string());
                        self.space();
                        self.out.push_str("..");
                        self.space();
                        self.out.push_str(&high.to_string());
                    }
                }
                self.space();
                self.out.push('}');
            }
        }
        self.modifiers(modifiers);
    }

    fn modifier(&mut self, modifier: &Written) -> String {
        match modifier {
            Written::Explode(kind, condition) => {
                let letters = match kind {
                    ExplodeKind::Dice => "!",
                    ExplodeKind::Compound => "!!",
                    ExplodeKind::Penetrate => "!p",
                    ExplodeKind::CompoundPenetrate => "!!p",
                };
                match condition {
                    None => letters.to_string(),
                    Some(c) if c.comparison == Comparison::Eq => format!("{letters}{}", c.value),
                    Some(c) => format!("{letters}{c}"),
                }
            }
            Written::ExplodeX(limit, condition) => {
                let letters = match limit {
                    ExplodeLimit::Depth => "x".to_string(),
                    ExplodeLimit::Once => "xo".to_string(),
                    ExplodeLimit::PerTerm(cap) => format!("x{cap}"),
                };
                match (limit, condition) {
                    (_, None) => letters,
                    (ExplodeLimit::PerTerm(_), Some(c)) => format!("{letters}{c}"),
                    (_, Some(c))
                        if c.comparison == Comparison::Eq && c.value >= 0 && self.pick(2) == 0 =>
                    {
                        format!("{letters}{}", c.value)
                    }
                    (_, Some(c)) => format!("{letters}{c}"),
                }
            }
            Written::Minimum(v) => format!("min{v}"),
            Written::Maximum(v) => format!("max{v}"),
            Written::CountFailures(c) => format!("cf{}", self.condition(c)),
            Written::Parity(c) => if *c == Comparison::Even {
                "even"
            } else {
                "odd"
            }
            .to_string(),
            Written::Reroll(c) => format!("r{}", self.condition(c)),
            Written::RerollOnce(c) => format!("ro{}", self.condition(c)),
            Written::CountSuccesses(c) => format!("cs{}", self.condition(c)),
            Written::DeductFailures(c) => format!("df{}", self.condition(c)),
            Written::Keep(keep) => {
                let (letters, n) = match *keep {
                    Keep::Highest(n) => (["kh", "k"][self.pick(2) as usize], n),
                    Keep::Lowest(n) => ("kl", n),
                    Keep::DropHighest(n) => ("dh", n),
                    Keep::DropLowest(n) => ("dl", n),
                };
                if n == 1 && self.pick(2) == 0 {
                    letters.to_string()
                } else {
                    format!("{letters}{n}")
                }
            }
        }
    }

    fn condition(&mut self, condition: &Condition) -> String {
        match condition.comparison {
            Comparison::Eq => {
                let prefix = ["", "=", "=="][self.pick(3) as usize];
                format!("{prefix}{}", condition.value)
            }
            _ => condition.to_string(),
        }
    }
}

pub fn write(tree: &Tree, seed: u64) -> String {
    let mut writer = Writer {
        out: String::new(),
        state: seed,
    };
    writer.space();
    writer.tree(tree, 0);
    writer.space();
    writer.out
}
