//! [`Problem`]: why a request, or one expression of it, has no result — shown on a
//! page with the same caret rendering as the command line, and served by the API as
//! JSON with the same text.

use axum::http::StatusCode;
use fairdice::dice::notation::NotationError;
use serde_json::json;

use crate::compute::Stopped;
use crate::html::escape;

/// Why there is no result.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Problem {
    /// The expression could not be parsed or evaluated, or is over the budget.
    Notation {
        /// What went wrong.
        error: NotationError,
        /// The expression, for the caret rendering.
        source: String,
    },
    /// The expression was refused before parsing (too long, nested too deeply).
    Refused(String),
    /// The distribution has more outcomes than a page or response may hold.
    TooManyOutcomes {
        /// How many it has.
        outcomes: usize,
        /// The limit.
        max: usize,
    },
    /// The computation was stopped by the clock or never started.
    Stopped(Stopped),
    /// The request itself is malformed (an unknown parameter value, too many
    /// expressions).
    BadRequest(String),
    /// The library refused an input: a randomizer spec, a history, a grid or a
    /// match length (its message lists what is accepted).
    Input(String),
    /// An exact computation other than a dice expression's is over its budget.
    TooBig(String),
    /// A problem with its own advice of what to try instead (the dice hints do
    /// not fit a randomizer).
    WithHint {
        /// The problem.
        problem: Box<Problem>,
        /// What to try instead.
        hint: &'static str,
    },
}

impl Problem {
    /// A short machine-readable name.
    pub fn kind(&self) -> &'static str {
        match self {
            Problem::Notation { error, .. } => match error {
                NotationError::Parse(_) => "parse",
                NotationError::Invalid { .. } => "invalid",
                NotationError::TooBig(_) => "too_big",
                NotationError::Cancelled => "timed_out",
            },
            Problem::Refused(_) => "refused",
            Problem::TooManyOutcomes { .. } => "too_many_outcomes",
            Problem::Stopped(Stopped::TimedOut(_)) => "timed_out",
            Problem::Stopped(Stopped::Busy(_)) => "busy",
            Problem::Stopped(Stopped::Failed) => "failed",
            Problem::BadRequest(_) => "bad_request",
            Problem::Input(_) => "invalid_input",
            Problem::TooBig(_) => "too_big",
            Problem::WithHint { problem, .. } => problem.kind(),
        }
    }

    /// The HTTP status of an API response carrying only this problem.
    pub fn status(&self) -> StatusCode {
        match self.kind() {
            "parse" | "invalid" | "refused" | "bad_request" | "invalid_input" => {
                StatusCode::BAD_REQUEST
            }
            "too_big" | "too_many_outcomes" | "timed_out" => StatusCode::UNPROCESSABLE_ENTITY,
            "busy" => StatusCode::SERVICE_UNAVAILABLE,
            _ => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The one-line message.
    pub fn message(&self) -> String {
        match self {
            Problem::Notation {
                error: NotationError::Cancelled,
                ..
            } => "stopped by the time limit: too slow to compute on this server".to_string(),
            Problem::Notation { error, .. } => error.to_string(),
            Problem::Refused(message) | Problem::BadRequest(message) | Problem::Input(message) => {
                message.clone()
            }
            Problem::TooBig(message) => message.clone(),
            Problem::WithHint { problem, .. } => problem.message(),
            Problem::TooManyOutcomes { outcomes, max } => format!(
                "the distribution has {outcomes} distinct outcomes; the web app shows at most {max} (the command line has no such limit)"
            ),
            Problem::Stopped(stopped) => stopped.to_string(),
        }
    }

    /// This problem with `hint` as its advice.
    pub fn with_hint(self, hint: &'static str) -> Problem {
        Problem::WithHint {
            problem: Box::new(self),
            hint,
        }
    }

    /// The message as the command line prints it: for notation errors, the
    /// expression with a caret line under the part at fault.
    pub fn rendered(&self) -> String {
        match self {
            Problem::Notation {
                error: error @ (NotationError::Parse(_) | NotationError::Invalid { .. }),
                source,
            } => error.render(source),
            _ => self.message(),
        }
    }

    /// The byte span of the expression at fault, if one part is.
    pub fn span(&self) -> Option<std::ops::Range<usize>> {
        match self {
            Problem::Notation { error, .. } => error.span(),
            _ => None,
        }
    }

    /// What to try instead, when there is a better way.
    pub fn hint(&self) -> Option<&'static str> {
        if let Problem::WithHint { hint, .. } = self {
            return Some(hint);
        }
        match self.kind() {
            "too_big" | "timed_out" => Some(
                "Try fewer dice or fewer faces, or estimate it by Monte Carlo (the button below, or `fairdice dist EXPR --runs N`).",
            ),
            "too_many_outcomes" => Some("Use `fairdice dist EXPR --csv` on the command line."),
            _ => None,
        }
    }

    /// The API's error document: `{"error": {"kind", "message", "rendered",
    /// "span", "expression"}}`.
    pub fn to_json(&self, expression: Option<&str>) -> serde_json::Value {
        json!({
            "error": {
                "kind": self.kind(),
                "message": self.message(),
                "rendered": self.rendered(),
                "span": self.span().map(|s| json!({"start": s.start, "end": s.end})),
                "expression": expression,
            }
        })
    }

    /// The problem as an HTML alert for `expression` (if it concerns one).
    pub fn to_html(&self, expression: Option<&str>) -> String {
        let heading = match expression {
            Some(e) => format!("<h3>Could not compute <code>{}</code></h3>", escape(e)),
            None => "<h3>Could not compute this</h3>".to_string(),
        };
        let hint = self
            .hint()
            .map(|h| format!(r#"<p class="hint">{}</p>"#, escape(h)))
            .unwrap_or_default();
        format!(
            r#"<div class="problem" role="alert" data-kind="{kind}">{heading}<pre class="rendered">{rendered}</pre>{hint}</div>"#,
            kind = self.kind(),
            rendered = escape(&self.rendered()),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fairdice::dice::notation::evaluate;

    fn notation(text: &str) -> Problem {
        Problem::Notation {
            error: evaluate(text).expect_err("an error"),
            source: text.to_string(),
        }
    }

    #[test]
    fn parse_errors_keep_the_command_lines_caret() {
        let p = notation("4d6kh3x");
        assert_eq!(p.kind(), "parse");
        assert_eq!(p.status(), StatusCode::BAD_REQUEST);
        assert!(p.rendered().starts_with("4d6kh3x\n      ^ unexpected `x`"));
        assert_eq!(p.span(), Some(6..7));
        assert!(
            p.to_html(Some("4d6kh3x"))
                .contains("      ^ unexpected `x`")
        );
    }

    #[test]
    fn huge_expressions_are_too_big_with_a_hint() {
        let p = notation("1000000d1000000");
        assert_eq!(p.kind(), "too_big");
        assert!(p.message().contains("too large"));
        assert!(p.hint().is_some());
        assert_eq!(p.to_json(None)["error"]["span"], serde_json::Value::Null);
    }

    #[test]
    fn html_escapes_the_expression() {
        let html = notation("<b>").to_html(Some("<b>"));
        assert!(!html.contains("<b>"));
    }
}
