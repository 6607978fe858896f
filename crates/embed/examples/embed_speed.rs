//! Throughput of the builtin embedder on real chunk-sized texts, for tuning
//! (issue 16): `cargo run --release -p almirah-embed --example embed_speed -- <folder> [texts]`.
//! Texts are ~1,000-character pieces of the folder's Markdown files, in
//! file order; prints chunks/s for each batch limit in `$BATCHES` (default 8,16,32).

use std::time::Instant;

use almirah_embed::{BuiltinEmbedder, Embedder, InputKind};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let folder = args.next().ok_or("usage: embed_speed <folder> [texts]")?;
    let want: usize = args.next().map(|n| n.parse()).transpose()?.unwrap_or(600);
    let mut texts = Vec::new();
    let mut files: Vec<_> = walk(std::path::Path::new(&folder));
    files.sort();
    for f in files {
        let body = std::fs::read_to_string(&f).unwrap_or_default();
        let chars: Vec<char> = body.chars().collect();
        for piece in chars.chunks(1000) {
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
    for b in batches.split(',') {
        let b: usize = b.trim().parse()?;
        let model = BuiltinEmbedder::load(None)?.with_max_batch(b);
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        model.embed(&refs[..b.min(refs.len())], InputKind::Document)?;
        let started = Instant::now();
        model.embed(&refs, InputKind::Document)?;
        let s = started.elapsed().as_secs_f64();
        println!("batch {b:>3}: {} texts in {s:.1} s = {:.1} chunks/s", refs.len(), refs.len() as f64 / s);
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
