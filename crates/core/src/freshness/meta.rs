//! Document metadata with provenance (ARCHITECTURE §2): every field records
//! where it came from, so `almirah docs` can show why a document is current.

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

use super::session::Session;

/// Where a metadata value came from, strongest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Provenance {
    /// `almirah docs set` or the app.
    Override,
    /// A `<file>.meta.toml` sidecar.
    Sidecar,
    /// The document's front matter.
    FrontMatter,
    /// The file name or path.
    Filename,
    /// The title or the first-page header.
    Title,
    /// The file's own document properties (since format v6): OOXML core
    /// properties, ODF `meta.xml`, an HTML page's `<title>` and `<meta>`.
    /// Weak: office software writes them by itself (a template's title,
    /// the last save as the modified date).
    Properties,
    /// The document text (effective dates, supersession statements).
    Text,
    /// The watched folder's settings.
    Folder,
    /// The file's modification time (weakest; never makes a document pending).
    FileTime,
    /// A default.
    Default,
}

/// A value and where it came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Field<T> {
    /// The value.
    pub value: T,
    /// Its source.
    pub source: Provenance,
}

impl<T> Field<T> {
    /// A value from `source`.
    pub fn new(value: T, source: Provenance) -> Self {
        Self { value, source }
    }
}

/// Everything the freshness rules need to know about a document.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct DocMeta {
    /// Title.
    pub title: Option<Field<String>>,
    /// Series key: the same document over time.
    pub series: Option<Field<String>>,
    /// Version label as written (`3`, `2.1`, `2024-11-26`).
    pub version: Option<Field<String>>,
    /// Numeric version parts for ordering (`v2.1` → `[2, 1]`).
    pub version_number: Option<Vec<u64>>,
    /// Session the document is valid for.
    pub session: Option<Field<Session>>,
    /// Date of issue.
    pub issued: Option<Field<NaiveDate>>,
    /// In force from.
    pub effective_from: Option<Field<NaiveDate>>,
    /// In force until (inclusive).
    pub effective_until: Option<Field<NaiveDate>>,
    /// References of documents this one supersedes (see `references`).
    pub supersedes: Option<Field<Vec<String>>>,
    /// References of documents this one amends in part ("… is hereby
    /// amended", "in partial modification of …", "… is replaced with …";
    /// see `references`). Unlike `supersedes`, an amended document stays
    /// current: the two are read together. Absent in records written before
    /// this field existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub amends: Option<Field<Vec<String>>>,
    /// Audiences allowed to see it; `None` means everyone.
    pub audience: Option<Field<Vec<String>>>,
    /// References this document is known by.
    pub references: Vec<String>,
    /// Whether versioning applies (`versioning = off` folders set false).
    pub versioned: bool,
}

impl DocMeta {
    /// The date from which the document is in force: `effective_from`, else
    /// `issued` unless that only came from the file time or the file's
    /// properties (a save date office software writes by itself: it never
    /// makes a document pending, nor orders two copies of one series).
    pub fn in_force_from(&self) -> Option<NaiveDate> {
        let weak = |f: &&Field<NaiveDate>| matches!(f.source, Provenance::FileTime | Provenance::Properties);
        self.effective_from
            .as_ref()
            .map(|f| f.value)
            .or_else(|| self.issued.as_ref().filter(|f| !weak(f)).map(|f| f.value))
    }

    /// A short version label for readable keys: version, else issue date, else session.
    pub fn version_label(&self) -> Option<String> {
        if !self.versioned {
            return None;
        }
        self.version.as_ref().map(|f| f.value.clone()).or_else(|| self.session.as_ref().map(|s| s.value.to_string()))
    }
}

/// The fields a user can override, by name (`almirah docs set`).
pub const OVERRIDABLE: [&str; 9] =
    ["title", "series", "version", "session", "issued", "effective_from", "effective_until", "supersedes", "audience"];
