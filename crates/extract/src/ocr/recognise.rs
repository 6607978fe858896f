//! Recognition with tesseract's TSV output: words with confidences, put back
//! into lines and paragraphs.

use std::path::Path;
use std::process::Command;
use std::time::Instant;

use super::programs::{Failure, run};
use super::{OcrOptions, OcrPage};

/// Recognise the image at `image` before `deadline`, one thread
/// (`OMP_THREAD_LIMIT=1`: tesseract's OpenMP threads cost more system time
/// than they save when pages already run in parallel).
///
/// # Errors
/// [`Failure::TimedOut`], or [`Failure::Failed`] with tesseract's message.
pub(crate) fn recognise(opts: &OcrOptions, image: &Path, deadline: Instant) -> Result<OcrPage, Failure> {
    let mut cmd = Command::new(&opts.tesseract);
    cmd.arg(image).arg("stdout").args(["-l", &opts.languages, "--psm", "3", "tsv"]).env("OMP_THREAD_LIMIT", "1");
    let out = run(&mut cmd, deadline)?;
    Ok(parse_tsv(&String::from_utf8_lossy(&out)))
}

/// Text and mean confidence from tesseract TSV (`level page_num block_num
/// par_num line_num word_num left top width height conf text`). Words are
/// joined by spaces, lines by `\n`, blocks and paragraphs by a blank line;
/// the confidence is the mean over words, weighted by their length in chars.
fn parse_tsv(tsv: &str) -> OcrPage {
    let mut text = String::new();
    let mut last_line: Option<(u32, u32, u32)> = None;
    let (mut weighted, mut chars) = (0.0f64, 0usize);
    for row in tsv.lines().skip(1) {
        let cols: Vec<&str> = row.splitn(12, '\t').collect();
        let [level, _, block, par, line, _, _, _, _, _, conf, word] = cols.as_slice() else { continue };
        let word = word.trim();
        if *level != "5" || word.is_empty() {
            continue;
        }
        let at = (num(block), num(par), num(line));
        match last_line {
            Some((b, p, _)) if (b, p) != (at.0, at.1) => text.push_str("\n\n"),
            Some(l) if l != at => text.push('\n'),
            Some(_) => text.push(' '),
            None => {}
        }
        last_line = Some(at);
        text.push_str(word);
        if let Ok(c) = conf.trim().parse::<f64>()
            && c >= 0.0
        {
            let n = word.chars().count();
            weighted += c * n as f64;
            chars += n;
        }
    }
    let confidence = if chars == 0 { 0.0 } else { (weighted / chars as f64) as f32 };
    OcrPage { text, confidence }
}

fn num(s: &str) -> u32 {
    s.trim().parse().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_become_lines_and_paragraphs_with_a_weighted_confidence() {
        let tsv = "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext
1\t1\t0\t0\t0\t0\t0\t0\t10\t10\t-1\t
5\t1\t1\t1\t1\t1\t0\t0\t1\t1\t90\tMaximum
5\t1\t1\t1\t1\t2\t0\t0\t1\t1\t60\t72
5\t1\t1\t1\t2\t1\t0\t0\t1\t1\t90\tyears
5\t1\t2\t1\t1\t1\t0\t0\t1\t1\t90\tभारत
";
        let page = parse_tsv(tsv);
        assert_eq!(page.text, "Maximum 72\nyears\n\nभारत");
        let expected = (90.0 * 7.0 + 60.0 * 2.0 + 90.0 * 5.0 + 90.0 * 4.0) / 18.0;
        assert!((page.confidence - expected as f32).abs() < 0.01, "{}", page.confidence);
    }

    #[test]
    fn an_empty_page_has_no_text_and_zero_confidence() {
        assert_eq!(parse_tsv("level\tpage_num\n"), OcrPage { text: String::new(), confidence: 0.0 });
    }
}
