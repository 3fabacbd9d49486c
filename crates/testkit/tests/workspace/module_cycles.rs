//! No crate of the workspace has a module cycle (issue 26): the test reads each crate's
//! modules and fails naming every cycle and the paths that make it. The rule for what
//! counts as an edge (re-exports, parents and children, tests) is at the top of
//! `crates/testkit/src/modules.rs`. Between crates, Cargo refuses a cycle itself.

use std::path::PathBuf;

use omweso_testkit::modules::assert_no_cycles;

/// Every crate of the workspace: each folder of `crates/` with a `src/`, so that a crate
/// added later is checked without anyone listing it here.
fn every_crate() -> Vec<PathBuf> {
    let crates = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut sources: Vec<PathBuf> = std::fs::read_dir(&crates)
        .expect("crates/ is readable")
        .filter_map(Result::ok)
        .map(|entry| entry.path().join("src"))
        .filter(|src| src.is_dir())
        .collect();
    sources.sort();
    sources
}

#[test]
fn no_crate_has_a_module_cycle() {
    let sources = every_crate();
    // The thirteen crates of the workspace: fewer means the walk missed some (a crate
    // added raises it).
    assert_eq!(sources.len(), 13, "{sources:?}");
    for src in sources {
        assert_no_cycles(&src, &[]);
    }
}
