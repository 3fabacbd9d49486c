//! The module graph on small crates written for each test.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use proc_macro2::{TokenStream, TokenTree};

use super::tokens::{parse_use_tree, UseLeaf};
use super::*;

/// A crate's `src` written to a directory of its own, removed when dropped.
struct Tree {
    dir: PathBuf,
}

impl Tree {
    fn new(files: &[(&str, &str)]) -> Tree {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "omweso-modules-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        for (path, text) in files {
            let file = dir.join(path);
            std::fs::create_dir_all(file.parent().expect("a file in a folder"))
                .expect("create the folder");
            std::fs::write(&file, text).expect("write the file");
        }
        Tree { dir }
    }

    fn path(&self) -> &Path {
        &self.dir
    }

    fn cycles(&self) -> Vec<Vec<String>> {
        cycles(&self.dir)
            .expect("a readable crate")
            .into_iter()
            .map(|cycle| cycle.modules)
            .collect()
    }

    fn edges(&self) -> Vec<(String, String)> {
        let graph = Graph::read(&self.dir).expect("a readable crate");
        let mut edges: Vec<(String, String)> = graph
            .edges()
            .keys()
            .map(|&(a, b)| (graph.name(a), graph.name(b)))
            .collect();
        edges.sort();
        edges
    }
}

impl Drop for Tree {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn pair(a: &str, b: &str) -> (String, String) {
    (a.to_string(), b.to_string())
}

#[test]
fn two_files_naming_each_other_are_a_cycle() {
    let tree = Tree::new(&[
        ("lib.rs", "mod a;\nmod b;\nmod c;\n"),
        ("a.rs", "use crate::b::B;\npub struct A(B);\n"),
        (
            "b.rs",
            "pub struct B;\npub fn f() -> crate::a::A { todo!() }\n",
        ),
        ("c.rs", "use crate::a::A;\n"),
    ]);
    let found = cycles(tree.path()).expect("a readable crate");
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].modules, vec!["a", "b"]);
    assert_eq!(
        found[0].edges,
        vec![
            Edge {
                from: "a".into(),
                to: "b".into(),
                via: "crate::b::B".into()
            },
            Edge {
                from: "b".into(),
                to: "a".into(),
                via: "crate::a::A".into()
            },
        ]
    );
}

#[test]
fn a_longer_cycle_is_one_component() {
    let tree = Tree::new(&[
        ("lib.rs", "mod a;\nmod b;\nmod c;\nmod d;\n"),
        ("a.rs", "pub fn a() { crate::b::b() }\n"),
        ("b.rs", "pub fn b() { super::c::c() }\n"),
        ("c.rs", "pub fn c() { crate::a::a() }\n"),
        ("d.rs", "pub fn d() { crate::a::a() }\n"),
    ]);
    assert_eq!(tree.cycles(), vec![vec!["a", "b", "c"]]);
}

#[test]
fn a_facade_parent_and_its_children_pass() {
    // The parent declares and re-exports; the children name each other through it, and
    // another module names them through it: no cycle.
    let tree = Tree::new(&[
        (
            "lib.rs",
            "pub mod shapes;\nmod draw;\npub use shapes::Circle;\n",
        ),
        (
            "shapes/mod.rs",
            "mod circle;\nmod square;\npub use circle::Circle;\npub use square::Square;\n",
        ),
        (
            "shapes/circle.rs",
            "use super::Square;\npub struct Circle(Square);\n",
        ),
        ("shapes/square.rs", "pub struct Square;\n"),
        (
            "draw.rs",
            "use crate::shapes::{Circle, Square};\nfn f(_: crate::Circle) {}\n",
        ),
    ]);
    assert_eq!(tree.cycles(), Vec::<Vec<String>>::new());
    // Re-exports are doors: every edge lands on the module that defines the item.
    assert_eq!(
        tree.edges(),
        vec![
            pair("draw", "shapes::circle"),
            pair("draw", "shapes::square"),
            pair("shapes::circle", "shapes::square"),
        ]
    );
}

#[test]
fn a_parent_and_a_child_naming_each_other_are_a_cycle() {
    // The model in the parent, its methods in a child that names it, and the parent
    // calling the child: a circle like any other (the model belongs in a file of its own
    // that both name), so no parent-child pair is let through.
    let tree = Tree::new(&[
        ("lib.rs", "mod model;\n"),
        (
            "model/mod.rs",
            "mod step;\npub struct Model;\nfn run(m: &mut Model) { step::step(m) }\n",
        ),
        (
            "model/step.rs",
            "use super::Model;\npub fn step(_: &mut Model) {}\n",
        ),
    ]);
    assert_eq!(
        tree.edges(),
        vec![pair("model", "model::step"), pair("model::step", "model")]
    );
    assert_eq!(
        tree.cycles(),
        vec![vec!["model".to_owned(), "model::step".to_owned()]]
    );
}

#[test]
fn a_cycle_out_of_a_folder_and_back_through_its_parent_is_found() {
    // `service` holds `analysis::engine::Analysis`, which names its parent's `Refused`; the
    // handlers in `analysis/mod.rs` take `service::State`: a cycle of three files.
    let tree = Tree::new(&[
        ("lib.rs", "mod analysis;\nmod service;\n"),
        (
            "analysis/mod.rs",
            "mod engine;\npub use engine::Analysis;\npub struct Refused;\nfn handler(_: crate::service::State) {}\n",
        ),
        (
            "analysis/engine.rs",
            "pub struct Analysis;\nfn f() -> super::Refused { super::Refused }\n",
        ),
        ("service.rs", "pub struct State(crate::analysis::Analysis);\n"),
    ]);
    let found = cycles(tree.path()).expect("a readable crate");
    assert_eq!(found.len(), 1);
    assert_eq!(
        found[0].modules,
        vec!["analysis", "analysis::engine", "service"]
    );
    assert_eq!(
        found[0].edges,
        vec![
            Edge {
                from: "analysis".into(),
                to: "service".into(),
                via: "crate::service::State".into()
            },
            Edge {
                from: "analysis::engine".into(),
                to: "analysis".into(),
                via: "super::Refused".into()
            },
            Edge {
                from: "service".into(),
                to: "analysis::engine".into(),
                via: "crate::analysis::Analysis".into()
            },
        ]
    );
}

#[test]
fn siblings_inside_a_folder_are_checked_like_the_top_level() {
    let tree = Tree::new(&[
        ("lib.rs", "mod pairing;\n"),
        ("pairing/mod.rs", "mod bye;\nmod diagnose;\n"),
        (
            "pairing/bye.rs",
            "pub fn cover() { super::diagnose::explain() }\n",
        ),
        (
            "pairing/diagnose.rs",
            "pub fn explain() { super::bye::cover() }\n",
        ),
    ]);
    assert_eq!(
        tree.cycles(),
        vec![vec!["pairing::bye", "pairing::diagnose"]]
    );
}

#[test]
fn grouped_and_nested_uses_are_read() {
    let mut leaves = Vec::new();
    let tokens: Vec<TokenTree> = "crate::{a, b::{self, c::C as D}, e::*, ::f::G}"
        .parse::<TokenStream>()
        .expect("tokens")
        .into_iter()
        .collect();
    parse_use_tree(&tokens, &[], &mut leaves);
    let path = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
    assert_eq!(
        leaves,
        vec![
            UseLeaf::Name {
                path: path("crate a"),
                alias: "a".into()
            },
            UseLeaf::Name {
                path: path("crate b"),
                alias: "b".into()
            },
            UseLeaf::Name {
                path: path("crate b c C"),
                alias: "D".into()
            },
            UseLeaf::Glob {
                path: path("crate e")
            },
            UseLeaf::Name {
                path: path("crate :: f G"),
                alias: "G".into()
            },
        ]
    );

    // And in a crate: each leaf lands where it names, a module brought in by a `use` is an
    // alias for the paths that start with it.
    let tree = Tree::new(&[
        ("lib.rs", "mod a;\nmod b;\nmod c;\nmod d;\n"),
        (
            "a.rs",
            "use crate::{b::{self, inner::{Deep}}, c::*};\nfn f() { b::g(); }\n",
        ),
        ("b.rs", "pub mod inner;\npub fn g() {}\n"),
        ("b/inner.rs", "pub struct Deep;\n"),
        ("c.rs", "pub fn h() {}\n"),
        ("d.rs", "use crate::b;\nfn f() { b::inner::Deep; }\n"),
    ]);
    assert_eq!(
        tree.edges(),
        vec![
            pair("a", "b"),
            pair("a", "b::inner"),
            pair("a", "c"),
            pair("d", "b::inner"),
        ]
    );
}

#[test]
fn comments_strings_tests_and_re_exports_are_no_edges() {
    let tree = Tree::new(&[
        ("lib.rs", "mod a;\nmod b;\n"),
        (
            "a.rs",
            concat!(
                "// crate::b::B in a comment\n",
                "/// [`crate::b::B`] in a doc comment\n",
                "pub const S: &str = \"crate::b::B in a string\";\n",
                "pub use crate::b::B;\n",
                "#[cfg(test)]\nuse crate::b::Other;\n",
                "#[cfg(test)]\nmod tests { fn t() { crate::b::f(); } }\n",
                "#[cfg(test)]\n#[path = \"a_tests.rs\"]\nmod file_tests;\n",
            ),
        ),
        ("a_tests.rs", "use crate::b::f;\n"),
        (
            "b.rs",
            "pub struct B;\npub fn f() { let _ = crate::a::S; }\n",
        ),
    ]);
    assert_eq!(tree.edges(), vec![pair("b", "a")]);
    assert_eq!(tree.cycles(), Vec::<Vec<String>>::new());
}

#[test]
fn paths_in_macros_type_positions_and_inline_modules_count() {
    let tree = Tree::new(&[
        ("lib.rs", "mod a;\nmod b;\nmod c;\n"),
        (
            "a.rs",
            concat!(
                "macro_rules! m { () => { $crate::b::f() } }\n",
                "fn g(x: super::c::C) { println!(\"{}\", crate::c::NAME); }\n",
                "mod inner { fn h() { super::super::b::f(); } }\n",
            ),
        ),
        ("b.rs", "pub fn f() {}\n"),
        ("c.rs", "pub struct C;\npub const NAME: &str = \"c\";\n"),
    ]);
    assert_eq!(tree.edges(), vec![pair("a", "b"), pair("a", "c")]);
}

#[test]
fn an_allowed_edge_breaks_a_cycle_and_a_stale_allowance_is_an_error() {
    let tree = Tree::new(&[
        ("lib.rs", "mod a;\nmod b;\n"),
        ("a.rs", "use crate::b::B;\npub struct A;\n"),
        ("b.rs", "use crate::a::A;\npub struct B;\n"),
    ]);
    assert_eq!(tree.cycles(), vec![vec!["a", "b"]]);
    let allowed = cycles_allowing(tree.path(), &[("b", "a")]).expect("a readable crate");
    assert_eq!(allowed, Vec::new());
    let stale = cycles_allowing(tree.path(), &[("a", "crate")]);
    assert!(stale.is_err(), "{stale:?}");
}

#[test]
fn a_missing_module_file_is_an_error() {
    let tree = Tree::new(&[("lib.rs", "mod gone;\n")]);
    let error = cycles(tree.path()).expect_err("no file for `gone`");
    assert_eq!(error.kind(), io::ErrorKind::NotFound);
}
