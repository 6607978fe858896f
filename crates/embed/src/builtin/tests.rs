#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::OnceLock;
use std::time::Instant;

use super::*;
use crate::vector::{cosine, norm};

/// The model, loaded once per test binary. Fails with the fetch hint when absent.
fn model() -> &'static BuiltinEmbedder {
    static MODEL: OnceLock<BuiltinEmbedder> = OnceLock::new();
    MODEL.get_or_init(|| BuiltinEmbedder::load(None).unwrap_or_else(|e| unreachable_model(&e)))
}

#[allow(clippy::panic)]
fn unreachable_model(e: &EmbedError) -> ! {
    panic!("{e}")
}

const QUERY: &str = "How many days of earned leave per year?";
const LEAVE: &str = "Employees get 18 days of earned leave a year.";
const HOTEL: &str = "Hotels are capped at INR 6,000 a night.";

#[test]
fn vectors_are_384_dimensional_unit_and_deterministic() {
    let e = model();
    assert_eq!(e.id().dimensions, 384);
    assert_eq!(e.id().provider, "builtin");
    let a = e.embed(&[QUERY, LEAVE, ""], InputKind::Document).unwrap();
    let b = e.embed(&[QUERY, LEAVE, ""], InputKind::Query).unwrap();
    assert_eq!(a, b);
    for v in &a {
        assert_eq!(v.len(), 384);
        assert!((norm(v) - 1.0).abs() < 1e-4, "norm {}", norm(v));
        assert!(v.iter().all(|x| x.is_finite()));
    }
}

#[test]
fn semantic_order_leave_beats_hotel() {
    let v = model().embed(&[QUERY, LEAVE, HOTEL], InputKind::Query).unwrap();
    let (leave, hotel) = (cosine(&v[0], &v[1]), cosine(&v[0], &v[2]));
    assert!(leave > hotel + 0.2, "leave {leave}, hotel {hotel}");
}

#[test]
fn padding_in_a_batch_does_not_change_vectors() {
    let long = "The travel policy applies to all staff. ".repeat(12);
    let texts = [QUERY, long.as_str(), "Leave.", HOTEL];
    let batch = model().embed(&texts, InputKind::Document).unwrap();
    for (text, from_batch) in texts.iter().zip(&batch) {
        let alone = model().embed(&[text], InputKind::Document).unwrap();
        let c = cosine(&alone[0], from_batch);
        assert!(c > 0.9999, "cosine {c} for {text:?}");
    }
}

#[test]
fn more_texts_than_max_batch_keep_order() {
    let texts: Vec<String> = (0..MAX_BATCH + 3).map(|i| format!("Clause {i} of the policy.")).collect();
    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
    let all = model().embed(&refs, InputKind::Document).unwrap();
    assert_eq!(all.len(), refs.len());
    let last = model().embed(&refs[refs.len() - 1..], InputKind::Document).unwrap();
    assert!(cosine(&all[refs.len() - 1], &last[0]) > 0.9999);
}

#[test]
fn long_text_is_truncated_at_256_word_pieces() {
    let long = "leave ".repeat(2000);
    let enc = model().tokenizer.encode(long.as_str(), true).unwrap();
    assert_eq!(enc.get_ids().len(), BUILTIN_MAX_TOKENS);
    let v = model().embed(&[&long], InputKind::Document).unwrap();
    assert!((norm(&v[0]) - 1.0).abs() < 1e-4);
}

/// Throughput probe: `cargo test -p almirah-embed --release -- --ignored --nocapture speed`.
#[test]
#[ignore = "timing probe, run by hand"]
fn speed() {
    let e = model();
    let short: Vec<String> = (0..160).map(|i| format!("Employees get {i} days of earned leave a year.")).collect();
    let chunk = "The officer shall submit the claim with receipts within thirty days of return. ".repeat(14);
    let chunks: Vec<String> = (0..40).map(|i| format!("{i} {chunk}")).collect();
    for (name, texts) in [("short", &short), ("chunk", &chunks)] {
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        let tokens = e.tokenizer.encode(refs[0], true).unwrap().get_ids().len();
        let start = Instant::now();
        e.embed(&refs, InputKind::Document).unwrap();
        let secs = start.elapsed().as_secs_f64();
        println!("{name}: {} texts of {tokens} tokens, {:.1} texts/s", refs.len(), refs.len() as f64 / secs);
        for size in [1, 4, 8, 16] {
            let start = Instant::now();
            for group in refs.chunks(size) {
                e.embed(group, InputKind::Document).unwrap();
            }
            let rate = refs.len() as f64 / start.elapsed().as_secs_f64();
            println!("  in groups of {size}: {rate:.1} texts/s");
        }
    }
}

#[test]
fn length_batches_keep_short_texts_apart_from_long_ones_and_cover_every_index() {
    let long = "x".repeat(1200);
    let texts = [long.as_str(), "short leftover", long.as_str(), "tiny", long.as_str()];
    let batches = length_batches(&texts, 32);
    assert_eq!(batches, vec![vec![3, 1], vec![0, 2, 4]]);
    let capped = length_batches(&texts, 2);
    assert!(capped.iter().all(|b| b.len() <= 2), "{capped:?}");
    let mut all: Vec<usize> = capped.into_iter().flatten().collect();
    all.sort_unstable();
    assert_eq!(all, vec![0, 1, 2, 3, 4]);
}

#[test]
fn vectors_do_not_depend_on_what_else_is_in_the_call() {
    let e = model();
    let long = format!("{LEAVE} {}", HOTEL.repeat(20));
    let alone = e.embed(&[QUERY], InputKind::Document).unwrap();
    let mixed = e.embed(&[long.as_str(), QUERY, LEAVE], InputKind::Document).unwrap();
    assert!(cosine(&alone[0], &mixed[1]) > 0.9999, "{}", cosine(&alone[0], &mixed[1]));
    assert!(cosine(&mixed[0], &mixed[1]) < 0.99, "order kept: the long text's vector differs");
}

/// Forward passes spread over workers give the vectors one pass at a time
/// gives, in input order (batches of 2 over texts of mixed lengths, so
/// several batches run at once and finish out of order).
#[test]
fn parallel_workers_match_one_pass_at_a_time() {
    let long = LEAVE.repeat(12);
    let texts = [QUERY, long.as_str(), HOTEL, "", LEAVE, long.as_str(), "Guests leave by 7 pm.", HOTEL];
    let one = BuiltinEmbedder::load(None).unwrap().with_max_batch(2).with_workers(1).unwrap();
    let two = BuiltinEmbedder::load(None).unwrap().with_max_batch(2).with_workers(2).unwrap();
    assert!(length_batches(&texts, 2).len() >= 4);
    let a = one.embed(&texts, InputKind::Document).unwrap();
    let b = two.embed(&texts, InputKind::Document).unwrap();
    assert_eq!(a.len(), texts.len());
    for (i, (x, y)) in a.iter().zip(&b).enumerate() {
        assert!(cosine(x, y) > 0.99999, "text {i}: cosine {}", cosine(x, y));
    }
    assert!(cosine(&b[2], &b[7]) > 0.99999 && cosine(&b[1], &b[5]) > 0.99999);
    assert!(cosine(&b[0], &b[2]) < 0.9, "distinct texts keep distinct vectors");
}

#[test]
fn token_vectors_are_unit_word_piece_vectors_in_context() {
    let e = model();
    let leave = e.token_vectors(LEAVE).unwrap();
    let pieces: Vec<&str> = leave.iter().map(|(t, _)| t.as_str()).collect();
    assert_eq!(pieces.first(), Some(&"employees"), "{pieces:?}");
    assert!(pieces.contains(&"leave") && !pieces.contains(&"[CLS]") && !pieces.contains(&"[SEP]"), "{pieces:?}");
    for (_, v) in &leave {
        assert_eq!(v.len(), 384);
        assert!((norm(v) - 1.0).abs() < 1e-4, "norm {}", norm(v));
    }
    // The same piece in another sentence has another vector, closer to it than to an unrelated piece.
    let in_query = e.token_vectors(QUERY).unwrap();
    let piece = |ts: &[(String, Vec<f32>)], p: &str| ts.iter().find(|(t, _)| t == p).map(|(_, v)| v.clone()).unwrap();
    let (a, b) = (piece(&leave, "leave"), piece(&in_query, "leave"));
    assert!(a != b);
    assert!(cosine(&a, &b) > cosine(&a, &piece(&in_query, "many")), "{}", cosine(&a, &b));
}
