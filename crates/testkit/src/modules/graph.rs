//! The module graph of one crate: its modules read from its files (following `mod`
//! declarations), the paths each writes, and those paths resolved to the modules that
//! define what they name (the rule is at the top of `modules.rs`).

use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};

use proc_macro2::{Delimiter, TokenStream, TokenTree};

use super::tokens::{parse_use_tree, read_path, UseLeaf};

/// A path written somewhere, to resolve once every file is read.
#[derive(Debug)]
pub(super) struct Reference {
    segments: Vec<String>,
    kind: ReferenceKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ReferenceKind {
    /// `use a::b;`: an edge if it names an item, an alias (no edge) if it names a module.
    Import,
    /// `use a::*;`: an edge to the module.
    Glob,
    /// A path in code.
    Code,
}

#[derive(Debug, Default)]
pub(super) struct Module {
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
pub(super) struct Dirs {
    /// The directory `mod child;` looks in.
    children: PathBuf,
    /// The directory a `#[path]` is relative to.
    path_attribute: PathBuf,
}

#[derive(Clone, Copy, Debug)]
pub(super) enum Target {
    Module(usize),
    /// An item of this module (or a name it does not declare that we cannot see into).
    Item(usize),
}

pub(super) struct Graph {
    pub(super) modules: Vec<Module>,
}

/// How deep a chain of `use`s and globs is followed: far deeper than any real crate, and a
/// stop for `use super::*` answered by the parent's `pub use child::*`.
pub(super) const MAX_DEPTH: usize = 32;

impl Graph {
    pub(super) fn read(src_dir: &Path) -> io::Result<Graph> {
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

    pub(super) fn name(&self, module: usize) -> String {
        let path = &self.modules[module].path;
        if path.is_empty() {
            "crate".to_string()
        } else {
            path.join("::")
        }
    }

    pub(super) fn read_file(&mut self, file: &Path, module: usize, dirs: &Dirs) -> io::Result<()> {
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

    pub(super) fn add_child(&mut self, parent: usize, name: &str, test_only: bool) -> usize {
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
    pub(super) fn walk(
        &mut self,
        tokens: &[TokenTree],
        module: usize,
        dirs: &Dirs,
    ) -> io::Result<()> {
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

    pub(super) fn add_use(&mut self, module: usize, leaf: UseLeaf, public: bool, counted: bool) {
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
    pub(super) fn lookup(&self, module: usize, name: &str, depth: usize) -> Option<Target> {
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
    pub(super) fn resolve(
        &self,
        module: usize,
        segments: &[String],
        depth: usize,
    ) -> Option<Target> {
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

    /// Every edge between files, each with the first path found that made it.
    pub(super) fn edges(&self) -> BTreeMap<(usize, usize), String> {
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
pub(super) struct Attributes {
    cfg_test: bool,
    path: Option<String>,
}

impl Attributes {
    /// Notes `#[cfg(test)]` (not `cfg(not(test))`) and `#[path = "..."]`.
    pub(super) fn read(&mut self, attribute: TokenStream) {
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
