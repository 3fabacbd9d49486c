//! No crate of the workspace has a module cycle (issue 26): each test reads one crate's
//! modules and fails naming every cycle and the paths that make it. The rule for what
//! counts as an edge (re-exports, parents and children, tests) is at the top of
//! `crates/testkit/src/modules.rs`.

use std::path::PathBuf;

use omweso_testkit::modules::assert_no_cycles;

fn src(krate: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(krate)
        .join("src")
}

#[test]
fn the_server_has_no_module_cycle() {
    assert_no_cycles(&src("server"), &[]);
}

#[test]
fn the_protocol_has_no_module_cycle() {
    assert_no_cycles(&src("protocol"), &[]);
}

#[test]
fn the_tools_have_no_module_cycle() {
    assert_no_cycles(&src("tools"), &[]);
}

#[test]
fn the_rules_have_no_module_cycle() {
    assert_no_cycles(&src("rules"), &[]);
}

#[test]
fn the_search_has_no_module_cycle() {
    assert_no_cycles(&src("search"), &[]);
}

#[test]
fn the_binary_and_the_testkit_have_no_module_cycle() {
    assert_no_cycles(&src("omweso"), &[]);
    assert_no_cycles(&src("testkit"), &[]);
}
