//! hls-lib: the self-checking C++ programs in hls-lib/tests, compiled warning-free (-Werror)
//! with g++ and clang++ for C++11, 14 and 17, then run. A missing compiler fails the test.
//! The stream-model programs run under a time limit, so a watchdog bug fails rather than hangs.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

mod common;
use common::{hls_include, repo};

const COMPILERS: [&str; 2] = ["g++", "clang++"];
const STANDARDS: [&str; 3] = ["c++11", "c++14", "c++17"];

fn build(cxx: &str, std: &str, sources: &[&str], extra: &[&str], exe: &Path) {
    let tests = repo().join("hls-lib/tests");
    let mut cmd = Command::new(cxx);
    cmd.arg(format!("-std={std}"))
        .args(["-Wall", "-Wextra", "-Wpedantic", "-Wshadow", "-Werror", "-pthread", "-I"])
        .arg(repo().join("hls-lib/include"))
        .args(extra)
        .arg("-o")
        .arg(exe)
        .args(sources.iter().map(|s| tests.join(s)));
    let out = cmd.output().unwrap_or_else(|e| panic!("cannot run {cxx}: {e}; install it (apt-get install g++ clang)"));
    assert!(out.status.success(), "{cxx} -std={std} {sources:?} failed:\n{}", String::from_utf8_lossy(&out.stderr));
}

/// Runs `exe` in a fresh directory with the log path set (or not); returns (stdout, log text).
/// The log is asked for as text (the default is binary), which the self-checking programs read.
fn run(exe: &Path, set_path: bool) -> (String, String) {
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = Command::new(exe);
    cmd.current_dir(dir.path()).env_remove("HLSINSTR_EVENTS").env("HLSINSTR_EVENTS_FORMAT", "text");
    let log = if set_path { dir.path().join("custom.log") } else { dir.path().join("hlsinstr-events.log") };
    if set_path {
        cmd.env("HLSINSTR_EVENTS", &log);
    }
    let out = cmd.output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{} failed:\n{stdout}{}", exe.display(), String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&log).unwrap_or_else(|e| panic!("no event log at {}: {e}", log.display()));
    assert!(!dir.path().join("custom.log.tmp").exists() && !dir.path().join("hlsinstr-events.log.tmp").exists());
    (stdout, text)
}

fn self_checking(sources: &[&str]) {
    let work = tempfile::tempdir().unwrap();
    for cxx in COMPILERS {
        for std in STANDARDS {
            let exe = work.path().join(format!("t-{cxx}-{std}"));
            build(cxx, std, sources, &[], &exe);
            let (stdout, _) = run(&exe, true);
            assert!(stdout.starts_with("ok"), "{cxx} {std}: {stdout}");
        }
    }
}

#[test]
fn probe_semantics_on_every_exit_path() {
    self_checking(&["semantics.cpp"]);
}

#[test]
fn threads_share_one_ordered_stream() {
    self_checking(&["threads.cpp"]);
}

#[test]
fn orders_follow_happens_before_when_a_second_thread_starts_recording() {
    self_checking(&["order_handoff.cpp"]);
}

#[test]
fn translation_units_share_one_log() {
    self_checking(&["multi_tu_a.cpp", "multi_tu_b.cpp"]);
}

#[test]
fn maxi_counts_bytes_per_port_and_invocation() {
    self_checking(&["maxi.cpp"]);
}

/// C files include probe.h too (probe_c.h): compiled as C11 and C17 by gcc and clang without a
/// C++ header, linked with the C++ runtime (c_runtime.h) built for each C++ standard.
#[test]
fn c_probes_compile_as_c_and_link_with_the_cpp_runtime() {
    let work = tempfile::tempdir().unwrap();
    let include = repo().join("hls-lib/include");
    let runtime = work.path().join("runtime.cpp");
    std::fs::write(&runtime, "#include \"hlsinstr/c_runtime.h\"\n").unwrap();
    let ok = |cmd: &mut Command| {
        let out = cmd.output().unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}; install gcc and g++"));
        assert!(out.status.success(), "{cmd:?} failed:\n{}", String::from_utf8_lossy(&out.stderr));
    };
    // gcc, and clang through its C++ driver told the input is C (no plain `clang` is needed).
    let c_compilers: [(&str, &[&str]); 2] = [("gcc", &[]), ("clang++", &["-x", "c"])];
    for ((cc, cc_args), c_std) in c_compilers.iter().flat_map(|c| ["c11", "c17"].map(|s| (*c, s))) {
        let c_obj = work.path().join(format!("c-{cc}-{c_std}.o"));
        ok(Command::new(cc)
            .args(cc_args)
            .arg(format!("-std={c_std}"))
            .args(["-Wall", "-Wextra", "-Wpedantic", "-Wshadow", "-Werror", "-Wno-unused-label", "-c", "-I"])
            .arg(&include)
            .arg(repo().join("hls-lib/tests/c_probes.c"))
            .arg("-o")
            .arg(&c_obj));
        for std in STANDARDS {
            let rt_obj = work.path().join(format!("rt-{std}.o"));
            ok(Command::new("g++")
                .arg(format!("-std={std}"))
                .args(["-Wall", "-Wextra", "-Wpedantic", "-Werror", "-c", "-I"])
                .arg(&include)
                .arg(&runtime)
                .arg("-o")
                .arg(&rt_obj));
            let exe = work.path().join(format!("c-{cc}-{c_std}-{std}"));
            ok(Command::new("g++").arg(&c_obj).arg(&rt_obj).arg("-pthread").arg("-o").arg(&exe));
            let (stdout, _) = run(&exe, true);
            assert!(stdout.starts_with("ok"), "{cc} {c_std} with a {std} runtime: {stdout}");
        }
    }
}

/// Vitis' csim builds -O0: g++ still compiles the probes' runtime optimised (a helper on every
/// record's path is then a few instructions, not a chain of unoptimised calls: ~3x less probe
/// time on a 12 M-record run), whether the log comes first through probe.h or through the
/// stream model. The program's own functions stay unoptimised.
#[test]
fn the_runtime_is_optimised_in_an_unoptimised_gpp_build() {
    let work = tempfile::tempdir().unwrap();
    let body = |path: &Path, symbol: &str| -> Vec<String> {
        let out = Command::new("objdump")
            .args(["-d", "-C", "--no-show-raw-insn"])
            .arg(path)
            .output()
            .unwrap_or_else(|e| panic!("cannot run objdump: {e}; install binutils"));
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let head = format!("<{symbol}>:");
        let lines: Vec<String> = text
            .lines()
            .skip_while(|l| !l.ends_with(&head))
            .skip(1)
            .take_while(|l| !l.is_empty())
            .map(String::from)
            .collect();
        assert!(!lines.is_empty(), "no {symbol} in {}", path.display());
        lines
    };
    let sim = repo().join("hls-lib/include/hlsinstr/sim");
    for (first, name) in [
        ("#include \"hlsinstr/probe.h\"\n", "probe"),
        ("#include \"hls_stream.h\"\n#include \"hlsinstr/probe.h\"\n", "stream"),
    ] {
        let src = work.path().join(format!("{name}.cpp"));
        let program = "static int work(const int *a, int n) { HLSINSTR_FUNC_BEGIN(0, P, 0); HLSINSTR_MAXI_PORTS(2, 1); int s = 0;\n  \
                       HLSINSTR_LOOP_BEGIN(1, P, 0); for (int i = 0; i < n; i++) { HLSINSTR_LOOP_ITER(1); s += HLSINSTR_MAXI_R(2, a, a[i]); } HLSINSTR_LOOP_END(1, P, 0);\n  \
                       return HLSINSTR_RETURN(0, P, s); }\nint main() { int a[3] = {0, 1, 2}; return work(a, 3) == 3 ? 0 : 1; }\n";
        std::fs::write(&src, format!("{first}{program}")).unwrap();
        let exe = work.path().join(name);
        let out = Command::new("g++")
            .args(["-std=c++14", "-O0", "-g", "-pthread", "-I"])
            .arg(&sim)
            .arg("-I")
            .arg(repo().join("hls-lib/include"))
            .arg("-I")
            .arg(hls_include())
            .arg(&src)
            .arg("-o")
            .arg(&exe)
            .output()
            .unwrap();
        assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stderr));
        // A probe is one call of an optimised entry whose helpers (the thread's log, its stack,
        // the order, the encoder) are inlined into it; rare paths (a shared order, timestamps, a
        // full buffer) and std::atomic's load stay calls.
        let call = if cfg!(target_arch = "aarch64") { "\tbl\t" } else { "call" };
        let helpers = [
            "ThreadLog::next_order",
            "next_owned_order",
            "ThreadLog::current",
            "ThreadLog::slot",
            "ThreadLog::stack",
            "ProbeStack::",
            "Encoding::",
            "log_gone",
            "Log::instance",
        ];
        let end = body(&exe, "void hlsinstr::sim::loop_end<0u>(unsigned int)");
        let helper_calls: Vec<&String> =
            end.iter().filter(|l| l.contains(call) && helpers.iter().any(|h| l.contains(h))).collect();
        assert!(helper_calls.is_empty(), "{name}: an unoptimised runtime:\n{}", end.join("\n"));
        // The program's own function is left as built: it calls the probes' entries, but not
        // a function per loop trip.
        let own = body(&exe, "work(int const*, int)");
        assert!(
            own.iter().any(|l| l.contains(call) && l.contains("loop_begin")),
            "{name}: the program's code was optimised:\n{}",
            own.join("\n")
        );
        // Nor a function per loop trip or per m_axi access.
        let per_trip = ["loop_iter", "top_loop", "maxi_add"];
        assert!(!own.iter().any(|l| per_trip.iter().any(|f| l.contains(f))), "{name}:\n{}", own.join("\n"));
        // A trip is an add to a local of the function (its frame's count), not to a thread-local:
        // at -O0 the thread-local's address took four more instructions a trip.
        if cfg!(target_arch = "x86_64") {
            assert!(!own.iter().any(|l| l.contains("%fs:")), "{name}: a thread-local access:\n{}", own.join("\n"));
        }
        let (_, log) = run(&exe, true);
        // Begin, begin, end, the port's 12 bytes read, end.
        assert!(log.lines().filter(|l| !l.starts_with('#')).count() == 5, "{name}: {log}");
        assert!(log.contains(" 2 R 0 - - 12"), "{name}: {log}");
    }
}

/// The stream model's watchdog (its bookkeeping on every read and write) is compiled optimised
/// in an -O0 g++ build too; at -O0 each of its helpers set up a frame and called the next.
#[test]
fn the_stream_models_watchdog_is_optimised_in_an_unoptimised_gpp_build() {
    if !cfg!(target_arch = "x86_64") {
        return; // the check reads x86 code
    }
    let work = tempfile::tempdir().unwrap();
    let src = work.path().join("stream.cpp");
    std::fs::write(
        &src,
        "#include \"hls_stream.h\"\nint main() { hls::stream<int> s; s.write(3); return s.read() == 3 ? 0 : 1; }\n",
    )
    .unwrap();
    let exe = work.path().join("stream");
    let out = Command::new("g++")
        .args(["-std=c++14", "-O0", "-g", "-pthread"])
        .arg(sim_include())
        .arg("-I")
        .arg(repo().join("hls-lib/include"))
        .arg(&src)
        .arg("-o")
        .arg(&exe)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(Command::new(&exe).status().unwrap().success());
    let dump = Command::new("objdump").args(["-d", "-C", "--no-show-raw-insn"]).arg(&exe).output().unwrap();
    let text = String::from_utf8_lossy(&dump.stdout);
    let head = "<hlsinstr::sim::Watchdog::transferred(hlsinstr::sim::Channel&)>:";
    let body: Vec<&str> =
        text.lines().skip_while(|l| !l.ends_with(head)).skip(1).take_while(|l| !l.is_empty()).collect();
    assert!(!body.is_empty(), "no Watchdog::transferred");
    // An -O0 function keeps its frame pointer: `mov %rsp,%rbp`.
    assert!(!body.iter().any(|l| l.contains("%rsp,%rbp")), "an unoptimised watchdog:\n{}", body.join("\n"));
}

#[test]
fn synthesis_compiles_probes_away() {
    let work = tempfile::tempdir().unwrap();
    for cxx in COMPILERS {
        for std in STANDARDS {
            let exe = work.path().join(format!("s-{cxx}-{std}"));
            build(cxx, std, &["synthesis.cpp"], &["-D__SYNTHESIS__"], &exe);
            let out = Command::new(&exe).current_dir(work.path()).output().unwrap();
            assert!(out.status.success(), "{cxx} {std}: synthesis build computes something else");
        }
    }
    assert!(!work.path().join("hlsinstr-events.log").exists(), "a synthesis build wrote an event log");
}

#[test]
fn log_written_at_exit_to_the_default_path() {
    let work = tempfile::tempdir().unwrap();
    let exe = work.path().join("at-exit");
    build("g++", "c++11", &["at_exit.cpp"], &[], &exe);
    let (_, text) = run(&exe, false);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "# hlsinstr events v1");
    // Unasked, the log is binary, with the same records.
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(&exe)
        .current_dir(dir.path())
        .env_remove("HLSINSTR_EVENTS")
        .env_remove("HLSINSTR_EVENTS_FORMAT")
        .output()
        .unwrap();
    assert!(out.status.success());
    let binary = std::fs::read(dir.path().join("hlsinstr-events.log")).unwrap();
    assert!(binary.starts_with(b"HLSIEV6\n"), "the default log is binary");
    let from_binary = hlsinstr::sim::events::parse_bytes(&binary).unwrap();
    assert_eq!(from_binary.len(), 4);
    assert_eq!(lines[1], "# order probe event thread seq timestamp_ns value");
    let events: Vec<Vec<&str>> = lines[2..].iter().map(|l| l.split(' ').collect()).collect();
    assert_eq!(events.len(), 4, "{text}");
    for (i, e) in events.iter().enumerate() {
        assert_eq!(e.len(), 7, "{text}");
        assert_eq!(e[0], i.to_string());
        assert_eq!(e[1], "7");
        assert_eq!(e[2], if i % 2 == 0 { "B" } else { "E" });
        assert_eq!(e[4], "-", "T probes carry no sequence number");
        assert!(e[5].parse::<u64>().is_ok(), "T probes carry a timestamp: {text}");
        assert_eq!(e[6], "-");
    }
    assert_ne!(events[0][3], events[2][3], "two threads, two thread ids");
    // and with the path set, the file goes there instead
    let (_, custom) = run(&exe, true);
    assert_eq!(custom.lines().count(), 6);
}

/// A binary log file is written as it is made, beside its path, and renamed over it at exit;
/// a flush before exit puts it at its path, and what follows is appended there.
#[test]
fn a_binary_log_file_is_written_as_it_is_made() {
    use hlsinstr::sim::events::{parse_bytes, Event};
    let work = tempfile::tempdir().unwrap();
    for cxx in COMPILERS {
        let exe = work.path().join(format!("stream-{cxx}"));
        build(cxx, "c++11", &["log_file_stream.cpp"], &[], &exe);
        let log = work.path().join(format!("events-{cxx}.log"));
        let out = Command::new(&exe)
            .current_dir(work.path())
            .env("HLSINSTR_EVENTS", &log)
            .env_remove("HLSINSTR_EVENTS_FORMAT")
            .env_remove("HLSINSTR_EVENTS_FD")
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && stdout.starts_with("ok"),
            "{cxx}: {stdout}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let records = parse_bytes(&std::fs::read(&log).unwrap()).unwrap();
        // 100 000 calls of each leaf, in turn: a begin and an end each.
        assert_eq!(records.len(), 400_000, "{cxx}");
        let probes: Vec<(u32, Event)> = records.iter().take(4).map(|r| (r.probe, r.event)).collect();
        assert_eq!(probes, [(1, Event::Begin), (1, Event::End), (2, Event::Begin), (2, Event::End)], "{cxx}");
        assert!(records.iter().enumerate().all(|(i, r)| r.order == i as u64), "{cxx}");
        assert!(!work.path().join(format!("events-{cxx}.log.tmp")).exists(), "{cxx}");
    }
}

#[test]
fn a_log_path_that_is_not_a_regular_file_is_written_in_place_not_replaced() {
    // HLSINSTR_EVENTS=/dev/null (or a FIFO) must stay what it is: the atomic rename that
    // protects regular files would replace it with a file.
    let work = tempfile::tempdir().unwrap();
    let exe = work.path().join("at-exit");
    build("g++", "c++11", &["at_exit.cpp"], &[], &exe);
    let fifo = work.path().join("events.fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo is needed");
    assert!(made.success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    let out = Command::new(&exe).env("HLSINSTR_EVENTS", &fifo).env("HLSINSTR_EVENTS_FORMAT", "text").output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = reader.join().unwrap();
    assert!(text.starts_with("# hlsinstr events v1\n"), "{text}");
    assert_eq!(text.lines().count(), 6);
    use std::os::unix::fs::FileTypeExt;
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo(), "still a FIFO");
    assert!(!work.path().join("events.fifo.tmp").exists());
}

// ---- The C-simulation stream model (hls-lib/include/hlsinstr/sim) and its deadlock watchdog ----

/// `-I hls-lib/include/hlsinstr/sim`, as `hlsinstr sim` puts it first on the include path.
fn sim_include() -> String {
    format!("-I{}", repo().join("hls-lib/include/hlsinstr/sim").display())
}

/// What a run of a stream test program left behind.
struct Outcome {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    log: Option<String>,
    elapsed: Duration,
}

/// Runs `exe scenario` in a fresh directory with `env` (HLSINSTR_WATCHDOG_MS unset otherwise) and
/// kills it after `limit`: a watchdog that misses a deadlock fails the test instead of hanging it.
fn run_limited(exe: &Path, scenario: &str, env: &[(&str, &str)], limit: Duration) -> Outcome {
    let dir = tempfile::tempdir().unwrap();
    let (out_path, err_path, log) =
        (dir.path().join("stdout"), dir.path().join("stderr"), dir.path().join("events.log"));
    let mut cmd = Command::new(exe);
    cmd.arg(scenario)
        .current_dir(dir.path())
        .env_remove("HLSINSTR_WATCHDOG_MS")
        .env("HLSINSTR_EVENTS_FORMAT", "text")
        .env("HLSINSTR_EVENTS", &log)
        .stdout(File::create(&out_path).unwrap())
        .stderr(File::create(&err_path).unwrap());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let start = Instant::now();
    let mut child = cmd.spawn().unwrap();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > limit {
            child.kill().ok();
            child.wait().ok();
            panic!(
                "{} {scenario} still running after {limit:?}: a hang\nstderr:\n{}",
                exe.display(),
                std::fs::read_to_string(&err_path).unwrap_or_default()
            );
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    Outcome {
        code: status.code(),
        elapsed: start.elapsed(),
        stdout: std::fs::read_to_string(&out_path).unwrap(),
        stderr: std::fs::read_to_string(&err_path).unwrap(),
        log: std::fs::read_to_string(&log).ok(),
    }
}

/// Every (compiler, standard) build of one stream test program, with the model's include path.
fn stream_builds(work: &Path, source: &str) -> Vec<(String, PathBuf)> {
    let sim = sim_include();
    let mut exes = vec![];
    for cxx in COMPILERS {
        for std in STANDARDS {
            let exe = work.join(format!("{}-{cxx}-{std}", source.trim_end_matches(".cpp")));
            build(cxx, std, &[source], &[sim.as_str()], &exe);
            exes.push((format!("{cxx} {std}"), exe));
        }
    }
    exes
}

/// One parsed watchdog line: `hlsinstr: deadlock: thread T blocked reading empty stream 'S' in probe P`.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord, Clone)]
struct Blocked {
    thread: String,
    what: String,
    stream: String,
    probe: String,
}

fn blocked_lines(stderr: &str) -> Vec<Blocked> {
    stderr
        .lines()
        .filter_map(|l| l.strip_prefix("hlsinstr: deadlock: thread "))
        .map(|rest| {
            let (thread, rest) = rest.split_once(" blocked ").expect(rest);
            let (what, rest) = rest.split_once(" stream '").expect(rest);
            let (stream, probe) = rest.rsplit_once("' in probe ").expect(rest);
            Blocked { thread: thread.into(), what: what.into(), stream: stream.into(), probe: probe.into() }
        })
        .collect()
}

fn blocked(thread: &str, what: &str, stream: &str, probe: &str) -> Blocked {
    Blocked { thread: thread.into(), what: what.into(), stream: stream.into(), probe: probe.into() }
}

/// The event log's records without its two header lines.
fn records(log: &Option<String>) -> Vec<String> {
    let log = log.as_deref().expect("the watchdog writes the event log before it exits");
    let lines: Vec<&str> = log.lines().collect();
    assert_eq!(lines[..2], ["# hlsinstr events v1", "# order probe event thread seq timestamp_ns value"]);
    lines[2..].iter().map(|l| l.to_string()).collect()
}

const LEFTOVER: &str = "contains leftover data, which may result in RTL simulation hanging.";

#[test]
fn stream_model_api() {
    let work = tempfile::tempdir().unwrap();
    for (build, exe) in stream_builds(work.path(), "stream_api.cpp") {
        let o = run_limited(&exe, "", &[], Duration::from_secs(30));
        assert_eq!(o.code, Some(0), "{build}:\n{}{}", o.stdout, o.stderr);
        let warn = |name: &str| format!("WARNING: Hls::stream '{name}' {LEFTOVER}\n");
        let want =
            [warn("left"), warn("hls::stream<float>.2"), warn("hls::stream<int>.5"), "ok\n".into(), warn("renamed")];
        assert_eq!(o.stdout, want.concat(), "{build}");
        assert_eq!(
            o.stderr,
            "hlsinstr: stream 'burst' holds more than its depth 2: this C simulation runs its processes one after \
             another; in hardware the writer stalls until a concurrent reader (dataflow) makes room, and deadlocks \
             without one\n",
            "{build}: the depth note, once"
        );
        assert!(o.log.is_none(), "{build}: a run that never waits creates no event log");
    }
}

#[test]
fn stream_watchdog_never_reports_a_correct_design() {
    let work = tempfile::tempdir().unwrap();
    for (build, exe) in stream_builds(work.path(), "stream_threads.cpp") {
        for scenario in ["sequential", "pair", "slow", "finished_first", "late_start"] {
            // Sleeps in `slow` (60 ms) and `late_start` (150 ms) stay well under the timeout.
            let o = run_limited(&exe, scenario, &[("HLSINSTR_WATCHDOG_MS", "500")], Duration::from_secs(60));
            assert_eq!(o.code, Some(0), "{build} {scenario}:\n{}{}", o.stdout, o.stderr);
            assert_eq!(o.stdout, format!("ok {scenario}\n"), "{build} {scenario}");
            assert!(!o.stderr.contains("hlsinstr: deadlock:"), "{build} {scenario}: {}", o.stderr);
            if scenario != "sequential" {
                assert!(!o.stderr.contains("more than its depth"), "{build} {scenario}: threads wait: {}", o.stderr);
            }
        }
    }
}

#[test]
fn stream_watchdog_reports_deadlocks() {
    let work = tempfile::tempdir().unwrap();
    let limit = Duration::from_secs(20);
    let immediate = Duration::from_secs(1);
    let every = "hlsinstr: deadlock: every thread is blocked on a stream; exit 86\n";
    for (build, exe) in stream_builds(work.path(), "stream_deadlock.cpp") {
        // One thread reads an empty stream inside probe 3's loop 4: reported at once, with the
        // default timeout (2000 ms) in force.
        let o = run_limited(&exe, "single", &[], limit);
        assert_eq!(o.code, Some(86), "{build} single:\n{}{}", o.stdout, o.stderr);
        let line = "hlsinstr: deadlock: thread 0 blocked reading empty stream 'mid' in probe 4\n";
        assert_eq!(o.stderr, format!("{line}{every}"), "{build} single");
        assert_eq!(o.stdout, "started single", "{build}: stdio flushed before the exit");
        assert_eq!(records(&o.log), ["0 3 B 0 - - -", "1 4 B 0 - - -", "2 4 D 0 - - -"], "{build} single");
        if cfg!(target_os = "linux") {
            assert!(o.elapsed < immediate, "{build} single: took {:?}", o.elapsed);
        }

        // Outside every probe: `-`, and no D record. The timeout is off: only the first rule fires.
        let o = run_limited(&exe, "bare", &[("HLSINSTR_WATCHDOG_MS", "0")], limit);
        assert_eq!(o.code, Some(86), "{build} bare:\n{}", o.stderr);
        assert_eq!(blocked_lines(&o.stderr), [blocked("0", "reading empty", "hls::stream<int>.1", "-")]);
        assert!(records(&o.log).is_empty(), "{build} bare: {:?}", o.log);

        // Two processes wait for each other while the main thread joins them: only the progress
        // timeout can tell, and both are reported with their own probes and D records.
        let o = run_limited(&exe, "cross", &[("HLSINSTR_WATCHDOG_MS", "300")], limit);
        assert_eq!(o.code, Some(86), "{build} cross:\n{}", o.stderr);
        assert!(o.elapsed >= Duration::from_millis(300), "{build} cross: reported after {:?}", o.elapsed);
        assert!(o.stderr.ends_with(
            "hlsinstr: deadlock: no stream transfer and no probe record for 300 ms while threads are blocked \
             (raise HLSINSTR_WATCHDOG_MS if a process computes longer); exit 86\n"
        ));
        let lines = blocked_lines(&o.stderr);
        let mut by_stream = lines.clone();
        by_stream.sort_by(|a, b| a.stream.cmp(&b.stream));
        assert_eq!(by_stream.len(), 2, "{build} cross: {}", o.stderr);
        assert_eq!((by_stream[0].stream.as_str(), by_stream[0].probe.as_str()), ("a_to_b", "11"));
        assert_eq!((by_stream[1].stream.as_str(), by_stream[1].probe.as_str()), ("b_to_a", "10"));
        assert_ne!(lines[0].thread, lines[1].thread);
        assert!(lines[0].thread < lines[1].thread, "sorted by thread");
        let recs = records(&o.log);
        for l in &lines {
            assert!(recs.iter().any(|r| r.ends_with(&format!(" {} B {} - - -", l.probe, l.thread))), "{recs:?}");
            assert!(recs.iter().any(|r| r.ends_with(&format!(" {} D {} - - -", l.probe, l.thread))), "{recs:?}");
        }

        // The same with the main thread waiting on a result instead of joining: every thread is
        // blocked, reported at once although the timeout is off.
        let o = run_limited(&exe, "cross_main", &[("HLSINSTR_WATCHDOG_MS", "0")], limit);
        assert_eq!(o.code, Some(86), "{build} cross_main:\n{}", o.stderr);
        assert!(o.stderr.ends_with(every), "{build} cross_main: {}", o.stderr);
        let mut got: Vec<(String, String)> =
            blocked_lines(&o.stderr).into_iter().map(|b| (b.stream, b.probe)).collect();
        got.sort();
        assert_eq!(got, [("a_to_b".into(), "11".into()), ("b_to_a".into(), "10".into()), ("out".into(), "-".into())]);
        assert_eq!(records(&o.log).iter().filter(|r| r.contains(" D ")).count(), 2);

        // A producer blocked on a full DEPTH=2 stream nobody reads.
        let o = run_limited(&exe, "full", &[("HLSINSTR_WATCHDOG_MS", "300")], limit);
        assert_eq!(o.code, Some(86), "{build} full:\n{}", o.stderr);
        assert_eq!(blocked_lines(&o.stderr), [blocked("0", "writing full", "narrow", "20")]);
        assert_eq!(records(&o.log), ["0 20 B 0 - - -", "1 20 D 0 - - -"], "{build} full");
    }
}

#[test]
fn stream_model_beside_the_vendor_headers() {
    let hls = hls_include();
    let vendor = format!("-DHLSINSTR_VENDOR_STREAM=\"{}\"", hls.join("hls_stream.h").display());
    let isystem = format!("-isystem{}", hls.display());
    let sim = sim_include();
    let work = tempfile::tempdir().unwrap();
    for cxx in COMPILERS {
        // Model first: the vendor header included afterwards changes nothing.
        let exe = work.path().join(format!("vendor-{cxx}"));
        build(cxx, "c++11", &["stream_vendor.cpp"], &[&sim, &isystem, &vendor], &exe);
        let o = run_limited(&exe, "", &[], Duration::from_secs(20));
        assert_eq!((o.code, o.stdout.as_str()), (Some(0), "ok\n"), "{cxx}: {}", o.stderr);
        // Vendor first: refused, saying what to do.
        let out = Command::new(cxx)
            .args(["-std=c++11", "-fsyntax-only", "-DVENDOR_FIRST", &vendor, &sim, &isystem, "-I"])
            .arg(repo().join("hls-lib/include"))
            .arg(repo().join("hls-lib/tests/stream_vendor.cpp"))
            .output()
            .unwrap();
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("a vendor hls_stream.h was included before hlsinstr's stream model"), "{cxx}: {err}");
    }
}

// ---- The log's formats: text, binary file, binary through a pipe (what `hlsinstr sim` uses) ----

/// Runs `exe` once with the log written the given way; returns the log's bytes.
fn log_bytes(exe: &Path, how: &str) -> Vec<u8> {
    use hlsinstr::sim::logpipe;
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("events.log");
    let mut cmd = Command::new(exe);
    cmd.current_dir(dir.path()).env_remove("HLSINSTR_EVENTS").env_remove("HLSINSTR_EVENTS_FD");
    let bytes = match how {
        "pipe" => {
            let (mut child, reader) = logpipe::spawn(&mut cmd, &log).unwrap();
            let bytes = reader.read_all().unwrap();
            assert!(child.wait().unwrap().success());
            assert!(!log.exists(), "the pipe mode writes no file");
            bytes
        }
        format => {
            let out = cmd.env("HLSINSTR_EVENTS", &log).env("HLSINSTR_EVENTS_FORMAT", format).output().unwrap();
            assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
            std::fs::read(&log).unwrap()
        }
    };
    bytes
}

/// What must agree between runs: everything but the timestamps' values (kept: whether there is one).
fn comparable(records: &[hlsinstr::sim::events::Record]) -> Vec<hlsinstr::sim::events::Record> {
    records
        .iter()
        .cloned()
        .map(|mut r| {
            r.timestamp_ns = r.timestamp_ns.map(|_| 0);
            r
        })
        .collect()
}

#[test]
fn text_binary_and_pipe_logs_carry_the_same_records() {
    use hlsinstr::sim::events::{parse_bytes, Event};
    let work = tempfile::tempdir().unwrap();
    let exe = work.path().join("log-formats");
    build("g++", "c++11", &["log_formats.cpp"], &["-O2"], &exe);
    let text = log_bytes(&exe, "text");
    let binary = log_bytes(&exe, "binary");
    let pipe = log_bytes(&exe, "pipe");
    assert!(text.starts_with(b"# hlsinstr events v1\n"));
    assert!(binary.starts_with(b"HLSIEV6\n") && pipe.starts_with(b"HLSIEV6\n"));
    let (t, b, p) = (parse_bytes(&text).unwrap(), parse_bytes(&binary).unwrap(), parse_bytes(&pipe).unwrap());
    // 20000, 10, 5 and 7 calls of `many`: its begin and end, and per call four records.
    let want = [20000usize, 10, 5, 7].iter().map(|c| 2 + 4 * c).sum::<usize>();
    assert_eq!(t.len(), want);
    assert_eq!(comparable(&t), comparable(&b), "text and binary file differ");
    assert_eq!(comparable(&t), comparable(&p), "text and pipe differ");
    // Orders dense from 0, seq dense over the S and TS records, trip counts as the program makes them.
    assert!(p.iter().enumerate().all(|(i, r)| r.order == i as u64));
    let seqs: Vec<u64> = p.iter().filter_map(|r| r.seq).collect();
    assert_eq!(seqs, (0..seqs.len() as u64).collect::<Vec<_>>());
    let trips: Vec<u64> =
        p.iter().filter(|r| r.probe == 1 && r.event == Event::End).map(|r| r.value.unwrap()).collect();
    let want_trips: Vec<u64> = [20000u64, 10, 5, 7].iter().flat_map(|&c| (0..c).map(|k| k % 300)).collect();
    assert_eq!(trips, want_trips);
    assert!(p.iter().filter(|r| r.probe == 300).all(|r| r.timestamp_ns.is_some() && r.seq.is_some()));
    // Timestamps are nanoseconds since the start in every format (the binary logs carry counter
    // ticks and the counter's calibration, which the reader applies): rising, within the run,
    // not raw ticks (~10^15).
    for (name, log) in [("text", &t), ("binary", &b), ("pipe", &p)] {
        for thread in 0..4 {
            let ts: Vec<u64> = log.iter().filter(|r| r.thread == thread).filter_map(|r| r.timestamp_ns).collect();
            assert!(ts.windows(2).all(|w| w[0] <= w[1]), "{name}, thread {thread}: the timestamps go back");
            assert!(ts.last().is_none_or(|&l| l > 0 && l < 60_000_000_000), "{name}: last timestamp {:?}", ts.last());
        }
        assert!(log.iter().filter_map(|r| r.timestamp_ns).any(|t| t > 0), "{name}: no timestamps");
    }
    assert!(binary.len() * 4 < text.len(), "binary {} B, text {} B", binary.len(), text.len());
}

/// A record as one thread saw it: probe, event, value, has a seq, has a timestamp.
type Seen = (u32, hlsinstr::sim::events::Event, Option<u64>, bool, bool);

/// Each thread's records, in order.
fn per_thread(records: &[hlsinstr::sim::events::Record]) -> Vec<Vec<Seen>> {
    let threads = records.iter().map(|r| r.thread).max().map_or(0, |t| t as usize + 1);
    let mut out = vec![Vec::new(); threads];
    for r in records {
        out[r.thread as usize].push((r.probe, r.event, r.value, r.seq.is_some(), r.timestamp_ns.is_some()));
    }
    out
}

#[test]
fn repeated_leaves_are_folded_in_the_binary_log_and_read_back_as_they_ran() {
    use hlsinstr::sim::events::{parse_bytes, Event, Stream};
    let work = tempfile::tempdir().unwrap();
    for cxx in COMPILERS {
        let exe = work.path().join(format!("repeats-{cxx}"));
        build(cxx, "c++11", &["repeats.cpp"], &["-O2"], &exe);
        let text = log_bytes(&exe, "text");
        let folded = log_bytes(&exe, "binary");
        let plain = {
            let dir = tempfile::tempdir().unwrap();
            let log = dir.path().join("events.log");
            let out = Command::new(&exe)
                .current_dir(dir.path())
                .env("HLSINSTR_EVENTS", &log)
                .env("HLSINSTR_EVENTS_FORMAT", "binary")
                .env("HLSINSTR_EVENTS_REPEATS", "0")
                .output()
                .unwrap();
            assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
            std::fs::read(&log).unwrap()
        };
        let (t, f, p) = (parse_bytes(&text).unwrap(), parse_bytes(&folded).unwrap(), parse_bytes(&plain).unwrap());
        // The same records, thread by thread (the two threads interleave differently every run).
        assert_eq!(per_thread(&t), per_thread(&p), "{cxx}: text and unfolded binary differ");
        assert_eq!(per_thread(&t), per_thread(&f), "{cxx}: the folded log reads back other records");
        assert!(f.iter().enumerate().all(|(i, r)| r.order == i as u64), "{cxx}: orders dense from 0");
        assert_eq!(t.len(), f.len());
        // Folded: one record per run of identical leaves, and never a timestamped or numbered one.
        assert!(folded.len() < plain.len(), "{cxx}: folded {} B, unfolded {} B", folded.len(), plain.len());
        let mut s = Stream::new(folded.as_slice()).unwrap();
        let (mut repeats, mut repeated) = (0u64, std::collections::BTreeSet::new());
        loop {
            let batch = s.next_batch().unwrap();
            if batch.is_empty() {
                break;
            }
            for r in batch {
                if let Event::Repeat { count } = r.event {
                    repeats += count;
                    repeated.insert(r.probe);
                }
            }
        }
        // ~54 000 before the second thread starts (after, how many depends on how the threads
        // interleave: a leaf another thread's record comes between is not folded).
        assert!(repeats > 53_000, "{cxx}: {repeats} leaves folded");
        assert_eq!(repeated.into_iter().collect::<Vec<_>>(), [1, 2, 300], "{cxx}: folded probes");
    }
}

#[test]
fn a_cut_or_damaged_binary_log_is_refused_not_misread() {
    use hlsinstr::sim::events::parse_bytes;
    let work = tempfile::tempdir().unwrap();
    let exe = work.path().join("at-exit");
    build("g++", "c++11", &["at_exit.cpp"], &[], &exe);
    let good = log_bytes(&exe, "pipe");
    assert_eq!(parse_bytes(&good).unwrap().len(), 4);
    for cut in 0..good.len() {
        let e = parse_bytes(&good[..cut]).expect_err("a cut log must not parse");
        assert!(e.message.contains("corrupt") || e.message.contains("empty") || e.message.contains("not an"), "{e}");
    }
    for i in 8..good.len() {
        for bit in 0..8 {
            let mut bad = good.clone();
            bad[i] ^= 1 << bit;
            let _ = parse_bytes(&bad); // an error or other records, never a panic
        }
    }
}

// ---- Models of the Vitis headers the open set lacks (issue 17 item 6) ----

/// One build per compiler (g++ C++11, clang++ C++17: the oldest and newest standard sim may see),
/// with the include order `hlsinstr sim` uses for the open kernel headers.
fn model_builds(work: &Path, source: &str) -> Vec<(String, PathBuf)> {
    let hls = hls_include();
    let sim = sim_include();
    let models = format!("-I{}", repo().join("hls-lib/include/hlsinstr/vendor").display());
    let include = repo().join("hls-lib/include");
    let isystem = format!("-isystem{}", hls.display());
    let mut exes = vec![];
    for (cxx, std) in [("g++", "c++11"), ("clang++", "c++17")] {
        let exe = work.join(format!("{}-{cxx}", source.trim_end_matches(".cpp")));
        let lib = format!("-I{}", include.display());
        build(cxx, std, &[source], &[sim.as_str(), lib.as_str(), models.as_str(), isystem.as_str()], &exe);
        exes.push((format!("{cxx} {std}"), exe));
    }
    exes
}

#[test]
fn vendor_header_models_behave_as_documented() {
    let work = tempfile::tempdir().unwrap();
    for (build, exe) in model_builds(work.path(), "vendor_models.cpp") {
        let o = run_limited(&exe, "", &[], Duration::from_secs(20));
        assert_eq!((o.code, o.stdout.as_str()), (Some(0), "ok\n"), "{build}: {}", o.stderr);
    }
}

#[test]
fn tasks_split_merge_and_blocks_run_as_documented_and_stop_at_exit() {
    let work = tempfile::tempdir().unwrap();
    for (build, exe) in model_builds(work.path(), "tasks.cpp") {
        let o = run_limited(&exe, "", &[], Duration::from_secs(20));
        assert_eq!((o.code, o.stdout.as_str()), (Some(0), "ok\n"), "{build}: {}", o.stderr);
        // Tasks waiting for input while the testbench computes are idle, not deadlocked.
        let o = run_limited(&exe, "idle", &[("HLSINSTR_WATCHDOG_MS", "100")], Duration::from_secs(20));
        assert_eq!((o.code, o.stdout.as_str()), (Some(0), "ok\n"), "{build}: {}", o.stderr);
        // The testbench waiting for a result no task will make is.
        let o = run_limited(&exe, "deadlock", &[], Duration::from_secs(20));
        assert_eq!(o.code, Some(86), "{build}: {}", o.stderr);
        let lines = blocked_lines(&o.stderr);
        assert!(lines.iter().any(|b| b.what == "reading empty" && b.stream == "mid"), "{build}: {lines:?}");
        assert_eq!(lines.len(), 3, "the testbench and both tasks: {lines:?}");
    }
}

/// The leaf and leaf-parent probes are inlined into the kernel's own -O0 code (probe.h): there they
/// call nothing of the C++ library (std::atomic's load, inlined, still called two unoptimised
/// helpers of libstdc++ a run: std::operator& of the memory order, std::__is_constant_evaluated).
#[test]
fn leaf_probes_inlined_at_o0_call_nothing_of_the_cpp_library() {
    let work = tempfile::tempdir().unwrap();
    let src = work.path().join("leaves.cpp");
    let program = "#include \"hlsinstr/probe.h\"\n\
                   static int work(const int *a, int n) { HLSINSTR_FUNC_BEGIN(0, P, 0); int s = 0;\n  \
                   HLSINSTR_LEAF_PARENT_BEGIN(1, P, 0); for (int i = 0; i < n; i++) { HLSINSTR_LOOP_ITER(1);\n    \
                   HLSINSTR_LEAF_BEGIN(2, P, 0); for (int k = 0; k < i; k++) { HLSINSTR_LOOP_ITER(2); s += a[k]; } HLSINSTR_LEAF_END(2, P, 0);\n  \
                   } HLSINSTR_LEAF_PARENT_END(1, P, 0);\n  \
                   return HLSINSTR_RETURN(0, P, s); }\nint main() { int a[3] = {0, 1, 2}; return work(a, 3) == 1 ? 0 : 1; }\n";
    std::fs::write(&src, program).unwrap();
    let exe = work.path().join("leaves");
    let out = build_o0(&src, &exe, &[]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let own = disassembly_of_work(&exe);
    assert!(!own.is_empty(), "no work() in the program");
    let call = if cfg!(target_arch = "aarch64") { "\tbl\t" } else { "call" };
    let library: Vec<&String> = own.iter().filter(|l| l.contains(call) && l.contains("std::")).collect();
    assert!(library.is_empty(), "calls of the C++ library where the probes are:\n{}", own.join("\n"));
    let (_, log) = run(&exe, true);
    // The parent's begin, 3 runs of the leaf, the parent's end, around the module's begin and end.
    assert_eq!(log.lines().filter(|l| !l.starts_with('#')).count(), 10, "{log}");
    // Linked static, as `sim` links, the store's fields are reached through its address, not
    // each through the %fs segment (leaf_store in probe.h: those cost the median filter 8 %).
    if cfg!(target_arch = "x86_64") {
        let exe = work.path().join("leaves-static");
        if build_o0(&src, &exe, &["-static"]).status.success() {
            let own = disassembly_of_work(&exe);
            let fields: Vec<&String> = own.iter().filter(|l| l.contains("%fs:") && !l.contains("%fs:0x0,")).collect();
            assert!(fields.is_empty(), "thread-local fields through %fs:\n{}", own.join("\n"));
        }
    }
}

/// `src` built by g++ as `sim` builds a kernel (C++14, -O0 -g, threads) with hls-lib's headers,
/// plus `extra` flags.
fn build_o0(src: &Path, exe: &Path, extra: &[&str]) -> std::process::Output {
    Command::new("g++")
        .args(["-std=c++14", "-O0", "-g", "-pthread"])
        .args(extra)
        .arg("-I")
        .arg(repo().join("hls-lib/include"))
        .arg(src)
        .arg("-o")
        .arg(exe)
        .output()
        .unwrap()
}

/// The disassembled lines of `work(int const*, int)` in `exe` (objdump, demangled).
fn disassembly_of_work(exe: &Path) -> Vec<String> {
    let out = Command::new("objdump").args(["-d", "-C", "--no-show-raw-insn"]).arg(exe).output().unwrap();
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .skip_while(|l| !l.ends_with("<work(int const*, int)>:"))
        .skip(1)
        .take_while(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

#[test]
fn leaf_loop_runs_read_back_as_the_loop_probes_record_them() {
    // Smaller than the loop records at all.
    stored_runs_read_back_as_loop_probes("leaf_runs.cpp", |stored, loops| stored < loops);
}

/// Leaf parents (probe.h, `HLSINSTR_LEAF_PARENT_BEGIN`/`END`) with their leaves, and the same
/// program with ordinary loop probes: the same records at the same orders (hls-lib
/// `tests/leaf_parents.cpp`: varying and zero trips, break, many entries, hidden probed calls,
/// an exception, a flush, a second thread).
#[test]
fn leaf_parent_runs_read_back_as_the_loop_probes_record_them() {
    // A third smaller at least: the parents' begins and ends are stored too.
    stored_runs_read_back_as_loop_probes("leaf_parents.cpp", |stored, loops| stored * 3 < loops * 2);
}

/// hls-lib test `source` built with its stored runs and again with `-DAS_LOOPS` (ordinary loop
/// probes), by each compiler at -O0 (how `sim` and Vitis' csim build: the stored runs are inlined
/// there too) and -O2: the same records on each thread, at the same orders on the main thread
/// before the second thread starts, the binary log smaller as `smaller` says (bytes stored,
/// bytes as loops), and the text log (which never stores runs) the same records.
fn stored_runs_read_back_as_loop_probes(source: &str, smaller: fn(usize, usize) -> bool) {
    use hlsinstr::sim::events::parse_bytes;
    let work = tempfile::tempdir().unwrap();
    for cxx in COMPILERS {
        for opt in ["-O0", "-O2"] {
            let stored = work.path().join(format!("stored-{cxx}{opt}"));
            let loops = work.path().join(format!("loops-{cxx}{opt}"));
            build(cxx, "c++11", &[source], &[opt], &stored);
            build(cxx, "c++11", &[source], &[opt, "-DAS_LOOPS"], &loops);
            let (stored_log, loops_log) = (log_bytes(&stored, "pipe"), log_bytes(&loops, "pipe"));
            assert_eq!(&stored_log[..8], b"HLSIEV6\n", "{source}: the current binary log");
            let (s, p) = (parse_bytes(&stored_log).unwrap(), parse_bytes(&loops_log).unwrap());
            assert_eq!(per_thread(&s), per_thread(&p), "{source} {cxx} {opt}: stored runs read back other records");
            let alone = |rs: &[hlsinstr::sim::events::Record]| rs.iter().take_while(|r| r.thread == 0).count();
            let n = alone(&s).min(alone(&p));
            assert!(n > 100_000, "{source} {cxx} {opt}: {n} records before the second thread");
            assert!(
                s[..n] == p[..n],
                "{source} {cxx} {opt}: the records before the second thread differ in their orders"
            );
            assert!(
                smaller(stored_log.len(), loops_log.len()),
                "{source} {cxx} {opt}: stored {} B, loop records {} B",
                stored_log.len(),
                loops_log.len()
            );
            let text = parse_bytes(&log_bytes(&stored, "text")).unwrap();
            assert_eq!(per_thread(&text), per_thread(&p), "{source} {cxx} {opt}: the text log differs");
        }
    }
}
