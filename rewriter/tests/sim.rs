//! `hlsinstr sim` end to end: rewrite → g++ → run the testbench → cycle model → report.
//!
//! Needs g++ and the Xilinx C-simulation headers (scripts/fetch-hls-headers.sh, or
//! `$XILINX_HLS/include`). A missing tool fails the test: it never skips.

use serde_json::Value;
use std::process::Command;

mod common;
use common::{repo, report_schema, sim_in, validate_against_schema, Run};

fn sim(args: &[&str]) -> Run {
    sim_in(&repo(), args)
}

/// `sim --top k_top` on a kernel and a testbench written to `dir` as k.cpp and tb.cpp, with
/// `extra` arguments; the kernel's path comes back for the messages that name it.
fn sim_k_top(dir: &std::path::Path, kernel: &str, testbench: &str, extra: &[&str]) -> (Run, std::path::PathBuf) {
    let (k, tb) = (dir.join("k.cpp"), dir.join("tb.cpp"));
    std::fs::write(&k, kernel).unwrap();
    std::fs::write(&tb, testbench).unwrap();
    let mut args = vec!["--top", "k_top", "--src", k.to_str().unwrap(), "--tb", tb.to_str().unwrap()];
    args.extend(extra);
    (sim(&args), k)
}

fn sim_json(args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.extend(["--format", "json"]);
    let r = sim(&all);
    assert_eq!(r.code, 0, "hlsinstr sim {args:?} failed:\n{}\n{}", r.stdout, r.stderr);
    serde_json::from_str(&r.stdout).expect("the JSON report parses")
}

fn row<'a>(rep: &'a Value, name: &str) -> &'a Value {
    rep["rows"].as_array().unwrap().iter().find(|r| r["name"] == name).unwrap_or_else(|| panic!("no row {name}"))
}

fn u(v: &Value) -> u64 {
    v.as_u64().unwrap_or_else(|| panic!("not a count: {v}"))
}

fn reason_kinds(r: &Value) -> Vec<(String, String)> {
    r["reasons"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| (x["on"].as_str().unwrap().to_string(), x["kind"].as_str().unwrap().to_string()))
        .collect()
}

#[test]
fn a_pipelined_loop_with_a_report_costs_exactly_n_minus_1_times_ii_plus_il() {
    let rep = sim_json(&["tests/sim/analytic/hls_config.cfg", "--csynth", "tests/sim/analytic/csynth.xml"]);
    let l = row(&rep, "scale_loop");
    // The testbench calls pipe_top with n = 100, 37 and 0; the report says II=2, depth 7.
    assert_eq!(l["timing"]["ii"]["value"], 2, "{l}");
    assert_eq!(l["timing"]["ii"]["source"], "report");
    assert_eq!(l["timing"]["il"]["value"], 7);
    assert_eq!(l["timing"]["il"]["source"], "report");
    assert_eq!(l["timing"]["trips"], "run");
    assert_eq!(u(&l["runs"]), 3);
    assert_eq!(u(&l["trips"]), 137);
    assert_eq!(u(&l["cycles"]), (99 * 2 + 7) + (36 * 2 + 7));
    assert_eq!(u(&l["cycles_max"]), 99 * 2 + 7);
    assert_eq!(u(&l["cycles_min"]), 0, "a loop of 0 trips costs nothing");
    // Schedule first: each call is the report's best case (3, the loop at 0 trips) plus the
    // loop's cycles beyond its best case (0).
    let top = row(&rep, "pipe_top");
    assert_eq!(top["timing"]["report_latency"], serde_json::json!({"min": 3, "max": 2057}));
    assert_eq!(u(&top["cycles"]), u(&l["cycles"]) + 3 * 3);
    let per_call: Vec<u64> = rep["estimate"]["per_call"].as_array().unwrap().iter().map(u).collect();
    assert_eq!(per_call, [3 + 99 * 2 + 7, 3 + 36 * 2 + 7, 3]);
    assert_eq!(u(&top["resources"]["lut"]), 2321, "resources from the report");
    assert_eq!(u(&top["resources"]["dsp"]), 3);
    assert_eq!(rep["csynth"]["version"], "2022.1");
    assert_eq!(u(&rep["total_cycles"]), u(&top["cycles"]));
}

#[test]
fn without_a_report_pragmas_and_defaults_and_data_dependent_trip_counts() {
    let r = sim(&["tests/sim/analytic/hls_config.cfg", "--top", "nest_top", "--no-csynth", "--format", "json"]);
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    let rep: Value = serde_json::from_str(&r.stdout).unwrap();
    let d = &rep["defaults"];
    let (own, depth) = (u(&d["iteration_latency"]), u(&d["pipeline_depth"]));
    // A pipelined loop's tail beyond (TC − 1)·II: depth − 1, plus its `_Pipeline_` module.
    let tail = depth - 1 + u(&d["pipeline_wrapper"]);
    // What the testbench says it ran: n outer iterations, the search stopping at search_trips.
    let tb = std::fs::read_to_string(repo().join("tests/sim/analytic/analytic_tb.cpp")).unwrap();
    assert!(tb.contains("const int n = 40, limit = 100;"), "the test below assumes these sizes");
    let n: u64 = 40;
    let inner = row(&rep, "inner");
    assert_eq!(inner["timing"]["ii"]["source"], "pragma");
    assert_eq!(inner["timing"]["il"]["source"], "default");
    assert_eq!(u(&inner["runs"]), n);
    assert_eq!(u(&inner["trips"]), n * (n - 1) / 2, "inner runs i times in outer iteration i");
    // Inner: (i - 1) * II + tail for each i > 0; i = 0 runs no trip and costs nothing.
    let inner_cycles: u64 = (1..n).map(|i| (i - 1) + tail).sum();
    assert_eq!(u(&inner["cycles"]), inner_cycles);
    let outer = row(&rep, "outer");
    assert_eq!(outer["timing"]["pipelined"]["value"], false);
    assert_eq!(outer["timing"]["iteration_latency"]["source"], "default");
    // Its own iteration: the default, whose exit test's state sends the read of `a[i]` (its
    // address is the counter) and whose second state takes its data: nothing more.
    assert_eq!(u(&outer["timing"]["iteration_latency"]["value"]), own, "{outer}");
    assert_eq!(u(&outer["cycles"]), n * own + inner_cycles, "TC x own + children");
    let search = row(&rep, "search");
    let reference = search_trips();
    assert!(reference < n, "the search must stop early for this test to mean something");
    // The iteration that breaks out runs too. No pragma, innermost: Vitis pipelines it at II=1
    // by default (facts rule 9); `outer` holds a pipeline of its own and stays as it is.
    assert_eq!(u(&search["trips"]), reference + 1);
    assert_eq!(search["timing"]["pipelined"], serde_json::json!({"value": true, "source": "default"}));
    assert_eq!(u(&search["cycles"]), reference + tail);
    // The project is the Vitis kernel flow's: no pragma names the top's ports, so its control and
    // scalars go on s_axilite and `a` on m_axi, an AXI top (facts, rule 11), not ap_ctrl_hs.
    let axi_top = u(&d["axi_top_overhead"]);
    assert_eq!(u(&row(&rep, "nest_top")["cycles"]), axi_top + u(&outer["cycles"]) + u(&search["cycles"]));
}

/// The search loop's trip count, computed here the way the kernel does.
fn search_trips() -> u64 {
    let (n, limit) = (40i64, 100i64);
    let a: Vec<i64> = (0..n).map(|i| i % 5 + (0..i).map(|j| j & 7).sum::<i64>()).collect();
    a.iter().take_while(|&&v| v <= limit).count() as u64
}

#[test]
fn quicksort_qsort_comp_dominates_and_load_store_wait_on_it() {
    let rep = sim_json(&["examples/quicksort/hls_config.cfg"]);
    let scope = row(&rep, "batch_loop");
    let (load, comp, store) = (row(&rep, "load"), row(&rep, "qsort_comp"), row(&rep, "store"));
    let share = |r: &Value| u(&r["cycles"]) as f64 / u(&scope["cycles"]) as f64;
    assert!(share(comp) > 0.90, "qsort_comp takes {:.1}% of the batch loop", 100.0 * share(comp));
    for r in [load, comp, store] {
        assert_eq!(r["pcp"], true, "serial modules are all on the critical path: {r}");
    }
    for (r, other) in [(load, "store"), (store, "load")] {
        let stall = r["stall_pct"].as_f64().unwrap();
        assert!(stall > 90.0, "{} stalls {stall}%", r["name"]);
        let kinds = reason_kinds(r);
        assert_eq!(kinds[0], ("qsort_comp".to_string(), "dep".to_string()), "{kinds:?}");
        assert!(kinds.contains(&(other.to_string(), "dep".to_string())), "{kinds:?}");
        let total: f64 = r["reasons"].as_array().unwrap().iter().map(|x| x["pct"].as_f64().unwrap()).sum();
        assert!((total - stall).abs() < 0.5, "reasons add up to the stall: {total} vs {stall}");
    }
    assert!(comp["stall_pct"].as_f64().unwrap() < 10.0);
    assert_eq!(rep["recommend_in_fpga"], false, "load and store stall far above 20%");
    // The terminal table shows the call sites' source text.
    let text = sim(&["examples/quicksort/hls_config.cfg"]);
    assert_eq!(text.code, 0);
    assert!(text.stdout.contains("qsort_comp(buf);"), "{}", text.stdout);
    assert!(text.stdout.contains("Reason for stall"));
}

#[test]
fn dataflow_the_slowest_stage_is_critical_and_the_others_wait_on_it() {
    let rep = sim_json(&["examples/dataflow_pipeline/hls_config.cfg"]);
    let stages = ["read_stage", "compute_stage", "write_stage"];
    let slowest = stages.iter().max_by_key(|s| u(&row(&rep, s)["cycles"])).unwrap();
    let top = row(&rep, "pipeline_top");
    let overhead = u(&rep["defaults"]["module_overhead"]) * u(&top["runs"]);
    // Streams overlap: each invocation's region lasts as long as its slowest process (DRAM
    // latency makes read and write the slowest when n is small), so the region's total lies
    // between the slowest stage's total and the serial sum.
    let region = u(&top["cycles"]) - overhead;
    let serial: u64 = stages.iter().map(|s| u(&row(&rep, s)["cycles"])).sum();
    assert!(region >= u(&row(&rep, slowest)["cycles"]) && region < serial, "region {region}, serial {serial}");
    for s in stages {
        let r = row(&rep, s);
        assert_eq!(r["pcp"], s == *slowest, "{s}: {r}");
        if s != *slowest {
            assert!(r["stall_pct"].as_f64().unwrap() > 0.0);
            assert_eq!(reason_kinds(r)[0], (slowest.to_string(), "dep".to_string()), "{s}: {r}");
        }
    }
}

#[test]
fn a_dataflow_region_called_in_a_loop_overlaps_its_invocations() {
    let rep = sim_json(&["tests/sim/dfloop/hls_config.cfg"]);
    let blocks = row(&rep, "blocks");
    let region = row(&rep, "block");
    let n = u(&blocks["trips"]);
    assert_eq!(n, 5);
    assert_eq!(u(&region["runs"]), n);
    let per_run = |r: &Value| u(&r["cycles"]) / u(&r["runs"]);
    let latency = per_run(region);
    let interval = per_run(row(&rep, "produce")).max(per_run(row(&rep, "consume")));
    assert!(interval < latency, "the region has an overhead beyond its slowest process");
    let own = u(&rep["defaults"]["iteration_latency"]);
    // One latency, then one slowest-process interval per further invocation.
    assert_eq!(u(&blocks["cycles"]), n * own + latency + (n - 1) * interval);
    assert!(u(&blocks["cycles"]) < n * own + n * latency, "invocations overlap");
}

#[test]
fn a_loop_with_a_dataflow_body_overlaps_its_iterations() {
    let rep = sim_json(&["tests/sim/dfloop/hls_config.cfg", "--top", "dfbody_top"]);
    let rows = rep["rows"].as_array().unwrap();
    let body = row(&rep, "body_loop");
    let n = u(&body["trips"]);
    assert_eq!(n, 6);
    let process = |name: &str| {
        rows.iter().find(|r| r["name"] == name && r["parent"] == body["index"]).unwrap_or_else(|| panic!("{name}"))
    };
    let (produce, consume) = (process("produce"), process("consume"));
    let per_run = |r: &Value| u(&r["cycles"]) / u(&r["runs"]);
    assert_eq!(u(&produce["runs"]), n);
    // Stream-connected: an iteration lasts as long as its slower process, and each further
    // iteration adds that much again.
    let interval = per_run(produce).max(per_run(consume));
    assert_eq!(u(&body["cycles"]), n * interval);
    // The slower one is critical and the other waits on it (the project is the kernel flow's:
    // `in` is an m_axi port, and each `produce` waits for its reads; `consume`, which cannot end
    // before its last token came, then ends with it).
    let (slow, fast, slow_name) = if per_run(produce) >= per_run(consume) {
        (produce, consume, "produce")
    } else {
        (consume, produce, "consume")
    };
    assert_eq!(slow["pcp"], true);
    assert_eq!(fast["pcp"], false);
    if per_run(fast) < per_run(slow) {
        assert_eq!(reason_kinds(fast)[0], (slow_name.to_string(), "dep".to_string()));
    }
}

#[test]
fn a_failing_testbench_gives_no_report() {
    let dir = tempfile::tempdir().unwrap();
    let (r, _) = sim_k_top(
        dir.path(),
        "int k_top(int x) {\n  return x + 1;\n}\n",
        "#include <cstdio>\nint k_top(int);\nint main() { std::printf(\"got %d\\n\", k_top(1)); return 3; }\n",
        &[],
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stdout.is_empty(), "no report: {}", r.stdout);
    assert!(r.stderr.contains("the testbench failed (exit code 3)"), "{}", r.stderr);
    assert!(r.stderr.contains("got 2"), "its output is shown: {}", r.stderr);
}

/// A report the analysis refuses is named in the error, with its line: the error once named the
/// run's event log, which the report was read beside (a public 2025.2 report whose version line
/// holds no release, `* Version: (Build 1)`, with nothing to date it by either).
#[test]
fn a_refused_report_is_named_in_the_error_not_the_event_log() {
    let dir = tempfile::tempdir().unwrap();
    let rpt = dir.path().join("k_top_csynth.rpt");
    std::fs::write(
        &rpt,
        "\n================================================================\n== Vitis HLS Report for 'k_top'\n\
         ================================================================\n* Date:           today\n\n\
         * Version:         (Build 1)\n* Project:        p\n",
    )
    .unwrap();
    let (r, _) = sim_k_top(
        dir.path(),
        "int k_top(int x) {\n  return x + 1;\n}\n",
        "int k_top(int);\nint main() { return k_top(1) == 2 ? 0 : 1; }\n",
        &["--csynth", rpt.to_str().unwrap()],
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    let at = format!("{}:7:1: report version \"(Build\" is not a tool version", rpt.display());
    assert!(r.stderr.contains(&at), "{}", r.stderr);
    assert!(!r.stderr.contains("hlsinstr-events.log"), "{}", r.stderr);
}

#[test]
fn the_rewrites_warnings_are_shown_a_lambdas_loop_among_them() {
    // A dataflow stage written as a lambda: the rewrite leaves lambdas unprobed, so the stage's
    // loop counts as the top's own time. `sim` dropped the rewrite's warnings and said nothing.
    let dir = tempfile::tempdir().unwrap();
    let (r, k) = sim_k_top(
        dir.path(),
        "void k_top(int *a, int n) {\n  auto stage = [&](int m) {\n    for (int i = 0; i < m; i++) a[i] += i;\n  };\n  stage(n);\n#pragma HLSINSTR bogus\n}\n",
        "void k_top(int *, int);\nint main() { int a[4] = {0}; k_top(a, 4); return a[3] == 3 ? 0 : 1; }\n",
        &[],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let lambda = format!("{}:2:16: warning: this lambda holds a loop (at 3:5): lambdas are not probed", k.display());
    assert!(r.stderr.contains(&lambda), "expected {lambda} in:\n{}", r.stderr);
    assert!(r.stderr.contains("warning: unknown `#pragma HLSINSTR bogus` ignored"), "{}", r.stderr);
}

#[test]
fn compile_errors_point_at_the_original_source_line() {
    let dir = tempfile::tempdir().unwrap();
    // The error is on line 4 of the original; the instrumented copy has an include line and a
    // probe above it.
    let (r, k) = sim_k_top(
        dir.path(),
        "// kernel\nint k_top(int x) {\n  int y = x * 2;\n  return y + undeclared_thing;\n}\n",
        "int k_top(int);\nint main() { return k_top(1) == 0; }\n",
        &[],
    );
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("does not compile"), "{}", r.stderr);
    let expected = format!("{}:4:", k.display());
    assert!(r.stderr.contains(&expected), "expected {expected} in:\n{}", r.stderr);
}

#[test]
fn a_testbench_that_never_ends_is_stopped_by_the_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let started = std::time::Instant::now();
    let (r, _) = sim_k_top(
        dir.path(),
        "int k_top(int x) {\n  while (x > 0) { x = x + 1; if (x < 0) x = 1; }\n  return x;\n}\n",
        "int k_top(int);\nint main() { return k_top(1); }\n",
        &["--timeout", "2"],
    );
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("longer than 2 s"), "{}", r.stderr);
    assert!(started.elapsed().as_secs() < 60);
}

#[test]
fn timelines_read_back_and_the_json_matches_its_schema() {
    let dir = tempfile::tempdir().unwrap();
    let (vcd_path, trace_path) = (dir.path().join("t.vcd"), dir.path().join("t.json"));
    let rep = sim_json(&[
        "examples/dataflow_pipeline/hls_config.cfg",
        "--vcd",
        vcd_path.to_str().unwrap(),
        "--trace",
        trace_path.to_str().unwrap(),
    ]);
    // Schema.
    validate_against_schema(&rep);
    let (schemas, idx) = report_schema();
    let mut broken = rep.clone();
    broken["rows"][0]["pcp"] = Value::from("maybe");
    assert!(schemas.validate(&broken, idx).is_err(), "the schema checks something");

    // VCD: every row has a busy wire; each module toggles once per run.
    let f = std::fs::File::open(&vcd_path).unwrap();
    let mut parser = vcd::Parser::new(std::io::BufReader::new(f));
    let header = parser.parse_header().expect("the VCD header parses");
    let rows = rep["rows"].as_array().unwrap();
    let compute = rows.iter().find(|r| r["name"] == "compute_stage").unwrap();
    let mut path: Vec<String> = vec!["pipeline_top".into()];
    let mut at = compute;
    let mut chain = vec![];
    loop {
        chain.push(format!("{}_{}", at["index"], at["name"].as_str().unwrap()));
        match at["parent"].as_u64() {
            Some(p) => at = &rows[p as usize],
            None => break,
        }
    }
    chain.reverse();
    path.extend(chain);
    path.push("busy".into());
    let var = header.find_var(&path).unwrap_or_else(|| panic!("no wire {path:?}"));
    let (mut rises, mut last_t, mut t) = (0u64, 0u64, 0u64);
    for cmd in parser {
        match cmd.expect("VCD body parses") {
            vcd::Command::Timestamp(ts) => {
                assert!(ts >= last_t, "time goes forward");
                last_t = ts;
                t = ts;
            }
            vcd::Command::ChangeScalar(id, vcd::Value::V1) if id == var.code => rises += 1,
            _ => {}
        }
    }
    let _ = t;
    assert_eq!(rises, u(&compute["runs"]), "one busy pulse per invocation");
    let clock_ps = (rep["clock_ns"]["value"].as_f64().unwrap() * 1000.0) as u64;
    assert_eq!(last_t, u(&rep["total_cycles"]) * clock_ps, "the dump ends with the run");

    // Chrome trace: one complete event per visible invocation, in microseconds.
    let trace: Value = serde_json::from_str(&std::fs::read_to_string(&trace_path).unwrap()).unwrap();
    let events = trace["traceEvents"].as_array().unwrap();
    let compute_events: Vec<&Value> =
        events.iter().filter(|e| e["ph"] == "X" && e["name"] == "compute_stage").collect();
    assert_eq!(compute_events.len() as u64, u(&compute["runs"]));
    let cycles: u64 = compute_events.iter().map(|e| u(&e["args"]["cycles"])).sum();
    assert_eq!(cycles, u(&compute["cycles"]));
    let tids: std::collections::HashSet<u64> =
        events.iter().filter(|e| e["ph"] == "X" && e["cat"] == "module").map(|e| u(&e["tid"])).collect();
    assert!(tids.len() >= 4, "each dataflow process has its own track: {tids:?}");
}

#[test]
fn an_existing_log_can_be_analysed_and_a_corrupt_one_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let keep = dir.path().join("work");
    let r = sim(&["tests/sim/analytic/hls_config.cfg", "--keep", keep.to_str().unwrap(), "--format", "csv"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let manifest = keep.join("hlsinstr-manifest.json");
    let log = keep.join("run/hlsinstr-events.log");
    assert!(manifest.exists() && log.exists());
    let events = ["--events", log.to_str().unwrap(), "--manifest", manifest.to_str().unwrap(), "--format", "csv"];
    let again = sim(&[&["tests/sim/analytic/hls_config.cfg"][..], &events[..]].concat());
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert_eq!(again.stdout, r.stdout, "the same log and project give the same report");
    // Without the project the analysis has none of its settings: its flow target's m_axi
    // latency (`flow_target=vitis`: 64 cycles) gives way to the board's DRAM latency.
    let bare = sim(&events);
    assert_eq!(bare.code, 0, "{}", bare.stderr);
    assert_ne!(bare.stdout, r.stdout, "the board's 580 ns, not the Vitis flow's 640");
    assert!(r.stdout.starts_with("row,parent,depth,kind,name"));
    // The kept log is binary (the testbench sends it through a pipe): magic, buffer header, records.
    let mut bytes = std::fs::read(&log).unwrap();
    assert!(bytes.starts_with(b"HLSIEV6\n"));
    // The first record made a repeat record (code 7, count 5): there is no leaf before it to repeat.
    let good = bytes.clone();
    (bytes[16], bytes[17]) = (0x47, 5);
    let bad = dir.path().join("bad.log");
    std::fs::write(&bad, &bytes).unwrap();
    let refused = sim(&["--events", bad.to_str().unwrap(), "--manifest", manifest.to_str().unwrap()]);
    assert_eq!(refused.code, 1);
    assert!(
        refused.stderr.contains("corrupt at byte 16: a repeat record that does not follow a begin and its end"),
        "{}",
        refused.stderr
    );
    // Flags no writer sets.
    bytes = good;
    bytes[16] |= 0x80;
    std::fs::write(&bad, &bytes).unwrap();
    let refused = sim(&["--events", bad.to_str().unwrap(), "--manifest", manifest.to_str().unwrap()]);
    assert_eq!(refused.code, 1);
    assert!(refused.stderr.contains("corrupt at byte 16: unknown record flags"), "{}", refused.stderr);
    let text = dir.path().join("bad-text.log");
    std::fs::write(&text, "# hlsinstr events v1\n999 0 X 0 - - -\n").unwrap();
    let refused = sim(&["--events", text.to_str().unwrap(), "--manifest", manifest.to_str().unwrap()]);
    assert_eq!(refused.code, 1);
    assert!(refused.stderr.contains("unknown event `X`"), "{}", refused.stderr);
    let wrong = dir.path().join("wrong.log");
    std::fs::write(&wrong, "# hlsinstr events v1\n0 77 B 0 - - -\n1 77 E 0 - - -\n").unwrap();
    let refused = sim(&["--events", wrong.to_str().unwrap(), "--manifest", manifest.to_str().unwrap()]);
    assert_eq!(refused.code, 1);
    assert!(refused.stderr.contains("different rewrites"), "{}", refused.stderr);
}

#[test]
fn a_deadlocking_dataflow_region_is_reported_not_hung() {
    let started = std::time::Instant::now();
    let r = sim(&["tests/sim/deadlock/hls_config.cfg", "--timeout", "60"]);
    assert_eq!(r.code, 4, "exit code 4 means deadlock:\n{}", r.stderr);
    assert!(r.stdout.is_empty(), "no report: {}", r.stdout);
    assert!(r.stderr.contains("the design deadlocks"), "{}", r.stderr);
    assert!(
        r.stderr.contains("blocked reading empty stream 'link'") && r.stderr.contains("consume_loop in consume"),
        "names the stream and the module:\n{}",
        r.stderr
    );
    assert!(started.elapsed().as_secs() < 50, "found by the watchdog, not by the timeout");
}

/// The shapes (rows, cols) tests/sim/flatten/flatten_tb.cpp calls grid_top with.
const FLATTEN_SHAPES: [(u64, u64); 4] = [(3, 5), (4, 7), (0, 9), (2, 0)];

/// The `busy` wire of row `r` in a `--vcd` dump: how many times it rises.
fn vcd_rises(vcd_path: &std::path::Path, rep: &Value, r: &Value, scope_name: &str) -> u64 {
    let rows = rep["rows"].as_array().unwrap();
    let mut chain = vec![format!("{}_{scope_name}", r["index"])];
    let mut at = r;
    while let Some(p) = at["parent"].as_u64() {
        at = &rows[p as usize];
        // The head of a flattened nest is named after the flattened loop.
        let name = if at["nest"]["role"] == "head" { &at["nest"]["flattened_name"] } else { &at["name"] };
        chain.push(format!("{}_{}", at["index"], name.as_str().unwrap()));
    }
    chain.push(rep["top"].as_str().unwrap().to_string());
    chain.reverse();
    chain.push("busy".into());
    let mut parser = vcd::Parser::new(std::io::BufReader::new(std::fs::File::open(vcd_path).unwrap()));
    let header = parser.parse_header().expect("the VCD header parses");
    let var = header.find_var(&chain).unwrap_or_else(|| panic!("no wire {chain:?}"));
    let code = var.code;
    parser
        .filter(|c| matches!(c.as_ref().expect("VCD body parses"), vcd::Command::ChangeScalar(id, vcd::Value::V1) if *id == code))
        .count() as u64
}

#[test]
fn a_perfect_nest_the_report_flattens_is_timed_as_the_one_flattened_loop() {
    // tests/sim/flatten/csynth.xml is hand-made (see its header comment): Row_Col II=1 depth 5,
    // Tile_Row_Tile_Col II=2 depth 4, cube's three-loop VITIS_LOOP_... nest not pipelined with
    // iteration latency 3.
    let tb = std::fs::read_to_string(repo().join("tests/sim/flatten/flatten_tb.cpp")).unwrap();
    assert!(tb.contains("{{3, 5}, {4, 7}, {0, 9}, {2, 0}}"), "the test below assumes these shapes");
    let dir = tempfile::tempdir().unwrap();
    let (keep, vcd_path, trace_path) = (dir.path().join("work"), dir.path().join("t.vcd"), dir.path().join("t.json"));
    let rep = sim_json(&[
        "tests/sim/flatten/hls_config.cfg",
        "--csynth",
        "tests/sim/flatten/csynth.xml",
        "--keep",
        keep.to_str().unwrap(),
        "--vcd",
        vcd_path.to_str().unwrap(),
        "--trace",
        trace_path.to_str().unwrap(),
    ]);
    validate_against_schema(&rep);
    let calls = FLATTEN_SHAPES.len() as u64;

    // Row × Col, 8 × 16, flattened: per execution (R·C − 1)·II + IL with II = 1, IL = 5.
    let row_col = row(&rep, "Row");
    assert_eq!(row_col["nest"]["role"], "head", "{row_col}");
    assert_eq!(row_col["nest"]["flattened_name"], "Row_Col");
    assert_eq!(row_col["nest"]["members"], serde_json::json!(["Row", "Col"]));
    assert_eq!(row_col["timing"]["report_name"], "grid_top_Pipeline_Row_Col/Row_Col");
    assert_eq!((&row_col["timing"]["ii"]["value"], &row_col["timing"]["ii"]["source"]), (&1.into(), &"report".into()));
    assert_eq!((&row_col["timing"]["il"]["value"], &row_col["timing"]["il"]["source"]), (&5.into(), &"report".into()));
    assert_eq!(row_col["timing"]["trips"], "run");
    let per_exec = (8 * 16 - 1) + 5;
    assert_eq!((u(&row_col["runs"]), u(&row_col["trips"])), (calls, calls * 8 * 16), "trips are the flattened trips");
    assert_eq!(u(&row_col["cycles"]), calls * per_exec);
    assert_eq!((u(&row_col["cycles_min"]), u(&row_col["cycles_max"])), (per_exec, per_exec));
    let col = row(&rep, "Col");
    assert_eq!(col["nest"]["role"], "member");
    assert_eq!(u(&col["nest"]["head"]), u(&row_col["index"]));
    assert_eq!(u(&col["parent"]), u(&row_col["index"]));
    assert_eq!((u(&col["runs"]), u(&col["trips"])), (calls * 8, calls * 8 * 16), "its own counts stay");
    assert_eq!(u(&col["cycles"]), 0, "counted once, in the nest's row");
    assert!(!col["pcp"].as_bool().unwrap() && col.get("stall_pct").is_none());

    // Tile_Row × Tile_Col with the call's bounds: the run's trips differ per execution; II = 2
    // from the report (the pragma says 1), 0 cycles when either loop runs no trip. The tail
    // beyond (TC − 1)·II is the report's: 8193 − 4095·2 = 3 (depth 4 − 1, facts rule 3).
    let tile = row(&rep, "Tile_Row");
    assert_eq!(tile["nest"]["flattened_name"], "Tile_Row_Tile_Col");
    assert_eq!(tile["timing"]["ii"]["value"], 2);
    assert_eq!(tile["timing"]["il"]["value"], 3);
    let per_call: Vec<u64> =
        FLATTEN_SHAPES.iter().map(|&(r, c)| if r * c == 0 { 0 } else { (r * c - 1) * 2 + 3 }).collect();
    assert_eq!(u(&tile["trips"]), FLATTEN_SHAPES.iter().map(|&(r, c)| r * c).sum::<u64>());
    assert_eq!(u(&tile["cycles"]), per_call.iter().sum::<u64>());
    assert_eq!((u(&tile["cycles_min"]), u(&tile["cycles_max"])), (0, 4 * 7 * 2 - 2 + 3));
    assert_eq!(u(&row(&rep, "Tile_Col")["cycles"]), 0);

    // cube(): three unlabeled loops, flattened under the joined VITIS_LOOP names, not
    // pipelined: TC × iteration latency, TC = 2 · 3 · cols per call.
    let cube_nest = row(&rep, "VITIS_LOOP_5_1");
    assert_eq!(cube_nest["nest"]["flattened_name"], "VITIS_LOOP_5_1_VITIS_LOOP_6_2_VITIS_LOOP_7_3");
    assert_eq!(cube_nest["timing"]["pipelined"]["value"], false);
    assert_eq!(cube_nest["timing"]["iteration_latency"], serde_json::json!({"value": 3, "source": "report"}));
    let cube_trips: u64 = FLATTEN_SHAPES.iter().map(|&(_, c)| 2 * 3 * c).sum();
    assert_eq!((u(&cube_nest["trips"]), u(&cube_nest["cycles"])), (cube_trips, cube_trips * 3));
    for inner in ["VITIS_LOOP_6_2", "VITIS_LOOP_7_3"] {
        let r = row(&rep, inner);
        assert_eq!((r["nest"]["role"].as_str(), u(&r["cycles"])), (Some("member"), 0), "{r}");
        assert_eq!(u(&r["nest"]["head"]), u(&cube_nest["index"]));
    }
    // Schedule first: cube's best case in the report (1, its loop at 0 trips) plus the nest.
    let cube = row(&rep, "cube");
    assert_eq!(u(&cube["cycles"]), calls + u(&cube_nest["cycles"]));

    // The nests are counted once: the top is the report's best case (140: Row_Col's 132 in its
    // 134-cycle module, Tile at 0 trips, cube's 1) plus what each child took beyond its share.
    let top = row(&rep, "grid_top");
    assert_eq!(u(&top["dram_bound_runs"]), 0);
    let beyond = u(&row_col["cycles"]) - calls * 132 + u(&tile["cycles"]) + u(&cube["cycles"]) - calls;
    assert_eq!(u(&top["cycles"]), calls * 140 + beyond);
    assert_eq!(rep["estimate"]["per_call"].as_array().unwrap().len() as u64, calls);
    assert_eq!(u(&rep["total_cycles"]), u(&top["cycles"]));
    let reasons = reason_kinds(tile);
    assert!(reasons.iter().any(|(on, _)| on == "Row_Col"), "reasons name the nest: {reasons:?}");

    // Timelines: the nest's wire is named after the flattened loop and pulses once per
    // execution; its inner loop's never does (its time is the nest's).
    assert_eq!(vcd_rises(&vcd_path, &rep, row_col, "Row_Col"), calls);
    assert_eq!(vcd_rises(&vcd_path, &rep, col, "Col"), 0);
    let trace: Value = serde_json::from_str(&std::fs::read_to_string(&trace_path).unwrap()).unwrap();
    let nest_events: Vec<&Value> =
        trace["traceEvents"].as_array().unwrap().iter().filter(|e| e["ph"] == "X" && e["name"] == "Row_Col").collect();
    assert_eq!(nest_events.len() as u64, calls);
    assert_eq!(nest_events.iter().map(|e| u(&e["args"]["cycles"])).sum::<u64>(), u(&row_col["cycles"]));
    assert!(!trace.to_string().contains("\"name\":\"Col\""), "no event for the inner loop");

    // The table and the CSV of the same log.
    let (log, manifest) = (keep.join("run/hlsinstr-events.log"), keep.join("hlsinstr-manifest.json"));
    let again = |extra: &[&str]| {
        let mut args = vec!["--events", log.to_str().unwrap(), "--manifest", manifest.to_str().unwrap()];
        args.extend(extra);
        let r = sim(&args);
        assert_eq!(r.code, 0, "{}", r.stderr);
        r.stdout
    };
    let table = again(&["--csynth", "tests/sim/flatten/csynth.xml"]);
    let nest_line = table.lines().find(|l| l.contains("loop nest Row_Col (flattened in the report)")).expect(&table);
    assert!(nest_line.contains(&(calls * per_exec).to_string()), "{nest_line}");
    // Col is in the nest's pipeline; cube's inner loops are in a nest that is not pipelined.
    let marks: Vec<&str> = table
        .lines()
        .filter(|l| l.contains("in nest: "))
        .map(|l| if l.contains("(pipe)") { "pipe" } else { "nest" })
        .collect();
    assert_eq!(marks, ["pipe", "pipe", "nest", "nest"], "{table}");
    // A row inside a pipeline has no cycles of its own in the table (SW_cyc, runs, trips, PCP).
    for l in table.lines().filter(|l| l.contains("(pipe)")) {
        let cols: Vec<&str> = l.split_whitespace().collect();
        let pcp = cols.iter().position(|c| *c == "(pipe)").unwrap();
        assert_eq!(cols[pcp - 3], "-", "{l}");
    }
    let csv = again(&["--csynth", "tests/sim/flatten/csynth.xml", "--format", "csv"]);
    assert!(csv.lines().next().unwrap().ends_with(",reasons,nest"), "{csv}");
    assert!(csv.lines().any(|l| l.contains(",Row,") && l.ends_with(",Row_Col")), "{csv}");
    assert!(csv.lines().any(|l| l.contains(",Col,") && l.ends_with(",in Row_Col")), "{csv}");

    // Without a report Vitis' defaults apply: a perfect nest whose innermost loop is a pipeline
    // is flattened (UG1399 loop_flatten); Row × Col times as one loop of R·C trips with the
    // pragma's II and the default tail, its inner loop at 0.
    let plain: Value = serde_json::from_str(&again(&["--no-csynth", "--format", "json"])).unwrap();
    validate_against_schema(&plain);
    let outer = row(&plain, "Row");
    assert_eq!(outer["nest"]["role"], "head", "{outer}");
    assert_eq!(outer["timing"]["pipelined"], serde_json::json!({"value": true, "source": "pragma"}));
    assert_eq!(u(&outer["trips"]), calls * 8 * 16, "the flattened trips");
    // The tail holds the chain of Col's body too: its read of `in` (1; `* 2` is a shift).
    let tail = u(&plain["defaults"]["pipeline_depth"]) - 1 + u(&plain["defaults"]["pipeline_wrapper"]) + 1;
    assert_eq!(u(&outer["timing"]["il"]["value"]), tail, "{outer}");
    assert_eq!(u(&outer["cycles"]), calls * (8 * 16 - 1 + tail));
    assert_eq!(u(&row(&plain, "Col")["cycles"]), 0);
}

/// Whether an ELF executable names a dynamic loader (a PT_INTERP program header).
fn has_interpreter(exe: &std::path::Path) -> bool {
    let b = std::fs::read(exe).unwrap();
    assert_eq!(&b[..4], b"\x7fELF", "{} is not ELF", exe.display());
    let u = |at: usize, n: usize| (0..n).fold(0u64, |v, k| v | (b[at + k] as u64) << (8 * k));
    let (phoff, phentsize, phnum) = (u(0x20, 8) as usize, u(0x36, 2) as usize, u(0x38, 2) as usize);
    (0..phnum).any(|i| u(phoff + i * phentsize, 4) == 3)
}

#[test]
fn the_simulation_links_without_the_dynamic_loader_when_it_can() {
    use hlsinstr::sim::run::link;
    let work = tempfile::tempdir().unwrap();
    let build = |name: &str, src: &str| {
        let (c, o, exe) =
            (work.path().join(format!("{name}.cpp")), work.path().join(format!("{name}.o")), work.path().join(name));
        std::fs::write(&c, src).unwrap();
        let ok =
            Command::new("g++").arg("-c").arg(&c).arg("-o").arg(&o).status().expect("g++ runs (apt-get install g++)");
        assert!(ok.success());
        link("g++", &[o], &[], &exe).expect("links");
        let out = Command::new(&exe).output().unwrap();
        assert!(out.status.success(), "{name} runs");
        (exe, String::from_utf8_lossy(&out.stdout).into_owned())
    };
    // A testbench with threads: fully static.
    let (exe, out) = build(
        "plain",
        "#include <cstdio>\n#include <thread>\nint main() { int x = 0; std::thread t([&] { x = 42; }); t.join(); std::printf(\"%d\\n\", x); }\n",
    );
    assert_eq!(out, "42\n");
    assert!(!has_interpreter(&exe), "a plain testbench is linked fully static");
    // One that loads a library at run time needs the dynamic loader: linked the next way.
    let (exe, out) = build(
        "loads",
        "#include <cstdio>\n#include <dlfcn.h>\nint main() { void* h = dlopen(\"libm.so.6\", RTLD_NOW); std::printf(\"%d\\n\", h != 0); }\n",
    );
    assert_eq!(out, "1\n");
    assert!(has_interpreter(&exe), "dlopen needs the dynamic loader");
}

/// Issue 17 item 5: hls::task bodies run as free-running threads; each is a row under the
/// function that declares it (named by its declaration, with its streams), not a testbench call;
/// a testbench waiting for a result no task makes is a deadlock naming the task's stream.
#[test]
fn hls_task_bodies_are_processes_of_their_region() {
    let r = sim(&["tests/sim/tasks/hls_config.cfg", "--no-csynth", "--timeout", "60"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("over 3 call(s)"), "3 testbench calls, not the tasks' invocations:\n{}", r.stdout);
    let lines: Vec<&str> = r.stdout.lines().collect();
    let row = |what: &str| {
        lines.iter().find(|l| l.contains(what)).copied().unwrap_or_else(|| panic!("no {what}:\n{}", r.stdout))
    };
    assert!(row("hls::task t1(scale, in, s3)").starts_with("  ") && row("t1(scale").contains(" 12 "), "{}", r.stdout);
    assert!(row("hls::task t2(offset, s3, out)").starts_with("  "), "{}", r.stdout);
    // Free-running processes: the slower one sets the pace, the other waits for it: t1 takes 2
    // an invocation, t2 11 (its 8-trip pipeline 7 + tail 2, its handshake 2): 1 − 2/11 = 81.8 %.
    assert!(row("t1(scale").contains("81.8") && row("t1(scale").contains("offset(81.8, dep)"), "{}", r.stdout);
    assert!(row("t2(offset").contains(" 0.0 "), "{}", r.stdout);
    assert!(!r.stderr.contains("never closed"), "a stopped task's last wait is not a lost invocation:\n{}", r.stderr);
    let r = sim(&["tests/sim/tasks/hls_config_deadlock.cfg", "--no-csynth", "--timeout", "60"]);
    assert_eq!(r.code, 4, "{}", r.stderr);
    assert!(r.stderr.contains("stream 'out'") && r.stderr.contains("stream 's3'"), "{}", r.stderr);
}

/// Tasks run on their own threads, so which one the log shows first changes from run to run
/// (about one run in six under load). The report, the VCD and the trace must not: the same log
/// with a task's first invocation moved before the other task's first record (orders
/// renumbered) gives the same three files.
#[test]
fn task_order_in_the_log_does_not_change_the_report() {
    let t = tempfile::tempdir().unwrap();
    let keep = t.path().join("keep");
    let cfg = repo().join("tests/sim/tasks/hls_config.cfg");
    let r = sim(&[cfg.to_str().unwrap(), "--no-csynth", "--keep", keep.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let log = t.path().join("as-run.txt");
    let out = Command::new(keep.join("csim.exe"))
        .current_dir(keep.join("run"))
        .env("HLSINSTR_EVENTS", &log)
        .env("HLSINSTR_EVENTS_FORMAT", "text")
        .env_remove("HLSINSTR_EVENTS_FD")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&log).unwrap();
    let (head, records): (Vec<&str>, Vec<&str>) = text.lines().partition(|l| l.starts_with('#'));
    let field = |l: &str, k: usize| l.split_whitespace().nth(k).unwrap().to_string();
    // The first task thread (the first thread after the testbench's), and the other task's
    // first whole invocation (its first begin to the end that closes it).
    let tb = field(records[0], 3);
    let first = records.iter().position(|l| field(l, 3) != tb).expect("a task thread");
    let other = records.iter().position(|l| field(l, 3) != tb && field(l, 3) != field(records[first], 3)).unwrap();
    let thread = field(records[other], 3);
    let (mut depth, mut end) = (0i64, other);
    for (k, l) in records.iter().enumerate().skip(other).filter(|(_, l)| field(l, 3) == thread) {
        depth += match field(l, 2).as_str() {
            "B" => 1,
            "E" => -1,
            _ => 0,
        };
        if depth == 0 {
            end = k;
            break;
        }
    }
    assert!(end > other && other > first, "{first} {other} {end}");
    let block: Vec<&str> = (other..=end).map(|k| records[k]).filter(|l| field(l, 3) == thread).collect();
    let rest = records.iter().enumerate().filter(|(k, l)| !((other..=end).contains(k) && field(l, 3) == thread));
    let mut moved: Vec<&str> = rest.clone().take_while(|(k, _)| *k < first).map(|(_, l)| *l).collect();
    moved.extend(block);
    moved.extend(rest.skip_while(|(k, _)| *k < first).map(|(_, l)| *l));
    assert_eq!(moved.len(), records.len());
    let renumbered: Vec<String> =
        moved.iter().enumerate().map(|(k, l)| format!("{k} {}", l.split_once(' ').unwrap().1)).collect();
    let swapped = t.path().join("swapped.txt");
    std::fs::write(&swapped, format!("{}\n{}\n", head.join("\n"), renumbered.join("\n"))).unwrap();
    let manifest = keep.join("hlsinstr-manifest.json");
    let outputs = |events: &std::path::Path, tag: &str| {
        let (vcd, trace) = (t.path().join(format!("{tag}.vcd")), t.path().join(format!("{tag}.json")));
        let r = sim(&[
            cfg.to_str().unwrap(),
            "--no-csynth",
            "--format",
            "json",
            "--events",
            events.to_str().unwrap(),
            "--manifest",
            manifest.to_str().unwrap(),
            "--vcd",
            vcd.to_str().unwrap(),
            "--trace",
            trace.to_str().unwrap(),
        ]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        (r.stdout, std::fs::read_to_string(vcd).unwrap(), std::fs::read_to_string(trace).unwrap())
    };
    let (a, b) = (outputs(&log, "as-run"), outputs(&swapped, "swapped"));
    let names = |json: &str| -> Vec<String> {
        let v: Value = serde_json::from_str(json).unwrap();
        v["rows"].as_array().unwrap().iter().map(|r| r["name"].as_str().unwrap().to_string()).collect()
    };
    assert_eq!(names(&a.0), ["task_top", "scale", "offset", "slow"], "rows in source order");
    assert!(a.0 == b.0, "the report changed:\n{}\n{}", a.0, b.0);
    assert!(a.1 == b.1, "the VCD changed:\n{}\n{}", a.1, b.1);
    assert!(a.2 == b.2, "the trace changed:\n{}\n{}", a.2, b.2);
}

/// Issue 17 item 6: an IP-library header has no model; the message names it, the directories
/// searched and the flag to pass.
#[test]
fn an_ip_library_header_gets_a_clear_message() {
    let t = tempfile::tempdir().unwrap();
    std::fs::write(t.path().join("k.cpp"), "#include \"hls_fft.h\"\nvoid k(int *a) { a[0] = 1; }\n").unwrap();
    std::fs::write(t.path().join("tb.cpp"), "void k(int *a);\nint main() { int a[1]; k(a); return a[0] - 1; }\n")
        .unwrap();
    let (k, tb) = (t.path().join("k.cpp"), t.path().join("tb.cpp"));
    let r = sim(&["--top", "k", "--src", k.to_str().unwrap(), "--tb", tb.to_str().unwrap()]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("hls_fft.h is a Vitis IP-library header"), "{}", r.stderr);
    assert!(r.stderr.contains("--hls-include $XILINX_HLS/include") && r.stderr.contains("Searched"), "{}", r.stderr);
}

/// Issue 16 (reach): Vivado HLS' video library (`hls_video.h`, `hls_opencv.h`) is in no Vitis
/// installation, so the advice is a Vivado HLS include directory or a port to xf::cv, never
/// `$XILINX_HLS/include`; the OpenCV bridge also needs OpenCV. (dklar/Harris@13b62417, Vivado
/// HLS 2019, stopped at `hls_video.h` with the advice to pass a Vitis installation.)
#[test]
fn a_vivado_hls_video_header_is_named_as_vivado_only() {
    let t = tempfile::tempdir().unwrap();
    let kernel = |include: &str| format!("{include}void k(int *a) {{ a[0] = 1; }}\n");
    let tb = |include: &str| format!("{include}void k(int *a);\nint main() {{ int a[1]; k(a); return a[0] - 1; }}\n");
    // The kernel's hls_video.h, then (a kernel that compiles) the testbench's hls_opencv.h.
    for (name, k_text, tb_text) in [
        ("hls_video.h", kernel("#include \"hls_video.h\"\n"), tb("")),
        ("hls_opencv.h", kernel(""), tb("#include <hls_opencv.h>\n")),
    ] {
        std::fs::write(t.path().join("k.cpp"), k_text).unwrap();
        std::fs::write(t.path().join("tb.cpp"), tb_text).unwrap();
        let (k, tb) = (t.path().join("k.cpp"), t.path().join("tb.cpp"));
        let r = sim(&["--top", "k", "--src", k.to_str().unwrap(), "--tb", tb.to_str().unwrap()]);
        assert_eq!(r.code, 1, "{}", r.stderr);
        let said = format!("{name} is part of Vivado HLS' video library");
        assert!(r.stderr.contains(&said), "{name}: {}", r.stderr);
        assert!(r.stderr.contains("Vitis HLS dropped in 2020.1") && r.stderr.contains("xf::cv"), "{}", r.stderr);
        assert!(r.stderr.contains("--hls-include <Vivado HLS>/include"), "{}", r.stderr);
        assert!(!r.stderr.contains("$XILINX_HLS/include"), "no Vitis installation has it: {}", r.stderr);
        let opencv = r.stderr.contains("It also needs OpenCV's headers");
        assert_eq!(opencv, name == "hls_opencv.h", "{}", r.stderr);
    }
}

/// Issue 16 (reach): a missing header that is no Vitis header is the project's or a library's,
/// so the advice is to install the library or pass -I/-l with --cflags, not a Vitis installation
/// (public hanssbtn/16x16_fpga_systolic_array@b6abffb: the testbench's `cblas.h`); a Vitis
/// Libraries header (`xf_*`) is in their own checkout.
#[test]
fn a_library_header_is_not_sent_to_a_vitis_installation() {
    let t = tempfile::tempdir().unwrap();
    for (include, expect) in [
        ("<somelib_api.h>", "it is no Vitis header"),
        ("\"common/xf_common.hpp\"", "is a header of the Vitis Libraries"),
    ] {
        std::fs::write(t.path().join("k.cpp"), "void k(int *a) { a[0] = 1; }\n").unwrap();
        let tb = format!("#include {include}\nvoid k(int *a);\nint main() {{ int a[1]; k(a); return a[0] - 1; }}\n");
        std::fs::write(t.path().join("tb.cpp"), tb).unwrap();
        let (k, tb) = (t.path().join("k.cpp"), t.path().join("tb.cpp"));
        let r = sim(&["--top", "k", "--src", k.to_str().unwrap(), "--tb", tb.to_str().unwrap()]);
        assert_eq!(r.code, 1, "{}", r.stderr);
        assert!(r.stderr.contains(expect) && r.stderr.contains("--cflags"), "{include}: {}", r.stderr);
        assert!(!r.stderr.contains("$XILINX_HLS/include"), "{include}: {}", r.stderr);
    }
}

/// Issue 16 (reach): `hls_directio.h` (Vitis 2024.1 on) is modelled: Direct I/O objects are
/// streams in C simulation, also as the arguments of an `hls::task` (as Vitis' introductory
/// examples `directio/ap_hs` and `using_directio_none_in_tasks` use them).
#[test]
fn direct_io_ports_run_in_a_top_and_in_a_task() {
    let t = tempfile::tempdir().unwrap();
    let kernel = "#include \"hls_directio.h\"\n#include \"hls_task.h\"\n\
                  static void twice(hls::ap_none<int> &in, hls::ap_vld<int> &out) { out.write(2 * in.read()); }\n\
                  void k(hls::ap_none<int> &in, hls::ap_vld<int> &out, hls::ap_hs<int> &seen) {\n\
                  \x20 hls_thread_local hls::task t(twice, in, out);\n  if (seen.valid()) seen.write(seen.read() + 1);\n}\n";
    let tb = "#include \"hls_directio.h\"\n\
              void k(hls::ap_none<int> &in, hls::ap_vld<int> &out, hls::ap_hs<int> &seen);\n\
              int main() {\n  hls::ap_none<int> in; hls::ap_vld<int> out; hls::ap_hs<int> seen;\n\
              \x20 for (int i = 0; i < 5; i++) in.write(i);\n  seen.write(41);\n  k(in, out, seen);\n\
              \x20 int sum = 0;\n  for (int i = 0; i < 5; i++) sum += out.read();\n\
              \x20 return (sum == 20 && seen.read() == 42 && seen.ready()) ? 0 : 1;\n}\n";
    std::fs::write(t.path().join("k.cpp"), kernel).unwrap();
    std::fs::write(t.path().join("tb.cpp"), tb).unwrap();
    let (k, tb) = (t.path().join("k.cpp"), t.path().join("tb.cpp"));
    let r = sim(&["--top", "k", "--src", k.to_str().unwrap(), "--tb", tb.to_str().unwrap(), "--format", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let rep: Value = serde_json::from_str(&r.stdout).unwrap();
    let runs: Vec<(String, Value)> = rep["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["name"].as_str().unwrap().to_string(), r["runs"].clone()))
        .collect();
    assert!(runs.iter().any(|(n, r)| n.contains("twice") && r.as_u64().unwrap_or(0) >= 5), "{runs:?}");
}

/// Issue 16 (reach): the open kernel headers' `ap_float.h` is hls4ml's own type, not Vitis'
/// `ap_float<W, E>` with `ap_float_acc` (Vitis' introductory example `using_ap_float_accumulator`
/// stopped at "ap_float_acc was not declared", which reads as the user's mistake): the error
/// says which header it is and what to pass.
#[test]
fn a_vitis_ap_float_design_on_the_open_headers_is_explained() {
    let t = tempfile::tempdir().unwrap();
    std::fs::write(
        t.path().join("k.cpp"),
        "#include <ap_float.h>\nfloat k(float x) { ap_float_acc<ap_float<18, 5>, ap_fixed<32, 16> > acc; return x; }\n",
    )
    .unwrap();
    std::fs::write(t.path().join("tb.cpp"), "float k(float);\nint main() { return k(1.0f) == 1.0f ? 0 : 1; }\n")
        .unwrap();
    let (k, tb) = (t.path().join("k.cpp"), t.path().join("tb.cpp"));
    let r = sim(&["--top", "k", "--src", k.to_str().unwrap(), "--tb", tb.to_str().unwrap()]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("its ap_float.h defines hls4ml's own"), "{}", r.stderr);
    assert!(r.stderr.contains("--hls-include $XILINX_HLS/include"), "{}", r.stderr);
}

/// Tasks declared as an array and started by `operator()` (`hls::task t[2]; t[i](worker, ...)`,
/// as UG1399 and Vitis' example `mixed_control_and_data_driven` write them): the worker's
/// invocations are the task's row under the function that starts it, as for a declaration.
#[test]
fn tasks_started_by_operator_call_are_rows() {
    let t = tempfile::tempdir().unwrap();
    let kernel = "#include \"hls_task.h\"\n\
                  static void worker(hls::stream<int> &in, hls::stream<int> &out) { out.write(in.read() + 1); }\n\
                  void k(hls::stream<int> (&in)[2], hls::stream<int> (&out)[2]) {\n\
                  \x20 hls_thread_local hls::task t[2];\n\
                  \x20 for (int i = 0; i < 2; i++) t[i](worker, in[i], out[i]);\n}\n";
    let tb = "#include \"hls_stream.h\"\n\
              void k(hls::stream<int> (&in)[2], hls::stream<int> (&out)[2]);\n\
              int main() {\n  hls::stream<int> in[2], out[2];\n\
              \x20 for (int i = 0; i < 3; i++) { in[0].write(i); in[1].write(10 * i); }\n  k(in, out);\n\
              \x20 int s = 0;\n  for (int i = 0; i < 3; i++) s += out[0].read() + out[1].read();\n  return s != 39;\n}\n";
    std::fs::write(t.path().join("k.cpp"), kernel).unwrap();
    std::fs::write(t.path().join("tb.cpp"), tb).unwrap();
    let (k, tb) = (t.path().join("k.cpp"), t.path().join("tb.cpp"));
    let rep = sim_json(&["--top", "k", "--src", k.to_str().unwrap(), "--tb", tb.to_str().unwrap()]);
    let worker = rep["rows"].as_array().unwrap().iter().find(|r| r["name"] == "worker").cloned();
    let worker = worker.unwrap_or_else(|| panic!("no worker row: {rep}"));
    assert_eq!(worker["runs"], 6, "{rep}");
    assert_eq!(worker["source"], "for (int i = 0; i < 2; i++) t[i](worker, in[i], out[i]);", "{rep}");
}

/// A function called from two places of one caller: each row shows its own call's line and text,
/// not the caller's first call (Vitis' example `using_vectors` showed `load(lhs_buf, lhs);` for
/// its `load(rhs_buf, rhs);` row too).
#[test]
fn each_call_site_row_shows_its_own_call() {
    let t = tempfile::tempdir().unwrap();
    let kernel = "static void add(int *o, const int *a, int n) {\n  for (int i = 0; i < n; i++) o[i] += a[i];\n}\n\
                  void k(int *o, const int *a, const int *b, int n) {\n  add(o, a, n);\n  add(o, b, n);\n}\n";
    let tb = "void k(int *o, const int *a, const int *b, int n);\n\
              int main() { int o[4] = {0}, a[4] = {1, 2, 3, 4}, b[4] = {1, 1, 1, 1}; k(o, a, b, 4); return o[0] != 2; }\n";
    std::fs::write(t.path().join("k.cpp"), kernel).unwrap();
    std::fs::write(t.path().join("tb.cpp"), tb).unwrap();
    let (k, tb) = (t.path().join("k.cpp"), t.path().join("tb.cpp"));
    let rep = sim_json(&["--top", "k", "--src", k.to_str().unwrap(), "--tb", tb.to_str().unwrap()]);
    let calls: Vec<(Value, Value)> = rep["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["name"] == "add")
        .map(|r| (r["call_line"].clone(), r["source"].clone()))
        .collect();
    assert_eq!(calls, [(5.into(), "add(o, a, n);".into()), (6.into(), "add(o, b, n);".into())], "{rep}");
}

/// Issue 16 (reach): `hls_print.h` (Vitis 2020.2 on) is modelled: a kernel that prints with
/// `hls::print` builds and runs under `sim`, its text in the testbench's output.
#[test]
fn a_kernel_printing_with_hls_print_runs() {
    let t = tempfile::tempdir().unwrap();
    std::fs::write(
        t.path().join("k.cpp"),
        "#include \"hls_print.h\"\nvoid k(int *a) {\n  for (int i = 0; i < 3; i++) a[i] = i;\n  hls::print(\"x=%d\\n\", a[2] + 1);\n}\n",
    )
    .unwrap();
    std::fs::write(t.path().join("tb.cpp"), "void k(int *a);\nint main() { int a[3]; k(a); return a[2] - 2; }\n")
        .unwrap();
    let (k, tb) = (t.path().join("k.cpp"), t.path().join("tb.cpp"));
    let keep = t.path().join("work");
    let r = sim(&[
        "--top",
        "k",
        "--src",
        k.to_str().unwrap(),
        "--tb",
        tb.to_str().unwrap(),
        "--keep",
        keep.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let printed = std::fs::read_to_string(keep.join("run/csim.stdout")).unwrap();
    assert_eq!(printed, "x=3\n");
}

/// Issue 17 item 9: `--src DIR` takes the user's sources, not Vitis' copies in a solution folder
/// (here a second definition of the top that would not link).
#[test]
fn src_directory_skips_vendor_folders() {
    let t = tempfile::tempdir().unwrap();
    let src = t.path().join("src");
    let copy = src.join("proj/solution1/.autopilot/db");
    std::fs::create_dir_all(&copy).unwrap();
    std::fs::write(src.join("k.cpp"), "void k(int *a) { a[0] = 1; }\n").unwrap();
    std::fs::write(copy.join("k.pp.0.cpp"), "void k(int *a) { a[0] = 2; }\n").unwrap();
    std::fs::write(src.join("proj/solution1/solution.aps"), "<solution/>\n").unwrap();
    std::fs::write(t.path().join("tb.cpp"), "void k(int *a);\nint main() { int a[1]; k(a); return a[0] - 1; }\n")
        .unwrap();
    let tb = t.path().join("tb.cpp");
    let r = sim(&["--top", "k", "--src", src.to_str().unwrap(), "--tb", tb.to_str().unwrap(), "--no-csynth"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains("skipped: a Vitis HLS solution (it holds solution.aps); 1 C/C++ file"), "{}", r.stderr);
    assert!(r.stdout.contains("k()"), "{}", r.stdout);
}
