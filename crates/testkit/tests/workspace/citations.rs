//! The code cites the rules and the protocol in this repository (issue 26): no source file
//! names the contracts the project started from (the shared rules, protocol and engine-CLI
//! documents, which are not in the repository), and every `docs/<page>.md#anchor` a source
//! file cites is a heading of that page, so a renamed heading cannot leave a dead link.

use std::collections::HashSet;
use std::fs;
use std::path::PathBuf;

use super::files::root;

/// The source files and the documents: Rust under `crates/` and `fuzz/`, the web client's
/// scripts, pages and styles (its installed packages left out), and every Markdown page.
fn sources() -> Vec<PathBuf> {
    let mut out = super::files::under(
        &["crates", "web", "fuzz", "docs"],
        &["rs", "js", "html", "css", "md"],
    );
    out.push(root().join("README.md"));
    out
}

/// A heading's anchor as GitHub makes it: lower case, only letters, digits, `-`, `_` and
/// spaces kept, spaces as `-`; a repeated anchor gets `-1`, `-2`...
fn anchors(markdown: &str) -> HashSet<String> {
    let mut seen = HashSet::new();
    let mut fenced = false;
    for line in markdown.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
        }
        if fenced || !line.starts_with('#') {
            continue;
        }
        let text = line.trim_start_matches('#').trim();
        let base: String = text
            .to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric() || *c == '-' || *c == '_' || *c == ' ')
            .map(|c| if c == ' ' { '-' } else { c })
            .collect();
        let mut anchor = base.clone();
        let mut n = 0;
        while seen.contains(&anchor) {
            n += 1;
            anchor = format!("{base}-{n}");
        }
        seen.insert(anchor);
    }
    seen
}

#[test]
fn anchors_are_made_as_github_makes_them() {
    let page = "# Rules\n## 1. Omweso\n### 1.2 A turn\n```\n# not a heading\n```\n## WebSocket: `GET /ws/games/{id}`\n## 1. Omweso\n";
    let got = anchors(page);
    let want: HashSet<String> = [
        "rules",
        "1-omweso",
        "12-a-turn",
        "websocket-get-wsgamesid",
        "1-omweso-1",
    ]
    .map(String::from)
    .into();
    assert_eq!(got, want);
}

#[test]
fn the_code_cites_the_pages_of_this_repository_and_their_headings() {
    let pages = ["rules", "protocol", "engine-cli"];
    let headings: Vec<(String, HashSet<String>)> = pages
        .iter()
        .map(|page| {
            let text = fs::read_to_string(root().join(format!("docs/{page}.md")))
                .unwrap_or_else(|e| panic!("docs/{page}.md: {e}"));
            (page.to_string(), anchors(&text))
        })
        .collect();
    let files = sources();
    assert!(files.len() > 100, "only {} source files found", files.len());
    let mut wrong = Vec::new();
    for file in &files {
        let Ok(text) = fs::read_to_string(file) else {
            continue;
        };
        let shown = file
            .strip_prefix(root())
            .unwrap_or(file)
            .display()
            .to_string();
        for (n, line) in text.lines().enumerate() {
            // Spelled in pieces, so that this file does not cite them itself.
            for outside in [
                concat!("RULES", ".md"),
                concat!("PROTOCOL", ".md"),
                concat!("ENGINE-CLI", ".md"),
            ] {
                if line.contains(outside) {
                    wrong.push(format!("{shown}:{}: cites {outside}", n + 1));
                }
            }
            for (page, anchors) in &headings {
                // The docs/ path and an anchor anywhere; the page and an anchor in a link.
                for prefix in [format!("docs/{page}.md#"), format!("({page}.md#")] {
                    for (at, _) in line.match_indices(prefix.as_str()) {
                        let anchor: String = line[at + prefix.len()..]
                            .chars()
                            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
                            .collect();
                        // `docs/rules.md#...` names the form, not a heading.
                        if !anchor.is_empty() && !anchors.contains(&anchor) {
                            wrong.push(format!("{shown}:{}: no heading {prefix}{anchor}", n + 1));
                        }
                    }
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
