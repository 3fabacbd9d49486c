//! Paths read from tokens: a `use` tree's leaves, and a path in code.

use proc_macro2::{Delimiter, Spacing, TokenTree};

#[derive(Debug, PartialEq, Eq)]
pub(super) enum UseLeaf {
    Name { path: Vec<String>, alias: String },
    Glob { path: Vec<String> },
}

pub(super) fn is_path_separator(tokens: &[TokenTree], i: usize) -> bool {
    matches!(
        (tokens.get(i), tokens.get(i + 1)),
        (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b)))
            if a.as_char() == ':' && a.spacing() == Spacing::Joint && b.as_char() == ':'
    )
}

/// A path segment at `i` (an identifier, or `$crate`) and the index after it.
pub(super) fn segment_at(tokens: &[TokenTree], i: usize) -> Option<(String, usize)> {
    match tokens.get(i)? {
        TokenTree::Ident(id) => Some((id.to_string(), i + 1)),
        TokenTree::Punct(p) if p.as_char() == '$' => match tokens.get(i + 1)? {
            TokenTree::Ident(id) if id == "crate" => Some(("$crate".to_string(), i + 2)),
            _ => None,
        },
        _ => None,
    }
}

/// The path starting at `i` (`a::b::c`, stopping before generics or a `{`), and the index
/// after it. A path continuing one before `i` (`x::` then `i`), a leading `::` and a field
/// or method after `.` are not paths of their own: they give no segments.
pub(super) fn read_path(tokens: &[TokenTree], i: usize) -> (Vec<String>, usize) {
    let after_dot = i >= 1 && matches!(&tokens[i - 1], TokenTree::Punct(p) if p.as_char() == '.');
    let after_separator = i >= 2 && is_path_separator(tokens, i - 2);
    if after_dot || after_separator {
        return (Vec::new(), i + 1);
    }
    let Some((first, mut next)) = segment_at(tokens, i) else {
        return (Vec::new(), i + 1);
    };
    let mut segments = vec![first];
    while is_path_separator(tokens, next) {
        match segment_at(tokens, next + 2) {
            Some((segment, after)) => {
                segments.push(segment);
                next = after;
            }
            None => break,
        }
    }
    (segments, next)
}

/// The leaves of a `use` tree: `a::b`, `a::b as c`, `a::*`, `a::{b, c::{self, d}}`.
pub(super) fn parse_use_tree(tokens: &[TokenTree], prefix: &[String], leaves: &mut Vec<UseLeaf>) {
    let mut path = prefix.to_vec();
    let mut i = 0;
    if is_path_separator(tokens, 0) {
        // `use ::other_crate::...`: outside this crate.
        path.push("::".to_string());
        i = 2;
    }
    loop {
        match tokens.get(i) {
            Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Brace => {
                let inner: Vec<TokenTree> = g.stream().into_iter().collect();
                for part in inner.split(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ','))
                {
                    if !part.is_empty() {
                        parse_use_tree(part, &path, leaves);
                    }
                }
                return;
            }
            Some(TokenTree::Punct(p)) if p.as_char() == '*' => {
                leaves.push(UseLeaf::Glob { path });
                return;
            }
            _ => {}
        }
        let Some((segment, next)) = segment_at(tokens, i) else {
            return;
        };
        i = next;
        if segment != "self" || path.is_empty() {
            path.push(segment);
        }
        if is_path_separator(tokens, i) {
            i += 2;
            continue;
        }
        let alias = match (tokens.get(i), tokens.get(i + 1)) {
            (Some(TokenTree::Ident(kw)), Some(TokenTree::Ident(name))) if kw == "as" => {
                name.to_string()
            }
            _ => path.last().cloned().unwrap_or_default(),
        };
        leaves.push(UseLeaf::Name { path, alias });
        return;
    }
}
