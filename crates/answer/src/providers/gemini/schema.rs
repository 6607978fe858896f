//! JSON Schema cut down to Gemini's `Schema` object, an OpenAPI 3.0 subset
//! (<https://ai.google.dev/api/caching#Schema>). Gemini rejects a request
//! with an unknown field such as `additionalProperties` or `$schema`, so
//! only the documented fields are kept; `type: ["string", "null"]` becomes
//! `type: "string", nullable: true`; `const` becomes a one-value `enum`;
//! `oneOf` becomes `anyOf`.

use serde_json::{Map, Value};

/// Fields copied as they are.
const PLAIN: &[&str] = &[
    "format",
    "title",
    "description",
    "nullable",
    "enum",
    "maxItems",
    "minItems",
    "required",
    "minProperties",
    "maxProperties",
    "minLength",
    "maxLength",
    "pattern",
    "example",
    "propertyOrdering",
    "default",
    "minimum",
    "maximum",
];

/// `schema` with only the fields Gemini accepts, recursively.
pub(crate) fn gemini_schema(schema: &Value) -> Value {
    let Value::Object(obj) = schema else {
        return schema.clone();
    };
    let mut out = Map::new();
    for (key, value) in obj {
        match key.as_str() {
            "type" => put_type(&mut out, value),
            "properties" => {
                if let Value::Object(props) = value {
                    let mapped = props.iter().map(|(k, v)| (k.clone(), gemini_schema(v))).collect();
                    out.insert(key.clone(), Value::Object(mapped));
                }
            }
            "items" => {
                out.insert(key.clone(), gemini_schema(value));
            }
            "anyOf" | "oneOf" => {
                if let Value::Array(list) = value {
                    out.insert("anyOf".into(), Value::Array(list.iter().map(gemini_schema).collect()));
                }
            }
            "const" => {
                out.insert("enum".into(), Value::Array(vec![value.clone()]));
            }
            k if PLAIN.contains(&k) => {
                out.insert(key.clone(), value.clone());
            }
            _ => {}
        }
    }
    Value::Object(out)
}

/// `type`, turning a JSON-Schema type list into one type plus `nullable`.
fn put_type(out: &mut Map<String, Value>, value: &Value) {
    match value {
        Value::Array(types) => {
            let names: Vec<&str> = types.iter().filter_map(Value::as_str).collect();
            if let Some(first) = names.iter().find(|t| **t != "null") {
                out.insert("type".into(), Value::String((*first).to_string()));
            }
            if names.contains(&"null") {
                out.insert("nullable".into(), Value::Bool(true));
            }
        }
        other => {
            out.insert("type".into(), other.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use serde_json::json;

    use super::*;

    #[test]
    fn keeps_the_openapi_subset_and_drops_the_rest() {
        let schema = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "additionalProperties": false,
            "properties": {
                "action": {"type": "string", "enum": ["search", "answer"]},
                "k": {"type": ["integer", "null"], "minimum": 1, "maximum": 8},
                "kind": {"const": "x"},
                "queries": {"type": "array", "items": {"type": "string", "additionalProperties": false}},
            },
            "required": ["action"],
        });
        let want = json!({
            "type": "object",
            "properties": {
                "action": {"type": "string", "enum": ["search", "answer"]},
                "k": {"type": "integer", "nullable": true, "minimum": 1, "maximum": 8},
                "kind": {"enum": ["x"]},
                "queries": {"type": "array", "items": {"type": "string"}},
            },
            "required": ["action"],
        });
        assert_eq!(gemini_schema(&schema), want);
    }
}
