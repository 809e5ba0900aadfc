//! The library's integration tests, in one test binary (one link of the library
//! and its dependencies instead of one per file): each module tests one part
//! through the public API, against brute force, closed forms, published tables
//! or Monte Carlo.

mod analysis;
mod contests;
mod isaksen;
mod notation_eval;
mod notation_language;
mod notation_parser;
mod tune_fairness;
mod tune_monotone;
mod tune_race;
mod tune_seats;
