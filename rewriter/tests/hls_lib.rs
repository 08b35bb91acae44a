//! hls-lib: the self-checking C++ programs in hls-lib/tests, compiled warning-free (-Werror)
//! with g++ and clang++ for C++11, 14 and 17, then run. A missing compiler fails the test.

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

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
fn run(exe: &Path, set_path: bool) -> (String, String) {
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = Command::new(exe);
    cmd.current_dir(dir.path()).env_remove("HLSINSTR_EVENTS");
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
fn translation_units_share_one_log() {
    self_checking(&["multi_tu_a.cpp", "multi_tu_b.cpp"]);
}

#[test]
fn maxi_counts_bytes_per_port_and_invocation() {
    self_checking(&["maxi.cpp"]);
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
