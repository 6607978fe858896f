//! No crate of the project has an import cycle among its top-level modules
//! (issues 17 and 42): for every crate under `crates/` and the desktop app,
//! the module tree is read with a Rust parser ([`module_graph`]) and a
//! strongly connected component of more than one module fails the test,
//! which names a cycle and the code that makes each edge. And one HTTP
//! transport serves the embedders and the chat models: no product source
//! but `almirah-embed`'s `transport.rs` builds an HTTP client.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod module_graph;

use std::path::{Path, PathBuf};

use module_graph::{Graph, crate_graph, cycles, describe};

/// Every `.rs` file under `dir`.
fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(sources(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out
}

/// The root file of every crate of the workspace: each package's library
/// and binary, and the desktop app's.
fn crate_roots() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut packages: Vec<PathBuf> =
        std::fs::read_dir(root.join("crates")).unwrap().map(|e| e.unwrap().path().join("src")).collect();
    packages.push(root.join("src-tauri/src"));
    packages.sort();
    let roots: Vec<PathBuf> =
        packages.iter().flat_map(|src| [src.join("lib.rs"), src.join("main.rs")]).filter(|f| f.is_file()).collect();
    assert!(packages.iter().all(|src| roots.iter().any(|r| r.starts_with(src))), "a package without a root");
    roots
}

fn name(root: &Path) -> String {
    let src = root.parent().unwrap();
    let package = src.parent().unwrap().file_name().unwrap().to_string_lossy();
    format!("{package} ({})", root.file_name().unwrap().to_string_lossy())
}

#[test]
fn no_crate_has_a_module_import_cycle() {
    let roots = crate_roots();
    assert!(roots.len() >= 10, "crates found: {roots:?}");
    let mut found = Vec::new();
    for root in &roots {
        let g = crate_graph(root).unwrap_or_else(|e| panic!("{}: {e}", name(root)));
        for component in cycles(&g) {
            found.push(format!("{}: {}", name(root), describe(&g, &component)));
        }
    }
    assert!(found.is_empty(), "module import cycles:\n{}", found.join("\n"));
}

#[test]
fn the_reader_sees_the_real_imports() {
    let core = Path::new(env!("CARGO_MANIFEST_DIR")).join("../core/src/lib.rs");
    let g = crate_graph(&core).unwrap();
    for module in ["update", "search", "read", "store", "freshness", "engine", "ids"] {
        assert!(g.contains_key(module), "module {module} not found in {:?}", g.keys());
    }
    assert!(g["update"].contains_key("store"), "update writes to the store: {:?}", g["update"]);
    let answer = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs");
    let g = crate_graph(&answer).unwrap();
    assert!(g["agent"].contains_key("builtin"), "{:?}", g["agent"]);
}

/// A crate in a temporary folder: `(path, text)` files under `src/`.
fn synthetic(files: &[(&str, &str)]) -> (tempfile::TempDir, Graph) {
    let dir = tempfile::tempdir().unwrap();
    for (path, text) in files {
        let file = dir.path().join("src").join(path);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, text).unwrap();
    }
    let g = crate_graph(&dir.path().join("src/lib.rs")).unwrap();
    (dir, g)
}

#[test]
fn a_two_module_cycle_fails() {
    let (_dir, g) = synthetic(&[
        ("lib.rs", "mod a;\nmod b;\n"),
        ("a.rs", "use crate::b::Thing;\npub struct Other;\n"),
        ("b.rs", "pub struct Thing;\nfn f(_: super::a::Other) {}\n"),
    ]);
    let found = cycles(&g);
    assert_eq!(found.len(), 1, "{g:?}");
    let text = describe(&g, &found[0]);
    assert!(text.starts_with("{a, b}: a → b (a.rs: crate::b::Thing) → a (b.rs: super::a::Other)"), "{text}");
}

#[test]
fn comments_strings_and_test_code_make_no_edge_but_nested_paths_and_macros_do() {
    let (_dir, g) = synthetic(&[
        ("lib.rs", "pub mod a;\nmod b;\nmod c;\nmod d;\npub use d::Shared;\n"),
        (
            "a.rs",
            "// crate::b::X\n/// [`crate::b`]\nconst S: &str = \"crate::b::X\";\n#[cfg(test)]\nmod tests { use crate::b::X; }\n",
        ),
        ("b.rs", "pub mod deep;\n"),
        ("b/deep.rs", "pub(crate) fn f() { let _ = super::super::c::G; }\n"),
        ("c.rs", "pub const G: u8 = 1;\nfn g() { assert_eq!(G, crate::Shared::N); }\n"),
        ("d.rs", "pub struct Shared;\nmod inner { use crate::{a, c::G}; }\n"),
    ]);
    assert!(g["a"].is_empty(), "{:?}", g["a"]);
    assert_eq!(g["b"].keys().collect::<Vec<_>>(), ["c"]);
    assert_eq!(g["c"].keys().collect::<Vec<_>>(), ["d"], "the macro names the re-export of d");
    assert_eq!(g["d"].keys().collect::<Vec<_>>(), ["a", "c"]);
    assert_eq!(g.len(), 4, "the crate root is no node: {g:?}");
    let (_dir, g) = synthetic(&[("lib.rs", "mod a;\nfn f() { a::g() }\n"), ("a.rs", "pub fn g() { crate::f() }\n")]);
    assert!(g["a"].is_empty() && cycles(&g).is_empty(), "{g:?}");
}

#[test]
fn one_http_client_serves_embedders_and_chat_models() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut builders = Vec::new();
    for dir in ["crates", "src-tauri/src"] {
        for file in sources(&root.join(dir)) {
            let path = file.to_string_lossy().replace('\\', "/");
            if path.contains("/tests/") || path.contains("/target/") || path.ends_with("test_server.rs") {
                continue;
            }
            let text = std::fs::read_to_string(&file).unwrap();
            if ["Client::builder(", "Client::new(", "reqwest::blocking::get("].iter().any(|p| text.contains(p)) {
                builders.push(path);
            }
        }
    }
    assert_eq!(builders.len(), 1, "HTTP clients are built in: {builders:?}");
    assert!(builders[0].ends_with("crates/embed/src/transport.rs"), "{builders:?}");
}
