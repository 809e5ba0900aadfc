//! The web app's pages: the static site `scripts/build-site.sh` builds (HTML, CSS,
//! JavaScript and the engine in WebAssembly, computing in the browser), served as
//! any static host would serve it.
//!
//! The site comes from one of two places: compiled into the binary (feature
//! `site`, from `target/site` when the crate is built), or a folder given at run
//! time (`fairdice serve --site DIR`). Without either, the API and the charts are
//! served and the home page says how to build the pages.
//!
//! Page paths without `.html` (`/dice?expr=3d6`, the links the server-rendered
//! pages used to give) serve the same page, so old links keep working.

use std::path::PathBuf;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, Uri, header};
use axum::response::{Html, IntoResponse, Response};
use tower::ServiceExt;
use tower_http::services::ServeDir;

use crate::AppState;

/// The pages of the app, reachable with or without `.html`.
pub const PAGES: [&str; 6] = ["dice", "contest", "risk", "randomizers", "seats", "tune"];

/// Where the site's files come from.
#[derive(Debug, Clone)]
pub(crate) enum Site {
    /// Compiled into the binary.
    #[cfg(feature = "site")]
    Embedded,
    /// A folder on disk.
    Folder(PathBuf),
    /// Not built: only the API and the charts are served.
    Missing,
}

impl Site {
    /// The folder when given, else the compiled-in site when there is one.
    pub fn new(folder: Option<PathBuf>) -> Site {
        match folder {
            Some(folder) => Site::Folder(folder),
            #[cfg(feature = "site")]
            None => Site::Embedded,
            #[cfg(not(feature = "site"))]
            None => Site::Missing,
        }
    }
}

#[cfg(feature = "site")]
#[derive(rust_embed::RustEmbed)]
#[folder = "$CARGO_MANIFEST_DIR/../../target/site"]
struct Embedded;

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
        #[cfg(feature = "site")]
        Site::Embedded => match Embedded::get(&file) {
            Some(content) => (
                [(
                    header::CONTENT_TYPE,
                    content.metadata.mimetype().to_string(),
                )],
                content.data.into_owned(),
            )
                .into_response(),
            None => not_found(),
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
        Site::Missing
            if file == "index.html"
                || file
                    .strip_suffix(".html")
                    .is_some_and(|p| PAGES.contains(&p)) =>
        {
            return (StatusCode::SERVICE_UNAVAILABLE, Html(NOT_BUILT)).into_response();
        }
        Site::Missing => not_found(),
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

/// The home page of a server without the site's pages.
const NOT_BUILT: &str = r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>fairdice</title></head>
<body>
<h1>fairdice</h1>
<p>The pages of the web app are not in this build. Build them from the repository with
<code>./scripts/build-site.sh</code>, then run <code>fairdice serve --site target/site</code>
(or build the command with <code>--features site</code> to compile them in).</p>
<p>The JSON API is here: <a href="/api/dist?expr=4d6kh3">/api/dist?expr=4d6kh3</a>,
and the charts: <a href="/chart/dist.svg?expr=4d6kh3">/chart/dist.svg?expr=4d6kh3</a>.</p>
</body></html>
"#;

#[cfg(test)]
mod tests {
    use super::file_of;

    #[test]
    fn paths_name_files_of_the_site_only() {
        assert_eq!(file_of("/").as_deref(), Some("index.html"));
        assert_eq!(file_of("/dice").as_deref(), Some("dice.html"));
        assert_eq!(file_of("/js/page.js").as_deref(), Some("js/page.js"));
        assert_eq!(file_of("/../etc/passwd"), None);
        assert_eq!(file_of("/js/../../x"), None);
        assert_eq!(file_of("/a\\b"), None);
    }
}
