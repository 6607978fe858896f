//! A table row as a sentence. A CSV or spreadsheet row is indexed as
//! `header: value; header: value` ("programme: MTech; component: tuition;
//! amount_inr: 48500; per: semester"); an answer quotes it as "MTech
//! tuition: amount Rs 48,500, per semester." The text values before the
//! first number name what the row is about, the rest keep their header.
//! Every word and number comes from the row, which stays cited.

/// The sentence for a row chunk's text, or `None` when it is not in the
/// `header: value; …` form of at least two cells.
pub fn row_sentence(row: &str) -> Option<String> {
    let cells: Vec<(&str, &str)> = row
        .split("; ")
        .map(|cell| cell.split_once(": ").map(|(h, v)| (h.trim(), v.trim())))
        .collect::<Option<Vec<_>>>()?
        .into_iter()
        .filter(|(_, v)| !v.is_empty())
        .collect();
    if cells.len() < 2 {
        return None;
    }
    let is_number = |v: &str| v.chars().any(|c| c.is_ascii_digit());
    let lead = cells.iter().take_while(|(_, v)| !is_number(v)).count().min(cells.len() - 1).max(1);
    let subject: Vec<&str> = cells[..lead].iter().map(|(_, v)| *v).collect();
    let rest: Vec<String> = cells[lead..].iter().map(|(h, v)| cell_phrase(h, v)).collect();
    Some(format!("{}: {}.", subject.join(" "), rest.join(", ")))
}

/// "amount 48500" for `amount: 48500`; a rupee column (`amount_inr`)
/// shows its amount as people write it: "amount Rs 48,500".
fn cell_phrase(header: &str, value: &str) -> String {
    // `get`, not indexing: a header in Devanagari has no char boundary 4 bytes from its end.
    let rupees = header.len() > 4 && header.get(header.len() - 4..).is_some_and(|t| t.eq_ignore_ascii_case("_inr"));
    if rupees && !value.is_empty() && value.chars().all(|c| c.is_ascii_digit()) {
        return format!("{} Rs {}", header[..header.len() - 4].replace('_', " "), indian_grouping(value));
    }
    format!("{} {value}", header.replace('_', " "))
}

/// `148500` → `1,48,500` (Indian digit grouping: the last three digits,
/// then pairs).
pub fn indian_grouping(digits: &str) -> String {
    if digits.len() <= 3 || !digits.is_ascii() {
        return digits.to_string();
    }
    let (head, tail) = digits.split_at(digits.len() - 3);
    let mut groups: Vec<&str> = Vec::new();
    let mut end = head.len();
    while end > 0 {
        let start = end.saturating_sub(2);
        groups.push(&head[start..end]);
        end = start;
    }
    groups.reverse();
    format!("{},{tail}", groups.join(","))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_read_as_sentences() {
        // sample-docs/university/fees-2026-27.csv
        assert_eq!(
            row_sentence("programme: MTech; component: tuition; amount_inr: 48500; per: semester").as_deref(),
            Some("MTech tuition: amount Rs 48,500, per semester.")
        );
        assert_eq!(row_sentence("grade: O; min_marks: 85").as_deref(), Some("O: min marks 85."));
        assert_eq!(row_sentence("name: Asha; team: Robotics").as_deref(), Some("Asha: team Robotics."));
        assert_eq!(row_sentence("A plain sentence: with a colon."), None);
        assert_eq!(row_sentence("only: one"), None);
        assert_eq!(indian_grouping("148500"), "1,48,500");
        // A header whose last 4 bytes cut a character is not a rupee column (and no panic).
        assert_eq!(row_sentence("कार्यक्रम: एमटेक; शुल्क: 48500").as_deref(), Some("एमटेक: शुल्क 48500."));
        assert_eq!(indian_grouping("900"), "900");
    }
}
