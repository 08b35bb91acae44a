//! Event-heavy designs, generated: a top function whose loop calls a small function `calls`
//! times, so `hlsinstr sim` logs about 2 × `calls` records (the call's begin and end), with
//! `work` rounds of integer arithmetic in each call (no loop: it adds no records) to stand for
//! what a real kernel computes between two events. Shared by the `events` bench and the
//! bounded-memory test.
#![allow(dead_code)]

use std::fmt::Write;
use std::path::{Path, PathBuf};

/// Which leaf each iteration calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Leaves {
    /// The same leaf every time: the log folds each top call's run of them into one repeat
    /// record (hls-lib `ThreadLog::end_leaf`), the best case.
    Same,
    /// Two leaves in turn (the same work): no two alike in a row, so nothing folds, the worst
    /// case — every record is written, piped and analysed.
    Alternating,
}

/// Writes `kernel.cpp` and `tb.cpp` into `dir`; returns their paths. `tb_calls` calls of the
/// top, each running `calls / tb_calls` iterations.
pub fn write(dir: &Path, calls: u64, tb_calls: u64, work: usize, leaves: Leaves) -> (PathBuf, PathBuf) {
    let mut body = String::new();
    for k in 0..work {
        let _ = writeln!(body, "    acc = acc * 1103515245u + {}u; acc ^= acc >> 13;", 12345 + k);
    }
    let call = match leaves {
        Leaves::Same => "leaf(acc + (unsigned)i)",
        Leaves::Alternating => "(i & 1) ? leaf_b(acc + (unsigned)i) : leaf(acc + (unsigned)i)",
    };
    let kernel = format!(
        "unsigned leaf(unsigned acc) {{\n{body}    return acc;\n}}\n\n\
         unsigned leaf_b(unsigned acc) {{\n{body}    return acc;\n}}\n\n\
         unsigned top(unsigned seed, long long n) {{\n    unsigned acc = seed;\nrun:\n    for (long long i = 0; i < n; i++) {{\n        acc = {call};\n    }}\n    return acc;\n}}\n"
    );
    let per = (calls / tb_calls.max(1)).max(1);
    let tb = format!(
        "#include <cstdio>\nunsigned top(unsigned seed, long long n);\nint main() {{\n    unsigned acc = 1;\n    \
         for (int c = 0; c < {tb_calls}; c++) acc = top(acc, {per}LL);\n    std::printf(\"checksum %u\\n\", acc);\n    return 0;\n}}\n"
    );
    let (k, t) = (dir.join("kernel.cpp"), dir.join("tb.cpp"));
    std::fs::write(&k, kernel).unwrap();
    std::fs::write(&t, tb).unwrap();
    (k, t)
}

/// Samples `/proc/PID/status` while the process runs: its peak resident set (VmHWM) in KiB as
/// last seen (the high-water mark only grows; the last sample comes within `every` of the end).
pub fn peak_rss_kib(child: &mut std::process::Child, every: std::time::Duration) -> (std::process::ExitStatus, u64) {
    let status_file = format!("/proc/{}/status", child.id());
    let mut peak = 0;
    loop {
        if let Ok(s) = std::fs::read_to_string(&status_file) {
            if let Some(v) = s.lines().find_map(|l| l.strip_prefix("VmHWM:")) {
                peak = peak.max(v.trim().trim_end_matches("kB").trim().parse().unwrap_or(0));
            }
        }
        if let Some(st) = child.try_wait().unwrap() {
            return (st, peak);
        }
        std::thread::sleep(every);
    }
}

/// As [`peak_rss_kib`], but leaves the exited child unreaped (for a wait4 that reads its CPU
/// time): polls with waitid(WNOWAIT).
#[cfg(unix)]
pub fn peak_rss_kib_until_exit(child: &mut std::process::Child, every: std::time::Duration) -> u64 {
    let status_file = format!("/proc/{}/status", child.id());
    let mut peak = 0;
    loop {
        if let Ok(s) = std::fs::read_to_string(&status_file) {
            if let Some(v) = s.lines().find_map(|l| l.strip_prefix("VmHWM:")) {
                peak = peak.max(v.trim().trim_end_matches("kB").trim().parse().unwrap_or(0));
            }
        }
        // SAFETY: siginfo is plain data that waitid fills; the pid is our unreaped child.
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        let r =
            unsafe { libc::waitid(libc::P_PID, child.id(), &mut info, libc::WEXITED | libc::WNOHANG | libc::WNOWAIT) };
        if r == 0 && unsafe { info.si_pid() } != 0 {
            return peak;
        }
        std::thread::sleep(every);
    }
}
