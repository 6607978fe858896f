#![allow(missing_docs, clippy::unwrap_used)]
#[test]
fn dump() {
    let root = std::path::Path::new("/work/shared/corpora/pdfs_mixed");
    let m = std::fs::read_to_string(root.join("MANIFEST.tsv")).unwrap();
    let out = std::path::Path::new("/tmp/pdfdump");
    std::fs::create_dir_all(out).unwrap();
    for line in m.lines().skip(1) {
        let f = line.split('\t').next().unwrap();
        let bytes = std::fs::read(root.join(f)).unwrap();
        let t = std::time::Instant::now();
        let r = almirah_extract::extract(std::path::Path::new(f), &bytes);
        let el = t.elapsed().as_millis();
        let (st, text) = match &r {
            Ok(d) => (
                format!(
                    "ok pages={:?} title={:?} notes={:?}",
                    d.pages, d.title, d.notes
                ),
                d.sections
                    .iter()
                    .map(|s| format!("=== page {:?}\n{}", s.page, s.text))
                    .collect::<Vec<_>>()
                    .join("\n"),
            ),
            Err(e) => (e.to_string(), String::new()),
        };
        println!("{f}\t{el}ms\t{st}");
        std::fs::write(out.join(f.replace('/', "__") + ".txt"), text).unwrap();
    }
}
