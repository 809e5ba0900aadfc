//! The `fairdice` command run as a user runs it, in one test binary (one link
//! instead of one per file): each module drives one group of subcommands
//! through the built binary and checks what it prints and how it exits.

mod cli;
mod contest;
mod documents;
mod machines;
mod questions;
mod randomizers;
mod seats;
mod serve;
mod support;
mod tune;
