//! URL parameters → a use case's JSON request: `GET /api/contest?a=5d6&b=5d6` asks
//! what `POST /api/contest` with `{"a": "5d6", "b": "5d6"}` asks.
//!
//! Each use case lists its parameters once ([`params`]): the request field each one
//! fills and how its text is read (whole number, number, yes/no, a list). Names
//! the app has served before stay as aliases (`expr`, `simulate`, `count`,
//! `budget`, `method`); an unknown parameter is refused with the list of those
//! accepted, so a typo never passes silently.

use serde_json::{Map, Value, json};

use crate::error::ApiError;

/// How a parameter's text becomes a JSON value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// As written.
    Text,
    /// A whole number (0 or more).
    Whole,
    /// A number, `90%` read as 0.9.
    Number,
    /// `1`, `true`, `on`, `yes` or `0`, `false`, `off`, `no`.
    Flag,
    /// Comma-separated, or the parameter repeated: a list of text.
    List,
}

/// One URL parameter: its name, the request field it fills, how it is read.
#[derive(Debug, Clone, Copy)]
struct Param {
    name: &'static str,
    field: &'static str,
    kind: Kind,
}

const fn p(name: &'static str, field: &'static str, kind: Kind) -> Param {
    Param { name, field, kind }
}

use Kind::{Flag, List, Number, Text, Whole};

/// The parameters of each use case.
const DIST: &[Param] = &[
    p("expr", "expression", Text),
    p("expression", "expression", Text),
    p("runs", "runs", Whole),
    p("seed", "seed", Whole),
    p("explode_depth", "explode_depth", Whole),
];
const ROLL: &[Param] = &[
    p("expr", "expression", Text),
    p("expression", "expression", Text),
    p("times", "times", Whole),
    p("seed", "seed", Whole),
    p("explode_depth", "explode_depth", Whole),
];
const CONTEST: &[Param] = &[
    p("a", "a", Text),
    p("b", "b", Text),
    p("pairing", "pairing", Text),
    p("ties", "ties", Text),
    p("runs", "runs", Whole),
    p("seed", "seed", Whole),
];
const RISK: &[Param] = &[
    p("attacker", "attacker", Whole),
    p("defender", "defender", Whole),
    p("rule", "rule", Text),
    p("faces", "faces", Whole),
    p("attacker_dice", "attacker_dice", Whole),
    p("defender_dice", "defender_dice", Whole),
    p("per_roll", "per_roll", Flag),
    p("table", "table", Whole),
    p("float", "float", Flag),
    p("runs", "runs", Whole),
    p("simulate", "runs", Whole),
    p("seed", "seed", Whole),
];
const SAMPLE: &[Param] = &[
    p("spec", "spec", Text),
    p("session", "session", Text),
    p("samples", "samples", Whole),
    p("count", "samples", Whole),
    p("seed", "seed", Whole),
    p("save", "save", Flag),
];
const NEXT: &[Param] = &[
    p("spec", "spec", Text),
    p("session", "session", Text),
    p("history", "history", List),
];
const STATE: &[Param] = &[p("session", "session", Text)];
const PRD: &[Param] = &[p("p", "p", Number), p("limit", "limit", Whole)];
const TUNE: &[Param] = &[
    p("values", "values", Whole),
    p("base", "base", Text),
    p("samples", "samples", Text),
    p("min_entropy", "min_entropy", Number),
    p("systems", "systems", List),
    p("grid", "grids", List),
    p("exact", "exact", Flag),
    p("runs", "runs", Whole),
    p("seed", "seed", Whole),
    p("max_states", "max_states", Whole),
    p("budget", "max_states", Whole),
    p("all", "all", Flag),
    p("method", "method", Text),
];
const RANDOMIZER_ANALYSIS: &[Param] = &[
    p("spec", "spec", Text),
    p("samples", "samples", Whole),
    p("exact", "exact", Flag),
    p("runs", "runs", Whole),
    p("seed", "seed", Whole),
    p("max_states", "max_states", Whole),
    p("budget", "max_states", Whole),
    p("droughts", "droughts", Flag),
    p("method", "method", Text),
];

const GOAL: &[Param] = &[
    p("spec", "spec", Text),
    p("session", "session", Text),
    p("history", "history", List),
    p("until", "until", List),
    p("times", "times", Whole),
    p("every", "every", Flag),
    p("budget", "budget", Whole),
    p("limit", "limit", Whole),
    p("exact", "exact", Flag),
    p("runs", "runs", Whole),
    p("seed", "seed", Whole),
];

/// The use cases whose request holds a document of its own (a game, a log), which
/// a URL does not carry: `POST` them, with why.
const POST_ONLY: &[(&str, &str)] = &[
    (
        "seats",
        "its game is a JSON document ({\"players\", \"payoffs\"}, docs/seats.md)",
    ),
    ("audit", "its log is a document of recorded outcomes"),
];

/// The parameters of `use_case`, or `None` for a use case the API does not know.
fn params(use_case: &str) -> Option<&'static [Param]> {
    Some(match use_case {
        "goal" => GOAL,
        "dist" => DIST,
        "roll" => ROLL,
        "contest" => CONTEST,
        "risk" => RISK,
        "sample" => SAMPLE,
        "next" => NEXT,
        "state" => STATE,
        "prd" => PRD,
        "analyze" | "droughts" => RANDOMIZER_ANALYSIS,
        "tune" => TUNE,
        _ => return None,
    })
}

/// The JSON request of `use_case` asked for by the URL parameters `pairs`, or why
/// the parameters cannot be one; `extra` names parameters the caller reads itself
/// (a chart's `mode`), which are left out.
///
/// # Errors
/// An unknown use case or parameter, a value that is not of its kind, a single
/// value given twice.
pub(crate) fn request(
    use_case: &str,
    pairs: &[(String, String)],
    extra: &[&str],
) -> Result<Value, ApiError> {
    if let Some((_, why)) = POST_ONLY.iter().find(|(name, _)| *name == use_case) {
        return Err(ApiError::bad_request(format!(
            "GET /api/{use_case} cannot ask it: {why}; POST /api/{use_case} with the request's JSON"
        )));
    }
    let Some(params) = params(use_case) else {
        return Err(ApiError::not_found(use_case));
    };
    let mut fields = Map::new();
    for (name, value) in pairs {
        let value = value.trim();
        if extra.contains(&name.as_str()) {
            continue;
        }
        let Some(param) = params.iter().find(|p| p.name == name) else {
            let accepted: Vec<&str> = params.iter().map(|p| p.name).collect();
            return Err(ApiError::bad_request(format!(
                "{use_case} takes no parameter `{name}`; accepted: {}",
                accepted.join(", ")
            )));
        };
        if value.is_empty() {
            continue;
        }
        let bad = |expected: &str| {
            ApiError::bad_request(format!("{name} must be {expected}, not `{value}`"))
        };
        let read = match param.kind {
            Kind::Text => json!(value),
            Kind::Whole => json!(value.parse::<u64>().map_err(|_| bad("a whole number"))?),
            Kind::Number => json!(number(value).ok_or_else(|| bad("a number"))?),
            Kind::Flag => json!(flag(value).ok_or_else(|| bad("1 or 0 (yes or no)"))?),
            Kind::List => {
                let items = value.split(',').map(str::trim).filter(|s| !s.is_empty());
                let list = fields
                    .entry(param.field)
                    .or_insert_with(|| Value::Array(Vec::new()));
                if let Value::Array(list) = list {
                    list.extend(items.map(|item| json!(item)));
                }
                continue;
            }
        };
        if fields.insert(param.field.to_string(), read).is_some() {
            return Err(ApiError::bad_request(format!(
                "{name} is given twice; {use_case} takes one"
            )));
        }
    }
    shape(use_case, &mut fields)?;
    Ok(Value::Object(fields))
}

/// The fields whose request shape differs from the flat URL: a randomizer's
/// source, an analysis's method.
fn shape(use_case: &str, fields: &mut Map<String, Value>) -> Result<(), ApiError> {
    if matches!(use_case, "sample" | "next" | "goal") {
        let source = match (fields.remove("spec"), fields.remove("session")) {
            (Some(spec), None) => json!({ "spec": spec }),
            (None, Some(session)) => json!({ "session": session }),
            (Some(_), Some(_)) => {
                return Err(ApiError::bad_request(
                    "give a spec or a saved session, not both",
                ));
            }
            (None, None) => {
                return Err(ApiError::bad_request(
                    "give a randomizer: spec=deck(values=6), or a saved session",
                ));
            }
        };
        fields.insert("source".into(), source);
    }
    if let Some(method) = fields.remove("method") {
        // The pages' old method names: exact, Monte Carlo, or the automatic choice.
        match method.as_str().unwrap_or_default() {
            "auto" => {}
            "exact" => {
                fields.insert("exact".into(), json!(true));
            }
            "monte_carlo" => {
                let fallback = if use_case == "tune" {
                    fairdice::tune::FALLBACK_RUNS
                } else {
                    fairdice::analysis::DEFAULT_RUNS
                };
                fields.entry("runs").or_insert(json!(fallback));
            }
            other => {
                return Err(ApiError::bad_request(format!(
                    "method must be auto, exact or monte_carlo, not `{other}`"
                )));
            }
        }
    }
    if use_case == "roll" && !fields.contains_key("seed") {
        // A roll without a seed gets a fresh one, shown in the answer.
        fields.insert("seed".into(), json!(fresh_seed()));
    }
    Ok(())
}

/// A number, or a percentage (`90%` is 0.9).
fn number(text: &str) -> Option<f64> {
    let (digits, scale) = match text.strip_suffix('%') {
        Some(percent) => (percent.trim(), 100.0),
        None => (text, 1.0),
    };
    digits
        .parse::<f64>()
        .ok()
        .filter(|x| x.is_finite())
        .map(|x| x / scale)
}

/// A yes or a no.
fn flag(text: &str) -> Option<bool> {
    match text.to_ascii_lowercase().as_str() {
        "1" | "true" | "on" | "yes" => Some(true),
        "0" | "false" | "off" | "no" => Some(false),
        _ => None,
    }
}

/// A seed from the clock.
fn fresh_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |t| t.as_nanos() as u64)
}

/// The pairs of a query string.
pub(crate) fn pairs(query: Option<&str>) -> Vec<(String, String)> {
    form_urlencoded::parse(query.unwrap_or("").as_bytes())
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(use_case: &str, query: &str) -> Result<Value, ApiError> {
        request(use_case, &pairs(Some(query)), &[])
    }

    #[test]
    fn parameters_fill_their_fields_with_values_of_their_kind() {
        assert_eq!(
            read("dist", "expr=3d6&runs=1000&seed=7").unwrap(),
            json!({"expression": "3d6", "runs": 1000, "seed": 7})
        );
        assert_eq!(
            read("risk", "attacker=10&defender=8&simulate=500&per_roll=yes").unwrap(),
            json!({"attacker": 10, "defender": 8, "runs": 500, "per_roll": true})
        );
        assert_eq!(
            read(
                "tune",
                "values=6&systems=deck,dynamic&systems=fair&min_entropy=90%"
            )
            .unwrap(),
            json!({"values": 6, "systems": ["deck", "dynamic", "fair"], "min_entropy": 0.9})
        );
        assert_eq!(
            read("next", "spec=tgm2&history=I,O").unwrap(),
            json!({"source": {"spec": "tgm2"}, "history": ["I", "O"]})
        );
        assert_eq!(
            read(
                "analyze",
                "spec=tgm2&samples=25&method=monte_carlo&droughts=off"
            )
            .unwrap(),
            json!({"spec": "tgm2", "samples": 25, "runs": 100000, "droughts": false})
        );
    }

    #[test]
    fn unknown_parameters_and_bad_values_are_refused_by_name() {
        let typo = read("dist", "exrp=3d6").unwrap_err();
        assert!(
            typo.error.message.contains("accepted: expr"),
            "{}",
            typo.error.message
        );
        for (use_case, query) in [
            ("dist", "expr=3d6&runs=many"),
            ("risk", "attacker=3&float=maybe"),
            ("dist", "expr=3d6&expr=d20"),
            ("sample", "seed=3"),
            ("analyze", "spec=tgm2&method=guess"),
        ] {
            assert_eq!(read(use_case, query).unwrap_err().status, 400, "{query}");
        }
        assert_eq!(read("dice", "expr=3d6").unwrap_err().status, 404);
    }

    #[test]
    fn every_use_case_is_asked_by_url_or_says_why_it_must_be_posted() {
        for &use_case in fairdice_api::USE_CASES {
            let posted = POST_ONLY.iter().any(|(name, _)| *name == use_case);
            assert!(
                posted != params(use_case).is_some(),
                "{use_case}: a URL table or a reason to POST, one of the two"
            );
        }
        let seats = read("seats", "spec=tgm2").unwrap_err();
        assert_eq!(seats.status, 400);
        assert!(
            seats.error.message.contains("POST /api/seats"),
            "{}",
            seats.error.message
        );
        assert_eq!(
            read(
                "goal",
                "spec=pity(p=0.006, soft=74, rise=0.06, cap=90)&until=hit&budget=90"
            )
            .unwrap(),
            json!({"source": {"spec": "pity(p=0.006, soft=74, rise=0.06, cap=90)"}, "until": ["hit"], "budget": 90})
        );
    }
}
