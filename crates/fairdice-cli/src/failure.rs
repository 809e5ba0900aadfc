//! How the command reports failure: a message on stderr and a documented exit status.
//!
//! | status | meaning |
//! |---|---|
//! | 0 | success |
//! | 1 | an unexpected failure (e.g. a file could not be written) |
//! | 2 | bad input: a parse error, an invalid option or spec (clap uses 2 as well) |
//! | 3 | too large to compute exactly within the budget (the message offers Monte Carlo) |
//! | 130 | cancelled (Ctrl-C) |
//!
//! The statuses are those of [`fairdice_api::Error::exit_status`]: every use case and
//! every front-end classifies failures the same way.

use std::fmt;
use std::process::ExitCode;

/// An error the user caused and can fix; carries its exit status.
#[derive(Debug)]
pub struct UserError {
    /// The full message, possibly several lines (e.g. an expression with a caret).
    pub message: String,
    /// The exit status.
    pub status: u8,
}

impl UserError {
    /// Bad input: exit status 2.
    pub fn input(message: impl Into<String>) -> anyhow::Error {
        anyhow::Error::new(UserError {
            message: message.into(),
            status: 2,
        })
    }
}

impl UserError {
    /// A use case's error: its full text (caret rendering, suggested command and
    /// hint) and its exit status.
    pub fn from_api(error: fairdice_api::Error) -> anyhow::Error {
        anyhow::Error::new(UserError {
            message: error.full_text(),
            status: error.exit_status(),
        })
    }
}

impl fmt::Display for UserError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for UserError {}

/// Prints the error and returns its exit status.
pub fn report(error: &anyhow::Error) -> ExitCode {
    // A reader that stopped early (`| head`) is not a failure.
    let broken_pipe = error.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    });
    if broken_pipe {
        return ExitCode::SUCCESS;
    }
    if let Some(user) = error.downcast_ref::<UserError>() {
        eprintln!("error: {}", user.message);
        return ExitCode::from(user.status);
    }
    eprintln!("error: {error:#}");
    ExitCode::from(1)
}
