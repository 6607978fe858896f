//! Versions, sessions and the freshness gate (ARCHITECTURE §2): metadata with
//! provenance, series inference, the supersession graph, per-query status,
//! and the admissible-chunk bitmap applied before ranking.

pub mod amendments;
pub mod dates;
pub mod describe;
pub mod gate;
pub mod header;
pub mod meta;
pub mod overrides;
pub mod reason;
pub mod record;
pub mod records;
pub mod references;
pub mod series;
pub mod session;
pub mod status;
#[cfg(test)]
mod tests_nhai;
pub mod unreadable;

pub use dates::DateOrder;
pub use describe::{DescribeInput, FolderSettings, describe};
pub use gate::Gate;
pub use meta::{DocMeta, Field, Provenance};
pub use reason::{Reason, Verdict};
pub use series::Versioning;
pub use session::Session;
pub use status::{AsOf, DocStatus, StatusLabel};
