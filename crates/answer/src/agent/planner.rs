//! The builtin model's deterministic planner: how the offline model drives
//! the same agent loop as a real one (ARCHITECTURE §5, §6). It searches
//! each statement of the question's context and each asked part (with the
//! context attached), carries the entity one hop finds into the next (up to
//! 3 hops), and looks a row up in a table when a search returned rows of
//! one and the part names a cell of it ("MTech", "hostel"). When the plan
//! is done and a part is still uncovered, it searches each name of a
//! question that compares named things on its own ("Arthur's Magazine", "First for Women"): a
//! comparison or bridge question names its entities, and one search for the
//! whole question ranks only some of them high (the query decomposition of
//! multi-hop retrieval, e.g. Min et al. 2019, "Multi-hop Reading
//! Comprehension through Question Decomposition and Rescoring").

use serde_json::json;

use super::AgentContext;
use super::exec::ToolOutcome;
use super::sufficiency;
use super::tools::MAX_K;
use crate::builtin::BuiltinModel;
use crate::evidence::Evidence;
use crate::model::ToolCall;
use crate::plan::{MAX_HOPS, bridge_entity, fill};
use crate::question::Question;

/// The next tool call, or `None` when the plan is complete.
pub fn next_call(ctx: &AgentContext) -> Option<ToolCall> {
    let model = BuiltinModel::default();
    let mut answers: Vec<String> = Vec::new();
    for (query, k) in planned_queries(ctx) {
        let query = if ctx.hops { fill(&query, &answers)? } else { query };
        let Some(done) = find_search(ctx, &query) else {
            return Some(ToolCall { name: "search_documents".into(), arguments: json!({"query": query, "k": k}) });
        };
        if let Some(call) = table_follow_up(ctx, &query, done) {
            return Some(call);
        }
        if ctx.hops {
            let sentence = model.select(&Question::parse(&query), &done.evidence).into_iter().next()?;
            answers.push(bridge_entity(&sentence.text, &query)?);
        }
    }
    name_follow_up(ctx)
}

/// Hits asked for per name search.
pub const NAME_K: usize = 4;

/// Names searched on their own, at most, per question.
pub const MAX_NAMES: usize = 3;

/// A search for the first of the question's names not yet searched alone,
/// while some part is uncovered by the evidence so far, for a question that
/// compares two or more named things ("Arthur's Magazine or First for
/// Women", "Are both …"). Not for other questions: the evidence of more
/// searches tempts the extractive answerer to answer unanswerable ones
/// (measured on the MuSiQue unanswerable set: abstention recall 0.84 with
/// no name searches, 0.51 with them for every question, 0.72 for every
/// question naming two things).
fn name_follow_up(ctx: &AgentContext) -> Option<ToolCall> {
    let evidence: Vec<Evidence> = ctx.done.iter().flat_map(|o| o.evidence.iter().cloned()).collect();
    if evidence.is_empty() || sufficiency::covered(ctx, &evidence) {
        return None;
    }
    let names = name_phrases(&ctx.question);
    if names.len() < 2 || !compares(&ctx.question) {
        return None;
    }
    let name = names.into_iter().take(MAX_NAMES).find(|n| find_search(ctx, n).is_none())?;
    Some(ToolCall { name: "search_documents".into(), arguments: json!({"query": name, "k": NAME_K}) })
}

/// Whether the question compares things: "… A or B?", "both", "same",
/// "which … first".
fn compares(question: &str) -> bool {
    let q = format!(" {} ", question.to_lowercase().replace(['?', ','], " "));
    [" or ", " both ", " same ", " first ", " older ", " younger ", " earlier ", " later "]
        .iter()
        .any(|w| q.contains(w))
}

/// The names a question gives: runs of two or more capitalised words (or
/// one with a digit or in capitals, such as "RFC 9110", "GST"), joined
/// across "of", "for", "the", "and", "de" and "'s" ("Journal of
/// Psychotherapy Integration", "Arthur's Magazine"). The question's first
/// word counts only when the next word continues the name.
pub fn name_phrases(question: &str) -> Vec<String> {
    const JOINERS: &[&str] = &["of", "for", "the", "and", "de", "in"];
    const OPENERS: &[&str] = &[
        "what", "which", "who", "whom", "whose", "when", "where", "why", "how", "is", "are", "was", "were", "do",
        "does", "did", "can", "could", "should", "would", "will", "has", "have", "in", "on", "at", "for", "the", "a",
        "an", "i", "my", "tell", "list", "name",
    ];
    let words: Vec<&str> =
        question.split_whitespace().map(|w| w.trim_matches(|c: char| ",.?!;:\"()".contains(c))).collect();
    let capital = |w: &str| w.chars().next().is_some_and(|c| c.is_uppercase() || c.is_ascii_digit());
    let mut names = Vec::new();
    let mut run: Vec<&str> = Vec::new();
    let flush = |run: &mut Vec<&str>, names: &mut Vec<String>| {
        while run.last().is_some_and(|w| JOINERS.contains(w)) {
            run.pop();
        }
        let strong = run.len() >= 2
            || run
                .first()
                .is_some_and(|w| w.len() >= 2 && w.chars().all(|c| c.is_uppercase() || c.is_ascii_digit() || c == '-'));
        if strong && !names.contains(&run.join(" ")) {
            names.push(run.join(" "));
        }
        run.clear();
    };
    for (i, w) in words.iter().enumerate() {
        let next_capital = words.get(i + 1).is_some_and(|n| capital(n));
        let opener = i == 0 && OPENERS.contains(&w.to_lowercase().as_str());
        let starts_or_continues = capital(w) && !opener && (i > 0 || next_capital);
        let joins = !run.is_empty() && JOINERS.contains(w) && next_capital;
        if starts_or_continues || joins {
            run.push(w);
        } else {
            flush(&mut run, &mut names);
        }
    }
    flush(&mut run, &mut names);
    names
}

/// The searches the plan makes: for multi-hop questions the hop templates;
/// otherwise the context statements of the question, then each asked part
/// with the context attached.
pub fn planned_queries(ctx: &AgentContext) -> Vec<(String, usize)> {
    if ctx.hops {
        return ctx.parts.iter().take(MAX_HOPS).map(|p| (p.clone(), MAX_K)).collect();
    }
    let parts = if ctx.parts.is_empty() { std::slice::from_ref(&ctx.question) } else { &ctx.parts[..] };
    let (context, asks) = situation_and_asks(parts);
    let joined = context.join(" ");
    let mut queries: Vec<(String, usize)> = context.iter().flat_map(|c| clauses(c)).map(|c| (c, CLAUSE_K)).collect();
    for ask in asks {
        queries.push((if joined.is_empty() { ask } else { format!("{ask} {joined}") }, MAX_K));
    }
    queries.dedup();
    queries
}

/// The statements of `parts` (the situation a question is asked in) and
/// the sentences that ask (end with "?").
fn situation_and_asks(parts: &[String]) -> (Vec<String>, Vec<String>) {
    let mut context: Vec<String> = Vec::new();
    let mut asks: Vec<String> = Vec::new();
    for part in parts {
        for sentence in sentences(part) {
            if sentence.ends_with('?') { asks.push(sentence) } else { context.push(sentence) }
        }
    }
    (context, asks)
}

/// The clauses of the situation the plan searches on their own ("I have a
/// 3-day audit in Hyderabad", "want to stay 2 extra days for personal
/// reasons"): their hits are evidence for the asks, and a clause asks
/// nothing, so nothing is drafted for it alone.
/// None when nothing asks: "List the documents needed for a visa." is the
/// question itself, answered from its own searches.
pub fn situation_clauses(parts: &[String]) -> Vec<String> {
    let (context, asks) = situation_and_asks(parts);
    if asks.is_empty() {
        return Vec::new();
    }
    context.iter().flat_map(|c| clauses(c)).collect()
}

/// Hits a search for one clause of the situation asks for: few, so that
/// each clause brings its own chunk and the asks bring theirs.
pub const CLAUSE_K: usize = 3;

/// A statement split into its clauses on "and" before a verb or a pronoun
/// ("I have a 3-day audit in Hyderabad and want to stay 2 extra days").
fn clauses(statement: &str) -> Vec<String> {
    const STARTS: &[&str] = &[
        "want", "wants", "need", "needs", "will", "would", "plan", "plans", "have", "has", "am", "i", "we", "then",
        "also",
    ];
    let words: Vec<&str> = statement.split_whitespace().collect();
    let mut out = Vec::new();
    let mut current: Vec<&str> = Vec::new();
    for (i, w) in words.iter().enumerate() {
        let next = words.get(i + 1).map(|n| n.to_lowercase());
        if w.eq_ignore_ascii_case("and") && next.is_some_and(|n| STARTS.contains(&n.as_str())) && !current.is_empty() {
            out.push(current.join(" "));
            current.clear();
            continue;
        }
        current.push(w);
    }
    if !current.is_empty() {
        out.push(current.join(" "));
    }
    out
}

fn sentences(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    for c in text.chars() {
        current.push(c);
        if matches!(c, '?' | '.' | '!') {
            let s = current.trim().to_string();
            if s.split_whitespace().count() >= 2 {
                out.push(s);
            }
            current.clear();
        }
    }
    let rest = current.trim();
    if !rest.is_empty() {
        out.push(format!("{rest}?"));
    }
    out
}

fn find_search<'a>(ctx: &'a AgentContext, query: &str) -> Option<&'a ToolOutcome> {
    ctx.done.iter().find(|o| o.name == "search_documents" && o.arguments["query"].as_str() == Some(query))
}

/// A `lookup_table` call when a word of the query is a cell of a table:
/// one whose rows the search returned, or one looked up before (whose text
/// values are known). Only the query's first such word is looked up, once,
/// and never when the query names something the table does not contain.
fn table_follow_up(ctx: &AgentContext, query: &str, done: &ToolOutcome) -> Option<ToolCall> {
    let mut tables: Vec<(String, Vec<String>)> = Vec::new();
    for row in done.evidence.iter().filter(|e| e.table_row).take(3) {
        let table = row.key.split(['@', ':']).next().unwrap_or_default().to_string();
        let cells = row.text.split(';').filter_map(|c| c.split_once(':')).map(|(_, v)| v.trim().to_lowercase());
        tables.push((table, cells.collect()));
    }
    for o in ctx.done.iter().filter(|o| o.name == "lookup_table") {
        tables.push((o.arguments["table"].as_str().unwrap_or_default().to_string(), o.cells.clone()));
    }
    let model = BuiltinModel::default();
    let named = model.names_in(query);
    for (table, cells) in tables {
        // A query that names something (MBA) the table never mentions is not about this table.
        let known = model.literal_terms(&cells.join(" "));
        if named.iter().any(|n| !known.contains(n)) {
            continue;
        }
        let word = query.split(|c: char| !c.is_alphanumeric()).filter(|w| w.chars().count() > 2).find(|w| {
            let w = w.to_lowercase();
            cells.iter().any(|c| *c == w || c.starts_with(&format!("{w} ")))
        });
        let Some(word) = word else { continue };
        let already = ctx.done.iter().any(|o| {
            o.name == "lookup_table" && o.arguments["key"].as_str().is_some_and(|k| k.eq_ignore_ascii_case(word))
        });
        return (!already)
            .then(|| ToolCall { name: "lookup_table".into(), arguments: json!({"table": table, "key": word}) });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_the_questions_capitalised_runs() {
        assert_eq!(
            name_phrases("Which magazine was started first Arthur's Magazine or First for Women?"),
            vec!["Arthur's Magazine", "First for Women"]
        );
        assert_eq!(
            name_phrases(
                "Who was the first president of the association which published Journal of Psychotherapy Integration?"
            ),
            vec!["Journal of Psychotherapy Integration"]
        );
        assert_eq!(name_phrases("What GST applies to my hotel bill?"), vec!["GST"]);
        assert_eq!(name_phrases("What is the hostel fee for 2024-25?"), vec!["2024-25"]);
        assert!(
            name_phrases("How many days of earned leave do I get?").is_empty(),
            "a lone capital word is not a name"
        );
    }

    #[test]
    fn a_situation_is_not_drafted_for_but_a_statement_that_asks_is() {
        let told = ["I have a 3-day audit in Hyderabad and want to stay 2 extra days. What can I claim?".to_string()];
        assert_eq!(
            situation_clauses(&told),
            vec!["I have a 3-day audit in Hyderabad".to_string(), "want to stay 2 extra days.".to_string()]
        );
        assert!(situation_clauses(&["List the documents needed for a visa.".to_string()]).is_empty());
        assert!(situation_clauses(&["How many days of leave do I get?".to_string()]).is_empty());
    }

    #[test]
    fn context_statements_and_asks_become_searches() {
        let ctx = AgentContext {
            question: String::new(),
            parts: vec![
                "I have a 3-day audit in Hyderabad and want to stay 2 extra days for personal reasons. What can I claim?"
                    .into(),
                "What leave should I apply for?".into(),
            ],
            ..Default::default()
        };
        let q: Vec<String> = planned_queries(&ctx).into_iter().map(|(q, _)| q).collect();
        assert_eq!(q.len(), 4, "{q:?}");
        assert_eq!(q[0], "I have a 3-day audit in Hyderabad");
        assert_eq!(q[1], "want to stay 2 extra days for personal reasons.");
        assert!(q[2].starts_with("What can I claim? I have"));
        assert!(q[3].starts_with("What leave should I apply for? I have"));
    }
}
