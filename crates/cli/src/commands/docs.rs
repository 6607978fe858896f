//! `almirah docs [--status S] [--as-of D]`, `almirah docs set|unset`.

use std::process::ExitCode;

use almirah_core::Engine;
use almirah_core::freshness::dates::{DateOrder, parse_date};
use almirah_core::freshness::{AsOf, Field, Session};
use anyhow::{Context, Result, bail};

use crate::DocsAction;

/// Parse `--as-of` and `--session`.
pub fn parse_as_of(engine: &Engine, date: Option<&str>, session: Option<&str>) -> Result<AsOf> {
    let date = date
        .map(|d| {
            parse_date(d, DateOrder::DayMonth)
                .with_context(|| format!("--as-of {d:?}: expected YYYY-MM-DD or DD.MM.YYYY"))
        })
        .transpose()?;
    let session = session
        .map(|s| Session::parse(s).with_context(|| format!("--session {s:?}: expected e.g. 2026-27")))
        .transpose()?;
    Ok(engine.as_of(date, session))
}

/// List documents.
pub fn list(engine: &Engine, as_of: AsOf, status: Option<&str>, json: bool) -> Result<ExitCode> {
    const STATUSES: [&str; 5] = ["current", "superseded", "expired", "pending", "other-session"];
    if let Some(s) = status.filter(|s| !STATUSES.contains(s)) {
        bail!("unknown status {s:?}; statuses: {}", STATUSES.join(", "));
    }
    let mut docs = engine.documents(as_of)?;
    if let Some(s) = status {
        docs.retain(|d| d.statuses.iter().any(|x| x.as_str() == s));
    }
    if json {
        let value = serde_json::json!({ "as_of": as_of, "documents": docs });
        println!("{}", serde_json::to_string_pretty(&value)?);
        return Ok(ExitCode::SUCCESS);
    }
    println!("as of {} (session {}): {} documents", as_of.date, as_of.session, docs.len());
    for d in &docs {
        let statuses: Vec<&str> = d.statuses.iter().map(|s| s.as_str()).collect();
        println!("\n{}  [{}]  {}", d.key, statuses.join(", "), d.reason);
        println!("  {}", d.path);
        let m = &d.meta;
        field("title", m.title.as_ref().map(|f| show(f, |v| v.clone())));
        field("series", m.series.as_ref().map(|f| show(f, |v| v.clone())));
        field("version", m.version.as_ref().map(|f| show(f, |v| v.clone())));
        field("session", m.session.as_ref().map(|f| show(f, Session::to_string)));
        field("issued", m.issued.as_ref().map(|f| show(f, |v| v.to_string())));
        field("effective_from", m.effective_from.as_ref().map(|f| show(f, |v| v.to_string())));
        field("effective_until", m.effective_until.as_ref().map(|f| show(f, |v| v.to_string())));
        field("supersedes", m.supersedes.as_ref().map(|f| show(f, |v| v.join(", "))));
        field("amends", m.amends.as_ref().map(|f| show(f, |v| v.join(", "))));
        field("audience", m.audience.as_ref().map(|f| show(f, |v| v.join(", "))));
        field("ocr", d.ocr.as_ref().map(almirah_core::update::OcrSummary::describe));
        if let Some(a) = &d.amended {
            println!("  note: {a}");
        }
        if let Some(r) = &d.stale_reason {
            println!("  note: {r}");
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn show<T>(f: &Field<T>, render: impl Fn(&T) -> String) -> String {
    let source = serde_json::to_value(f.source).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default();
    format!("{} ({source})", render(&f.value))
}

fn field(name: &str, value: Option<String>) {
    if let Some(v) = value {
        println!("  {name:<16}{v}");
    }
}

/// Set or unset overrides.
pub fn edit(engine: &Engine, action: &DocsAction, json: bool) -> Result<ExitCode> {
    let (doc, changes): (&str, Vec<(&str, Option<&str>)>) = match action {
        DocsAction::Set {
            doc,
            session,
            series,
            version,
            supersedes,
            issued,
            effective_from,
            effective_until,
            audience,
            title,
        } => {
            let all = [
                ("session", session),
                ("series", series),
                ("version", version),
                ("supersedes", supersedes),
                ("issued", issued),
                ("effective_from", effective_from),
                ("effective_until", effective_until),
                ("audience", audience),
                ("title", title),
            ];
            (doc, all.into_iter().filter_map(|(k, v)| v.as_deref().map(|v| (k, Some(v)))).collect())
        }
        DocsAction::Unset { doc, fields } => (doc, fields.iter().map(|f| (f.as_str(), None)).collect()),
    };
    if changes.is_empty() {
        bail!("nothing to set: give at least one field, e.g. --session 2026-27");
    }
    let id = engine.find_document(doc)?;
    for (field, value) in &changes {
        engine.set_override(id, field, *value)?;
    }
    if json {
        let value = serde_json::json!({ "doc": id, "changed": changes.iter().map(|(f, _)| *f).collect::<Vec<_>>() });
        println!("{value}");
    } else {
        for (field, value) in &changes {
            match value {
                Some(v) => println!("set {field} = {v} on {doc} (override)"),
                None => println!("removed the {field} override from {doc}"),
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
