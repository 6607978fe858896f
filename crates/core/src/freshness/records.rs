//! The gate's compact per-document status records (issue 16): what the
//! status rules need of each document, with every date-independent step
//! done once per library state. References are resolved to positions, each
//! series is sorted newest version first, audiences are lower-cased, and the
//! amendment edges are listed, so computing every document's status for an
//! as-of date is one pass over flat records: no string hashing, no map
//! lookups, no metadata decoding.
//!
//! The rules are ARCHITECTURE §2's: a document in force that names another
//! in its supersession statement supersedes it; within a series the newest
//! version in force supersedes every older one; `effective_until < D`
//! expires; not yet in force is pending; another session than `S` is
//! other-session.

use std::collections::{BTreeMap, HashMap};

use chrono::NaiveDate;

use super::meta::DocMeta;
use super::series::compare_versions;
use super::session::Session;
use super::status::{AsOf, DocStatus, OPEN_AUDIENCES};
use crate::ids::DocId;

/// A document's position in [`StatusRecords`] (document-id order).
pub type Pos = u32;

/// Every document's status record, in document-id order.
#[derive(Debug, Default)]
pub struct StatusRecords {
    docs: Vec<Record>,
    /// Series with more than one version: positions, newest version first.
    series: Vec<Vec<SeriesMember>>,
    /// Each amending document with the documents it amends.
    amendments: Vec<(Pos, Vec<Pos>)>,
}

/// One document as the status rules see it.
#[derive(Debug)]
struct Record {
    id: DocId,
    /// `DocMeta::in_force_from`: effective date, else a real issue date.
    in_force_from: Option<NaiveDate>,
    until: Option<NaiveDate>,
    session: Option<Session>,
    /// Lower-cased audiences; `None` when everyone may see it.
    audience: Option<Vec<String>>,
    /// Documents its supersession statement names (never itself).
    supersedes: Vec<Pos>,
}

/// A series member with its version rank (0 = newest; equal version keys
/// share a rank) and whether it has any version key at all.
#[derive(Debug, Clone, Copy)]
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
    /// Records for `metas` (overrides applied).
    pub fn new(metas: &BTreeMap<DocId, DocMeta>) -> Self {
        let metas: Vec<(DocId, &DocMeta)> = metas.iter().map(|(id, m)| (*id, m)).collect();
        let by_ref = reference_index(&metas);
        let resolve = |refs: Option<&Vec<String>>, own: Pos| -> Vec<Pos> {
            let mut out: Vec<Pos> = refs
                .into_iter()
                .flatten()
                .flat_map(|r| by_ref.get(r.as_str()).into_iter().flatten().copied())
                .collect();
            out.sort_unstable();
            out.dedup();
            out.retain(|p| *p != own);
            out
        };
        let docs = metas
            .iter()
            .enumerate()
            .map(|(pos, (id, m))| Record {
                id: *id,
                in_force_from: m.in_force_from(),
                until: m.effective_until.as_ref().map(|f| f.value),
                session: m.session.as_ref().map(|s| s.value),
                audience: lowered_audience(m),
                supersedes: resolve(m.supersedes.as_ref().map(|f| &f.value), pos as Pos),
            })
            .collect();
        let amendments = metas
            .iter()
            .enumerate()
            .filter_map(|(pos, (_, m))| m.amends.as_ref().map(|f| (pos as Pos, resolve(Some(&f.value), pos as Pos))))
            .filter(|(_, targets)| !targets.is_empty())
            .collect();
        Self { docs, series: series_groups(&metas), amendments }
    }

    /// The statuses of the documents `audiences` may see at `as_of`.
    pub fn statuses(&self, as_of: &AsOf, audiences: &[String]) -> StatusTable {
        let audiences: Vec<String> = audiences.iter().map(|a| a.to_lowercase()).collect();
        let in_force: Vec<bool> = self.docs.iter().map(|r| self.in_force(r, as_of)).collect();
        let mut all: Vec<DocStatus> = self.docs.iter().map(|r| own_status(r, as_of)).collect();
        for (record, _) in self.docs.iter().zip(&in_force).filter(|(_, f)| **f) {
            for target in &record.supersedes {
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
            .filter(|(_, (r, _))| visible(r, &audiences))
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
        for (amender, targets) in &self.amendments {
            let Some(by) = current(*amender) else { continue };
            for amended in targets.iter().filter_map(|t| current(*t)) {
                out.entry(amended).or_default().push(by);
            }
        }
        out
    }

    fn in_force(&self, r: &Record, as_of: &AsOf) -> bool {
        let from = r.in_force_from.or_else(|| r.session.map(|s| s.start(as_of.start_month)));
        from.is_none_or(|f| f <= as_of.date)
    }
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

/// `audiences` are lower-cased already.
fn visible(r: &Record, audiences: &[String]) -> bool {
    r.audience.as_ref().is_none_or(|allowed| allowed.iter().any(|a| audiences.contains(a)))
}

/// `None` when the document has no audience or an open one
/// ([`OPEN_AUDIENCES`]); else its audiences, lower-cased.
fn lowered_audience(m: &DocMeta) -> Option<Vec<String>> {
    let values: Vec<String> = m.audience.as_ref()?.value.iter().map(|a| a.to_lowercase()).collect();
    (!values.iter().any(|a| OPEN_AUDIENCES.contains(&a.as_str()))).then_some(values)
}

fn reference_index<'a>(metas: &[(DocId, &'a DocMeta)]) -> HashMap<&'a str, Vec<Pos>> {
    let mut index: HashMap<&str, Vec<Pos>> = HashMap::new();
    for (pos, (_, m)) in metas.iter().enumerate() {
        for r in &m.references {
            index.entry(r.as_str()).or_default().push(pos as Pos);
        }
    }
    index
}

type VersionKey<'a> = (Option<&'a [u64]>, Option<NaiveDate>, Option<Session>);

fn version_key(m: &DocMeta) -> VersionKey<'_> {
    (m.version_number.as_deref(), m.in_force_from(), m.session.as_ref().map(|s| s.value))
}

/// Versioned series with more than one member, each sorted newest first
/// (version key, then document id, both descending), in the order of their
/// first member's position.
fn series_groups(metas: &[(DocId, &DocMeta)]) -> Vec<Vec<SeriesMember>> {
    let mut groups: HashMap<&str, Vec<Pos>> = HashMap::new();
    for (pos, (_, m)) in metas.iter().enumerate().filter(|(_, (_, m))| m.versioned) {
        if let Some(series) = &m.series {
            groups.entry(series.value.as_str()).or_default().push(pos as Pos);
        }
    }
    let mut out: Vec<Vec<SeriesMember>> =
        groups.into_values().filter(|g| g.len() > 1).map(|g| ranked(metas, g)).collect();
    out.sort_by_key(|g| g.iter().map(|m| m.pos).min());
    out
}

fn ranked(metas: &[(DocId, &DocMeta)], mut members: Vec<Pos>) -> Vec<SeriesMember> {
    let key = |p: Pos| version_key(metas[p as usize].1);
    members.sort_by(|a, b| compare_versions(key(*b), key(*a)).then(b.cmp(a)));
    let mut out: Vec<SeriesMember> = Vec::with_capacity(members.len());
    for pos in members {
        let rank = match out.last() {
            Some(prev) if compare_versions(key(prev.pos), key(pos)).is_eq() => prev.rank,
            Some(prev) => prev.rank + 1,
            None => 0,
        };
        out.push(SeriesMember { pos, rank, comparable: key(pos) != (None, None, None) });
    }
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::freshness::meta::{Field, Provenance};

    fn date(y: i32, m: u32, d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, d).unwrap()
    }

    fn doc(series: &str, version: u64, from: NaiveDate, refs: &[&str]) -> DocMeta {
        DocMeta {
            series: Some(Field::new(series.into(), Provenance::Filename)),
            version: Some(Field::new(version.to_string(), Provenance::Filename)),
            version_number: Some(vec![version]),
            effective_from: Some(Field::new(from, Provenance::Text)),
            references: refs.iter().map(|r| r.to_string()).collect(),
            versioned: true,
            ..DocMeta::default()
        }
    }

    fn ids(n: u32) -> Vec<DocId> {
        (0..n).map(DocId::new).collect()
    }

    fn as_of(d: NaiveDate) -> AsOf {
        AsOf::at(d, None, 7)
    }

    #[test]
    fn newest_version_in_force_supersedes_the_older_ones_only() {
        let id = ids(3);
        let metas = BTreeMap::from([
            (id[0], doc("fees", 1, date(2024, 7, 1), &[])),
            (id[1], doc("fees", 2, date(2025, 7, 1), &[])),
            (id[2], doc("fees", 3, date(2027, 7, 1), &[])),
        ]);
        let records = StatusRecords::new(&metas);
        let table = records.statuses(&as_of(date(2026, 1, 1)), &[]);
        assert_eq!(table.get(id[0]).unwrap().superseded_by, vec![id[1]]);
        assert!(table.get(id[1]).unwrap().is_current());
        let pending = table.get(id[2]).unwrap();
        assert!(pending.pending && pending.superseded_by.is_empty());
        let later = records.statuses(&as_of(date(2027, 8, 1)), &[]);
        assert_eq!(later.get(id[1]).unwrap().superseded_by, vec![id[2]]);
        assert_eq!(later.get(id[0]).unwrap().superseded_by, vec![id[2]]);
    }

    #[test]
    fn equal_version_keys_do_not_supersede_each_other() {
        let id = ids(2);
        let metas = BTreeMap::from([
            (id[0], doc("fees", 2, date(2025, 7, 1), &[])),
            (id[1], doc("fees", 2, date(2025, 7, 1), &[])),
        ]);
        let table = StatusRecords::new(&metas).statuses(&as_of(date(2026, 1, 1)), &[]);
        assert!(table.get(id[0]).unwrap().is_current());
        assert!(table.get(id[1]).unwrap().is_current());
    }

    #[test]
    fn a_statement_supersedes_by_reference_and_never_itself() {
        let id = ids(2);
        let mut newer = doc("b", 1, date(2025, 1, 1), &["circular:7"]);
        newer.supersedes = Some(Field::new(vec!["circular:6".into(), "circular:7".into()], Provenance::Text));
        let metas = BTreeMap::from([(id[0], doc("a", 1, date(2024, 1, 1), &["circular:6"])), (id[1], newer)]);
        let records = StatusRecords::new(&metas);
        let table = records.statuses(&as_of(date(2026, 1, 1)), &[]);
        assert_eq!(table.get(id[0]).unwrap().superseded_by, vec![id[1]]);
        assert!(table.get(id[1]).unwrap().is_current());
        // Before the superseding circular is in force, the old one is current.
        let before = records.statuses(&as_of(date(2024, 6, 1)), &[]);
        assert!(before.get(id[0]).unwrap().is_current());
    }

    #[test]
    fn hidden_documents_get_no_status_and_audiences_ignore_case() {
        let id = ids(3);
        let mut hr = doc("a", 1, date(2024, 1, 1), &[]);
        hr.audience = Some(Field::new(vec!["HR-Only".into()], Provenance::FrontMatter));
        let mut open = doc("b", 1, date(2024, 1, 1), &[]);
        open.audience = Some(Field::new(vec!["Everyone".into()], Provenance::FrontMatter));
        let metas = BTreeMap::from([(id[0], hr), (id[1], open), (id[2], doc("c", 1, date(2024, 1, 1), &[]))]);
        let records = StatusRecords::new(&metas);
        let staff = records.statuses(&as_of(date(2026, 1, 1)), &["staff".into()]);
        assert!(!staff.contains(id[0]));
        assert_eq!(staff.iter().map(|(d, _)| d).collect::<Vec<_>>(), vec![id[1], id[2]]);
        let hr_user = records.statuses(&as_of(date(2026, 1, 1)), &["hr-only".into()]);
        assert!(hr_user.get(id[0]).unwrap().audience_allowed);
        assert_eq!(hr_user.find(id[2]).map(|(pos, _)| pos), Some(2));
    }

    #[test]
    fn amendments_link_current_documents_visible_to_the_user() {
        let id = ids(3);
        let mut amender = doc("b", 1, date(2025, 1, 1), &["circular:9"]);
        amender.amends = Some(Field::new(vec!["circular:5".into()], Provenance::Text));
        let mut hidden = amender.clone();
        hidden.series = Some(Field::new("c".into(), Provenance::Filename));
        hidden.audience = Some(Field::new(vec!["hr-only".into()], Provenance::FrontMatter));
        let metas = BTreeMap::from([
            (id[0], doc("a", 1, date(2024, 1, 1), &["circular:5"])),
            (id[1], amender),
            (id[2], hidden),
        ]);
        let records = StatusRecords::new(&metas);
        let staff = records.statuses(&as_of(date(2026, 1, 1)), &[]);
        assert_eq!(records.amended(&staff), BTreeMap::from([(id[0], vec![id[1]])]));
        let hr = records.statuses(&as_of(date(2026, 1, 1)), &["hr-only".into()]);
        assert_eq!(records.amended(&hr), BTreeMap::from([(id[0], vec![id[1], id[2]])]));
        // Before the amendment is in force, nothing is amended.
        let before = records.statuses(&as_of(date(2024, 6, 1)), &[]);
        assert!(records.amended(&before).is_empty());
    }
}
