//! The cosine of each dumped candidate sentence to its question by both
//! builtin embedders, for testing a second meaning feature offline (issue
//! 39): `scripts/eval/features_cv.py` reads them beside the dump.
//!
//! `cargo run --release -p almirah-embed --example candidate_cosines -- DUMP.jsonl OUT.jsonl`
//!
//! DUMP is a candidate dump (`ALMIRAH_CANDIDATES`, one JSON line per
//! candidate with its `question` and `text`); OUT gets one line per input
//! line, in order: `{"e5": cosine, "minilm": cosine}` (multilingual-e5-small
//! with its `query: `/`passage: ` prefixes, all-MiniLM-L6-v2; unit vectors,
//! so the dot product). A line whose row has an `ask` (the question's asking
//! sentence) also gets `"minilm_ask"`: the all-MiniLM-L6-v2 cosine to it.

use std::collections::HashMap;
use std::io::Write;

use almirah_embed::{BuiltinEmbedder, Embedder, InputKind, MultilingualEmbedder};

type Cache = HashMap<(String, bool), Vec<f32>>;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [dump, out] = args.as_slice() else {
        return Err("usage: candidate_cosines DUMP.jsonl OUT.jsonl".into());
    };
    let minilm = BuiltinEmbedder::load(None)?;
    let e5 = MultilingualEmbedder::load(None)?;
    let mut out = std::io::BufWriter::new(std::fs::File::create(out)?);
    let (mut by_minilm, mut by_e5) = (Cache::new(), Cache::new());
    for line in std::fs::read_to_string(dump)?.lines().filter(|l| !l.trim().is_empty()) {
        let row: serde_json::Value = serde_json::from_str(line)?;
        let question = row["question"].as_str().unwrap_or_default();
        let text = row["text"].as_str().unwrap_or_default();
        let e = cosine(&e5, &mut by_e5, question, text)?;
        let m = cosine(&minilm, &mut by_minilm, question, text)?;
        let mut line = serde_json::json!({"e5": e, "minilm": m});
        if let Some(ask) = row["ask"].as_str() {
            line["minilm_ask"] = cosine(&minilm, &mut by_minilm, ask, text)?.into();
        }
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// The cosine of `question` (as a query) and `text` (as a passage) by `e`.
fn cosine(e: &dyn Embedder, cache: &mut Cache, question: &str, text: &str) -> Result<f32, Box<dyn std::error::Error>> {
    let q = vector(e, cache, question, true)?;
    let t = vector(e, cache, text, false)?;
    Ok(q.iter().zip(&t).map(|(x, y)| x * y).sum())
}

fn vector(
    e: &dyn Embedder,
    cache: &mut Cache,
    text: &str,
    query: bool,
) -> Result<Vec<f32>, Box<dyn std::error::Error>> {
    if let Some(v) = cache.get(&(text.to_string(), query)) {
        return Ok(v.clone());
    }
    let kind = if query { InputKind::Query } else { InputKind::Document };
    let v = e.embed(&[text], kind)?.pop().ok_or("the embedder returned no vector")?;
    cache.insert((text.to_string(), query), v.clone());
    Ok(v)
}
