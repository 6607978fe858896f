//! Questions that need more than one search, answered on the classic path:
//! each part of a multi-part question gets its own search, and a multi-hop
//! question carries the entity found in one hop into the next ("leads
//! Project Kestrel" → Dev Anand → "who manages Dev Anand"), up to 3 hops.

use std::sync::LazyLock;

use regex::Regex;

/// Hops followed at most.
pub const MAX_HOPS: usize = 3;

#[allow(clippy::expect_used)]
static NAME: LazyLock<Regex> = LazyLock::new(|| {
    // Runs of capitalised words, allowing a lower-case particle inside ("Bank of India").
    Regex::new(r"\b[A-Z][\w'’-]*(?:\s+(?:of|de|van|von|da)?\s*[A-Z][\w'’-]*)*").expect("valid name pattern")
});

/// Fill `<answer N>` placeholders with the answers found so far.
pub fn fill(template: &str, answers: &[String]) -> Option<String> {
    let mut out = template.to_string();
    for (i, a) in answers.iter().enumerate() {
        out = out.replace(&format!("<answer {}>", i + 1), a);
    }
    (!out.contains("<answer ")).then_some(out)
}

/// The entity a hop's answer sentence introduces: the first name in it that
/// the hop question does not already contain (names of two or more words
/// first, then single capitalised words that do not start the sentence).
pub fn bridge_entity(sentence: &str, hop_question: &str) -> Option<String> {
    let q = hop_question.to_lowercase();
    let names: Vec<(usize, String)> = NAME
        .find_iter(sentence)
        .map(|m| (m.start(), m.as_str().trim_end_matches(['\'', '’']).trim_end_matches("'s").to_string()))
        .filter(|(_, n)| !q.contains(&n.to_lowercase()))
        .collect();
    let multi = names.iter().find(|(_, n)| n.split_whitespace().count() >= 2);
    let single = names.iter().find(|(at, n)| *at > 0 && n.chars().count() > 2);
    multi.or(single).map(|(_, n)| n.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn carries_the_name_into_the_next_hop() {
        assert_eq!(
            bridge_entity("Project Kestrel is led by Dev Anand.", "Who leads Project Kestrel?").as_deref(),
            Some("Dev Anand")
        );
        assert_eq!(
            bridge_entity("Dev Anand reports to Ingrid Solberg, the CTO.", "Who manages Dev Anand?").as_deref(),
            Some("Ingrid Solberg")
        );
        assert_eq!(
            fill("Where is <answer 2>'s office?", &["Dev Anand".into(), "Ingrid Solberg".into()]).as_deref(),
            Some("Where is Ingrid Solberg's office?")
        );
        assert_eq!(fill("Who manages <answer 1>?", &[]), None);
    }
}
