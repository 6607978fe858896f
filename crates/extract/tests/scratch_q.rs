#![allow(missing_docs, clippy::unwrap_used)]
#[test]
fn q() {
    for e in std::fs::read_dir("/tmp/pdfdump").unwrap() {
        let p = e.unwrap().path();
        let t = std::fs::read_to_string(&p).unwrap();
        let doc = almirah_extract::extract(std::path::Path::new("x.txt"), t.as_bytes());
        if let Ok(d) = doc {
            println!("{:.3}\t{}", d.quality, p.display());
        }
    }
}
