//! Part 6: the cost of the freshness gate per snapshot, at 200 and 5,000
//! documents (versioned series of circulars with sessions and supersession
//! statements, a tenth for `hr-only`). "Cold" reads the gate inputs from
//! the library, as the first snapshot after a commit does (since format
//! v8 the writer's gate state; "records" builds it from the v7 per-document
//! records instead, as the writer does once per commit that changes one,
//! timed as "rebuild"; before v7 every document's full metadata); "warm" builds the gate for another as-of date from the
//! state's cached inputs; "snapshot" opens whole snapshots for today and
//! the profile's audience, which reuse the gate itself.

use std::time::Instant;

use almirah_core::embed::EmbedderConfig;
use almirah_core::freshness::gate::{Gate, GateInputs};
use almirah_core::update::IndexParams;
use almirah_core::{Engine, EngineConfig, NoProgress};
use anyhow::Result;
use serde::Serialize;

use crate::Options;

/// Gate build times at one library size.
#[derive(Debug, Clone, Serialize)]
pub struct GateTiming {
    /// Documents in the library.
    pub documents: usize,
    /// Builds timed.
    pub builds: usize,
    /// Inputs read from the library and the gate built, p50 and p95, ms.
    pub cold_p50_ms: f64,
    /// See `cold_p50_ms`.
    pub cold_p95_ms: f64,
    /// Status records built from the per-document gate records (format v7's
    /// read path) and the gate, p50 and p95, ms.
    pub records_p50_ms: f64,
    /// See `records_p50_ms`.
    pub records_p95_ms: f64,
    /// The writer's rebuild of the stored gate state (records read, built,
    /// encoded), p50, ms.
    pub rebuild_p50_ms: f64,
    /// Gate built from cached inputs, p50 and p95, ms.
    pub warm_p50_ms: f64,
    /// See `warm_p50_ms`.
    pub warm_p95_ms: f64,
    /// A whole snapshot (read transaction and gate) for today and the
    /// profile's audience on an unchanged library, p50 and p95, ms.
    pub snapshot_p50_ms: f64,
    /// See `snapshot_p50_ms`.
    pub snapshot_p95_ms: f64,
}

/// Run the part.
///
/// # Errors
/// Indexing and storage errors.
pub fn run(opts: &Options) -> Result<Vec<GateTiming>> {
    let sizes: &[usize] = if opts.quick { &[200, 1_000] } else { &[200, 5_000] };
    sizes.iter().map(|&n| one_size(opts, n)).collect()
}

fn one_size(opts: &Options, documents: usize) -> Result<GateTiming> {
    let work = opts.tempdir("gate")?;
    let docs = work.path().join("docs");
    write_circulars(&docs, documents)?;
    let mut cfg = EngineConfig::new(work.path().join("lib"));
    cfg.embedder = EmbedderConfig::Hash { dimensions: 64 };
    cfg.index = IndexParams { batch_max_chunks: 5000, ..IndexParams::default() };
    cfg.map_size = 1 << 34;
    let engine = Engine::open(cfg)?;
    eprintln!("part 6: indexing {documents} circulars");
    engine.index(&[docs], &NoProgress, &std::sync::atomic::AtomicBool::new(false))?;
    let builds = if opts.quick { 20 } else { 100 };
    let audiences = vec!["all-staff".to_string()];
    let rtxn = engine.store().read_txn()?;
    let dbs = engine.store().dbs();
    let mut cold = Vec::with_capacity(builds);
    let mut warm = Vec::with_capacity(builds);
    let mut records = Vec::with_capacity(builds);
    let mut rebuild = Vec::with_capacity(builds);
    let inputs = std::sync::Arc::new(GateInputs::load(dbs, &rtxn, &[])?);
    for i in 0..builds {
        let as_of = engine.as_of(chrono::NaiveDate::from_ymd_opt(2020 + (i % 7) as i32, 1 + (i % 12) as u32, 1), None);
        let t = Instant::now();
        let fresh = std::sync::Arc::new(GateInputs::load(dbs, &rtxn, &[])?);
        std::hint::black_box(Gate::from_inputs(fresh, as_of, &audiences));
        cold.push(t.elapsed().as_secs_f64() * 1000.0);
        let t = Instant::now();
        std::hint::black_box(Gate::from_inputs(inputs.clone(), as_of, &audiences));
        warm.push(t.elapsed().as_secs_f64() * 1000.0);
        let t = Instant::now();
        let built = std::sync::Arc::new(GateInputs::from_gate_records(dbs, &rtxn, &[])?);
        std::hint::black_box(Gate::from_inputs(built, as_of, &audiences));
        records.push(t.elapsed().as_secs_f64() * 1000.0);
        let t = Instant::now();
        std::hint::black_box(almirah_core::store::gate_inputs::stored_records(dbs, &rtxn)?.encode());
        rebuild.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    drop(rtxn);
    let today = engine.as_of(None, None);
    let mut snapshots = Vec::with_capacity(builds);
    for _ in 0..builds {
        let t = Instant::now();
        std::hint::black_box(engine.reader().snapshot(today)?);
        snapshots.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    let (cold_p50_ms, cold_p95_ms) = percentiles(&mut cold);
    let (warm_p50_ms, warm_p95_ms) = percentiles(&mut warm);
    let (records_p50_ms, records_p95_ms) = percentiles(&mut records);
    let (rebuild_p50_ms, _) = percentiles(&mut rebuild);
    let (snapshot_p50_ms, snapshot_p95_ms) = percentiles(&mut snapshots);
    Ok(GateTiming {
        documents,
        builds,
        cold_p50_ms,
        cold_p95_ms,
        records_p50_ms,
        records_p95_ms,
        rebuild_p50_ms,
        warm_p50_ms,
        warm_p95_ms,
        snapshot_p50_ms,
        snapshot_p95_ms,
    })
}

fn percentiles(values: &mut [f64]) -> (f64, f64) {
    values.sort_by(f64::total_cmp);
    let at = |q: f64| values[((values.len() - 1) as f64 * q).round() as usize];
    (at(0.5), at(0.95))
}

/// `n` one-paragraph circulars in series of five yearly versions, each
/// superseding the one before by number, every tenth for `hr-only`.
fn write_circulars(dir: &std::path::Path, n: usize) -> Result<()> {
    std::fs::create_dir_all(dir)?;
    for i in 0..n {
        let (series, version) = (i / 5, i % 5);
        let year = 2020 + version;
        let audience = if i % 10 == 0 { "audience: [hr-only]\n" } else { "" };
        let supersedes =
            if version > 0 { format!("In supersession of Circular No. {}.\n", i - 1) } else { String::new() };
        let text = format!(
            "---\ntitle: Circular {i}\nsession: {year}-{:02}\n{audience}---\n# Circular No. {i} ({year}-{:02})\n\nDated: 01.07.{year}\n\n{supersedes}The fee for service {series} is Rs {} per term.\n",
            (year + 1) % 100,
            (year + 1) % 100,
            100 + i
        );
        std::fs::write(dir.join(format!("series-{series}-v{version}.md")), text)?;
    }
    Ok(())
}
