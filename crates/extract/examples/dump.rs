//! Print what `extract` makes of a file: kind, title, properties, and each
//! section's heading path and text (JSON), or the status.
//!
//! Usage: `cargo run -p almirah-extract --example dump -- FILE...`
#![allow(missing_docs)]

fn main() {
    for path in std::env::args().skip(1) {
        let bytes = std::fs::read(&path).unwrap_or_default();
        match almirah_extract::extract(std::path::Path::new(&path), &bytes) {
            Ok(doc) => {
                let sections: Vec<_> = doc.sections.iter().map(|s| (&s.heading_path, &s.text)).collect();
                let out = serde_json::json!({
                    "path": path, "kind": doc.kind, "title": doc.title, "properties": doc.properties,
                    "tables": doc.tables, "notes": doc.notes, "sections": sections,
                });
                println!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
            }
            Err(e) => println!("{path}: {e}"),
        }
    }
}
