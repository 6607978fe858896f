//! Late-interaction similarity of each dumped candidate sentence to its
//! question (issue 39): for every content word piece of the question, the
//! highest cosine to any word piece of the sentence, averaged (MaxSim;
//! Khattab and Zaharia, "ColBERT", SIGIR 2020), with all-MiniLM-L6-v2's
//! contextual token vectors. `scripts/eval/features_cv.py` reads it beside
//! the dump.
//!
//! `cargo run --release -p almirah-embed --example candidate_maxsim -- DUMP.jsonl OUT.jsonl`
//!
//! OUT gets one line per DUMP line: `{"maxsim": m, "maxsim_ask": a}` (the
//! second over the row's `ask`, its asking sentence, when it has one).

use std::collections::HashMap;
use std::io::Write;

use almirah_embed::BuiltinEmbedder;

type Tokens = Vec<(String, Vec<f32>)>;

const STOP: &[&str] = &[
    "a", "an", "the", "of", "to", "for", "in", "on", "at", "by", "and", "or", "my", "our", "your", "is", "are", "do",
    "does", "can", "i", "we", "you", "it", "what", "how", "when", "who", "which", "where", "why", "?", ".", ",", "'",
    "s", "me", "be", "if", "that", "this", "with", "from", "as", "am", "there", "any", "their", "they",
];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [dump, out] = args.as_slice() else {
        return Err("usage: candidate_maxsim DUMP.jsonl OUT.jsonl".into());
    };
    let model = BuiltinEmbedder::load(None)?;
    let mut cache: HashMap<String, Tokens> = HashMap::new();
    let mut out = std::io::BufWriter::new(std::fs::File::create(out)?);
    for line in std::fs::read_to_string(dump)?.lines().filter(|l| !l.trim().is_empty()) {
        let row: serde_json::Value = serde_json::from_str(line)?;
        let question = row["question"].as_str().unwrap_or_default();
        let text = row["text"].as_str().unwrap_or_default();
        let m = maxsim(&model, &mut cache, question, text)?;
        let mut line = serde_json::json!({"maxsim": m});
        if let Some(ask) = row["ask"].as_str() {
            line["maxsim_ask"] = maxsim(&model, &mut cache, ask, text)?.into();
        }
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// Embeds `text`'s word pieces into `cache` unless they are there.
fn cache_tokens(
    model: &BuiltinEmbedder,
    cache: &mut HashMap<String, Tokens>,
    text: &str,
) -> Result<(), Box<dyn std::error::Error>> {
    if !cache.contains_key(text) {
        cache.insert(text.to_string(), model.token_vectors(text)?);
    }
    Ok(())
}

fn maxsim(
    model: &BuiltinEmbedder,
    cache: &mut HashMap<String, Tokens>,
    question: &str,
    text: &str,
) -> Result<f32, Box<dyn std::error::Error>> {
    cache_tokens(model, cache, question)?;
    cache_tokens(model, cache, text)?;
    let q: Vec<&Vec<f32>> =
        cache[question].iter().filter(|(t, _)| !STOP.contains(&t.as_str())).map(|(_, v)| v).collect();
    let s = &cache[text];
    if q.is_empty() || s.is_empty() {
        return Ok(0.0);
    }
    let best =
        |v: &Vec<f32>| s.iter().map(|(_, w)| v.iter().zip(w).map(|(a, b)| a * b).sum::<f32>()).fold(f32::MIN, f32::max);
    Ok(q.iter().map(|v| best(v)).sum::<f32>() / q.len() as f32)
}
