//! The memory plan against the memory used: a counting allocator (this test binary's
//! own) measures the peak bytes of compiling a board and of solving it, and each must
//! stay within the plan that `solve` checks against the memory budget before it starts.
//! The plan must also be near the truth (within a factor of three), or it would refuse
//! boards that fit.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use dominofit::backend::native::{Native, SearchOptions};
use dominofit::backend::{Backend, Budget, Control};
use dominofit::model::{Families, compile};
use dominofit::puzzle::generate::{Tiling, planted_by};

struct Counting;

static NOW: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = NOW.fetch_add(layout.size(), Ordering::SeqCst) + layout.size();
            PEAK.fetch_max(now, Ordering::SeqCst);
        }
        p
    }
    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        unsafe { System.dealloc(p, layout) };
        NOW.fetch_sub(layout.size(), Ordering::SeqCst);
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The allocator counts every thread's allocations: the tests of this file run one at
/// a time, so that one's board is not counted in the other's peak.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn alone() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The peak bytes allocated by `f` above what was allocated when it began.
fn peak_of<R>(f: impl FnOnce() -> R) -> (R, u64) {
    let base = NOW.load(Ordering::SeqCst);
    PEAK.store(base, Ordering::SeqCst);
    let r = f();
    (r, (PEAK.load(Ordering::SeqCst) - base) as u64)
}

#[test]
fn the_plan_bounds_the_memory_of_compiling_and_solving() {
    let _alone = alone();
    for (side, tiling, seed) in [
        (128, Tiling::Backtrack, 3),
        (256, Tiling::Backtrack, 4),
        (256, Tiling::Flips, 5),
        (512, Tiling::Backtrack, 6),
    ] {
        let (instance, _) = planted_by(side, side, seed, 0, true, tiling).expect("a board");
        let (model, model_peak) = peak_of(|| compile(&instance, Families::ColourSplits));
        let model_plan = dominofit::model::footprint::planned_bytes(side, side);
        assert!(
            model_peak <= model_plan,
            "{side}×{side} {tiling:?}: compiling took {model_peak} bytes, planned {model_plan}"
        );
        let mut worst = 0;
        // With the repair's opening (it answers) and without (the descents and the
        // repair's turns between them, for three seconds).
        for opening in [32, 0] {
            let options = SearchOptions {
                repair_opening: opening,
                ..SearchOptions::default()
            };
            let native = Native::new(options);
            let budget = Budget::with_timeout(Some(Duration::from_secs(3)));
            let (_, solve_peak) = peak_of(|| {
                native
                    .solve(&model, 1, &budget, &mut |_| Control::Stop)
                    .expect("the native search takes the board")
            });
            let plan = native.footprint(side, side);
            eprintln!(
                "{side}×{side} {tiling:?}, opening {opening}: model {model_peak} of {model_plan}, search {solve_peak} of {plan}"
            );
            assert!(
                solve_peak <= plan,
                "{side}×{side} {tiling:?}: the search took {solve_peak} bytes, planned {plan}"
            );
            worst = worst.max(solve_peak);
        }
        // Near the truth where the board, not the cache's cap, makes the plan.
        if side >= 512 {
            let cache =
                8 * dominofit::backend::native::footprint::cache_words(&SearchOptions::default())
                    as u64;
            let planned = model_plan + Native::default().footprint(side, side) - cache;
            assert!(
                planned <= 3 * (model_peak + worst),
                "{side}×{side}: planned {planned} bytes beside the cache, used {}",
                model_peak + worst
            );
        }
    }
}

/// The commands that compile models of their own beside a search (grade, explain and
/// hint), and emit, hold them against the budget first: under a budget too small for a
/// 1024×1024 board each is refused with the figures, before any model is built.
#[test]
fn grade_and_explain_are_refused_past_the_budget() {
    let _alone = alone();
    use dominofit::design::{explain, grade};
    let (instance, _) = planted_by(1024, 1024, 7, 0, true, Tiling::Backtrack).expect("a board");
    dominofit::memory::set_limit(Some(256 << 20));
    let graded = grade(&instance, Some(Duration::from_secs(60)));
    let explained = explain(
        &instance,
        &dominofit::puzzle::Solution::default(),
        10,
        &Budget::unlimited(),
    );
    dominofit::memory::set_limit(Some(64 << 20));
    let emitted_small = dominofit::action::emit::emit(
        &instance,
        &dominofit::action::emit::EmitOptions::default(),
        &mut std::io::sink(),
        &|| false,
    );
    dominofit::memory::set_limit(None);
    let said = emitted_small
        .expect_err("emitted past the budget")
        .to_string();
    assert!(said.contains("more than the 64 MiB allowed"), "{said}");
    let refusal = "more than the 256 MiB allowed";
    let graded = graded.expect_err("graded past the budget").to_string();
    assert!(graded.contains(refusal), "{graded}");
    let explained = explained
        .expect_err("explained past the budget")
        .to_string();
    assert!(explained.contains(refusal), "{explained}");
}
