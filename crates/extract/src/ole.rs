//! OLE compound files (MS-CFB), read with the `cfb` crate, told apart by
//! their streams:
//! - `EncryptionInfo` and `EncryptedPackage`: a password-protected OOXML
//!   file (`.docx`, `.xlsx`); Office wraps the encrypted ZIP package in a
//!   compound file (MS-OFFCRYPTO §2.3.4, ECMA-376 Part 2 encryption);
//! - `WordDocument`: a Word 97-2003 document (MS-DOC);
//! - `Workbook` or `Book`: an Excel 97-2003 workbook (MS-XLS), which
//!   calamine reads;
//! - `PowerPoint Document`: a PowerPoint 97-2003 presentation.

use std::io::Cursor;

use crate::ExtractError;
use crate::guard::guarded;

/// What a compound file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum OleKind {
    /// A password-protected OOXML package.
    EncryptedOoxml,
    /// A Word 97-2003 document.
    Word97,
    /// An Excel 97-2003 workbook.
    Excel97,
    /// A PowerPoint 97-2003 presentation.
    PowerPoint97,
    /// None of these.
    Other,
}

/// Classify a compound file by its root streams.
///
/// # Errors
/// [`ExtractError::Failed`] when the compound file cannot be opened.
pub(crate) fn classify(bytes: &[u8]) -> Result<OleKind, ExtractError> {
    let file = guarded(|| cfb::CompoundFile::open(Cursor::new(bytes)))?
        .map_err(|e| ExtractError::Failed(format!("a damaged OLE compound file: {e}")))?;
    let has = |name: &str| file.is_stream(format!("/{name}"));
    Ok(if has("EncryptionInfo") && has("EncryptedPackage") {
        OleKind::EncryptedOoxml
    } else if has("WordDocument") {
        OleKind::Word97
    } else if has("Workbook") || has("Book") {
        OleKind::Excel97
    } else if has("PowerPoint Document") {
        OleKind::PowerPoint97
    } else {
        OleKind::Other
    })
}

/// The status of a compound file found where a Word document was expected
/// (a `.doc`, or a `.docx` that is not a ZIP package).
pub(crate) fn word_status(bytes: &[u8]) -> ExtractError {
    match classify(bytes) {
        Ok(OleKind::EncryptedOoxml) => ExtractError::NeedsPassword,
        Ok(OleKind::Word97) => word97(),
        Ok(OleKind::Excel97) => {
            ExtractError::NeedsConversion("an Excel 97-2003 workbook with a Word name; rename it to .xls".into())
        }
        Ok(OleKind::PowerPoint97 | OleKind::Other) => ExtractError::Unsupported,
        Err(e) => e,
    }
}

/// The status of a Word 97-2003 document.
pub(crate) fn word97() -> ExtractError {
    ExtractError::NeedsConversion(
        "a Word 97-2003 document (.doc); open it in Word or LibreOffice and save it as .docx".into(),
    )
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use std::io::Write;

    use super::*;

    fn compound(streams: &[&str]) -> Vec<u8> {
        let mut file = cfb::CompoundFile::create(Cursor::new(Vec::new())).unwrap();
        for name in streams {
            file.create_stream(format!("/{name}")).unwrap().write_all(b"data").unwrap();
        }
        file.flush().unwrap();
        file.into_inner().into_inner()
    }

    #[test]
    fn streams_tell_encrypted_ooxml_from_legacy_word() {
        assert_eq!(word_status(&compound(&["EncryptionInfo", "EncryptedPackage"])), ExtractError::NeedsPassword);
        assert!(
            matches!(word_status(&compound(&["WordDocument", "1Table"])), ExtractError::NeedsConversion(m) if m.contains(".docx"))
        );
        assert_eq!(classify(&compound(&["Workbook"])).unwrap(), OleKind::Excel97);
        assert!(matches!(word_status(b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1 short"), ExtractError::Failed(_)));
    }
}
