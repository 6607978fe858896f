//! Choosing the answer sentences: the best-scored sentence that covers
//! enough of the question (or holds the value it asks for), plus one that
//! covers what the first leaves out; abstention when the evidence does not
//! speak of what was asked, or names nothing the question names.

use std::collections::BTreeSet;

use super::names::mentions_one_of;
use super::{
    BuiltinModel, CONTEXT_SENTENCES, MAX_CHUNKS, MAX_SENTENCES, MAX_UNKNOWN_TYPED, MIN_COVERAGE, Question, Scored,
    TERMS_FOR_UNKNOWN, YES_NO_KNOWN, scope, states_amount,
};
use crate::evidence::{Evidence, document_of};

/// Coverage of a sentence added for the value the best one lacks.
const VALUE_COVERAGE: f32 = 0.2;
/// Cosine by meaning it needs to the question.
const VALUE_MEANING: f32 = 0.5;

impl BuiltinModel {
    /// The best sentence if it covers enough of the question, plus at most
    /// one more: one that holds the value asked for when the first does
    /// not, else one that covers a question term the first does not.
    pub fn select(&self, question: &Question, evidence: &[Evidence]) -> Vec<Scored> {
        let speaks_of = self.evidence_speaks_of(question, evidence);
        if !speaks_of && !super::dump::enabled() {
            return Vec::new();
        }
        let kept = self.keeps(question, evidence);
        let all = self.score_sentences(question, evidence);
        // The typed threshold holds only when the evidence mentions all but
        // at most one term of the question somewhere ("extra days off for a
        // teammate's wedding?", asked of pages that never say "extra" or
        // "wedding", is not answered by a sentence that holds a number of days).
        // So does a sentence close in meaning with less coverage.
        // In a short question the one unknown term is its subject ("What is
        // the parking fee?" asked of pages that never say "parking"): it
        // may be unknown only when the question has [`TERMS_FOR_UNKNOWN`].
        let Familiarity { unknown, known, subject_unknown } = self.familiarity(question, evidence);
        let gate = super::dump::Gate { speaks_of, unknown, known };
        super::dump::gated(self, question, &all, evidence, Some(gate), &kept);
        if !speaks_of {
            return Vec::new();
        }
        let scored: Vec<Scored> = all.into_iter().filter(|s| kept(s)).collect();
        for s in scored.iter().take(5) {
            tracing::debug!(coverage = s.coverage, score = s.score, meaning = ?s.meaning, typed = s.typed, key = %s.key, text = %s.text, "candidate");
        }
        // A paraphrase that shares few words answers when the fitted
        // clause is confident of it ([`super::confidence`]); not a short
        // question whose subject the evidence never names.
        let Some(best) = scored.iter().find(|s| {
            s.covers_enough()
                || (known && (s.answers() || s.close_in_meaning()))
                || (!subject_unknown && super::confidence::confident(s, retrieval(evidence, s)))
        }) else {
            return Vec::new();
        };
        let q = question.asked_terms();
        let covered = self.content_terms(&best.text);
        let missing: BTreeSet<&String> = q.iter().filter(|t| !covered.contains(*t)).collect();
        let mut chosen = vec![best.clone()];
        // When the best sentence lacks the value asked for ("How long does
        // it take …?" answered by how to apply), the second is the best one
        // that holds it and is close in meaning ("Please allow 10 business
        // days for your account setup.").
        let valued = scored.iter().skip(1).filter(|_| best.lacks_value).find(|s| {
            s.typed
                && !s.overlaps(best)
                && s.coverage >= VALUE_COVERAGE
                && s.meaning.is_some_and(|m| m >= VALUE_MEANING)
        });
        let adds = |s: &&Scored| {
            let own = self.content_terms(&s.text);
            !s.overlaps(best) && s.coverage >= MIN_COVERAGE * 0.5 && missing.iter().any(|t| own.contains(*t))
        };
        // The sentence right after the best goes on about the same thing
        // ("A written explanation of the circumstances … Include how many
        // hours you are requesting."): it comes first when it adds a term.
        let follows = scored.iter().filter(|s| s.key == best.key && s.at == (best.at.0, best.at.1 + 1)).find(adds);
        // Otherwise the best that adds a term, from the same document: a
        // sentence from another page that shares a word is more often a
        // neighbour than the rest of the answer. Another page may add what
        // the best lacks: the value asked for, another thing the question
        // names ("The Exies or Circus Diablo"), or the page of a name the
        // question gives (the "Linux Format" page, after a sentence that
        // quotes Linux Format on the Qvwm page).
        let names = self.named_terms(question);
        let best_names = self.content_terms(&best.text);
        let title_names = |key: &str| -> BTreeSet<String> {
            let title = evidence.iter().find(|e| e.key == key).map_or("", |e| e.title.as_str());
            self.content_terms(title).into_iter().filter(|t| names.contains(t)).collect()
        };
        let best_title = title_names(&best.key);
        let same_document = |s: &&Scored| {
            let names_another =
                || self.content_terms(&s.text).iter().any(|t| names.contains(t) && !best_names.contains(t));
            let page_of_a_name = || title_names(&s.key).iter().any(|t| !best_title.contains(t));
            document_of(&s.key) == document_of(&best.key) || best.lacks_value || names_another() || page_of_a_name()
        };
        // "Which forms …?" asks for several: the next item of the best's list
        // ("- Complete the Paid Parental Leave Request form" then "- Complete
        // the … Service Agreement form") is one more.
        let sibling = scored.iter().filter(|_| asks_for_several(question)).find(|s| {
            s.key == best.key && s.at == (best.at.0, best.at.1 + 1) && list_item(&s.text) && list_item(&best.text)
        });
        let extra = valued.or(sibling).or(follows).or_else(|| scored.iter().skip(1).filter(same_document).find(adds));
        if let Some(e) = extra.filter(|_| MAX_SENTENCES > 1) {
            chosen.push(e.clone());
        }
        chosen
    }

    /// Every sentence of `evidence` scored for `question`, best first, that
    /// the answerer's filters keep: it holds an amount when the question
    /// asks for one, and its chunk names every name the question gives.
    /// What a model that picks ([`crate::pick`]) chooses from.
    pub fn kept_candidates(&self, question: &Question, evidence: &[Evidence]) -> Vec<Scored> {
        let kept = self.keeps(question, evidence);
        self.score_in(question, evidence, evidence.len()).into_iter().filter(|s| kept(s)).collect()
    }

    /// The answerer's filters: a candidate holds an amount when the question
    /// asks for one, and comes from a source that mentions every name the
    /// question gives (an acronym, a place, a person), itself or through a
    /// sibling section that names it ([`super::names::bridged_chunks`]): "On
    /// a Maxiflex schedule …" is not answered by the standard schedule's chunk.
    fn keeps<'e>(&self, question: &Question, evidence: &'e [Evidence]) -> impl Fn(&Scored) -> bool + 'e {
        let wants_amount = question.asks_for_amount();
        let alternatives = question.name_alternatives();
        let mut named = self.chunks_naming(alternatives, evidence);
        let bridged = super::names::bridged_chunks(self, alternatives, question.terms(), evidence, &named);
        named.extend(bridged);
        move |s: &Scored| (!wants_amount || states_amount(&s.text)) && named.contains(s.key.as_str())
    }

    /// Sentences that answer `ask` (the best by the gate's clauses, each
    /// after it by coverage; an amount when it asks for one), ranked by
    /// meaning against the ask in the situation the `context` describes
    /// ("3-day audit in Hyderabad … personal reasons"), and after the best
    /// only those that speak of that situation: at most [`CONTEXT_SENTENCES`], from distinct chunks, over
    /// all the evidence the agent gathered.
    pub fn select_in_context(&self, ask: &Question, context: &str, evidence: &[Evidence]) -> Vec<Scored> {
        if !self.evidence_speaks_of(ask, evidence) {
            return Vec::new();
        }
        let situation = self.content_terms(context);
        let kept = self.keeps(ask, evidence);
        let Familiarity { known, subject_unknown, .. } = self.familiarity(ask, evidence);
        let all = self.score_in_situation(ask, context, evidence);
        super::dump::candidates(self, ask, &all, evidence);
        // The clauses of [`BuiltinModel::select`]'s gate admit the first
        // sentence; each after it must cover enough of the ask ([`Scored::answers`]).
        let admits = |s: &Scored| {
            s.answers()
                || (known && s.close_in_meaning())
                || (!subject_unknown && super::confidence::confident(s, retrieval(evidence, s)))
        };
        let scored: Vec<Scored> = all.into_iter().filter(|s| admits(s) && kept(s)).collect();
        let mut chosen: Vec<Scored> = Vec::new();
        for s in scored {
            // After the best, a sentence must also speak of the situation.
            let relevant = chosen.is_empty()
                || (s.answers() && self.content_terms(&s.text).intersection(&situation).next().is_some());
            if chosen.len() < CONTEXT_SENTENCES && relevant && !chosen.iter().any(|c| c.key == s.key) {
                chosen.push(s);
            }
        }
        chosen
    }

    /// Keys of the chunks whose title, headings or text mention every name
    /// of one of the `alternatives` ([`Question::name_alternatives`]).
    fn chunks_naming<'e>(&self, alternatives: &[Vec<String>], evidence: &'e [Evidence]) -> BTreeSet<&'e str> {
        evidence
            .iter()
            .filter(|e| {
                let source = format!("{} {} {}", e.title, e.heading_path.join(" "), e.text);
                mentions_one_of(self, alternatives, &source)
            })
            .map(|e| e.key.as_str())
            .collect()
    }

    /// How well the evidence knows the question's terms ([`Familiarity`]).
    fn familiarity(&self, question: &Question, evidence: &[Evidence]) -> Familiarity {
        let unknown = self.unknown_terms(question, evidence);
        let terms = question.asked_terms().len();
        Familiarity {
            unknown,
            known: unknown == 0 || (unknown <= MAX_UNKNOWN_TYPED && terms >= TERMS_FOR_UNKNOWN),
            subject_unknown: unknown > 0 && terms < TERMS_FOR_UNKNOWN,
        }
    }

    /// How many of the question's content terms the evidence (text, title
    /// or headings of the first chunks) never mentions.
    pub fn unknown_terms(&self, question: &Question, evidence: &[Evidence]) -> usize {
        let known = self.evidence_terms(&evidence_texts(evidence));
        question.asked_terms().iter().filter(|t| !known.contains(*t)).count()
    }

    /// The content terms of `texts`, together.
    fn evidence_terms(&self, texts: &[String]) -> BTreeSet<String> {
        texts.iter().flat_map(|t| self.content_terms(t)).collect()
    }

    /// Whether the evidence mentions every input number of the question
    /// and, for a yes/no question, [`YES_NO_KNOWN`] of its content terms
    /// and every name it gives, somewhere (text, title or headings). "Is
    /// there parking at the Oslo office?", asked of documents that never
    /// say "parking", is out of scope however well
    /// "Oslo office" matches; a yes/no answer is about that one thing.
    pub fn evidence_speaks_of(&self, question: &Question, evidence: &[Evidence]) -> bool {
        let texts = evidence_texts(evidence);
        let known = self.evidence_terms(&texts);
        let terms_known = !question.asks_yes_no() || {
            let all = texts.join(" ");
            let alternatives = question.name_alternatives();
            // The words of an alternative the evidence does not name ("TSA
            // PreCheck" beside "Global Entry") are not asked of it.
            let unnamed: BTreeSet<String> = alternatives
                .iter()
                .filter(|group| alternatives.len() > 1 && !mentions_one_of(self, std::slice::from_ref(*group), &all))
                .flat_map(|group| self.content_terms(&group.join(" ")))
                .collect();
            // The terms of the sentence that asks: a situation told before
            // it ("I posted something I regret. Can I delete it?") is not
            // what the yes or no is about.
            let asked = question.ask_terms();
            let terms: Vec<&String> = asked.iter().filter(|t| !unnamed.contains(*t)).collect();
            let share = terms.iter().filter(|t| known.contains(**t)).count() as f32 / terms.len().max(1) as f32;
            share >= YES_NO_KNOWN && mentions_one_of(self, alternatives, &all)
        };
        let numbers_known = question.input_numbers().iter().all(|n| texts.iter().any(|t| scope::mentions_number(t, n)));
        terms_known && numbers_known
    }
}

/// What the answer gate knows of the evidence for a question.
struct Familiarity {
    /// How many of the question's terms the evidence never mentions
    /// ([`BuiltinModel::unknown_terms`]).
    unknown: usize,
    /// Whether that is few enough for the typed and meaning clauses: none,
    /// or one in a question of [`TERMS_FOR_UNKNOWN`] terms or more.
    known: bool,
    /// Whether an unknown term is a short question's subject, which no
    /// clause answers.
    subject_unknown: bool,
}

/// Whether `question` asks for several things: "Which forms …", "What
/// documents …" (a plural noun right after the question word).
pub fn asks_for_several(question: &Question) -> bool {
    let words = question.words();
    let word = |i: usize| words.get(i).cloned().unwrap_or_default();
    let (first, second) = (word(0), word(1));
    // Verbs and nouns in -s that are not plurals.
    let not_plural = [
        "does", "happens", "counts", "means", "goes", "applies", "includes", "campus", "status", "this", "focus",
        "bonus", "basis", "thesis", "analysis",
    ];
    matches!(first.as_str(), "which" | "what")
        && second.len() > 3
        && second.ends_with('s')
        && !second.ends_with("ss")
        && !not_plural.contains(&second.as_str())
}

/// Whether a sentence is a list item: it opens with "-", "*", "•" or a
/// number ("1.").
fn list_item(s: &str) -> bool {
    let s = s.trim_start();
    s.starts_with(['-', '*', '•']) || s.starts_with(char::is_numeric)
}

/// The fused search score of the chunk `s` comes from (0 for one not in `evidence`).
fn retrieval(evidence: &[Evidence], s: &Scored) -> f32 {
    evidence.iter().find(|e| e.key == s.key).map_or(0.0, |e| e.score)
}

/// Title, headings and text of each of the first [`MAX_CHUNKS`] chunks.
fn evidence_texts(evidence: &[Evidence]) -> Vec<String> {
    evidence.iter().take(MAX_CHUNKS).map(|e| format!("{} {} {}", e.title, e.heading_path.join(" "), e.text)).collect()
}
