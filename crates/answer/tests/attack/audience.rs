//! The audience fixture of `gate_attack.rs` (also served over HTTP and MCP
//! by the server's tests): three documents a profile of `all-staff` and
//! `students` may see, one of them superseded, and two `hr-only` ones
//! carrying canaries.
#![allow(dead_code, clippy::unwrap_used)]

use std::path::Path;

use super::Expect;

/// The audience fixture: (file, text, expected verdict at 2026-11-29 for a
/// profile of `all-staff` and `students`). The hr-only salary page is
/// indexed last, so its document id equals the id of an admissible chunk;
/// the hr-only bonus rules of 2026 supersede the visible 2025 ones.
pub const AUDIENCE: &[(&str, &str, Expect)] = &[
    (
        "a-holidays.md",
        "---\ntitle: Office holidays\n---\n# Office holidays\n\nThe office closes on 26 January, 15 August and 2 October.\n\n\
         ## Restricted holidays\n\nEach employee may take two restricted holidays a year from the published list.\n",
        Expect::Admitted,
    ),
    (
        "b-bonus-rules-2025.md",
        "---\ntitle: Bonus rules 2025\nseries: bonus-rules\nissued: 2025-04-01\n---\n# Bonus rules\n\nThe festival bonus is one month of \
         basic pay CANARYOLDBONUSA.\n\n## Eligibility\n\nStaff with six months of service are eligible \
         CANARYOLDBONUSB.\n",
        Expect::Withheld,
    ),
    (
        "c-canteen.md",
        "---\ntitle: Canteen\n---\n# Canteen\n\nThe canteen serves lunch from 12:30 to 14:30 on working days.\n\n\
         ## Coupons\n\nMeal coupons are issued by the administration office every month.\n",
        Expect::Admitted,
    ),
    (
        "d-bonus-rules-2026.md",
        "---\ntitle: Bonus rules 2026\nseries: bonus-rules\naudience: [hr-only]\nissued: 2026-04-01\n---\n\
         # Bonus rules\n\nThe festival bonus is 1.5 months of basic pay CANARYHRBONUSA.\n\n## Eligibility\n\n\
         Staff with three months of service are eligible CANARYHRBONUSB.\n",
        Expect::Hidden,
    ),
    (
        "z-salary-bands.md",
        "---\ntitle: Salary bands\naudience: [hr-only]\n---\n# Salary bands\n\nBand A pays Rs 9,40,000 a year \
         CANARYHRSALARYA.\n\n## Band B\n\nBand B pays Rs 14,20,000 a year CANARYHRSALARYB.\n\n## Band C\n\n\
         Band C pays Rs 21,75,000 a year CANARYHRSALARYC.\n",
        Expect::Hidden,
    ),
];

pub fn audience_fixture(dir: &Path) {
    for (file, text, _) in AUDIENCE {
        std::fs::write(dir.join(file), text).unwrap();
    }
}

pub fn audience_expect(path: &Path) -> Expect {
    let name = path.file_name().unwrap().to_string_lossy();
    AUDIENCE.iter().find(|(f, _, _)| *f == name).map_or(Expect::Admitted, |(_, _, e)| *e)
}
