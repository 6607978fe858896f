//! Measures the cosine scale of multilingual-e5-small against
//! all-MiniLM-L6-v2 (issue 41): every threshold of the builtin answerer and
//! the router is written on MiniLM's scale, and [`almirah_embed::Calibration`]
//! maps e5's cosines onto it by quantile mapping (the e5 cosine at the
//! quantile where MiniLM has the threshold).
//!
//! `cargo run --release -p almirah-embed --example calibrate -- SET.jsonl:DOCS ...`
//!
//! Each argument pairs an evaluation set with its documents folder
//! (Markdown and text files, read recursively). Only the set's tuning half
//! is used (the BLAKE3 rule of `almirah eval --half tuning`, or a line
//! pinned `"half": "tuning"`). Every tuning question is compared with every
//! sentence of the documents (at most 1,500 per set, evenly spaced); the
//! quantiles of both models' cosines over those pairs are printed as the
//! `(minilm, e5)` points of the table.

use std::path::{Path, PathBuf};

use almirah_embed::{BuiltinEmbedder, Embedder, InputKind, MultilingualEmbedder};

/// Sentences kept per set at most.
const MAX_SENTENCES: usize = 1500;
/// Quantiles of the pair cosines printed (the thresholds sit in the upper tail).
const QUANTILES: [f64; 14] = [0.05, 0.25, 0.5, 0.75, 0.9, 0.95, 0.98, 0.99, 0.995, 0.998, 0.999, 0.9995, 0.9999, 1.0];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let pairs: Vec<String> = std::env::args().skip(1).collect();
    if pairs.is_empty() {
        return Err("usage: calibrate SET.jsonl:DOCS [SET.jsonl:DOCS ...]".into());
    }
    let minilm = BuiltinEmbedder::load(None)?;
    let e5 = MultilingualEmbedder::load(None)?;
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for pair in &pairs {
        let (set, docs) = pair.split_once(':').ok_or("each argument is SET.jsonl:DOCS")?;
        let questions = tuning_questions(Path::new(set))?;
        let sentences = sentences(Path::new(docs));
        eprintln!("{set}: {} tuning questions, {} sentences", questions.len(), sentences.len());
        a.extend(pair_cosines(&minilm, &questions, &sentences)?);
        b.extend(pair_cosines(&e5, &questions, &sentences)?);
    }
    a.sort_by(f32::total_cmp);
    b.sort_by(f32::total_cmp);
    println!("// {} question-sentence pairs; quantile: (all-MiniLM-L6-v2, multilingual-e5-small)", a.len());
    for q in QUANTILES {
        println!("    ({:.4}, {:.4}), // q{q}", quantile(&a, q), quantile(&b, q));
    }
    Ok(())
}

fn quantile(sorted: &[f32], q: f64) -> f32 {
    let i = ((sorted.len().saturating_sub(1)) as f64 * q).round() as usize;
    sorted.get(i).copied().unwrap_or(0.0)
}

/// Cosines of every question with every sentence (vectors are unit length).
fn pair_cosines(
    e: &dyn Embedder,
    questions: &[String],
    sentences: &[String],
) -> Result<Vec<f32>, Box<dyn std::error::Error>> {
    let q = embed(e, questions, InputKind::Query)?;
    let s = embed(e, sentences, InputKind::Document)?;
    Ok(q.iter().flat_map(|qv| s.iter().map(move |sv| qv.iter().zip(sv).map(|(x, y)| x * y).sum::<f32>())).collect())
}

fn embed(e: &dyn Embedder, texts: &[String], kind: InputKind) -> Result<Vec<Vec<f32>>, Box<dyn std::error::Error>> {
    let mut out = Vec::with_capacity(texts.len());
    for batch in texts.chunks(e.max_batch()) {
        let refs: Vec<&str> = batch.iter().map(String::as_str).collect();
        out.extend(e.embed(&refs, kind)?);
    }
    Ok(out)
}

/// The questions of the set's tuning half.
fn tuning_questions(set: &Path) -> Result<Vec<String>, Box<dyn std::error::Error>> {
    let mut out = Vec::new();
    for line in std::fs::read_to_string(set)?.lines().filter(|l| !l.trim().is_empty()) {
        let item: serde_json::Value = serde_json::from_str(line)?;
        let id = item["id"].as_str().unwrap_or_default();
        let pinned = item["half"].as_str() == Some("tuning");
        if pinned || blake3::hash(id.as_bytes()).as_bytes()[0].is_multiple_of(2) {
            out.push(item["question"].as_str().unwrap_or_default().to_string());
        }
    }
    Ok(out)
}

/// Sentences (30-400 bytes) of the folder's Markdown and text files, evenly thinned to [`MAX_SENTENCES`].
fn sentences(folder: &Path) -> Vec<String> {
    let mut files = walk(folder);
    files.sort();
    let mut all = Vec::new();
    for f in files {
        let body = std::fs::read_to_string(&f).unwrap_or_default();
        for s in body.split(['.', '?', '!', '\n', '।']) {
            let s = s.trim().trim_start_matches(['#', '-', '*', '|', ' ']);
            if (30..=400).contains(&s.len()) {
                all.push(s.to_string());
            }
        }
    }
    let step = all.len().div_ceil(MAX_SENTENCES).max(1);
    all.into_iter().step_by(step).collect()
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = entry.path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else if p.extension().is_some_and(|e| e == "md" || e == "txt") {
            out.push(p);
        }
    }
    out
}
