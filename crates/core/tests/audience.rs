//! Audience: a document for `hr-only` never appears for a profile without
//! that audience — not in hits, not in withheld notes, not in the listing —
//! over every query of the set, including queries copied from its own text.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use almirah_core::embed::EmbedderConfig;
use almirah_core::{Engine, EngineConfig, SearchOptions};
use chrono::NaiveDate;

const HR_V1: &str = "---\ntitle: Salary bands\naudience: hr-only\nversion: 1\n---\n# Salary bands\n\nBand C salaries run from INR 18 lakh to INR 24 lakh. Severance is four weeks per year of service.\n";
const HR_V2: &str = "---\ntitle: Salary bands\naudience: hr-only\nversion: 2\n---\n# Salary bands\n\nBand C salaries run from INR 19 lakh to INR 26 lakh. Severance is five weeks per year of service.\n";
const PUBLIC: &str = "---\ntitle: Leave\naudience: all-staff\n---\n# Leave\n\nEarned leave is 18 days a year. Salary is paid on the last working day.\n";

fn engine(data: &std::path::Path, audiences: &[&str]) -> Engine {
    let mut cfg = EngineConfig::new(data);
    cfg.embedder = EmbedderConfig::Hash { dimensions: 64 };
    cfg.map_size = 1 << 30;
    cfg.audiences = audiences.iter().map(|s| s.to_string()).collect();
    Engine::open(cfg).unwrap()
}

#[test]
fn hr_only_documents_never_reach_other_profiles() {
    let docs = tempfile::tempdir().unwrap();
    std::fs::write(docs.path().join("salary-bands-v1.md"), HR_V1).unwrap();
    std::fs::write(docs.path().join("salary-bands-v2.md"), HR_V2).unwrap();
    std::fs::write(docs.path().join("leave.md"), PUBLIC).unwrap();
    let data = tempfile::tempdir().unwrap();
    let queries = [
        "salary bands",
        "Band C salaries",
        "severance weeks per year of service",
        "INR 18 lakh to INR 24 lakh",
        "salary",
        "how much severance do I get",
        "earned leave",
        "hr-only",
        "lakh",
        "Salary bands Band C salaries run from INR 19 lakh to INR 26 lakh",
    ];
    {
        let staff = engine(data.path(), &["all-staff"]);
        common::index(&staff, &[docs.path()]);
        let as_of = staff.as_of(NaiveDate::from_ymd_opt(2026, 11, 29), None);
        for q in queries {
            let r = staff.search(q, &SearchOptions { k: 20, ..SearchOptions::default() }, as_of, 20).unwrap();
            let leaked: Vec<&str> = r
                .results
                .hits
                .iter()
                .chain(r.withheld.iter().map(|w| &w.hit))
                .filter(|h| h.path.contains("salary-bands"))
                .map(|h| h.key.as_str())
                .collect();
            assert!(leaked.is_empty(), "query {q:?} leaked {leaked:?}");
        }
        let listed = staff.documents(as_of).unwrap();
        assert_eq!(listed.len(), 1);
        assert_eq!(listed[0].key, "leave");
    }
    // The HR profile sees version 2 and a withheld note for version 1.
    let hr = engine(data.path(), &["hr-only"]);
    let as_of = hr.as_of(NaiveDate::from_ymd_opt(2026, 11, 29), None);
    let r = hr.search("Band C salaries", &SearchOptions::default(), as_of, 3).unwrap();
    assert!(r.results.hits[0].text.contains("INR 19 lakh"));
    assert!(
        r.withheld
            .iter()
            .any(|w| w.hit.text.contains("INR 18 lakh") && w.reason.to_string().starts_with("superseded by"))
    );
}

/// Issue 19: a file that failed to read has no document, so its sidecar's
/// audience (not only its folder's) decides who may know of it: a staff
/// profile sees neither its path in `status` nor its name in the
/// unreadable-newer-version mark of a document it may see.
#[test]
fn a_failed_file_with_an_hr_only_sidecar_is_hidden_from_other_profiles() {
    let docs = tempfile::tempdir().unwrap();
    let hr = docs.path().join("hr");
    std::fs::create_dir_all(&hr).unwrap();
    std::fs::write(hr.join("payroll-secret.pdf"), b"\x00\x01 garbage, not a pdf").unwrap();
    std::fs::write(hr.join("payroll-secret.pdf.meta.toml"), "audience = [\"hr-only\"]\n").unwrap();
    std::fs::write(hr.join("pay-rules-v1.md"), "# Pay rules\n\nSalaries are paid on the last working day.\n").unwrap();
    std::fs::write(hr.join("pay-rules-v2.pdf"), b"not a pdf either").unwrap();
    std::fs::write(hr.join("pay-rules-v2.pdf.meta.toml"), "audience = \"hr-only\"\n").unwrap();
    std::fs::write(docs.path().join("leave.md"), PUBLIC).unwrap();
    let data = tempfile::tempdir().unwrap();
    let as_of = |e: &Engine| e.as_of(NaiveDate::from_ymd_opt(2026, 11, 29), None);
    {
        let staff = engine(data.path(), &["all-staff"]);
        let report = common::index(&staff, &[docs.path()]);
        assert_eq!(report.failures(), 2, "{:?}", report.outcomes);
        let status = staff.status().unwrap();
        let shown = format!("{:?}", status.problems);
        assert!(!shown.contains("payroll-secret") && !shown.contains("pay-rules-v2"), "{shown}");
        assert!(status.folders.iter().all(|f| f.failing == 0), "{:?}", status.folders);
        assert!(!status.files_by_status.contains_key("failed"), "{:?}", status.files_by_status);
        let listed = format!("{:?}", staff.documents(as_of(&staff)).unwrap());
        assert!(listed.contains("pay-rules-v1") && !listed.contains("pay-rules-v2"), "{listed}");
    }
    // The hr profile is told of both, and of the unreadable newer version.
    let hr = engine(data.path(), &["hr-only"]);
    let status = hr.status().unwrap();
    let shown = format!("{:?}", status.problems);
    assert!(shown.contains("payroll-secret.pdf") && shown.contains("pay-rules-v2.pdf"), "{shown}");
    let listed = format!("{:?}", hr.documents(as_of(&hr)).unwrap());
    assert!(listed.contains("pay-rules-v2"), "{listed}");
}
