//! [`Error`]: why a request has no report, the same for every use case and every
//! front-end — its kind (which picks the exit status and the HTTP status), a stable
//! code, the message with the command line's caret rendering, and, when the request
//! is too large, a [`Suggestion`] that finishes.

use std::fmt;
use std::ops::Range;

use fairdice::FailureKind;
use fairdice::dice::notation::NotationError;
use serde::Serialize;

/// Why a request has no report.
///
/// Serialized as the API's error document: `{"kind", "category", "message",
/// "rendered", "span", "expression", "hint", "suggestion"}`, where `kind` is the
/// stable [`code`](Self::code) and `category` the [`FailureKind`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Error {
    /// What kind of failure: invalid input, too large, cancelled or internal.
    #[serde(rename = "category")]
    pub kind: FailureKind,
    /// A stable, finer name: `parse`, `invalid`, `not_a_pool`, `invalid_input`,
    /// `bad_request`, `too_big`, `cancelled`, `internal`.
    #[serde(rename = "kind")]
    pub code: &'static str,
    /// The message, one sentence or a few.
    pub message: String,
    /// The message as the command line prints it: for an error in an expression,
    /// the expression with a caret line under the part at fault.
    pub rendered: String,
    /// The byte range of the expression at fault, if one part is.
    pub span: Option<Range<usize>>,
    /// The expression (or pool, or spec) the span points into.
    pub expression: Option<String>,
    /// Advice in words, when there is some.
    pub hint: Option<String>,
    /// A request that answers instead and finishes (a Monte Carlo estimate).
    pub suggestion: Option<Suggestion>,
}

/// A request to run instead of one that is too large.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Suggestion {
    /// The use case's name.
    pub use_case: &'static str,
    /// The request, as its JSON document.
    pub request: serde_json::Value,
    /// The same request as a `fairdice` command line.
    pub command: String,
}

impl Error {
    /// An error of `kind` with its own `code`, rendered as its message (a
    /// front-end's own stops: the server's `timed_out`, `busy`).
    pub fn new(kind: FailureKind, code: &'static str, message: String) -> Error {
        Error {
            kind,
            code,
            rendered: message.clone(),
            message,
            span: None,
            expression: None,
            hint: None,
            suggestion: None,
        }
    }

    /// A request that is not a request of its use case (a missing field, a wrong
    /// type, an unknown use case).
    pub fn bad_request(message: impl Into<String>) -> Error {
        Error::new(FailureKind::Invalid, "bad_request", message.into())
    }

    /// An input the library refused, with its message (which says what is
    /// accepted).
    pub fn invalid_input(message: impl Into<String>) -> Error {
        Error::new(FailureKind::Invalid, "invalid_input", message.into())
    }

    /// A request too large for the budget.
    pub fn too_big(message: impl Into<String>) -> Error {
        Error::new(FailureKind::TooLarge, "too_big", message.into())
    }

    /// A fault of fairdice itself.
    pub fn internal(message: impl Into<String>) -> Error {
        Error::new(FailureKind::Internal, "internal", message.into())
    }

    /// A library error of any kind, classified by its own [`FailureKind`].
    pub fn from_failure(error: &(impl fairdice::Failure + ?Sized)) -> Error {
        let kind = error.kind();
        Error::new(kind, code_of(kind), error.to_string())
    }

    /// A dice notation error in `source`, with its caret rendering.
    pub fn notation(error: &NotationError, source: &str) -> Error {
        use fairdice::Failure as _;
        let kind = error.kind();
        let code = match error {
            NotationError::Parse(_) => "parse",
            NotationError::Invalid { .. } if kind == FailureKind::Invalid => "invalid",
            _ => code_of(kind),
        };
        Error {
            rendered: error.render(source),
            span: error.span(),
            expression: Some(source.to_string()),
            ..Error::new(kind, code, error.to_string())
        }
    }

    /// A contest pool's error in `source`, with its caret rendering.
    pub fn from_pool(error: &fairdice::contest::written::PoolTextError, source: &str) -> Error {
        use fairdice::Failure as _;
        let kind = error.kind();
        Error {
            rendered: error.render(source),
            span: error.span(),
            expression: Some(source.to_string()),
            ..Error::new(kind, code_of(kind), error.to_string())
        }
    }

    /// This error with `hint` as its advice.
    #[must_use]
    pub fn with_hint(mut self, hint: impl Into<String>) -> Error {
        self.hint = Some(hint.into());
        self
    }

    /// This error with `suggestion` as what to run instead.
    #[must_use]
    pub fn with_suggestion(mut self, suggestion: Suggestion) -> Error {
        self.suggestion = Some(suggestion);
        self
    }

    /// This error with its message and rendering prefixed by `context` (e.g. the
    /// side of a contest: `in pool B:`), on a line of its own in the rendering.
    #[must_use]
    pub fn in_context(mut self, context: &str) -> Error {
        self.rendered = format!("{context}\n{}", self.rendered);
        self
    }

    /// The command line's exit status: 2 for invalid input, 3 for too large, 130
    /// for cancelled (as for Ctrl-C), 1 for an internal fault.
    pub fn exit_status(&self) -> u8 {
        match self.kind {
            FailureKind::Invalid => 2,
            FailureKind::TooLarge => 3,
            FailureKind::Cancelled => 130,
            FailureKind::Internal => 1,
        }
    }

    /// The HTTP status of an API answer carrying this error: 400 for invalid
    /// input, 422 for too large or cancelled (the request was understood but not
    /// answered), 500 for an internal fault.
    pub fn http_status(&self) -> u16 {
        match self.kind {
            FailureKind::Invalid => 400,
            FailureKind::TooLarge | FailureKind::Cancelled => 422,
            FailureKind::Internal => 500,
        }
    }

    /// Everything the command line prints after `error: `: the rendering, the
    /// hint and the suggested command.
    pub fn full_text(&self) -> String {
        let mut text = self.rendered.clone();
        if let Some(suggestion) = &self.suggestion {
            text.push_str(&format!(
                "\nhint: estimate it instead: `{}`",
                suggestion.command
            ));
        }
        if let Some(hint) = &self.hint {
            text.push_str(&format!("\nhint: {hint}"));
        }
        text
    }
}

/// The code of a failure without a finer name.
fn code_of(kind: FailureKind) -> &'static str {
    match kind {
        FailureKind::Invalid => "invalid",
        FailureKind::TooLarge => "too_big",
        FailureKind::Cancelled => "cancelled",
        FailureKind::Internal => "internal",
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

/// `n` rounded down to 1, 2 or 5 times a power of ten, at most 1,000,000: a
/// number of Monte Carlo runs to suggest.
pub(crate) fn nice_runs(n: u64) -> u64 {
    let n = n.min(1_000_000);
    let mut power = 1;
    while power * 10 <= n {
        power *= 10;
    }
    [5, 2, 1]
        .into_iter()
        .map(|m| m * power)
        .find(|&r| r <= n)
        .unwrap_or(0)
}

/// `'text'` quoted for a POSIX shell.
pub fn shell_quote(text: &str) -> String {
    let plain = !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "+-_.,/=:@%".contains(c));
    if plain {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

/// How a measurement was asked for, as the command line's flags (defaults left
/// out): ` --exact --runs N --seed S --max-states M`, as `analyze`, `tune` and
/// `seats` spell them.
pub fn method_flags(
    exact: bool,
    runs: Option<u64>,
    seed: u64,
    max_states: Option<usize>,
) -> String {
    let mut flags = String::new();
    if exact {
        flags.push_str(" --exact");
    }
    if let Some(runs) = runs {
        flags.push_str(&format!(" --runs {runs}"));
    }
    if seed != crate::DEFAULT_SEED {
        flags.push_str(&format!(" --seed {seed}"));
    }
    if let Some(states) = max_states {
        flags.push_str(&format!(" --max-states {states}"));
    }
    flags
}

#[cfg(test)]
mod tests {
    use super::*;
    use fairdice::dice::notation::parse;

    #[test]
    fn parse_errors_keep_their_caret_and_status() {
        let error = Error::notation(&parse("4d6kh3y").unwrap_err().into(), "4d6kh3y");
        assert_eq!(error.code, "parse");
        assert_eq!(error.exit_status(), 2);
        assert_eq!(error.http_status(), 400);
        assert!(
            error.rendered.starts_with("4d6kh3y\n      ^"),
            "{}",
            error.rendered
        );
        assert_eq!(error.span, Some(6..7));
        let json = serde_json::to_value(&error).unwrap();
        assert_eq!(json["kind"], "parse");
        assert_eq!(json["category"], "invalid");
    }

    #[test]
    fn commands_are_quoted_for_the_shell() {
        assert_eq!(shell_quote("3d6"), "3d6");
        assert_eq!(shell_quote("d20+5 >= 15"), "'d20+5 >= 15'");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
    }
}
