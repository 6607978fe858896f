//! The answer crate's top-level modules import each other in one direction
//! only (issue 17): a `use crate::…` or `crate::…::` path that closes a
//! cycle (for example `builtin` calling into `agent` while `agent` uses
//! `builtin`) fails this test, which names the cycle. And one HTTP
//! transport serves the embedders and the chat models: no product source
//! but `almirah-embed`'s `transport.rs` builds an HTTP client.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type Graph = BTreeMap<String, BTreeSet<String>>;

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

/// The top-level modules a source text names through `crate::` paths,
/// grouped ones (`crate::{a::X, b}`) included.
fn referenced(text: &str) -> BTreeSet<String> {
    let ident = |s: &str| s.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect::<String>();
    let mut out = BTreeSet::new();
    for (at, _) in text.match_indices("crate::") {
        let rest = &text[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let body = &group[..group.find('}').unwrap_or(group.len())];
            out.extend(body.split(',').map(|p| ident(p.trim())).filter(|m| !m.is_empty()));
        } else {
            out.insert(ident(rest));
        }
    }
    out
}

/// Module → modules it uses, for the crate at `src`.
fn graph(src: &Path) -> Graph {
    let mut g = Graph::new();
    for file in sources(src) {
        let rel = file.strip_prefix(src).unwrap();
        let first = rel.components().next().unwrap().as_os_str().to_string_lossy().to_string();
        let module = first.trim_end_matches(".rs").to_string();
        if module == "lib" {
            continue;
        }
        let uses = referenced(&std::fs::read_to_string(&file).unwrap());
        g.entry(module.clone()).or_default().extend(uses.into_iter().filter(|m| *m != module));
    }
    g
}

/// A cycle of `g` as a path (`a → b → a`), if there is one.
fn find_cycle(g: &Graph) -> Option<Vec<String>> {
    fn visit(g: &Graph, node: &str, path: &mut Vec<String>, done: &mut BTreeSet<String>) -> Option<Vec<String>> {
        if let Some(i) = path.iter().position(|n| n == node) {
            let mut cycle = path[i..].to_vec();
            cycle.push(node.to_string());
            return Some(cycle);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_string());
        for next in g.get(node).into_iter().flatten() {
            if let Some(c) = visit(g, next, path, done) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    g.keys().find_map(|n| visit(g, n, &mut Vec::new(), &mut done))
}

#[test]
fn the_answer_modules_have_no_import_cycle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let g = graph(&src);
    for core in ["agent", "builtin", "classic", "providers", "verify", "model"] {
        assert!(g.contains_key(core), "module {core} not found in {g:?}");
    }
    assert!(g["agent"].contains("builtin"), "the scan sees imports: {:?}", g["agent"]);
    if let Some(cycle) = find_cycle(&g) {
        panic!("module import cycle: {}", cycle.join(" → "));
    }
}

#[test]
fn the_scan_finds_cycles_and_grouped_imports() {
    let uses = referenced("use crate::{agent::planner, model::Draft};\nlet x = crate::builtin::STOP;");
    assert_eq!(uses.into_iter().collect::<Vec<_>>(), ["agent", "builtin", "model"]);
    let mut g = Graph::new();
    g.entry("builtin".into()).or_default().insert("agent".into());
    g.entry("agent".into()).or_default().insert("classic".into());
    g.entry("classic".into()).or_default().insert("builtin".into());
    let cycle = find_cycle(&g).expect("a cycle");
    assert_eq!(cycle.first(), cycle.last());
    assert_eq!(cycle.len(), 4, "{cycle:?}");
    g.get_mut("classic").unwrap().clear();
    assert_eq!(find_cycle(&g), None);
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
