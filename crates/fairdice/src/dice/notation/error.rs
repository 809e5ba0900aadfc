//! PLACEHOLDER replaced by the parser branch.
use super::ast::Span;
/// Placeholder.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("placeholder")]
pub struct ParseError {
    /// Placeholder.
    pub span: Span,
}
impl ParseError {
    /// Placeholder.
    pub fn render(&self, _s: &str) -> String {
        String::new()
    }
}
/// Placeholder.
pub fn underline(_s: &str, _span: &Span, m: &str) -> String {
    m.to_string()
}
