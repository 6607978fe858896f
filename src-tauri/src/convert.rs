//! Core and answer types → the UI's payloads ([`crate::payload`]).

use std::path::Path;

use almirah_answer::classic::Answer;
use almirah_answer::trace::{Step, Trace};
use almirah_core::read::DocView;
use almirah_core::{FileProblem, IngestReport};
use serde::Serialize;

use crate::payload::{
    AnswerView, CitationView, DocumentRow, FieldView, IndexSummary, ProblemView, TraceStepView, TraceView, WithheldView,
};

/// A serde enum as its wire name (`front-matter`, `needs-password`).
pub fn wire_name<T: Serialize>(value: &T) -> String {
    serde_json::to_value(value).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
}

/// The file name of a path.
pub fn file_name(path: &str) -> String {
    Path::new(path).file_name().map_or_else(|| path.to_string(), |n| n.to_string_lossy().into_owned())
}

/// A file status as a sentence ("needs password", "failed: …").
pub fn problem_message(status: &str, reason: Option<&str>) -> String {
    let what = match status {
        "needs-password" => "needs password",
        "needs-conversion" => "old format",
        "no-text-layer" => "no text layer (a scan? run OCR first)",
        "low-quality-text" => "text is garbled; not indexed",
        "unsupported" => "file type not supported",
        "binary" => "binary content, not text; not indexed",
        "empty" => "empty: nothing to index",
        "failed" => "failed",
        other => other,
    };
    match reason.filter(|r| !r.is_empty() && matches!(status, "failed" | "needs-conversion")) {
        // Reasons may already say "failed: …"; say it once.
        Some(r) => {
            let r = r.strip_prefix("failed: ").or_else(|| r.strip_prefix("needs-conversion: ")).unwrap_or(r);
            format!("{what}: {r}")
        }
        None => what.to_string(),
    }
}

/// A problem file.
pub fn problem(p: &FileProblem) -> ProblemView {
    ProblemView {
        path: p.path.clone(),
        status: p.status.clone(),
        message: problem_message(&p.status, p.reason.as_deref()),
        kept_previous: p.kept_previous,
    }
}

/// What an indexing job did.
pub fn summary(r: &IngestReport) -> IndexSummary {
    let mut indexed = 0;
    let mut removed = 0;
    let mut problems = Vec::new();
    for o in &r.outcomes {
        match (o.action.as_str(), o.status) {
            ("deleted", _) => removed += 1,
            (_, Some(almirah_core::store::FileStatus::Indexed)) => indexed += 1,
            (_, Some(status)) => {
                let status = status.as_str().to_string();
                let message = problem_message(&status, o.reason.as_deref());
                problems.push(ProblemView { path: o.path.clone(), status, message, kept_previous: o.kept_previous });
            }
            _ => {}
        }
    }
    IndexSummary {
        files_seen: r.files_seen as u64,
        unchanged: r.unchanged as u64,
        indexed,
        removed,
        problems,
        elapsed_ms: r.elapsed_ms,
    }
}

/// A documents-table row.
pub fn document(d: &DocView, inbox: &Path) -> DocumentRow {
    let m = &d.meta;
    let text = |f: &Option<almirah_core::freshness::Field<String>>| f.as_ref().map(|f| f.value.clone());
    let mut fields = Vec::new();
    let mut push = |name: &str, value: Option<String>, source: Option<String>| {
        if let (Some(value), Some(source)) = (value, source) {
            fields.push(FieldView { name: name.into(), value, source });
        }
    };
    push("title", text(&m.title), m.title.as_ref().map(|f| wire_name(&f.source)));
    push("series", text(&m.series), m.series.as_ref().map(|f| wire_name(&f.source)));
    push("version", text(&m.version), m.version.as_ref().map(|f| wire_name(&f.source)));
    push("session", m.session.as_ref().map(|f| f.value.to_string()), m.session.as_ref().map(|f| wire_name(&f.source)));
    for (name, f) in
        [("issued", &m.issued), ("effective_from", &m.effective_from), ("effective_until", &m.effective_until)]
    {
        push(name, f.as_ref().map(|f| f.value.to_string()), f.as_ref().map(|f| wire_name(&f.source)));
    }
    push(
        "supersedes",
        m.supersedes.as_ref().map(|f| f.value.join(", ")),
        m.supersedes.as_ref().map(|f| wire_name(&f.source)),
    );
    push(
        "audience",
        m.audience.as_ref().map(|f| f.value.join(", ")),
        m.audience.as_ref().map(|f| wire_name(&f.source)),
    );
    let value_of = |name: &str| fields.iter().find(|f| f.name == name).map(|f| f.value.clone()).unwrap_or_default();
    DocumentRow {
        id: d.id.get(),
        key: d.key.clone(),
        title: d.title.clone(),
        path: d.path.clone(),
        file_name: file_name(&d.path),
        series: value_of("series"),
        version: value_of("version"),
        session: value_of("session"),
        effective_from: m.in_force_from().map(|d| d.to_string()).unwrap_or_default(),
        effective_until: value_of("effective_until"),
        status: d.statuses.first().map_or_else(|| "current".into(), |s| s.to_string()),
        statuses: d.statuses.iter().map(|s| s.to_string()).collect(),
        reason: d.reason.to_string(),
        superseded_by: d.superseded_by.clone(),
        chunks: d.chunks as u64,
        overrides: d.overrides.keys().cloned().collect(),
        problem: d.stale_reason.clone(),
        from_inbox: Path::new(&d.path).starts_with(inbox),
        fields,
    }
}

/// Pages as shown: "p. 2" or "pp. 2-3".
pub fn pages(p: Option<(u32, u32)>) -> Option<String> {
    p.map(|(a, b)| if a == b { format!("p. {a}") } else { format!("pp. {a}-{b}") })
}

/// A table row quoted as `component: tuition; amount_inr: 48500` shows its
/// rupee amounts as people write them: `amount: Rs 48,500` (Indian grouping).
pub fn present_amounts(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    let mut rest = text;
    while let Some(i) = rest.find("_inr: ") {
        let digits: String = rest[i + 6..].chars().take_while(char::is_ascii_digit).collect();
        if digits.is_empty() {
            out.push_str(&rest[..i + 6]);
        } else {
            out.push_str(&rest[..i]);
            out.push_str(": Rs ");
            out.push_str(&almirah_answer::builtin::table_row::indian_grouping(&digits));
            rest = &rest[i + 6 + digits.len()..];
            continue;
        }
        rest = &rest[i + 6..];
    }
    out.push_str(rest);
    out
}

/// An answer for the chat pane; `[chunk-key]` markers become `[n]`.
/// `section_of` gives a cited chunk's heading path.
pub fn answer(a: &Answer, resolved: &str, section_of: &dyn Fn(&str) -> Option<String>) -> AnswerView {
    let mut text = present_amounts(&a.text);
    let mut citations = Vec::new();
    for (i, c) in a.citations.iter().enumerate() {
        let n = i as u32 + 1;
        text = text.replace(&format!("[{}]", c.key), &format!("[{n}]"));
        citations.push(CitationView {
            n,
            key: c.key.clone(),
            document: c.key.split("::").next().unwrap_or(&c.key).to_string(),
            title: c.title.clone(),
            path: c.path.clone(),
            file_name: file_name(&c.path),
            section: section_of(&c.key),
            pages: pages(c.pages),
            status: c.status.to_string(),
        });
    }
    let withheld: Vec<WithheldView> = a
        .withheld
        .iter()
        .map(|w| match w.split_once(": ") {
            Some((key, reason)) => WithheldView { key: key.into(), reason: reason.into() },
            None => WithheldView { key: w.clone(), reason: String::new() },
        })
        .collect();
    let mode = if a.trace.steps.iter().any(|s| matches!(s, Step::Tool { .. })) { "agent" } else { "classic" };
    let mut view = AnswerView {
        question: a.question.clone(),
        resolved: resolved.to_string(),
        text,
        citations,
        withheld,
        as_of: a.as_of.date.to_string(),
        session: a.as_of.session.to_string(),
        mode: mode.into(),
        abstained: a.abstained,
        trace: trace(&a.trace),
        markdown: String::new(),
    };
    view.markdown = markdown(&view);
    view
}

/// The answer with its sources as Markdown (copy and export).
pub fn markdown(a: &AnswerView) -> String {
    let mut out = format!("**Question:** {}\n\n{}\n", a.question, a.text);
    if !a.citations.is_empty() {
        out.push_str(&format!("\n**Sources** (as of {}, session {}):\n\n", a.as_of, a.session));
        for c in &a.citations {
            let at = [c.section.clone(), c.pages.clone()].into_iter().flatten().collect::<Vec<_>>().join(", ");
            let at = if at.is_empty() { String::new() } else { format!(" ({at})") };
            out.push_str(&format!("{}. {} — `{}`{at} [{}]\n", c.n, c.title, c.path, c.key));
        }
    }
    if !a.withheld.is_empty() {
        out.push_str("\n**Withheld as out of date:**\n\n");
        for w in &a.withheld {
            out.push_str(&format!("- {}: {}\n", w.key, w.reason));
        }
    }
    out
}

/// The trace for the expandable panel.
pub fn trace(t: &Trace) -> TraceView {
    let mut round = 0u32;
    let mut steps = Vec::new();
    let (mut input_tokens, mut output_tokens) = (0, 0);
    for s in &t.steps {
        if matches!(s, Step::Model { .. }) || (round == 0 && matches!(s, Step::Search { .. })) {
            round = round.max(1);
        }
        let view = step(s, round);
        input_tokens += view.input_tokens;
        output_tokens += view.output_tokens;
        if let Step::Verdict { .. } = s {
            round += 1;
        }
        steps.push(view);
    }
    TraceView {
        rounds: steps.iter().map(|s| s.round).max().unwrap_or(0),
        steps,
        model_calls: t.model_calls,
        tool_calls: t.tool_calls,
        input_tokens,
        output_tokens,
        total_ms: t.total_ms,
        stop_reason: wire_name(&t.stop_reason),
    }
}

fn step(s: &Step, round: u32) -> TraceStepView {
    let mut v = TraceStepView {
        round,
        kind: String::new(),
        title: String::new(),
        details: Vec::new(),
        input_tokens: 0,
        output_tokens: 0,
        ms: 0.0,
    };
    let hit_line = |h: &almirah_answer::trace::TraceHit| format!("{} ({:.3}) {}", h.key, h.score, h.verdict);
    match s {
        Step::Route { label, reason } => (v.kind, v.title) = ("route".into(), format!("route: {label} — {reason}")),
        Step::Search { query, as_of, session, hits, withheld, ms } => {
            v.kind = "search".into();
            v.title = format!(
                "search \"{query}\" as of {as_of} ({session}) → {} hits, {} withheld",
                hits.len(),
                withheld.len()
            );
            v.details = hits.iter().chain(withheld).map(hit_line).collect();
            v.ms = *ms;
        }
        Step::Model { model, sentences, input_tokens, output_tokens, ms } => {
            v.kind = "model".into();
            v.title = format!("model {model}: {sentences} sentences");
            (v.input_tokens, v.output_tokens, v.ms) = (*input_tokens, *output_tokens, *ms);
        }
        Step::Tool { name, arguments, outcome, new_keys, ms } => {
            v.kind = "tool".into();
            v.title = format!("{name}({arguments}) → {outcome}");
            v.details = new_keys.iter().map(|k| format!("new: {k}")).collect();
            v.ms = *ms;
        }
        Step::Verdict { coverage, model } => {
            v.kind = "verdict".into();
            v.title =
                format!("evidence enough? coverage in code: {}, model: {model}", if *coverage { "yes" } else { "no" });
        }
        Step::Note { text } => (v.kind, v.title) = ("note".into(), text.clone()),
        Step::Check { sentence, verdict } => (v.kind, v.title) = ("check".into(), format!("{verdict}: {sentence}")),
        Step::Fallback { from, reason, sentences } => {
            (v.kind, v.title) =
                ("fallback".into(), format!("{from} {reason}; the builtin model answered ({sentences} sentence(s))"))
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_amounts_are_shown_in_rupees_with_indian_grouping() {
        let row = "programme: MTech; component: tuition; amount_inr: 48500; per: semester";
        assert_eq!(present_amounts(row), "programme: MTech; component: tuition; amount: Rs 48,500; per: semester");
        assert_eq!(present_amounts("fee_inr: 148500 and cap_inr: 900"), "fee: Rs 1,48,500 and cap: Rs 900");
        assert_eq!(present_amounts("amount_inr: n/a"), "amount_inr: n/a");
        assert_eq!(almirah_answer::builtin::table_row::indian_grouping("12345678"), "1,23,45,678");
    }

    #[test]
    fn a_failure_reason_says_failed_once() {
        assert_eq!(problem_message("failed", Some("failed: couldn't parse input")), "failed: couldn't parse input");
        assert_eq!(problem_message("needs-password", Some("encrypted")), "needs password");
        assert_eq!(
            problem_message(
                "needs-conversion",
                Some("needs-conversion: a Word 97-2003 document (.doc); save it as .docx")
            ),
            "old format: a Word 97-2003 document (.doc); save it as .docx"
        );
    }
}
