//! For every `NAME.md` in a folder, compare its heading paths and chunk
//! texts (white space normalised) with those of `NAME.docx`, `NAME.odt`
//! and `NAME.html` beside it, and print the first difference of each.
//!
//! Usage: `cargo run --release -p almirah-extract --example office_parity -- DIR`
#![allow(missing_docs)]

use std::path::{Path, PathBuf};

use almirah_extract::{ChunkOptions, chunk, extract};

fn norm(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn chunks(path: &Path) -> Result<Vec<(Vec<String>, String)>, String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let doc = extract(path, &bytes).map_err(|e| e.to_string())?;
    Ok(chunk(&doc, &ChunkOptions::default())
        .into_iter()
        .map(|c| (c.heading_path.iter().map(|h| norm(h)).collect(), norm(&c.text)))
        .collect())
}

fn main() {
    let dir = PathBuf::from(std::env::args().nth(1).unwrap_or_else(|| ".".into()));
    let mut pages: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|d| d.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|e| e == "md")).collect())
        .unwrap_or_default();
    pages.sort();
    let (mut same, mut total) = (0, 0);
    for md in pages {
        let Ok(want) = chunks(&md) else { continue };
        for ext in ["docx", "odt", "html"] {
            let other = md.with_extension(ext);
            if !other.exists() {
                continue;
            }
            total += 1;
            match chunks(&other) {
                Ok(got) if got == want => same += 1,
                Ok(got) => {
                    let i = want.iter().zip(&got).position(|(a, b)| a != b).unwrap_or(want.len().min(got.len()));
                    println!("{}: differs at chunk {i} of {}/{}", other.display(), want.len(), got.len());
                    println!("   md: {:?}", want.get(i));
                    println!("  {ext}: {:?}", got.get(i));
                }
                Err(e) => println!("{}: {e}", other.display()),
            }
        }
    }
    println!("{same} of {total} converted documents match their Markdown");
}
