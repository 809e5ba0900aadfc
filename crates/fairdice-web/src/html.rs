//! The layout every page shares — head, navigation, footer — and HTML escaping.
//!
//! Pages are plain server-rendered HTML built with `format!`: each page module
//! writes its `<main>` content and hands it to [`layout`]. Every piece of text that
//! came from a request goes through [`escape`] (the same escaping the charts use).

use std::fmt::Write as _;

pub use fairdice_charts::escape;

use crate::assets;

/// A page of the app, as listed in the navigation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PageLink {
    /// Its path, e.g. `/dice`.
    pub path: &'static str,
    /// Its name in the navigation.
    pub name: &'static str,
    /// What it does, for the navigation's tooltip.
    pub about: &'static str,
}

/// Every page, in navigation order. Adding a page: a module with its routes, one
/// entry here, and one `.merge(...)` in [`crate::router`].
pub(crate) const PAGES: &[PageLink] = &[
    PageLink {
        path: "/dice",
        name: "Dice",
        about: "Exact distributions of dice expressions; compare several on one chart",
    },
    PageLink {
        path: "/contest",
        name: "Contest",
        about: "Two pools of dice against each other: who wins, ties, closeness, net score",
    },
    PageLink {
        path: "/risk",
        name: "Risk",
        about: "Risk battles: the attacker's odds, armies left, one-roll tables, heat map",
    },
    PageLink {
        path: "/randomizers",
        name: "Randomizers",
        about: "Entropy, outcome variance and droughts of decks, dynamic dice, PRD, Tetris…; seeded samples",
    },
    PageLink {
        path: "/tune",
        name: "Tuner",
        about: "The fairest parameters of each randomizer above an entropy threshold",
    },
];

/// A whole HTML document: the shared head and navigation around `main`, with the
/// page whose path is `active` marked as current.
pub(crate) fn layout(title: &str, active: &str, main: &str) -> String {
    let mut nav = String::new();
    for page in PAGES {
        let current = if page.path == active {
            r#" aria-current="page""#
        } else {
            ""
        };
        let _ = write!(
            nav,
            r#"<li><a href="{path}" title="{about}"{current}>{name}</a></li>"#,
            path = page.path,
            about = escape(page.about),
            name = escape(page.name),
        );
    }
    format!(
        r##"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} · fairdice</title>
<link rel="icon" href="{favicon}" type="image/svg+xml">
<link rel="stylesheet" href="{style}">
<script src="{script}" defer></script>
</head>
<body>
<a class="skip" href="#content">Skip to content</a>
<header class="site">
<a class="brand" href="/">fairdice</a>
<nav aria-label="Pages"><ul>{nav}</ul></nav>
</header>
<main id="content">
{main}
</main>
<footer class="site">
<p>fairdice {version} · every number is computed exactly on this machine; nothing is sent anywhere.</p>
</footer>
</body>
</html>
"##,
        title = escape(title),
        favicon = assets::url("favicon.svg"),
        style = assets::url("style.css"),
        script = assets::url("app.js"),
        version = env!("CARGO_PKG_VERSION"),
    )
}

/// A query string of `pairs`, each key and value percent-encoded.
pub(crate) fn query<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    let mut serializer = form_urlencoded::Serializer::new(String::new());
    for (key, value) in pairs {
        serializer.append_pair(key, value);
    }
    serializer.finish()
}

/// `1000000` as `1,000,000`.
pub(crate) fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_layout_marks_the_current_page_and_escapes_the_title() {
        let page = layout("<x>", "/dice", "<p>hi</p>");
        assert!(page.contains(r#"<a href="/dice" title="#));
        assert!(page.contains(r#"aria-current="page">Dice</a>"#));
        assert!(page.contains("<title>&lt;x&gt; · fairdice</title>"));
        assert!(page.contains("<p>hi</p>"));
    }

    #[test]
    fn queries_are_percent_encoded() {
        assert_eq!(
            query([("expr", "d20+5 >= 15"), ("mode", "at_least")]),
            "expr=d20%2B5+%3E%3D+15&mode=at_least"
        );
    }
}
