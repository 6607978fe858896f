//! Part 4: retrieval recall@5 and @10 of the supporting paragraphs on the
//! HotpotQA and MuSiQue samples of `qa_multihop` (one document per paragraph,
//! built-in embedder), for BM25 only, vectors only and hybrid.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::time::Instant;

use almirah_core::embed::EmbedderConfig;
use almirah_core::{Engine, IndexParams, SearchMode, SearchOptions};
use anyhow::{Context, Result, anyhow};
use serde::Serialize;
use serde_json::Value;

use crate::Options;
use crate::ingest::index_folder;

/// Hits asked for per search (deduplicated to paragraphs afterwards).
const FETCH: usize = 30;

/// One ranker on one dataset.
#[derive(Debug, Clone, Serialize)]
pub struct ModeRecall {
    /// `bm25`, `vector` or `hybrid`.
    pub mode: String,
    /// Mean recall@5 of the supporting paragraphs, in %.
    pub recall_at_5: f64,
    /// Mean recall@10, in %.
    pub recall_at_10: f64,
    /// Mean query time, ms (includes embedding the question).
    pub mean_query_ms: f64,
}

/// One dataset.
#[derive(Debug, Clone, Serialize)]
pub struct DatasetRecall {
    /// `hotpotqa` or `musique`.
    pub name: String,
    /// Paragraphs indexed.
    pub paragraphs: usize,
    /// Chunks indexed.
    pub chunks: usize,
    /// Questions evaluated.
    pub questions: usize,
    /// Supporting paragraphs over all questions.
    pub gold_paragraphs: usize,
    /// Indexing time with the built-in embedder, s.
    pub index_s: f64,
    /// Paragraphs per second.
    pub paragraphs_per_s: f64,
    /// Published-style reference for BM25 R@10 on this pool, in %.
    pub reference_bm25_r10: f64,
    /// Per ranker.
    pub modes: Vec<ModeRecall>,
}

struct Dataset {
    paragraphs: Vec<(String, String)>,
    questions: Vec<(String, Vec<usize>, Vec<usize>)>, // question, gold, context
}

fn read_json(path: &Path) -> Result<Value> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    serde_json::from_str(&text).with_context(|| format!("parsing {}", path.display()))
}

fn str_of<'a>(v: &'a Value, key: &str) -> Result<&'a str> {
    v.get(key).and_then(Value::as_str).ok_or_else(|| anyhow!("missing string field {key}"))
}

fn arr(v: &Value) -> Result<&Vec<Value>> {
    v.as_array().ok_or_else(|| anyhow!("expected a JSON array"))
}

/// HotpotQA: corpus `{title: [sentences]}`; gold = titles of `supporting_facts`.
fn load_hotpot(dir: &Path) -> Result<Dataset> {
    let corpus = read_json(&dir.join("hotpotqa_train_100_corpus.json"))?;
    let map = corpus.as_object().ok_or_else(|| anyhow!("corpus: expected an object"))?;
    let mut paragraphs = Vec::new();
    let mut index = HashMap::new();
    for (title, sentences) in map {
        let text: String = arr(sentences)?.iter().filter_map(Value::as_str).collect();
        index.insert(title.clone(), paragraphs.len());
        paragraphs.push((title.clone(), text.trim().to_string()));
    }
    let lookup = |t: &str| index.get(t).copied().ok_or_else(|| anyhow!("no paragraph {t:?}"));
    let mut questions = Vec::new();
    for q in arr(&read_json(&dir.join("hotpotqa_train_100.json"))?)? {
        let mut gold = Vec::new();
        for fact in arr(q.get("supporting_facts").unwrap_or(&Value::Null))? {
            let title = fact.get(0).and_then(Value::as_str).ok_or_else(|| anyhow!("bad fact"))?;
            gold.push(lookup(title)?);
        }
        let mut context = Vec::new();
        for c in arr(q.get("context").unwrap_or(&Value::Null))? {
            if let Some(t) = c.get(0).and_then(Value::as_str) {
                context.push(lookup(t)?);
            }
        }
        gold.sort_unstable();
        gold.dedup();
        questions.push((str_of(q, "question")?.to_string(), gold, context));
    }
    Ok(Dataset { paragraphs, questions })
}

/// MuSiQue: corpus `[{title, text}]`; gold = `paragraphs` with `is_supporting`.
fn load_musique(dir: &Path) -> Result<Dataset> {
    let corpus = read_json(&dir.join("musique_train_100_corpus.json"))?;
    let mut paragraphs = Vec::new();
    let mut index = HashMap::new();
    for p in arr(&corpus)? {
        let key = (str_of(p, "title")?.to_string(), str_of(p, "text")?.to_string());
        index.entry(key.clone()).or_insert(paragraphs.len());
        paragraphs.push(key);
    }
    let mut questions = Vec::new();
    for q in arr(&read_json(&dir.join("musique_train_100.json"))?)? {
        let (mut gold, mut context) = (Vec::new(), Vec::new());
        for p in arr(q.get("paragraphs").unwrap_or(&Value::Null))? {
            let key = (str_of(p, "title")?.to_string(), str_of(p, "paragraph_text")?.to_string());
            let i = *index.get(&key).ok_or_else(|| anyhow!("no paragraph {:?}", key.0))?;
            if p.get("is_supporting").and_then(Value::as_bool) == Some(true) {
                gold.push(i);
            }
            context.push(i);
        }
        gold.sort_unstable();
        gold.dedup();
        questions.push((str_of(q, "question")?.to_string(), gold, context));
    }
    Ok(Dataset { paragraphs, questions })
}

/// Keep the first `n` questions and only the paragraphs of their contexts.
fn shrink(ds: Dataset, n: usize) -> Dataset {
    let questions: Vec<_> = ds.questions.into_iter().take(n).collect();
    let mut remap = BTreeMap::new();
    for (_, gold, context) in &questions {
        for &i in gold.iter().chain(context) {
            remap.insert(i, 0);
        }
    }
    let mut paragraphs = Vec::with_capacity(remap.len());
    for (new, (old, slot)) in remap.iter_mut().enumerate() {
        *slot = new;
        paragraphs.push(ds.paragraphs[*old].clone());
    }
    let map = |v: &[usize]| v.iter().filter_map(|i| remap.get(i).copied()).collect();
    let questions = questions.iter().map(|(q, g, c)| (q.clone(), map(g), map(c))).collect();
    Dataset { paragraphs, questions }
}

fn paragraph_of(path: &str) -> Option<usize> {
    Path::new(path).file_stem()?.to_str()?.parse().ok()
}

fn evaluate(engine: &Engine, ds: &Dataset, mode: SearchMode) -> Result<ModeRecall> {
    let mut opts = SearchOptions { mode, k: FETCH, ..SearchOptions::default() };
    if mode == SearchMode::Vector {
        opts.min_similarity = 0.0; // rank everything: measure the ranker itself
    }
    let as_of = engine.as_of(None, None);
    let (mut r5, mut r10, mut ms) = (0.0, 0.0, 0.0);
    for (question, gold, _) in &ds.questions {
        let started = Instant::now();
        let res = engine.search(question, &opts, as_of, 0)?.results;
        ms += started.elapsed().as_secs_f64() * 1000.0;
        let mut ranked: Vec<usize> = Vec::new();
        for hit in &res.hits {
            if let Some(p) = paragraph_of(&hit.path)
                && !ranked.contains(&p)
            {
                ranked.push(p);
            }
        }
        let found = |k: usize| {
            let top = &ranked[..ranked.len().min(k)];
            gold.iter().filter(|g| top.contains(g)).count() as f64 / gold.len().max(1) as f64
        };
        r5 += found(5);
        r10 += found(10);
    }
    let n = ds.questions.len().max(1) as f64;
    Ok(ModeRecall {
        mode: format!("{mode:?}").to_lowercase(),
        recall_at_5: 100.0 * r5 / n,
        recall_at_10: 100.0 * r10 / n,
        mean_query_ms: ms / n,
    })
}

fn run_dataset(opts: &Options, name: &str, ds: Dataset, reference: f64) -> Result<DatasetRecall> {
    let work = opts.tempdir("multihop")?;
    let docs = work.path().join("paragraphs");
    std::fs::create_dir_all(&docs)?;
    for (i, (title, text)) in ds.paragraphs.iter().enumerate() {
        std::fs::write(docs.join(format!("{i:05}.txt")), format!("{title}\n\n{text}\n"))?;
    }
    eprintln!("part 4: {name}: indexing {} paragraphs with the built-in embedder", ds.paragraphs.len());
    let (run, engine) = index_folder(
        &docs,
        &work.path().join("lib"),
        EmbedderConfig::Builtin { model_dir: None, model: almirah_core::embed::BuiltinModel::MiniLm },
        IndexParams::default(),
        name,
    )?;
    let mut modes = Vec::new();
    for mode in [SearchMode::Bm25, SearchMode::Vector, SearchMode::Hybrid] {
        modes.push(evaluate(&engine, &ds, mode)?);
    }
    Ok(DatasetRecall {
        name: name.to_string(),
        paragraphs: ds.paragraphs.len(),
        chunks: run.chunks,
        questions: ds.questions.len(),
        gold_paragraphs: ds.questions.iter().map(|q| q.1.len()).sum(),
        index_s: run.elapsed_s,
        paragraphs_per_s: run.files as f64 / run.elapsed_s,
        reference_bm25_r10: reference,
        modes,
    })
}

/// Run part 4.
///
/// # Errors
/// I/O, JSON, engine and embedder errors.
pub fn run(opts: &Options) -> Result<Vec<DatasetRecall>> {
    let root = opts.corpora.join("qa_multihop");
    let mut hotpot = load_hotpot(&root.join("hotpotqa"))?;
    let mut musique = load_musique(&root.join("musique"))?;
    if opts.quick {
        hotpot = shrink(hotpot, 20);
        musique = shrink(musique, 20);
    }
    Ok(vec![run_dataset(opts, "hotpotqa", hotpot, 88.0)?, run_dataset(opts, "musique", musique, 60.0)?])
}
