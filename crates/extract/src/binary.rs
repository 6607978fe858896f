//! Binary detection for files read as text (Markdown, plain text, CSV and
//! extension-less files), after ripgrep's `grep-searcher`, which treats a
//! NUL byte as the sign of binary content, refined so that text with a few
//! stray NULs still reads as text. On the first 8 KiB:
//! - valid UTF-8 once NUL bytes are set aside: text (NULs are stripped later);
//! - else a UTF-16 byte-order mark: text;
//! - else any NUL byte: binary;
//! - else more than 5% control bytes that no text encoding uses for text (C0
//!   controls other than tab, line feed, vertical tab, form feed, carriage
//!   return and escape): binary;
//! - else text in a legacy encoding (Latin-1, Shift JIS, Windows-1251, …).

/// Bytes examined, from the start of the file.
const SAMPLE_BYTES: usize = 8 * 1024;
/// Share of stray control bytes above which content is binary.
const MAX_CONTROL_SHARE: f64 = 0.05;

/// Whether `bytes` are binary content rather than text.
pub(crate) fn looks_binary(bytes: &[u8]) -> bool {
    let sample = &bytes[..bytes.len().min(SAMPLE_BYTES)];
    let without_nul: Vec<u8> = sample.iter().copied().filter(|b| *b != 0).collect();
    // A multi-byte character cut at the end of the sample is still UTF-8.
    let utf8 = std::str::from_utf8(&without_nul).map_or_else(|e| e.error_len().is_none(), |_| true);
    if utf8 || bytes.starts_with(b"\xFF\xFE") || bytes.starts_with(b"\xFE\xFF") {
        return false;
    }
    if sample.contains(&0) {
        return true;
    }
    let stray = sample.iter().filter(|b| b.is_ascii_control() && !b"\t\n\x0B\x0C\r\x1B\x7F".contains(b)).count();
    stray as f64 / sample.len() as f64 > MAX_CONTROL_SHARE
}

#[cfg(test)]
mod tests {
    use super::looks_binary;

    #[test]
    fn nul_bytes_and_control_noise_are_binary_and_text_is_not() {
        assert!(looks_binary(b"\x7fELF\x02\x01\x01\0\0\0\xe8\x9c\xff\x90"));
        assert!(looks_binary(&[0x81, 0x02, 0x03, 0x04, b'a', b'b', 0x05, 0x06, 0x10, 0xd1]));
        assert!(!looks_binary(b"Travel\0 policy\n\nPer diem\0\0 rates apply.\x07\x1b\n"), "stray NULs in text");
        assert!(!looks_binary(b"Cong\xe9s pay\xe9s\n"), "Latin-1 text");
        assert!(!looks_binary("# Leave policy\n\nEarned leave is 18 days.\n".as_bytes()));
        assert!(!looks_binary("छात्रावास शुल्क\r\n".as_bytes()));
        assert!(!looks_binary(b"\xFF\xFEa\0b\0"), "UTF-16 with a BOM holds NULs");
        assert!(!looks_binary(b""));
    }
}
