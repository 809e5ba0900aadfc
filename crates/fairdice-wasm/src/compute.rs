//! The wasm module's two calls over the use-case layer: one request
//! ([`run_json`]) and a page's requests with their charts ([`compute_json`], which
//! is [`fairdice_api::page`]'s, as `fairdice serve` answers it too), each request
//! under a control that reports progress to the listening callback.

use fairdice::Control;
use fairdice_api::page;

pub use fairdice_api::page::PAGE_DOCUMENT_BYTES;

use crate::progress;

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

/// Runs `requests` of `use_case` (JSON documents) with the charts `view` (JSON)
/// asks for, each report document at most [`PAGE_DOCUMENT_BYTES`].
pub fn compute_json(use_case: &str, requests: &[String], view: &str) -> String {
    page::compute_json(use_case, requests, view, PAGE_DOCUMENT_BYTES, |index| {
        progress::set_index(index);
        control()
    })
}

/// One request answered with its report document or its error document, each
/// report document at most [`MAX_DOCUMENT_BYTES`](fairdice_api::dist::MAX_DOCUMENT_BYTES)
/// as on the command line.
pub fn run_json(use_case: &str, request: &str) -> String {
    fairdice_api::run_json(use_case, request, &control())
        .unwrap_or_else(|error| page::error_document(&error))
}

#[cfg(test)]
mod tests {
    use super::*;
    use fairdice_api::UseCase;
    use fairdice_api::charts::{self, View};
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
        let requests = [r#"{"expression": "3000d2"}"#.to_string()];
        let answer = parsed(&page::compute_json("dist", &requests, "", 10_000, |_| {
            Control::new()
        }));
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
