//! docs/architecture.md cannot drift from the code: every code name it cites in backticks
//! (a path like `Table::act`, a constant like `MAX_FRAME_BYTES`, a function like
//! `complete_turn`, a file like `cluster/seal.rs` or a folder like `analysis/`) exists.
//! A renamed function or a moved file fails here, not in a reader's hands.

use std::collections::HashSet;
use std::fs;

use super::files::root;

/// Every source file of the code (Rust, the web client's scripts, the SQL migrations, the
/// manifests), as a path relative to the root, and its text.
fn code() -> Vec<(String, String)> {
    let root = root();
    super::files::under(
        &["crates", "web", "fuzz", "tools", "migrations"],
        &["rs", "js", "sql", "toml"],
    )
    .into_iter()
    .map(|path| {
        let relative = path.strip_prefix(&root).unwrap_or(&path);
        let text = fs::read_to_string(&path).unwrap_or_default();
        (relative.to_string_lossy().replace('\\', "/"), text)
    })
    .collect()
}

/// The words of the code: every identifier as written anywhere in it.
fn words(code: &[(String, String)]) -> HashSet<String> {
    let mut words = HashSet::new();
    for (_, text) in code {
        for word in text.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
            if !word.is_empty() {
                words.insert(word.to_owned());
            }
        }
    }
    words
}

/// Is `s` an identifier (letters, digits, `_`, not starting with a digit)?
fn identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// What a backticked text names in the code, if it is a code name at all: `Some(names)`
/// each of which must be a word of the code, or a file or folder (`Err(path)`) that must
/// end some path of the code. Prose, URLs, flags, JSON and shell lines are not names.
enum Cited {
    /// A code path (`Table::act`, `actor::COMMAND_QUEUE`) or a lone identifier written as
    /// code is written (`complete_turn`, `MAX_FRAME_BYTES`, `CamelCase`).
    Names(Vec<String>),
    /// A file (`x/y.rs`, `seal.rs`) or a folder (`analysis/`).
    Path(String),
}

fn cited(text: &str) -> Option<Cited> {
    // `Frame::state(Actor::snapshot(..))`, `Table::tick(now)`: the path before the call.
    let head = text.split(['(', ' ', '{', '<']).next().unwrap_or("");
    let is_file = [".rs", ".js", ".sql", ".toml", ".css", ".html"]
        .iter()
        .any(|ext| head.ends_with(ext));
    if is_file && !head.contains("://") && !head.starts_with('/') {
        return Some(Cited::Path(head.to_owned()));
    }
    if head.ends_with('/') && head.len() > 1 && !head.starts_with('/') && head == text {
        return Some(Cited::Path(head.to_owned()));
    }
    if head.contains("::") {
        let segments: Vec<String> = head.split("::").map(str::to_owned).collect();
        if segments.iter().all(|s| identifier(s)) {
            return Some(Cited::Names(segments));
        }
        return None;
    }
    // A lone word is a code name when it is written as only code is: with an underscore
    // (`complete_turn`, `MAX_FRAME_BYTES`) or in CamelCase (`StoreError`); plain words
    // (`ack`, `board`) are the protocol's or the prose's.
    let camel = head.chars().next().is_some_and(|c| c.is_ascii_uppercase())
        && head.chars().skip(1).any(|c| c.is_ascii_lowercase())
        && head.chars().skip(1).any(|c| c.is_ascii_uppercase());
    if head == text && identifier(head) && (head.contains('_') || camel) {
        return Some(Cited::Names(vec![head.to_owned()]));
    }
    None
}

/// The backticked texts of a Markdown page outside its fenced blocks.
fn backticked(markdown: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut fenced = false;
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let mut parts = line.split('`');
        parts.next();
        while let Some(inside) = parts.next() {
            out.push(inside.to_owned());
            parts.next();
        }
    }
    out
}

/// Names a page may cite that are not the code's: another program's settings.
const NOT_OURS: &[&str] = &[
    // PostgreSQL's setting, which the durability section says the server relies on.
    "synchronous_commit",
];

/// Is `name` one of the code's words? A Prometheus counter is written without the
/// `_total` its exposition adds (`omweso_searches_busy` is `omweso_searches_busy_total`).
fn known(words: &HashSet<String>, name: &str) -> bool {
    words.contains(name)
        || NOT_OURS.contains(&name)
        || name
            .strip_suffix("_total")
            .is_some_and(|counter| words.contains(counter))
}

fn missing(page: &str) -> Vec<String> {
    let code = code();
    let words = words(&code);
    let text = fs::read_to_string(root().join(page)).expect("the page is there");
    let mut missing = Vec::new();
    for quoted in backticked(&text) {
        match cited(&quoted) {
            Some(Cited::Names(names)) => {
                let absent: Vec<&String> = names.iter().filter(|n| !known(&words, n)).collect();
                if !absent.is_empty() {
                    missing.push(format!("`{quoted}`: no {absent:?} in the code"));
                }
            }
            Some(Cited::Path(path)) => {
                let folder = path.trim_end_matches('/');
                let found = code.iter().any(|(file, _)| {
                    if path.ends_with('/') {
                        file.contains(&format!("{folder}/"))
                            || file.ends_with(&format!("/{folder}.rs"))
                    } else {
                        file.ends_with(&format!("/{path}")) || file == &path
                    }
                });
                if !found {
                    missing.push(format!("`{quoted}`: no such file or folder"));
                }
            }
            None => {}
        }
    }
    missing.sort();
    missing.dedup();
    missing
}

#[test]
fn code_names_are_told_from_prose() {
    let names = |t: &str| match cited(t) {
        Some(Cited::Names(n)) => Some(n),
        _ => None,
    };
    let path = |t: &str| match cited(t) {
        Some(Cited::Path(p)) => Some(p),
        _ => None,
    };
    assert_eq!(
        names("Table::act"),
        Some(vec!["Table".into(), "act".into()])
    );
    assert_eq!(
        names("Frame::state(Actor::snapshot(..))"),
        Some(vec!["Frame".into(), "state".into()])
    );
    assert_eq!(names("complete_turn"), Some(vec!["complete_turn".into()]));
    assert_eq!(
        names("MAX_FRAME_BYTES"),
        Some(vec!["MAX_FRAME_BYTES".into()])
    );
    assert_eq!(names("StoreError"), Some(vec!["StoreError".into()]));
    assert_eq!(names("ack"), None);
    assert_eq!(names("Store"), None);
    assert_eq!(names("--rate-limit"), None);
    assert_eq!(names("GET /api/games/{id}"), None);
    assert_eq!(path("cluster/seal.rs"), Some("cluster/seal.rs".into()));
    assert_eq!(path("analysis/"), Some("analysis/".into()));
    assert_eq!(path("/ws/lobby"), None);
    assert_eq!(
        backticked("a `b` c `d::e`\n```\n`f`\n```\n`g`"),
        vec!["b", "d::e", "g"]
    );
}

#[test]
fn every_code_name_docs_architecture_cites_exists() {
    let missing = missing("docs/architecture.md");
    assert!(
        missing.is_empty(),
        "docs/architecture.md cites names the code does not have:\n{}",
        missing.join("\n")
    );
}
