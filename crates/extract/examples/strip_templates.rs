//! Print a Markdown file with the template tags `extract` removes already
//! removed (`almirah_extract::strip_templates`), so another converter
//! (pandoc, in `scripts/make-office-fixtures.sh`) reads the Markdown the
//! indexer reads.
//!
//! Usage: `cargo run -p almirah-extract --example strip_templates -- PAGE.md > OUT.md`
#![allow(missing_docs)]

use std::io::Write;

fn main() -> std::io::Result<()> {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: strip_templates PAGE.md");
        std::process::exit(2);
    };
    let text = std::fs::read_to_string(path)?;
    std::io::stdout().write_all(almirah_extract::strip_templates(&text).as_bytes())
}
