//! The module graph of a crate, and its cycles: the check that keeps a crate's modules
//! layered (issue 26: no module cycles, and a test that fails on one).
//!
//! [`cycles`] reads a crate from its root (`src/lib.rs`, else `src/main.rs`) the way the
//! compiler finds its files: following every `mod name;` (to `name.rs` or `name/mod.rs`,
//! or a `#[path]`) and every inline `mod name { ... }`. Files no `mod` declares are not
//! part of the crate and are not read. Each file is lexed with `proc-macro2` (the lexer
//! behind proc macros: comments, strings, raw strings and lifetimes are handled, so a path
//! in a comment or a string never counts), and the paths are read from its tokens, so paths
//! inside macro calls (`tokio::select!`, `json!`, `format!`) count like any other.
//!
//! # What is an edge
//!
//! The graph's nodes are the crate's files (an inline module belongs to its file). A file
//! depends on a module when its code names an item that module defines:
//! - in a `use` (grouped and nested: `use crate::{a, b::{self, c::C}}`) that brings in an
//!   item, or a glob (`use super::*`) over a module;
//! - in a path in code (`crate::a::f()`, `super::Thing`, `self::x::y`, `$crate::...`), or a
//!   path that starts with a child module (`actor::spawn`) or with a module brought in by
//!   a `use` (`use crate::lobby::feed;` then `feed::Changes`).
//!
//! A path is resolved to the deepest module it names, through every `use` on the way: a
//! name re-exported by a module counts against the module that defines the item, not the
//! one that re-exports it. Paths that lead nowhere in the crate (`std::`, other crates,
//! local types' associated items) are not edges.
//!
//! # Parents and children (the rule)
//!
//! - A `mod child;` declaration is not a dependency of the parent on the child: declaring
//!   is how Rust builds the tree, not a use.
//! - A re-export (`pub use`, `pub(crate) use`, `pub(super) use`, ...) is not a dependency
//!   of the module that writes it: it is a door, and whoever walks through it depends on
//!   the module the item lives in. So a facade `mod.rs` that only declares and re-exports
//!   its children has no edges of its own, and a child naming a sibling through it
//!   (`super::Sibling`) depends on the sibling, not on the facade.
//! - A child naming its parent's *own* items (`super::Refused`) depends on the parent like
//!   any module does, and a parent naming a child's items depends on the child: each
//!   one-way edge between them counts. So a cycle that leaves a folder and comes back
//!   through its parent is found: `state -> analysis::service -> analysis` (the service
//!   naming the parent's `Refused`) with `analysis -> state` (a handler in `analysis/mod.rs`
//!   taking `AppState`).
//! - The one exception: a module and its own ancestor naming *each other* (both ways) are
//!   not a cycle. That is a type whose data is in the parent and whose methods are split
//!   over child files by job (`game::table` and `facts`, `referee`, `turn`;
//!   `tournament::state` and its jobs): one unit written in several files, which is how
//!   Rust spreads an `impl`. Only that pair of edges is dropped; a third module on the way
//!   round still makes a cycle.
//! - Whatever is under `#[cfg(test)]` (a `mod tests` inline or in a file, a `use`) is left
//!   out: a test may reach anywhere it needs to, and the layering is about the code that
//!   ships. (A `#[cfg(test)]` on a function or an `impl` is not seen: only `mod` and `use`.)
//!
//! A cycle is a strongly connected component of more than one file (Tarjan's algorithm);
//! [`Cycle`] names its modules and the edges inside it, each with one path that made it.
//! Method calls are invisible to a check over paths (`value.method()` names no module);
//! that is a limit of the check, not a rule.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use proc_macro2::{Delimiter, Spacing, TokenStream, TokenTree};

/// One cycle: the modules of a strongly connected component (sorted), and the edges
/// between them, each with one path in the source that made it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cycle {
    pub modules: Vec<String>,
    pub edges: Vec<Edge>,
}

/// `from` names `via`, an item of `to` (both module paths from the crate root; the root
/// itself is `crate`).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Edge {
    pub from: String,
    pub to: String,
    pub via: String,
}

impl fmt::Display for Cycle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "cycle through {}:", self.modules.join(", "))?;
        for edge in &self.edges {
            writeln!(f, "  {} -> {}   ({})", edge.from, edge.to, edge.via)?;
        }
        Ok(())
    }
}

/// The cycles among the modules of the crate whose `src` directory is `src_dir`, leaving
/// out the edges in `allowed` (pairs of module paths, `from` then `to`). Each allowance
/// must still be an edge of the graph: an allowance that no longer matches anything is an
/// error, so it is removed as soon as the code it excused is fixed.
pub fn cycles_allowing(src_dir: &Path, allowed: &[(&str, &str)]) -> io::Result<Vec<Cycle>> {
    let graph = Graph::read(src_dir)?;
    let mut edges = graph.edges();
    for (from, to) in allowed {
        let before = edges.len();
        edges.retain(|(a, b), _| !(graph.name(*a) == *from && graph.name(*b) == *to));
        if edges.len() == before {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "the allowed edge {from} -> {to} is not in the graph: remove the allowance"
                ),
            ));
        }
    }
    // A module and its own ancestor naming each other are one unit written in two files.
    let mutual: Vec<(usize, usize)> = edges
        .keys()
        .filter(|(a, b)| edges.contains_key(&(*b, *a)) && graph.is_ancestor_either_way(*a, *b))
        .copied()
        .collect();
    for pair in mutual {
        edges.remove(&pair);
    }
    let mut found = Vec::new();
    for component in strongly_connected(graph.modules.len(), edges.keys()) {
        if component.len() < 2 {
            continue;
        }
        let members: BTreeSet<usize> = component.iter().copied().collect();
        let mut modules: Vec<String> = members.iter().map(|&m| graph.name(m)).collect();
        modules.sort();
        let mut inside: Vec<Edge> = edges
            .iter()
            .filter(|((a, b), _)| members.contains(a) && members.contains(b))
            .map(|((a, b), via)| Edge {
                from: graph.name(*a),
                to: graph.name(*b),
                via: via.clone(),
            })
            .collect();
        inside.sort();
        found.push(Cycle {
            modules,
            edges: inside,
        });
    }
    found.sort_by(|a, b| a.modules.cmp(&b.modules));
    Ok(found)
}

/// The cycles among the modules of the crate whose `src` directory is `src_dir`.
pub fn cycles(src_dir: &Path) -> io::Result<Vec<Cycle>> {
    cycles_allowing(src_dir, &[])
}

/// Panics, naming every cycle and the paths that make it, when the crate at `src_dir` has
/// a module cycle (other than the `allowed` edges).
pub fn assert_no_cycles(src_dir: &Path, allowed: &[(&str, &str)]) {
    let found = match cycles_allowing(src_dir, allowed) {
        Ok(found) => found,
        Err(error) => panic!("reading the modules of {}: {error}", src_dir.display()),
    };
    if !found.is_empty() {
        let listing: Vec<String> = found.iter().map(Cycle::to_string).collect();
        panic!(
            "{} module cycle(s) in {}:\n{}",
            found.len(),
            src_dir.display(),
            listing.join("\n")
        );
    }
}

/// A path written somewhere, to resolve once every file is read.
#[derive(Debug)]
struct Reference {
    segments: Vec<String>,
    kind: ReferenceKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ReferenceKind {
    /// `use a::b;`: an edge if it names an item, an alias (no edge) if it names a module.
    Import,
    /// `use a::*;`: an edge to the module.
    Glob,
    /// A path in code.
    Code,
}

#[derive(Debug, Default)]
struct Module {
    path: Vec<String>,
    parent: Option<usize>,
    children: BTreeMap<String, usize>,
    /// The module whose file this one is written in (itself for a file module).
    file: usize,
    test_only: bool,
    /// Names a `use` brings in (pub or not), to the path it names.
    bindings: BTreeMap<String, Vec<String>>,
    globs: Vec<Vec<String>>,
    references: Vec<Reference>,
}

/// Where the files of a module's children are.
#[derive(Clone, Debug)]
struct Dirs {
    /// The directory `mod child;` looks in.
    children: PathBuf,
    /// The directory a `#[path]` is relative to.
    path_attribute: PathBuf,
}

#[derive(Clone, Copy, Debug)]
enum Target {
    Module(usize),
    /// An item of this module (or a name it does not declare that we cannot see into).
    Item(usize),
}

struct Graph {
    modules: Vec<Module>,
}

/// How deep a chain of `use`s and globs is followed: far deeper than any real crate, and a
/// stop for `use super::*` answered by the parent's `pub use child::*`.
const MAX_DEPTH: usize = 32;

impl Graph {
    fn read(src_dir: &Path) -> io::Result<Graph> {
        let root_file = ["lib.rs", "main.rs"]
            .iter()
            .map(|name| src_dir.join(name))
            .find(|file| file.is_file())
            .ok_or_else(|| {
                io::Error::new(
                    io::ErrorKind::NotFound,
                    format!("no lib.rs or main.rs in {}", src_dir.display()),
                )
            })?;
        let mut graph = Graph {
            modules: vec![Module::default()],
        };
        let dirs = Dirs {
            children: src_dir.to_path_buf(),
            path_attribute: src_dir.to_path_buf(),
        };
        graph.read_file(&root_file, 0, &dirs)?;
        Ok(graph)
    }

    fn name(&self, module: usize) -> String {
        let path = &self.modules[module].path;
        if path.is_empty() {
            "crate".to_string()
        } else {
            path.join("::")
        }
    }

    fn read_file(&mut self, file: &Path, module: usize, dirs: &Dirs) -> io::Result<()> {
        let text = std::fs::read_to_string(file)
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", file.display())))?;
        let tokens: TokenStream = text.parse().map_err(|e| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!("{}: cannot lex: {e:?}", file.display()),
            )
        })?;
        let tokens: Vec<TokenTree> = tokens.into_iter().collect();
        self.walk(&tokens, module, dirs)
    }

    fn add_child(&mut self, parent: usize, name: &str, test_only: bool) -> usize {
        let index = self.modules.len();
        let mut path = self.modules[parent].path.clone();
        path.push(name.to_string());
        self.modules.push(Module {
            path,
            parent: Some(parent),
            file: index,
            test_only: test_only || self.modules[parent].test_only,
            ..Module::default()
        });
        self.modules[parent]
            .children
            .insert(name.to_string(), index);
        index
    }

    /// Reads one stream of tokens written in `module`: its items, its `use`s and its paths.
    fn walk(&mut self, tokens: &[TokenTree], module: usize, dirs: &Dirs) -> io::Result<()> {
        let mut attributes = Attributes::default();
        let mut public = false;
        let mut i = 0;
        while i < tokens.len() {
            match &tokens[i] {
                TokenTree::Punct(p) if p.as_char() == '#' => {
                    // `#[...]`, or an inner `#![...]`.
                    let mut j = i + 1;
                    if matches!(tokens.get(j), Some(TokenTree::Punct(b)) if b.as_char() == '!') {
                        j += 1;
                    }
                    if let Some(TokenTree::Group(g)) = tokens.get(j) {
                        if g.delimiter() == Delimiter::Bracket {
                            attributes.read(g.stream());
                            i = j + 1;
                            continue;
                        }
                    }
                    attributes = Attributes::default();
                    public = false;
                    i += 1;
                }
                TokenTree::Ident(id) if id == "pub" => {
                    public = true;
                    i += 1;
                    if let Some(TokenTree::Group(g)) = tokens.get(i) {
                        if g.delimiter() == Delimiter::Parenthesis {
                            i += 1;
                        }
                    }
                }
                TokenTree::Ident(id) if id == "mod" => {
                    let Some(TokenTree::Ident(name)) = tokens.get(i + 1) else {
                        i += 1;
                        continue;
                    };
                    let name = name.to_string();
                    let child = self.add_child(module, &name, attributes.cfg_test);
                    match tokens.get(i + 2) {
                        Some(TokenTree::Group(body)) if body.delimiter() == Delimiter::Brace => {
                            // Inline: written in this file, its children one folder deeper.
                            self.modules[child].file = self.modules[module].file;
                            let inner = Dirs {
                                children: dirs.children.join(&name),
                                path_attribute: dirs.children.join(&name),
                            };
                            let body: Vec<TokenTree> = body.stream().into_iter().collect();
                            self.walk(&body, child, &inner)?;
                        }
                        _ => {
                            let (file, child_dirs) = match &attributes.path {
                                Some(relative) => {
                                    let file = dirs.path_attribute.join(relative);
                                    let dir = file.parent().map(Path::to_path_buf);
                                    let dir = dir.unwrap_or_else(|| dirs.children.clone());
                                    let children = if file.ends_with("mod.rs") {
                                        dir.clone()
                                    } else {
                                        dir.join(&name)
                                    };
                                    (
                                        file,
                                        Dirs {
                                            children,
                                            path_attribute: dir,
                                        },
                                    )
                                }
                                None => {
                                    let flat = dirs.children.join(format!("{name}.rs"));
                                    let nested = dirs.children.join(&name).join("mod.rs");
                                    let children = dirs.children.join(&name);
                                    if flat.is_file() {
                                        let dirs = Dirs {
                                            children,
                                            path_attribute: dirs.children.clone(),
                                        };
                                        (flat, dirs)
                                    } else {
                                        let dirs = Dirs {
                                            children: children.clone(),
                                            path_attribute: children,
                                        };
                                        (nested, dirs)
                                    }
                                }
                            };
                            self.read_file(&file, child, &child_dirs)?;
                        }
                    }
                    attributes = Attributes::default();
                    public = false;
                    i += 3;
                }
                TokenTree::Ident(id) if id == "use" => {
                    let end = tokens[i + 1..]
                        .iter()
                        .position(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ';'))
                        .map_or(tokens.len(), |offset| i + 1 + offset);
                    let mut leaves = Vec::new();
                    parse_use_tree(&tokens[i + 1..end], &[], &mut leaves);
                    let counted = !attributes.cfg_test;
                    for leaf in leaves {
                        self.add_use(module, leaf, public, counted);
                    }
                    attributes = Attributes::default();
                    public = false;
                    i = end + 1;
                }
                TokenTree::Group(g) => {
                    let inner: Vec<TokenTree> = g.stream().into_iter().collect();
                    self.walk(&inner, module, dirs)?;
                    attributes = Attributes::default();
                    public = false;
                    i += 1;
                }
                _ => {
                    let (segments, next) = read_path(tokens, i);
                    if segments.len() >= 2 {
                        self.modules[module].references.push(Reference {
                            segments,
                            kind: ReferenceKind::Code,
                        });
                    }
                    attributes = Attributes::default();
                    public = false;
                    i = next.max(i + 1);
                }
            }
        }
        Ok(())
    }

    fn add_use(&mut self, module: usize, leaf: UseLeaf, public: bool, counted: bool) {
        let m = &mut self.modules[module];
        match leaf {
            UseLeaf::Name { path, alias } => {
                if alias != "_" {
                    m.bindings.insert(alias, path.clone());
                }
                if !public && counted {
                    m.references.push(Reference {
                        segments: path,
                        kind: ReferenceKind::Import,
                    });
                }
            }
            UseLeaf::Glob { path } => {
                m.globs.push(path.clone());
                if !public && counted {
                    m.references.push(Reference {
                        segments: path,
                        kind: ReferenceKind::Glob,
                    });
                }
            }
        }
    }

    /// A name as seen from inside `module`: a child, a name a `use` brings in, or a name one
    /// of its globs brings in.
    fn lookup(&self, module: usize, name: &str, depth: usize) -> Option<Target> {
        if depth > MAX_DEPTH {
            return None;
        }
        let m = &self.modules[module];
        if let Some(&child) = m.children.get(name) {
            return Some(Target::Module(child));
        }
        if let Some(path) = m.bindings.get(name) {
            return self.resolve(module, path, depth + 1);
        }
        for glob in &m.globs {
            if let Some(Target::Module(source)) = self.resolve(module, glob, depth + 1) {
                if source != module {
                    if let Some(found) = self.lookup(source, name, depth + 1) {
                        return Some(found);
                    }
                }
            }
        }
        None
    }

    /// What a path written in `module` names, or `None` when it leads out of the crate.
    fn resolve(&self, module: usize, segments: &[String], depth: usize) -> Option<Target> {
        if depth > MAX_DEPTH {
            return None;
        }
        let (first, rest) = segments.split_first()?;
        let mut current = match first.as_str() {
            "crate" | "$crate" => Target::Module(0),
            "self" => Target::Module(module),
            "super" => Target::Module(self.modules[module].parent?),
            "::" => return None,
            name => self.lookup(module, name, depth + 1)?,
        };
        for segment in rest {
            let Target::Module(m) = current else { break };
            current = match segment.as_str() {
                "super" => Target::Module(self.modules[m].parent?),
                "self" => Target::Module(m),
                name => match self.lookup(m, name, depth + 1) {
                    Some(found) => found,
                    None => Target::Item(m),
                },
            };
        }
        Some(current)
    }

    /// Whether one of the two modules is an ancestor of the other.
    fn is_ancestor_either_way(&self, a: usize, b: usize) -> bool {
        self.is_ancestor(a, b) || self.is_ancestor(b, a)
    }

    fn is_ancestor(&self, ancestor: usize, module: usize) -> bool {
        let mut current = self.modules[module].parent;
        while let Some(parent) = current {
            if parent == ancestor {
                return true;
            }
            current = self.modules[parent].parent;
        }
        false
    }

    /// Every edge between files, each with the first path found that made it.
    fn edges(&self) -> BTreeMap<(usize, usize), String> {
        let mut edges = BTreeMap::new();
        for (index, module) in self.modules.iter().enumerate() {
            if module.test_only {
                continue;
            }
            for reference in &module.references {
                let target = match (self.resolve(index, &reference.segments, 0), reference.kind) {
                    (None, _) => continue,
                    (Some(Target::Module(_)), ReferenceKind::Import) => continue,
                    (Some(Target::Module(m)), _) | (Some(Target::Item(m)), _) => m,
                };
                let from = module.file;
                let to = self.modules[target].file;
                if from != to {
                    edges
                        .entry((from, to))
                        .or_insert_with(|| reference.segments.join("::"));
                }
            }
        }
        edges
    }
}

#[derive(Debug, Default)]
struct Attributes {
    cfg_test: bool,
    path: Option<String>,
}

impl Attributes {
    /// Notes `#[cfg(test)]` (not `cfg(not(test))`) and `#[path = "..."]`.
    fn read(&mut self, attribute: TokenStream) {
        let tokens: Vec<TokenTree> = attribute.into_iter().collect();
        match tokens.first() {
            Some(TokenTree::Ident(id)) if id == "cfg" => {
                if let Some(TokenTree::Group(g)) = tokens.get(1) {
                    let words: Vec<String> =
                        g.stream().into_iter().map(|t| t.to_string()).collect();
                    if words == ["test"] {
                        self.cfg_test = true;
                    }
                }
            }
            Some(TokenTree::Ident(id)) if id == "path" => {
                if let Some(TokenTree::Literal(literal)) = tokens.get(2) {
                    let text = literal.to_string();
                    self.path = Some(text.trim_matches('"').to_string());
                }
            }
            _ => {}
        }
    }
}

#[derive(Debug, PartialEq, Eq)]
enum UseLeaf {
    Name { path: Vec<String>, alias: String },
    Glob { path: Vec<String> },
}

fn is_path_separator(tokens: &[TokenTree], i: usize) -> bool {
    matches!(
        (tokens.get(i), tokens.get(i + 1)),
        (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b)))
            if a.as_char() == ':' && a.spacing() == Spacing::Joint && b.as_char() == ':'
    )
}

/// A path segment at `i` (an identifier, or `$crate`) and the index after it.
fn segment_at(tokens: &[TokenTree], i: usize) -> Option<(String, usize)> {
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
fn read_path(tokens: &[TokenTree], i: usize) -> (Vec<String>, usize) {
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
fn parse_use_tree(tokens: &[TokenTree], prefix: &[String], leaves: &mut Vec<UseLeaf>) {
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

/// Tarjan's strongly connected components of the graph with `nodes` nodes and these edges.
fn strongly_connected<'e>(
    nodes: usize,
    edges: impl Iterator<Item = &'e (usize, usize)>,
) -> Vec<Vec<usize>> {
    let mut successors = vec![Vec::new(); nodes];
    for &(from, to) in edges {
        successors[from].push(to);
    }
    struct Tarjan<'a> {
        successors: &'a [Vec<usize>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on_stack: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        components: Vec<Vec<usize>>,
    }
    impl Tarjan<'_> {
        fn visit(&mut self, v: usize) {
            self.index[v] = Some(self.next);
            self.low[v] = self.next;
            self.next += 1;
            self.stack.push(v);
            self.on_stack[v] = true;
            for &w in &self.successors[v] {
                match self.index[w] {
                    None => {
                        self.visit(w);
                        self.low[v] = self.low[v].min(self.low[w]);
                    }
                    Some(w_index) if self.on_stack[w] => {
                        self.low[v] = self.low[v].min(w_index);
                    }
                    Some(_) => {}
                }
            }
            if Some(self.low[v]) == self.index[v] {
                let mut component = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on_stack[w] = false;
                    component.push(w);
                    if w == v {
                        break;
                    }
                }
                self.components.push(component);
            }
        }
    }
    let mut tarjan = Tarjan {
        successors: &successors,
        index: vec![None; nodes],
        low: vec![0; nodes],
        on_stack: vec![false; nodes],
        stack: Vec::new(),
        next: 0,
        components: Vec::new(),
    };
    for v in 0..nodes {
        if tarjan.index[v].is_none() {
            tarjan.visit(v);
        }
    }
    tarjan.components
}

#[cfg(test)]
#[path = "modules_tests.rs"]
mod tests;
