//! The web app's pages: HTML, CSS, JavaScript and the Seats page's example games,
//! served as any static host would serve them.
//!
//! The files come from one of two places:
//! - **compiled in** (the default): `web/` with the chrome every page shares put in
//!   ([`crate::chrome`]), `docs/games/*.json` with `games/index.json` listing them,
//!   and, when the binary is built with the feature `embed-wasm`, the WebAssembly
//!   module of `target/wasm` (from `scripts/build-wasm.sh`). Without the module the
//!   pages find no `wasm/` and send their requests to `POST /api/page/NAME`, so a
//!   plain `cargo install` serves every page on a machine with no wasm toolchain;
//! - **a folder** given at run time (`fairdice serve --site DIR`), such as the
//!   static site `scripts/build-site.sh` builds.
//!
//! [`write_site`] writes the compiled-in files to a folder, which is how
//! `scripts/build-site.sh` builds the static site: one implementation of the chrome.
//!
//! Page paths without `.html` (`/dice?expr=3d6`, the links the server-rendered
//! pages used to give) serve the same page, so old links keep working.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use rust_embed::RustEmbed;
use tower::ServiceExt;
use tower_http::services::ServeDir;

use crate::AppState;
use crate::chrome::Chrome;

/// The pages of the app, reachable with or without `.html`.
pub const PAGES: [&str; 6] = ["dice", "contest", "risk", "randomizers", "seats", "tune"];

/// Where the site's files come from.
#[derive(Debug, Clone)]
pub(crate) enum Site {
    /// Compiled into the binary.
    Builtin,
    /// A folder on disk.
    Folder(PathBuf),
}

impl Site {
    /// The folder when given, else the compiled-in site.
    pub fn new(folder: Option<PathBuf>) -> Site {
        folder.map_or(Site::Builtin, Site::Folder)
    }
}

/// The pages, styles and scripts (the partial is read, never served).
#[derive(RustEmbed)]
#[folder = "$CARGO_MANIFEST_DIR/../../web"]
struct Web;

/// The Seats page's example games.
#[derive(RustEmbed)]
#[folder = "$CARGO_MANIFEST_DIR/../../docs/games"]
struct Games;

/// The WebAssembly module and its JavaScript glue.
#[cfg(feature = "embed-wasm")]
#[derive(RustEmbed)]
#[folder = "$CARGO_MANIFEST_DIR/../../target/wasm"]
struct Wasm;

/// The files of `target/wasm` the pages load.
#[cfg(feature = "embed-wasm")]
const WASM_FILES: [&str; 2] = ["fairdice_wasm.js", "fairdice_wasm_bg.wasm"];

/// One file of the compiled-in site.
#[derive(Debug)]
struct File {
    content: Cow<'static, [u8]>,
    mime: String,
}

impl File {
    fn embedded(file: rust_embed::EmbeddedFile) -> File {
        File {
            mime: file.metadata.mimetype().to_string(),
            content: file.data,
        }
    }
}

/// Where the chrome is written.
const PARTIALS: &str = "partials/";

/// Every file of the compiled-in site by its path, built once; an error says
/// why the pages could not be dressed (a test keeps that from shipping).
fn builtin() -> Result<&'static BTreeMap<String, File>, &'static str> {
    static FILES: OnceLock<Result<BTreeMap<String, File>, String>> = OnceLock::new();
    FILES
        .get_or_init(|| {
            let mut files = BTreeMap::new();
            let mut pages = Vec::new();
            for path in Web::iter() {
                if path.starts_with(PARTIALS) {
                    continue;
                }
                let file = Web::get(&path).ok_or(format!("web/{path} went missing"))?;
                if path.ends_with(".html") {
                    let text = String::from_utf8(file.data.into_owned())
                        .map_err(|_| format!("web/{path} is not UTF-8"))?;
                    pages.push((path.to_string(), text));
                } else {
                    files.insert(path.to_string(), File::embedded(file));
                }
            }
            let partial =
                Web::get("partials/chrome.html").ok_or("web/partials/chrome.html is missing")?;
            let chrome = Chrome::parse(&String::from_utf8_lossy(&partial.data));
            let dressed = chrome.dress_all(
                pages
                    .iter()
                    .map(|(name, text)| (name.as_str(), text.as_str())),
            )?;
            for (name, text) in dressed {
                let file = File {
                    content: Cow::Owned(text.into_bytes()),
                    mime: "text/html".to_string(),
                };
                files.insert(name, file);
            }
            let mut games = Vec::new();
            for path in Games::iter().filter(|path| path.ends_with(".json")) {
                let file = Games::get(&path).ok_or(format!("docs/games/{path} went missing"))?;
                games.push(path.trim_end_matches(".json").to_string());
                files.insert(format!("games/{path}"), File::embedded(file));
            }
            games.sort();
            let index = serde_json::to_string(&games).map_err(|e| e.to_string())? + "\n";
            let index = File {
                content: Cow::Owned(index.into_bytes()),
                mime: "application/json".to_string(),
            };
            files.insert("games/index.json".to_string(), index);
            #[cfg(feature = "embed-wasm")]
            for path in WASM_FILES {
                let file = Wasm::get(path).ok_or(format!(
                    "target/wasm/{path} is missing: build it with ./scripts/build-wasm.sh"
                ))?;
                files.insert(format!("wasm/{path}"), File::embedded(file));
            }
            Ok(files)
        })
        .as_ref()
        .map_err(String::as_str)
}

/// Writes the compiled-in site into `folder` (created when missing): every page
/// with its chrome, the styles and scripts, the example games and, when
/// compiled in, the WebAssembly module. Returns how many files it wrote.
pub fn write_site(folder: &Path) -> std::io::Result<usize> {
    let files = builtin().map_err(std::io::Error::other)?;
    for (path, file) in files {
        let target = folder.join(path);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(target, &file.content)?;
    }
    Ok(files.len())
}

/// The longest request path that can name a file of the site; longer ones are
/// not found (a 5,000-byte name made the file system's error a bare 500).
const MAX_PATH_BYTES: usize = 1024;

/// The file a request path names: `index.html` for `/`, `dice.html` for
/// `/dice`; `None` for a path that leaves the site (`..`, a backslash), names a
/// hidden file or folder (`.git`, `.env`: a segment starting with a dot) or is
/// too long to be a file of the site.
fn file_of(path: &str) -> Option<String> {
    let path = path.trim_start_matches('/');
    if path.len() > MAX_PATH_BYTES
        || path.split('/').any(|segment| segment.starts_with('.'))
        || path.contains(['\\', '\0'])
    {
        return None;
    }
    Some(if path.is_empty() {
        "index.html".to_string()
    } else if PAGES.contains(&path) {
        format!("{path}.html")
    } else {
        path.to_string()
    })
}

/// `GET` of any path that is not the API's: a file of the site.
pub(crate) async fn serve(State(state): State<AppState>, request: Request) -> Response {
    let Some(file) = file_of(request.uri().path()) else {
        return not_found();
    };
    let cache = if file.ends_with(".html") {
        "no-cache"
    } else {
        "public, max-age=3600"
    };
    let mut response = match &*state.site {
        Site::Builtin => match builtin() {
            Ok(files) => match files.get(&file) {
                Some(found) => (
                    [(header::CONTENT_TYPE, found.mime.clone())],
                    found.content.clone(),
                )
                    .into_response(),
                None => not_found(),
            },
            Err(why) => (StatusCode::INTERNAL_SERVER_ERROR, format!("{why}\n")).into_response(),
        },
        Site::Folder(folder) => {
            let Ok(uri) = format!("/{file}").parse::<Uri>() else {
                return not_found();
            };
            // A link inside the folder may point out of it: only what resolves
            // inside the folder is served.
            if !inside(folder, &file).await {
                return not_found();
            }
            let (mut parts, body) = request.into_parts();
            parts.uri = uri;
            match ServeDir::new(folder)
                .oneshot(Request::from_parts(parts, body))
                .await
            {
                // Not there, or not readable as a file: not found, never a bare 500.
                Ok(response)
                    if response.status() == StatusCode::NOT_FOUND
                        || response.status().is_server_error() =>
                {
                    not_found()
                }
                Ok(response) => response.map(Body::new),
                Err(never) => match never {},
            }
        }
    };
    if response.status().is_success() {
        response
            .headers_mut()
            .insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    }
    response
}

/// Whether `file` resolves, links followed, to a place inside `folder`
/// (a file that does not exist resolves nowhere and is not found anyway).
async fn inside(folder: &std::path::Path, file: &str) -> bool {
    let (Ok(root), Ok(target)) = (
        tokio::fs::canonicalize(folder).await,
        tokio::fs::canonicalize(folder.join(file)).await,
    ) else {
        return false;
    };
    target.starts_with(root)
}

fn not_found() -> Response {
    (StatusCode::NOT_FOUND, "not found\n").into_response()
}

#[cfg(test)]
mod tests {
    use super::{PAGES, builtin, file_of};

    #[test]
    fn paths_name_files_of_the_site_only() {
        assert_eq!(file_of("/").as_deref(), Some("index.html"));
        assert_eq!(file_of("/dice").as_deref(), Some("dice.html"));
        assert_eq!(file_of("/js/page.js").as_deref(), Some("js/page.js"));
        assert_eq!(file_of("/../etc/passwd"), None);
        assert_eq!(file_of("/js/../../x"), None);
        assert_eq!(file_of("/a\\b"), None);
    }

    #[test]
    fn the_compiled_in_site_has_every_page_dressed_and_the_games_listed() {
        let files = builtin().expect("the pages dress");
        for page in PAGES {
            let html =
                String::from_utf8_lossy(&files[&format!("{page}.html")].content).into_owned();
            assert!(!html.contains("<!-- chrome:"), "{page}");
            assert!(
                html.contains(&format!("<a href=\"{page}.html\" aria-current=\"page\"")),
                "{page}"
            );
            assert!(html.contains("css/style.css"), "{page}");
        }
        assert!(files.contains_key("index.html"));
        assert!(files.contains_key("js/engine.js"));
        assert!(!files.keys().any(|path| path.starts_with("partials")));
        let games: Vec<String> =
            serde_json::from_slice(&files["games/index.json"].content).expect("a list");
        assert!(games.contains(&"sevens-1v1".to_string()), "{games:?}");
        for game in &games {
            assert!(files.contains_key(&format!("games/{game}.json")), "{game}");
        }
    }
}
