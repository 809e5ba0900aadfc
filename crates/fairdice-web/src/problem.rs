//! [`Problem`]: why a request, or one expression of it, has no result — shown on a
//! page with the same caret rendering as the command line, and served by the API as
//! JSON with the same text.

use axum::http::StatusCode;
use fairdice::battle::BattleError;
use fairdice::contest::written::PoolTextError;
use fairdice::contest::{ContestError, Side};
use fairdice::dice::notation::NotationError;
use fairdice::{Failure, FailureKind};
use serde_json::json;

use crate::compute::Stopped;
use crate::html::escape;

/// Why there is no result.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Problem {
    /// A use case refused the request (the same error every front-end shows).
    Api(Box<fairdice_api::Error>),
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
    /// A contest pool is not dice joined by `+`, or does not parse.
    Pool {
        /// The side whose pool it is.
        side: Side,
        /// What is wrong.
        error: PoolTextError,
        /// The pool as written, for the caret rendering.
        source: String,
    },
    /// The contest cannot be computed (or not exactly within the budget).
    Contest(ContestError),
    /// The battle cannot be fought, or was stopped.
    Battle(BattleError),
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

/// The kind of a library failure, as the API names it.
fn meter_kind(error: &dyn Failure) -> &'static str {
    match error.kind() {
        FailureKind::Cancelled => "timed_out",
        FailureKind::TooLarge => "too_big",
        FailureKind::Invalid => "invalid",
        FailureKind::Internal => "failed",
    }
}

/// What to try instead of a contest too large to compute.
pub(crate) const CONTEST_HINT: &str = "Estimate it by Monte Carlo (the button below, or `fairdice contest A B --runs N`); fewer or smaller dice, fewer kinds of dice per side, or (for a sorted contest) unsorted pairing are cheaper to compute exactly.";

/// What to try instead of a battle too slow to solve here.
pub(crate) const BATTLE_HINT: &str =
    "Fewer armies solve faster; `fairdice risk A D` on the command line has no time limit.";

impl From<fairdice_api::Error> for Problem {
    fn from(error: fairdice_api::Error) -> Problem {
        Problem::Api(Box::new(error))
    }
}

impl Problem {
    fn notation_kind(error: &NotationError) -> &'static str {
        match error {
            NotationError::Parse(_) => "parse",
            NotationError::Invalid { .. } => "invalid",
            NotationError::TooBig(_) => "too_big",
            NotationError::Stopped(stop) => meter_kind(stop),
        }
    }

    /// A short machine-readable name.
    pub fn kind(&self) -> &'static str {
        match self {
            // The web app cancels only at its time limit.
            Problem::Api(error) if error.kind == FailureKind::Cancelled => "timed_out",
            Problem::Api(error) => error.code,
            Problem::Refused(_) => "refused",
            Problem::TooManyOutcomes { .. } => "too_many_outcomes",
            Problem::Stopped(Stopped::TimedOut(_)) => "timed_out",
            Problem::Stopped(Stopped::Busy(_)) => "busy",
            Problem::Stopped(Stopped::OutOfMemory(_)) => "out_of_memory",
            Problem::Stopped(Stopped::Failed) => "failed",
            Problem::BadRequest(_) => "bad_request",
            Problem::Pool { error, .. } => match error {
                PoolTextError::Notation(e) => Problem::notation_kind(e),
                PoolTextError::NotAPool { .. } => "not_a_pool",
            },
            Problem::Contest(error) => match error {
                ContestError::TooBig(_) => "too_big",
                ContestError::Die(e) => meter_kind(e),
                _ => "invalid",
            },
            Problem::Battle(error) => match error {
                BattleError::Rules(_) => "invalid",
                BattleError::Stopped(e) => meter_kind(e),
                BattleError::Roll { source, .. } => match source {
                    ContestError::TooBig(_) => "too_big",
                    ContestError::Die(e) => meter_kind(e),
                    _ => "invalid",
                },
                BattleError::TooManyStates { .. } | BattleError::TooMuchSimulation { .. } => {
                    "too_big"
                }
            },
            Problem::Input(_) => "invalid_input",
            Problem::TooBig(_) => "too_big",
            Problem::WithHint { problem, .. } => problem.kind(),
        }
    }

    /// The HTTP status of an API response carrying only this problem.
    pub fn status(&self) -> StatusCode {
        if let Problem::Api(error) = self {
            return StatusCode::from_u16(error.http_status())
                .unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        }
        match self.kind() {
            "parse" | "invalid" | "not_a_pool" | "refused" | "bad_request" | "invalid_input" => {
                StatusCode::BAD_REQUEST
            }
            "too_big" | "too_many_outcomes" | "timed_out" => StatusCode::UNPROCESSABLE_ENTITY,
            "busy" | "out_of_memory" => StatusCode::SERVICE_UNAVAILABLE,
            _ => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The one-line message.
    pub fn message(&self) -> String {
        match self {
            Problem::Api(error) if error.kind == FailureKind::Cancelled => {
                "stopped by the time limit: too slow to compute on this server".to_string()
            }
            Problem::Api(error) => error.message.clone(),
            Problem::Refused(message) | Problem::BadRequest(message) | Problem::Input(message) => {
                message.clone()
            }
            Problem::TooBig(message) => message.clone(),
            Problem::WithHint { problem, .. } => problem.message(),
            Problem::TooManyOutcomes { outcomes, max } => format!(
                "the distribution has {outcomes} distinct outcomes; the web app shows at most {max} (the command line has no such limit)"
            ),
            Problem::Stopped(stopped) => stopped.to_string(),
            _ if self.kind() == "timed_out" => {
                "stopped by the time limit: too slow to compute on this server".to_string()
            }
            Problem::Pool { error, .. } => error.to_string(),
            Problem::Contest(error) => error.to_string(),
            Problem::Battle(error) => error.to_string(),
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
            Problem::Api(error) if error.kind != FailureKind::Cancelled => error.rendered.clone(),
            // As `fairdice contest` prints it: the side, then the pool with a caret.
            Problem::Pool {
                side,
                error,
                source,
            } if error.span().is_some() => {
                format!("in pool {side}:\n{}", error.render(source))
            }
            _ => self.message(),
        }
    }

    /// The byte span of the expression at fault, if one part is.
    pub fn span(&self) -> Option<std::ops::Range<usize>> {
        match self {
            Problem::Api(error) => error.span.clone(),
            Problem::Pool { error, .. } => error.span(),
            _ => None,
        }
    }

    /// What to try instead, when there is a better way.
    pub fn hint(&self) -> Option<&'static str> {
        if let Problem::WithHint { hint, .. } = self {
            return Some(hint);
        }
        let too_slow = matches!(self.kind(), "too_big" | "timed_out");
        match self {
            Problem::Pool { .. } | Problem::Contest(_) => return too_slow.then_some(CONTEST_HINT),
            Problem::Battle(_) => return too_slow.then_some(BATTLE_HINT),
            _ => {}
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
            Some(e) => format!("Could not compute <code>{}</code>", escape(e)),
            None => "Could not compute this".to_string(),
        };
        self.to_html_with(&heading, self.hint())
    }

    /// The problem as an HTML alert under `heading` (HTML, escaped by the caller),
    /// with `hint` (plain text) below it: for pages whose advice differs.
    pub fn to_html_with(&self, heading: &str, hint: Option<&str>) -> String {
        let hint = hint
            .map(|h| format!(r#"<p class="hint">{}</p>"#, escape(h)))
            .unwrap_or_default();
        format!(
            r#"<div class="problem" role="alert" data-kind="{kind}"><h3>{heading}</h3><pre class="rendered">{rendered}</pre>{hint}</div>"#,
            kind = self.kind(),
            rendered = escape(&self.rendered()),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fairdice_api::UseCase;
    use fairdice_api::dist::DistRequest;

    fn notation(text: &str) -> Problem {
        let error = DistRequest::new(text).run(&fairdice::Control::new());
        Problem::Api(Box::new(error.expect_err("an error")))
    }

    #[test]
    fn parse_errors_keep_the_command_lines_caret() {
        let p = notation("4d6kh3y");
        assert_eq!(p.kind(), "parse");
        assert_eq!(p.status(), StatusCode::BAD_REQUEST);
        assert!(p.rendered().starts_with("4d6kh3y\n      ^ unexpected `y`"));
        assert_eq!(p.span(), Some(6..7));
        assert!(
            p.to_html(Some("4d6kh3y"))
                .contains("      ^ unexpected `y`")
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
    fn pool_errors_name_the_side_like_the_command_line() {
        use fairdice::contest::written::parse_pool;
        use fairdice::dice::notation::Options;
        let pool = |text: &str| Problem::Pool {
            side: Side::B,
            error: parse_pool(text, &Options::default(), &fairdice::Control::new())
                .expect_err("not a pool"),
            source: text.to_string(),
        };
        let kept = pool("4d6kh3");
        assert_eq!(kept.kind(), "not_a_pool");
        assert_eq!(kept.status(), StatusCode::BAD_REQUEST);
        assert!(
            kept.rendered()
                .starts_with("in pool B:\n4d6kh3\n   ^^^ keeping")
        );
        assert_eq!(kept.span(), Some(3..6));
        assert_eq!(pool("3d6+").kind(), "parse");
        // One die of 10^8 faces: more outcomes than an exact answer may hold.
        assert_eq!(pool("3d100000000").kind(), "too_big");
    }

    #[test]
    fn contests_and_battles_too_big_or_stopped_get_their_own_hints() {
        use fairdice::contest::Contest;
        let d6 = fairdice::Die::standard(6).expect("d6");
        let huge = Contest::from_dice([(d6.clone(), 300)], [(d6, 300)])
            .expect("dice")
            .evaluate(&fairdice::Control::new())
            .expect_err("too big");
        let p = Problem::Contest(huge);
        assert_eq!(p.kind(), "too_big");
        assert!(p.message().contains("too large to compute exactly"));
        assert_eq!(p.hint(), Some(CONTEST_HINT));
        let stopped = Problem::Battle(BattleError::Stopped(fairdice::Stop::Cancelled));
        assert_eq!(stopped.kind(), "timed_out");
        assert_eq!(stopped.status(), StatusCode::UNPROCESSABLE_ENTITY);
        assert!(stopped.message().contains("time limit"));
        assert_eq!(stopped.hint(), Some(BATTLE_HINT));
        let rules = fairdice::battle::Rules::default()
            .check(0, 1)
            .expect_err("no armies");
        assert_eq!(Problem::Battle(rules.into()).kind(), "invalid");
    }

    #[test]
    fn html_escapes_the_expression() {
        let html = notation("<b>").to_html(Some("<b>"));
        assert!(!html.contains("<b>"));
    }
}
