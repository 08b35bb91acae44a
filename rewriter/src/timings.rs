//! Where a rewrite's CPU time goes: with `HLSINSTR_TIMINGS` set in the environment, each stage
//! of the pipeline adds the CPU time of its thread to a named total, and the totals are printed
//! to stderr at the end of `hlsinstr rewrite`. A debugging aid for the rewrite-at-scale bench
//! (docs/benchmarks.md): profilers are not always at hand, and wall time on a shared machine says
//! little. Stages nest (`check` holds `check: parse`), so the totals are not meant to add up.
//! Unset, a stage costs one relaxed load.

use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// 0: not looked up yet, 1: off, 2: on.
static STATE: AtomicU8 = AtomicU8::new(0);
static TOTALS: Mutex<Vec<(&'static str, Duration, u64)>> = Mutex::new(Vec::new());

fn enabled() -> bool {
    match STATE.load(Ordering::Relaxed) {
        0 => {
            let on = std::env::var_os("HLSINSTR_TIMINGS").is_some_and(|v| !v.is_empty());
            STATE.store(if on { 2 } else { 1 }, Ordering::Relaxed);
            on
        }
        s => s == 2,
    }
}

/// The CPU time this thread has used.
fn thread_cpu() -> Duration {
    // SAFETY: clock_gettime writes one timespec, which is plain data.
    let mut t: libc::timespec = unsafe { std::mem::zeroed() };
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

/// Run `f`, adding its thread CPU time to the total of `stage` when timings are on.
pub fn time<T>(stage: &'static str, f: impl FnOnce() -> T) -> T {
    if !enabled() {
        return f();
    }
    let start = thread_cpu();
    let out = f();
    let spent = thread_cpu().saturating_sub(start);
    let mut totals = TOTALS.lock().unwrap_or_else(|e| e.into_inner());
    match totals.iter_mut().find(|t| t.0 == stage) {
        Some(t) => {
            t.1 += spent;
            t.2 += 1;
        }
        None => totals.push((stage, spent, 1)),
    }
    out
}

/// The totals so far, one line each in the order the stages first ran, to stderr; then cleared.
pub fn report() {
    if !enabled() {
        return;
    }
    let mut totals = TOTALS.lock().unwrap_or_else(|e| e.into_inner());
    for (stage, spent, calls) in totals.iter() {
        eprintln!("hlsinstr timings: {stage:<28} {:>9.3} s CPU  ({calls} calls)", spent.as_secs_f64());
    }
    totals.clear();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stage_adds_its_cpu_time_and_calls_when_on() {
        STATE.store(2, Ordering::Relaxed);
        let spin = || (0..2_000_000u64).fold(0u64, |a, i| a.wrapping_mul(31).wrapping_add(i ^ (a >> 3)));
        let first = time("timings test stage", spin);
        assert_eq!(time("timings test stage", spin), first, "the stage's result is passed on");
        let totals = TOTALS.lock().unwrap();
        let (_, spent, calls) = totals.iter().find(|t| t.0 == "timings test stage").copied().unwrap();
        assert_eq!(calls, 2);
        assert!(spent > Duration::ZERO, "{spent:?}");
    }
}
