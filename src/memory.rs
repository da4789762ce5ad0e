//! How much memory a run may take: one budget for every backend that can tell its size
//! before it starts (the frontier DP's states, a lowering's clauses), so that a board
//! too large for this machine is refused with an estimate instead of being killed by the
//! kernel half way.

const GIB: u64 = 1 << 30;

/// Half the memory available now (from `/proc/meminfo` where there is one), at most
/// 8 GiB; 2 GiB when it cannot be read.
pub fn default_budget() -> u64 {
    meminfo("MemAvailable").map_or(2 * GIB, |bytes| (bytes / 2).min(8 * GIB))
}

/// A field of `/proc/meminfo` (`MemTotal`, `MemAvailable`, ...) in bytes, where there
/// is one.
pub fn meminfo(field: &str) -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let rest = text
        .lines()
        .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))?;
    let kib: u64 = rest.trim().trim_end_matches("kB").trim().parse().ok()?;
    Some(kib * 1024)
}

/// Bytes as people read them: `1.5 GiB`, `312 MiB`, `40 KiB`.
pub fn human(bytes: u64) -> String {
    const MIB: u64 = 1 << 20;
    if bytes >= GIB {
        format!("{:.1} GiB", bytes as f64 / GIB as f64)
    } else if bytes >= MIB {
        format!("{} MiB", bytes.div_ceil(MIB))
    } else {
        format!("{} KiB", bytes.div_ceil(1024))
    }
}
