//! Questions that carry their situation with them. The ask and the
//! situation are split apart, so the situation's words can favour a
//! sentence without diluting the ask past the coverage threshold:
//! [`split_context`] (the situation after the question mark),
//! [`situation_first`] (a sentence before it), [`relative_ask`] (a
//! statement whose last relative clause asks, as HotpotQA writes them) and
//! [`describing_clause`] (a last relative clause that only describes the
//! answer).

/// `"What can I claim? I have a 3-day audit …"` → the ask and the
/// situation it is asked in; `None` for a plain question.
pub fn split_context(question: &str) -> Option<(&str, &str)> {
    let at = question.find('?')?;
    let (ask, rest) = question.split_at(at + 1);
    let rest = rest.trim();
    (!rest.is_empty() && !rest.contains('?')).then_some((ask, rest))
}

/// `"My home was hit by a hurricane. Is there a program …?"` → the ask and
/// the situation told before it; `None` unless the question ends with its
/// only question mark after a sentence break (". " or "! " and a capital,
/// so "Rs. 500" and "e.g. a" do not split) and both parts have 3 words.
pub fn situation_first(question: &str) -> Option<(&str, &str)> {
    let question = question.trim();
    let at = question.find('?')?;
    if at + 1 != question.len() {
        return None;
    }
    let start = question[..at]
        .char_indices()
        .filter(|(i, c)| {
            matches!(c, '.' | '!')
                && question[i + 1..].starts_with(' ')
                && question[i + 1..].trim_start().chars().next().is_some_and(char::is_uppercase)
                && !question[..*i].ends_with(|c: char| c.is_ascii_digit())
        })
        .map(|(i, _)| i + 1)
        .next_back()?;
    let (context, ask) = (question[..start].trim(), question[start..].trim());
    (ask.split_whitespace().count() >= 3 && context.split_whitespace().count() >= 3).then_some((ask, context))
}

/// Words that open a question rather than a statement.
const QUESTION_OPENERS: &[&str] = &[
    "what", "who", "whom", "whose", "where", "when", "which", "why", "how", "is", "are", "was", "were", "do", "does",
    "did", "can", "could", "should", "will", "would", "may", "has", "have", "had", "name", "list", "tell",
];

/// `"Zhongzheng District is a district in Taipei, …, the late President of
/// the Republic of China was Chiang Kai-shek, who died on which date?"` →
/// the ask (`"Chiang Kai-shek, who died on which date?"`: the name the
/// clause before ends with, then the last clause) and the statement before
/// it. `None` unless the question opens as a statement, ends with its only
/// question mark, and its last comma clause is a relative clause ("who",
/// "which", "whose") that holds a second wh-word ("on which date", "in what
/// year"), so it asks rather than describes.
pub fn relative_ask(question: &str) -> Option<(String, &str)> {
    let question = question.trim();
    let at = question.find('?')?;
    let first = question.split_whitespace().next()?.trim_matches(|c: char| !c.is_alphanumeric()).to_lowercase();
    if at + 1 != question.len() || QUESTION_OPENERS.contains(&first.as_str()) {
        return None;
    }
    let cut = question.rfind(", ")?;
    let (before, clause) = (question[..cut].trim(), question[cut + 2..].trim());
    let words = lower_words(clause);
    let relative = matches!(words.first().map(String::as_str), Some("who" | "which" | "whose"));
    let asks = words.iter().skip(1).any(|w| matches!(w.as_str(), "what" | "which" | "when" | "where" | "whom" | "how"));
    if !relative || !asks || before.split_whitespace().count() < 3 {
        return None;
    }
    Some((format!("{}, {clause}", trailing_name(before)), before))
}

/// `"… chief of staff to which Queensland Senator Australian politician,
/// who has served as the Deputy Prime Minister of Australia since 18
/// February 2016?"` → the ask before the last comma (with its question
/// mark) and the relative clause after it, which only describes what is
/// asked for: it opens with "who", "which", "whose" or "that" and holds no
/// other wh-word, while the ask holds one. `None` otherwise.
pub fn describing_clause(question: &str) -> Option<(String, &str)> {
    let question = question.trim().trim_end_matches('?').trim_end();
    let cut = question.rfind(", ")?;
    let (ask, clause) = (question[..cut].trim(), question[cut + 2..].trim());
    let (asked, described) = (lower_words(ask), lower_words(clause));
    let wh = |w: &String| crate::question::WhWord::of(w).is_some();
    let relative = matches!(described.first().map(String::as_str), Some("who" | "which" | "whose" | "that"));
    if !relative || described.iter().skip(1).any(wh) || !asked.iter().any(wh) || asked.len() < 3 {
        return None;
    }
    Some((format!("{ask}?"), clause))
}

/// The words of `text`, lower-cased, without punctuation.
fn lower_words(text: &str) -> Vec<String> {
    text.split_whitespace().map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()).to_lowercase()).collect()
}

/// The run of capitalised words `text` ends with ("Chiang Kai-shek"), or
/// all of `text` when it ends with none.
fn trailing_name(text: &str) -> &str {
    let mut start = text.len();
    for (i, word) in text.rmatch_indices(' ').map(|(i, _)| i + 1).chain([0]).map(|i| (i, &text[i..])) {
        let word = word.split_whitespace().next().unwrap_or_default();
        if !word.starts_with(char::is_uppercase) || word.ends_with(',') {
            break;
        }
        start = i;
    }
    if start == text.len() { text } else { &text[start..] }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn a_situation_before_or_after_the_question_is_context() {
        let q = "My home was hit by a hurricane. Is there a program to get donated leave?";
        assert_eq!(
            situation_first(q),
            Some(("Is there a program to get donated leave?", "My home was hit by a hurricane."))
        );
        assert_eq!(split_context(q), None);
        let after = split_context("What can I claim? I have a 3-day audit in Hyderabad.");
        assert_eq!(after, Some(("What can I claim?", "I have a 3-day audit in Hyderabad.")));
        assert_eq!(situation_first("What can I claim? I have a 3-day audit in Hyderabad."), None);
        assert_eq!(situation_first("Is the fee Rs. 500 for MTech students?"), None);
        assert_eq!(situation_first("What is the hostel fee?"), None);
        assert_eq!(situation_first("Version 2. Is it valid?"), None, "too short to be a situation");
    }

    #[test]
    fn a_last_relative_clause_asks_and_the_statement_before_it_describes() {
        // HotpotQA 5adff9ea55429942ec259bb1.
        let q = "Zhongzheng District is a district in Taipei, Republic of China, the late President of the Republic \
                 of China was Chiang Kai-shek, who died on which date?";
        let (ask, context) = relative_ask(q).unwrap();
        assert_eq!(ask, "Chiang Kai-shek, who died on which date?");
        assert!(context.starts_with("Zhongzheng District is a district in Taipei"), "{context}");
        // A question that opens as a question, or whose last clause asks nothing, is asked whole.
        assert_eq!(relative_ask("Who is the mother of Edward Stafford, who was born in 1572?"), None);
        let (ask, context) = relative_ask("The hostel fee is Rs 500 a term, which is due by when?").unwrap();
        assert_eq!(
            (ask.as_str(), context),
            ("The hostel fee is Rs 500 a term, which is due by when?", "The hostel fee is Rs 500 a term")
        );
        assert_eq!(relative_ask("Kestrel is a project in Pune, which started in 2020."), None);
    }

    #[test]
    fn a_last_relative_clause_that_asks_nothing_describes_the_answer() {
        // HotpotQA 5ae37aad5542992f92d822cf: the Buchholz page never says "Deputy Prime Minister".
        let q = "Scott Andrew Buchholz, is an Australian politician, he previously served as chief of staff to which \
                 Queensland Senator Australian politician, who has served as the Deputy Prime Minister of Australia \
                 since 18 February 2016?";
        let (ask, clause) = describing_clause(q).unwrap();
        assert!(ask.ends_with("chief of staff to which Queensland Senator Australian politician?"), "{ask}");
        assert_eq!(clause, "who has served as the Deputy Prime Minister of Australia since 18 February 2016");
        // The clause asks (a second wh-word), or nothing before it asks.
        assert_eq!(describing_clause("Chiang Kai-shek, who died on which date?"), None);
        assert_eq!(describing_clause("Kestrel is a project in Pune, which started in 2020."), None);
    }
}
