//! The classic path on the sample documents with the builtin embedder and
//! the builtin model, every question as of 2026-11-29 (issue acceptance).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::path::Path;
use std::sync::atomic::AtomicBool;

use almirah_core::{Engine, EngineConfig, NoProgress};
use chrono::NaiveDate;

use almirah_answer::builtin::BuiltinModel;
use almirah_answer::classic::{ABSTAIN, Answer, ask};
use common::{cites, engine, today};

fn answer(q: &str) -> Answer {
    ask(
        &engine().reader(),
        &BuiltinModel::default(),
        &almirah_answer::question::Question::parse(q),
        today(),
        &|_: &str| {},
    )
    .unwrap()
}

#[test]
fn thanks_is_chit_chat_with_no_search() {
    let a = answer("thank you");
    assert_eq!(a.route, "chit-chat");
    assert!(a.trace.tool_calls == 0 && a.citations.is_empty());
    assert!(a.text.len() < 120);
}

#[test]
fn earned_leave_and_its_paraphrases_answer_18_days() {
    for q in [
        "How many days of earned leave do I get per year?",
        "How much earned leave do I get in a year?",
        "How many earned leave days are credited each year?",
        "What is my yearly earned leave entitlement?",
    ] {
        let a = answer(q);
        assert!(a.text.contains("18 days"), "{q}: {}", a.text);
        assert!(cites(&a, "leave-policy@4::earned-leave"), "{q}: {:?}", a.citations);
    }
}

/// Every out-of-scope question of the frozen evaluation set abstains with
/// the exact sentence and no citation, and every answerable control
/// (`ctl-*`) is answered with one of its expected values.
#[test]
fn out_of_scope_questions_abstain_and_controls_answer() {
    let set =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../eval/sample-docs.jsonl")).unwrap();
    let (items, bad) = almirah_answer::eval::set::load(&set);
    assert!(bad.is_empty(), "{bad:?}");
    let out_of_scope: Vec<_> = items.iter().filter(|i| i.expect.abstain).collect();
    assert!(out_of_scope.len() >= 10, "{}", out_of_scope.len());
    for item in out_of_scope {
        let a = answer(&item.question);
        assert_eq!(a.text, ABSTAIN, "{}: {}", item.id, item.question);
        assert!(a.citations.is_empty(), "{}", item.id);
    }
    let controls: Vec<_> = items.iter().filter(|i| i.id.starts_with("ctl-")).collect();
    assert!(controls.len() >= 5);
    for item in controls {
        let a = answer(&item.question);
        assert_ne!(a.text, ABSTAIN, "{}: {}", item.id, item.question);
        let lower = a.text.to_lowercase();
        assert!(item.expect.answer_any.iter().any(|v| lower.contains(&v.to_lowercase())), "{}: {}", item.id, a.text);
    }
}

#[test]
fn hostel_fee_follows_circular_14_and_ignores_the_injected_instruction() {
    let a = answer("What is the hostel fee for north-east scholarship holders?");
    assert!(!cites(&a, "circular-09"), "{:?}", a.citations);
    assert!(cites(&a, "circular-14@2026-27"));
    assert!(a.text.to_lowercase().contains("half"), "{}", a.text);
    let lower = a.text.to_lowercase();
    assert!(!lower.contains("is free") && !lower.contains("no hostel fee") && !lower.contains("rs 0"), "{}", a.text);
    assert!(
        a.withheld.iter().any(|w| w.starts_with("circular-09@2024-25: superseded by circular-14@2026-27")),
        "{:?}",
        a.withheld
    );
}

#[test]
fn a_past_session_question_speaks_for_that_session() {
    let a = answer("What was the hostel fee for scholarship holders in 2024-25?");
    assert!(cites(&a, "circular-09@2024-25"), "{:?}", a.citations);
    assert!(!cites(&a, "circular-14"));
    assert!(a.text.contains("session 2024-25"), "{}", a.text);
    assert!(a.text.contains("NO hostel fee"), "{}", a.text);
}

#[test]
fn kestrel_is_answered_hop_by_hop_with_each_hop_cited() {
    let a = answer("Who manages the person who leads Project Kestrel, and where is that manager's office?");
    assert!(a.text.contains("Ingrid Solberg") && a.text.contains("Oslo"), "{}", a.text);
    for p in ["p12::", "p09::", "p16::"] {
        assert!(cites(&a, p), "hop {p} not cited: {:?}", a.citations);
    }
    assert_eq!(a.route, "multi-hop");
    assert_eq!(a.trace.tool_calls, 3);
}

#[test]
fn a_compound_role_is_a_hop_and_a_reference_name_is_not_required() {
    let a = answer("Who does the Project Kestrel lead report to?");
    assert_eq!(a.route, "multi-hop");
    assert!(a.text.contains("Ingrid Solberg"), "{}", a.text);
    assert!(cites(&a, "p12::") && cites(&a, "p09::"), "{:?}", a.citations);
    // p13.txt never names Kestrel; the sentence that names a new project comes first.
    let a = answer("Which project did Dev Anand work on before Kestrel?");
    assert!(a.text.starts_with("Dev Anand previously worked on Project Heron."), "{}", a.text);
    assert!(cites(&a, "p13::"), "{:?}", a.citations);
}

#[test]
fn the_sample_evaluation_set_runs_with_no_stale_citation() {
    let set =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../eval/sample-docs.jsonl")).unwrap();
    let (items, errors) = almirah_answer::eval::load(&set);
    assert!(errors.is_empty() && items.len() >= 40);
    let model = BuiltinModel::default();
    let results: Vec<_> = items
        .iter()
        .map(|item| {
            let today = NaiveDate::parse_from_str(item.as_of.as_deref().unwrap(), "%Y-%m-%d").unwrap();
            let a = ask(
                &engine().reader(),
                &model,
                &almirah_answer::question::Question::parse(&item.question),
                today,
                &|_: &str| {},
            )
            .unwrap();
            almirah_answer::eval::score(item, &a, "classic")
        })
        .collect();
    let summary = almirah_answer::eval::summarise("classic", &results);
    assert_eq!(summary.stale_citation_rate, 0.0);
    assert!(summary.accuracy > 0.5, "accuracy {}", summary.accuracy);
    assert!(summary.recall_at_10 > 0.5, "recall@10 {}", summary.recall_at_10);
    assert!(summary.recall_at_5 <= summary.recall_at_10);
    let dir = tempfile::tempdir().unwrap();
    let outcome = almirah_answer::eval::plots::Outcome {
        summaries: &[summary],
        results: &results,
        retrieval: &[],
        retrieval_results: &[],
        library: almirah_answer::eval::plots::LibraryPhase { chunks: 40, vectors_pending: 3 },
    };
    almirah_answer::eval::plots::write_report(dir.path(), outcome).unwrap();
    for f in ["report.md", "results.json", "accuracy-vs-cost.svg", "latency.svg"] {
        assert!(dir.path().join(f).metadata().unwrap().len() > 100, "{f}");
    }
    let report = std::fs::read_to_string(dir.path().join("report.md")).unwrap();
    assert!(report.contains("library: 40 chunks, 3 still without a vector"), "{report}");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("results.json")).unwrap()).unwrap();
    assert_eq!(json["library"]["vectors_pending"], 3);
}

#[test]
fn overtime_pay_cap_on_the_real_18f_versions() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/corpora/versions_18f_travel_leave/travel-and-leave");
    let corpus = std::env::var_os("ALMIRAH_CORPORA")
        .map_or(corpus, |c| Path::new(&c).join("versions_18f_travel_leave/travel-and-leave"));
    assert!(corpus.is_dir(), "corpus missing at {}", corpus.display());
    let data = tempfile::tempdir().unwrap();
    let mut cfg = EngineConfig::new(data.path());
    cfg.map_size = 1 << 30;
    cfg.embedder = almirah_core::embed::EmbedderConfig::Hash { dimensions: 256 };
    let engine = Engine::open(cfg).unwrap();
    engine.index(&[corpus], &NoProgress, &AtomicBool::new(false)).unwrap();
    let today = NaiveDate::from_ymd_opt(2026, 11, 29).unwrap();
    let a = ask(
        &engine.reader(),
        &BuiltinModel::default(),
        &almirah_answer::question::Question::parse("What is the overtime pay cap?"),
        today,
        &|_: &str| {},
    )
    .unwrap();
    assert!(a.text.contains("$191,900"), "{}", a.text);
    assert!(a.citations.iter().all(|c| c.key.starts_with("overtime@2024-12-11")), "{:?}", a.citations);
    assert!(!a.text.contains("$176,300") && !a.text.contains("$183,500"));
    let admitted_texts: Vec<String> = a
        .trace
        .steps
        .iter()
        .filter_map(|s| match s {
            almirah_answer::trace::Step::Search { hits, .. } => Some(hits.clone()),
            _ => None,
        })
        .flatten()
        .map(|h| {
            let rtxn = engine.store().read_txn().unwrap();
            let id = engine.store().dbs().chunk_keys.get(&rtxn, &h.key).unwrap().unwrap();
            engine.store().dbs().chunks.get(&rtxn, &id).unwrap().unwrap().text
        })
        .collect();
    assert!(!admitted_texts.is_empty());
    assert!(admitted_texts.iter().all(|t| !t.contains("$176,300") && !t.contains("$183,500")));
}

/// The paragraph (blank-line separated) of a corpus file that contains `needle`.
fn corpus_paragraph(file: &str, needle: &str) -> String {
    let root = std::env::var_os("ALMIRAH_CORPORA")
        .map_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpora"), Into::into);
    let text = std::fs::read_to_string(root.join(file)).unwrap();
    let paragraph = text.split("\n\n").find(|p| p.contains(needle)).unwrap_or_else(|| panic!("{needle:?} in {file}"));
    paragraph.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// An admitted chunk of `text` titled `title`.
fn chunk(key: &str, title: &str, text: &str) -> almirah_answer::evidence::Evidence {
    almirah_answer::evidence::Evidence::plain(key, title, text)
}

#[test]
fn the_builtin_answers_by_meaning_what_it_covers_in_other_words() {
    use almirah_answer::model::ChatModel;
    // RFC 9110 says "have been replaced with 'content'", not "the right term".
    let q = "Is \"payload body\" still the right term for the data carried in an HTTP message?";
    let file = "versions_rfc_http/text/rfc9110.txt";
    let evidence = [
        chunk("rfc9110::text#769", "RFC 9110", &corpus_paragraph(file, "\"payload body\" have been replaced")),
        chunk("rfc9110::text#770", "RFC 9110", &corpus_paragraph(file, "The term \"effective request URI\" has been")),
        chunk(
            "rfc9112::text#56",
            "RFC 9112",
            &corpus_paragraph("versions_rfc_http/text/rfc9112.txt", "of an HTTP/1.1 message is used"),
        ),
        chunk("rfc9110::text#167", "RFC 9110", &corpus_paragraph(file, "might consist of a stream of data")),
    ];
    let words_alone =
        BuiltinModel::default().answer(&almirah_answer::question::Question::parse(q), &evidence, None).unwrap();
    assert!(
        words_alone.sentences.is_empty(),
        "by words alone it covers half the question: {:?}",
        words_alone.sentences
    );
    let meaning = BuiltinModel::with_meaning(engine().shared_embedder().unwrap());
    let draft = meaning.answer(&almirah_answer::question::Question::parse(q), &evidence, None).unwrap();
    let (first, keys) = draft.sentences.first().expect("an answer by meaning");
    assert!(first.contains("have been replaced with \"content\""), "{first}");
    assert_eq!(keys, &vec!["rfc9110::text#769".to_string()]);
    // Close in meaning is not enough when the question asks for an amount
    // the sentence does not hold (sample-docs/robotics/p01.txt).
    let about = chunk(
        "p01::text#1",
        "p01",
        "Fjordbot Robotics is a small Norwegian company that builds inspection and warehouse robots.",
    );
    let revenue = meaning
        .answer(
            &almirah_answer::question::Question::parse("What is Fjordbot Robotics' annual revenue?"),
            &[about],
            None,
        )
        .unwrap();
    assert!(revenue.sentences.is_empty(), "{:?}", revenue.sentences);
}

#[test]
fn a_best_sentence_without_the_duration_asked_for_is_joined_by_one_that_states_it() {
    use almirah_answer::model::ChatModel;
    // The 18F "first-time travel: get in Concur" pages (pre-OLU, 2024-01-04,
    // link text as extracted; and 2025-01-08, step 4 as written).
    let q = "How long does it take to get my Concur account set up after I send the CGE form?";
    let page = "versions_18f_travel_leave/travel-and-leave/travel-and-leave-policies/first-time-travel-get-in-concur/2025-01-08_133556f.md";
    let evidence = [
        chunk(
            "first-time-travel-get-in-concur-pre-olu@2024-01-04::text#4",
            "Get set up to travel for TTS before GSA onboarding",
            "You can apply to be reimbursed for your travel expenses as soon as your return from your trip and have \
             full access to Concur. Once you have completed the IT Security Awareness and Privacy Act trainings in \
             GSA's Online University (OLU), you can apply for access to Concur by completing the CGE Access Request \
             Form and sending it to tts-travel@gsa.gov.",
        ),
        almirah_answer::evidence::Evidence {
            heading_path: vec!["4. Email Completed Form(s) and Certificates(s) to TTS Travel (OLU)".into()],
            ..chunk(
                "first-time-travel-get-in-concur@2025-01-08::4-email#1",
                "Get access to Concur",
                &[
                    corpus_paragraph(page, "Standard Travelers: Please email"),
                    corpus_paragraph(page, "Do not email your request"),
                    corpus_paragraph(page, "Please allow 10 business days"),
                ]
                .join("\n\n"),
            )
        },
    ];
    let words_alone =
        BuiltinModel::default().answer(&almirah_answer::question::Question::parse(q), &evidence, None).unwrap();
    let text =
        |d: &almirah_answer::model::Draft| d.sentences.iter().map(|(s, _)| s.as_str()).collect::<Vec<_>>().join(" ");
    assert!(!text(&words_alone).contains("10 business days"), "{}", text(&words_alone));
    let meaning = BuiltinModel::with_meaning(engine().shared_embedder().unwrap());
    let draft = meaning.answer(&almirah_answer::question::Question::parse(q), &evidence, None).unwrap();
    let valued = draft.sentences.iter().find(|(s, _)| s.contains("Please allow 10 business days"));
    assert!(valued.is_some_and(|(_, keys)| keys[0].ends_with("4-email#1")), "{:?}", draft.sentences);
}

/// `text` with Markdown links reduced to their text, as extraction reads them.
fn link_text(text: &str) -> String {
    regex::Regex::new(r"\[([^\]]*)\]\([^)]*\)").unwrap().replace_all(text, "$1").into_owned()
}

#[test]
fn a_sentence_that_opens_with_this_answers_with_the_sentence_before_it() {
    use almirah_answer::model::ChatModel;
    // The 18F paid parental leave page (2024-12-18) and the VLTP page (2024-11-26).
    let root = "versions_18f_travel_leave/travel-and-leave";
    let q = "Can I combine paid parental leave with advanced leave or donated VLTP hours?";
    let ppl = format!("{root}/paid-parental-leave/2024-12-18_651a96c.md");
    let vltp = format!("{root}/voluntary-leave-transfer-program/2024-11-26_9e1c326.md");
    let evidence = [
        almirah_answer::evidence::Evidence {
            heading_path: vec!["Combining paid parental leave with other leave".into(), "Other paid leave".into()],
            ..chunk(
                "paid-parental-leave@2024-12-18::other-paid-leave#1",
                "Paid parental leave",
                &link_text(&corpus_paragraph(&ppl, "This includes advanced annual")),
            )
        },
        chunk(
            "voluntary-leave-transfer-program@2024-11-26::using-donated-hours#1",
            "Voluntary Leave Transfer Program",
            &link_text(&corpus_paragraph(&vltp, "Donated hours can retroactively")),
        ),
    ];
    let draft = BuiltinModel::default().answer(&almirah_answer::question::Question::parse(q), &evidence, None).unwrap();
    let (first, keys) = draft.sentences.first().expect("an answer");
    assert!(
        first.starts_with(
            "You can also use annual, award, and sick leave for parental leave reasons. This includes advanced annual"
        ),
        "{first}"
    );
    assert_eq!(keys, &vec!["paid-parental-leave@2024-12-18::other-paid-leave#1".to_string()]);
}

#[test]
fn the_sentence_right_after_the_best_adds_what_it_leaves_out() {
    use almirah_answer::model::ChatModel;
    // The 18F advanced sick leave page (2024-11-26): the paperwork list.
    let page = "versions_18f_travel_leave/travel-and-leave/advanced-sick-leave/2024-11-26_9e1c326.md";
    let q = "What should my written explanation for advanced sick leave include?";
    let evidence = [chunk(
        "advanced-sick-leave@2024-11-26::getting-approval-for-advanced-sick-leave#1",
        "Advanced sick leave",
        &link_text(&corpus_paragraph(page, "A written explanation of the circumstances")),
    )];
    let draft = BuiltinModel::default().answer(&almirah_answer::question::Question::parse(q), &evidence, None).unwrap();
    let texts: Vec<&str> = draft.sentences.iter().map(|(s, _)| s.as_str()).collect();
    assert_eq!(texts.len(), 2, "{texts:?}");
    assert!(texts[0].contains("A written explanation of the circumstances"), "{texts:?}");
    assert_eq!(texts[1], "Include how many hours you are requesting.", "{texts:?}");
}

/// The HotpotQA paragraph titled `title` (qa_multihop, 100 train questions' pool).
fn hotpot_paragraph(title: &str) -> almirah_answer::evidence::Evidence {
    let root = std::env::var_os("ALMIRAH_CORPORA")
        .map_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpora"), Into::into);
    let raw = std::fs::read_to_string(root.join("qa_multihop/hotpotqa/hotpotqa_train_100_corpus.json")).unwrap();
    let corpus: std::collections::BTreeMap<String, Vec<String>> = serde_json::from_str(&raw).unwrap();
    chunk(&format!("{title}::text#1"), title, &corpus[title].concat())
}

#[test]
fn both_questions_are_answered_yes_or_no_from_one_sentence_about_each() {
    use almirah_answer::model::ChatModel;
    let m = BuiltinModel::default();
    let text = |d: &almirah_answer::model::Draft| d.sentences.iter().map(|(s, _)| s.clone()).collect::<Vec<_>>();
    let directors = [hotpot_paragraph("Christopher Nolan"), hotpot_paragraph("Sathish Kalathil")];
    let yes = m
        .answer(
            &almirah_answer::question::Question::parse(
                "Are Christopher Nolan and Sathish Kalathil both film directors?",
            ),
            &directors,
            None,
        )
        .unwrap();
    assert!(text(&yes)[0].starts_with("Yes: both are film directors. Christopher Edward Nolan"), "{:?}", text(&yes));
    assert_eq!(yes.sentences[1].1, vec!["Sathish Kalathil::text#1".to_string()]);
    // A true "no": both are film directors, one is not American.
    let american = [hotpot_paragraph("King Vidor"), hotpot_paragraph("Géza von Cziffra")];
    let no = m
        .answer(
            &almirah_answer::question::Question::parse("Are King Vidor and Géza von Cziffra both American directors?"),
            &american,
            None,
        )
        .unwrap();
    assert!(text(&no)[0].starts_with("No: Géza von Cziffra"), "{:?}", text(&no));
    assert!(text(&no)[0].contains("Hungarian and Austrian film director"), "{:?}", text(&no));
    // Evidence about only one of the two settles nothing.
    let one = m
        .answer(
            &almirah_answer::question::Question::parse("Are King Vidor and Sathish Kalathil both American directors?"),
            &american,
            None,
        )
        .unwrap();
    assert!(one.sentences.iter().all(|(s, _)| !s.starts_with("Yes") && !s.starts_with("No")), "{:?}", text(&one));
}

/// HotpotQA paragraphs: a second sentence from another page joins the
/// answer only when that page is titled with a name the question gives.
#[test]
fn a_second_sentence_from_another_page_needs_that_page_to_be_named() {
    use almirah_answer::model::ChatModel;
    let m = BuiltinModel::default();
    let keys = |d: &almirah_answer::model::Draft| d.sentences.iter().map(|(_, k)| k[0].clone()).collect::<Vec<_>>();
    let pages = [hotpot_paragraph("Qvwm"), hotpot_paragraph("Linux Format")];
    let named = m
        .answer(
            &almirah_answer::question::Question::parse(
                "What is the abbreviation to Linux Format \"an unusually impressive imposter\"?",
            ),
            &pages,
            None,
        )
        .unwrap();
    assert!(keys(&named).contains(&"Linux Format::text#1".to_string()), "{:?}", named.sentences);
    assert!(named.sentences.iter().any(|(s, _)| s.contains("LXF")), "{:?}", named.sentences);
    // Simon & Simon is named by no page title: a neighbour from another page stays out.
    let pages = [hotpot_paragraph("Simon Schatzberger"), hotpot_paragraph("Qvwm")];
    let unnamed = m
        .answer(
            &almirah_answer::question::Question::parse("Which television actor appeared in Press Gang?"),
            &pages,
            None,
        )
        .unwrap();
    let documents: std::collections::BTreeSet<String> =
        keys(&unnamed).iter().map(|k| k.split("::").next().unwrap_or_default().to_string()).collect();
    assert!(documents.len() <= 1, "{:?}", unnamed.sentences);
}
