//! The ZIP package of Office Open XML (ECMA-376 Part 2, Open Packaging
//! Conventions) and OpenDocument (OASIS ODF 1.3 Part 2 §3) files, read with
//! the `zip` crate under [`Limits`].
//!
//! A ZIP bomb is a small file whose entries expand to gigabytes, or that
//! holds millions of entries. Declared sizes can lie, so the limits are
//! enforced on the bytes actually decompressed: every entry is read through
//! a reader that stops one byte past what is left of the budget.

use std::io::{Cursor, Read};

use zip::ZipArchive;
use zip::result::ZipError;

use crate::ExtractError;
use crate::guard::guarded;

/// Caps on what one package may hold. A real document stays far below
/// them: a 300-page report with images is a few hundred entries and tens of
/// MiB; its XML parts a few MiB.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Entries in the ZIP central directory (default 10,000).
    pub max_entries: usize,
    /// Uncompressed bytes read from the whole package (default 512 MiB).
    pub max_total_bytes: u64,
    /// Uncompressed bytes of one part (default 256 MiB).
    pub max_part_bytes: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Self { max_entries: 10_000, max_total_bytes: 512 << 20, max_part_bytes: 256 << 20 }
    }
}

/// An open package and the bytes read from it so far.
pub(crate) struct Package<'a> {
    zip: ZipArchive<Cursor<&'a [u8]>>,
    /// What the file is, for messages ("Word document").
    what: &'static str,
    limits: Limits,
    read: u64,
}

impl<'a> Package<'a> {
    /// Open `bytes` as a ZIP package of `what`.
    ///
    /// # Errors
    /// [`ExtractError::Failed`] for a damaged or truncated archive, or one
    /// with more than [`Limits::max_entries`] entries.
    pub(crate) fn open(bytes: &'a [u8], what: &'static str, limits: Limits) -> Result<Self, ExtractError> {
        let zip = guarded(|| ZipArchive::new(Cursor::new(bytes)))?.map_err(|e| zip_error(what, &e))?;
        if zip.len() > limits.max_entries {
            return Err(ExtractError::Failed(format!(
                "too large: the {what} holds {} entries (limit {}; a ZIP bomb?)",
                zip.len(),
                limits.max_entries
            )));
        }
        Ok(Self { zip, what, limits, read: 0 })
    }

    /// Whether the package has an entry named `name` (case-insensitive, as
    /// OPC part names are).
    pub(crate) fn has(&self, name: &str) -> bool {
        self.index(name).is_some()
    }

    /// The entry `name` as text (UTF-8, or UTF-16 by its BOM); `None` when
    /// the package has no such entry.
    ///
    /// # Errors
    /// [`ExtractError::Failed`] when it cannot be decompressed or goes past
    /// the limits.
    pub(crate) fn text(&mut self, name: &str) -> Result<Option<String>, ExtractError> {
        Ok(self.bytes(name)?.map(|b| crate::xml::decode_part(&b)))
    }

    /// The entry `name`, decompressed under the limits; `None` when absent.
    ///
    /// # Errors
    /// As [`Package::text`].
    pub(crate) fn bytes(&mut self, name: &str) -> Result<Option<Vec<u8>>, ExtractError> {
        let Some(index) = self.index(name) else { return Ok(None) };
        self.read_index(index).map(Some)
    }

    /// Decompress every entry through the limits, keeping nothing: a check
    /// before a parser that reads the package itself (calamine).
    ///
    /// # Errors
    /// As [`Package::text`].
    pub(crate) fn check_all(&mut self) -> Result<(), ExtractError> {
        for index in 0..self.zip.len() {
            self.read_index(index)?;
        }
        Ok(())
    }

    fn index(&self, name: &str) -> Option<usize> {
        let name = name.trim_start_matches('/');
        self.zip
            .index_for_name(name)
            .or_else(|| self.zip.file_names().position(|n| n.as_ref().is_ok_and(|n| n.eq_ignore_ascii_case(name))))
    }

    fn read_index(&mut self, index: usize) -> Result<Vec<u8>, ExtractError> {
        let (what, left) = (self.what, self.limits.max_total_bytes.saturating_sub(self.read));
        let cap = left.min(self.limits.max_part_bytes);
        let zip = &mut self.zip;
        let (name, bytes) = guarded(|| {
            let mut entry = zip.by_index(index)?;
            let name = entry.name().map(|n| n.into_owned()).unwrap_or_default();
            let mut bytes = Vec::new();
            (&mut entry).take(cap.saturating_add(1)).read_to_end(&mut bytes)?;
            Ok::<_, ZipError>((name, bytes))
        })?
        .map_err(|e| zip_error(what, &e))?;
        if bytes.len() as u64 > cap {
            let limit = if cap == left { self.limits.max_total_bytes } else { self.limits.max_part_bytes };
            return Err(ExtractError::Failed(format!(
                "too large: the {what} expands past {} MiB (at {name}; a ZIP bomb?)",
                limit >> 20
            )));
        }
        self.read += bytes.len() as u64;
        Ok(bytes)
    }
}

/// A `zip` error as a per-file status.
fn zip_error(what: &str, e: &ZipError) -> ExtractError {
    match e {
        ZipError::InvalidPassword | ZipError::UnsupportedArchive(ZipError::PASSWORD_REQUIRED) => {
            ExtractError::NeedsPassword
        }
        ZipError::Io(io) => {
            ExtractError::Failed(format!("not a valid {what}: the ZIP package is damaged or truncated ({io})"))
        }
        other => ExtractError::Failed(format!("not a valid {what}: the ZIP package is damaged or truncated ({other})")),
    }
}

/// What a file's first bytes say it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Container {
    /// A ZIP archive (`PK\x03\x04`, or `PK\x05\x06` for an empty one).
    Zip,
    /// An OLE compound file (`D0 CF 11 E0 A1 B1 1A E1`, MS-CFB §2.2):
    /// legacy Office, or an encrypted OOXML package.
    Ole,
    /// An RTF document (`{\rtf`).
    Rtf,
    /// Anything else.
    Other,
}

/// Sniff the container of `bytes` by its signature.
pub(crate) fn sniff(bytes: &[u8]) -> Container {
    if bytes.starts_with(b"PK\x03\x04") || bytes.starts_with(b"PK\x05\x06") {
        Container::Zip
    } else if bytes.starts_with(&[0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]) {
        Container::Ole
    } else if bytes.starts_with(b"{\\rtf") {
        Container::Rtf
    } else {
        Container::Other
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::testing::zip_of;

    #[test]
    fn reads_parts_case_insensitively() {
        let bytes = zip_of(&[("word/document.xml", b"<w:document/>")]);
        let mut p = Package::open(&bytes, "Word document", Limits::default()).unwrap();
        assert!(p.has("Word/Document.xml"));
        assert_eq!(p.text("/word/document.xml").unwrap().as_deref(), Some("<w:document/>"));
        assert_eq!(p.text("word/missing.xml").unwrap(), None);
    }

    #[test]
    fn the_budget_counts_decompressed_bytes() {
        let bytes = zip_of(&[("a.xml", &[b'a'; 3000]), ("b.xml", &[b'b'; 3000])]);
        assert!(bytes.len() < 1000, "compresses well");
        let limits = Limits { max_entries: 10, max_total_bytes: 5000, max_part_bytes: 4000 };
        let mut p = Package::open(&bytes, "Word document", limits).unwrap();
        assert_eq!(p.bytes("a.xml").unwrap().unwrap().len(), 3000);
        let err = p.bytes("b.xml").unwrap_err();
        assert!(err.to_string().contains("expands past"), "{err}");
        let few = Limits { max_entries: 1, ..limits };
        assert!(Package::open(&bytes, "Word document", few).err().unwrap().to_string().contains("2 entries"));
    }

    #[test]
    fn truncated_and_foreign_bytes_fail_clearly() {
        let bytes = zip_of(&[("a.xml", &[b'a'; 3000])]);
        let err = Package::open(&bytes[..bytes.len() / 2], "Word document", Limits::default()).err().unwrap();
        assert!(err.to_string().contains("damaged or truncated"), "{err}");
        assert_eq!(sniff(&bytes), Container::Zip);
        assert_eq!(sniff(b"{\\rtf1\\ansi"), Container::Rtf);
        assert_eq!(sniff(b"hello"), Container::Other);
    }
}
