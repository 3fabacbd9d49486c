//! Checks over the whole workspace's sources, one test binary: no module cycle in any
//! crate (`module_cycles`), and the code citing the rules and the protocol in this
//! repository, at headings that exist (`citations`).

mod citations;
mod doc_names;
mod files;
mod module_cycles;
