#![allow(clippy::unwrap_used)]

use super::*;
use crate::testing::outline;

fn read(html: &str) -> Extracted {
    extract_html(html.as_bytes()).unwrap()
}

#[test]
fn the_main_content_renders_as_markdown_does_without_navigation_or_footer() {
    let page = r##"<!DOCTYPE html><html><head><title>Leave policy | Intranet</title><style>p { color: red }</style></head>
<body><header><a href="/">Intranet home</a></header>
<nav><ul><li><a href="/hr">HR menu</a></li></ul></nav>
<h1>Leave   policy</h1>
<p>Intro with <em>spaces</em>
   across lines # | *x*.<br>Second line.</p>
<h2>Earned leave</h2>
<ul><li><p>one</p></li><li><p>two</p><p>more about two</p><ul><li>nested</li></ul></li></ul>
<table><thead><tr><th>grade</th><th>days</th></tr></thead><tbody><tr><td>GS-12</td><td><p>18</p><p>a year</p></td></tr></tbody></table>
<pre><code>let x = 1;

let y = 2;
</code></pre>
<p>Noted<a href="#fn1" role="doc-noteref"><sup>1</sup></a>.<img alt="Org chart" src="x.png"></p>
<section role="doc-endnotes"><hr><ol><li id="fn1"><p>The note body.<a href="#r" role="doc-backlink">↩</a></p></li></ol></section>
<aside>Related links</aside><p hidden>Hidden text</p><script>var x = "script text";</script>
<footer>Copyright 2026, the intranet team</footer></body></html>"##;
    let doc = read(page);
    assert_eq!(doc.title.as_deref(), Some("Leave policy"));
    assert_eq!(doc.properties.title.as_deref(), Some("Leave policy | Intranet"));
    let top = vec!["Leave policy".to_string()];
    let leave = vec!["Leave policy".to_string(), "Earned leave".to_string()];
    assert_eq!(
        outline(&doc),
        vec![
            (top, "Intro with spaces across lines # | *x*.\nSecond line.".to_string()),
            (
                leave,
                "- one\n- two\nmore about two\n  - nested\n\ngrade | days\nGS-12 | 18 a year\n\nlet x = 1;\n\nlet y = 2;\n\nNoted.Org chart\n\nThe note body.".to_string()
            ),
        ]
    );
    let all: String = doc.sections.iter().map(|s| s.text.clone()).collect();
    for furniture in ["Intranet home", "HR menu", "Related links", "Hidden", "script", "Copyright", "color"] {
        assert!(!all.contains(furniture), "{furniture} in {all}");
    }
}

#[test]
fn a_main_landmark_keeps_its_own_header_and_drops_the_rest() {
    let page = r##"<body><div role="navigation">Sidebar TOC</div><div role="main"><header><table><tr><td>Request for Comments: 7231</td><td>Adobe</td></tr><tr><td>Obsoletes: <a href="#x">2616</a></td><td>J. Reschke</td></tr></table><h1>HTTP Semantics</h1></header><h2>Abstract</h2><p>The protocol.</p></div><p>Outside main</p></body>"##;
    let doc = read(page);
    assert_eq!(
        outline(&doc),
        vec![
            (vec![], "Request for Comments: 7231 | Adobe\nObsoletes: 2616 | J. Reschke".to_string()),
            (vec!["HTTP Semantics".to_string(), "Abstract".to_string()], "The protocol.".to_string()),
        ]
    );
}

#[test]
fn encodings_come_from_the_bom_the_meta_charset_or_the_bytes() {
    let latin1 = b"<html><head><meta charset=\"windows-1252\"></head><body><p>Cong\xe9s pay\xe9s</p></body></html>";
    let doc = extract_html(latin1).unwrap();
    assert_eq!(doc.sections[0].text, "Congés payés");
    assert_eq!(doc.notes, ["decoded as windows-1252"]);
    let utf8 = "<p>अवकाश नीति</p>";
    assert_eq!(read(utf8).sections[0].text, "अवकाश नीति");
    assert_eq!(extract_html(b"   ").unwrap_err(), ExtractError::Empty);
    assert_eq!(extract_html(b"<html><body><nav>Only a menu</nav></body></html>").unwrap_err(), ExtractError::Empty);
}
