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
//! - No exception for a module and its own ancestor naming each other: a type whose data
//!   is in the parent and whose methods are split over child files by job (`game::table`
//!   and `turn`, `referee`, `relay`) keeps the parts of its data in leaf modules of their
//!   own (`clock`, `pending`, `tally`), which the jobs and the parent both name, and the
//!   parent names no job. (An earlier rule dropped such pairs, and with them two real
//!   circles that ran through a parent: `room` and `cluster::route`, `game::table`'s jobs.)
//! - Whatever is under `#[cfg(test)]` (a `mod tests` inline or in a file, a `use`) is left
//!   out: a test may reach anywhere it needs to, and the layering is about the code that
//!   ships. (A `#[cfg(test)]` on a function or an `impl` is not seen: only `mod` and `use`.)
//!
//! A cycle is a strongly connected component of more than one file (Tarjan's algorithm);
//! [`Cycle`] names its modules and the edges inside it, each with one path that made it.
//! Method calls are invisible to a check over paths (`value.method()` names no module);
//! that is a limit of the check, not a rule.

mod graph;
mod tokens;

use std::collections::BTreeSet;
use std::fmt;
use std::io;
use std::path::Path;

use graph::Graph;

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
mod tests;
