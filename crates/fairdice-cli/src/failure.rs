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

/// What every error message starts with.
const PREFIX: &str = "error: ";

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
    ///
    /// The message is printed after `error: `, so a caret rendering (an expression
    /// with a caret line under the fault) has its later lines indented by that
    /// prefix's width, which keeps the caret under the character it points at.
    pub fn from_api(error: fairdice_api::Error) -> anyhow::Error {
        let full = error.full_text();
        let message = match (
            &error.expression,
            full.strip_prefix(error.rendered.as_str()),
        ) {
            (Some(_), Some(rest)) => {
                let indent = " ".repeat(PREFIX.len());
                let rendered = error.rendered.replace('\n', &format!("\n{indent}"));
                format!("{rendered}{rest}")
            }
            _ => full,
        };
        anyhow::Error::new(UserError {
            message,
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
        eprintln!("{PREFIX}{}", user.message);
        return ExitCode::from(user.status);
    }
    eprintln!("error: {error:#}");
    ExitCode::from(1)
}
