//! User overrides (`almirah docs set`): stored per document id, so they
//! survive re-indexing and moves, and applied at query time, so a change
//! takes effect at once.

use std::collections::BTreeMap;

use super::dates::{DateOrder, parse_date};
use super::describe::parse_version_number;
use super::meta::{DocMeta, Field, OVERRIDABLE, Provenance};
use super::references::references_from_value;
use super::session::Session;

/// Why an override was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OverrideError {
    /// Not a field that can be overridden.
    #[error("unknown field {0:?}; fields: {fields}", fields = OVERRIDABLE.join(", "))]
    UnknownField(String),
    /// The value does not parse for the field.
    #[error("invalid value {value:?} for {field}: {reason}")]
    BadValue {
        /// Field.
        field: String,
        /// Value.
        value: String,
        /// Why.
        reason: String,
    },
}

/// Check that `value` is valid for `field`.
///
/// # Errors
/// [`OverrideError`] naming the problem.
pub fn validate(field: &str, value: &str) -> Result<(), OverrideError> {
    let mut probe = DocMeta::default();
    apply_one(&mut probe, field, value)
}

/// Apply every override to `meta`.
pub fn apply(meta: &mut DocMeta, overrides: &BTreeMap<String, String>) {
    for (field, value) in overrides {
        let _ = apply_one(meta, field, value);
    }
}

fn bad(field: &str, value: &str, reason: &str) -> OverrideError {
    OverrideError::BadValue { field: field.into(), value: value.into(), reason: reason.into() }
}

fn date(field: &str, value: &str) -> Result<Field<chrono::NaiveDate>, OverrideError> {
    parse_date(value, DateOrder::DayMonth)
        .map(|d| Field::new(d, Provenance::Override))
        .ok_or_else(|| bad(field, value, "expected a date such as 2026-07-15 or 15.07.2026"))
}

fn list(value: &str) -> Vec<String> {
    value.split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect()
}

fn apply_one(meta: &mut DocMeta, field: &str, value: &str) -> Result<(), OverrideError> {
    let text = || Field::new(value.trim().to_string(), Provenance::Override);
    match field {
        "title" => meta.title = Some(text()),
        "series" => meta.series = Some(text()),
        "version" => {
            meta.version = Some(text());
            meta.version_number = parse_version_number(value);
        }
        "session" => {
            let s = Session::parse(value).ok_or_else(|| bad(field, value, "expected a session such as 2026-27"))?;
            meta.session = Some(Field::new(s, Provenance::Override));
        }
        "issued" => meta.issued = Some(date(field, value)?),
        "effective_from" => meta.effective_from = Some(date(field, value)?),
        "effective_until" => meta.effective_until = Some(date(field, value)?),
        "supersedes" => {
            let refs = list(value).iter().flat_map(|v| references_from_value(v)).collect();
            meta.supersedes = Some(Field::new(refs, Provenance::Override));
        }
        "audience" => meta.audience = Some(Field::new(list(value), Provenance::Override)),
        other => return Err(OverrideError::UnknownField(other.to_string())),
    }
    if field != "title" && field != "audience" {
        meta.versioned = true;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn overrides_win_and_carry_their_provenance() {
        let mut meta = DocMeta::default();
        let mut o = BTreeMap::new();
        o.insert("session".to_string(), "2026-27".to_string());
        o.insert("effective_from".to_string(), "15.07.2026".to_string());
        apply(&mut meta, &o);
        assert_eq!(meta.session.as_ref().unwrap().value.to_string(), "2026-27");
        assert_eq!(meta.session.unwrap().source, Provenance::Override);
        assert_eq!(meta.effective_from.unwrap().value.to_string(), "2026-07-15");
    }

    #[test]
    fn bad_values_are_refused_with_a_reason() {
        assert!(matches!(validate("session", "2026"), Err(OverrideError::BadValue { .. })));
        assert!(matches!(validate("colour", "red"), Err(OverrideError::UnknownField(_))));
        assert!(validate("supersedes", "Circular-09-2024-25.pdf").is_ok());
    }
}
