//! A page of the web app asks for several requests of one use case at once (the
//! Dice page compares expressions) and shows each report, or its error, with the
//! charts of all of them. [`compute_json`] answers that as one JSON document,
//! `{"results": [{"report": …} | {"error": …}, …], "charts": [{"name", "svg"}, …]}`,
//! whether the page computes in the browser (the wasm module) or asks
//! `fairdice serve` (`POST /api/page/{use_case}`): both call this function.

use fairdice::Control;

use crate::charts::{Drawn, View};
use crate::{Document, Error, UseCase, Visitor};

/// The largest report document a page receives: 32 MiB, as the local web app's
/// API serves (a browser holds the text and every row it parses from it; the
/// command line writes up to [`MAX_DOCUMENT_BYTES`](crate::dist::MAX_DOCUMENT_BYTES)).
pub const PAGE_DOCUMENT_BYTES: u64 = 32 << 20;

/// `{"error": …}`: the use-case layer's error document.
pub fn error_document(error: &Error) -> String {
    serde_json::json!({ "error": error }).to_string()
}

/// Runs `requests` of `use_case` (each its JSON document), request `i` under the
/// control `control(i)` gives, and draws the charts `view` (JSON, `{}` or empty
/// for the defaults) asks for; each report document is at most `max_document`
/// bytes. An unknown use case or a view that does not parse is answered with an
/// error document alone.
pub fn compute_json(
    use_case: &str,
    requests: &[String],
    view: &str,
    max_document: u64,
    control: impl Fn(usize) -> Control,
) -> String {
    let view = match serde_json::from_str::<View>(if view.is_empty() { "{}" } else { view }) {
        Ok(view) => view,
        Err(e) => return error_document(&Error::bad_request(format!("not a view: {e}"))),
    };
    let page = Page {
        requests,
        view: &view,
        document: Document {
            pretty: false,
            max_bytes: max_document,
        },
        control,
    };
    crate::visit(use_case, page).unwrap_or_else(|error| error_document(&error))
}

/// Every request of a page, with its charts.
struct Page<'a, C> {
    requests: &'a [String],
    view: &'a View,
    document: Document,
    control: C,
}

impl<C: Fn(usize) -> Control> Visitor for Page<'_, C> {
    type Output = String;

    fn visit<U: UseCase>(self) -> String {
        let mut documents = Vec::with_capacity(self.requests.len());
        let mut reports = Vec::new();
        for (index, text) in self.requests.iter().enumerate() {
            let answered = U::from_json(text)
                .and_then(|request| request.run(&(self.control)(index)))
                .and_then(|report| Ok((U::write(&report, &self.document)?, report)));
            match answered {
                Ok((document, report)) => {
                    documents.push(Ok(document));
                    reports.push(report);
                }
                Err(error) => documents.push(Err(error)),
            }
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
