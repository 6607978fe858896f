//! The stored gate state (issue 16, format v8): a library's
//! [`StatusRecords`] with every date-independent step done (references
//! resolved to positions, series ranked, audiences interned), kept built by
//! the one writer in `gate-state` so that the first gate after a commit
//! decodes flat arrays instead of resolving 5,000 documents' references.
//!
//! Little-endian, after a layout byte ([`STATE_LAYOUT`]):
//!
//! | part | items |
//! |---|---|
//! | documents | u32 count; each 53 bytes: id u32, in force from, until (days since 0001-01-01, i32, [`NONE`] when unset), session start year (i32 or [`NONE`]), audience index u32, then the spans edges, runs, series, version (two u32 each; a missing span starts at u32::MAX), versioned u8 |
//! | series groups | u32 count and each group's u32 length; u32 count and every member (position u32, rank u32, comparable u8) |
//! | amendments | u32 count; each: by u32, label str, targets (u32 count, u32s) |
//! | edges | u32 count, u32s |
//! | runs | u32 count, (u32, u32)s |
//! | text | str |
//! | audiences | u32 count; each a u32 count of str |
//! | versions | u32 count, u64s |
//! | series keys | u32 count; each (key span, members span) |
//! | series members | u32 count, u32s |
//!
//! Decoding checks every span and position against what it points into, so
//! corrupt bytes are an error, never an out-of-bounds index later.

use chrono::{Datelike, NaiveDate};

use super::{Amendment, OPEN, Pos, Record, SeriesMember, Span, StatusRecords};
use crate::freshness::record::{Reader, RecordError, put_len, put_str};
use crate::freshness::session::Session;
use crate::ids::DocId;

/// The layout version written in the first byte.
pub const STATE_LAYOUT: u8 = 1;

/// An unset date or session.
const NONE: i32 = i32::MIN;
/// The start of a missing span.
const NO_SPAN: u32 = u32::MAX;
/// Bytes of one stored document record.
const RECORD_BYTES: usize = 53;

impl StatusRecords {
    /// The state in the stored layout (module docs).
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(64 + self.docs.len() * 64 + self.text.len());
        out.push(STATE_LAYOUT);
        put_len(&mut out, self.docs.len());
        self.docs.iter().for_each(|r| put_record(&mut out, r));
        debug_assert_eq!(out.len(), 5 + self.docs.len() * RECORD_BYTES);
        put_len(&mut out, self.series.len());
        self.series.iter().for_each(|g| put_len(&mut out, g.len()));
        put_len(&mut out, self.series.iter().map(Vec::len).sum());
        for m in self.series.iter().flatten() {
            put_u32s(&mut out, &[m.pos, m.rank]);
            out.push(u8::from(m.comparable));
        }
        put_len(&mut out, self.amendments.len());
        for a in &self.amendments {
            put_u32s(&mut out, &[a.by]);
            put_str(&mut out, &a.label);
            put_list(&mut out, &a.targets);
        }
        put_list(&mut out, &self.edges);
        put_len(&mut out, self.runs.len());
        self.runs.iter().for_each(|(first, count)| put_u32s(&mut out, &[*first, *count]));
        put_str(&mut out, &self.text);
        put_len(&mut out, self.audiences.len());
        for set in &self.audiences {
            put_len(&mut out, set.len());
            set.iter().for_each(|a| put_str(&mut out, a));
        }
        put_len(&mut out, self.versions.len());
        self.versions.iter().for_each(|v| out.extend_from_slice(&v.to_le_bytes()));
        put_len(&mut out, self.series_keys.len());
        for (key, members) in &self.series_keys {
            put_span(&mut out, Some(*key));
            put_span(&mut out, Some(*members));
        }
        put_list(&mut out, &self.series_members);
        out
    }

    /// Read a stored state.
    ///
    /// # Errors
    /// [`RecordError::Layout`] for another layout; [`RecordError::Malformed`]
    /// for truncated bytes, text that is not UTF-8, or a span or position
    /// outside what it points into.
    pub fn decode(bytes: &[u8]) -> Result<Self, RecordError> {
        let mut r = Reader::new(bytes);
        let layout = r.u8()?;
        if layout != STATE_LAYOUT {
            return Err(RecordError::Layout(layout));
        }
        let at = r.at();
        let docs = r
            .fixed(RECORD_BYTES)?
            .chunks_exact(RECORD_BYTES)
            .map(read_record)
            .collect::<Option<Vec<_>>>()
            .ok_or(RecordError::Malformed(at))?;
        let series = read_groups(&mut r)?;
        let amendments = (0..r.u32()?).map(|_| read_amendment(&mut r)).collect::<Result<Vec<_>, _>>()?;
        let edges = read_list(&mut r)?;
        let runs = r.fixed(8)?.chunks_exact(8).map(|b| (le32(&b[..4]), le32(&b[4..]))).collect();
        let text = r.str()?.to_string();
        let audiences = (0..r.u32()?)
            .map(|_| (0..r.u32()?).map(|_| r.str().map(str::to_string)).collect::<Result<Vec<_>, _>>())
            .collect::<Result<Vec<_>, _>>()?;
        let versions = r.fixed(8)?.chunks_exact(8).map(le64).collect();
        let series_keys = (0..r.u32()?)
            .map(|_| Ok((read_span(&mut r)?.ok_or(RecordError::Malformed(r.at()))?, read_span_required(&mut r)?)))
            .collect::<Result<Vec<_>, RecordError>>()?;
        let series_members = read_list(&mut r)?;
        if !r.done() {
            return Err(RecordError::Malformed(r.at()));
        }
        let state =
            Self { docs, series, amendments, edges, runs, text, audiences, versions, series_keys, series_members };
        state.check().map_err(|()| RecordError::Malformed(bytes.len()))?;
        Ok(state)
    }

    /// Every span and position inside what it points into.
    fn check(&self) -> Result<(), ()> {
        let n = self.docs.len();
        let pos_ok = |p: &Pos| (*p as usize) < n;
        let within = |s: Span, len: usize| s.start <= s.end && s.end as usize <= len;
        let text_ok = |s: Span| {
            within(s, self.text.len())
                && self.text.is_char_boundary(s.start as usize)
                && self.text.is_char_boundary(s.end as usize)
        };
        let docs_ok = self.docs.iter().all(|d| {
            within(d.edges, self.edges.len())
                && within(d.runs, self.runs.len())
                && d.series.is_none_or(text_ok)
                && d.version.is_none_or(|v| within(v, self.versions.len()))
                && (d.audience == OPEN || (d.audience as usize) < self.audiences.len())
        });
        let ok = docs_ok
            && self.docs.windows(2).all(|w| w[0].id < w[1].id)
            && self.edges.iter().all(pos_ok)
            && self.series_members.iter().all(pos_ok)
            && self.series.iter().flatten().all(|m| pos_ok(&m.pos))
            && self.amendments.iter().all(|a| pos_ok(&a.by) && a.targets.iter().all(pos_ok))
            && self.series_keys.iter().all(|(k, m)| text_ok(*k) && within(*m, self.series_members.len()));
        if ok { Ok(()) } else { Err(()) }
    }
}

fn put_record(out: &mut Vec<u8>, r: &Record) {
    let day = |d: Option<NaiveDate>| d.map_or(NONE, |d| d.num_days_from_ce());
    put_u32s(out, &[r.id.get()]);
    for v in [day(r.in_force_from), day(r.until), r.session.map_or(NONE, |s| s.start_year)] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    put_u32s(out, &[r.audience]);
    put_span(out, Some(r.edges));
    put_span(out, Some(r.runs));
    put_span(out, r.series);
    put_span(out, r.version);
    out.push(u8::from(r.versioned));
}

/// One record of [`RECORD_BYTES`] at fixed offsets; `None` when malformed.
fn read_record(b: &[u8]) -> Option<Record> {
    let word = |i: usize| le32(&b[i * 4..i * 4 + 4]);
    let date = |i: usize| match word(i) as i32 {
        NONE => Some(None),
        days => NaiveDate::from_num_days_from_ce_opt(days).map(Some),
    };
    let span = |i: usize| (word(i) != NO_SPAN).then(|| Span { start: word(i), end: word(i + 1) });
    let session = Some(word(3) as i32).filter(|y| *y != NONE).map(|start_year| Session { start_year });
    let versioned = match b[RECORD_BYTES - 1] {
        0 => false,
        1 => true,
        _ => return None,
    };
    Some(Record {
        id: DocId::new(word(0)),
        in_force_from: date(1)?,
        until: date(2)?,
        session,
        audience: word(4),
        edges: span(5)?,
        runs: span(7)?,
        series: span(9),
        version: span(11),
        versioned,
    })
}

/// The series groups: their lengths, then every member (9 bytes each).
fn read_groups(r: &mut Reader<'_>) -> Result<Vec<Vec<SeriesMember>>, RecordError> {
    let lens = read_list(r)?;
    let at = r.at();
    let mut members = r.fixed(9)?.chunks_exact(9).map(|b| SeriesMember {
        pos: le32(&b[..4]),
        rank: le32(&b[4..8]),
        comparable: b[8] != 0,
    });
    let groups: Vec<Vec<SeriesMember>> = lens.iter().map(|n| members.by_ref().take(*n as usize).collect()).collect();
    let complete = members.next().is_none() && groups.iter().zip(&lens).all(|(g, n)| g.len() == *n as usize);
    if complete { Ok(groups) } else { Err(RecordError::Malformed(at)) }
}

fn read_amendment(r: &mut Reader<'_>) -> Result<Amendment, RecordError> {
    let by = r.u32()?;
    let label = r.str()?.to_string();
    Ok(Amendment { by, label, targets: read_list(r)? })
}

fn put_span(out: &mut Vec<u8>, span: Option<Span>) {
    let (start, end) = span.map_or((NO_SPAN, NO_SPAN), |s| (s.start, s.end));
    put_u32s(out, &[start, end]);
}

fn read_span(r: &mut Reader<'_>) -> Result<Option<Span>, RecordError> {
    let (start, end) = (r.u32()?, r.u32()?);
    Ok((start != NO_SPAN).then_some(Span { start, end }))
}

fn read_span_required(r: &mut Reader<'_>) -> Result<Span, RecordError> {
    let at = r.at();
    read_span(r)?.ok_or(RecordError::Malformed(at))
}

fn put_u32s(out: &mut Vec<u8>, values: &[u32]) {
    values.iter().for_each(|v| out.extend_from_slice(&v.to_le_bytes()));
}

fn put_list(out: &mut Vec<u8>, values: &[u32]) {
    put_len(out, values.len());
    put_u32s(out, values);
}

fn read_list(r: &mut Reader<'_>) -> Result<Vec<u32>, RecordError> {
    Ok(r.fixed(4)?.chunks_exact(4).map(le32).collect())
}

fn le32(b: &[u8]) -> u32 {
    u32::from_le_bytes([b[0], b[1], b[2], b[3]])
}

fn le64(b: &[u8]) -> u64 {
    u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]])
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use std::collections::BTreeMap;

    use super::*;
    use crate::freshness::meta::{DocMeta, Field, Provenance};

    fn doc(series: &str, version: u64, year: i32, refs: &[&str]) -> DocMeta {
        DocMeta {
            series: Some(Field::new(series.into(), Provenance::Filename)),
            version: Some(Field::new(version.to_string(), Provenance::Filename)),
            version_number: Some(vec![version]),
            effective_from: Some(Field::new(NaiveDate::from_ymd_opt(year, 7, 1).unwrap(), Provenance::Text)),
            references: refs.iter().map(|r| r.to_string()).collect(),
            versioned: true,
            ..DocMeta::default()
        }
    }

    fn sample() -> StatusRecords {
        let mut amender = doc("b", 1, 2025, &["circular:9"]);
        amender.amends = Some(Field::new(vec!["circular:5".into()], Provenance::Text));
        amender.supersedes = Some(Field::new(vec!["circular:4".into()], Provenance::Text));
        let mut hr = doc("fees", 3, 2026, &[]);
        hr.audience = Some(Field::new(vec!["HR-only".into()], Provenance::FrontMatter));
        hr.effective_until = Some(Field::new(NaiveDate::from_ymd_opt(2027, 6, 30).unwrap(), Provenance::Text));
        let metas = BTreeMap::from([
            (DocId::new(2), doc("a", 1, 2024, &["circular:5", "circular:4"])),
            (DocId::new(5), amender),
            (DocId::new(7), doc("fees", 1, 2024, &[])),
            (DocId::new(9), doc("fees", 2, 2025, &[])),
            (DocId::new(11), hr),
        ]);
        StatusRecords::new(&metas)
    }

    #[test]
    fn the_state_round_trips_and_keeps_the_series_index() {
        let state = sample();
        assert!(!state.amendments.is_empty() && !state.edges.is_empty() && !state.audiences.is_empty());
        let decoded = StatusRecords::decode(&state.encode()).unwrap();
        assert_eq!(decoded, state);
        let fees: Vec<DocId> = decoded.versioned_in_series("fees").iter().filter_map(|p| decoded.id(*p)).collect();
        assert_eq!(fees, vec![DocId::new(7), DocId::new(9), DocId::new(11)]);
        assert_eq!(decoded.version_key(3).0, Some(&[2u64][..]));
        assert!(decoded.versioned_in_series("nope").is_empty());
    }

    #[test]
    fn truncated_or_out_of_range_bytes_are_errors() {
        let bytes = sample().encode();
        for cut in [1, 5, bytes.len() / 2, bytes.len() - 1] {
            assert!(StatusRecords::decode(&bytes[..cut]).is_err(), "cut at {cut}");
        }
        // The first record's edges span, pointed past the edges.
        let mut bad = bytes.clone();
        bad[1 + 4 + 20..1 + 4 + 24].copy_from_slice(&1000u32.to_le_bytes());
        assert!(matches!(StatusRecords::decode(&bad), Err(RecordError::Malformed(_))));
        let mut other = bytes;
        other[0] = 9;
        assert!(matches!(StatusRecords::decode(&other), Err(RecordError::Layout(9))));
    }
}
