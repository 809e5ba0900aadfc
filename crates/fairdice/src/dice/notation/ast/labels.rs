//! [`Labels`]: names given to ranges of outcomes, `2d6+1 as {..6: miss, 7..9:
//! weak hit, 10..: strong hit}`.
//!
//! # Design decisions
//! - A labelled expression's outcomes are its labels, numbered from 0 in the
//!   order of the outcomes they cover (miss 0, weak hit 1, strong hit 2): every
//!   outcome of the expression must fall in one range, so no roll is left
//!   without a name, and every label must cover an outcome that can happen, so a
//!   mistyped range is not silently shown as never happening. Both are checked
//!   against the exact distribution (and against each roll when rolling).
//! - Ranges may not overlap (the parser refuses it). Several ranges may carry the
//!   same label (`{1: botch, 6: botch, 2..5: fine}`): they are one outcome.
//! - Labels are written at the end of the whole expression only: a label is
//!   what is shown, not a value to compute with.

use super::Span;
use crate::dice::die::{Die, DieError, Outcome};

/// The labels of an expression: its ranges in ascending order, each with the
/// label it shows, and the labels in the order of their outcomes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Labels {
    /// The ranges, ascending and disjoint.
    pub bands: Vec<Band>,
    /// The labels, each once, in the order of their first range.
    names: Vec<String>,
}

/// One range of outcomes and its label.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Band {
    /// The smallest outcome in the range (`None`: no bound below).
    pub low: Option<Outcome>,
    /// The largest outcome in the range (`None`: no bound above).
    pub high: Option<Outcome>,
    /// The label.
    pub label: String,
    /// Where the range and its label are written.
    pub span: Span,
}

impl Band {
    /// Whether `outcome` falls in the range.
    pub fn contains(&self, outcome: Outcome) -> bool {
        self.low.is_none_or(|low| outcome >= low) && self.high.is_none_or(|high| outcome <= high)
    }
}

impl Labels {
    /// The labels of `bands`, which are ascending and disjoint.
    pub fn new(bands: Vec<Band>) -> Labels {
        let mut names: Vec<String> = Vec::new();
        for band in &bands {
            if !names.contains(&band.label) {
                names.push(band.label.clone());
            }
        }
        Labels { bands, names }
    }

    /// The labels in the order of their outcomes: the label of outcome `i` is
    /// `names()[i]`.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The labelled outcome of `outcome`: the number of its label.
    ///
    /// # Errors
    /// [`DieError::Unlabelled`] when no range holds `outcome`.
    pub fn outcome_of(&self, outcome: Outcome) -> Result<Outcome, DieError> {
        let band = self
            .bands
            .iter()
            .find(|band| band.contains(outcome))
            .ok_or(DieError::Unlabelled { outcome })?;
        let index = self
            .names
            .iter()
            .position(|name| *name == band.label)
            .expect("every band's label is named");
        Ok(index as Outcome)
    }

    /// The distribution of the labels of `die`.
    ///
    /// # Errors
    /// [`DieError::Unlabelled`] for an outcome of `die` no range holds, or
    /// [`DieError::LabelNeverShown`] (with the band's span) for a label no
    /// outcome of `die` falls under.
    pub fn apply(&self, die: &Die) -> Result<Die, (DieError, Option<Span>)> {
        let labelled = die
            .try_map(|x| self.outcome_of(x))
            .map_err(|error| (error, None))?;
        // Every label's number is an outcome unless no outcome falls under it.
        let never = (0..self.names.len())
            .find(|&i| labelled.outcomes().binary_search(&(i as Outcome)).is_err());
        if let Some(i) = never {
            let name = &self.names[i];
            let band = self.bands.iter().find(|band| band.label == *name);
            let error = DieError::LabelNeverShown {
                label: name.clone(),
                low: die.min_outcome(),
                high: die.max_outcome(),
            };
            return Err((error, band.map(|band| band.span.clone())));
        }
        Ok(labelled)
    }
}
