//! Cosine scales per embedder. Every cosine threshold of the builtin
//! answerer and the router is written on all-MiniLM-L6-v2's scale (the
//! reference); another builtin embedder carries a table that maps its
//! cosines onto that scale by quantile mapping: the pair at quantile q is
//! (MiniLM's cosine at q, this embedder's cosine at q), measured over the
//! question-sentence pairs of the evaluation sets' tuning halves
//! (`crates/embed/examples/calibrate.rs`). Between points the map is linear,
//! outside them it continues the end segments, and it is increasing, so a
//! threshold keeps the same share of pairs above it under either embedder.

use crate::{EmbedderId, MULTILINGUAL_MODEL};

/// How one embedder's cosines relate to the reference scale.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Calibration {
    /// `(reference cosine, this embedder's cosine)` at increasing quantiles;
    /// empty for the reference itself.
    points: &'static [(f32, f32)],
}

/// multilingual-e5-small against all-MiniLM-L6-v2: quantiles 0.05, 0.25,
/// 0.5, 0.75, 0.9, 0.95, 0.98, 0.99, 0.995, 0.998, 0.999, 0.9995, 0.9999 and
/// the maximum of 108,573 question-sentence cosines (the tuning halves of
/// sample-docs, hindi, handbooks and tune-handbooks2 against their
/// documents' sentences), measured at a964086 with
/// `target/release/examples/calibrate eval/sample-docs.jsonl:sample-docs
/// eval/hindi.jsonl:eval/hindi/docs eval/handbooks.jsonl:../shared/corpora/handbook_18f
/// eval/tune-handbooks2.jsonl:../shared/corpora/handbook_sourcegraph`.
/// e5 puts MiniLM's vector floor (0.25) at 0.827 and its meaning threshold
/// (0.62) at 0.864; outside the table the map is clamped to -1..=1.
const MULTILINGUAL_E5_SMALL: &[(f32, f32)] = &[
    (-0.0498, 0.7346),
    (0.0259, 0.7641),
    (0.0883, 0.7855),
    (0.1625, 0.8077),
    (0.2442, 0.8261),
    (0.3033, 0.8361),
    (0.3866, 0.8471),
    (0.4639, 0.8538),
    (0.5633, 0.8600),
    (0.7119, 0.8683),
    (0.7486, 0.8745),
    (0.7749, 0.8815),
    (0.8446, 0.8997),
    (0.9461, 0.9499),
];

impl Calibration {
    /// The reference scale (all-MiniLM-L6-v2) and any embedder without a
    /// measured table (HTTP models: their thresholds stay as written).
    pub const IDENTITY: Calibration = Calibration { points: &[] };

    /// The calibration of the embedder `id` names.
    pub fn of(id: &EmbedderId) -> Calibration {
        match (id.provider.as_str(), id.model.as_str()) {
            ("builtin", MULTILINGUAL_MODEL) => Calibration { points: MULTILINGUAL_E5_SMALL },
            _ => Self::IDENTITY,
        }
    }

    /// This embedder's `cosine` on the reference scale, within -1..=1.
    pub fn to_reference(&self, cosine: f32) -> f32 {
        if self.points.is_empty() {
            return cosine;
        }
        interpolate(self.points.iter().map(|&(r, t)| (t, r)), cosine).clamp(-1.0, 1.0)
    }

    /// A reference-scale `threshold` on this embedder's scale.
    pub fn from_reference(&self, threshold: f32) -> f32 {
        interpolate(self.points.iter().copied(), threshold)
    }
}

/// Piecewise-linear map through `points` (x increasing), continued by the
/// end segments; the identity when there are fewer than two points.
fn interpolate(points: impl Iterator<Item = (f32, f32)> + Clone, x: f32) -> f32 {
    let pts: Vec<(f32, f32)> = points.collect();
    if pts.len() < 2 {
        return x;
    }
    let i = pts.windows(2).position(|w| x <= w[1].0).unwrap_or(pts.len() - 2);
    let ((x0, y0), (x1, y1)) = (pts[i], pts[i + 1]);
    if (x1 - x0).abs() < f32::EPSILON { y0 } else { y0 + (x - x0) * (y1 - y0) / (x1 - x0) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(model: &str) -> EmbedderId {
        EmbedderId {
            provider: "builtin".into(),
            model: model.into(),
            dimensions: 384,
            document_prefix: String::new(),
            query_prefix: String::new(),
        }
    }

    #[test]
    fn minilm_is_the_reference() {
        let c = Calibration::of(&id("all-MiniLM-L6-v2"));
        assert_eq!(c, Calibration::IDENTITY);
        assert_eq!(c.to_reference(0.62), 0.62);
    }

    #[test]
    fn e5_maps_both_ways_and_keeps_order() {
        let c = Calibration::of(&id("multilingual-e5-small"));
        assert_ne!(c, Calibration::IDENTITY);
        let mut last = f32::MIN;
        for t in [0.1f32, 0.25, 0.3, 0.5, 0.62, 0.8] {
            let e5 = c.from_reference(t);
            assert!(e5 > last, "increasing at {t}: {e5}");
            last = e5;
            assert!((c.to_reference(e5) - t).abs() < 1e-3, "round trip at {t}");
        }
        assert_eq!(c.to_reference(1.0), 1.0, "clamped to a cosine");
        assert_eq!(c.to_reference(0.0), -1.0, "clamped to a cosine");
        // e5 puts unrelated texts far above MiniLM's 0.25 floor.
        assert!(c.from_reference(0.25) > 0.7, "{}", c.from_reference(0.25));
    }
}
