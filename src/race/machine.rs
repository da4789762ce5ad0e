//! The machine and the program a race ran on, for `summary.json`: timings mean little
//! without them.

use serde::Serialize;

/// What measured a race.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Machine {
    /// The processor's model name (`/proc/cpuinfo`), or `unknown`.
    pub cpu: String,
    /// The cores this process may use.
    pub cores: usize,
    /// Total memory in MiB (`/proc/meminfo`), 0 when unknown.
    pub memory_mib: u64,
    /// Operating system and kernel release.
    pub os: String,
    /// The dominofit version.
    pub dominofit: String,
    /// The git commit dominofit was built from, or `unknown`.
    pub commit: String,
}

impl Machine {
    /// This machine and this build.
    pub fn this() -> Machine {
        let cpu = std::fs::read_to_string("/proc/cpuinfo")
            .ok()
            .and_then(|text| {
                text.lines()
                    .find_map(|l| l.strip_prefix("model name"))
                    .and_then(|l| l.split_once(':'))
                    .map(|(_, name)| name.trim().to_string())
            })
            .unwrap_or_else(|| "unknown".to_string());
        let memory_mib = crate::memory::meminfo("MemTotal").map_or(0, |bytes| bytes >> 20);
        let os = nix::sys::utsname::uname().map_or_else(
            |_| std::env::consts::OS.to_string(),
            |u| {
                format!(
                    "{} {}",
                    u.sysname().to_string_lossy(),
                    u.release().to_string_lossy()
                )
            },
        );
        Machine {
            cpu,
            cores: crate::backend::available_threads(),
            memory_mib,
            os,
            dominofit: env!("CARGO_PKG_VERSION").to_string(),
            commit: env!("DOMINOFIT_COMMIT").to_string(),
        }
    }
}
