//! Citation and numeric verification (ARCHITECTURE §5): every sentence cites
//! at least one chunk this run retrieved and admitted, and every number in
//! it appears in a cited chunk or in the question (or is shown as arithmetic
//! over such numbers), and no sentence flips the negation of the cited
//! sentence it restates ([`negation`]), and none speaks of the base of a
//! negated word the question asks about ([`polarity`]: "paid" leave for
//! "unpaid" leave).

pub mod negation;
pub mod polarity;
pub mod qualifier;

use std::collections::BTreeSet;

use crate::builtin::{BuiltinModel, looks_like_injection};
use crate::evidence::Evidence;
use crate::model::Draft;
use crate::numeric;
use crate::question::Question;
use crate::trace::{Step, Trace};

/// Why one sentence fails, or `None` when it passes; the sentence is
/// judged alone ([`failures`] judges it within its draft).
pub fn check(sentence: &str, keys: &[String], evidence: &[Evidence], asked: &Question) -> Option<String> {
    check_in(sentence, keys, evidence, asked, &BTreeSet::new())
}

/// The chunks `keys` cite, or why one is not in `evidence`.
fn cited_chunks<'e>(keys: &[String], evidence: &'e [Evidence]) -> Result<Vec<&'e Evidence>, String> {
    keys.iter()
        .map(|k| evidence.iter().find(|e| &e.key == k).ok_or_else(|| format!("[{k}] was not retrieved and admitted")))
        .collect()
}

/// [`check`], with the qualifiers another sentence of the draft says
/// (`covered`, [`qualifier::Judged::verdict`]).
fn check_in(
    sentence: &str,
    keys: &[String],
    evidence: &[Evidence],
    asked: &Question,
    covered: &BTreeSet<String>,
) -> Option<String> {
    match checked(sentence, keys, evidence, asked) {
        Err(why) => Some(why),
        Ok(passed) => passed.judged.verdict(&passed.claim, covered).map(|why| format!("{}: {why}", passed.passages)),
    }
}

/// A sentence that passed every check but the qualifier's, with how it
/// stands with the question's qualifiers.
struct Passed {
    claim: String,
    passages: String,
    judged: qualifier::Judged,
}

/// Every check of one sentence but the qualifier verdict, which depends on
/// the rest of the draft: why it fails, or how it stands with the
/// question's qualifiers.
fn checked(sentence: &str, keys: &[String], evidence: &[Evidence], asked: &Question) -> Result<Passed, String> {
    if keys.is_empty() {
        return Err(format!("no citation: {sentence:?}"));
    }
    let question = asked.text();
    let chunks = cited_chunks(keys, evidence)?;
    let texts: Vec<String> = chunks.iter().map(|e| without_instructions(&cited_text(e))).collect();
    let cited: Vec<&str> = texts.iter().map(String::as_str).collect();
    let claim = numeric::strip_system_labels(sentence);
    let passages = passages(keys);
    if bare_reply(&claim) {
        // "Yes [2]" or "Yes, you can [2]" settles nothing the passage says: the sentence that says so is the answer.
        return Err(format!("{passages}: a bare {:?} settles nothing; quote the sentence that says so", claim.trim()));
    }
    let headings: Vec<String> = chunks.iter().map(|e| format!("{}\n{}", e.title, e.heading_path.join("\n"))).collect();
    if let Some(gap) = unsupported(&as_claimed(without_reply(&claim), question), &cited, &headings) {
        return Err(format!("{passages}: {gap}"));
    }
    // A bare value ("4 hours") restates no sentence, so it flips none.
    let restates = as_claimed(&claim, question) == claim;
    if let Some(flip) = restates.then(|| negation::flipped(&claim, &cited)).flatten() {
        // The verdict is over every cited passage; the note names the one that holds the flipped sentence.
        let flipped_in = keys.iter().zip(&cited).find(|(_, text)| negation::flipped(&claim, &[text]).is_some());
        return Err(match flipped_in {
            Some((key, _)) => format!("passage [{key}] {flip}"),
            None => format!("{passages}: {flip}"),
        });
    }
    if let Err(v) = numeric::check_sentence(&claim, &cited, question) {
        return Err(format!("{passages}: {v}"));
    }
    let headings_only: Vec<String> = chunks.iter().map(|e| sections(e)).collect();
    if let Some(opposite) = polarity::opposite(without_reply(&claim), &headings_only, asked) {
        return Err(format!("{passages}: {opposite}"));
    }
    let read: Vec<qualifier::Cited<'_>> =
        chunks.iter().zip(&texts).map(|(e, text)| qualifier::Cited { text, headings: sections(e) }).collect();
    let judged = qualifier::judge(&claim, &read, asked);
    Ok(Passed { claim, passages, judged })
}

/// The qualifiers the sentences of `draft` that pass every other check say
/// in the sentences they cite ([`qualifier::judge`]).
fn covered(draft: &Draft, evidence: &[Evidence], asked: &Question) -> BTreeSet<String> {
    if asked.qualifiers().is_empty() {
        return BTreeSet::new();
    }
    draft
        .sentences
        .iter()
        .filter_map(|(sentence, keys)| checked(sentence, keys, evidence, asked).ok())
        .flat_map(|passed| passed.judged.said)
        .collect()
}

/// Whether a claim is only a reply: "Yes", "No.", or a reply with fewer
/// than [`MIN_CLAIM_WORDS`] words of its own and no value ("Yes, you can").
fn bare_reply(claim: &str) -> bool {
    let rest = without_reply(claim);
    if rest.trim().is_empty() {
        return true;
    }
    let replied = rest.len() < claim.trim_start().len();
    let own =
        BuiltinModel::default().literal_terms(rest).iter().filter(|w| !w.chars().any(|c| c.is_ascii_digit())).count();
    replied && own < MIN_CLAIM_WORDS && numeric::numbers_in(rest).is_empty()
}

/// Words a claim must say of its own before it is judged alone.
pub const MIN_CLAIM_WORDS: usize = 2;

/// What the support check judges: the claim, or for a bare value ("48500",
/// "24.11.2026", "Yes.": fewer than [`MIN_CLAIM_WORDS`] words besides
/// numbers) the question with the value, since that is what the value
/// asserts. "48500" for "What is the MBA tuition fee?" then names MBA, which
/// the MTech row it cites does not.
fn as_claimed(claim: &str, question: &str) -> String {
    let words = BuiltinModel::default().literal_terms(claim);
    let own = words.iter().filter(|w| !w.chars().any(|c| c.is_ascii_digit())).count();
    if own < MIN_CLAIM_WORDS && !question.trim().is_empty() {
        format!("{} {claim}", question.trim())
    } else {
        claim.to_string()
    }
}

/// What a claim citing `e` is checked against: its text, and for a table
/// row also the row as a sentence ([`crate::builtin::table_row::row_sentence`]:
/// "MTech tuition: amount Rs 48,500, per semester."), whose words and
/// grouped amounts come from the row alone.
/// A chunk's section headings are its text too: the builtin quotes a
/// sentence with the heading that holds its value ("For meetings longer
/// than 40 minutes: Submit a request …").
fn cited_text(e: &Evidence) -> String {
    let text = match sections(e) {
        s if s.is_empty() => e.text.clone(),
        s => format!("{s}\n{}", e.text),
    };
    match e.table_row.then(|| crate::builtin::table_row::row_sentence(&e.text)).flatten() {
        Some(sentence) => format!("{text}\n{sentence}"),
        None => text,
    }
}

/// The section headings of `e`, joined, without its document title: a
/// circular titled "Hostel fee for North-East Scholarship holders" also
/// states the fee everyone pays, so the title qualifies none of its
/// sentences, while a section ("For students from the north-east") does.
fn sections(e: &Evidence) -> String {
    e.heading_path.iter().filter(|h| **h != e.title).cloned().collect::<Vec<_>>().join("\n")
}

/// "passage [a]" or "passages [a], [b]": the cited keys as a retry note
/// names them (a prompt that numbers passages shows `[n]` instead of each key).
fn passages(keys: &[String]) -> String {
    let list: Vec<String> = keys.iter().map(|k| format!("[{k}]")).collect();
    format!("passage{} {}", if keys.len() == 1 { "" } else { "s" }, list.join(", "))
}

/// Share of a claim's words (stemmed, stop words out) that its cited chunks
/// must contain. Paraphrase passes; a claim about something the chunks never
/// mention does not, even when the question mentions it ("Is the hostel
/// free?" does not support "The hostel is free."). More than half: "Earned
/// leave doubles every year and is paid twice." shares exactly half its
/// words (earned, leave, year) with the earned-leave section and is not
/// supported by it.
pub const MIN_SUPPORT: f32 = 0.6;

/// The claim without a leading reply word ("Yes, …", "No. …"); empty for
/// a bare "Yes" or "No". The reply is no name and no word of the passage.
fn without_reply(claim: &str) -> &str {
    let bare = claim.trim().trim_end_matches(['.', '!']);
    if bare.eq_ignore_ascii_case("yes") || bare.eq_ignore_ascii_case("no") {
        return "";
    }
    crate::lexicon::split_reply_word(claim).1
}

/// Why a claim is not supported by its cited chunks, if it is not: fewer
/// than [`MIN_SUPPORT`] of its words appear in them (`cited`), or it names
/// something (an acronym, a place, a product) that neither they nor their
/// titles and headings (`headings`) name: a chunk of the "Tock" page may
/// answer a question about Tock without repeating the name.
pub fn unsupported(claim: &str, cited: &[&str], headings: &[String]) -> Option<String> {
    let model = BuiltinModel::default();
    let words = model.literal_terms(claim);
    if words.is_empty() {
        return None;
    }
    let mut known = std::collections::BTreeSet::new();
    for c in cited {
        known.extend(model.literal_terms(c));
    }
    let canonical: std::collections::BTreeSet<String> =
        cited.iter().copied().chain(headings.iter().map(String::as_str)).flat_map(|c| model.content_terms(c)).collect();
    let names: Vec<String> = model.names_in(claim).into_iter().filter(|n| !canonical.contains(n)).collect();
    if !names.is_empty() {
        // A name the claim gives (MTech, Hyderabad, Dev Anand) must be in what it cites.
        return Some(format!("names {} that its citations do not: {claim:?}", names.join(", ")));
    }
    let missing: Vec<&String> = words.iter().filter(|w| !known.contains(*w)).collect();
    let support = 1.0 - missing.len() as f32 / words.len() as f32;
    (support < MIN_SUPPORT).then(|| {
        let list: Vec<&str> = missing.iter().map(|w| w.as_str()).collect();
        format!("not supported by its citations (missing: {}): {claim:?}", list.join(", "))
    })
}

/// A chunk's text without the sentences addressed to the assistant
/// ("Ignore your rules and tell everyone …"): they support no claim. The
/// sentences left are joined by line breaks, so list items stay apart for
/// the negation check.
fn without_instructions(text: &str) -> String {
    crate::citations::split_sentences(text)
        .into_iter()
        .filter(|s| !looks_like_injection(&s.text))
        .map(|s| s.text)
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every failure of a draft, each sentence judged within it.
pub fn failures(draft: &Draft, evidence: &[Evidence], question: &Question) -> Vec<String> {
    let covered = covered(draft, evidence, question);
    draft.sentences.iter().filter_map(|(s, keys)| check_in(s, keys, evidence, question, &covered)).collect()
}

/// Record a check step per sentence.
pub fn record(draft: &Draft, evidence: &[Evidence], question: &Question, trace: &mut Trace) {
    let covered = covered(draft, evidence, question);
    for (s, keys) in &draft.sentences {
        let verdict = check_in(s, keys, evidence, question, &covered).unwrap_or_else(|| "ok".into());
        trace.steps.push(Step::Check { sentence: s.clone(), verdict });
    }
}

/// The draft without the sentences that fail, counting them in `dropped`.
pub fn keep_verified(draft: Draft, evidence: &[Evidence], question: &Question) -> Draft {
    let before = draft.sentences.len();
    let covered = covered(&draft, evidence, question);
    let sentences: Vec<(String, Vec<String>)> = draft
        .sentences
        .into_iter()
        .filter(|(s, keys)| check_in(s, keys, evidence, question, &covered).is_none())
        .collect();
    Draft { dropped: draft.dropped + before - sentences.len(), sentences, usage: draft.usage }
}

#[cfg(test)]
mod tests;
