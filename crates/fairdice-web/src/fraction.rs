//! Exact fractions on a page: a short one inline, a long one (a battle of hundreds
//! of armies has fractions of thousands of digits) summarized by its length with
//! the whole fraction one click away, as the command line summarizes it and
//! `--json` prints it whole.

use fairdice::dice::report::fraction;
use num_rational::BigRational;

use crate::html::escape;

/// `r` as `<code>p/q</code>` (an integer alone), or past `max_chars` characters as
/// a `<details>` element whose summary gives the length and whose body holds the
/// whole fraction. `id`, when given, names the element holding the digits.
pub(crate) fn fraction_html(r: &BigRational, max_chars: usize, id: Option<&str>) -> String {
    let text = if r.is_integer() {
        r.numer().to_string()
    } else {
        fraction(r)
    };
    let id = id
        .map(|id| format!(r#" id="{}""#, escape(id)))
        .unwrap_or_default();
    if text.len() <= max_chars {
        format!(r#"<code class="fraction"{id}>{text}</code>"#)
    } else {
        format!(
            r#"<details class="fraction"><summary>exact fraction of {} characters</summary><code class="fraction"{id}>{text}</code></details>"#,
            text.len()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigInt;

    fn ratio(p: i64, q: i64) -> BigRational {
        BigRational::new(BigInt::from(p), BigInt::from(q))
    }

    #[test]
    fn short_fractions_are_inline_and_integers_bare() {
        assert_eq!(
            fraction_html(&ratio(2, 4), 10, None),
            r#"<code class="fraction">1/2</code>"#
        );
        assert_eq!(
            fraction_html(&ratio(0, 4), 10, Some("p")),
            r#"<code class="fraction" id="p">0</code>"#
        );
    }

    #[test]
    fn long_fractions_fold_with_their_length() {
        let long = BigRational::new(BigInt::from(7).pow(40), BigInt::from(3).pow(40));
        let html = fraction_html(&long, 20, None);
        let digits = fraction(&long);
        assert!(html.starts_with(r#"<details class="fraction"><summary>exact fraction of "#));
        assert!(html.contains(&format!("{} characters", digits.len())));
        assert!(html.contains(&digits));
    }
}
