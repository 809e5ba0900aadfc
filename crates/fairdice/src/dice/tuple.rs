//! [`TupleCode`]: several results of one roll, `(count(p, 5, 6), count(p, 1))`,
//! carried through the engine as one integer outcome.
//!
//! # Design decisions
//! A die's outcomes are integers, and everything that builds dice (sums,
//! mixtures over names, Monte Carlo tallies) works on integers. A tuple of `k`
//! values is packed into one: each value gets `63 / k` bits, offset to be
//! non-negative, the first value in the highest bits. Packed outcomes sort as
//! their tuples do (first value first), and the packing of independent values is
//! the sum of each one in its own field, so the joint distribution of a tuple is the
//! sum of its members' packed dice. A value outside the bits its field holds
//! (±2^30 for a pair, ±1,048,575 for three, ±511 for six) is refused rather than
//! wrapped.

use super::die::{DieError, Outcome};

/// The most values a tuple may hold.
pub const MAX_TUPLE: usize = 6;

/// The packing of tuples of one size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TupleCode {
    size: usize,
}

impl TupleCode {
    /// The packing of tuples of `size` values (2 to [`MAX_TUPLE`]).
    ///
    /// # Panics
    /// If `size` is outside 2 to [`MAX_TUPLE`] (the parser refuses such tuples).
    pub fn new(size: usize) -> TupleCode {
        assert!((2..=MAX_TUPLE).contains(&size), "a tuple of {size} values");
        TupleCode { size }
    }

    /// How many values a tuple holds.
    pub fn size(self) -> usize {
        self.size
    }

    /// Bits a value takes.
    fn bits(self) -> u32 {
        63 / self.size as u32
    }

    /// The offset that makes a value non-negative: the largest magnitude held.
    pub fn offset(self) -> i64 {
        1 << (self.bits() - 1)
    }

    /// Value `index` of a tuple in its own field (the other fields 0): the
    /// packing of a tuple is the sum of its values' fields.
    ///
    /// # Errors
    /// [`DieError::TupleValue`] for a value its field cannot hold.
    pub fn pack(self, index: usize, value: Outcome) -> Result<Outcome, DieError> {
        let offset = self.offset();
        if value < -offset || value >= offset {
            return Err(DieError::TupleValue {
                value,
                max: offset - 1,
            });
        }
        Ok((value + offset) << self.shift(index))
    }

    /// Where value `index`'s field starts, in bits from the lowest.
    pub fn shift(self, index: usize) -> u32 {
        self.bits() * (self.size - 1 - index) as u32
    }

    /// Value `index` of a packed tuple.
    pub fn value(self, packed: Outcome, index: usize) -> Outcome {
        let mask = (1i64 << self.bits()) - 1;
        ((packed >> self.shift(index)) & mask) - self.offset()
    }

    /// A whole tuple packed.
    ///
    /// # Errors
    /// As [`TupleCode::pack`].
    pub fn pack_all(self, values: &[Outcome]) -> Result<Outcome, DieError> {
        let mut packed = 0;
        for (i, &value) in values.iter().enumerate() {
            packed += self.pack(i, value)?;
        }
        Ok(packed)
    }

    /// The values of a packed tuple.
    pub fn unpack(self, packed: Outcome) -> Vec<Outcome> {
        (0..self.size).map(|i| self.value(packed, i)).collect()
    }

    /// A packed tuple as shown: `(3, 1)`.
    pub fn show(self, packed: Outcome) -> String {
        let values: Vec<String> = self.unpack(packed).iter().map(Outcome::to_string).collect();
        format!("({})", values.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tuples_pack_in_order_and_unpack() {
        for size in 2..=MAX_TUPLE {
            let code = TupleCode::new(size);
            let max = code.offset() - 1;
            let tuples: Vec<Vec<i64>> = vec![
                vec![-max - 1; size],
                vec![-1; size],
                vec![0; size],
                (0..size as i64).collect(),
                vec![max; size],
            ];
            let mut last = None;
            for tuple in &tuples {
                let packed = code.pack_all(tuple).unwrap();
                assert_eq!(code.unpack(packed), *tuple);
                assert!(last.is_none_or(|last| last < packed));
                last = Some(packed);
            }
            assert!(code.pack(0, max + 1).is_err());
        }
        assert_eq!(
            TupleCode::new(2).show(TupleCode::new(2).pack_all(&[3, -1]).unwrap()),
            "(3, -1)"
        );
    }
}
