//! What a run used: CPU time and peak resident memory, of this process and of the
//! programs it ran, as benchmark harnesses (BenchExec, runsolver) report them.
//!
//! Wall time alone misleads when threads or child processes do the work: CPU time above
//! wall time shows threads at work, and a solver that needs gigabytes is slower on a
//! machine that has to page. The figures are read from the kernel: `getrusage` for CPU
//! time, `wait4` for each program's own peak, and `VmHWM` of `/proc/self/status` for
//! this process's peak, which Linux lets a process reset (`/proc/self/clear_refs`), so
//! that each run is measured from its own start.

use std::os::unix::process::ExitStatusExt;
use std::process::ExitStatus;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// The CPU time (user and system) of this process and of the programs it ran and waited
/// for, since it started.
pub fn cpu_time() -> Duration {
    use nix::sys::resource::{UsageWho, getrusage};
    let of = |who| {
        getrusage(who).map_or(Duration::ZERO, |u| {
            timeval(u.user_time().tv_sec(), u.user_time().tv_usec())
                + timeval(u.system_time().tv_sec(), u.system_time().tv_usec())
        })
    };
    of(UsageWho::RUSAGE_SELF) + of(UsageWho::RUSAGE_CHILDREN)
}

fn timeval(seconds: i64, micros: i64) -> Duration {
    Duration::new(
        seconds.max(0) as u64,
        (micros.clamp(0, 999_999) * 1000) as u32,
    )
}

/// What one program used, from `wait4`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ChildUsage {
    /// User and system time of the program and of the children it waited for.
    pub cpu: Duration,
    /// Its peak resident memory in bytes (the largest of it and its waited-for
    /// children).
    pub peak: u64,
}

/// The largest peak of the programs run since [`Meter::start`], in bytes.
static CHILD_PEAK: AtomicU64 = AtomicU64::new(0);

/// Waits for the child `pid` to end and reaps it, with what it used; `None` when it is
/// not a child of this process (already reaped). Blocks: the external runner calls it
/// on a thread of its own.
pub fn wait_child(pid: i32) -> Option<(ExitStatus, ChildUsage)> {
    loop {
        let mut status: libc::c_int = 0;
        // SAFETY: `rusage` is a plain C struct for which all-zero bytes are a valid value.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: both pointers point to locals that live for the whole call.
        let reaped = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        if reaped == pid {
            let used = ChildUsage {
                cpu: timeval(usage.ru_utime.tv_sec, usage.ru_utime.tv_usec)
                    + timeval(usage.ru_stime.tv_sec, usage.ru_stime.tv_usec),
                // Linux gives kilobytes.
                peak: (usage.ru_maxrss.max(0) as u64) * 1024,
            };
            CHILD_PEAK.fetch_max(used.peak, Ordering::SeqCst);
            return Some((ExitStatus::from_raw(status), used));
        }
        if reaped == -1 && std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted
        {
            continue;
        }
        return None;
    }
}

/// This process's peak resident memory since it was last reset, in bytes.
fn own_peak() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let kib: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kib * 1024)
}

/// Measures one run: started before it, read after it.
#[derive(Debug)]
pub struct Meter {
    cpu: Duration,
}

/// What a run used, as [`Meter::read`] found it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Used {
    /// CPU time of this process and the programs it ran during the run.
    pub cpu: Duration,
    /// The peak resident memory during the run, in bytes: the larger of this process's
    /// (threads included, with what it held before the run) and the largest program's;
    /// `None` where the kernel does not say.
    pub peak: Option<u64>,
}

impl Meter {
    /// Resets the peaks and notes the CPU clock.
    pub fn start() -> Meter {
        // Writing 5 resets VmHWM to the current resident size (Linux 4.0 and later).
        let _ = std::fs::write("/proc/self/clear_refs", "5");
        CHILD_PEAK.store(0, Ordering::SeqCst);
        Meter { cpu: cpu_time() }
    }

    /// What was used since [`Meter::start`].
    pub fn read(&self) -> Used {
        let child = CHILD_PEAK.load(Ordering::SeqCst);
        let peak = match own_peak() {
            Some(own) => Some(own.max(child)),
            None => (child > 0).then_some(child),
        };
        Used {
            cpu: cpu_time().saturating_sub(self.cpu),
            peak,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Meter;

    /// The peak follows memory this process touches during the run, not before it.
    #[test]
    fn own_peak_is_measured_from_the_start_of_the_run() {
        let meter = Meter::start();
        let before = meter.read().peak.expect("Linux reports VmHWM");
        let block = vec![1u8; 64 << 20];
        std::hint::black_box(&block);
        let during = meter.read().peak.expect("Linux reports VmHWM");
        assert!(during >= before + (60 << 20), "{before} then {during}");
        drop(block);
        let again = Meter::start().read().peak.expect("Linux reports VmHWM");
        assert!(again + (32 << 20) < during, "reset: {again} after {during}");
    }
}
