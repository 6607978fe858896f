//! Reading an evaluation set (JSONL). A malformed line is reported and skipped.

use serde::{Deserialize, Serialize};

/// What a correct answer looks like.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Expect {
    /// At least one must appear in the answer (case-insensitive).
    pub answer_any: Vec<String>,
    /// None may appear in the answer.
    pub answer_none: Vec<String>,
    /// File names that must be cited.
    pub sources_all: Vec<String>,
    /// File names that must never be cited (stale or wrong).
    pub sources_none: Vec<String>,
    /// The right answer is the abstention.
    pub abstain: bool,
}

/// One question.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EvalItem {
    /// Identifier.
    pub id: String,
    /// The question.
    pub question: String,
    /// The date it is asked on (YYYY-MM-DD).
    pub as_of: Option<String>,
    /// Expectations.
    #[serde(default)]
    pub expect: Expect,
    /// A half fixed by hand instead of by the hash of the id: only ever
    /// [`Half::Tuning`], for a question whose wording the source or the
    /// tests quote (a rule was written while looking at it, so its result
    /// is no honest figure). `tests/contamination.rs` keeps the reporting
    /// half free of quoted questions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub half: Option<Half>,
}

impl EvalItem {
    /// The half this question falls in: its pinned [`EvalItem::half`], else
    /// [`Half::of`] its id.
    pub fn half(&self) -> Half {
        self.half.unwrap_or_else(|| Half::of(&self.id))
    }
}

/// Which half of a set an evaluation runs. Each question falls in one
/// half by the first byte of the BLAKE3 hash of its id (even: tuning, odd:
/// reporting), so the split never changes when questions are added and
/// nobody has to keep a list: tune rules on the tuning half, and quote only
/// the reporting half.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Half {
    /// Every question.
    All,
    /// Questions to tune rules on.
    Tuning,
    /// Questions whose results are reported.
    Reporting,
}

impl Half {
    /// The half `id` falls in ([`Half::Tuning`] or [`Half::Reporting`]).
    pub fn of(id: &str) -> Half {
        if blake3::hash(id.as_bytes()).as_bytes()[0].is_multiple_of(2) { Half::Tuning } else { Half::Reporting }
    }

    /// Whether `item` runs in this half, honouring a pinned half.
    pub fn holds_item(self, item: &EvalItem) -> bool {
        self == Half::All || item.half() == self
    }
}

impl std::str::FromStr for Half {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "all" => Ok(Half::All),
            "tuning" => Ok(Half::Tuning),
            "reporting" => Ok(Half::Reporting),
            other => Err(format!("unknown half {other:?} (all, tuning or reporting)")),
        }
    }
}

impl std::fmt::Display for Half {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Half::All => "all",
            Half::Tuning => "tuning",
            Half::Reporting => "reporting",
        })
    }
}

/// Parse a JSONL set: the items, and `(line number, error)` for each bad line.
pub fn load(text: &str) -> (Vec<EvalItem>, Vec<(usize, String)>) {
    let mut items = Vec::new();
    let mut errors = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.trim_start().starts_with("//") {
            continue;
        }
        match serde_json::from_str::<EvalItem>(line) {
            Ok(item) => items.push(item),
            Err(e) => errors.push((i + 1, e.to_string())),
        }
    }
    (items, errors)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn halves_split_by_the_hash_of_the_id_and_are_stable() {
        let ids: Vec<String> = (0..200).map(|i| format!("q{i}")).collect();
        let reporting = ids.iter().filter(|id| Half::of(id) == Half::Reporting).count();
        let tuning = ids.iter().filter(|id| Half::of(id) == Half::Tuning).count();
        assert_eq!(reporting + tuning, ids.len());
        assert!((70..=130).contains(&reporting), "{reporting} of 200 in the reporting half");
        let unpinned = |id: &String| EvalItem {
            id: id.clone(),
            question: "q?".into(),
            as_of: None,
            expect: Expect::default(),
            half: None,
        };
        assert!(ids.iter().all(|id| Half::All.holds_item(&unpinned(id))));
        // The split is a function of the id alone: fixed for ever.
        assert_eq!(
            Half::of("q0"),
            if blake3::hash(b"q0").as_bytes()[0].is_multiple_of(2) { Half::Tuning } else { Half::Reporting }
        );
    }

    #[test]
    fn malformed_lines_are_reported_and_skipped() {
        let text = "{\"id\":\"a\",\"question\":\"q?\",\"expect\":{\"abstain\":true}}\nnot json\n\n{\"id\":\"b\",\"question\":\"r?\"}\n";
        let (items, errors) = load(text);
        assert_eq!(items.len(), 2);
        assert!(items[0].expect.abstain);
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].0, 2);
    }

    #[test]
    fn a_pinned_half_overrides_the_hash() {
        // "q1" and "q2" fall in different halves by hash; pinning both to
        // tuning keeps both out of the reporting half.
        let text = "{\"id\":\"q1\",\"question\":\"a?\",\"half\":\"tuning\"}\n{\"id\":\"q2\",\"question\":\"b?\",\"half\":\"tuning\"}\n{\"id\":\"q0x\",\"question\":\"c?\"}";
        let (items, errors) = load(text);
        assert!(errors.is_empty(), "{errors:?}");
        assert!(items[..2].iter().all(|i| i.half() == Half::Tuning && !Half::Reporting.holds_item(i)));
        assert_eq!(items[2].half(), Half::of("q0x"));
        assert_ne!(Half::of("q1"), Half::of("q2"), "the ids were chosen to fall in different halves by hash");
    }
}
