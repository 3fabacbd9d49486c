//! The repository's files as the workspace checks read them: from its top, skipping
//! installed packages, build output and fuzz corpora.

use std::fs;
use std::path::{Path, PathBuf};

/// The repository's top.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every file under the top's folders `dirs` whose extension is one of `extensions`.
pub fn under(dirs: &[&str], extensions: &[&str]) -> Vec<PathBuf> {
    fn walk(dir: &Path, extensions: &[&str], out: &mut Vec<PathBuf>) {
        let Ok(entries) = fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name();
            if name == "node_modules" || name == "target" || name == "corpus" {
                continue;
            }
            if path.is_dir() {
                walk(&path, extensions, out);
            } else if path
                .extension()
                .is_some_and(|e| extensions.iter().any(|x| e == *x))
            {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    for dir in dirs {
        walk(&root().join(dir), extensions, &mut out);
    }
    out
}
