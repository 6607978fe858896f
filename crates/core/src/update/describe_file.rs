//! Metadata for a file being indexed: find its watched folder, build the
//! header and opening text, and call [`crate::freshness::describe`].

use std::collections::BTreeMap;
use std::path::Path;

use almirah_extract::Extracted;
use chrono::DateTime;

use crate::freshness::header::page_header;
use crate::freshness::{DescribeInput, DocMeta, FolderSettings, describe};

/// Bytes of the document used for effective dates and supersession statements.
const OPENING_BYTES: usize = 4000;

/// The settings of the folder holding `path` (the longest matching folder),
/// and the path relative to it.
pub fn folder_for<'a>(folders: &'a [FolderSettings], path: &'a Path) -> (Option<&'a FolderSettings>, String) {
    let best = FolderSettings::holding(folders, path);
    let rel = best.and_then(|f| path.strip_prefix(&f.path).ok()).unwrap_or(path).to_string_lossy().into_owned();
    (best, rel)
}

/// Describe an extracted file.
pub fn describe_file(
    folders: &[FolderSettings],
    path: &Path,
    mtime_ns: i128,
    doc: &Extracted,
    sidecar: &BTreeMap<String, serde_json::Value>,
) -> DocMeta {
    let (folder, rel) = folder_for(folders, path);
    let default = FolderSettings::default();
    let folder = folder.unwrap_or(&default);
    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let title = doc.title.as_deref();
    let header = header_with_title(doc, title);
    let mut opening = String::new();
    for s in &doc.sections {
        if opening.len() >= OPENING_BYTES {
            break;
        }
        opening.push_str(prefix(&s.text, OPENING_BYTES - opening.len()));
        opening.push('\n');
    }
    let file_date = DateTime::from_timestamp((mtime_ns / 1_000_000_000) as i64, 0).map(|t| t.date_naive());
    describe(&DescribeInput {
        rel_path: &rel,
        file_stem: &stem,
        title,
        front_matter: &doc.front_matter,
        sidecar,
        header: &header,
        opening: &opening,
        properties: &doc.properties,
        file_date,
        folder,
    })
}

/// The title, then the first-page header; the title is left out when the
/// first page already holds it (a scan's subject line, a first line taken
/// as the title), so the header's first document number stays the
/// document's own and not one its subject line cites.
fn header_with_title(doc: &Extracted, title: Option<&str>) -> String {
    let words = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let first = words(doc.sections.first().map_or("", |s| s.text.as_str()));
    match title.map(words) {
        Some(t) if !t.is_empty() && !first.contains(&t) => format!("{t}\n{}", header_text(doc)),
        _ => format!("\n{}", header_text(doc)),
    }
}

/// The first-page header: for a PDF the start of page 1 (see
/// [`crate::freshness::header`]); for text and
/// Markdown only the short lines at the very top (a letterhead, "Circular
/// No. 14 (2026-27)", "Dated: …"), never a body paragraph.
fn header_text(doc: &Extracted) -> String {
    let first = doc.sections.first().map_or("", |s| s.text.as_str());
    if doc.kind == almirah_extract::FileKind::Pdf {
        return page_header(first).to_string();
    }
    first
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .take_while(|l| l.chars().count() <= 100)
        .take(6)
        .collect::<Vec<_>>()
        .join("\n")
}

fn prefix(s: &str, max: usize) -> &str {
    if s.len() <= max {
        return s;
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

/// The readable document key: `<series-or-stem slug>@<version label>`.
pub fn key_base(path: &Path, meta: &DocMeta) -> String {
    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let name = match meta.series.as_ref().filter(|_| meta.version_label().is_some()) {
        Some(series) => series.value.rsplit('/').next().unwrap_or(&series.value).to_string(),
        None => stem,
    };
    let base = crate::source_file::slug(&name);
    match meta.version_label() {
        Some(v) => {
            format!("{base}@{}", crate::source_file::slug(&v).replace("-", if v.contains('.') { "." } else { "-" }))
        }
        None => base,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::freshness::{Field, Provenance};

    #[test]
    fn keys_carry_the_version() {
        let mut meta = DocMeta { versioned: true, ..DocMeta::default() };
        meta.series = Some(Field::new("travel-and-leave/fmla".into(), Provenance::Filename));
        meta.version = Some(Field::new("2024-12-18".into(), Provenance::Filename));
        assert_eq!(key_base(Path::new("/x/fmla/2024-12-18_651a96c.md"), &meta), "fmla@2024-12-18");
        let plain = DocMeta::default();
        assert_eq!(key_base(Path::new("/x/Leave Policy.md"), &plain), "leave-policy");
    }

    #[test]
    fn the_longest_folder_wins() {
        let folders = vec![
            FolderSettings { path: "/lib".into(), ..FolderSettings::default() },
            FolderSettings { path: "/lib/qa".into(), ..FolderSettings::default() },
        ];
        let (f, rel) = folder_for(&folders, Path::new("/lib/qa/p/1.txt"));
        assert_eq!(f.unwrap().path, Path::new("/lib/qa"));
        assert_eq!(rel, "p/1.txt");
    }
}
