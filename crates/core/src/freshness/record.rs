//! The gate's stored per-document record (issue 16, format v7): what the
//! status rules, the audience check, the unreadable-newer-version marks and
//! the series/session filters need of one document, derived from its
//! metadata (overrides applied) and its chunks, and nothing more. The one
//! writer stores it in the same transaction that changes the document
//! (`store::gate_records`), so building a gate reads these records only,
//! never the full metadata.
//!
//! The layout is fixed, little-endian, and read in place ([`RecordView`]
//! borrows every string from the LMDB page), so decoding a library's
//! records allocates nothing per document:
//!
//! | bytes | field |
//! |---|---|
//! | 1 | layout version ([`LAYOUT`]) |
//! | 1 | flags: 1 versioned, 2 in force from, 4 until, 8 session, 16 series, 32 version number, 64 restricted audience, 128 amender label |
//! | 4 each | in force from, until (days since 0001-01-01, i32), session start year (i32): only those flagged |
//! | str | series, if flagged |
//! | list of u64 | version number, if flagged |
//! | list of str | audience (lower-cased), if flagged |
//! | list of str | references the document is known by |
//! | list of str | references its supersession statement names |
//! | list of str | references its amendment statement names |
//! | str | how an amendment mark names it, if flagged |
//! | list of (u32, u32) | its chunk ids as runs `(first, count)`, ascending |
//!
//! A `str` is a u32 byte length and UTF-8 bytes; a list is a u32 count and
//! its items, except a list of str: a u32 count, each string's u32 byte
//! length, then all their bytes (checked as UTF-8 once per list).

use chrono::{Datelike, NaiveDate};

use super::meta::DocMeta;
use super::session::Session;
use super::status::OPEN_AUDIENCES;

/// The layout version written in the first byte.
pub const LAYOUT: u8 = 1;

const VERSIONED: u8 = 1;
const IN_FORCE: u8 = 2;
const UNTIL: u8 = 4;
const SESSION: u8 = 8;
const SERIES: u8 = 16;
const VERSION_NUMBER: u8 = 32;
const AUDIENCE: u8 = 64;
const LABEL: u8 = 128;

/// One document's gate record, owned (what the writer encodes).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GateRecord {
    /// Whether versioning applies (series ranking, unreadable marks).
    pub versioned: bool,
    /// [`DocMeta::in_force_from`]: effective date, else a real issue date.
    pub in_force_from: Option<NaiveDate>,
    /// `effective_until` (inclusive).
    pub until: Option<NaiveDate>,
    /// The session it is valid for.
    pub session: Option<Session>,
    /// The series key as stored (the filter compares it case-insensitively).
    pub series: Option<String>,
    /// Numeric version parts.
    pub version_number: Option<Vec<u64>>,
    /// Lower-cased audiences; `None` when everyone may see it (no audience
    /// or an open one). `Some(empty)` is visible to no one.
    pub audience: Option<Vec<String>>,
    /// References it is known by.
    pub references: Vec<String>,
    /// References its supersession statement names.
    pub supersedes: Vec<String>,
    /// References its amendment statement names.
    pub amends: Vec<String>,
    /// How an amendment mark names it ("circular 2.2.14 (issued …)"); set
    /// only when it amends something.
    pub amender_label: Option<String>,
    /// Its chunk ids as ascending runs `(first, count)`.
    pub chunks: Vec<(u32, u32)>,
}

impl GateRecord {
    /// The record of a document with metadata `meta` (overrides applied)
    /// and chunk ids `chunks` (ascending).
    pub fn from_meta(meta: &DocMeta, chunks: impl IntoIterator<Item = u32>) -> Self {
        let amends: Vec<String> = meta.amends.as_ref().map(|f| f.value.clone()).unwrap_or_default();
        let amender_label = (!amends.is_empty()).then(|| super::amendments::describe(meta));
        Self {
            versioned: meta.versioned,
            in_force_from: meta.in_force_from(),
            until: meta.effective_until.as_ref().map(|f| f.value),
            session: meta.session.as_ref().map(|s| s.value),
            series: meta.series.as_ref().map(|s| s.value.clone()),
            version_number: meta.version_number.clone(),
            audience: lowered_audience(meta),
            references: meta.references.clone(),
            supersedes: meta.supersedes.as_ref().map(|f| f.value.clone()).unwrap_or_default(),
            amends,
            amender_label,
            chunks: runs(chunks),
        }
    }

    /// The record in the stored layout.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(64);
        let flags = [
            (self.versioned, VERSIONED),
            (self.in_force_from.is_some(), IN_FORCE),
            (self.until.is_some(), UNTIL),
            (self.session.is_some(), SESSION),
            (self.series.is_some(), SERIES),
            (self.version_number.is_some(), VERSION_NUMBER),
            (self.audience.is_some(), AUDIENCE),
            (self.amender_label.is_some(), LABEL),
        ];
        out.push(LAYOUT);
        out.push(flags.iter().filter(|(on, _)| *on).fold(0, |acc, (_, bit)| acc | bit));
        for date in [self.in_force_from, self.until].into_iter().flatten() {
            out.extend_from_slice(&date.num_days_from_ce().to_le_bytes());
        }
        if let Some(s) = self.session {
            out.extend_from_slice(&s.start_year.to_le_bytes());
        }
        if let Some(series) = &self.series {
            put_str(&mut out, series);
        }
        if let Some(v) = &self.version_number {
            put_len(&mut out, v.len());
            v.iter().for_each(|n| out.extend_from_slice(&n.to_le_bytes()));
        }
        if let Some(a) = &self.audience {
            put_strs(&mut out, a);
        }
        put_strs(&mut out, &self.references);
        put_strs(&mut out, &self.supersedes);
        put_strs(&mut out, &self.amends);
        if let Some(label) = &self.amender_label {
            put_str(&mut out, label);
        }
        put_len(&mut out, self.chunks.len());
        for (first, count) in &self.chunks {
            out.extend_from_slice(&first.to_le_bytes());
            out.extend_from_slice(&count.to_le_bytes());
        }
        out
    }
}

/// A stored record read in place: every string borrows the stored bytes.
#[derive(Debug, Clone, Copy)]
pub struct RecordView<'a> {
    /// See [`GateRecord::versioned`].
    pub versioned: bool,
    /// See [`GateRecord::in_force_from`].
    pub in_force_from: Option<NaiveDate>,
    /// See [`GateRecord::until`].
    pub until: Option<NaiveDate>,
    /// See [`GateRecord::session`].
    pub session: Option<Session>,
    /// See [`GateRecord::series`].
    pub series: Option<&'a str>,
    /// See [`GateRecord::version_number`].
    pub version_number: Option<U64s<'a>>,
    /// See [`GateRecord::audience`].
    pub audience: Option<Strs<'a>>,
    /// See [`GateRecord::references`].
    pub references: Strs<'a>,
    /// See [`GateRecord::supersedes`].
    pub supersedes: Strs<'a>,
    /// See [`GateRecord::amends`].
    pub amends: Strs<'a>,
    /// See [`GateRecord::amender_label`].
    pub amender_label: Option<&'a str>,
    /// See [`GateRecord::chunks`].
    pub chunks: Runs<'a>,
}

/// Why a stored record did not decode.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// The first byte names a layout this build does not read.
    #[error("gate record layout {0}, expected {LAYOUT}")]
    Layout(u8),
    /// The bytes end early, a length runs past them, or text is not UTF-8.
    #[error("gate record is truncated or malformed at byte {0}")]
    Malformed(usize),
}

impl<'a> RecordView<'a> {
    /// Read a stored record.
    ///
    /// # Errors
    /// [`RecordError`] for another layout or malformed bytes.
    pub fn decode(bytes: &'a [u8]) -> Result<Self, RecordError> {
        let mut r = Reader { bytes, at: 0 };
        let layout = r.u8()?;
        if layout != LAYOUT {
            return Err(RecordError::Layout(layout));
        }
        let flags = r.u8()?;
        let on = |bit: u8| flags & bit != 0;
        let in_force_from = if on(IN_FORCE) { Some(r.date()?) } else { None };
        let until = if on(UNTIL) { Some(r.date()?) } else { None };
        let session = if on(SESSION) { Some(Session { start_year: r.i32()? }) } else { None };
        let series = if on(SERIES) { Some(r.str()?) } else { None };
        let version_number = if on(VERSION_NUMBER) { Some(U64s(r.fixed(8)?)) } else { None };
        let audience = if on(AUDIENCE) { Some(r.strs()?) } else { None };
        let (references, supersedes, amends) = (r.strs()?, r.strs()?, r.strs()?);
        let amender_label = if on(LABEL) { Some(r.str()?) } else { None };
        let chunks = Runs(r.fixed(8)?);
        if r.at != bytes.len() {
            return Err(RecordError::Malformed(r.at));
        }
        let versioned = on(VERSIONED);
        Ok(Self {
            versioned,
            in_force_from,
            until,
            session,
            series,
            version_number,
            audience,
            references,
            supersedes,
            amends,
            amender_label,
            chunks,
        })
    }

    /// The owned record (for tests and comparisons).
    pub fn to_owned_record(&self) -> GateRecord {
        let strings = |s: Strs<'_>| s.iter().map(str::to_string).collect::<Vec<_>>();
        GateRecord {
            versioned: self.versioned,
            in_force_from: self.in_force_from,
            until: self.until,
            session: self.session,
            series: self.series.map(str::to_string),
            version_number: self.version_number.map(|v| v.iter().collect()),
            audience: self.audience.map(strings),
            references: strings(self.references),
            supersedes: strings(self.supersedes),
            amends: strings(self.amends),
            amender_label: self.amender_label.map(str::to_string),
            chunks: self.chunks.iter().collect(),
        }
    }
}

/// A stored list of strings (validated when the record was decoded).
#[derive(Debug, Clone, Copy)]
pub struct Strs<'a> {
    /// Each string's byte length, u32 little-endian.
    lens: &'a [u8],
    /// All the strings, one after another.
    text: &'a str,
}

impl<'a> Strs<'a> {
    /// The strings in stored order.
    pub fn iter(self) -> impl Iterator<Item = &'a str> {
        let mut at = 0usize;
        self.lens.chunks_exact(4).map_while(move |b| {
            let end = at.checked_add(u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)?;
            let s = self.text.get(at..end)?;
            at = end;
            Some(s)
        })
    }

    /// Whether the list is empty.
    pub fn is_empty(self) -> bool {
        self.lens.is_empty()
    }

    /// The number of strings.
    pub fn len(self) -> usize {
        self.lens.len() / 4
    }
}

/// A stored list of u64 (a version number).
#[derive(Debug, Clone, Copy)]
pub struct U64s<'a>(&'a [u8]);

impl U64s<'_> {
    /// The numbers in order.
    pub fn iter(self) -> impl Iterator<Item = u64> {
        self.0.chunks_exact(8).map(|b| u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]))
    }
}

/// Stored chunk-id runs `(first, count)`.
#[derive(Debug, Clone, Copy)]
pub struct Runs<'a>(&'a [u8]);

impl Runs<'_> {
    /// The runs in ascending order.
    pub fn iter(self) -> impl Iterator<Item = (u32, u32)> {
        self.0
            .chunks_exact(8)
            .map(|b| (u32::from_le_bytes([b[0], b[1], b[2], b[3]]), u32::from_le_bytes([b[4], b[5], b[6], b[7]])))
    }
}

/// A bounds-checked little-endian reader of stored bytes (also the gate
/// state's, `records::codec`).
pub(super) struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    /// A reader at the start of `bytes`.
    pub(super) fn new(bytes: &'a [u8]) -> Self {
        Self { bytes, at: 0 }
    }

    /// Whether every byte was read.
    pub(super) fn done(&self) -> bool {
        self.at == self.bytes.len()
    }

    /// Where the reader is, for errors.
    pub(super) fn at(&self) -> usize {
        self.at
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8], RecordError> {
        let end = self.at.checked_add(n).filter(|e| *e <= self.bytes.len()).ok_or(RecordError::Malformed(self.at))?;
        let out = &self.bytes[self.at..end];
        self.at = end;
        Ok(out)
    }

    pub(super) fn u8(&mut self) -> Result<u8, RecordError> {
        Ok(self.take(1)?[0])
    }

    pub(super) fn u32(&mut self) -> Result<u32, RecordError> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    pub(super) fn i32(&mut self) -> Result<i32, RecordError> {
        Ok(self.u32()? as i32)
    }

    fn date(&mut self) -> Result<NaiveDate, RecordError> {
        let at = self.at;
        NaiveDate::from_num_days_from_ce_opt(self.i32()?).ok_or(RecordError::Malformed(at))
    }

    pub(super) fn str(&mut self) -> Result<&'a str, RecordError> {
        let len = self.u32()? as usize;
        let at = self.at;
        std::str::from_utf8(self.take(len)?).map_err(|_| RecordError::Malformed(at))
    }

    /// A counted list of `width`-byte items.
    pub(super) fn fixed(&mut self, width: usize) -> Result<&'a [u8], RecordError> {
        let count = self.u32()? as usize;
        let at = self.at;
        self.take(count.checked_mul(width).ok_or(RecordError::Malformed(at))?)
    }

    fn strs(&mut self) -> Result<Strs<'a>, RecordError> {
        let lens = self.fixed(4)?;
        let at = self.at;
        let lengths = || lens.chunks_exact(4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize);
        let total = lengths().try_fold(0usize, usize::checked_add).ok_or(RecordError::Malformed(at))?;
        let text = std::str::from_utf8(self.take(total)?).map_err(|_| RecordError::Malformed(at))?;
        let mut end = 0usize;
        for len in lengths() {
            end += len;
            if !text.is_char_boundary(end) {
                return Err(RecordError::Malformed(at));
            }
        }
        Ok(Strs { lens, text })
    }
}

pub(super) fn put_len(out: &mut Vec<u8>, len: usize) {
    out.extend_from_slice(&u32::try_from(len).unwrap_or(u32::MAX).to_le_bytes());
}

pub(super) fn put_str(out: &mut Vec<u8>, s: &str) {
    let s = cut(s);
    put_len(out, s.len());
    out.extend_from_slice(s.as_bytes());
}

fn put_strs(out: &mut Vec<u8>, items: &[String]) {
    put_len(out, items.len());
    let items: Vec<&str> = items.iter().map(|s| cut(s)).collect();
    items.iter().for_each(|s| put_len(out, s.len()));
    items.iter().for_each(|s| out.extend_from_slice(s.as_bytes()));
}

/// `s`, cut at a char boundary below 4 GiB (metadata strings are far shorter).
fn cut(s: &str) -> &str {
    let mut end = s.len().min(u32::MAX as usize);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

/// `None` when the document has no audience or an open one
/// ([`OPEN_AUDIENCES`]); else its audiences, lower-cased.
fn lowered_audience(m: &DocMeta) -> Option<Vec<String>> {
    let values: Vec<String> = m.audience.as_ref()?.value.iter().map(|a| a.to_lowercase()).collect();
    (!values.iter().any(|a| OPEN_AUDIENCES.contains(&a.as_str()))).then_some(values)
}

/// Ascending ids as runs of consecutive ids `(first, count)`.
fn runs(ids: impl IntoIterator<Item = u32>) -> Vec<(u32, u32)> {
    let mut out: Vec<(u32, u32)> = Vec::new();
    for id in ids {
        match out.last_mut() {
            Some((first, count)) if first.checked_add(*count) == Some(id) => *count += 1,
            _ => out.push((id, 1)),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::freshness::meta::{Field, Provenance};

    #[test]
    fn records_round_trip_through_the_stored_layout() {
        let date = |d| NaiveDate::from_ymd_opt(2026, 4, d).unwrap();
        let meta = DocMeta {
            series: Some(Field::new("circulars/fees".into(), Provenance::Filename)),
            version_number: Some(vec![2, 1]),
            session: Session::parse("2026-27").map(|s| Field::new(s, Provenance::Title)),
            effective_from: Some(Field::new(date(1), Provenance::Text)),
            effective_until: Some(Field::new(date(30), Provenance::Text)),
            supersedes: Some(Field::new(vec!["circular:9".into()], Provenance::Text)),
            amends: Some(Field::new(vec!["circular:5".into()], Provenance::Text)),
            audience: Some(Field::new(vec!["HR-Only".into()], Provenance::FrontMatter)),
            references: vec!["circular:14".into(), "name:fees-v2-1".into()],
            versioned: true,
            ..DocMeta::default()
        };
        let record = GateRecord::from_meta(&meta, [4, 5, 6, 9, 11, 12]);
        assert_eq!(record.chunks, vec![(4, 3), (9, 1), (11, 2)]);
        assert_eq!(record.audience, Some(vec!["hr-only".to_string()]));
        assert_eq!(record.amender_label.as_deref(), Some("circular 14"));
        let bytes = record.encode();
        assert_eq!(RecordView::decode(&bytes).unwrap().to_owned_record(), record);
        let empty = GateRecord::default();
        assert_eq!(RecordView::decode(&empty.encode()).unwrap().to_owned_record(), empty);
    }

    #[test]
    fn malformed_records_are_refused_not_misread() {
        let bytes = GateRecord::from_meta(&DocMeta::default(), [1, 2]).encode();
        for cut in 0..bytes.len() {
            assert!(RecordView::decode(&bytes[..cut]).is_err(), "cut at {cut}");
        }
        let mut other = bytes.clone();
        other[0] = LAYOUT + 1;
        assert_eq!(RecordView::decode(&other).unwrap_err(), RecordError::Layout(LAYOUT + 1));
        let mut longer = bytes;
        longer.push(0);
        assert!(RecordView::decode(&longer).is_err());
    }
}
