//! C-simulation overhead of the probes `hlsinstr sim` inserts: the run time of each example's
//! testbench built with probes (`modules,loops`) over the same testbench built without, same
//! compiler and flags. HLScope measured 1.31x; the target here is <= 1.05x.
//!
//! `cargo bench --bench sim_overhead` builds both variants of every example once, then runs the
//! two executables alternately `HLSINSTR_BENCH_REPS` times (default 21) and prints the median
//! wall time of each and their ratio, plus the number of events the instrumented run logs.
//! `HLSINSTR_BENCH_KEEP=1` keeps both build directories for a closer look (perf, callgrind).
//! Needs g++ and the kernel headers (scripts/fetch-hls-headers.sh). Figures only: nothing here
//! fails on a slow machine.

use hlsinstr::project;
use hlsinstr::select::Kinds;
use hlsinstr::sim::logpipe;
use hlsinstr::sim::run::{self, RunOptions, RunSpec};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const EXAMPLES: &[&str] = &["quicksort", "binary_search", "matmul", "dataflow_pipeline", "control_flow"];

fn main() {
    let reps = std::env::var("HLSINSTR_BENCH_REPS").ok().and_then(|v| v.parse().ok()).unwrap_or(21usize).max(1);
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf();
    let include = headers(&repo);
    println!("hlsinstr sim overhead: testbench run time with probes / without (median of {reps} alternating runs)");
    println!("{:<18} {:>12} {:>12} {:>8} {:>10}", "example", "plain ms", "probed ms", "ratio", "events");
    let mut ratios = Vec::new();
    for name in EXAMPLES {
        let cfg = repo.join("examples").join(name).join("hls_config.cfg");
        let p = project::load(&cfg).expect("example project loads");
        let spec = RunSpec::from_project(&p).expect("example project is complete");
        let plain = build(&spec, &include, true);
        let probed = build(&spec, &include, false);
        let events = probed.1;
        let (mut tp, mut ti) = (Vec::new(), Vec::new());
        for _ in 0..reps {
            tp.push(time_run(&plain.0, false));
            ti.push(time_run(&probed.0, true));
        }
        let (mp, mi) = (median(&mut tp), median(&mut ti));
        if std::env::var_os("HLSINSTR_BENCH_KEEP").is_some() {
            eprintln!("{name}: kept {} (plain) and {} (probed)", plain.0.display(), probed.0.display());
        } else {
            let _ = std::fs::remove_dir_all(&plain.0);
            let _ = std::fs::remove_dir_all(&probed.0);
        }
        let ratio = mi.as_secs_f64() / mp.as_secs_f64();
        ratios.push(ratio);
        println!(
            "{:<18} {:>12.3} {:>12.3} {:>8.3} {:>10}",
            name,
            mp.as_secs_f64() * 1e3,
            mi.as_secs_f64() * 1e3,
            ratio,
            events
        );
    }
    let geo = (ratios.iter().map(|r| r.ln()).sum::<f64>() / ratios.len() as f64).exp();
    println!("geometric mean ratio {geo:.3} (target <= 1.05; HLScope measured 1.31)");
}

/// Builds one variant in a kept work directory; returns (work dir, events logged by one run).
fn build(spec: &RunSpec, include: &Path, uninstrumented: bool) -> (PathBuf, usize) {
    let work = tempfile::Builder::new().prefix("hlsinstr-bench-").tempdir().unwrap().keep();
    let opts = RunOptions {
        cxx: std::env::var("CXX").unwrap_or_else(|_| "g++".into()),
        hls_include: include.to_path_buf(),
        work_dir: Some(work.clone()),
        timeout: Duration::from_secs(600),
        watchdog_ms: 2000,
        kinds: Kinds::parse("modules,loops,maxi").unwrap(),
        uninstrumented,
        progress: None,
    };
    let out = run::run(spec, &opts).expect("the example builds and its testbench passes");
    (work, out.records.len())
}

/// One run as `hlsinstr sim` runs it: the probed testbench sends its log through a pipe
/// (sim::logpipe), drained here while it runs; the plain one has no log.
fn time_run(work: &Path, probed: bool) -> Duration {
    let mut cmd = Command::new(work.join("csim.exe"));
    cmd.current_dir(work.join("run")).stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::null());
    let started = Instant::now();
    let status = if probed {
        let (mut child, log) = logpipe::spawn(&mut cmd, &work.join("run/bench-events.log")).expect("run the testbench");
        let bytes = log.read_all().expect("read the event log");
        assert!(bytes.len() > 8, "the probed testbench sent no event log");
        child.wait()
    } else {
        cmd.status()
    };
    let t = started.elapsed();
    assert!(status.expect("run the testbench").success(), "the testbench failed in the benchmark");
    t
}

fn median(v: &mut [Duration]) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn headers(repo: &Path) -> PathBuf {
    let out = Command::new("bash").arg(repo.join("scripts/fetch-hls-headers.sh")).output().expect("bash");
    assert!(out.status.success(), "scripts/fetch-hls-headers.sh failed");
    PathBuf::from(String::from_utf8(out.stdout).unwrap().trim())
}
