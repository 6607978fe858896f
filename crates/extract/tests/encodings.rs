//! Plain-text files in assorted encodings extract to the expected words.
#![allow(missing_docs, clippy::unwrap_used)]

use std::path::{Path, PathBuf};

use almirah_extract::{FileKind, extract};

fn fixture(name: &str) -> (PathBuf, Vec<u8>) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/encodings").join(name);
    let bytes = std::fs::read(&path).unwrap();
    (path, bytes)
}

fn text_of(name: &str) -> (Option<String>, String, Vec<String>) {
    let (path, bytes) = fixture(name);
    let doc = extract(&path, &bytes).unwrap();
    assert_eq!(doc.kind, FileKind::Text);
    let text = doc.sections.iter().map(|s| s.text.as_str()).collect::<Vec<_>>().join("\n");
    (doc.title, text, doc.notes)
}

#[test]
fn cp1252_french() {
    let (title, text, notes) = text_of("latin1-cp1252.txt");
    assert_eq!(title.as_deref(), Some("Politique de congés"));
    assert!(text.contains("Les employés reçoivent une indemnité de déplacement"));
    assert!(text.contains("coûte 2 €"));
    assert_eq!(notes, ["decoded as windows-1252"]);
}

#[test]
fn utf16_le_and_be_with_bom() {
    for name in ["utf16le-bom.txt", "utf16be-bom.txt"] {
        let (title, text, _) = text_of(name);
        assert_eq!(title.as_deref(), Some("Urlaubsrichtlinie"), "{name}");
        assert!(text.contains("Überstunden werden grundsätzlich ausgeglichen. Größe, Straße, Fußgänger."), "{name}");
    }
}

#[test]
fn utf8_bom_is_not_in_the_text() {
    let (title, text, notes) = text_of("utf8-bom.txt");
    assert_eq!(title.as_deref(), Some("अवकाश नीति"));
    assert!(text.contains("कर्मचारियों को वार्षिक अवकाश मिलता है। naïve café"));
    assert!(!text.contains('\u{feff}'));
    assert!(notes.is_empty());
}

#[test]
fn nul_and_control_bytes_are_stripped() {
    let (title, text, _) = text_of("nul-bytes.txt");
    assert_eq!(title.as_deref(), Some("Travel policy"));
    assert_eq!(text, "Travel policy\n\nPer diem rates apply.");
}

#[test]
fn windows_1251_russian() {
    let (title, text, notes) = text_of("windows-1251.txt");
    assert_eq!(title.as_deref(), Some("Положение об отпусках"));
    assert!(text.contains("ежегодный оплачиваемый отпуск продолжительностью двадцать восемь календарных дней"));
    assert_eq!(notes, ["decoded as windows-1251"]);
}

#[test]
fn shift_jis_japanese() {
    let (title, text, notes) = text_of("shift-jis.txt");
    assert_eq!(title.as_deref(), Some("休暇規程"));
    assert!(text.contains("従業員は毎年有給休暇を取得することができます。"));
    assert_eq!(notes, ["decoded as Shift_JIS"]);
}
