//! A table row as a sentence. A CSV or spreadsheet row is indexed as
//! `header: value; header: value` ("programme: MTech; component: tuition;
//! amount_inr: 48500; per: semester"); an answer quotes it as "MTech
//! tuition: amount inr 48500, per semester." The text values before the
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
    let rest: Vec<String> = cells[lead..].iter().map(|(h, v)| format!("{} {v}", h.replace('_', " "))).collect();
    Some(format!("{}: {}.", subject.join(" "), rest.join(", ")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_read_as_sentences() {
        // sample-docs/university/fees-2026-27.csv
        assert_eq!(
            row_sentence("programme: MTech; component: tuition; amount_inr: 48500; per: semester").as_deref(),
            Some("MTech tuition: amount inr 48500, per semester.")
        );
        assert_eq!(row_sentence("grade: O; min_marks: 85").as_deref(), Some("O: min marks 85."));
        assert_eq!(row_sentence("name: Asha; team: Robotics").as_deref(), Some("Asha: team Robotics."));
        assert_eq!(row_sentence("A plain sentence: with a colon."), None);
        assert_eq!(row_sentence("only: one"), None);
    }
}
