//! Helpers for unit tests: packages built in memory.
#![allow(clippy::unwrap_used)]

use std::io::{Cursor, Write};

/// A ZIP archive of `entries` (name, bytes), deflated.
pub(crate) fn zip_of(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let mut out = Cursor::new(Vec::new());
    let mut w = zip::ZipWriter::new(&mut out);
    let opts = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    for (name, data) in entries {
        w.start_file(*name, opts).unwrap();
        w.write_all(data).unwrap();
    }
    w.finish().unwrap();
    out.into_inner()
}

/// `(heading path, text)` of each section.
pub(crate) fn outline(doc: &crate::Extracted) -> Vec<(Vec<String>, String)> {
    doc.sections.iter().map(|s| (s.heading_path.clone(), s.text.clone())).collect()
}
