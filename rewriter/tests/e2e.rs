//! End to end on every example: rewrite → compile → run the testbench. The instrumented build
//! must print exactly what the original prints, and its event log must hold exactly the events
//! the testbench predicts (`hlsinstr-expect` lines, computed by the testbench independently):
//! calls, loop executions and trips, and with `maxi` the bytes each module read and wrote per
//! m_axi port.
//!
//! Needs g++, clang++ and the Xilinx C-simulation headers (fetched by scripts/fetch-hls-headers.sh,
//! or `$XILINX_HLS/include`). A missing tool fails the test: it never skips.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;
use common::{hls_include, repo};

/// The parts of a Vitis `hls_config.cfg` this test needs.
struct Project {
    dir: PathBuf,
    top: String,
    syn: Vec<String>,
    tb: Vec<String>,
}

fn project(dir: &Path) -> Project {
    let text = std::fs::read_to_string(dir.join("hls_config.cfg")).unwrap();
    let mut p = Project { dir: dir.to_path_buf(), top: String::new(), syn: vec![], tb: vec![] };
    for line in text.lines() {
        let Some((k, v)) = line.split_once('=') else { continue };
        let v = v.trim().to_string();
        match k.trim() {
            "syn.top" => p.top = v,
            "syn.file" => p.syn.push(v),
            "tb.file" => p.tb.push(v),
            _ => {}
        }
    }
    assert!(!p.top.is_empty() && !p.syn.is_empty() && !p.tb.is_empty(), "{}: incomplete hls_config.cfg", dir.display());
    p
}

fn sh(cmd: &mut Command) -> Output {
    let out =
        cmd.output().unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}; install it (apt-get install g++ clang)"));
    out
}

fn compile(cxx: &str, src_dir: &Path, files: &[String], exe: &Path, hls: &Path) -> Output {
    let mut cmd = Command::new(cxx);
    // As Vitis C simulation does: HLS pragmas and loop labels mean nothing to a host compiler.
    cmd.args([
        "-std=c++14",
        "-O1",
        "-Wall",
        "-Wextra",
        "-Wno-unknown-pragmas",
        "-Wno-unused-label",
        "-pthread",
        "-isystem",
    ])
    .arg(hls)
    .arg("-I")
    .arg(repo().join("hls-lib/include"))
    .arg("-I")
    .arg(src_dir)
    .arg("-o")
    .arg(exe);
    for f in files {
        cmd.arg(src_dir.join(f));
    }
    let out = sh(&mut cmd);
    assert!(out.status.success(), "{cxx} failed in {}:\n{}", src_dir.display(), String::from_utf8_lossy(&out.stderr));
    out
}

fn warnings(o: &Output) -> usize {
    String::from_utf8_lossy(&o.stderr).matches("warning:").count()
}

#[derive(Debug, Clone)]
struct Event {
    probe: u32,
    /// `B`, `E`, or for m_axi ports `R` / `W`.
    event: char,
    begin: bool,
    thread: u32,
    seq: Option<u64>,
    ts: Option<u64>,
    value: Option<u64>,
}

fn parse_log(text: &str) -> Vec<Event> {
    assert!(text.starts_with("# hlsinstr events v1"), "unexpected log header: {:?}", text.lines().next());
    let opt = |s: &str| if s == "-" { None } else { Some(s.parse::<u64>().unwrap()) };
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(f.len(), 7, "bad event line {l:?}");
            assert!(matches!(f[2], "B" | "E" | "R" | "W"), "bad event letter in {l:?}");
            Event {
                probe: f[1].parse().unwrap(),
                event: f[2].chars().next().unwrap(),
                begin: f[2] == "B",
                thread: f[3].parse().unwrap(),
                seq: opt(f[4]),
                ts: opt(f[5]),
                value: opt(f[6]),
            }
        })
        .collect()
}

/// Every end closes the innermost open probe of its thread; nothing stays open.
fn assert_balanced(events: &[Event]) {
    let mut stacks: HashMap<u32, Vec<u32>> = HashMap::new();
    for (i, e) in events.iter().enumerate() {
        let stack = stacks.entry(e.thread).or_default();
        if matches!(e.event, 'R' | 'W') {
            continue; // checked by assert_traffic_before_ends
        }
        if e.begin {
            stack.push(e.probe);
        } else {
            assert_eq!(stack.pop(), Some(e.probe), "event {i}: end of probe {} out of order", e.probe);
        }
    }
    for (t, s) in stacks {
        assert!(s.is_empty(), "thread {t} left probes open: {s:?}");
    }
}

/// R/W records: a byte count, no seq or timestamp, for a port probe, in the run of records just
/// before the end record of the port's module on the same thread; at most one R and one W per
/// port and invocation.
fn assert_traffic_before_ends(events: &[Event], manifest: &serde_json::Value) {
    let parents: HashMap<u32, u32> = manifest["probes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["kind"] == "port")
        .map(|p| (p["id"].as_u64().unwrap() as u32, p["parent"].as_u64().unwrap() as u32))
        .collect();
    let mut pending: HashMap<u32, Vec<(u32, char)>> = HashMap::new();
    for (i, e) in events.iter().enumerate() {
        let run = pending.entry(e.thread).or_default();
        match e.event {
            'R' | 'W' => {
                assert!(
                    parents.contains_key(&e.probe),
                    "event {i}: {} record of probe {}, not a port",
                    e.event,
                    e.probe
                );
                assert!(e.value.is_some_and(|v| v > 0), "event {i}: R/W records carry a non-zero byte count");
                assert!(e.seq.is_none() && e.ts.is_none(), "event {i}: R/W records carry no seq or timestamp");
                assert!(!run.contains(&(e.probe, e.event)), "event {i}: two {} records for one invocation", e.event);
                run.push((e.probe, e.event));
            }
            _ => {
                for (port, _) in run.drain(..) {
                    assert!(
                        !e.begin && parents[&port] == e.probe,
                        "event {i}: the traffic of port {port} is not followed by the end of its module {}",
                        parents[&port]
                    );
                }
            }
        }
    }
}

struct Run {
    stdout: String,
    events: Vec<Event>,
    manifest: serde_json::Value,
}

fn run_instrumented(p: &Project, probes: &str, hls: &Path, work: &Path, base_warnings: usize) -> Run {
    let instr = work.join(format!("instr-{}", probes.replace(',', "-")));
    let out = sh(Command::new(env!("CARGO_BIN_EXE_hlsinstr"))
        .args(["rewrite", "--probes", probes, "--top", &p.top, "--out"])
        .arg(&instr)
        .arg(&p.dir));
    assert_eq!(out.status.code(), Some(0), "rewrite failed: {}", String::from_utf8_lossy(&out.stderr));
    let files: Vec<String> = p.syn.iter().chain(&p.tb).cloned().collect();
    let exe = instr.join("tb");
    let c = compile("g++", &instr, &files, &exe, hls);
    assert!(warnings(&c) <= base_warnings, "instrumentation added warnings:\n{}", String::from_utf8_lossy(&c.stderr));
    compile("clang++", &instr, &files, &instr.join("tb-clang"), hls);
    let log = instr.join("events.log");
    let run =
        sh(Command::new(&exe).current_dir(&p.dir).env("HLSINSTR_EVENTS", &log).env("HLSINSTR_EVENTS_FORMAT", "text"));
    assert!(run.status.success(), "instrumented testbench failed:\n{}", String::from_utf8_lossy(&run.stdout));
    let text = std::fs::read_to_string(&log).expect("the instrumented run writes its event log");
    let manifest =
        serde_json::from_str(&std::fs::read_to_string(instr.join("hlsinstr-manifest.json")).unwrap()).unwrap();
    Run { stdout: String::from_utf8(run.stdout).unwrap(), events: parse_log(&text), manifest }
}

/// Compare `hlsinstr-expect` lines with what the event log says. Returns how many were checked;
/// byte counts (`read`, `written`) only when the run has `maxi` probes.
fn check_expectations(name: &str, stdout: &str, run: &Run) -> usize {
    let probes = run.manifest["probes"].as_array().unwrap();
    let maxi = run.manifest["kinds"].as_array().unwrap().iter().any(|k| k == "maxi");
    let find = |kind: &str, function: &str, loop_name: Option<&str>| -> Vec<u32> {
        probes
            .iter()
            .filter(|p| {
                let f = p["function"].as_str().unwrap();
                p["kind"] == kind
                    && (f == function || f.rsplit("::").next() == Some(function))
                    && loop_name.is_none_or(|l| p["name"] == l)
            })
            .map(|p| p["id"].as_u64().unwrap() as u32)
            .collect()
    };
    let mut checked = 0;
    for line in stdout.lines().filter(|l| l.starts_with("hlsinstr-expect ")) {
        let w: Vec<&str> = line.split_whitespace().collect();
        let (what, function) = (w[1], w[2]);
        let expected: u64 = w.last().unwrap().parse().unwrap();
        let (ids, actual) = match what {
            "calls" => {
                let ids = find("function", function, None);
                let n = run.events.iter().filter(|e| e.begin && ids.contains(&e.probe)).count() as u64;
                (ids, n)
            }
            "execs" => {
                let ids = find("loop", function, Some(w[3]));
                let n = run.events.iter().filter(|e| e.begin && ids.contains(&e.probe)).count() as u64;
                (ids, n)
            }
            "trips" => {
                let ids = find("loop", function, Some(w[3]));
                let n =
                    run.events.iter().filter(|e| !e.begin && ids.contains(&e.probe)).map(|e| e.value.unwrap()).sum();
                (ids, n)
            }
            "read" | "written" if !maxi => continue,
            "read" | "written" => {
                // `hlsinstr-expect read <function> <port> <bytes>`: the bytes summed over calls.
                let ids = find("port", function, Some(w[3]));
                let letter = if what == "read" { 'R' } else { 'W' };
                let n = run
                    .events
                    .iter()
                    .filter(|e| e.event == letter && ids.contains(&e.probe))
                    .map(|e| e.value.unwrap())
                    .sum();
                (ids, n)
            }
            other => panic!("{name}: unknown expectation {other}"),
        };
        assert!(!ids.is_empty(), "{name}: `{line}` names no probe in the manifest");
        assert_eq!(actual, expected, "{name}: `{line}`: the event log says {actual}");
        checked += 1;
    }
    checked
}

fn example(name: &str) {
    let hls = hls_include();
    let p = project(&repo().join("examples").join(name));
    let work = tempfile::tempdir().unwrap();
    let files: Vec<String> = p.syn.iter().chain(&p.tb).cloned().collect();
    let exe = work.path().join("tb-orig");
    let c = compile("g++", &p.dir, &files, &exe, &hls);
    assert_eq!(warnings(&c), 0, "{name}: the example itself has warnings:\n{}", String::from_utf8_lossy(&c.stderr));
    let orig = sh(Command::new(&exe).current_dir(&p.dir));
    assert!(orig.status.success(), "{name}: original testbench fails:\n{}", String::from_utf8_lossy(&orig.stdout));
    let orig_out = String::from_utf8(orig.stdout).unwrap();

    let run = run_instrumented(&p, "modules,loops", &hls, work.path(), warnings(&c));
    assert_eq!(run.stdout, orig_out, "{name}: instrumented testbench prints something else");
    assert_balanced(&run.events);
    let checked = check_expectations(name, &orig_out, &run);
    assert!(checked > 0, "{name}: the testbench printed no hlsinstr-expect lines");
    assert!(run.events.iter().all(|e| e.seq.is_none() && e.ts.is_none()), "plain probes carry no seq/timestamp");

    assert!(run.events.iter().all(|e| matches!(e.event, 'B' | 'E')), "no R/W records without maxi");

    // Everything at once: the same output, the same events, and the bytes moved per m_axi port.
    let full = run_instrumented(&p, "modules,loops,timestamps,seq,maxi", &hls, work.path(), warnings(&c));
    assert_eq!(full.stdout, orig_out);
    assert_balanced(&full.events);
    assert_traffic_before_ends(&full.events, &full.manifest);
    let bytes = orig_out
        .lines()
        .filter(|l| l.starts_with("hlsinstr-expect read ") || l.starts_with("hlsinstr-expect written "));
    let bytes = bytes.count();
    assert!(bytes > 0, "{name}: the testbench predicts no m_axi bytes");
    assert_eq!(check_expectations(name, &orig_out, &full), checked + bytes);
    let timed: Vec<&Event> = full.events.iter().filter(|e| matches!(e.event, 'B' | 'E')).collect();
    let seqs: Vec<u64> = timed.iter().map(|e| e.seq.expect("every event has a sequence number")).collect();
    assert_eq!(seqs, (0..seqs.len() as u64).collect::<Vec<_>>(), "sequence numbers are dense and in log order");
    let mut last: HashMap<u32, u64> = HashMap::new();
    for e in timed {
        let ts = e.ts.expect("every event has a timestamp");
        let prev = last.insert(e.thread, ts).unwrap_or(0);
        assert!(ts >= prev, "timestamps go back in time on thread {}", e.thread);
    }
}

#[test]
fn quicksort() {
    example("quicksort");
}

#[test]
fn binary_search() {
    example("binary_search");
}

#[test]
fn matmul() {
    example("matmul");
}

#[test]
fn dataflow_pipeline() {
    example("dataflow_pipeline");
}

#[test]
fn control_flow() {
    example("control_flow");
}
