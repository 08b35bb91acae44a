//! `hlsinstr sim` on event-heavy runs: generated designs (tests/common/heavy.rs) whose
//! testbench logs 1 M, 10 M and 100 M records, with some arithmetic between two events.
//!
//! Each size runs twice: with the same leaf called every iteration (the log folds each top
//! call's run of them into one repeat record: the best case) and with two leaves in turn
//! (nothing folds: every record is written, piped and analysed, the worst case).
//! `cargo bench --bench events` prints for each size and kind (times are CPU time, user + system, of the
//! process and the children it reaped: the machine is shared): the plain testbench's run time; the
//! probed one's (`modules,loops`, the log drained from its pipe to a file, as `sim` does) and
//! with timestamps too, and their ratios to the plain run; the analysis of the log alone
//! (`sim --events`); the whole `sim` (compile included) and hlsinstr's own peak resident set,
//! sampled from /proc (VmHWM) while it runs; and the log's size.
//! `HLSINSTR_BENCH_EVENTS=1000000,10000000` picks the sizes, `HLSINSTR_BENCH_WORK=16` the rounds
//! of arithmetic per call (0: the probes against almost nothing). Figures only: nothing here
//! fails on a slow machine. Needs g++ and the kernel headers (scripts/fetch-hls-headers.sh).

use hlsinstr::select::Kinds;
use hlsinstr::sim::logpipe;
use hlsinstr::sim::run::{self, RunOptions, RunSpec};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

#[path = "../tests/common/heavy.rs"]
mod heavy;

fn main() {
    let sizes: Vec<u64> = std::env::var("HLSINSTR_BENCH_EVENTS")
        .ok()
        .map(|v| v.split(',').filter_map(|s| s.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![1_000_000, 10_000_000, 100_000_000]);
    let work: usize = std::env::var("HLSINSTR_BENCH_WORK").ok().and_then(|v| v.parse().ok()).unwrap_or(16);
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf();
    let include = headers(&repo);
    println!("hlsinstr sim on event-heavy runs ({work} rounds of arithmetic per call; times are CPU (user + system) of the process and its children, medians of 3 below 50 M events; the machine is shared, so wall time would measure the others)");
    println!(
        "{:>11} {:>11} {:>8} {:>8} {:>6} {:>8} {:>6} {:>9} {:>7} {:>8} {:>9} {:>8}",
        "events",
        "leaves",
        "plain s",
        "probed",
        "ratio",
        "+ts",
        "ratio",
        "analysis",
        "ratio*",
        "sim s",
        "peak MB",
        "log MB"
    );
    for (&events, leaves) in sizes.iter().flat_map(|e| [(e, heavy::Leaves::Same), (e, heavy::Leaves::Alternating)]) {
        let dir = tempfile::Builder::new().prefix("hlsinstr-events-").tempdir().unwrap();
        let (kernel, tb) = heavy::write(dir.path(), events / 2, 1, work, leaves);
        let spec = RunSpec {
            top: "top".into(),
            sources: vec![(kernel.clone(), Vec::new())],
            testbench: vec![(tb.clone(), Vec::new())],
            data_files: Vec::new(),
            csim_build: None,
            project_dir: None,
            common_flags: Vec::new(),
            argv: Vec::new(),
            ldflags: Vec::new(),
            // Measured optimised, as sim_overhead is: the cost of the probes, not of -O0.
            optimize: true,
            kernel_flow: false,
        };
        let reps = if events >= 50_000_000 { 1 } else { 3 };
        let plain = build(&spec, &include, dir.path(), "plain", None);
        let probed = build(&spec, &include, dir.path(), "probed", Some("modules,loops"));
        let stamped = build(&spec, &include, dir.path(), "stamped", Some("modules,loops,timestamps"));
        let plain_runs: Vec<(Duration, Duration, u64)> = (0..reps).map(|_| time_run(&plain)).collect();
        let t_plain = median(plain_runs.iter().map(|r| r.0).collect());
        let w_plain = median(plain_runs.iter().map(|r| r.1).collect());
        let probed_runs: Vec<(Duration, Duration, u64)> = (0..reps).map(|_| time_run(&probed)).collect();
        let log_bytes = probed_runs[0].2;
        let t_probed = median(probed_runs.iter().map(|r| r.0).collect());
        let w_probed = median(probed_runs.iter().map(|r| r.1).collect());
        let t_stamped = median((0..reps).map(|_| time_run(&stamped).0).collect());
        // The analysis of the probed run's log alone, then the whole of `sim`.
        let log = probed.join("run/bench-events.log");
        let manifest = probed.join("hlsinstr-manifest.json");
        let (t_analysis, w_analysis, _) = sim(
            &include,
            dir.path(),
            &["--events", log.to_str().unwrap(), "--manifest", manifest.to_str().unwrap(), "--top", "top"],
        );
        let (t_sim, w_sim, peak_kib) = sim(
            &include,
            dir.path(),
            &["--src", kernel.to_str().unwrap(), "--tb", tb.to_str().unwrap(), "--top", "top"],
        );
        let s = |d: Duration| d.as_secs_f64();
        println!(
            "{:>11} {:>11} {:>8.3} {:>8.3} {:>6.2} {:>8.3} {:>6.2} {:>9.3} {:>7.2} {:>8.2} {:>9.1} {:>8.1}",
            events,
            format!("{leaves:?}").to_lowercase(),
            s(t_plain),
            s(t_probed),
            s(t_probed) / s(t_plain),
            s(t_stamped),
            s(t_stamped) / s(t_probed),
            s(t_analysis),
            (s(t_probed) + s(t_analysis)) / s(t_plain),
            s(t_sim),
            peak_kib as f64 / 1024.0,
            log_bytes as f64 / 1e6
        );
        println!(
            "{:>23} wall: plain {:.3} s, probed {:.3} s, analysis {:.3} s, (probed + analysis) / plain {:.2}, whole sim {:.2} s",
            "",
            s(w_plain),
            s(w_probed),
            s(w_analysis),
            (s(w_probed) + s(w_analysis)) / s(w_plain),
            s(w_sim)
        );
        for d in [plain, probed, stamped] {
            let _ = std::fs::remove_dir_all(d);
        }
    }
    println!(
        "leaves: same (one leaf called every iteration: the log folds each run of them into one record) or \
         alternating (two leaves in turn: nothing folds); ratio: probed / plain run; +ts ratio: with timestamps / without; ratio*: (probed run + analysis) / plain \
         run, what `sim` adds to a testbench besides compiling; peak MB: hlsinstr's own (VmHWM) over the whole sim"
    );
}

/// Builds one variant (probes of `kinds`, or none) in `dir/name`; returns the work directory.
fn build(spec: &RunSpec, include: &Path, dir: &Path, name: &str, kinds: Option<&str>) -> PathBuf {
    let work = dir.join(name);
    let opts = RunOptions {
        cxx: std::env::var("CXX").unwrap_or_else(|_| "g++".into()),
        hls_include: include.to_path_buf(),
        work_dir: Some(work.clone()),
        timeout: Duration::from_secs(3600),
        watchdog_ms: 2000,
        kinds: Kinds::parse(kinds.unwrap_or("modules")).unwrap(),
        watch: None,
        uninstrumented: kinds.is_none(),
        progress: None,
        cancel: None,
    };
    run::run(spec, &opts).expect("the generated design builds and its testbench passes");
    work
}

/// One run of a built testbench as `sim` runs it (the log drained from a pipe into a file):
/// its CPU time, wall time and the log's bytes.
fn time_run(work: &Path) -> (Duration, Duration, u64) {
    let started = std::time::Instant::now();
    let mut cmd = Command::new(work.join("csim.exe"));
    cmd.current_dir(work.join("run")).stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::null());
    let log = work.join("run/bench-events.log");
    let (child, reader) = logpipe::spawn(&mut cmd, &log).expect("run the testbench");
    let bytes = reader.copy_to(std::fs::File::create(&log).unwrap()).expect("read the event log");
    let (status, cpu, _) = wait4(child);
    assert!(status == 0, "the testbench failed");
    (cpu, started.elapsed(), bytes)
}

/// Reaps `child`: its wait status, CPU time (user + system, with its reaped children's) and peak
/// resident set in KiB.
fn wait4(child: std::process::Child) -> (i32, Duration, u64) {
    let mut status = 0;
    // SAFETY: rusage is plain data that wait4 fills; the pid is our unreaped child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = unsafe { libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut usage) };
    assert!(pid > 0, "wait4 failed: {}", std::io::Error::last_os_error());
    let t = |tv: libc::timeval| Duration::new(tv.tv_sec as u64, tv.tv_usec as u32 * 1000);
    (status, t(usage.ru_utime) + t(usage.ru_stime), usage.ru_maxrss as u64)
}

/// `hlsinstr sim ARGS` (JSON report to a file): its CPU time (its children's included: the
/// compiler and the testbench of a whole run), its wall time and its own peak resident set in KiB.
fn sim(include: &Path, dir: &Path, args: &[&str]) -> (Duration, Duration, u64) {
    let started = std::time::Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_hlsinstr"))
        .arg("sim")
        .args(["-q", "--format", "json", "-o"])
        .arg(dir.join("report.json"))
        .arg("--hls-include")
        .arg(include)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("run hlsinstr");
    let peak = heavy::peak_rss_kib_until_exit(&mut child, Duration::from_millis(20));
    let (status, cpu, _) = wait4(child);
    assert!(status == 0, "hlsinstr sim {args:?} failed");
    (cpu, started.elapsed(), peak)
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn headers(repo: &Path) -> PathBuf {
    let out = Command::new("bash").arg(repo.join("scripts/fetch-hls-headers.sh")).output().expect("bash");
    assert!(out.status.success(), "scripts/fetch-hls-headers.sh failed");
    PathBuf::from(String::from_utf8(out.stdout).unwrap().trim())
}
