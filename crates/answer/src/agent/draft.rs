//! Drafting for small local models: the answer as JSON whose citation is a
//! passage number constrained by the schema to the passages shown, so a
//! 0.5B model can neither invent nor mangle a key (code maps the number
//! back to the chunk key); the checks then verify what each sentence says.

use serde_json::{Value, json};

use crate::evidence::Evidence;
use crate::model::{ChatModel, ChatRequest, Draft, Message, ModelError, Role};
use crate::providers::prompt::answer_messages;

/// Chunks a drafting prompt carries at most (the first gathered).
pub const MAX_DRAFT_CHUNKS: usize = 10;

/// The schema: `{"sentences": [{"text": …, "passage": <1..=passages>}]}`.
pub fn draft_schema(passages: usize) -> Value {
    let numbers: Vec<usize> = (1..=passages).collect();
    json!({"type": "object", "properties": {
        "sentences": {"type": "array", "items": {"type": "object", "properties": {
            "text": {"type": "string"},
            "passage": {"type": "integer", "enum": numbers}
        }, "required": ["text", "passage"]}}
    }, "required": ["sentences"]})
}

/// The key of passage `n` (1-based, a JSON number or a numeral string) of
/// `shown`; `None` outside it.
fn passage_key(n: &Value, shown: &[Evidence]) -> Option<String> {
    let n = n.as_u64().or_else(|| n.as_str().and_then(|s| s.trim().trim_matches(['[', ']']).parse().ok()))?;
    let i = usize::try_from(n).ok()?.checked_sub(1)?;
    shown.get(i).map(|e| e.key.clone())
}

/// Draft with structured output.
///
/// # Errors
/// The model's errors; [`ModelError::BadReply`] when the reply is not the JSON asked for.
pub fn structured(
    model: &dyn ChatModel,
    question: &str,
    evidence: &[Evidence],
    retry_note: Option<&str>,
) -> Result<Draft, ModelError> {
    let evidence = &evidence[..evidence.len().min(MAX_DRAFT_CHUNKS)];
    if evidence.is_empty() {
        return Ok(Draft::default());
    }
    let mut messages = answer_messages(question, evidence, retry_note);
    messages.push(Message {
        role: Role::User,
        content: "Reply with JSON only: {\"sentences\": [{\"text\": one short sentence copied or closely \
                  paraphrased from a passage, \"passage\": that passage's number}]}. An empty list means the \
                  passages do not answer the question."
            .into(),
    });
    let request = ChatRequest { messages, response_schema: Some(draft_schema(evidence.len())), ..Default::default() };
    let reply = model.chat(&request)?;
    let value = super::action::first_json(&reply.content)
        .ok_or_else(|| ModelError::BadReply(format!("not JSON: {:.200}", reply.content)))?;
    let sentences = value["sentences"]
        .as_array()
        .map(|items| {
            items
                .iter()
                .filter_map(|s| Some((s["text"].as_str()?.trim().to_string(), passage_key(&s["passage"], evidence))))
                .map(|(text, key)| (text, key.into_iter().collect::<Vec<_>>()))
                .filter(|(t, _)| !t.is_empty())
                .collect()
        })
        .unwrap_or_default();
    Ok(Draft { sentences, usage: reply.usage, dropped: 0 })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn citations_are_an_enum_of_the_passage_numbers() {
        let s = draft_schema(3);
        assert_eq!(s["properties"]["sentences"]["items"]["properties"]["passage"]["enum"], json!([1, 2, 3]));
    }

    #[test]
    fn passage_numbers_map_to_the_keys_shown_only() {
        let chunk = |key: &str| -> Evidence {
            serde_json::from_value(json!({"key": key, "title": "T", "path": "t.md", "pages": null,
                "heading_path": [], "text": "x", "score": 1.0, "note": null}))
            .unwrap_or_else(|e| unreachable!("{e}"))
        };
        let shown = [chunk("a::b#1"), chunk("c::d#2")];
        assert_eq!(passage_key(&json!(2), &shown).as_deref(), Some("c::d#2"));
        assert_eq!(passage_key(&json!("[1]"), &shown).as_deref(), Some("a::b#1"));
        assert_eq!(passage_key(&json!(0), &shown), None);
        assert_eq!(passage_key(&json!(3), &shown), None);
        assert_eq!(passage_key(&json!("a::b#1"), &shown), None, "a key is not a passage number");
    }
}
