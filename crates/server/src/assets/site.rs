//! The web files as one version: a hash of all of them (the `v/<version>/` in the page's
//! URLs, so that a browser may keep each file for a year and still never run a stale one)
//! and the static imports of each module (the page's preload hints).
//!
//! A release build embeds the files, so its version is fixed: it is computed once. A debug
//! build reads them from disk on every request; there a page request computes the version
//! again when the last was computed over a second ago (listing the folder walks
//! `node_modules` too, ~0.1 s: the browser tests load many pages), so an edit needs only a
//! reload.

use std::borrow::Cow;
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use rust_embed::RustEmbed;
use sha2::{Digest, Sha256};

use super::imports;

#[derive(RustEmbed)]
#[folder = "../../web/"]
#[exclude = "node_modules/*"]
#[exclude = "tests/*"]
#[exclude = "test-artifacts/*"]
#[exclude = "tools/*"]
#[exclude = "package.json"]
#[exclude = "package-lock.json"]
#[exclude = "tsconfig.json"]
#[exclude = ".*"]
struct Web;

/// One served file: its content and type.
pub struct File {
    pub content: Bytes,
    pub mime: String,
}

/// The file at `path` in the served folder, if there is one.
#[must_use]
pub fn file(path: &str) -> Option<File> {
    let file = Web::get(path)?;
    Some(File {
        mime: file.metadata.mimetype().to_owned(),
        content: match file.data {
            Cow::Borrowed(bytes) => Bytes::from_static(bytes),
            Cow::Owned(bytes) => Bytes::from(bytes),
        },
    })
}

/// The paths of every served file.
pub fn paths() -> impl Iterator<Item = Cow<'static, str>> {
    Web::iter()
}

/// The files' version and module graph.
#[derive(Debug)]
pub struct Site {
    /// 16 hex digits of a SHA-256 over every file's path and content.
    pub version: String,
    /// Each module's static imports, as paths in the folder.
    imports: HashMap<String, Vec<String>>,
}

/// The site as last computed, and when.
static CURRENT: RwLock<Option<(Arc<Site>, Instant)>> = RwLock::new(None);

/// How long a debug build trusts the version it computed.
const DEBUG_FRESH: Duration = Duration::from_secs(1);

/// The site as last computed (computed now if never). `refresh`: compute it again in a
/// debug build if older than [`DEBUG_FRESH`] (a page request: the files may have changed);
/// a release build never does.
#[must_use]
pub fn current(refresh: bool) -> Arc<Site> {
    let refresh = refresh && cfg!(debug_assertions);
    if let Some((site, at)) = CURRENT
        .read()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .as_ref()
    {
        if !refresh || at.elapsed() < DEBUG_FRESH {
            return site.clone();
        }
    }
    let site = Arc::new(Site::compute());
    *CURRENT
        .write()
        .unwrap_or_else(std::sync::PoisonError::into_inner) = Some((site.clone(), Instant::now()));
    site
}

impl Site {
    fn compute() -> Site {
        let mut paths: Vec<Cow<'static, str>> = Web::iter().collect();
        paths.sort();
        let mut hasher = Sha256::new();
        let mut imports = HashMap::new();
        for path in paths {
            let Some(file) = Web::get(&path) else {
                continue;
            };
            hasher.update(path.as_bytes());
            hasher.update([0]);
            hasher.update(file.metadata.sha256_hash());
            if path.ends_with(".js") {
                let text = String::from_utf8_lossy(&file.data);
                let found = imports::static_imports(&text)
                    .into_iter()
                    .filter_map(|specifier| imports::resolve(&path, specifier))
                    .collect();
                imports.insert(path.into_owned(), found);
            }
        }
        let hash = hasher.finalize();
        Site {
            version: hex::encode(&hash[..8]),
            imports,
        }
    }

    /// The modules `entries` load before they run (themselves and everything they import,
    /// directly or not), in breadth-first order; modules that are not files are left out.
    #[must_use]
    pub fn closure(&self, entries: &[&str]) -> Vec<String> {
        let mut seen: Vec<String> = Vec::new();
        let mut queue: VecDeque<String> = entries.iter().map(|&e| e.to_owned()).collect();
        while let Some(module) = queue.pop_front() {
            if seen.contains(&module) {
                continue;
            }
            let Some(imports) = self.imports.get(&module) else {
                continue;
            };
            queue.extend(imports.iter().cloned());
            seen.push(module);
        }
        seen
    }

    #[cfg(test)]
    pub fn for_tests(imports: &[(&str, &[&str])]) -> Site {
        Site {
            version: "0123456789abcdef".to_owned(),
            imports: imports
                .iter()
                .map(|(module, list)| {
                    (
                        (*module).to_owned(),
                        list.iter().map(|&m| m.to_owned()).collect(),
                    )
                })
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_closure_follows_imports_once_each() {
        let site = Site::for_tests(&[
            ("app.js", &["ui.js"]),
            ("ui.js", &[]),
            ("lobby.js", &["api.js", "ui.js", "form.js"]),
            ("form.js", &["api.js", "missing.js"]),
            ("api.js", &["lobby.js"]),
        ]);
        assert_eq!(
            site.closure(&["app.js", "lobby.js"]),
            ["app.js", "lobby.js", "ui.js", "api.js", "form.js"]
        );
        assert_eq!(site.closure(&["nothing.js"]), Vec::<String>::new());
    }

    #[test]
    fn the_real_site_has_a_version_and_the_pages_modules() {
        let site = current(false);
        assert_eq!(site.version.len(), 16);
        assert!(site.version.bytes().all(|b| b.is_ascii_hexdigit()));
        let lobby = site.closure(&["lobby/lobby.js"]);
        assert!(lobby.contains(&"core/api.js".to_owned()), "{lobby:?}");
        assert!(
            !lobby.iter().any(|module| module.starts_with("director/")),
            "{lobby:?}"
        );
        assert!(file("app.js").is_some());
        assert!(
            file("tools/pageload.js").is_none(),
            "the tools are not served"
        );
    }
}
