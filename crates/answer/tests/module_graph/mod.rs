//! The graph of a crate's top-level modules, read with a Rust parser (syn),
//! not by matching text: comments and strings never count, `super::super::`
//! and grouped imports resolve like the compiler resolves them.
//!
//! From the crate root (`lib.rs` or `main.rs`) the reader follows every
//! `mod` declaration to its file (`name.rs`, `name/mod.rs`, or a `#[path]`),
//! and inline modules in place. In every module it resolves the `use` trees,
//! the paths of code and types, and the `crate::` / `super::` / `self::`
//! paths inside macro calls, to the top-level module they land in. An edge
//! `a → b` means code under module `a` names something under module `b`.
//! A re-export at the crate root (`pub use engine::Engine`) is followed to
//! the module it re-exports.
//!
//! The crate root itself is no node: `lib.rs` or `main.rs` is the crate's
//! face, declaring the modules, re-exporting them and holding the few
//! types all of them share (`Options`, `Cli`, `ChunkDraft`); edges to and
//! from it would make every such crate one cycle and say nothing about how
//! its modules are layered.
//!
//! Test-only code (`#[cfg(test)]` items) is left out: a test may reach
//! across modules without making the product's modules depend on each other.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, dead_code)]

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::{Path, PathBuf};

use proc_macro2::{TokenStream, TokenTree};
use syn::visit::Visit;

/// Module → module it uses → one place that makes the edge (file and path).
pub type Graph = BTreeMap<String, BTreeMap<String, String>>;

/// What the crate root says about names.
#[derive(Default)]
struct RootNames {
    /// Top-level modules.
    modules: BTreeSet<String>,
    /// Names the root re-exports → the top-level module they come from
    /// (`None`: from another crate).
    reexports: BTreeMap<String, Option<String>>,
}

/// The graph of the crate whose root file is `root`.
///
/// # Errors
/// A file that does not parse or a `mod` whose file is missing.
pub fn crate_graph(root: &Path) -> Result<Graph, String> {
    let file = parse(root)?;
    let names = root_names(&file.items);
    let mut walker = Walker {
        names: &names,
        here: Vec::new(),
        dir: root.parent().unwrap().to_path_buf(),
        file: root.to_path_buf(),
        graph: Graph::new(),
        errors: Vec::new(),
    };
    for module in &names.modules {
        walker.graph.entry(module.clone()).or_default();
    }
    walker.visit_file(&file);
    if walker.errors.is_empty() { Ok(walker.graph) } else { Err(walker.errors.join("\n")) }
}

fn parse(path: &Path) -> Result<syn::File, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    syn::parse_file(&text).map_err(|e| format!("{}: {e}", path.display()))
}

fn root_names(items: &[syn::Item]) -> RootNames {
    let mut names = RootNames::default();
    for item in items {
        if let syn::Item::Mod(m) = item
            && !is_test_only(&m.attrs)
        {
            names.modules.insert(m.ident.to_string());
        }
    }
    for item in items {
        if let syn::Item::Use(u) = item {
            for (path, name) in use_paths(&u.tree) {
                let first = path.iter().find(|s| !matches!(s.as_str(), "crate" | "self"));
                let module = first.filter(|f| names.modules.contains(*f)).cloned();
                let local = path.first().is_some_and(|s| s == "crate" || s == "self" || names.modules.contains(s));
                if let Some(name) = name.filter(|n| n != "*") {
                    names.reexports.insert(name, if local { module } else { None });
                }
            }
        }
    }
    names
}

/// Every full path of a use tree with the name it binds (`None` for a glob).
fn use_paths(tree: &syn::UseTree) -> Vec<(Vec<String>, Option<String>)> {
    fn walk(tree: &syn::UseTree, prefix: &mut Vec<String>, out: &mut Vec<(Vec<String>, Option<String>)>) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                walk(&p.tree, prefix, out);
                prefix.pop();
            }
            syn::UseTree::Name(n) if n.ident == "self" => {
                out.push((prefix.clone(), prefix.last().cloned()));
            }
            syn::UseTree::Name(n) => {
                let mut path = prefix.clone();
                path.push(n.ident.to_string());
                out.push((path, Some(n.ident.to_string())));
            }
            syn::UseTree::Rename(r) => {
                let mut path = prefix.clone();
                if r.ident != "self" {
                    path.push(r.ident.to_string());
                }
                out.push((path, Some(r.rename.to_string())));
            }
            syn::UseTree::Glob(_) => {
                let mut path = prefix.clone();
                path.push("*".into());
                out.push((path, None));
            }
            syn::UseTree::Group(g) => g.items.iter().for_each(|t| walk(t, prefix, out)),
        }
    }
    let mut out = Vec::new();
    walk(tree, &mut Vec::new(), &mut out);
    out
}

fn is_test_only(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| a.path().is_ident("cfg") && a.parse_args::<syn::Ident>().is_ok_and(|i| i == "test"))
}

fn item_attrs(item: &syn::Item) -> &[syn::Attribute] {
    use syn::Item;
    match item {
        Item::Const(i) => &i.attrs,
        Item::Enum(i) => &i.attrs,
        Item::ExternCrate(i) => &i.attrs,
        Item::Fn(i) => &i.attrs,
        Item::ForeignMod(i) => &i.attrs,
        Item::Impl(i) => &i.attrs,
        Item::Macro(i) => &i.attrs,
        Item::Mod(i) => &i.attrs,
        Item::Static(i) => &i.attrs,
        Item::Struct(i) => &i.attrs,
        Item::Trait(i) => &i.attrs,
        Item::TraitAlias(i) => &i.attrs,
        Item::Type(i) => &i.attrs,
        Item::Union(i) => &i.attrs,
        Item::Use(i) => &i.attrs,
        _ => &[],
    }
}

struct Walker<'a> {
    names: &'a RootNames,
    /// Module path of the code being read (empty at the crate root).
    here: Vec<String>,
    /// Folder the files of `here`'s child modules live in.
    dir: PathBuf,
    file: PathBuf,
    graph: Graph,
    errors: Vec<String>,
}

impl Walker<'_> {
    /// The top-level module that `path`, named in `here`, lands in (none
    /// for another crate's items and the crate root's own).
    fn target(&self, path: &[String]) -> Option<String> {
        let first = path.first()?;
        let (base, rest): (Vec<String>, &[String]) = match first.as_str() {
            "crate" => (Vec::new(), &path[1..]),
            "self" => (self.here.clone(), &path[1..]),
            "super" => {
                let ups = path.iter().take_while(|s| *s == "super").count();
                let keep = self.here.len().saturating_sub(ups);
                (self.here[..keep].to_vec(), &path[ups..])
            }
            name if self.here.is_empty() && self.names.modules.contains(name) => (Vec::new(), path),
            _ => return None,
        };
        if let Some(top) = base.first() {
            return Some(top.clone());
        }
        let next = rest.first()?;
        if self.names.modules.contains(next) {
            Some(next.clone())
        } else {
            self.names.reexports.get(next).cloned().flatten()
        }
    }

    fn record(&mut self, path: &[String]) {
        let (Some(from), Some(to)) = (self.here.first().cloned(), self.target(path)) else { return };
        if from == to {
            return;
        }
        let root = self.file.ancestors().find(|a| a.ends_with("src")).unwrap_or(Path::new(""));
        let file = self.file.strip_prefix(root).unwrap_or(&self.file).display().to_string();
        let place = format!("{file}: {}", path.join("::"));
        self.graph.entry(from).or_default().entry(to).or_insert(place);
    }

    /// `crate::a`, `super::super::b`, `self::c` sequences in a macro's tokens.
    fn scan_tokens(&mut self, tokens: TokenStream) {
        let trees: Vec<TokenTree> = tokens.into_iter().collect();
        let mut i = 0;
        while i < trees.len() {
            if let TokenTree::Group(g) = &trees[i] {
                self.scan_tokens(g.stream());
            }
            let starts = matches!(&trees[i], TokenTree::Ident(id) if id == "crate" || id == "super" || id == "self");
            let after_colon = i >= 2
                && matches!((&trees[i - 1], &trees[i - 2]), (TokenTree::Punct(a), TokenTree::Punct(b)) if a.as_char() == ':' && b.as_char() == ':');
            if starts && !after_colon {
                let mut path = vec![trees[i].to_string()];
                let mut j = i + 1;
                while j + 2 < trees.len()
                    && matches!((&trees[j], &trees[j + 1]), (TokenTree::Punct(a), TokenTree::Punct(b)) if a.as_char() == ':' && b.as_char() == ':')
                {
                    match &trees[j + 2] {
                        TokenTree::Ident(id) => path.push(id.to_string()),
                        _ => break,
                    }
                    j += 3;
                }
                if path.len() > 1 {
                    self.record(&path);
                }
                i = j;
                continue;
            }
            i += 1;
        }
    }

    fn module_file(&self, m: &syn::ItemMod) -> Option<PathBuf> {
        let name = m.ident.to_string();
        let explicit = m.attrs.iter().find_map(|a| match &a.meta {
            syn::Meta::NameValue(nv) if nv.path.is_ident("path") => match &nv.value {
                syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. }) => Some(s.value()),
                _ => None,
            },
            _ => None,
        });
        if let Some(rel) = explicit {
            return Some(self.file.parent().unwrap().join(rel));
        }
        [self.dir.join(format!("{name}.rs")), self.dir.join(&name).join("mod.rs")].into_iter().find(|p| p.is_file())
    }
}

/// Folder of the child modules of the module whose file is `file`.
fn child_dir(file: &Path) -> PathBuf {
    let parent = file.parent().unwrap();
    match file.file_stem().and_then(|s| s.to_str()) {
        Some("mod" | "lib" | "main") => parent.to_path_buf(),
        Some(stem) => parent.join(stem),
        None => parent.to_path_buf(),
    }
}

impl<'ast> Visit<'ast> for Walker<'_> {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        if !is_test_only(item_attrs(item)) {
            syn::visit::visit_item(self, item);
        }
    }

    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        let name = m.ident.to_string();
        let saved = (self.dir.clone(), self.file.clone());
        self.here.push(name.clone());
        match &m.content {
            Some((_, items)) => {
                self.dir = self.dir.join(&name);
                items.iter().for_each(|i| self.visit_item(i));
            }
            None => match self.module_file(m) {
                Some(path) => match parse(&path) {
                    Ok(file) => {
                        self.dir = child_dir(&path);
                        self.file = path;
                        file.items.iter().for_each(|i| self.visit_item(i));
                    }
                    Err(e) => self.errors.push(e),
                },
                None => self.errors.push(format!("{}: no file for `mod {name}`", self.file.display())),
            },
        }
        self.here.pop();
        (self.dir, self.file) = saved;
    }

    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        for (path, _) in use_paths(&u.tree) {
            self.record(&path);
        }
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        if path.leading_colon.is_none() {
            self.record(&segments);
        }
        syn::visit::visit_path(self, path);
    }

    fn visit_vis_restricted(&mut self, _: &'ast syn::VisRestricted) {
        // `pub(crate)`, `pub(in crate::a)`: who may see an item, not what it uses.
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        self.visit_path(&mac.path);
        self.scan_tokens(mac.tokens.clone());
    }
}

/// The strongly connected components of `g` with more than one module.
pub fn cycles(g: &Graph) -> Vec<BTreeSet<String>> {
    let nodes: BTreeSet<&String> = g.keys().chain(g.values().flat_map(|e| e.keys())).collect();
    let reach = |from: &String| -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        let mut queue = VecDeque::from([from.clone()]);
        while let Some(n) = queue.pop_front() {
            for next in g.get(&n).into_iter().flat_map(|e| e.keys()) {
                if seen.insert(next.clone()) {
                    queue.push_back(next.clone());
                }
            }
        }
        seen
    };
    let reaches: BTreeMap<&String, BTreeSet<String>> = nodes.iter().map(|n| (*n, reach(n))).collect();
    let mut out: Vec<BTreeSet<String>> = Vec::new();
    for n in &nodes {
        if out.iter().any(|c| c.contains(*n)) {
            continue;
        }
        let component: BTreeSet<String> = nodes
            .iter()
            .filter(|m| reaches[*n].contains(**m) && reaches[*m].contains(*n))
            .map(|m| (*m).clone())
            .collect();
        if component.len() > 1 {
            out.push(component);
        }
    }
    out
}

/// One shortest cycle through the first module of `component`, each edge
/// with the place that makes it: `a → b (a.rs: crate::b::X) → a (…)`.
pub fn describe(g: &Graph, component: &BTreeSet<String>) -> String {
    let start = component.iter().next().unwrap();
    let mut back: BTreeMap<String, String> = BTreeMap::new();
    let mut queue = VecDeque::from([start.clone()]);
    let mut last = None;
    'search: while let Some(n) = queue.pop_front() {
        for next in g.get(&n).into_iter().flat_map(|e| e.keys()).filter(|m| component.contains(*m)) {
            if next == start {
                last = Some(n.clone());
                break 'search;
            }
            if !back.contains_key(next) {
                back.insert(next.clone(), n.clone());
                queue.push_back(next.clone());
            }
        }
    }
    let mut path = vec![start.clone()];
    let mut at = last.unwrap();
    while at != *start {
        path.push(at.clone());
        at = back[&at].clone();
    }
    path.push(start.clone());
    path.reverse();
    let mut text = path[0].clone();
    for pair in path.windows(2) {
        text.push_str(&format!(" → {} ({})", pair[1], g[&pair[0]][&pair[1]]));
    }
    format!("{{{}}}: {text}", component.iter().cloned().collect::<Vec<_>>().join(", "))
}
