//! Shared fixtures for the fairdice benchmarks (the cases every peer runs too).
