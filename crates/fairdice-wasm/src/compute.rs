//! [`compute_json`]: requests of one use case run through the use-case layer, each
//! answered with its report or its error document, and the charts the native app
//! draws for those reports.

use fairdice::Control;
use fairdice_api::charts::{Drawn, View};
use fairdice_api::dist::MAX_DOCUMENT_BYTES;
use fairdice_api::{Error, UseCase, Visitor};

use crate::progress;

/// The largest document of exact counts a page receives: 32 MiB, as the local web
/// app's API serves (a browser holds the text and every row it parses from it;
/// the command line writes up to [`MAX_DOCUMENT_BYTES`], and so does [`run`]).
///
/// [`run`]: crate::run
pub const PAGE_DOCUMENT_BYTES: u64 = 32 << 20;

/// `{"error": …}`: the use-case layer's error document.
pub(crate) fn error_document(error: &Error) -> String {
    serde_json::json!({ "error": error }).to_string()
}

/// The control every request runs under: the command line's budget, with progress
/// sent to the listening callback.
fn control() -> Control {
    let control = Control::new();
    if progress::listening() {
        control.with_progress(progress::report)
    } else {
        control
    }
}

/// One request of a use case: read, run and written as its report document.
struct Answered<R> {
    /// The report document, or why there is none.
    document: Result<String, Error>,
    /// The report, for the charts.
    report: Option<R>,
}

/// Reads `text` as a request of `U` and runs it; a report whose document would
/// pass `max_document` is refused before it is written.
fn answer<U: UseCase>(text: &str, max_document: u64) -> Answered<U::Report> {
    let report = U::from_json(text)
        .and_then(|request| request.run(&control()))
        .and_then(|report| U::check_document(&report, max_document).map(|()| report));
    match report {
        Ok(report) => Answered {
            document: serde_json::to_string(&report).map_err(|e| Error::internal(e.to_string())),
            report: Some(report),
        },
        Err(error) => Answered {
            document: Err(error),
            report: None,
        },
    }
}

/// Runs `visitor` on the use case named `use_case`, or answers with the error
/// document [`fairdice_api::run_json`] gives an unknown name.
fn dispatch(use_case: &str, visitor: impl Visitor<Output = String>) -> String {
    fairdice_api::visit(use_case, visitor).unwrap_or_else(|error| error_document(&error))
}

/// Every request of a page, with its charts.
struct Many<'a> {
    requests: &'a [String],
    view: &'a View,
    max_document: u64,
}

impl Visitor for Many<'_> {
    type Output = String;
    fn visit<U: UseCase>(self) -> String {
        let mut documents = Vec::with_capacity(self.requests.len());
        let mut reports = Vec::new();
        for (index, text) in self.requests.iter().enumerate() {
            progress::set_index(index);
            let answered = answer::<U>(text, self.max_document);
            documents.push(answered.document);
            reports.extend(answered.report);
        }
        let drawn = if self.view.charts && !reports.is_empty() {
            U::charts(&reports, self.view)
        } else {
            Ok(Vec::new())
        };
        match drawn {
            Ok(drawn) => written(&documents, &drawn),
            Err(error) => error_document(&error),
        }
    }
}

/// One request, answered with its report document alone.
struct One<'a> {
    request: &'a str,
}

impl Visitor for One<'_> {
    type Output = String;
    fn visit<U: UseCase>(self) -> String {
        let answered = answer::<U>(self.request, MAX_DOCUMENT_BYTES);
        answered
            .document
            .unwrap_or_else(|error| error_document(&error))
    }
}

/// `{"results": [...], "charts": [...]}`, the reports written in as they are.
fn written(documents: &[Result<String, Error>], charts: &[Drawn]) -> String {
    let mut out = String::from(r#"{"results":["#);
    for (i, document) in documents.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        match document {
            Ok(report) => {
                out.push_str(r#"{"report":"#);
                out.push_str(report);
                out.push('}');
            }
            Err(error) => out.push_str(&error_document(error)),
        }
    }
    out.push_str(r#"],"charts":"#);
    out.push_str(&serde_json::to_string(charts).unwrap_or_else(|_| "[]".to_string()));
    out.push('}');
    out
}

/// Runs `requests` of `use_case` (JSON documents) with the charts `view` (JSON)
/// asks for, each report document at most [`PAGE_DOCUMENT_BYTES`].
pub fn compute_json(use_case: &str, requests: &[String], view: &str) -> String {
    let view = match serde_json::from_str::<View>(if view.is_empty() { "{}" } else { view }) {
        Ok(view) => view,
        Err(e) => return error_document(&Error::bad_request(format!("not a view: {e}"))),
    };
    let many = Many {
        requests,
        view: &view,
        max_document: PAGE_DOCUMENT_BYTES,
    };
    dispatch(use_case, many)
}

/// One request answered with its report document or its error document, each
/// report document at most [`MAX_DOCUMENT_BYTES`] as on the command line.
pub fn run_json(use_case: &str, request: &str) -> String {
    dispatch(use_case, One { request })
}

#[cfg(test)]
mod tests {
    use super::*;
    use fairdice_api::charts;
    use fairdice_api::dist::DistRequest;
    use serde_json::Value;

    fn parsed(text: &str) -> Value {
        serde_json::from_str(text).expect("JSON")
    }

    #[test]
    fn one_request_answers_with_the_command_lines_document() {
        let text = run_json("dist", r#"{"expression": "4d6kh3"}"#);
        let report = parsed(&text);
        assert_eq!(report["total"], "1296");
        assert_eq!(report["mean_exact"], "15869/1296");
        // (Compared as text: serde_json reads floats back to within an ulp only.)
        let native = DistRequest::new("4d6kh3")
            .run(&Control::new())
            .expect("small");
        assert_eq!(text, serde_json::to_string(&native).expect("serializes"));
    }

    #[test]
    fn errors_are_the_use_case_layers_documents() {
        let error = parsed(&run_json("dist", r#"{"expression": "4d6kh3y"}"#));
        assert_eq!(error["error"]["kind"], "parse");
        assert_eq!(error["error"]["category"], "invalid");
        assert!(
            error["error"]["rendered"]
                .as_str()
                .expect("text")
                .starts_with("4d6kh3y\n      ^")
        );
        let unknown = parsed(&run_json("dice", "{}"));
        assert_eq!(unknown["error"]["kind"], "bad_request");
        assert!(
            unknown["error"]["message"]
                .as_str()
                .expect("text")
                .contains("accepted: dist")
        );
        let malformed = parsed(&run_json("dist", r#"{"expr": "3d6"}"#));
        assert!(
            malformed["error"]["message"]
                .as_str()
                .expect("text")
                .starts_with("not a dist request")
        );
    }

    #[test]
    fn too_large_requests_carry_a_suggestion_that_finishes() {
        let error = parsed(&run_json("dist", r#"{"expression": "1000000d1000000"}"#));
        assert_eq!(error["error"]["kind"], "too_big");
        let suggested = &error["error"]["suggestion"];
        assert_eq!(suggested["use_case"], "dist");
        let estimate = parsed(&run_json("dist", &suggested["request"].to_string()));
        assert_eq!(estimate["method"], "monte_carlo");
    }

    #[test]
    fn a_page_gets_every_result_and_one_chart_of_the_reports() {
        let requests = [
            r#"{"expression": "4d6kh3"}"#.to_string(),
            r#"{"expression": "2d6+"}"#.to_string(),
            r#"{"expression": "3d6"}"#.to_string(),
        ];
        let answer = parsed(&compute_json(
            "dist",
            &requests,
            r#"{"measures": ["at_least", "probability"], "width": 360}"#,
        ));
        let results = answer["results"].as_array().expect("results");
        assert_eq!(results.len(), 3);
        assert_eq!(results[0]["report"]["total"], "1296");
        assert_eq!(results[1]["error"]["kind"], "parse");
        assert_eq!(results[2]["report"]["total"], "216");
        // Everything the page shows is in the document.
        assert_eq!(results[0]["report"]["median"], 12);
        let last = &results[0]["report"]["outcomes"][15];
        assert_eq!(
            (last["at_most"].as_f64(), last["at_least"].as_f64()),
            (Some(1.0), Some(21.0 / 1296.0))
        );
        let charts = answer["charts"].as_array().expect("charts");
        assert_eq!(charts.len(), 2);
        assert_eq!(charts[0]["name"], "at_least");
        let svg = charts[0]["svg"].as_str().expect("svg");
        assert!(svg.starts_with("<svg") && svg.contains(r#"width="360""#));
        assert!(svg.contains("4d6kh3, 12: 61.651%") && svg.contains("P(X ≥ x)"));
        let svg = charts[1]["svg"].as_str().expect("svg");
        assert!(svg.contains("4d6kh3, 12: 12.886%") && svg.contains("3d6, 10: 12.500%"));
        let bad_view = parsed(&compute_json("dist", &requests, r#"{"measures": ["up"]}"#));
        assert_eq!(bad_view["error"]["kind"], "bad_request");
    }

    #[test]
    fn documents_past_the_limit_are_refused_before_they_are_written() {
        let view = View::default();
        let requests = [r#"{"expression": "3000d2"}"#.to_string()];
        let many = Many {
            requests: &requests,
            view: &view,
            max_document: 10_000,
        };
        let answer = parsed(&dispatch("dist", many));
        assert_eq!(answer["results"][0]["error"]["kind"], "too_big");
        assert_eq!(answer["charts"], serde_json::json!([]));
    }

    #[test]
    fn seats_answer_with_the_command_lines_document_and_the_totals_chart() {
        let request = r#"{"game": {"players": ["red", "blue"], "payoffs": {"6": [1, 0], "8": [0, 1]}},
                          "spec": "dice(base=2d6)", "samples": 12}"#;
        let answer = parsed(&compute_json(
            "seats",
            &[request.to_string()],
            r#"{"width": 375}"#,
        ));
        let native = fairdice_api::run_json("seats", request, &Control::new()).expect("small");
        assert_eq!(answer["results"][0]["report"], parsed(&native));
        assert_eq!(answer["charts"][0]["name"], "totals");
        let svg = answer["charts"][0]["svg"].as_str().expect("svg");
        assert!(svg.contains(r#"width="375""#) && svg.contains("red, roll 12"));
    }

    #[test]
    fn charts_fit_the_width_asked_for() {
        let narrow = View {
            width: 100,
            ..View::default()
        };
        assert_eq!(charts::size(&narrow).0, charts::NARROWEST);
        let wide = View {
            width: 5000,
            ..View::default()
        };
        assert_eq!(charts::size(&wide), (760, 420));
    }
}
