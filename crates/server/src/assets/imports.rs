//! The static imports of an ES module, read from its text well enough to hint the browser
//! (`<link rel="modulepreload">`): a module missed costs the page one round trip, one too
//! many costs a download; neither changes what runs, so a plain scan is enough and no
//! JavaScript parser is needed.

/// The specifiers of `import … from '…'`, `import '…'` and `export … from '…'` statements
/// that start a line, in order. Dynamic `import(…)`, `import.meta` and JSDoc's
/// `import('…')` types are not static imports and are skipped.
#[must_use]
pub fn static_imports(source: &str) -> Vec<&str> {
    let mut found = Vec::new();
    let mut offset = 0;
    for line in source.split_inclusive('\n') {
        let start = line.trim_start();
        if starts_statement(start) {
            // The statement runs to its `;` (an import list may span lines).
            let statement = &source[offset + line.len() - start.len()..];
            let statement = &statement[..statement.find(';').unwrap_or(statement.len())];
            if let Some(specifier) = specifier(statement) {
                found.push(specifier);
            }
        }
        offset += line.len();
    }
    found
}

/// Does this line start an `import` or `export … from` statement?
fn starts_statement(line: &str) -> bool {
    for keyword in ["import", "export"] {
        if let Some(after) = line.strip_prefix(keyword) {
            // `import(`, `import.meta`, `imports`: not a static import.
            return after.starts_with([' ', '\t', '{', '*', '\'', '"']);
        }
    }
    false
}

/// The module a statement imports: the string after `from`, or for `import '…'` the
/// statement's first string; `None` for an `export` that imports nothing.
fn specifier(statement: &str) -> Option<&str> {
    let from = statement
        .match_indices("from")
        .map(|(at, _)| at + "from".len())
        .find(|&after| statement[after..].trim_start().starts_with(['\'', '"']));
    match from {
        Some(after) => first_string(&statement[after..]),
        None if statement.starts_with("import") => first_string(statement),
        None => None,
    }
}

/// The contents of the first quoted string in `text`.
fn first_string(text: &str) -> Option<&str> {
    let open = text.find(['\'', '"'])?;
    let quote = text[open..].chars().next()?;
    let body = &text[open + 1..];
    let close = body.find(quote)?;
    Some(&body[..close])
}

/// `specifier` imported by the module at `from` (paths relative to the served folder), as
/// a path in that folder: only relative specifiers (`./`, `../`) that stay inside it.
#[must_use]
pub fn resolve(from: &str, specifier: &str) -> Option<String> {
    if !(specifier.starts_with("./") || specifier.starts_with("../")) {
        return None;
    }
    let mut parts: Vec<&str> = from.split('/').collect();
    parts.pop();
    for part in specifier.split('/') {
        match part {
            "." => {}
            ".." => {
                parts.pop()?;
            }
            "" => return None,
            part => parts.push(part),
        }
    }
    Some(parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_static_imports_and_only_them() {
        let source = r#"// A module.
import { a, b } from './a.js';
import {
  c,
  d,
} from "./c.js";
import './side-effect.js';
import * as all from './all.js';
import data from './data.json' with { type: 'json' };
export { e } from './e.js';
export const importance = 1;
/** @param {import('./types.js').T} t */
const later = () => import('./later.js');
  import x from './indented.js'
const url = import.meta.url;
// import y from './commented.js';
export function f() {}"#;
        assert_eq!(
            static_imports(source),
            [
                "./a.js",
                "./c.js",
                "./side-effect.js",
                "./all.js",
                "./data.json",
                "./e.js",
                "./indented.js",
            ]
        );
        assert!(static_imports("").is_empty());
        assert!(static_imports("import").is_empty());
        assert!(static_imports("import {").is_empty());
        assert!(static_imports("import { a } from './unclosed").is_empty());
    }

    #[test]
    fn resolves_relative_specifiers_inside_the_folder() {
        assert_eq!(resolve("app.js", "./ui.js").as_deref(), Some("ui.js"));
        assert_eq!(
            resolve("pages/game.js", "../ui.js").as_deref(),
            Some("ui.js")
        );
        assert_eq!(
            resolve("pages/game.js", "./parts/board.js").as_deref(),
            Some("pages/parts/board.js")
        );
        assert_eq!(resolve("app.js", "../outside.js"), None);
        assert_eq!(resolve("app.js", "/static/ui.js"), None);
        assert_eq!(resolve("app.js", "https://example.org/x.js"), None);
        assert_eq!(resolve("app.js", "lodash"), None);
        assert_eq!(resolve("app.js", ".//ui.js"), None);
    }
}
