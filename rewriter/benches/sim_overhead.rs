//! C-simulation overhead of the probes `hlsinstr sim` inserts: the run time of each example's
//! testbench built with probes (`modules,loops`) over the same testbench built without, same
//! compiler and flags. HLScope measured 1.31x; the target here is <= 1.05x.
//!
//! `cargo bench --bench sim_overhead` builds both variants of every example once, links each in
//! `HLSINSTR_BENCH_LAYOUTS` code layouts (default 8: padding in front of the code, see relink),
//! runs the two executables of a layout alternately `HLSINSTR_BENCH_REPS` times (default 21) and
//! prints, as means over the layouts of the medians, the wall time and CPU time (user + system of
//! the testbench process: less disturbed by other load) of each and their ratios, the range of
//! the per-layout wall ratios, the number of events the instrumented run logs, and the probes'
//! CPU cost fitted as a fixed part per run plus a part per event.
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

/// Code layouts each variant is measured in (HLSINSTR_BENCH_LAYOUTS).
const DEFAULT_LAYOUTS: usize = 8;

fn main() {
    let env = |name: &str, default: usize| std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default);
    let reps = env("HLSINSTR_BENCH_REPS", 21).max(1);
    let layouts = env("HLSINSTR_BENCH_LAYOUTS", DEFAULT_LAYOUTS).max(1);
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf();
    let include = headers(&repo);
    let cxx = std::env::var("CXX").unwrap_or_else(|_| "g++".into());
    println!(
        "hlsinstr sim overhead: testbench run time with probes / without, {layouts} code layouts x {reps} alternating \
         runs (means over layouts of the medians)"
    );
    println!(
        "{:<18} {:>9} {:>9} {:>6} {:>9} {:>9} {:>6} {:>13} {:>7}",
        "example", "plain ms", "probed", "ratio", "plain cpu", "probed", "ratio", "layout ratios", "events"
    );
    let mut ratios = Vec::new();
    let mut costs = Vec::new(); // (events, extra CPU µs)
    for name in EXAMPLES {
        let cfg = repo.join("examples").join(name).join("hls_config.cfg");
        let p = project::load(&cfg).expect("example project loads");
        let mut spec = RunSpec::from_project(&p).expect("example project is complete");
        // The overhead is measured on the optimised build (`csim_design -O`): at -O0 every
        // function call costs more, probes included, and the ratio says less.
        spec.optimize = true;
        let plain = build(&spec, &include, true);
        let probed = build(&spec, &include, false);
        let events = probed.1;
        let mut per_layout = Vec::new(); // (plain wall, probed wall, plain cpu, probed cpu)
        for layout in 0..layouts {
            let (pe, ie) = (relink(&cxx, &spec, &plain.0, layout), relink(&cxx, &spec, &probed.0, layout));
            let (mut tp, mut ti) = (Vec::new(), Vec::new());
            for _ in 0..reps {
                tp.push(time_run(&plain.0, &pe, false));
                ti.push(time_run(&probed.0, &ie, true));
            }
            let wall = |v: &[Timing]| median(v.iter().map(|t| t.wall).collect());
            let cpu = |v: &[Timing]| median(v.iter().map(|t| t.cpu).collect());
            per_layout.push((wall(&tp), wall(&ti), cpu(&tp), cpu(&ti)));
        }
        if std::env::var_os("HLSINSTR_BENCH_KEEP").is_some() {
            eprintln!("{name}: kept {} (plain) and {} (probed)", plain.0.display(), probed.0.display());
        } else {
            let _ = std::fs::remove_dir_all(&plain.0);
            let _ = std::fs::remove_dir_all(&probed.0);
        }
        let mean =
            |f: fn(&(f64, f64, f64, f64)) -> f64| per_layout.iter().map(f).sum::<f64>() / per_layout.len() as f64;
        let (mp, mi, cp, ci) = (mean(|t| t.0), mean(|t| t.1), mean(|t| t.2), mean(|t| t.3));
        let layout_ratios: Vec<f64> = per_layout.iter().map(|t| t.1 / t.0).collect();
        let lo = layout_ratios.iter().cloned().fold(f64::INFINITY, f64::min);
        let hi = layout_ratios.iter().cloned().fold(0.0, f64::max);
        ratios.push(mi / mp);
        costs.push((events as f64, (ci - cp) * 1e3));
        println!(
            "{:<18} {:>9.3} {:>9.3} {:>6.3} {:>9.3} {:>9.3} {:>6.3} {:>13} {:>7}",
            name,
            mp,
            mi,
            mi / mp,
            cp,
            ci,
            ci / cp,
            format!("{lo:.2}-{hi:.2}"),
            events
        );
    }
    let geo = (ratios.iter().map(|r| r.ln()).sum::<f64>() / ratios.len() as f64).exp();
    println!("geometric mean ratio {geo:.3} (wall time; target <= 1.05; HLScope measured 1.31)");
    // What a run pays: a fixed part (start, exit, the log's hand-over) and a part per event,
    // fitted by least squares over the examples (extra CPU µs = fixed + per_event × events).
    let (fixed, per_event) = fit_line(&costs);
    println!("probe CPU cost fitted over the examples: {fixed:.0} µs per run + {:.0} ns per event", per_event * 1e3);
}

/// The testbench linked again with `layout` × 24 bytes of padding in front of its code. Where
/// a hot loop falls relative to 32- and 64-byte boundaries changes run time by ±10 % (the
/// quicksort testbench's own reference sort, which has no probes, ran 1.12x slower with only the
/// link order changed), more than the probes cost; so every variant is measured in several
/// layouts and the layouts' mean compared (as Mytkowicz et al., ASPLOS 2009, advise).
fn relink(cxx: &str, spec: &RunSpec, work: &Path, layout: usize) -> PathBuf {
    let dir = work.join("layouts");
    std::fs::create_dir_all(&dir).unwrap();
    let pad_src = dir.join(format!("pad{layout}.cpp"));
    let pad_obj = dir.join(format!("pad{layout}.o"));
    std::fs::write(
        &pad_src,
        format!(
            "__asm__(\".text\\n.globl hlsinstr_bench_pad\\nhlsinstr_bench_pad:\\n.skip {}, 0x90\\n\");\n",
            layout * 24 + 1
        ),
    )
    .unwrap();
    let ok = Command::new(cxx).arg("-c").arg(&pad_src).arg("-o").arg(&pad_obj).status().expect("run the compiler");
    assert!(ok.success(), "the padding object does not compile");
    let mut all = vec![pad_obj];
    all.extend(run::object_files(work).expect("the build's objects"));
    let exe = dir.join(format!("csim{layout}.exe"));
    run::link(cxx, &all, &spec.ldflags, &exe).expect("the testbench links again");
    exe
}

/// Least-squares line y = a + b x; returns (a, b).
fn fit_line(points: &[(f64, f64)]) -> (f64, f64) {
    let n = points.len() as f64;
    let (sx, sy) = points.iter().fold((0.0, 0.0), |(a, b), (x, y)| (a + x, b + y));
    let (mx, my) = (sx / n, sy / n);
    let sxx: f64 = points.iter().map(|(x, _)| (x - mx) * (x - mx)).sum();
    let sxy: f64 = points.iter().map(|(x, y)| (x - mx) * (y - my)).sum();
    let b = if sxx > 0.0 { sxy / sxx } else { 0.0 };
    (my - b * mx, b)
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
        watch: None,
        uninstrumented,
        progress: None,
        cancel: None,
    };
    let out = run::run(spec, &opts).expect("the example builds and its testbench passes");
    let mut events = 0;
    if let Some(log) = &out.log {
        let mut s = hlsinstr::sim::events::open(log).expect("the event log opens");
        while s.next_record().expect("the event log reads").is_some() {
            events += 1;
        }
    }
    (work, events)
}

/// Wall time and CPU time (user + system, the child's own) of one run.
struct Timing {
    wall: Duration,
    cpu: Duration,
}

/// One run as `hlsinstr sim` runs it: the testbench gets the log pipe (sim::logpipe), drained
/// here until it ends. The plain one is started the same way (it writes nothing to the pipe), so
/// the two runs differ only in the testbench: this process's own spawning and waking (tens of µs)
/// is not charged to the probes. The child is reaped with wait4 for its CPU time, which other
/// load on the machine disturbs less than wall time.
fn time_run(work: &Path, exe: &Path, probed: bool) -> Timing {
    let mut cmd = Command::new(exe);
    cmd.current_dir(work.join("run")).stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::null());
    let started = Instant::now();
    let (child, log) = logpipe::spawn(&mut cmd, &work.join("run/bench-events.log")).expect("run the testbench");
    let bytes = log.read_all().expect("read the event log");
    assert_eq!(bytes.len() > 8, probed, "only the probed testbench sends an event log");
    let (status, cpu) = wait_with_cpu_time(child);
    let wall = started.elapsed();
    assert!(status == 0, "the testbench failed in the benchmark (wait status {status})");
    Timing { wall, cpu }
}

fn wait_with_cpu_time(child: std::process::Child) -> (i32, Duration) {
    let mut status = 0;
    // SAFETY: rusage is plain data that wait4 fills; the pid is our unreaped child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = unsafe { libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut usage) };
    assert!(pid > 0, "wait4 failed: {}", std::io::Error::last_os_error());
    let t = |tv: libc::timeval| Duration::new(tv.tv_sec as u64, tv.tv_usec as u32 * 1000);
    (status, t(usage.ru_utime) + t(usage.ru_stime))
}

/// The median, in ms.
fn median(mut v: Vec<Duration>) -> f64 {
    v.sort();
    v[v.len() / 2].as_secs_f64() * 1e3
}

fn headers(repo: &Path) -> PathBuf {
    let out = Command::new("bash").arg(repo.join("scripts/fetch-hls-headers.sh")).output().expect("bash");
    assert!(out.status.success(), "scripts/fetch-hls-headers.sh failed");
    PathBuf::from(String::from_utf8(out.stdout).unwrap().trim())
}
