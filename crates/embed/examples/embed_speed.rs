//! Throughput of the builtin embedder on real chunk-sized texts, for tuning
//! (issue 16): `cargo run --release -p almirah-embed --example embed_speed -- <folder> [texts]`.
//! Texts are ~1,000-character pieces (`$CHARS` sets another size, e.g. 150
//! for sentences) of the folder's Markdown files, in
//! file order; prints chunks/s for each batch limit in `$BATCHES` (default 8,16,32)
//! and each number of workers in `$WORKERS` (default 1,2: forward passes at once).

use std::time::Instant;

use almirah_embed::{BuiltinEmbedder, Embedder, InputKind};

/// As in the binaries (see `almirah`'s main.rs).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let folder = args.next().ok_or("usage: embed_speed <folder> [texts]")?;
    let want: usize = args.next().map(|n| n.parse()).transpose()?.unwrap_or(600);
    let size: usize = std::env::var("CHARS").ok().map(|c| c.parse()).transpose()?.unwrap_or(1000);
    let mut texts = Vec::new();
    let mut files: Vec<_> = walk(std::path::Path::new(&folder));
    files.sort();
    for f in files {
        let body = std::fs::read_to_string(&f).unwrap_or_default();
        let chars: Vec<char> = body.chars().collect();
        for piece in chars.chunks(size) {
            let t: String = piece.iter().collect();
            if t.trim().len() > 40 {
                texts.push(t);
            }
        }
        if texts.len() >= want {
            break;
        }
    }
    texts.truncate(want);
    let batches = std::env::var("BATCHES").unwrap_or_else(|_| "8,16,32".into());
    let workers = std::env::var("WORKERS").unwrap_or_else(|_| "1,2".into());
    for (b, w) in batches.split(',').flat_map(|b| workers.split(',').map(move |w| (b, w))) {
        let (b, w): (usize, usize) = (b.trim().parse()?, w.trim().parse()?);
        let model = BuiltinEmbedder::load(None)?.with_max_batch(b).with_workers(w)?;
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        model.embed(&refs[..b.min(refs.len())], InputKind::Document)?;
        let started = Instant::now();
        model.embed(&refs, InputKind::Document)?;
        let s = started.elapsed().as_secs_f64();
        println!("batch {b:>3}, workers {w}: {} texts in {s:.1} s = {:.1} chunks/s", refs.len(), refs.len() as f64 / s);
    }
    Ok(())
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else if p.extension().is_some_and(|x| x == "md") {
            out.push(p);
        }
    }
    out
}
