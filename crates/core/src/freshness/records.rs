//! The gate's per-state status table (issue 16): what the status rules need
//! of each document, read from the stored per-document records
//! ([`super::record`]) with every date-independent step done once per
//! library state. References are resolved to positions, each series is
//! sorted newest version first, audiences are interned, chunk ids are kept
//! as runs, and the amendment edges are listed, so computing every
//! document's status for an as-of date is one pass over flat records: no
//! string hashing, no map lookups, no decoding.
//!
//! The rules are ARCHITECTURE §2's: a document in force that names another
//! in its supersession statement supersedes it; within a series the newest
//! version in force supersedes every older one; `effective_until < D`
//! expires; not yet in force is pending; another session than `S` is
//! other-session.

use std::collections::{BTreeMap, HashMap};
use std::ops::Range;

use chrono::NaiveDate;

use super::meta::DocMeta;
use super::record::{GateRecord, RecordView, Strs};
use super::series::compare_versions;
use super::session::Session;
use super::status::{AsOf, DocStatus};
use crate::ids::{ChunkId, ChunkSet, DocId};

/// A document's position in [`StatusRecords`] (document-id order).
pub type Pos = u32;

/// The versioned documents of each series, in position order, borrowing
/// the stored records.
type SeriesIndex<'a> = HashMap<&'a str, Vec<Pos>, RandomState>;

/// The hasher of the per-state indexes: fast on short strings, and seeded
/// per process, so crafted references cannot make the gate slow.
type RandomState = foldhash::fast::RandomState;

/// The audience index of a document everyone may see.
const OPEN: u32 = u32::MAX;

/// Every document's status record, in document-id order. The writer keeps
/// it built (format v8, [`StatusRecords::encode`]), so a reader decodes
/// flat arrays instead of resolving references.
#[derive(Debug, Default, PartialEq)]
pub struct StatusRecords {
    docs: Vec<Record>,
    /// Series with more than one version: positions, newest version first.
    series: Vec<Vec<SeriesMember>>,
    /// Each amending document with how a mark names it and what it amends.
    amendments: Vec<Amendment>,
    /// Resolved supersession targets; each record holds a span of it.
    edges: Vec<Pos>,
    /// Chunk-id runs `(first, count)`; each record holds a span of it.
    runs: Vec<(u32, u32)>,
    /// Series keys as stored; each record holds a span of it.
    text: String,
    /// The distinct restricted audiences (lower-cased); records index it.
    audiences: Vec<Vec<String>>,
    /// Version numbers; each record with one holds a span of it.
    versions: Vec<u64>,
    /// Every versioned series (one member or more): its key (a span of
    /// `text`) and its members (a span of `series_members`), by key.
    series_keys: Vec<(Span, Span)>,
    /// Members of `series_keys`, in position order within each series.
    series_members: Vec<Pos>,
}

/// One document as the status rules see it.
#[derive(Debug, PartialEq)]
struct Record {
    id: DocId,
    /// `DocMeta::in_force_from`: effective date, else a real issue date.
    in_force_from: Option<NaiveDate>,
    until: Option<NaiveDate>,
    session: Option<Session>,
    /// Index into `audiences`; [`OPEN`] when everyone may see it.
    audience: u32,
    /// Documents its supersession statement names (never itself).
    edges: Span,
    runs: Span,
    series: Option<Span>,
    /// Its version number, a span of `versions`.
    version: Option<Span>,
    /// Whether versioning applies (series ranking, unreadable marks).
    versioned: bool,
}

/// A range of one of the flat vectors of [`StatusRecords`].
#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct Span {
    start: u32,
    end: u32,
}

impl Span {
    fn range(self) -> Range<usize> {
        self.start as usize..self.end as usize
    }
}

/// An amending document, how marks name it, and the documents it amends.
#[derive(Debug, PartialEq)]
struct Amendment {
    by: Pos,
    label: String,
    targets: Vec<Pos>,
}

/// A series member with its version rank (0 = newest; equal version keys
/// share a rank) and whether it has any version key at all.
#[derive(Debug, Clone, Copy, PartialEq)]
struct SeriesMember {
    pos: Pos,
    rank: u32,
    comparable: bool,
}

/// Statuses of the documents visible to one audience at one as-of date, by
/// document id.
#[derive(Debug, Clone, Default)]
pub struct StatusTable {
    /// Visible documents: id, position in the records, status; by id.
    entries: Vec<(DocId, Pos, DocStatus)>,
}

impl StatusTable {
    /// The status of a visible document.
    pub fn get(&self, doc: DocId) -> Option<&DocStatus> {
        self.find(doc).map(|(_, s)| s)
    }

    /// The position in the records and the status of a visible document.
    pub fn find(&self, doc: DocId) -> Option<(Pos, &DocStatus)> {
        let i = self.entries.binary_search_by_key(&doc, |(id, _, _)| *id).ok()?;
        let (_, pos, status) = &self.entries[i];
        Some((*pos, status))
    }

    /// Whether `doc` is visible.
    pub fn contains(&self, doc: DocId) -> bool {
        self.get(doc).is_some()
    }

    /// Visible documents with their statuses, by id.
    pub fn iter(&self) -> impl Iterator<Item = (DocId, &DocStatus)> + '_ {
        self.entries.iter().map(|(id, _, s)| (*id, s))
    }

    /// Visible documents' positions in the records, with their statuses.
    pub fn positions(&self) -> impl Iterator<Item = (Pos, &DocStatus)> + '_ {
        self.entries.iter().map(|(_, pos, s)| (*pos, s))
    }
}

impl StatusRecords {
    /// Records for `metas` (overrides applied), without chunks: the same
    /// records the writer stores, encoded and read back.
    pub fn new(metas: &BTreeMap<DocId, DocMeta>) -> Self {
        let encoded: Vec<(DocId, Vec<u8>)> =
            metas.iter().map(|(id, m)| (*id, GateRecord::from_meta(m, []).encode())).collect();
        let views: Vec<(DocId, RecordView<'_>)> =
            encoded.iter().filter_map(|(id, bytes)| Some((*id, RecordView::decode(bytes).ok()?))).collect();
        Self::from_views(&views)
    }

    /// Records for `views` (stored records, in document-id order).
    pub fn from_views(views: &[(DocId, RecordView<'_>)]) -> Self {
        let mut out = Self { docs: Vec::with_capacity(views.len()), ..Self::default() };
        let mut refs = RefIndex::with_capacity(views.len() * 3);
        let mut series: SeriesIndex<'_> = HashMap::with_capacity_and_hasher(views.len(), RandomState::default());
        for (pos, (id, view)) in views.iter().enumerate() {
            let pos = pos as Pos;
            view.references.iter().for_each(|r| refs.add(r, pos));
            if let Some(s) = view.series.filter(|_| view.versioned) {
                series.entry(s).or_default().push(pos);
            }
            let record = Record {
                id: *id,
                in_force_from: view.in_force_from,
                until: view.until,
                session: view.session,
                audience: out.audience_index(view.audience),
                edges: Span::default(),
                runs: out.push_runs(view),
                series: view.series.map(|s| out.push_text(s)),
                version: view.version_number.map(|v| out.push_version(v.iter())),
                versioned: view.versioned,
            };
            out.docs.push(record);
        }
        for (pos, (_, view)) in views.iter().enumerate() {
            let start = out.edges.len() as u32;
            refs.resolve(view.supersedes, pos as Pos, &mut out.edges);
            out.docs[pos].edges = Span { start, end: out.edges.len() as u32 };
            if !view.amends.is_empty() {
                let mut targets = Vec::new();
                refs.resolve(view.amends, pos as Pos, &mut targets);
                let label = view.amender_label.unwrap_or("a later document").to_string();
                if !targets.is_empty() {
                    out.amendments.push(Amendment { by: pos as Pos, label, targets });
                }
            }
        }
        out.series = series_groups(views, &series);
        out.index_series(&series);
        out
    }

    /// Fill `series_keys` and `series_members` from `series`.
    fn index_series(&mut self, series: &SeriesIndex<'_>) {
        let mut keys: Vec<(&str, &Vec<Pos>)> = series.iter().map(|(k, m)| (*k, m)).collect();
        keys.sort_unstable_by_key(|(k, _)| *k);
        for (_, members) in keys {
            let Some(key) = members.first().and_then(|p| self.docs[*p as usize].series) else { continue };
            let start = self.series_members.len() as u32;
            self.series_members.extend(members);
            self.series_keys.push((key, Span { start, end: self.series_members.len() as u32 }));
        }
    }

    fn push_version(&mut self, number: impl Iterator<Item = u64>) -> Span {
        let start = self.versions.len() as u32;
        self.versions.extend(number);
        Span { start, end: self.versions.len() as u32 }
    }

    /// The positions of the versioned documents whose series key is `key`
    /// (as stored), in position order.
    pub fn versioned_in_series(&self, key: &str) -> &[Pos] {
        let text = |span: Span| self.text.get(span.range()).unwrap_or("");
        match self.series_keys.binary_search_by(|(k, _)| text(*k).cmp(key)) {
            Ok(i) => self.series_members.get(self.series_keys[i].1.range()).unwrap_or(&[]),
            Err(_) => &[],
        }
    }

    /// The version key of the document at `pos`: version number, in force
    /// from, session ([`compare_versions`] orders them).
    pub fn version_key(&self, pos: Pos) -> (Option<&[u64]>, Option<NaiveDate>, Option<Session>) {
        let Some(r) = self.docs.get(pos as usize) else { return (None, None, None) };
        (r.version.and_then(|s| self.versions.get(s.range())), r.in_force_from, r.session)
    }

    /// The document id at `pos`.
    pub fn id(&self, pos: Pos) -> Option<DocId> {
        self.docs.get(pos as usize).map(|r| r.id)
    }

    fn audience_index(&mut self, audience: Option<Strs<'_>>) -> u32 {
        let Some(wanted) = audience else { return OPEN };
        let same =
            |set: &Vec<String>| set.len() == wanted.iter().count() && set.iter().map(String::as_str).eq(wanted.iter());
        if let Some(i) = self.audiences.iter().position(same) {
            return i as u32;
        }
        self.audiences.push(wanted.iter().map(str::to_string).collect());
        self.audiences.len() as u32 - 1
    }

    fn push_runs(&mut self, view: &RecordView<'_>) -> Span {
        let start = self.runs.len() as u32;
        self.runs.extend(view.chunks.iter());
        Span { start, end: self.runs.len() as u32 }
    }

    fn push_text(&mut self, s: &str) -> Span {
        let start = self.text.len() as u32;
        self.text.push_str(s);
        Span { start, end: self.text.len() as u32 }
    }

    /// The number of documents.
    pub fn len(&self) -> usize {
        self.docs.len()
    }

    /// Whether there are no documents.
    pub fn is_empty(&self) -> bool {
        self.docs.is_empty()
    }

    /// The chunk-id runs `(first, count)` of the document at `pos`.
    pub fn runs(&self, pos: Pos) -> &[(u32, u32)] {
        match self.docs.get(pos as usize) {
            Some(r) => &self.runs[r.runs.range()],
            None => &[],
        }
    }

    /// The chunks of the document at `pos`.
    pub fn chunks(&self, pos: Pos) -> ChunkSet {
        self.chunks_of([pos])
    }

    /// The chunks of the documents at `positions`, in one set.
    pub fn chunks_of(&self, positions: impl IntoIterator<Item = Pos>) -> ChunkSet {
        let mut ids: Vec<u32> = Vec::new();
        for pos in positions {
            for (first, count) in self.runs(pos) {
                ids.extend((0..*count).map_while(|i| first.checked_add(i)));
            }
        }
        // Chunk ids grow with document ids except where a document was
        // indexed again; sorted ids build the set by appending.
        if !ids.is_sorted() {
            ids.sort_unstable();
        }
        ChunkSet::from_sorted_ids(ids.into_iter().map(ChunkId::new))
    }

    /// The series key of the document at `pos`, as stored.
    pub fn series(&self, pos: Pos) -> Option<&str> {
        let span = self.docs.get(pos as usize)?.series?;
        self.text.get(span.range())
    }

    /// The session of the document at `pos`.
    pub fn session(&self, pos: Pos) -> Option<Session> {
        self.docs.get(pos as usize)?.session
    }

    /// How amendment marks name `doc`, when it amends a document.
    pub fn amender_label(&self, doc: DocId) -> Option<&str> {
        let pos = self.docs.binary_search_by_key(&doc, |r| r.id).ok()? as Pos;
        self.amendments.iter().find(|a| a.by == pos).map(|a| a.label.as_str())
    }

    /// The statuses of the documents `audiences` may see at `as_of`.
    pub fn statuses(&self, as_of: &AsOf, audiences: &[String]) -> StatusTable {
        let audiences: Vec<String> = audiences.iter().map(|a| a.to_lowercase()).collect();
        let allowed: Vec<bool> = self.audiences.iter().map(|set| set.iter().any(|a| audiences.contains(a))).collect();
        let visible = |r: &Record| r.audience == OPEN || allowed.get(r.audience as usize).copied().unwrap_or(false);
        let in_force: Vec<bool> = self.docs.iter().map(|r| in_force(r, as_of)).collect();
        let mut all: Vec<DocStatus> = self.docs.iter().map(|r| own_status(r, as_of)).collect();
        for (record, _) in self.docs.iter().zip(&in_force).filter(|(_, f)| **f) {
            for target in &self.edges[record.edges.range()] {
                mark(&mut all, *target, record.id);
            }
        }
        for members in &self.series {
            let Some(newest) = members.iter().find(|m| in_force[m.pos as usize]) else { continue };
            let by = self.docs[newest.pos as usize].id;
            for older in members.iter().filter(|m| newest.comparable && m.comparable && m.rank > newest.rank) {
                mark(&mut all, older.pos, by);
            }
        }
        let entries = self
            .docs
            .iter()
            .zip(all)
            .enumerate()
            .filter(|(_, (r, _))| visible(r))
            .map(|(pos, (r, mut s))| {
                s.audience_allowed = true;
                (r.id, pos as Pos, s)
            })
            .collect();
        StatusTable { entries }
    }

    /// Each current document amended by a current one, with its amenders
    /// (both visible in `table`), by document id.
    pub fn amended(&self, table: &StatusTable) -> BTreeMap<DocId, Vec<DocId>> {
        let current = |pos: Pos| {
            let id = self.docs[pos as usize].id;
            table.get(id).is_some_and(DocStatus::is_current).then_some(id)
        };
        let mut out: BTreeMap<DocId, Vec<DocId>> = BTreeMap::new();
        for amendment in &self.amendments {
            let Some(by) = current(amendment.by) else { continue };
            for amended in amendment.targets.iter().filter_map(|t| current(*t)) {
                out.entry(amended).or_default().push(by);
            }
        }
        out
    }
}

fn in_force(r: &Record, as_of: &AsOf) -> bool {
    let from = r.in_force_from.or_else(|| r.session.map(|s| s.start(as_of.start_month)));
    from.is_none_or(|f| f <= as_of.date)
}

fn own_status(r: &Record, as_of: &AsOf) -> DocStatus {
    DocStatus {
        superseded_by: Vec::new(),
        expired: r.until.is_some_and(|u| u < as_of.date),
        pending: r.in_force_from.is_some_and(|d| d > as_of.date),
        other_session: r.session.filter(|s| *s != as_of.session),
        audience_allowed: false,
    }
}

fn mark(all: &mut [DocStatus], target: Pos, by: DocId) {
    if let Some(s) = all.get_mut(target as usize)
        && !s.superseded_by.contains(&by)
    {
        s.superseded_by.push(by);
    }
}

/// Reference → documents known by it, as linked lists in one vector (no
/// allocation per reference).
struct RefIndex<'a> {
    /// Reference → its last link.
    heads: HashMap<&'a str, u32, RandomState>,
    /// `(document, previous link)`.
    links: Vec<(Pos, u32)>,
}

const NO_LINK: u32 = u32::MAX;

impl<'a> RefIndex<'a> {
    fn with_capacity(n: usize) -> Self {
        Self { heads: HashMap::with_capacity_and_hasher(n, RandomState::default()), links: Vec::with_capacity(n) }
    }

    fn add(&mut self, reference: &'a str, pos: Pos) {
        let link = self.links.len() as u32;
        let previous = self.heads.insert(reference, link).unwrap_or(NO_LINK);
        self.links.push((pos, previous));
    }

    /// Append the documents `refs` name, sorted, once each, never `own`.
    fn resolve(&self, refs: Strs<'_>, own: Pos, out: &mut Vec<Pos>) {
        let start = out.len();
        for r in refs.iter() {
            let mut at = self.heads.get(r).copied().unwrap_or(NO_LINK);
            while let Some(&(pos, previous)) = self.links.get(at as usize) {
                out.push(pos);
                at = previous;
            }
        }
        let mut found = out.split_off(start);
        found.sort_unstable();
        found.dedup();
        found.retain(|p| *p != own);
        out.extend(found);
    }
}

/// Versioned series with more than one member, each sorted newest first
/// (version key, then document id, both descending), in the order of their
/// first member's position.
fn series_groups(views: &[(DocId, RecordView<'_>)], series: &SeriesIndex<'_>) -> Vec<Vec<SeriesMember>> {
    let mut out: Vec<Vec<SeriesMember>> =
        series.values().filter(|g| g.len() > 1).map(|g| ranked(views, g.clone())).collect();
    out.sort_by_key(|g| g.iter().map(|m| m.pos).min());
    out
}

fn ranked(views: &[(DocId, RecordView<'_>)], members: Vec<Pos>) -> Vec<SeriesMember> {
    // Every member's version number, in one vector.
    let mut numbers: Vec<u64> = Vec::new();
    let spans: Vec<Option<Span>> = members
        .iter()
        .map(|p| {
            let start = numbers.len() as u32;
            let v = views[*p as usize].1.version_number?;
            numbers.extend(v.iter());
            Some(Span { start, end: numbers.len() as u32 })
        })
        .collect();
    let key = |i: usize| {
        let view = &views[members[i] as usize].1;
        (spans[i].map(|s| &numbers[s.range()]), view.in_force_from, view.session)
    };
    let mut order: Vec<usize> = (0..members.len()).collect();
    order.sort_by(|a, b| compare_versions(key(*b), key(*a)).then(members[*b].cmp(&members[*a])));
    let mut out: Vec<SeriesMember> = Vec::with_capacity(members.len());
    let mut previous: Option<usize> = None;
    for i in order {
        let rank = match (previous, out.last()) {
            (Some(p), Some(last)) if compare_versions(key(p), key(i)).is_eq() => last.rank,
            (Some(_), Some(last)) => last.rank + 1,
            _ => 0,
        };
        out.push(SeriesMember { pos: members[i], rank, comparable: key(i) != (None, None, None) });
        previous = Some(i);
    }
    out
}

mod codec;

#[cfg(test)]
mod tests;
