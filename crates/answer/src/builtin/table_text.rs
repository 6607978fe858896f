//! Tables inside a chunk's text as sentences. The extractor writes a
//! Markdown, Word or HTML table as `cell | cell` lines under a header line;
//! read as prose, the whole table becomes one long "sentence" that quotes
//! every row ("… Metro cities | INR 6,000 Other cities | INR 3,500"), so an
//! answer about one row states the others too. Here each data row becomes
//! its own sentence with the header's names, after the line that
//! introduces the table when there is one: "Hotel stays are reimbursed at
//! actual cost up to a cap per night: Metro cities, Cap per night INR
//! 6,000." Every word and number still comes from the chunk.

/// `text` with each table block (two or more consecutive `|` lines: a
/// header, optionally a `---` rule, then rows) written as one sentence per
/// row, each led by the line before the table when that line ends with a
/// colon. Other lines are kept.
pub fn rows_as_sentences(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut out: Vec<String> = Vec::with_capacity(lines.len());
    let mut i = 0;
    while i < lines.len() {
        let block = lines[i..].iter().take_while(|l| is_row(l)).count();
        if block < 2 {
            out.push(lines[i].to_string());
            i += 1;
            continue;
        }
        let rows: Vec<Vec<String>> = lines[i..i + block].iter().filter(|l| !is_rule(l)).map(|l| cells(l)).collect();
        let lead_in = take_lead_in(&mut out);
        out.push(String::new());
        if let Some((header, data)) = rows.split_first() {
            out.extend(data.iter().map(|row| match &lead_in {
                Some(lead) => format!("{lead} {}", row_sentence(header, row).replacen(": ", ", ", 1)),
                None => row_sentence(header, row),
            }));
        }
        out.push(String::new());
        i += block;
    }
    out.join("\n")
}

/// The line that introduces a table ("… a cap per night:"), taken out of
/// `out` (with the blank lines after it) to lead each row's sentence.
fn take_lead_in(out: &mut Vec<String>) -> Option<String> {
    let last = out.iter().rposition(|l| !l.trim().is_empty())?;
    if !out[last].trim_end().ends_with(':') {
        return None;
    }
    let lead = out[last].trim().to_string();
    out.truncate(last);
    Some(lead)
}

fn is_row(line: &str) -> bool {
    line.contains('|') && line.trim().len() > 1
}

/// A `|---|:--:|` rule line.
fn is_rule(line: &str) -> bool {
    line.chars().all(|c| matches!(c, '|' | '-' | ':' | ' ' | '+'))
}

fn cells(line: &str) -> Vec<String> {
    line.trim().trim_matches('|').split('|').map(|c| c.trim().to_string()).collect()
}

/// "Metro cities: Cap per night INR 6,000." — the first cell names the row,
/// the others follow their header.
fn row_sentence(header: &[String], row: &[String]) -> String {
    let Some((name, values)) = row.split_first() else { return String::new() };
    let parts: Vec<String> = values
        .iter()
        .enumerate()
        .filter(|(_, v)| !v.is_empty())
        .map(|(j, v)| match header.get(j + 1).filter(|h| !h.is_empty()) {
            Some(h) => format!("{h} {v}"),
            None => v.clone(),
        })
        .collect();
    format!("{name}: {}.", parts.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_table_row_is_a_sentence_with_its_header() {
        // sample-docs/company/travel-and-expense-policy.md, hotel accommodation.
        let chunk = "Hotel stays are reimbursed at actual cost up to a cap per night:\n\nCity class | Cap per night\nMetro cities | INR 6,000\nOther cities | INR 3,500\n\nThe metro cities are Mumbai and Hyderabad.";
        let out = rows_as_sentences(chunk);
        let lead = "Hotel stays are reimbursed at actual cost up to a cap per night:";
        assert!(out.trim_start().starts_with(&format!("{lead} Metro cities, Cap per night INR 6,000.\n")), "{out}");
        assert!(out.contains(&format!("\n{lead} Other cities, Cap per night INR 3,500.\n")), "{out}");
        assert_eq!(out.matches(lead).count(), 2, "the lead-in only leads the rows: {out}");
        assert!(out.ends_with("The metro cities are Mumbai and Hyderabad."), "{out}");
        let md = "| Grade | Min marks |\n|---|---|\n| O | 85 |";
        assert_eq!(rows_as_sentences(md).trim(), "O: Min marks 85.");
        assert_eq!(rows_as_sentences("A | B is one line."), "A | B is one line.");
    }
}
