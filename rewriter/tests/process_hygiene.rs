//! `sim` and the processes it starts: the testbench runs in a process group of its own, and a
//! time-out, Ctrl-C (SIGINT) or its own exit ends every process it started; `sim` never waits
//! on a pipe an orphan holds, and the temporary work directory is gone afterwards.
//!
//! Regression tests for "`sim --timeout 5` on a testbench that calls `system("sleep 1000")` (or
//! forks a child) never returns". Linux only: they look processes up in /proc. Need g++ and the
//! C-simulation headers, as tests/sim.rs.
#![cfg(target_os = "linux")]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::hls_include;

/// A kernel and a testbench that forks a sleeper (which inherits the event-log pipe), writes
/// its own pid and the sleeper's to `pids`, and then runs `tail` (C statements).
fn project(dir: &Path, tail: &str) -> (PathBuf, PathBuf) {
    let k = dir.join("k.cpp");
    std::fs::write(&k, "int k_top(int x) {\n  return x + 1;\n}\n").unwrap();
    let tb = dir.join("tb.cpp");
    let pids = dir.join("pids");
    std::fs::write(
        &tb,
        format!(
            r#"#include <cstdio>
#include <cstdlib>
#include <unistd.h>
int k_top(int);
int main() {{
  int r = k_top(1) - 2;
  pid_t sleeper = fork();
  if (sleeper == 0) {{ execlp("sleep", "sleep", "1000", (char *)0); _exit(1); }}
  FILE *f = fopen("{}.tmp", "w");
  fprintf(f, "%d %d\n", (int)getpid(), (int)sleeper);
  fclose(f);
  rename("{}.tmp", "{}");
  {tail}
  return r;
}}
"#,
            pids.display(),
            pids.display(),
            pids.display()
        ),
    )
    .unwrap();
    (k, tb)
}

fn sim_command(dir: &Path, tmp: &Path, k: &Path, tb: &Path, extra: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_hlsinstr"));
    cmd.arg("sim")
        .arg("--quiet")
        .arg("--hls-include")
        .arg(hls_include())
        .args(["--top", "k_top", "--src"])
        .arg(k)
        .arg("--tb")
        .arg(tb)
        .args(extra)
        .env("TMPDIR", tmp)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    cmd
}

/// `(testbench pid = its process group, the forked sleeper)`, once the testbench wrote them.
fn read_pids(dir: &Path, limit: Duration) -> Option<(u32, u32)> {
    let started = Instant::now();
    loop {
        if let Ok(s) = std::fs::read_to_string(dir.join("pids")) {
            let v: Vec<u32> = s.split_whitespace().filter_map(|x| x.parse().ok()).collect();
            if let [a, b] = v[..] {
                return Some((a, b));
            }
        }
        if started.elapsed() >= limit {
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Live (not zombie) processes of process group `pgid`, from /proc.
fn group_members(pgid: u32) -> Vec<u32> {
    let mut out = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<u32>() else { continue };
        let Ok(stat) = std::fs::read_to_string(e.path().join("stat")) else { continue };
        // pid (comm) state ppid pgrp ...: comm may hold spaces, so split after its `)`.
        let fields: Vec<&str> = stat.rsplit(')').next().unwrap_or("").split_whitespace().collect();
        if fields.len() > 2 && fields[0] != "Z" && fields[2] == pgid.to_string() {
            out.push(pid);
        }
    }
    out
}

fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|s| s.rsplit(')').next().map(|r| !r.trim_start().starts_with('Z')))
        .unwrap_or(false)
}

/// No process of the testbench's group is left (a killed one may take a moment to go).
fn assert_all_gone(pgid: u32, sleeper: u32) {
    let started = Instant::now();
    while (alive(sleeper) || !group_members(pgid).is_empty()) && started.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(!alive(sleeper), "the forked sleeper {sleeper} is still running");
    assert_eq!(group_members(pgid), Vec::<u32>::new(), "processes of the testbench's group are left");
}

fn assert_empty(tmp: &Path) {
    let left: Vec<_> = std::fs::read_dir(tmp).unwrap().flatten().map(|e| e.path()).collect();
    assert!(left.is_empty(), "the work directory is left behind: {left:?}");
}

fn wait_with_limit(mut child: std::process::Child, limit: Duration) -> (i32, String, Duration) {
    let started = Instant::now();
    loop {
        if let Some(s) = child.try_wait().unwrap() {
            let mut err = String::new();
            std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut err).unwrap();
            return (s.code().unwrap_or(-1), err, started.elapsed());
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            panic!("hlsinstr sim did not return within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_timeout_ends_a_testbench_that_forks_and_calls_system() {
    let dir = tempfile::tempdir().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let (k, tb) = project(dir.path(), "system(\"sleep 1000\");");
    let child = sim_command(dir.path(), tmp.path(), &k, &tb, &["--timeout", "3"]).spawn().unwrap();
    // Compiling takes most of the limit; before the fix it never returned at all.
    let (code, err, took) = wait_with_limit(child, Duration::from_secs(240));
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("longer than 3 s and was stopped with every process it started"), "{err}");
    let (pgid, sleeper) = read_pids(dir.path(), Duration::ZERO).expect("the testbench ran");
    assert_all_gone(pgid, sleeper);
    assert_empty(tmp.path());
    eprintln!("sim --timeout 3 returned after {took:?} (compiling included)");
}

#[test]
fn ctrl_c_ends_the_testbench_group_and_removes_the_work_directory() {
    let dir = tempfile::tempdir().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let (k, tb) = project(dir.path(), "system(\"sleep 1000\");");
    let child = sim_command(dir.path(), tmp.path(), &k, &tb, &["--timeout", "600"]).spawn().unwrap();
    let (pgid, sleeper) = read_pids(dir.path(), Duration::from_secs(240)).expect("the testbench started");
    let sent = Instant::now();
    let kill = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(kill.success());
    let (code, err, _) = wait_with_limit(child, Duration::from_secs(30));
    assert_eq!(code, 130, "{err}");
    assert!(err.contains("interrupted; the testbench and every process it started were stopped"), "{err}");
    assert!(err.contains("the work directory is removed"), "{err}");
    assert!(sent.elapsed() < Duration::from_secs(10), "took {:?} after SIGINT", sent.elapsed());
    assert_all_gone(pgid, sleeper);
    assert_empty(tmp.path());
}

#[test]
fn a_testbench_that_exits_leaving_a_child_is_reported_and_its_child_stopped() {
    let dir = tempfile::tempdir().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    // r = 0: the run passes; the sleeper holds the event-log pipe open.
    let (k, tb) = project(dir.path(), "");
    let child = sim_command(dir.path(), tmp.path(), &k, &tb, &["--timeout", "600"]).spawn().unwrap();
    let (code, err, _) = wait_with_limit(child, Duration::from_secs(240));
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("the testbench left processes running after it exited"), "{err}");
    let (pgid, sleeper) = read_pids(dir.path(), Duration::ZERO).unwrap();
    assert_all_gone(pgid, sleeper);
    assert_empty(tmp.path());
}
