//! The chrome every page of the app shares (its head, navigation and footer),
//! written once in `web/partials/chrome.html` and put into each page.
//!
//! A page marks each place with a line of its own, `<!-- chrome: NAME -->`; the
//! partial holds the sections, each starting with a line `<!-- section: NAME -->`.
//! In the navigation, the link to the page itself is marked `aria-current="page"`.
//! The server dresses the pages it serves with this, and `fairdice serve
//! --write-site` writes them dressed for a static host, so there is one
//! implementation.

use std::collections::BTreeMap;

/// The sections of the partial, by name, each without its trailing newline.
#[derive(Debug)]
pub(crate) struct Chrome {
    sections: BTreeMap<String, String>,
}

/// The name a marker line of `prefix` gives (`<!-- chrome: head -->` → `head`).
fn marker<'a>(line: &'a str, prefix: &str) -> Option<&'a str> {
    let name = line.strip_prefix(prefix)?.strip_suffix(" -->")?;
    (!name.is_empty() && name.bytes().all(|b| b.is_ascii_lowercase())).then_some(name)
}

impl Chrome {
    /// Reads the partial: the text before its first section is a comment for
    /// the people editing it and is dropped.
    pub fn parse(partial: &str) -> Chrome {
        let mut sections = BTreeMap::new();
        let mut current: Option<(String, Vec<&str>)> = None;
        for line in partial.lines() {
            if let Some(name) = marker(line, "<!-- section: ") {
                if let Some((name, lines)) = current.take() {
                    sections.insert(name, lines.join("\n").trim_end().to_string());
                }
                current = Some((name.to_string(), Vec::new()));
            } else if let Some((_, lines)) = &mut current {
                lines.push(line);
            }
        }
        if let Some((name, lines)) = current {
            sections.insert(name, lines.join("\n").trim_end().to_string());
        }
        Chrome { sections }
    }

    /// Every page of `pages` (file name and text) with its markers replaced;
    /// an error names a marker with no section, a section no page uses, or a
    /// page (but the front page) the navigation does not link.
    pub fn dress_all<'a>(
        &self,
        pages: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Vec<(String, String)>, String> {
        let mut used = std::collections::BTreeSet::new();
        let mut dressed = Vec::new();
        for (name, page) in pages {
            let mut out = String::with_capacity(page.len() + 2048);
            for line in page.split_inclusive('\n') {
                let Some(wanted) = marker(line.trim_end_matches(['\n', '\r']), "<!-- chrome: ")
                else {
                    out.push_str(line);
                    continue;
                };
                let Some(body) = self.sections.get(wanted) else {
                    return Err(format!(
                        "{name} asks for the chrome's `{wanted}`; web/partials/chrome.html has {:?}",
                        self.sections.keys().collect::<Vec<_>>()
                    ));
                };
                used.insert(wanted.to_string());
                if wanted == "header" {
                    let link = format!("<a href=\"{name}\"");
                    if !body.contains(&link) {
                        return Err(format!("the navigation does not link {name}"));
                    }
                    out.push_str(&body.replacen(
                        &link,
                        &format!("{link} aria-current=\"page\""),
                        1,
                    ));
                } else {
                    out.push_str(body);
                }
                out.push_str(&line[line.trim_end_matches(['\n', '\r']).len()..]);
            }
            dressed.push((name.to_string(), out));
        }
        let unused: Vec<_> = self
            .sections
            .keys()
            .filter(|name| !used.contains(*name))
            .collect();
        if !unused.is_empty() {
            return Err(format!("no page uses the chrome's {unused:?}"));
        }
        Ok(dressed)
    }
}

#[cfg(test)]
mod tests {
    use super::Chrome;

    const PARTIAL: &str = "<!-- notes -->\n<!-- section: head -->\n<meta a>\n\n<!-- section: header -->\n<nav><a href=\"a.html\">A</a> <a href=\"b.html\">B</a></nav>\n";

    #[test]
    fn markers_are_replaced_and_the_page_itself_is_current() {
        let chrome = Chrome::parse(PARTIAL);
        let dressed = chrome
            .dress_all([
                (
                    "a.html",
                    "<head>\n<!-- chrome: head -->\n</head>\n<!-- chrome: header -->\nx\n",
                ),
                ("b.html", "<!-- chrome: header -->\n"),
            ])
            .expect("dressed");
        assert_eq!(
            dressed[0].1,
            "<head>\n<meta a>\n</head>\n<nav><a href=\"a.html\" aria-current=\"page\">A</a> <a href=\"b.html\">B</a></nav>\nx\n"
        );
        assert_eq!(
            dressed[1].1,
            "<nav><a href=\"a.html\">A</a> <a href=\"b.html\" aria-current=\"page\">B</a></nav>\n"
        );
    }

    #[test]
    fn a_missing_section_an_unused_one_or_an_unlinked_page_is_refused() {
        let chrome = Chrome::parse(PARTIAL);
        let missing = chrome.dress_all([("a.html", "<!-- chrome: footer -->\n")]);
        assert!(missing.unwrap_err().contains("`footer`"));
        let unused = chrome.dress_all([("a.html", "<!-- chrome: head -->\n")]);
        assert!(unused.unwrap_err().contains("header"));
        let unlinked =
            chrome.dress_all([("c.html", "<!-- chrome: head -->\n<!-- chrome: header -->\n")]);
        assert!(unlinked.unwrap_err().contains("does not link c.html"));
    }
}
