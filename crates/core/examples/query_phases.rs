//! Where the non-embedding time of a hybrid query goes (issue 42), on an
//! existing library: per question, the median over `ROUNDS` runs of
//!
//! - **snapshot**: `Engine::snapshot` (the gate for the as-of date);
//! - **bm25**: `search::bm25::search` over the admissible chunks, depth 50;
//! - **vector**: `search::vector::search` with the query's embedding
//!   already computed;
//! - **search − embed**: `Snapshot::search` (what `ask` runs, with 3
//!   withheld hits for the notes) minus the query's embedding alone.
//!
//! Prints p50 and p95 over the questions, in ms.
//!
//! With `QUERY_PHASES_BM25_OUT=<file>`, also writes each question's BM25
//! top 50 (chunk ids and scores, as f32 bit patterns) as JSON lines, to
//! check that a change of the keyword index leaves its results bit-identical.
//!
//! Usage: `cargo run --release -p almirah-core --example query_phases -- <library data dir> <questions.jsonl>...`
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::time::Instant;

use almirah_core::embed::InputKind;
use almirah_core::search::{bm25, vector};
use almirah_core::store::{get_meta, meta_keys};
use almirah_core::text::Tokenizer;
use almirah_core::{Engine, EngineConfig, SearchOptions};

const ROUNDS: usize = 5;

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1000.0
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn pct(mut v: Vec<f64>, p: f64) -> f64 {
    v.sort_by(f64::total_cmp);
    v[((v.len() as f64 - 1.0) * p).round() as usize]
}

fn questions(paths: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for p in paths {
        for line in std::fs::read_to_string(p).unwrap().lines() {
            if let Ok(v) = serde_json::from_str::<serde_json::Value>(line)
                && let Some(q) = v["question"].as_str()
            {
                out.push(q.to_string());
            }
        }
    }
    out
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let engine = Engine::open(EngineConfig::new(&args[0])).unwrap();
    let qs = questions(&args[1..]);
    let opts = SearchOptions::default();
    let as_of = engine.as_of(None, None);
    let embedder = engine.embedder().unwrap();
    let tokenizer = Tokenizer::default();
    let store = engine.store();
    let dbs = store.dbs();
    engine.search(&qs[0], &opts, as_of, 3).unwrap();
    if let Ok(out) = std::env::var("QUERY_PHASES_BM25_OUT") {
        let snap = engine.snapshot(as_of).unwrap();
        let gate = snap.gate();
        let rtxn = store.read_txn().unwrap();
        let mut lines = String::new();
        for q in &qs {
            let hits = bm25::search(dbs, &rtxn, &tokenizer, q, gate.admissible(), gate.visible_chunks(), 50).unwrap();
            let hits: Vec<(u32, u32, f32)> = hits.iter().map(|(c, s)| (c.get(), s.to_bits(), *s)).collect();
            lines.push_str(&serde_json::json!({ "question": q, "hits": hits }).to_string());
            lines.push('\n');
        }
        std::fs::write(&out, lines).unwrap();
    }
    let mut rows: [Vec<f64>; 4] = Default::default();
    for q in &qs {
        let qv = embedder.embed(&[q.as_str()], InputKind::Query).unwrap().pop().unwrap();
        let mut per: [Vec<f64>; 4] = Default::default();
        for _ in 0..ROUNDS {
            let t = Instant::now();
            let snap = engine.snapshot(as_of).unwrap();
            per[0].push(ms(t));
            let gate = snap.gate();
            let rtxn = store.read_txn().unwrap();
            let t = Instant::now();
            bm25::search(dbs, &rtxn, &tokenizer, q, gate.admissible(), gate.visible_chunks(), opts.depth).unwrap();
            per[1].push(ms(t));
            let index: u16 = get_meta(dbs, &rtxn, meta_keys::VECTOR_INDEX).unwrap().unwrap_or(0);
            let t = Instant::now();
            vector::search(dbs.vector_dbs(), &rtxn, index, &qv, gate.admissible(), opts.depth, opts.vector).unwrap();
            per[2].push(ms(t));
            let t = Instant::now();
            embedder.embed(&[q.as_str()], InputKind::Query).unwrap();
            let embed = ms(t);
            let t = Instant::now();
            snap.search(q, &opts, 3, &Default::default()).unwrap();
            per[3].push(ms(t) - embed);
        }
        for (row, p) in rows.iter_mut().zip(per) {
            row.push(median(p));
        }
    }
    println!("{} questions, {} rounds each; ms", qs.len(), ROUNDS);
    for (name, row) in ["snapshot", "bm25", "vector", "search - embed"].iter().zip(rows) {
        println!("{name:>16}: p50 {:7.2}  p95 {:7.2}", pct(row.clone(), 0.5), pct(row, 0.95));
    }
}
