//! Shared fixtures for the fairdice benchmarks (the cases every peer runs too).

pub mod cases;
pub mod engines;
pub mod fingerprint;
pub mod report;
