//! The builtin's sentence score as named features with one weight table.
//! A candidate sentence's score is its coverage of the question (the share
//! of its content terms the sentence holds, 0..=1) plus Σ weight × value
//! over [`Feature`]s, each value in 0..=1 (meaning: a cosine, -1..=1;
//! chunk rank: 0, 1, 2, … of the evidence). Every feature can be switched
//! off for an ablation (`ALMIRAH_ABLATE`, a comma-separated list of
//! [`Feature::name`]s, read once per process): its weight is then 0
//! (`scripts/eval/ablate.sh` prints the table; a feature that costs no
//! answer on any set when off is deleted). The weights were set by hand
//! and checked by a pairwise logistic regression on the tuning halves
//! (`scripts/eval/fit.py`), whose fitted weights rank the candidates no
//! better (top-1 0.793 both).

use std::sync::LazyLock;

/// One feature of a candidate answer sentence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Feature {
    /// It holds the kind of value the question asks for, precisely (a date
    /// to the day), or defines the term a definition question asks about: 1;
    /// imprecisely (a month): 0.5.
    Typed,
    /// It holds a number, and the question asks for a quantity of no
    /// narrower kind ([`crate::question::Question::asks_for_quantity`]).
    NumberAsked,
    /// Its chunk's retrieval rank (0, 1, 2, …): a penalty.
    ChunkRank,
    /// It points elsewhere for the rule ("see the latest circular"): a penalty.
    Defers,
    /// It is in a worked example ("For example: …"): a penalty.
    WorkedExample,
    /// A "Which …?" question asks for a name and it names nothing new: a penalty.
    NoNewName,
    /// Its cosine to the question by the library's embedder (-1..=1), for
    /// the first candidates.
    Meaning,
    /// For an ask told in a situation ("What can I claim? I have a 3-day
    /// audit in Hyderabad …"), the share of the situation's term weight it
    /// holds (0..=1), directly or, for a name the situation gives, through
    /// the sentence of its chunk that names it ("The metro cities are …
    /// Hyderabad" for the row "Metro cities: INR 6,000").
    Situation,
}

impl Feature {
    /// Every feature, in table order.
    pub const ALL: [Feature; 8] = [
        Feature::Typed,
        Feature::NumberAsked,
        Feature::ChunkRank,
        Feature::Defers,
        Feature::WorkedExample,
        Feature::NoNewName,
        Feature::Meaning,
        Feature::Situation,
    ];

    /// Its name in `ALMIRAH_ABLATE` and in the ablation table.
    pub fn name(self) -> &'static str {
        match self {
            Feature::Typed => "typed",
            Feature::NumberAsked => "number-asked",
            Feature::ChunkRank => "chunk-rank",
            Feature::Defers => "defers",
            Feature::WorkedExample => "worked-example",
            Feature::NoNewName => "no-new-name",
            Feature::Meaning => "meaning",
            Feature::Situation => "situation",
        }
    }

    /// Its weight in the table (a penalty's is negative).
    fn default_weight(self) -> f32 {
        match self {
            Feature::Typed => 0.2,
            Feature::NumberAsked => 0.15,
            Feature::ChunkRank => -0.02,
            Feature::Defers => -0.15,
            Feature::WorkedExample => -0.15,
            Feature::NoNewName => -0.1,
            Feature::Meaning => 0.25,
            Feature::Situation => 0.1,
        }
    }

    /// Its weight, 0 when switched off for an ablation.
    pub fn weight(self) -> f32 {
        WEIGHTS[self as usize]
    }
}

/// What `ALMIRAH_ABLATE` names (comma-separated), read once.
static ABLATED: LazyLock<String> = LazyLock::new(|| std::env::var("ALMIRAH_ABLATE").unwrap_or_default());

/// The weight table, with the features `ALMIRAH_ABLATE` names set to 0.
static WEIGHTS: LazyLock<[f32; Feature::ALL.len()]> = LazyLock::new(|| weights_without(&ABLATED));

/// Whether `ALMIRAH_ABLATE` switches off `rule`, a rule outside the weight
/// table (`background`: [`super::background`]).
pub fn switched_off(rule: &str) -> bool {
    ABLATED.split(',').any(|r| r.trim() == rule)
}

/// The weight table with the features named in `off` (comma-separated) at 0.
fn weights_without(off: &str) -> [f32; Feature::ALL.len()] {
    let off: Vec<&str> = off.split(',').map(str::trim).collect();
    Feature::ALL.map(|f| if off.contains(&f.name()) { 0.0 } else { f.default_weight() })
}

/// A candidate's value of each feature, in [`Feature::ALL`] order.
pub type Values = [f32; Feature::ALL.len()];

/// The weighted sum of `values`.
pub fn weighted(values: &Values) -> f32 {
    Feature::ALL.iter().map(|f| f.weight() * values[*f as usize]).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_feature_named_for_ablation_weighs_nothing() {
        let all = weights_without("");
        let off = weights_without("chunk-rank, meaning");
        for f in Feature::ALL {
            let i = f as usize;
            let switched = matches!(f, Feature::ChunkRank | Feature::Meaning);
            assert_eq!(off[i] == 0.0, switched, "{}", f.name());
            assert!(all[i] != 0.0, "{}", f.name());
        }
        assert!(Feature::ALL.iter().enumerate().all(|(i, f)| *f as usize == i));
    }
}
