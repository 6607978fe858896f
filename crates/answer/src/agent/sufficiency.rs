//! The two-layer sufficiency check (ARCHITECTURE §5): coverage in code
//! first (does every part of the question have an admitted chunk that the
//! extractive scorer would answer it from?), then the model's verdict,
//! parsed defensively: anything that is not a clear yes is insufficient.

use super::AgentContext;
use crate::builtin::BuiltinModel;
use crate::evidence::Evidence;

/// Whether every part of `ctx`'s question has admitted evidence that answers it.
pub fn covered(ctx: &AgentContext, evidence: &[Evidence]) -> bool {
    uncovered(ctx, evidence).is_empty()
}

/// The parts no admitted chunk answers. A later hop's `<answer N>`
/// placeholder is left out of the check.
pub fn uncovered(ctx: &AgentContext, evidence: &[Evidence]) -> Vec<String> {
    let model = BuiltinModel::default();
    ctx.parts_asked()
        .into_iter()
        .filter(|(_, asked)| model.score_sentences(asked, evidence).first().is_none_or(|s| s.coverage < 0.5))
        .map(|(part, _)| part)
        .collect()
}

/// `part` without its `<answer N>` placeholders.
pub fn strip_placeholders(part: &str) -> String {
    let mut out = String::with_capacity(part.len());
    let mut rest = part;
    while let Some(at) = rest.find("<answer ") {
        out.push_str(&rest[..at]);
        rest = rest[at..].split_once('>').map_or("", |(_, r)| r);
    }
    out.push_str(rest);
    out
}

/// The model's verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// A clear yes.
    pub enough: bool,
    /// What the model says is missing.
    pub missing: Option<String>,
    /// Whether the reply could be read at all.
    pub readable: bool,
}

impl Verdict {
    /// "yes", "no: …" or "unclear" for the trace.
    pub fn describe(&self) -> String {
        match (self.enough, self.readable, &self.missing) {
            (true, _, _) => "yes".into(),
            (false, true, Some(m)) => format!("no: {m}"),
            (false, true, None) => "no".into(),
            (false, false, _) => "unclear (treated as no)".into(),
        }
    }
}

/// Parse `{"enough": true, "missing": "…"}` (bare, fenced or inside prose),
/// or a reply whose first word is yes/no.
pub fn parse_verdict(content: &str) -> Verdict {
    if let Some(v) = super::action::first_json(content) {
        let enough = match v.get("enough") {
            Some(serde_json::Value::Bool(b)) => Some(*b),
            Some(serde_json::Value::String(s)) => Some(matches!(s.trim().to_lowercase().as_str(), "yes" | "true")),
            _ => None,
        };
        if let Some(enough) = enough {
            let missing = v.get("missing").and_then(|m| m.as_str()).map(str::trim).filter(|m| !m.is_empty());
            return Verdict { enough, missing: missing.map(String::from), readable: true };
        }
    }
    let first = content.trim().split(|c: char| !c.is_alphabetic()).next().unwrap_or_default().to_lowercase();
    match first.as_str() {
        "yes" => Verdict { enough: true, missing: None, readable: true },
        "no" => Verdict { enough: false, missing: None, readable: true },
        _ => Verdict { enough: false, missing: None, readable: false },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_clear_yes_is_enough() {
        assert!(parse_verdict(r#"{"enough": true}"#).enough);
        assert!(parse_verdict("```json\n{\"enough\": \"yes\", \"missing\": \"\"}\n```").enough);
        assert!(parse_verdict("Yes, the passages cover it.").enough);
        let no = parse_verdict(r#"{"enough": false, "missing": "the leave rule"}"#);
        assert_eq!((no.enough, no.missing.as_deref()), (false, Some("the leave rule")));
        for unclear in ["", "Maybe", "I think so", r#"{"verdict": "ok"}"#, "yesterday"] {
            assert!(!parse_verdict(unclear).enough, "{unclear:?}");
        }
    }

    #[test]
    fn placeholders_are_left_out_of_coverage() {
        assert_eq!(strip_placeholders("Where is <answer 2>'s office?"), "Where is 's office?");
    }
}
