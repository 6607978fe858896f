//! Latency percentiles, shared by every part that times queries (the parts
//! measure, [`crate::report`] only renders what they measured).

use serde::Serialize;

/// Percentiles of per-query times.
#[derive(Debug, Clone, Serialize)]
pub struct LatencyStats {
    /// Samples.
    pub n: usize,
    /// Median, ms.
    pub p50_ms: f64,
    /// 95th percentile, ms.
    pub p95_ms: f64,
    /// Mean, ms.
    pub mean_ms: f64,
}

impl LatencyStats {
    /// From per-query times in ms (nearest-rank percentiles).
    pub fn from_ms(mut times: Vec<f64>) -> Self {
        times.sort_by(f64::total_cmp);
        let n = times.len();
        let pick = |p: f64| {
            if n == 0 {
                return 0.0;
            }
            let rank = ((p * n as f64).ceil() as usize).clamp(1, n);
            times[rank - 1]
        };
        Self { n, p50_ms: pick(0.50), p95_ms: pick(0.95), mean_ms: times.iter().sum::<f64>() / n.max(1) as f64 }
    }
}
