//! The builtin model's deterministic planner: how the offline model drives
//! the same agent loop as a real one (ARCHITECTURE §5, §6). It searches
//! each statement of the question's context and each asked part (with the
//! context attached), carries the entity one hop finds into the next (up to
//! 3 hops), and looks a row up in a table when a search returned rows of
//! one and the part names a cell of it ("MTech", "hostel").

use serde_json::json;

use super::AgentContext;
use super::exec::ToolOutcome;
use super::tools::MAX_K;
use crate::builtin::BuiltinModel;
use crate::model::ToolCall;
use crate::plan::{MAX_HOPS, bridge_entity, fill};

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
            let sentence = model.select(&query, &done.evidence).into_iter().next()?;
            answers.push(bridge_entity(&sentence.text, &query)?);
        }
    }
    None
}

/// The searches the plan makes: for multi-hop questions the hop templates;
/// otherwise the context statements of the question, then each asked part
/// with the context attached.
pub fn planned_queries(ctx: &AgentContext) -> Vec<(String, usize)> {
    if ctx.hops {
        return ctx.parts.iter().take(MAX_HOPS).map(|p| (p.clone(), MAX_K)).collect();
    }
    let mut context: Vec<String> = Vec::new();
    let mut asks: Vec<String> = Vec::new();
    let parts = if ctx.parts.is_empty() { std::slice::from_ref(&ctx.question) } else { &ctx.parts[..] };
    for part in parts {
        for sentence in sentences(part) {
            if sentence.ends_with('?') { asks.push(sentence) } else { context.push(sentence) }
        }
    }
    let joined = context.join(" ");
    let mut queries: Vec<(String, usize)> = context.iter().flat_map(|c| clauses(c)).map(|c| (c, CLAUSE_K)).collect();
    for ask in asks {
        queries.push((if joined.is_empty() { ask } else { format!("{ask} {joined}") }, MAX_K));
    }
    queries.dedup();
    queries
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
    let named = model.named_terms(query);
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
