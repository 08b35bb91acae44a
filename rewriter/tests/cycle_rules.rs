//! The cycle model against the timing rules (shared/facts/vitis-timing.md), one kernel of our
//! own per rule in `tests/cycle/<case>/` with a hand-written report in Vitis' format and the
//! per-call cycles worked out by hand from the rule (`expected.json`, with the arithmetic in its
//! `why`). End to end: rewrite → g++ → run the testbench → schedule-first model → per-call
//! figures. A case with a report must come out exactly; the one without a report (default
//! pipelining, rule 9) within its stated tolerance.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

mod common;
use common::{hls_include, repo, validate_against_schema};

fn cases() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(repo().join("tests/cycle"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("expected.json").is_file())
        .collect();
    v.sort();
    assert!(v.len() >= 12, "one case per rule at least: {v:?}");
    v
}

fn sim(case: &Path, extra: &[&str]) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_hlsinstr"))
        .arg("sim")
        .arg("--quiet")
        .arg("--hls-include")
        .arg(hls_include())
        .arg(case.join("hls_config.cfg"))
        .args(extra)
        .args(["--format", "json"])
        .output()
        .expect("run hlsinstr");
    assert!(
        out.status.success(),
        "{}: {}\n{}",
        case.display(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON report")
}

/// A project of a test's own in a temporary directory: its `kernel.cpp`, `tb.cpp` and an
/// `hls_config.cfg` of `config` (sources and top named there), plus `files` (name, text).
fn project_dir(kernel: &str, tb: &str, config: &str, files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in [("kernel.cpp", kernel), ("tb.cpp", tb), ("hls_config.cfg", config)].iter().chain(files) {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    dir
}

/// The `hls_config.cfg` of a Vivado-IP-flow project of `kernel.cpp` with top `top` and the
/// testbench `tb.cpp`, clock 10 ns, as [`project_dir`] lays it out.
fn vivado_flow(top: &str) -> String {
    format!("part=xc7z020-clg400-1\n[hls]\nflow_target=vivado\nsyn.file=kernel.cpp\nsyn.top={top}\ntb.file=tb.cpp\nclock=10ns\n")
}

fn counts(v: &Value) -> Vec<u64> {
    v.as_array().unwrap().iter().map(|x| x.as_u64().unwrap()).collect()
}

/// Every case, with its csynth.xml: the per-call cycles are the hand-worked ones; the report's
/// top latency is shown beside them; nothing of the report is left unaccounted.
#[test]
fn every_rule_case_gives_the_hand_worked_cycles_per_call() {
    let mut failures = Vec::new();
    for case in cases() {
        let expected: Value =
            serde_json::from_str(&std::fs::read_to_string(case.join("expected.json")).unwrap()).unwrap();
        let want = counts(&expected["calls"]);
        let has_report = case.join("csynth.xml").is_file();
        let rep = if has_report {
            sim(&case, &["--csynth", case.join("csynth.xml").to_str().unwrap()])
        } else {
            sim(&case, &["--no-csynth"])
        };
        let got = counts(&rep["estimate"]["per_call"]);
        let name = case.file_name().unwrap().to_string_lossy().into_owned();
        match expected.get("tolerance_pct").and_then(Value::as_f64) {
            Some(tol) => {
                for (g, w) in got.iter().zip(&want) {
                    let err = 100.0 * (*g as f64 - *w as f64).abs() / *w as f64;
                    if err > tol || got.len() != want.len() {
                        failures.push(format!("{name}: {got:?} not within {tol}% of {want:?}"));
                    }
                }
            }
            None if got != want => failures.push(format!("{name}: estimate {got:?}, by hand {want:?}")),
            None => {}
        }
        if has_report {
            assert!(rep["estimate"].get("report_latency").is_some(), "{name}: the report's top latency is shown");
            let acc = &rep["accounting"];
            assert!(acc["modules"].as_array().is_some_and(|m| !m.is_empty()), "{name}: every module accounted");
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Rule 6 in detail: the two call sites of `dot` are two rows, each with its copy's schedule.
#[test]
fn numbered_copies_are_one_row_per_call_site_with_their_own_schedule() {
    let case = repo().join("tests/cycle/06_numbered_copies");
    let rep = sim(&case, &["--csynth", case.join("csynth.xml").to_str().unwrap()]);
    let rows = rep["rows"].as_array().unwrap();
    let dots: Vec<&Value> = rows.iter().filter(|r| r["name"] == "dot").collect();
    assert_eq!(dots.len(), 2, "two call sites, two rows");
    assert_eq!(dots[1]["instance"], "dot_1");
    let macs: Vec<&Value> = rows.iter().filter(|r| r["name"] == "mac").collect();
    assert_eq!(macs[0]["timing"]["ii"]["value"], 1);
    assert_eq!(macs[1]["timing"]["ii"]["value"], 2, "dot_1's loop runs at its own II");
    assert_eq!(macs[1]["timing"]["report_name"], "dot_1/mac");
    assert!(dots[1]["cycles"].as_u64() > dots[0]["cycles"].as_u64(), "dot_1 at II 2 is slower");
}

/// Rule 7: a loop the report does not list costs nothing and is flagged.
#[test]
fn a_loop_absent_from_the_report_costs_nothing_and_is_listed() {
    let case = repo().join("tests/cycle/07_rom_table");
    let rep = sim(&case, &["--csynth", case.join("csynth.xml").to_str().unwrap()]);
    let flagged = rep["accounting"]["probes_without_entry"].as_array().unwrap();
    assert!(!flagged.is_empty(), "the ROM loop is listed");
    for f in flagged.iter().filter(|f| f["kind"] == "loop") {
        let row = rep["rows"].as_array().unwrap().iter().find(|r| r["probe"] == f["probe"]).unwrap();
        assert_eq!(row["cycles"], 0, "{row}");
        assert_eq!(row["timing"]["absent"], true);
    }
}

/// The text report of `sim` on a `tests/cycle` case with its hand-written csynth.xml, and `extra`.
fn case_text(case: &str, extra: &[&str]) -> String {
    let case = repo().join("tests/cycle").join(case);
    let out = Command::new(env!("CARGO_BIN_EXE_hlsinstr"))
        .args(["sim", "--quiet", "--hls-include"])
        .arg(hls_include())
        .arg(case.join("hls_config.cfg"))
        .arg("--csynth")
        .arg(case.join("csynth.xml"))
        .args(extra.iter().map(|a| a.replace("{case}", case.to_str().unwrap())))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// `--explain` says for each row how its cycles were found.
#[test]
fn explain_names_the_rule_and_the_sources() {
    let text = case_text("03_dyn_trip_pipeline", &["--explain"]);
    assert!(text.contains("per call: 21 ~ 1029"), "{text}");
    assert!(text.contains("the report says 6 ~ 1029"), "{text}");
    assert!(text.contains("corrected by the run"), "{text}");
    assert!(text.contains("II 1 (report)"), "{text}");
}

/// With `--cosim`, a report whose top latency is a range is compared by its worst case, and the
/// text says so (a data-dependent design's range holds every call, yet its worst case is far
/// from most of them).
#[test]
fn a_report_range_is_compared_by_its_worst_case_and_says_so() {
    let text = case_text("10_dyn_triple_loop", &["--cosim", "{case}/cosim.rpt"]);
    assert!(text.contains("mean abs error 0.0 % (the report's top latency, its worst case 3901: "), "{text}");
}

/// Dataflow channels as Vitis builds them (no report, so the region model decides): arrays
/// between processes are ping-pong buffers, chained per invocation; `syn.dataflow.default_channel
/// =fifo` makes them FIFOs, and a consumer then overlaps its producer.
#[test]
fn array_channels_are_ping_pong_unless_the_project_makes_them_fifos() {
    let case = repo().join("tests/cycle/12_dataflow_pingpong");
    let tmp = tempfile::tempdir().unwrap();
    for f in ["kernel.cpp", "kernel.h", "tb.cpp", "hls_config.cfg"] {
        std::fs::copy(case.join(f), tmp.path().join(f)).unwrap();
    }
    let pingpong = counts(&sim(tmp.path(), &["--no-csynth"])["estimate"]["per_call"]);
    let cfg = std::fs::read_to_string(case.join("hls_config.cfg")).unwrap();
    std::fs::write(tmp.path().join("hls_config.cfg"), format!("{cfg}\nsyn.dataflow.default_channel=fifo\n")).unwrap();
    let fifo = counts(&sim(tmp.path(), &["--no-csynth"])["estimate"]["per_call"]);
    assert_eq!(pingpong.len(), fifo.len());
    for (p, f) in pingpong.iter().zip(&fifo) {
        assert!(f < p, "FIFO channels overlap the processes: {fifo:?} against ping-pong {pingpong:?}");
    }
}

/// Rule 6 when the report has only numbered copies: Vitis may name every module of a function
/// `f_1`, `f_2`, ... with no plain `f` (the function was also called from code outside the top,
/// a copy Vitis dropped). Case 06 with its two `dot` modules renamed `dot_1` and `dot_2` (and
/// the calls' instances with them) must give the same hand-worked cycles: the first call site
/// runs the lowest-numbered copy, its loop `mac` is found in that copy.
#[test]
fn numbered_copies_without_the_plain_module_keep_their_schedules() {
    let case = repo().join("tests/cycle/06_numbered_copies");
    let xml = std::fs::read_to_string(case.join("csynth.xml")).unwrap();
    // The module names (`<ModuleName>`, `<Name>`); the pragmas' parentFunction stays `dot`.
    let renamed = xml.replace(">dot_1<", ">dot_2<").replace(">dot<", ">dot_1<");
    assert!(!renamed.contains(">dot<") && renamed.matches(">dot_2<").count() == 2, "no plain `dot` module is left");
    let tmp = tempfile::tempdir().unwrap();
    for f in ["kernel.cpp", "kernel.h", "tb.cpp", "hls_config.cfg"] {
        std::fs::copy(case.join(f), tmp.path().join(f)).unwrap();
    }
    let report = tmp.path().join("csynth.xml");
    std::fs::write(&report, renamed).unwrap();
    let rep = sim(tmp.path(), &["--csynth", report.to_str().unwrap()]);
    let expected: Value = serde_json::from_str(&std::fs::read_to_string(case.join("expected.json")).unwrap()).unwrap();
    assert_eq!(counts(&rep["estimate"]["per_call"]), counts(&expected["calls"]));
    let rows = rep["rows"].as_array().unwrap();
    let macs: Vec<&Value> = rows.iter().filter(|r| r["name"] == "mac").collect();
    assert_eq!(macs[0]["timing"]["report_name"], "dot_1/mac");
    assert_eq!(macs[1]["timing"]["report_name"], "dot_2/mac");
}

/// The co-sim window follows the report's version: case 01's top is started through s_axilite
/// with three arguments (`in`, `out`: 2 address words each; `gain`: 1). Its testbench under
/// 2022.2 polls: turns poll 0-3, arguments 4-29 (10, 10, 6 edges), the start process idle at 30,
/// poll 31-34, idle arguments 35-37, start written at 38 (ap_start seen at 41), polls every
/// 4 + 3 + 1 = 8 edges from 44; the schedule's 791 ends at 832, the poll at 836 sees it, counted
/// at 836 + 6 - 1 = 841. Under 2023.1 (rule 11) the count is the schedule's 791. 2023.2's
/// testbench (src/vitis_tb/mod.rs, `turns_2023`) hands over an edge later and writes a word in 5:
/// poll 0-4, arguments 5-15, 16-26, 27-32, the start idle at 33 (armed from 35), poll 34-38,
/// idle arguments 39-41, start written at 42 (ap_start seen at 45, ap_done at 836), polls every
/// 5 + 3 + 1 = 9 edges from 48: the poll at 840 sees it, counted at 846 - 1 = 845. A later call
/// is counted from the previous one's end (edge 6 after its done poll began): the arguments'
/// flags are up from 9, so they pass at 5-7, the start at 8, poll 9-13, arguments 14-24, 25-35,
/// 36-41, the start idle at 42, poll 43-47, idle 48-50, start at 51 (ap_done at 845), polls
/// every 9 from 57: 849 sees it, 855 - 6 = 849.
#[test]
fn the_cosim_window_follows_the_report_version() {
    let case = repo().join("tests/cycle/01_memcpy_local");
    let xml = std::fs::read_to_string(case.join("csynth.xml")).unwrap();
    assert!(xml.contains("<Version>2022.2</Version>"));
    for (version, want) in
        [("2022.2", [841; 3]), ("2023.1", [791; 3]), ("2023.2", [845, 849, 849]), ("2024.1", [845, 849, 849])]
    {
        let tmp = tempfile::tempdir().unwrap();
        for f in ["kernel.cpp", "kernel.h", "tb.cpp", "hls_config.cfg"] {
            std::fs::copy(case.join(f), tmp.path().join(f)).unwrap();
        }
        let report = tmp.path().join("csynth.xml");
        std::fs::write(&report, xml.replace("<Version>2022.2</Version>", &format!("<Version>{version}</Version>")))
            .unwrap();
        let e = sim(tmp.path(), &["--csynth", report.to_str().unwrap()])["estimate"].clone();
        assert_eq!(counts(&e["per_call"]), [791, 791, 791], "{version}: the schedule");
        assert_eq!(counts(&e["cosim_per_call"]), want, "{version}: {}", e["cosim_window"]);
    }
}

/// Vivado HLS names a flattened nest of loops without labels `Loop <k>` too: the loop paired
/// with the nest's head by position is the whole nest when it lists no loop inside and has the
/// nest's trips (the public 2019.1 `matrixmult`, a 4 × 4 nest as `Loop 1` of 16 trips: the model
/// took it for the outer loop of 4 trips and scaled the report's latency down, 30 for co-sim's
/// 42, where the report itself said 42). The report's 42 stands.
#[test]
fn vivado_hls_a_flattened_nest_without_labels_is_its_loop_number() {
    let report = "\n\n================================================================\n== Vivado HLS Report for 'mm'\n\
         ================================================================\n* Date:           Mon Oct 12 19:51:51 2020\n\n\
         * Version:        2019.1 (Build 2552052 on Fri May 24 15:28:33 MDT 2019)\n* Project:        p\n\
         * Solution:       solution1\n* Product family: artix7\n* Target device:  xc7a100t-csg324-1\n\n\n\
         ================================================================\n== Performance Estimates\n\
         ================================================================\n+ Latency (clock cycles): \n    * Summary: \n\
         \x20   +-----+------+-----+------+---------+\n    |   Latency  |  Interval  | Pipeline|\n\
         \x20   | min |  max | min |  max |   Type  |\n    +-----+------+-----+------+---------+\n\
         \x20   |   42|    42|   42|    42|   none  |\n    +-----+------+-----+------+---------+\n\n\
         \x20   + Detail: \n        * Instance: \n        N/A\n\n        * Loop: \n\
         \x20       +----------------+-----+------+----------+-----------+-----------+--------+----------+\n\
         \x20       |                |   Latency  | Iteration|  Initiation Interval  |  Trip  |          |\n\
         \x20       |    Loop Name   | min |  max |  Latency |  achieved |   target  |  Count | Pipelined|\n\
         \x20       +----------------+-----+------+----------+-----------+-----------+--------+----------+\n\
         \x20       |- Loop 1        |   40|    40|        26|          1|          1|      16|    yes   |\n\
         \x20       +----------------+-----+------+----------+-----------+-----------+--------+----------+\n\n\n";
    let kernel = "void mm(float a[16], float b[4], float c[16]) {\n  for (int i = 0; i < 4; i++)\n    \
                  for (int j = 0; j < 4; j++) {\n#pragma HLS PIPELINE\n      c[i * 4 + j] = a[i * 4 + j] * b[j];\n    }\n}\n";
    let tb = "void mm(float a[16], float b[4], float c[16]);\n\
              int main() { float a[16] = {1}, b[4] = {1}, c[16]; mm(a, b, c); return c[0] == 1 ? 0 : 1; }\n";
    let config = "part=xc7a100t-csg324-1\n[hls]\nsyn.file=kernel.cpp\nsyn.top=mm\ntb.file=tb.cpp\nclock=10ns\n";
    let dir = project_dir(kernel, tb, config, &[("mm_csynth.rpt", report)]);
    let csynth = dir.path().join("mm_csynth.rpt");
    let rep = sim(dir.path(), &["--csynth", csynth.to_str().unwrap()]);
    assert_eq!(counts(&rep["estimate"]["per_call"]), [42], "the report's latency");
}

/// Vivado HLS names a loop without a label `Loop <k>` by its place in its function, a nested one
/// `Loop <k>.<j>` (`sim::vivado_loops`): probes, named `VITIS_LOOP_<line>_<n>`, are paired with
/// them by position where the counts agree. A Vivado HLS 2019.1 report (the layout of a public
/// design's, whose labelled loops `Line_Loop`/`Column_Loop`/`Sum_Loop` give co-sim's n·(n·(3n +
/// 2) + 2) + 1 exactly) over the same nest without labels: the module's latency is left open
/// (1 ~ 3221), so the loops' cycles are the answer; unpaired, they counted as unrolled (0).
#[test]
fn vivado_hls_loops_without_labels_pair_with_their_loop_numbers() {
    let report = |outer: &str, middle: &str, inner: &str| {
        format!(
            "\n\n================================================================\n== Vivado HLS Report for 'mm'\n\
             ================================================================\n* Date:           Mon Oct 12 19:51:51 2020\n\n\
             * Version:        2019.1 (Build 2552052 on Fri May 24 15:28:33 MDT 2019)\n* Project:        p\n\
             * Solution:       solution1\n* Product family: artix7\n* Target device:  xc7a100t-csg324-1\n\n\n\
             ================================================================\n== Performance Estimates\n\
             ================================================================\n+ Latency (clock cycles): \n    * Summary: \n\
             \x20   +-----+------+-----+------+---------+\n    |   Latency  |  Interval  | Pipeline|\n\
             \x20   | min |  max | min |  max |   Type  |\n    +-----+------+-----+------+---------+\n\
             \x20   |    1|  3221|    1|  3221|   none  |\n    +-----+------+-----+------+---------+\n\n\
             \x20   + Detail: \n        * Instance: \n        N/A\n\n        * Loop: \n\
             \x20       +----------------+-----+------+----------+-----------+-----------+--------+----------+\n\
             \x20       |                |   Latency  | Iteration|  Initiation Interval  |  Trip  |          |\n\
             \x20       |    Loop Name   | min |  max |  Latency |  achieved |   target  |  Count | Pipelined|\n\
             \x20       +----------------+-----+------+----------+-----------+-----------+--------+----------+\n\
             \x20       |- {outer:<13}|  435|  3220| 87 ~ 322 |          -|          -| 5 ~ 10 |    no    |\n\
             \x20       | + {middle:<12}|   85|   320|  17 ~ 32 |          -|          -| 5 ~ 10 |    no    |\n\
             \x20       |  ++ {inner:<10}|   15|    30|         3|          -|          -| 5 ~ 10 |    no    |\n\
             \x20       +----------------+-----+------+----------+-----------+-----------+--------+----------+\n\n\n"
        )
    };
    let kernel = |labels: [&str; 3]| {
        format!(
            "void mm(short n, short a[100], short b[100], short c[100]) {{\n\
             \x20 if (n >= 5 && n <= 10) {{\n\
             \x20   {}for (int i = 0; i < n; i++)\n\
             \x20     {}for (int j = 0; j < n; j++) {{\n\
             \x20       short s = 0;\n\
             \x20       {}for (int k = 0; k < n; k++) s += a[i * 10 + k] * b[k * 10 + j];\n\
             \x20       c[i * 10 + j] = s;\n\
             \x20     }}\n\
             \x20 }}\n}}\n",
            labels[0], labels[1], labels[2]
        )
    };
    let tb = "void mm(short n, short a[100], short b[100], short c[100]);\n\
              int main() { short a[100] = {1}, b[100] = {1}, c[100]; mm(5, a, b, c); mm(10, a, b, c); return c[0] == 1 ? 0 : 1; }\n";
    let run = |kernel: &str, report: &str| {
        let config = "part=xc7a100t-csg324-1\n[hls]\nsyn.file=kernel.cpp\nsyn.top=mm\ntb.file=tb.cpp\nclock=10ns\n";
        let dir = project_dir(kernel, tb, config, &[("mm_csynth.rpt", report)]);
        let csynth = dir.path().join("mm_csynth.rpt");
        counts(&sim(dir.path(), &["--csynth", csynth.to_str().unwrap()])["estimate"]["per_call"])
    };
    let formula = |n: u64| n * (n * (3 * n + 2) + 2) + 1;
    let labelled =
        run(&kernel(["Line_Loop: ", "Column_Loop: ", "Sum_Loop: "]), &report("Line_Loop", "Column_Loop", "Sum_Loop"));
    assert_eq!(labelled, [formula(5), formula(10)], "436 and 3221");
    let numbered = run(&kernel(["", "", ""]), &report("Loop 1", "Loop 1.1", "Loop 1.1.1"));
    assert_eq!(numbered, labelled);
}

/// Without a report, a loop that is not pipelined and whose body is register logic only (no
/// memory, call or inner loop: `model::registers`) costs 1 a trip, as the one state Vivado HLS
/// schedules for a public Fibonacci loop (iteration latency 1); a body that reads a memory keeps
/// the default 2 (the read goes out in the exit test's state, its data and the add come in the
/// next). Here: the module's 2, the recurrence's 10 × 1, the sum's 10 × 2: 32 (42 with 2 a trip
/// for the first, 42 too when the sum's read was charged a state of its own). A top of combinational logic on
/// scalars (an add or a subtract) is 0 and co-simulates at 0, even on s_axilite, as a public
/// Vivado HLS 2018.2 ALU reports and co-simulates; `a * b + c` (a DSP) is not.
#[test]
fn without_a_report_register_loops_take_one_state_and_combinational_tops_none() {
    let run = |kernel: &str, top: &str, tb: &str| {
        let config = format!(
            "part=xck26-sfvc784-2LV-c\n[hls]\nsyn.file=kernel.cpp\nsyn.top={top}\ntb.file=tb.cpp\nclock=10ns\n"
        );
        let dir = project_dir(kernel, tb, &config, &[]);
        let e = sim(dir.path(), &["--no-csynth"])["estimate"].clone();
        (counts(&e["per_call"]), counts(&e["cosim_per_call"]))
    };
    let loops = "int k(int a[10]) {\n\
                 \x20 int f0 = 0, f1 = 1, f2 = 0, s = 0;\n\
                 \x20 for (int i = 0; i < 10; i++) {\n#pragma HLS pipeline off\n    f2 = f1 + f0; f0 = f1; f1 = f2;\n  }\n\
                 \x20 for (int i = 0; i < 10; i++) {\n#pragma HLS pipeline off\n    s += a[i];\n  }\n\
                 \x20 return f2 + s;\n}\n";
    let tb = "int k(int a[10]);\nint main() { int a[10] = {0}; return k(a) == 89 ? 0 : 1; }\n";
    assert_eq!(run(loops, "k", tb).0, [32]);
    let alu = |body: &str| {
        format!(
            "int alu(int a, int b, int c) {{\n#pragma HLS INTERFACE s_axilite port=a\n#pragma HLS INTERFACE s_axilite port=b\n\
             #pragma HLS INTERFACE s_axilite port=c\n#pragma HLS INTERFACE s_axilite port=return\n  return {body};\n}}\n"
        )
    };
    let tb = "int alu(int a, int b, int c);\nint main() { return alu(2, 3, 1) + alu(5, 1, 0) > 0 ? 0 : 1; }\n";
    assert_eq!(run(&alu("c ? a - b : a + b"), "alu", tb), (vec![0, 0], vec![0, 0]), "combinational");
    let (dsp, window) = run(&alu("a * b + c"), "alu", tb);
    assert!(dsp.iter().all(|&c| c > 0) && window.iter().zip(&dsp).all(|(w, c)| w > c), "{dsp:?} {window:?}");
}

/// Without a report the co-sim window follows the release the solution's own log names
/// (`<project>/<solution>/<solution>.log`, whose banner Vitis writes at every session), where
/// the script's header cannot tell: `Copyright 2022-2023` is written by 2023.1, whose co-sim
/// counts the schedule, and by 2023.2, whose testbench polls. Case 01's top (s_axilite control,
/// five argument words) run from a Vitis-written `script.tcl` in its solution directory.
#[test]
fn without_a_report_the_solution_logs_release_chooses_the_window() {
    let case = repo().join("tests/cycle/01_memcpy_local");
    let ws = tempfile::tempdir().unwrap();
    let sol = ws.path().join("proj/solution1");
    std::fs::create_dir_all(&sol).unwrap();
    for f in ["kernel.cpp", "kernel.h", "tb.cpp"] {
        std::fs::copy(case.join(f), ws.path().join("proj").join(f)).unwrap();
    }
    std::fs::write(
        sol.join("script.tcl"),
        "############################################################\n\
         ## This file is generated automatically by Vitis HLS.\n\
         ## Please DO NOT edit it.\n\
         ## Copyright 1986-2022 Xilinx, Inc. All Rights Reserved.\n\
         ## Copyright 2022-2023 Advanced Micro Devices, Inc. All Rights Reserved.\n\
         ############################################################\n\
         open_project proj\nset_top vscale\nadd_files proj/kernel.cpp\nadd_files -tb proj/tb.cpp\n\
         open_solution \"solution1\" -flow_target vitis\nset_part {xck26-sfvc784-2LV-c}\n\
         create_clock -period 10 -name default\n",
    )
    .unwrap();
    let run = || {
        let out = Command::new(env!("CARGO_BIN_EXE_hlsinstr"))
            .args(["sim", "--quiet", "--no-csynth", "--format", "json", "--hls-include"])
            .arg(hls_include())
            .arg(sol.join("script.tcl"))
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let rep: Value = serde_json::from_slice(&out.stdout).unwrap();
        let e = rep["estimate"].clone();
        let (run, window) = (counts(&e["per_call"]), counts(&e["cosim_per_call"]));
        assert_eq!(run.len(), 3);
        (run, window, e["cosim_window"].clone())
    };
    let banner = |v: &str| {
        format!(
            "==============================================================\n\
             Vitis HLS - High-Level Synthesis from C, C++ and OpenCL v{v} (64-bit)\n\
             Copyright 1986-2022 Xilinx, Inc. All Rights Reserved.\n\
             INFO: [HLS 200-1510] Running: csynth_design\n"
        )
    };
    // No log: the header's year, 2023, counts as 2023.1: the schedule.
    let (run0, window0, _) = run();
    assert_eq!(run0, window0, "2023 from the header: the schedule");
    std::fs::write(sol.join("solution1.log"), banner("2023.1") + &banner("2023.2.1")).unwrap();
    let (run2, window2, described) = run();
    assert_eq!(run2, run0);
    assert!(
        window2.iter().zip(&run2).all(|(w, r)| w > r),
        "2023.2.1, the last session's: the polled window ({described}): {window2:?} over {run2:?}"
    );
    std::fs::write(sol.join("solution1.log"), banner("2023.2") + &banner("2023.1")).unwrap();
    assert_eq!(run().1, run0, "2023.1, the last session's: the schedule");
}

/// Arrays on the s_axilite bundle (case 23): the co-sim window holds the testbench's writes of
/// the input memories and the read-back of the output ones, worked out by hand in the case's
/// `why`; the schedule itself is the report's.
#[test]
fn arrays_on_the_control_bundle_are_moved_inside_the_cosim_window() {
    let case = repo().join("tests/cycle/23_axilite_arrays");
    let expected: Value = serde_json::from_str(&std::fs::read_to_string(case.join("expected.json")).unwrap()).unwrap();
    let e = sim(&case, &["--csynth", case.join("csynth.xml").to_str().unwrap()])["estimate"].clone();
    assert_eq!(counts(&e["per_call"]), counts(&expected["calls"]));
    assert_eq!(counts(&e["cosim_per_call"]), counts(&expected["cosim"]), "{}", e["cosim_window"]);
    // Without the report: the release from the project file (an hls_config.cfg is 2023.2+), the
    // control from `INTERFACE s_axilite port=return`, the memories from `ARRAY_PARTITION` and the
    // top's reads and writes; its default schedule of 32 lands in the same poll.
    let e = sim(&case, &["--no-csynth"])["estimate"].clone();
    assert_eq!(counts(&e["per_call"]), [32, 32, 32]);
    assert_eq!(counts(&e["cosim_per_call"]), counts(&expected["cosim"]), "{}", e["cosim_window"]);
    assert_eq!(e["cosim_extra"]["source"], "project");
}

/// Case 23's report as Vivado HLS 2019.2 would date it: that release's testbench
/// (src/vitis_tb/turns_2019.rs) writes the inputs in argument order (a's two banks, b's 8 turns
/// of two shorts, k), then the start, and reads `out`'s two banks back after done, one element a
/// turn each; a later call counts the previous one's read-back. The figures are the Icarus
/// transcription's of that testbench (453, then 640) for the same bundle and schedule (32); the
/// 2022.2 model gives 445 and 625.
#[test]
fn vivado_hls_2019_moves_the_bundle_in_its_own_turns() {
    let case = repo().join("tests/cycle/23_axilite_arrays");
    let xml = std::fs::read_to_string(case.join("csynth.xml")).unwrap();
    assert!(xml.contains("<Version>2022.2</Version>"));
    let tmp = tempfile::tempdir().unwrap();
    for f in ["kernel.cpp", "kernel.h", "tb.cpp", "hls_config.cfg"] {
        std::fs::copy(case.join(f), tmp.path().join(f)).unwrap();
    }
    let report = tmp.path().join("csynth.xml");
    std::fs::write(&report, xml.replace("<Version>2022.2</Version>", "<Version>2019.2</Version>")).unwrap();
    let e = sim(tmp.path(), &["--csynth", report.to_str().unwrap()])["estimate"].clone();
    // The schedule, 32 less its `_Pipeline_` module's 2 in the RTL: done in the same turn.
    assert_eq!(counts(&e["per_call"]), [30, 30, 30]);
    assert_eq!(counts(&e["cosim_per_call"]), [453, 640, 640], "{}", e["cosim_window"]);
    // Vivado HLS 2020.1 (a 2020 report without Vitis' <FlowTarget>), the last Vivado HLS, keeps
    // that testbench: the public 2020.1 `FFT`, its 32 complex floats in and out on the bundle,
    // 48.5 → 6.9 % of its co-simulation so; a Vitis 2020.2 report keeps the 2022.2 model.
    let vivado_2020 = xml.replace("<Version>2022.2</Version>", "<Version>2020.1</Version>");
    let vivado_2020 = vivado_2020.replace("        <FlowTarget>vivado</FlowTarget>\n", "");
    std::fs::write(&report, &vivado_2020).unwrap();
    let e = sim(tmp.path(), &["--csynth", report.to_str().unwrap()])["estimate"].clone();
    assert_eq!(counts(&e["cosim_per_call"]), [453, 640, 640], "{}", e["cosim_window"]);
    std::fs::write(&report, xml.replace("<Version>2022.2</Version>", "<Version>2020.2</Version>")).unwrap();
    let e = sim(tmp.path(), &["--csynth", report.to_str().unwrap()])["estimate"].clone();
    assert_eq!(counts(&e["cosim_per_call"]), [445, 625, 625], "{}", e["cosim_window"]);
}

/// Case 23's interfaces given by the project instead of the pragmas: `set_directive_interface`
/// (Tcl; no port is the block control, as Vivado HLS writes it) or `syn.directive.interface`
/// (config) put the arrays and the block control on the s_axilite bundle just as well, so the
/// co-sim window without a report is the pragmas' (the memories written and read back, the
/// polls); with neither, the top has ports of its own and co-sim counts the schedule. A public
/// Vivado HLS 2019.2 design (docs/cycle-model.md, eleventh round) sets its interfaces so.
#[test]
fn interface_directives_put_the_ports_on_the_bundle_as_the_pragmas_do() {
    let case = repo().join("tests/cycle/23_axilite_arrays");
    let expected: Value = serde_json::from_str(&std::fs::read_to_string(case.join("expected.json")).unwrap()).unwrap();
    let kernel = std::fs::read_to_string(case.join("kernel.cpp")).unwrap();
    let bare: String = kernel.lines().filter(|l| !l.contains("INTERFACE")).map(|l| format!("{l}\n")).collect();
    assert_eq!(kernel.matches("INTERFACE").count(), 5);
    let run = |project: &str, text: &str| {
        let dir = tempfile::tempdir().unwrap();
        for f in ["kernel.h", "tb.cpp"] {
            std::fs::copy(case.join(f), dir.path().join(f)).unwrap();
        }
        std::fs::write(dir.path().join("kernel.cpp"), &bare).unwrap();
        std::fs::write(dir.path().join(project), text).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_hlsinstr"))
            .args(["sim", "--quiet", "--no-csynth", "--format", "json", "--hls-include"])
            .arg(hls_include())
            .arg(dir.path().join(project))
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let e = serde_json::from_slice::<Value>(&out.stdout).unwrap()["estimate"].clone();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        (counts(&e["per_call"]), counts(&e["cosim_per_call"]), stderr)
    };
    let cfg = std::fs::read_to_string(case.join("hls_config.cfg")).unwrap();
    let (run0, window0, _) = run("hls_config.cfg", &cfg);
    assert_eq!(window0, run0, "no interface: ports of its own, the schedule");
    let mut with = cfg.clone();
    for port in ["a", "b", "out", "k"] {
        with += &format!("syn.directive.interface=scale_add {port} mode=s_axilite\n");
    }
    with += "syn.directive.interface=scale_add mode=s_axilite port=return\n";
    let (_, window, warnings) = run("hls_config.cfg", &with);
    assert_eq!(window, counts(&expected["cosim"]), "config directives");
    assert!(!warnings.contains("interface"), "the directives are used: {warnings}");
    let tcl = "open_project p\nset_top scale_add\nadd_files kernel.cpp\nadd_files -tb tb.cpp\nopen_solution s1\n\
               set_part {xck26-sfvc784-2LV-c}\ncreate_clock -period 10 -name default\n\
               config_compile -pipeline_loops 64\n\
               set_directive_interface -mode s_axilite \"scale_add\"\n\
               set_directive_interface -mode s_axilite \"scale_add\" a\n\
               set_directive_interface -mode s_axilite \"scale_add\" b\n\
               set_directive_interface -mode s_axilite \"scale_add\" out\n\
               set_directive_interface -mode s_axilite \"scale_add\" k\n";
    let (_, window_tcl, warnings) = run("run_hls.tcl", tcl);
    assert!(!warnings.contains("interface"), "the directives are used: {warnings}");
    assert!(window_tcl.iter().zip(&run0).all(|(w, r)| w > r), "Tcl directives: the polled window {window_tcl:?}");
}

/// Vitis 2023.2's co-sim testbench (case 24, an AXI-stream top started through s_axilite with
/// no argument register, as the public AES design): its turns give 22 for the first call and
/// 23 for each later one around the schedule's 7, worked out in the case's `why`; the same run
/// under the report of a 2022.2 testbench gives 20 a call. Without the report, the release from
/// the project file (an hls_config.cfg is 2023.2+) and the default schedule of 5 (6 stream states,
/// the first at cycle 0) land in the same polls.
#[test]
fn the_2023_2_testbench_counts_later_calls_from_the_previous_end() {
    let case = repo().join("tests/cycle/24_axis_polled_2023");
    let expected: Value = serde_json::from_str(&std::fs::read_to_string(case.join("expected.json")).unwrap()).unwrap();
    let xml = std::fs::read_to_string(case.join("csynth.xml")).unwrap();
    assert!(xml.contains("<Version>2023.2</Version>"));
    let e = sim(&case, &["--csynth", case.join("csynth.xml").to_str().unwrap()])["estimate"].clone();
    assert_eq!(counts(&e["per_call"]), counts(&expected["calls"]));
    assert_eq!(counts(&e["cosim_per_call"]), counts(&expected["cosim"]), "{}", e["cosim_window"]);
    assert_eq!(counts(&e["cosim_per_call"]), [22, 23, 23]);
    let tmp = tempfile::tempdir().unwrap();
    for f in ["kernel.cpp", "kernel.h", "tb.cpp", "hls_config.cfg"] {
        std::fs::copy(case.join(f), tmp.path().join(f)).unwrap();
    }
    let report = tmp.path().join("csynth.xml");
    std::fs::write(&report, xml.replace("<Version>2023.2</Version>", "<Version>2022.2</Version>")).unwrap();
    let e = sim(tmp.path(), &["--csynth", report.to_str().unwrap()])["estimate"].clone();
    assert_eq!(counts(&e["cosim_per_call"]), [20, 20, 20], "2022.2: {}", e["cosim_window"]);
    let e = sim(&case, &["--no-csynth"])["estimate"].clone();
    assert_eq!(counts(&e["per_call"]), [5, 5, 5]);
    assert_eq!(counts(&e["cosim_per_call"]), [22, 23, 23], "{}", e["cosim_window"]);
}

/// The real Vitis 2022.2 solution end to end: its testbench runs, the report (XML or text) times
/// it, the co-simulation report is compared per call.
#[test]
fn the_systolic_solution_end_to_end_with_both_report_formats_and_its_cosim() {
    let sol = repo().join("../shared/fixtures/vitis-solution/2022.2-systolic-mm");
    assert!(sol.is_dir(), "shared/fixtures must sit beside the repository");
    let run = |report: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_hlsinstr"))
            .args(["sim", "--quiet", "--format", "json", "--top", "multiplier", "--hls-include"])
            .arg(hls_include())
            .arg("--src")
            .arg(sol.join("design.cpp"))
            .arg("--tb")
            .arg(sol.join("design_tb.cpp"))
            .arg("--csynth")
            .arg(sol.join("solution/syn/report").join(report))
            .arg("--cosim")
            .arg(sol.join("solution/sim/report"))
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        serde_json::from_slice::<Value>(&out.stdout).unwrap()
    };
    for report in ["csynth.xml", "csynth.rpt"] {
        let rep = run(report);
        let e = &rep["estimate"];
        // Every loop's trip count is the report's: the report's 260 exactly (ap_start..ap_done).
        assert_eq!(counts(&e["per_call"]), [260], "{report}");
        assert_eq!(e["schedule_exact_calls"], 1);
        assert_eq!(e["report_latency"], serde_json::json!({"min": 260, "max": 260}));
        // The m_axi latency the schedule assumed: 64 cycles of 10 ns.
        assert_eq!(rep["dram"]["source"], "report");
        assert_eq!(rep["dram"]["latency_ns"].as_f64(), Some(640.0));
        // Co-sim counts 321: its 2022.2 testbench writes the 7 argument words and ap_start
        // through s_axilite and polls for ap_done (src/vitis_tb/mod.rs): 260 in that window is 321.
        assert_eq!(e["cosim_per_call"], serde_json::json!([321]));
        assert_eq!(e["cosim_extra"]["source"], "report");
        let c = &e["cosim"];
        assert_eq!(c["calls"][0]["cosim"], 321);
        assert_eq!(c["calls"][0]["estimate"], 321);
        let err = c["mean_abs_error_pct"].as_f64().unwrap();
        assert_eq!(err, 0.0);
        assert!(err <= c["report_mean_abs_error_pct"].as_f64().unwrap(), "never worse than the report");
        // The five generated initialiser modules are accounted for, inside the top's latency.
        let generated = rep["accounting"]["modules"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["counted"].as_str().unwrap().starts_with("generated by Vitis"))
            .count();
        assert_eq!(generated, 5, "multiplier_Pipeline_1, 2, 4, 5, 6");
    }
}

/// Without a report, Vitis' defaults from the facts: a memcpy of a port is a module of elements + 3
/// cycles (rule 1; from 2021 its own module, whose caller adds no wait of the m_axi latency: the
/// top is its children + 13), copies on different bundles overlap (rule 2), a top with AXI ports
/// adds 13 (rule 11), a pipelined function is its depth whatever its loop ran (rule 8).
#[test]
fn without_a_report_copies_overlapping_copies_axi_tops_and_pipelined_functions() {
    let d = |case: &str| counts(&sim(&repo().join("tests/cycle").join(case), &["--no-csynth"])["estimate"]["per_call"]);
    // 256-word copy in (259) + the scale loop ((256 − 1) + tail 2 + its chain: a read of buf,
    // a 32-bit multiply = 259) + copy out (259) + 13.
    assert_eq!(d("01_memcpy_local"), [790, 790, 790]);
    // a (128 words, gmem0: 131) beside w (64 words, gmem1: 67) = 131; mix 127 + 2 + its chain (a
    // read, a 32-bit multiply: 2) = 131; c = 131; + 13.
    assert_eq!(d("02_bundles_overlap"), [406, 406]);
    // A pipelined function: its body's latency on every call, whatever the C trips. Its `v` is
    // registers (`ARRAY_PARTITION complete`), its compares and adds integer (free): 0, and a
    // pipelined top takes at least 1 (the default depth, 3, before the function-pipeline rule;
    // its hand-written report says 3).
    assert_eq!(d("08_function_pipeline"), [1, 1, 1, 1]);
}

/// Without a report, the aggregate initialiser of a local array the function writes later is the
/// module Vitis makes of it (rule 1): 16 elements of `hist` (its size `HB_BINS`, a `const` of the
/// header), 18 cycles, before the count (II 2: 2(n − 1) + tail 2 = 2n) and copy-out (16 trips:
/// 15 and a tail of 2, and 1 for the read of `hist` on its chain = 18) pipelines, and 2 for the
/// ap_ctrl_hs top: 2n + 38 (the hand-worked figures of the hand-written report, 2n + 39, give
/// both pipelines a depth of 3, the old default, and the copy-out's `_Pipeline_` module's RTL,
/// of one latency, no 2). A size the evaluator cannot work out is not
/// guessed: that initialiser is left out (18 less) and `--explain` says why.
#[test]
fn without_a_report_an_initialiser_of_a_written_array_is_its_module() {
    let case = repo().join("tests/cycle/13_initialiser");
    let expected: Value = serde_json::from_str(&std::fs::read_to_string(case.join("expected.json")).unwrap()).unwrap();
    let rep = sim(&case, &["--no-csynth"]);
    let hand = counts(&expected["calls"]);
    assert_eq!(counts(&rep["estimate"]["per_call"]), hand.iter().map(|c| c - 1).collect::<Vec<_>>());
    assert_eq!(counts(&rep["estimate"]["per_call"]), [58, 1038, 2086]);
    validate_against_schema(&rep);
    let top = rep["rows"].as_array().unwrap().iter().find(|r| r["name"] == "hist_bias").unwrap();
    assert_eq!(top["timing"]["initialisers"], serde_json::json!({"value": 18, "source": "default"}));

    let dir = tempfile::tempdir().unwrap();
    for f in ["kernel.h", "tb.cpp", "hls_config.cfg"] {
        std::fs::copy(case.join(f), dir.path().join(f)).unwrap();
    }
    let kernel = std::fs::read_to_string(case.join("kernel.cpp")).unwrap();
    let sized = "int hist[HB_BINS] =";
    assert!(kernel.contains(sized));
    let unknown = kernel.replacen(sized, "int hist[sizeof(long long) * 2] =", 1);
    std::fs::write(dir.path().join("kernel.cpp"), unknown).unwrap();
    assert_eq!(counts(&sim(dir.path(), &["--no-csynth"])["estimate"]["per_call"]), [40, 1020, 2068]);
    let text = String::from_utf8(
        Command::new(env!("CARGO_BIN_EXE_hlsinstr"))
            .args(["sim", "--quiet", "--hls-include"])
            .arg(hls_include())
            .arg(dir.path().join("hls_config.cfg"))
            .args(["--no-csynth", "--explain"])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    assert!(text.contains("initialiser of hist[sizeof(long long) * 2] (line 6) not counted: dimension"), "{text}");
}

/// Without a report, an integer division or remainder by a constant the headers define (`W`,
/// `(N / W)`) is a shift or a multiply once the compiler has the value, as by a literal: no
/// divider in the pipeline's depth. A divisor that is a variable is a divider (35 cycles deeper).
/// The public 2022.2 `pipelined_layer_processor` (issue 16, seventeenth round) indexes its output
/// words with `c / OUTPUT_WIDTH`: its write pipeline was 36 deep for the report's 3.
#[test]
fn without_a_report_a_division_by_a_constant_of_the_headers_is_no_divider() {
    let run = |divisor: &str, params: &str| {
        let kernel = format!(
            "#include \"k.h\"\nvoid k(int a[64], int b[64]{params}) {{\n\
             \x20 for (int i = 0; i < 64; i++) {{\n#pragma HLS pipeline II=1\n    b[i] = a[i] / {divisor} + i % {divisor};\n  }}\n}}\n"
        );
        let tb = format!(
            "void k(int a[64], int b[64]{params});\nint main() {{ int a[64] = {{0}}, b[64];\n  k(a, b{}); return 0; }}\n",
            if params.is_empty() { "" } else { ", 8" }
        );
        let config = "part=xck26-sfvc784-2LV-c\n[hls]\nsyn.file=kernel.cpp\nsyn.top=k\ntb.file=tb.cpp\nclock=10ns\n";
        let dir = project_dir(&kernel, &tb, config, &[("k.h", "#define N 64\n#define W 8\n")]);
        counts(&sim(dir.path(), &["--no-csynth"])["estimate"]["per_call"])[0]
    };
    let literal = run("8", "");
    assert_eq!(run("W", ""), literal, "a macro of the header");
    assert_eq!(run("(N / W)", ""), literal, "an expression of macros");
    assert_eq!(run("(64 / 8)", ""), literal, "an expression of literals");
    assert_eq!(run("w", ", int w"), literal + 35, "a variable: a divider");
}

/// Without a report, a `memcpy` from a port into a local array nothing reads is code Vitis removes:
/// no copy module, no DRAM bytes. The same kernel as 01 with such a copy added gives 790, as 01.
#[test]
fn without_a_report_a_copy_nothing_reads_costs_nothing() {
    let case = repo().join("tests/cycle/01_memcpy_local");
    let dir = tempfile::tempdir().unwrap();
    for f in ["kernel.h", "tb.cpp", "hls_config.cfg"] {
        std::fs::copy(case.join(f), dir.path().join(f)).unwrap();
    }
    let kernel = std::fs::read_to_string(case.join("kernel.cpp")).unwrap();
    let live = "  std::memcpy(buf, in, VS_N * sizeof(int));\n";
    assert!(kernel.contains(live));
    let dead =
        kernel.replacen(live, &format!("  int unused[VS_N];\n  std::memcpy(unused, in, sizeof(unused));\n{live}"), 1);
    std::fs::write(dir.path().join("kernel.cpp"), dead).unwrap();
    assert_eq!(counts(&sim(dir.path(), &["--no-csynth"])["estimate"]["per_call"]), [790, 790, 790]);
}

/// A module whose latency the report leaves undefined (a data-dependent exit) is timed from its
/// children, and the modules Vitis generated at its level (`<func>_Pipeline_<N>`: here the
/// initialiser, 18) have no probe to stand for them: they count too. Case 13 with the top's
/// latency made `undef`: its own 2 (the default) + 18 + the count module (2n+3: its trips vary)
/// + copy_out (16 in the RTL), the hand-worked 2n+39 again (without the initialiser: 2n+21).
#[test]
fn generated_modules_count_in_a_module_of_undefined_latency() {
    let case = repo().join("tests/cycle/13_initialiser");
    let dir = tempfile::tempdir().unwrap();
    for f in ["kernel.h", "kernel.cpp", "tb.cpp", "hls_config.cfg"] {
        std::fs::copy(case.join(f), dir.path().join(f)).unwrap();
    }
    let xml = std::fs::read_to_string(case.join("csynth.xml")).unwrap();
    let undef = xml
        .replace("<Best-caseLatency>43</Best-caseLatency>", "<Best-caseLatency>undef</Best-caseLatency>")
        .replace("<Worst-caseLatency>2089</Worst-caseLatency>", "<Worst-caseLatency>undef</Worst-caseLatency>");
    assert_ne!(undef, xml);
    let report = dir.path().join("csynth.xml");
    std::fs::write(&report, undef).unwrap();
    let rep = sim(dir.path(), &["--csynth", report.to_str().unwrap()]);
    assert_eq!(counts(&rep["estimate"]["per_call"]), [59, 1039, 2087]);
    assert!(rep["estimate"].get("report_latency").is_none(), "{}", rep["estimate"]);
}

/// Without a report, a loop that only fills a constant table (here through the parameter of an
/// inlined function) costs 0, as the ROM Vitis makes of it (rule 7), and its row says why: the
/// apply pipeline ((n − 1) + tail 2 + its chain: the read of `in`, the table read and a 32-bit
/// multiply after it, 2 with the first read overlapping) + 2 of an ap_ctrl_hs top: n + 5.
#[test]
fn without_a_report_a_constant_table_loop_is_a_rom() {
    let case = repo().join("tests/cycle/07_rom_table");
    let rep = sim(&case, &["--no-csynth"]);
    assert_eq!(counts(&rep["estimate"]["per_call"]), [37, 517, 105]);
    let text = String::from_utf8(
        Command::new(env!("CARGO_BIN_EXE_hlsinstr"))
            .args(["sim", "--quiet", "--hls-include"])
            .arg(hls_include())
            .arg(case.join("hls_config.cfg"))
            .args(["--no-csynth", "--explain"])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    assert!(text.contains("fills the constant table `tab`"), "{text}");
}

/// Rows of an array that `ARRAY_PARTITION complete dim=1` splits are memories of their own: two
/// producer → consumer chains through `mid[0]` and `mid[1]` run side by side in a dataflow region;
/// without the pragma the four processes share one buffer and follow each other.
#[test]
fn rows_of_a_partitioned_array_are_separate_dataflow_channels() {
    let kernel = |pragma: &str| {
        format!(
            r#"#define N 64
static void produce(const int in[N], int row[N]) {{
  for (int i = 0; i < N; i++) {{
#pragma HLS PIPELINE II=1
    row[i] = in[i] + 1;
  }}
}}
static void consume(const int row[N], int out[N]) {{
  for (int i = 0; i < N; i++) {{
#pragma HLS PIPELINE II=1
    out[i] = 2 * row[i];
  }}
}}
void rows2(const int a[N], const int b[N], int oa[N], int ob[N]) {{
#pragma HLS DATAFLOW
  int mid[2][N];
{pragma}
  produce(a, mid[0]);
  produce(b, mid[1]);
  consume(mid[0], oa);
  consume(mid[1], ob);
}}
"#
        )
    };
    let tb = r#"#include <cstdio>
#define N 64
void rows2(const int a[N], const int b[N], int oa[N], int ob[N]);
int main() {
  static int a[N], b[N], oa[N], ob[N];
  for (int i = 0; i < N; i++) { a[i] = i; b[i] = 3 * i; }
  rows2(a, b, oa, ob);
  int errors = 0;
  for (int i = 0; i < N; i++) errors += oa[i] != 2 * (a[i] + 1) || ob[i] != 2 * (b[i] + 1);
  std::printf("%d errors\n", errors);
  return errors != 0;
}
"#;
    let per_call = |pragma: &str| {
        let config = "[hls]\nsyn.file=kernel.cpp\nsyn.top=rows2\ntb.file=tb.cpp\nclock=10ns\n";
        let dir = project_dir(&kernel(pragma), tb, config, &[]);
        counts(&sim(dir.path(), &["--no-csynth"])["estimate"]["per_call"])
    };
    let split = per_call("#pragma HLS ARRAY_PARTITION variable=mid dim=1 complete");
    let shared = per_call("");
    assert_eq!(split.len(), 1);
    assert_eq!(shared.len(), 1);
    // Each process is one pipelined loop of 64 trips: the two chains of two overlap each other.
    assert!(
        split[0] * 3 < shared[0] * 2,
        "partitioned rows {split:?} should take about half the cycles of one shared buffer {shared:?}"
    );
}

/// `STREAM type=pipo` (pragma or directive) keeps an array between processes a ping-pong
/// buffer, as it is by default (UG1399 "pragma HLS stream": `type=fifo|pipo|shared|unsync`):
/// the consumer starts when the producer is done, two 64-trip pipelines in a row. `STREAM`
/// alone (or `type=fifo`) makes it a FIFO and the two overlap. The held-out public 2022.1
/// `accel` marks its weights `type=pipo`; read as a FIFO its consumer started at once.
#[test]
fn a_stream_pragma_of_type_pipo_keeps_a_ping_pong_buffer() {
    let kernel = |pragma: &str| {
        format!(
            r#"#define N 64
static void produce(const int in[N], int mid[N]) {{
  for (int i = 0; i < N; i++) {{
#pragma HLS PIPELINE II=1
    mid[i] = in[i] + 1;
  }}
}}
static void consume(const int mid[N], int out[N]) {{
  for (int i = 0; i < N; i++) {{
#pragma HLS PIPELINE II=1
    out[i] = 2 * mid[i];
  }}
}}
void pp(const int a[N], int o[N]) {{
#pragma HLS DATAFLOW
  int mid[N];
{pragma}
  produce(a, mid);
  consume(mid, o);
}}
"#
        )
    };
    let tb = "#define N 64\nvoid pp(const int a[N], int o[N]);\n\
              int main() {\n  static int a[N], o[N];\n  for (int i = 0; i < N; i++) a[i] = i;\n\
              \x20 pp(a, o);\n  return o[5] != 12;\n}\n";
    let per_call = |pragma: &str, directive: &str| {
        let config = format!("[hls]\nsyn.file=kernel.cpp\nsyn.top=pp\ntb.file=tb.cpp\nclock=10ns\n{directive}");
        let dir = project_dir(&kernel(pragma), tb, &config, &[]);
        counts(&sim(dir.path(), &["--no-csynth"])["estimate"]["per_call"])[0]
    };
    let pingpong = per_call("", "");
    let fifo = per_call("#pragma HLS STREAM variable=mid", "");
    assert!(fifo + 50 < pingpong, "a FIFO overlaps the two loops: {fifo} against {pingpong}");
    assert_eq!(per_call("#pragma HLS STREAM variable=mid type=fifo depth=64", ""), fifo);
    assert_eq!(per_call("#pragma HLS STREAM variable=mid type=pipo depth=2", ""), pingpong);
    assert_eq!(per_call("", "syn.directive.stream=pp mid type=pipo\n"), pingpong);
    assert_eq!(per_call("", "syn.directive.stream=pp mid type=fifo\n"), fifo);
}

/// Case 14's partition given by the project instead of the pragma: `syn.directive.array_partition`
/// (config) or `set_directive_array_partition` (Tcl) splits `mid` into rows just as well, so the
/// hand-worked figures (the longer of the two chains + 1) hold; with no partition at all the four
/// processes share one buffer and every call takes longer.
#[test]
fn a_partition_directive_splits_the_rows_as_the_pragma_does() {
    let case = repo().join("tests/cycle/14_dataflow_rows");
    let expected: Value = serde_json::from_str(&std::fs::read_to_string(case.join("expected.json")).unwrap()).unwrap();
    let want = counts(&expected["calls"]);
    let pragma = "#pragma HLS ARRAY_PARTITION variable=mid dim=1 complete\n";
    let kernel = std::fs::read_to_string(case.join("kernel.cpp")).unwrap();
    assert!(kernel.contains(pragma));
    let run = |project: &str, text: &str| {
        let dir = tempfile::tempdir().unwrap();
        for f in ["kernel.h", "tb.cpp", "csynth.xml"] {
            std::fs::copy(case.join(f), dir.path().join(f)).unwrap();
        }
        std::fs::write(dir.path().join("kernel.cpp"), kernel.replace(pragma, "")).unwrap();
        std::fs::write(dir.path().join(project), text).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_hlsinstr"))
            .args(["sim", "--quiet", "--format", "json", "--hls-include"])
            .arg(hls_include())
            .arg(dir.path().join(project))
            .arg("--csynth")
            .arg(dir.path().join("csynth.xml"))
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        (counts(&serde_json::from_slice::<Value>(&out.stdout).unwrap()["estimate"]["per_call"]), stderr)
    };
    let cfg = std::fs::read_to_string(case.join("hls_config.cfg")).unwrap();
    let (got, warnings) =
        run("hls_config.cfg", &format!("{cfg}syn.directive.array_partition=rows2 mid type=complete dim=1\n"));
    assert_eq!(got, want, "config directive");
    assert!(!warnings.contains("array_partition"), "the directive is used: {warnings}");
    let tcl = "open_project p\nset_top rows2\nadd_files kernel.cpp\nadd_files -tb tb.cpp\nopen_solution s1\n\
               set_directive_array_partition -type complete -dim 1 \"rows2\" mid\n";
    assert_eq!(run("run_hls.tcl", tcl).0, want, "Tcl directive");
    // A cyclic partition keeps the rows in one memory per bank: not a split of the rows.
    let (merged, _) =
        run("hls_config.cfg", &format!("{cfg}syn.directive.array_partition=rows2 mid type=cyclic factor=2 dim=2\n"));
    for (m, w) in merged.iter().zip(&want) {
        assert!(m > w, "one shared buffer chains all four processes: {merged:?} against {want:?}");
    }
}

/// Case 15 in detail: the copy into `shadow` (nothing reads it) is code Vitis removes, so its
/// row costs 0 and says why, and the port counts only the bytes `scale` reads (4 per trip over
/// n = 16 + 500 + 1024). Once something reads `shadow`, the same loop is a pipeline of n + 4
/// (its read of `in` on the chain) and its reads are traffic: the figures of the `why` (49,
/// 1017, 2065).
#[test]
fn a_copy_loop_into_an_array_nothing_reads_costs_nothing_and_moves_no_bytes() {
    let case = repo().join("tests/cycle/15_dead_copy");
    let rep = sim(&case, &["--no-csynth"]);
    validate_against_schema(&rep);
    let keep = rep["rows"].as_array().unwrap().iter().find(|r| r["name"] == "keep").unwrap();
    assert_eq!(keep["cycles"], 0, "{keep}");
    assert_eq!(keep["timing"]["removed"], "shadow");
    let port = |rep: &Value, name: &str| {
        rep["ports"].as_array().unwrap().iter().find(|p| p["name"] == name).unwrap()["bytes_read"].as_u64().unwrap()
    };
    assert_eq!(port(&rep, "in"), 4 * 1540);

    let dir = tempfile::tempdir().unwrap();
    for f in ["kernel.h", "tb.cpp", "hls_config.cfg"] {
        std::fs::copy(case.join(f), dir.path().join(f)).unwrap();
    }
    let kernel = std::fs::read_to_string(case.join("kernel.cpp")).unwrap();
    let end = "    out[i] = 3 * in[i] + 1;\n  }\n}\n";
    assert!(kernel.ends_with(end));
    let live = kernel.replace(end, "    out[i] = 3 * in[i] + 1;\n  }\n  if (n < 0) out[0] = shadow[0];\n}\n");
    std::fs::write(dir.path().join("kernel.cpp"), live).unwrap();
    let rep = sim(dir.path(), &["--no-csynth"]);
    assert_eq!(counts(&rep["estimate"]["per_call"]), [49, 1017, 2065]);
    assert_eq!(port(&rep, "in"), 8 * 1540);
}

/// Case 16 in detail: the fill in `init_ramp` is a ROM only because the project's
/// `syn.directive.inline` inlines the function (no pragma in the source); without the directive
/// the fill costs its pipeline (65 more per call: n + 70; `init_ramp`, called from one place, is
/// inlined by Vitis' default all the same, no handshake of its own, but only a pragma or directive
/// makes its fill the caller's table). The table derived from the `static const` one is a ROM
/// either way.
#[test]
fn without_a_report_tables_known_at_synthesis_cost_nothing() {
    let case = repo().join("tests/cycle/16_const_tables");
    let rep = sim(&case, &["--no-csynth"]);
    validate_against_schema(&rep);
    let row =
        |rep: &Value, name: &str| rep["rows"].as_array().unwrap().iter().find(|r| r["name"] == name).unwrap().clone();
    assert_eq!(row(&rep, "ramp")["timing"]["constant_table"], "tab");
    assert_eq!(row(&rep, "derive")["timing"]["constant_table"], "scaled");
    assert_eq!(row(&rep, "lut_mix")["timing"].get("initialisers"), None, "coef is static const: no initialiser module");

    let dir = tempfile::tempdir().unwrap();
    for f in ["kernel.cpp", "kernel.h", "tb.cpp"] {
        std::fs::copy(case.join(f), dir.path().join(f)).unwrap();
    }
    let cfg = std::fs::read_to_string(case.join("hls_config.cfg")).unwrap();
    assert!(cfg.contains("syn.directive.inline=init_ramp\n"));
    std::fs::write(dir.path().join("hls_config.cfg"), cfg.replace("syn.directive.inline=init_ramp\n", "")).unwrap();
    let rep = sim(dir.path(), &["--no-csynth"]);
    assert_eq!(counts(&rep["estimate"]["per_call"]), [86, 370, 1094]);
    assert_eq!(row(&rep, "derive")["cycles"], 0);
}

/// A stream class of a wrapper library (hlslib's `hlslib::Stream`: an `hls::stream` inside) is a
/// FIFO as `hls::stream` is: without a report, where the region model alone decides, case 19's
/// three processes overlap exactly as 05's do (n + 5: the pipelines of n + 1, n + 3 and n + 1
/// run side by side), not one after the other over a buffer (3n and more).
#[test]
fn a_wrapper_stream_class_is_a_fifo_channel() {
    let per_call = |case: &str| {
        let case = repo().join("tests/cycle").join(case);
        counts(&sim(&case, &["--no-csynth"])["estimate"]["per_call"])
    };
    let wrapped = per_call("20_stream_wrapper");
    assert_eq!(wrapped, per_call("05_dataflow_streams"));
    assert_eq!(wrapped, [69, 305, 1029], "n = 64, 300, 1024: n + 5");
}

/// A FIFO's tokens are read after they are written: in a dataflow region a consumer whose
/// first loop reads a stream its producer writes only in its second loop starts that loop when
/// the producer's second loop starts, and its later loops follow (the Xilinx deadlock
/// tutorial's `example`, public 2022.1 solution: co-sim 53 where its report's 34 overlaps
/// everything). Every loop here is an II-1 pipeline of n trips, so each adds n per call: with
/// `b` written in the producer's second loop the chain is `first` → `both` → `after`, three
/// loops in a row (3n); written in its first loop, the consumer overlaps that loop and the
/// chain is `both` → `after` (2n). Without the rule both came out 2n (the consumer could only
/// not end before its producer).
#[test]
fn a_stream_consumer_waits_for_the_producer_loop_that_writes_its_tokens() {
    let kernel = |b_in_second: bool| {
        let (first_b, second_b) = if b_in_second { ("", "b.write(in[i] * 3);") } else { ("b.write(in[i] * 3);", "") };
        format!(
            "#include \"hls_stream.h\"\n\
             static void produce(hls::stream<int> &a, hls::stream<int> &b, const int *in, int *side, int n) {{\n\
             first:\n  for (int i = 0; i < n; i++) {{\n#pragma HLS PIPELINE II=1\n    a.write(in[i]); {first_b}\n  }}\n\
             second:\n  for (int i = 0; i < n; i++) {{\n#pragma HLS PIPELINE II=1\n    side[i] = in[i] + 1; {second_b}\n  }}\n\
             }}\n\
             static void consume(hls::stream<int> &a, hls::stream<int> &b, int *out, int n) {{\n\
             both:\n  for (int i = 0; i < n; i++) {{\n#pragma HLS PIPELINE II=1\n    out[i] = a.read() + b.read();\n  }}\n\
             after:\n  for (int i = 0; i < n; i++) {{\n#pragma HLS PIPELINE II=1\n    out[n + i] = i;\n  }}\n\
             }}\n\
             void phases(const int in[64], int side[64], int out[128], int n) {{\n\
             #pragma HLS DATAFLOW\n\
             \x20 hls::stream<int> a, b;\n\
             #pragma HLS STREAM variable=a depth=64\n\
             #pragma HLS STREAM variable=b depth=64\n\
             \x20 produce(a, b, in, side, n);\n\
             \x20 consume(a, b, out, n);\n\
             }}\n"
        )
    };
    let tb = "void phases(const int in[64], int side[64], int out[128], int n);\n\
         int main() {\n\
         \x20   int in[64], side[64], out[128];\n\
         \x20   for (int i = 0; i < 64; i++) in[i] = i;\n\
         \x20   phases(in, side, out, 16);\n\
         \x20   phases(in, side, out, 48);\n\
         \x20   return out[47] == 47 * 4 ? 0 : 1;\n\
         }\n";
    let config = "part=xck26-sfvc784-2LV-c\n[hls]\nflow_target=vivado\nsyn.file=kernel.cpp\nsyn.top=phases\ntb.file=tb.cpp\nclock=10ns\n";
    let growth = |b_in_second: bool| {
        let dir = project_dir(&kernel(b_in_second), tb, config, &[]);
        let per_call = counts(&sim(dir.path(), &["--no-csynth"])["estimate"]["per_call"]);
        per_call[1] - per_call[0]
    };
    assert_eq!(growth(true), 3 * 32, "n 16 -> 48: first, both and after in a row");
    assert_eq!(growth(false), 2 * 32, "n 16 -> 48: both and after, beside first");
}

/// In the Vitis kernel flow the top's pointers and arrays are m_axi ports of the bundle `gmem`
/// without any INTERFACE pragma (UG1399 "Default Settings of Vivado/Vitis Flows"): their bytes
/// are counted and a `memcpy` from one is a bulk copy, exactly as with the pragmas written out.
/// Before, such a port was not counted (the public 2022.1 `accel` without its report: its 1280
/// weights copied for nothing, 297 cycles per call for co-sim's 3287; now 1580).
#[test]
fn the_kernel_flows_default_ports_count_as_the_pragmas_would() {
    let kernel = |pragmas: &str| {
        format!(
            "#include <cstring>\n\
             void k(const int *in, int *out) {{\n{pragmas}\
             \x20 int buf[256];\n\
             \x20 std::memcpy(buf, in, sizeof(buf));\n\
             \x20 for (int i = 0; i < 256; i++) out[i] = 2 * buf[i];\n\
             }}\n"
        )
    };
    let tb = "void k(const int *in, int *out);\n\
              int main() {\n  static int in[256], out[256];\n  for (int i = 0; i < 256; i++) in[i] = i;\n\
              \x20 k(in, out);\n  return out[7] != 14;\n}\n";
    let run = |pragmas: &str| {
        let config = "part=xck26-sfvc784-2LV-c\n[hls]\nflow_target=vitis\nsyn.file=kernel.cpp\nsyn.top=k\ntb.file=tb.cpp\nclock=10ns\n";
        let dir = project_dir(&kernel(pragmas), tb, config, &[]);
        let rep = sim(dir.path(), &["--no-csynth"]);
        (counts(&rep["estimate"]["per_call"])[0], rep["rows"].to_string())
    };
    let (implied, rows) = run("");
    let written =
        run("#pragma HLS INTERFACE m_axi port=in bundle=gmem\n#pragma HLS INTERFACE m_axi port=out bundle=gmem\n");
    assert_eq!(implied, written.0, "the defaults are the pragmas written out");
    assert!(implied > 256, "the copy of 256 words counts: {implied}");
    assert!(rows.contains("1024"), "the port's 1024 bytes are counted: {rows}");
}

/// An array on an s_axilite bundle is a memory of the bundle with one port for the kernel (the
/// other is the bus's): an iteration of a pipeline that reads its 8 words takes 8 cycles, where a
/// dual-port `ap_memory` array allows 4 (the public 2019.2 `fir_n11_maxi` and 2022.1
/// `fir_n11_strm`: 11 coefficients on the bundle, II 11 in their reports, 6 in the model
/// before). Per call grows by II per trip: 8 and 4 from n = 16 to 48.
#[test]
fn an_array_on_an_s_axilite_bundle_has_one_port_for_the_kernel() {
    let kernel = |pragma: &str| {
        format!(
            "void dot(const int c[8], const int x[64], int y[64], int n) {{\n{pragma}\
             \x20 for (int i = 0; i < n; i++) {{\n\
             #pragma HLS PIPELINE II=1\n\
             \x20   int acc = 0;\n\
             \x20   for (int k = 0; k < 8; k++) acc += c[k] * (k + 1);\n\
             \x20   y[i] = acc + x[i];\n\
             \x20 }}\n\
             }}\n"
        )
    };
    let tb = "void dot(const int c[8], const int x[64], int y[64], int n);\n\
              int main() {\n  int c[8], x[64], y[64];\n  for (int i = 0; i < 64; i++) x[i] = i;\n\
              \x20 for (int k = 0; k < 8; k++) c[k] = k;\n  dot(c, x, y, 16);\n  dot(c, x, y, 48);\n\
              \x20 return y[3] != 3 + 168;\n}\n";
    let growth = |pragma: &str| {
        let config = "part=xck26-sfvc784-2LV-c\n[hls]\nflow_target=vivado\nsyn.file=kernel.cpp\nsyn.top=dot\ntb.file=tb.cpp\nclock=10ns\n";
        let dir = project_dir(&kernel(pragma), tb, config, &[]);
        let per_call = counts(&sim(dir.path(), &["--no-csynth"])["estimate"]["per_call"]);
        per_call[1] - per_call[0]
    };
    assert_eq!(growth("#pragma HLS INTERFACE s_axilite port=c\n"), 32 * 8);
    assert_eq!(growth(""), 32 * 4, "ap_memory: two ports");
}

/// Without a report the m_axi latency is the one the project's flow target makes Vitis schedule
/// for (UG1399 "Default Settings of Vivado/Vitis Flows": `syn.interface.m_axi_latency` 0 for the
/// Vivado IP flow, 64 for the Vitis kernel flow), as with a report it is the report's: the RTL
/// waits for the bus as its schedule does, not for a board's DRAM. A project that names no flow
/// target keeps the board's 580 ns (HLScope's). Four words read by a callee: its time is the
/// DRAM floor with the board's latency (58 cycles at 10 ns), 64 with the Vitis flow's, and its
/// few cycles of loop with the Vivado flow's.
#[test]
fn without_a_report_the_flow_targets_m_axi_latency_replaces_the_boards() {
    let kernel = "static void load(const int *in, int buf[4]) {\n\
         \x20   for (int i = 0; i < 4; i++) buf[i] = in[i];\n\
         }\n\
         void few_words(const int *in, int *out) {\n\
         #pragma HLS INTERFACE m_axi port=in bundle=gmem0 depth=4\n\
         #pragma HLS INTERFACE m_axi port=out bundle=gmem1 depth=1\n\
         \x20   int buf[4];\n\
         \x20   load(in, buf);\n\
         \x20   out[0] = buf[0] + buf[1] + buf[2] + buf[3];\n\
         }\n";
    let tb = "void few_words(const int *in, int *out);\n\
         int main() {\n\
         \x20   int in[4] = {1, 2, 3, 4}, out[1] = {0};\n\
         \x20   few_words(in, out);\n\
         \x20   return out[0] == 10 ? 0 : 1;\n\
         }\n";
    let run = |flow: Option<&str>| {
        let line = flow.map_or(String::new(), |f| format!("flow_target={f}\n"));
        let config = format!(
            "part=xck26-sfvc784-2LV-c\n[hls]\n{line}syn.file=kernel.cpp\nsyn.top=few_words\ntb.file=tb.cpp\nclock=10ns\n"
        );
        let dir = project_dir(kernel, tb, &config, &[]);
        let rep = sim(dir.path(), &["--no-csynth"]);
        validate_against_schema(&rep);
        let per_call = counts(&rep["estimate"]["per_call"]);
        (per_call[0], rep["dram"]["latency_ns"].as_f64().unwrap(), rep["dram"]["source"].as_str().unwrap().to_string())
    };
    let (board, board_ns, board_src) = run(None);
    let (vivado, vivado_ns, vivado_src) = run(Some("vivado"));
    let (vitis, vitis_ns, vitis_src) = run(Some("vitis"));
    assert_eq!((board_ns, board_src.as_str()), (580.0, "default"));
    assert_eq!((vivado_ns, vivado_src.as_str()), (0.0, "project"));
    assert_eq!((vitis_ns, vitis_src.as_str()), (640.0, "project"));
    assert!(
        vivado + 30 < board,
        "the Vivado flow schedules for latency 0: the top's and loop's cycles, no DRAM wait ({vivado})"
    );
    assert!(board >= 58 && vitis >= 64 && vitis > board, "board {board}, Vitis flow {vitis}");
}

/// A Vivado HLS report (2018.3 layout, as a public SHA3-256 design's) of a top `pq_ref_top`
/// (latency left open: `fill`'s loop runs n times) that instantiates `pq_ref_fill` and whose
/// own `Loop 1` is the copy loop of `squeeze`, inlined into it; `pq_ref_fill`'s own file gives
/// its loop's iteration latency.
fn sha3_like_reports() -> [(&'static str, String); 2] {
    let head = |module: &str| {
        format!(
            "\n\n================================================================\n== Vivado HLS Report for '{module}'\n\
             ================================================================\n* Date:           Sun Apr 18 23:59:07 2021\n\n\
             * Version:        2018.3 (Build 2405991 on Thu Dec 06 23:56:15 MST 2018)\n* Project:        proj\n\
             * Solution:       solution1\n* Product family: artix7l\n* Target device:  xc7a75tlftg256-2l\n\n\n\
             ================================================================\n== Performance Estimates\n\
             ================================================================\n+ Latency (clock cycles): \n    * Summary: \n\
             \x20   +-----+-----+-----+-----+---------+\n    |  Latency  |  Interval | Pipeline|\n\
             \x20   | min | max | min | max |   Type  |\n    +-----+-----+-----+-----+---------+\n\
             \x20   |    ?|    ?|    ?|    ?|   none  |\n    +-----+-----+-----+-----+---------+\n\n\
             \x20   + Detail: \n"
        )
    };
    let loops = |row: &str| {
        format!(
            "        * Loop: \n\
             \x20       +----------+-----+-----+----------+-----------+-----------+------+----------+\n\
             \x20       |          |  Latency  | Iteration|  Initiation Interval  | Trip |          |\n\
             \x20       | Loop Name| min | max |  Latency |  achieved |   target  | Count| Pipelined|\n\
             \x20       +----------+-----+-----+----------+-----------+-----------+------+----------+\n\
             \x20       |- Loop 1  |{row}|    no    |\n\
             \x20       +----------+-----+-----+----------+-----------+-----------+------+----------+\n\n\n"
        )
    };
    let top = format!(
        "{}        * Instance: \n\
         \x20       +-----------------------+-------------+-----+-----+-----+-----+---------+\n\
         \x20       |                       |             |  Latency  |  Interval | Pipeline|\n\
         \x20       |        Instance       |    Module   | min | max | min | max |   Type  |\n\
         \x20       +-----------------------+-------------+-----+-----+-----+-----+---------+\n\
         \x20       |grp_pq_ref_fill_fu_40  |pq_ref_fill  |    ?|    ?|    ?|    ?|   none  |\n\
         \x20       +-----------------------+-------------+-----+-----+-----+-----+---------+\n\n{}",
        head("pq_ref_top"),
        loops("   48|   48|         3|          -|          -|    16")
    );
    let fill = format!(
        "{}        * Instance: \n        N/A\n\n{}",
        head("pq_ref_fill"),
        loops("    ?|    ?|         2|          -|          -|     ?")
    );
    [("pq_ref_top_csynth.rpt", top), ("pq_ref_fill_csynth.rpt", fill)]
}

/// A Vivado HLS project as the public SHA3-256 one is laid out (`proj/solution1/script.tcl`,
/// bare `add_files` in `proj/`, the reports where Vivado HLS writes them), its kernel `kernel.c`
/// and header `kernel.h`; per-call cycles and stderr of `sim` on it (`extra`: more arguments).
fn run_sha3_like(kernel: &str, header: &str, extra: &[&str]) -> (Vec<u64>, String) {
    let tb = "#include \"kernel.h\"\nint main(void) {\n  int out[64] = {0};\n  pq_ref_top(out, 5);\n  pq_ref_top(out, 9);\n  \
              return out[2] == 6 ? 0 : 1;\n}\n";
    let ws = vivado_hls_project(
        "pq_ref_top",
        &[("kernel.c", kernel), ("kernel.h", header), ("tb.c", tb)],
        &sha3_like_reports(),
        "set_part {xc7a75tlftg256-2l}\ncreate_clock -period 10 -name default\nset_directive_unroll \"pq_ref_top/copy\"\n",
    );
    let (rep, stderr) = sim_script(ws.path(), extra);
    (counts(&rep["estimate"]["per_call"]), stderr)
}

/// A Vivado HLS project laid out as the public ones are (`proj/solution1/script.tcl`, bare
/// `add_files` in `proj/`, the reports where Vivado HLS writes them): `sources` each added (a
/// name starting with `tb` as the testbench), `solution` the script's lines after
/// `open_solution` (part, clock, directives).
fn vivado_hls_project(
    top: &str,
    sources: &[(&str, &str)],
    reports: &[(&str, String)],
    solution: &str,
) -> tempfile::TempDir {
    let ws = tempfile::tempdir().unwrap();
    let proj = ws.path().join("proj");
    let dir = proj.join("solution1/syn/report");
    std::fs::create_dir_all(&dir).unwrap();
    let mut files = String::new();
    for (name, text) in sources {
        std::fs::write(proj.join(name), text).unwrap();
        files += &format!("add_files {}{name}\n", if name.starts_with("tb") { "-tb " } else { "" });
    }
    for (name, text) in reports {
        std::fs::write(dir.join(name), text).unwrap();
    }
    std::fs::write(
        proj.join("solution1/script.tcl"),
        format!(
            "############################################################\n\
             ## This file is generated automatically by Vivado HLS.\n\
             ############################################################\n\
             open_project proj\nset_top {top}\n{files}open_solution \"solution1\"\n{solution}"
        ),
    )
    .unwrap();
    ws
}

/// The kernel of [`run_sha3_like`], with `fill`, `squeeze` and `top` spelled as given.
fn sha3_like_kernel(fill: &str, top: &str) -> String {
    format!(
        "#include \"kernel.h\"\n\
         static void {fill}(int *a, int n) {{\n  for (int i = 0; i < n; i++) a[i] = i;\n}}\n\
         static void squeeze(int *out, int *a, int nblocks) {{\n  while (nblocks > 0) {{\n    \
         for (int i = 0; i < 16; i++) out[i] = a[i] * 3;\n    --nblocks;\n  }}\n}}\n\
         void {top}(int out[64], int n) {{\n  int a[64];\n  {fill}(a, n);\n  squeeze(out, a, 1);\n  \
         copy: for (int i = 0; i < 4; i++) out[16 + i] = a[i];\n}}\n"
    )
}

/// A function whose name is a macro for another (`#define sha3_256
/// pqcrystals_fips202_ref_sha3_256`, as the pqcrystals reference code names its functions) is
/// known to Vivado HLS by the expansion: `set_top`, the report's modules and files, the
/// directives. `sim` on the project alone (no `--top`, no `--csynth`) finds the top, its report
/// and the aliased `fill`'s module and applies the directive naming the top's expansion: the
/// same figures as the kernel written with the expanded names, with the report and without, and
/// with `--top` naming the top as written.
#[test]
fn a_function_named_through_a_macro_is_its_expansion_to_vivado() {
    let proto = "void pq_ref_top(int out[64], int n);\n";
    let aliases = "#define fill pq_ref_fill\n#define top_alias pq_ref_top\n#define top top_alias\n";
    let aliased = sha3_like_kernel("fill", "top");
    let plain = sha3_like_kernel("pq_ref_fill", "pq_ref_top");
    let header = format!("#ifndef KERNEL_H\n#define KERNEL_H\n{aliases}{proto}#endif\n");
    // `--top` as the source spells it finds the report named by the project's top.
    for extra in [&[][..], &["--no-csynth"][..], &["--top", "top"][..]] {
        let (got, warnings) = run_sha3_like(&aliased, &header, extra);
        let plain_extra = if extra.len() == 2 { &[][..] } else { extra };
        let (want, _) =
            run_sha3_like(&plain, &format!("#ifndef KERNEL_H\n#define KERNEL_H\n{proto}#endif\n"), plain_extra);
        assert_eq!(got, want, "{extra:?}: {warnings}");
        assert!(!warnings.contains("not used"), "the unroll directive names the top's expansion: {warnings}");
    }
    // Without the report, the directive is what makes `copy` cost nothing.
    let header = format!("#ifndef KERNEL_H\n#define KERNEL_H\n{aliases}{proto}#endif\n");
    let (unrolled, _) = run_sha3_like(&aliased, &header, &["--no-csynth"]);
    let (rolled, _) = run_sha3_like(&aliased.replace("copy: ", ""), &header, &["--no-csynth"]);
    assert!(rolled[0] > unrolled[0], "{rolled:?} against {unrolled:?}");
}

/// Vivado HLS numbers the loops of a function it inlined with the loops of the module it went
/// into (`sim::vivado_loops`): `squeeze` has no module, so its copy loop is the top's `Loop 1`
/// (16 trips of 3), and its `while (nblocks > 0)`, called with 1, is gone from the report (a
/// trip count of 1 after inlining: Vivado HLS removes the loop; the run shows one trip on every
/// entry, the report's `Loop 1` 16, which is the `for`'s). Per call: the top's own 2,
/// `pq_ref_fill`'s 2 + 2n (n = 5, 9: its own `Loop 1`, iteration latency 2), and 16 × 3 = 48:
/// 62 and 70. Unpaired, the copy loop counted as unrolled (14 and 22).
#[test]
fn vivado_hls_loops_of_an_inlined_function_are_numbered_in_its_callers_module() {
    let header = "#ifndef KERNEL_H\n#define KERNEL_H\nvoid pq_ref_top(int out[64], int n);\n#endif\n";
    let (got, warnings) = run_sha3_like(&sha3_like_kernel("pq_ref_fill", "pq_ref_top"), header, &[]);
    assert_eq!(got, [62, 70], "{warnings}");
}

/// A Vitis HLS 2020.2 text report of the top `k` (written by hand, in that release's layout):
/// its summary row (latency, absolute latency, interval, pipeline type) and its loop rows.
fn report_2020_2(summary: &str, loops: &[&str]) -> String {
    module_report(&VITIS_2020_2, "k", summary, &[], loops)
}

/// A module whose latency is a range and whose every child the report times ran in a call (their
/// worst cases add up to the report's list) took its worst case's path: a loop under `if (init)`
/// is in the worst case (13) and not in the best (7), as the public 2020.2 `HLS_CISR_spmv_accel`
/// reports 19 ~ 24 around its `if (cmd_start)` loop of 4 and co-simulates at 24, then 19. Here
/// `Init` sits in a helper the report inlined (no module): what it ran still counts as the
/// top's child. Best case plus what the run changed gave 7 on every call.
#[test]
fn a_call_that_runs_every_timed_child_takes_the_worst_case_path() {
    let report = report_2020_2(
        "|        7|       13|  70.000 ns|  0.130 us|    8|   14|     none|",
        &[
            "|- Init    |        5|        5|         2|          1|          1|     4|       yes|",
            "|- Sum     |        5|        5|         2|          1|          1|     4|       yes|",
        ],
    );
    let kernel = "static int acc[4];\n\
                  static void load(const int v[4]) {\n  Init: for (int i = 0; i < 4; i++) acc[i] = v[i];\n}\n\
                  void k(bool init, const int v[4], int *out) {\n\
                  \x20 if (init) load(v);\n\
                  \x20 int s = 0;\n  Sum: for (int i = 0; i < 4; i++) s += acc[i];\n  *out = s;\n}\n";
    let tb = "void k(bool init, const int v[4], int *out);\n\
              int main() { int v[4] = {1, 2, 3, 4}, o = 0; k(true, v, &o); k(false, v, &o); k(false, v, &o); return o == 10 ? 0 : 1; }\n";
    let config = "part=xc7z020-clg400-1\n[hls]\nsyn.file=kernel.cpp\nsyn.top=k\ntb.file=tb.cpp\nclock=10ns\n";
    let dir = project_dir(kernel, tb, config, &[("k_csynth.rpt", report.as_str())]);
    let csynth = dir.path().join("k_csynth.rpt");
    let e = sim(dir.path(), &["--csynth", csynth.to_str().unwrap()])["estimate"].clone();
    assert_eq!(counts(&e["per_call"]), [13, 7, 7], "worst case with Init, best case without");
}

/// A module whose timed children add up to more than its worst case runs them on paths that
/// exclude each other (the cases of a `switch`): the worst case is the longest case's, so a call
/// that ran a shorter case takes the best case (the path that runs no case) plus that case, not
/// the worst case's slack. Here 1 ~ 17 over `A` (8) and `B` (16): 9, 17 and 1; the slack gave 17
/// to the `A` call. The public 2016.4 `aes256cbc` (five modes, 1 ~ 2526) put its reset call at
/// the report's worst case this way.
#[test]
fn a_switch_whose_cases_time_different_loops_takes_the_best_case_plus_the_case_that_ran() {
    let report = report_2020_2(
        "|        1|       17|  10.000 ns|  0.170 us|    2|   18|     none|",
        &[
            "|- A       |        8|        8|         2|          -|          -|     4|        no|",
            "|- B       |       16|       16|         2|          -|          -|     8|        no|",
        ],
    );
    let kernel = "void k(int mode, const int v[8], int *out) {\n  int s = 0;\n  switch (mode) {\n  case 0:\n\
                  \x20 A: for (int i = 0; i < 4; i++) s += v[i];\n    break;\n  case 1:\n\
                  \x20 B: for (int i = 0; i < 8; i++) s += v[i];\n    break;\n  default:\n    break;\n  }\n  *out = s;\n}\n";
    let tb = "void k(int mode, const int v[8], int *out);\n\
              int main() { int v[8] = {1, 2, 3, 4, 5, 6, 7, 8}, a = 0, b = 0, c = 0;\n\
              \x20 k(0, v, &a); k(1, v, &b); k(2, v, &c); return a == 10 && b == 36 && c == 0 ? 0 : 1; }\n";
    let config = "part=xc7z020-clg400-1\n[hls]\nsyn.file=kernel.cpp\nsyn.top=k\ntb.file=tb.cpp\nclock=10ns\n";
    let dir = project_dir(kernel, tb, config, &[("k_csynth.rpt", report.as_str())]);
    let csynth = dir.path().join("k_csynth.rpt");
    let e = sim(dir.path(), &["--csynth", csynth.to_str().unwrap()])["estimate"].clone();
    assert_eq!(counts(&e["per_call"]), [9, 17, 1], "best case + the case that ran");
}

/// A Vivado HLS (2016.4 layout) report of `rounds`, whose latency the run's `n` leaves open:
/// its round loop `Loop 1` takes 18 ~ 24 an iteration (the inlined `mix`'s loop, `Loop 1.1`,
/// 8; the `step` module, 9; a state; and in the worst case the `expand` module, 5, and a
/// state), then `mix` runs again as `Loop 2` (8). `step` and `expand` have their own files.
fn rounds_reports() -> [(&'static str, String); 3] {
    let top = report_2016_4(
        "rounds",
        "    ?",
        &[
            "|grp_step_fu_40       |step     |    9|    9|    9|    9|   none  |",
            "|grp_expand_fu_48     |expand   |    5|    5|    5|    5|   none  |",
        ],
        "        |- Loop 1     |    ?|    ?|  18 ~ 24  |          -|          -|     ?|    no    |\n\
         \x20       | + Loop 1.1  |    8|    8|          2|          -|          -|     4|    no    |\n\
         \x20       |- Loop 2     |    8|    8|          2|          -|          -|     4|    no    |\n",
    );
    let step = "        |- Loop 1     |    8|    8|          2|          -|          -|     4|    no    |\n";
    let expand = "        |- Loop 1     |    4|    4|          2|          -|          -|     2|    no    |\n";
    [
        ("rounds_csynth.rpt", top),
        ("step_csynth.rpt", report_2016_4("step", "    9", &[], step)),
        ("expand_csynth.rpt", report_2016_4("expand", "    5", &[], expand)),
    ]
}

/// Two rules on a Vivado HLS round loop (the public 2016.4 `aes256cbc`'s AES rounds, shaped
/// small): (1) `mix`, inlined, runs in each round and once after the rounds, so its loop is
/// `Loop 1.1` and `Loop 2` in Vivado HLS' numbering; each call belongs to the level of the loop
/// around it, and the levels pair (before, the two call lines left both unpaired: every loop
/// counted as unrolled, 48 and 57). (2) The round loop's iteration latency is a range, 18 ~ 24:
/// the best round skips `expand`, which runs in the odd rounds only; each odd round adds its 5
/// (paired, before this rule, every round took the best case: 82 and 100). Per call: the top's
/// own 2, `Loop 1` n × 18 + 5 per odd round, `Loop 2` 8: n = 4 → 2 + 72 + 10 + 8 = 92; n = 5 →
/// 2 + 90 + 10 + 8 = 110.
#[test]
fn vivado_hls_round_loops_pair_per_level_and_their_iteration_range_counts_the_branch_that_ran() {
    let kernel = "#include \"kernel.h\"\n\
                  static void mix(int *b) {\n  for (int i = 0; i < 4; i++) b[i] ^= b[(i + 1) & 3];\n}\n\
                  void step(int *b, int k) {\n  for (int i = 0; i < 4; i++) b[i] += k;\n}\n\
                  void expand(int *k) {\n  for (int i = 0; i < 2; i++) *k = *k * 3 + 1;\n}\n\
                  void rounds(int b[4], int n) {\n  int k = 1;\n  for (int r = 0; r < n; r++) {\n    mix(b);\n    \
                  if (r & 1)\n      expand(&k);\n    step(b, k);\n  }\n  mix(b);\n}\n";
    let header = "#ifndef KERNEL_H\n#define KERNEL_H\nvoid rounds(int b[4], int n);\n#endif\n";
    let tb =
        "#include \"kernel.h\"\nint main(void) {\n  int b[4] = {1, 2, 3, 4};\n  rounds(b, 4);\n  rounds(b, 5);\n  \
              return 0;\n}\n";
    let ws = vivado_hls_project(
        "rounds",
        &[("kernel.c", kernel), ("kernel.h", header), ("tb.c", tb)],
        &rounds_reports(),
        Z8,
    );
    let (rep, stderr) = sim_script(ws.path(), &[]);
    assert_eq!(counts(&rep["estimate"]["per_call"]), [92, 110], "{stderr}");
}

/// Without a report, `unroll factor=N` on a loop of at most N trips (the same on every
/// execution) unrolls it fully: it is not pipelined by default, and a function whose only loops
/// are such adds no handshake (the public 2020.2 `HLS_CISR_spmv_accel`: its 2-trip loops under
/// `factor=4` are absent from the report, their functions inlined). So a factor of 4 on a
/// 2-trip loop costs what a full unroll does; a factor of 2 on a 4-trip loop stays a loop.
#[test]
fn without_a_report_an_unroll_factor_covering_the_trips_is_a_full_unroll() {
    let run = |pragma: &str, trips: u32| {
        let kernel = format!(
            "static void put(int a[8], int v) {{\n  for (int i = 0; i < {trips}; i++) {{\n#pragma HLS {pragma}\n    a[i] = v + i;\n  }}\n}}\n\
             int k(int v, int a[8]) {{\n  put(a, v);\n  return a[0];\n}}\n"
        );
        let tb = "int k(int v, int a[8]);\nint main() { int a[8] = {0}; return k(3, a) == 3 ? 0 : 1; }\n";
        let config = "part=xc7z020-clg400-1\n[hls]\nsyn.file=kernel.cpp\nsyn.top=k\ntb.file=tb.cpp\nclock=10ns\n";
        let dir = project_dir(&kernel, tb, config, &[]);
        counts(&sim(dir.path(), &["--no-csynth"])["estimate"]["per_call"])
    };
    let full = run("unroll", 2);
    assert_eq!(run("unroll factor=4", 2), full, "a factor of 4 on 2 trips is a full unroll");
    assert_ne!(run("unroll factor=2", 4), run("unroll", 4), "a factor of 2 on 4 trips leaves a loop of 2");
}

/// Without a report, a function with nothing probed inside (no loop, no call) that keeps its
/// module runs its body's op chain after its handshake: `(int)(t * 0.034)` is a double multiply
/// (the literal is a double), `d * 0.0016` another after it, its `int` operand converted first:
/// 2 + 6 + 2 + 6 = 16, as the public Vivado HLS 2019.1 `top` of acordobav/histogram_equalization
/// (the same two multiplies and the conversions between them: 15 in its report and
/// co-simulation; 14 before the conversion was counted). The handshake alone gave 2.
#[test]
fn without_a_report_a_straight_line_function_runs_its_op_chain() {
    let kernel = "void top(int echo, double t, int *dist, double *volt) {\n\
                  \x20 *dist = 0;\n  *volt = 0.0;\n\
                  \x20 if (echo == 1) {\n    *dist = (int)(t * 0.034);\n    *volt = *dist * 0.0016;\n  }\n}\n";
    let tb = "void top(int echo, double t, int *dist, double *volt);\n\
              int main() { int d; double v; top(1, 300.0, &d, &v); top(1, 600.0, &d, &v); return d == 20 ? 0 : 1; }\n";
    let config = "part=xc7z020-clg400-1\n[hls]\nsyn.file=kernel.cpp\nsyn.top=top\ntb.file=tb.cpp\nclock=10ns\n";
    let dir = project_dir(kernel, tb, config, &[]);
    assert_eq!(counts(&sim(dir.path(), &["--no-csynth"])["estimate"]["per_call"]), [16, 16]);
}

/// Without a report, a pipelined loop in a project of Vivado HLS (or Vitis before 2021) is states
/// of its function, with no `_Pipeline_` module around it: 2 cycles less a run than the same
/// project under Vitis 2022 (rule 3's module), for a function with more than that loop (two
/// loops here; one alone is its function's module under Vitis too). Per call, two loops of
/// `(n − 1) + (depth 2 − 1)`, + 2 each for the module under Vitis, + 2 for the top's handshake.
/// Vivado HLS gives each pipeline 2 exit states instead and a function of loops no handshake
/// (`without_a_report_vivado_hls_loops_exit_in_states_of_their_own`): 2 × (n + 2).
#[test]
fn without_a_report_an_older_tool_keeps_a_pipelined_loop_in_its_function() {
    let kernel = "void k(int a[64], int n) {\n  for (int i = 0; i < n; i++) {\n#pragma HLS PIPELINE II=1\n    a[i] = a[i] + 1;\n  }\n\
                  \x20 for (int i = 0; i < n; i++) {\n#pragma HLS PIPELINE II=1\n    a[i] = a[i] + 1;\n  }\n}\n";
    let tb =
        "void k(int a[64], int n);\nint main() { int a[64] = {0}; k(a, 16); k(a, 40); return a[0] == 4 ? 0 : 1; }\n";
    let per_call =
        |tool: &str, year: u32| counts(&sim_tool_script(kernel, tb, "k", tool, year)["estimate"]["per_call"]);
    assert_eq!(per_call("Vitis", 2022), [38, 86]);
    assert_eq!(per_call("Vitis", 2020), [34, 82]);
    assert_eq!(per_call("Vivado", 2019), [36, 84]);
}

/// Without a report, a pipelined loop's II is what its memory ports allow (issue 16; the public
/// Vivado HLS 2016.4 `matrixmul_5b`: II 6 for a target of 1). An iteration of the flattened
/// `i`/`j` nest (16 trips) reads a row of A (`a[i][k]`, `i` in 0..3), four rows of B
/// (`a[k + 4][j]`, rows 4..7) and writes a row of C (`a[i + 8][j]`, rows 8..11), all in the
/// one single-port array `a` (`RAM_1P`). In 5 blocks of 3 rows (a directive's `block factor=5`),
/// bank 1 (rows 3..5) can receive the 4 reads of A and those of rows 4 and 5: 6 accesses, II 6,
/// and the depth holds the 6 states: (16 − 1) × 6 + 6 + 2 (top) = 98, the top of plain ports
/// holding its one pipeline without a `_Pipeline_` module (seventeenth round, `divide_sum`).
/// Without the partition, 9 accesses of one memory: 15 × 9 + 9 + 2 = 146; with two ports
/// (no storage pragma) ceil(9 / 2) = 5: 15 × 5 + 5 + 2 = 82. The II of 1 gave 17.
#[test]
fn without_a_report_a_pipelined_loop_waits_for_its_memory_ports() {
    let kernel = "#define DIM 4\nvoid mm(int a[3 * DIM][DIM]) {\n#pragma HLS RESOURCE variable=a core=RAM_1P_BRAM\n\
                  \x20 for (int i = 0; i < DIM; i++) {\n    for (int j = 0; j < DIM; j++) {\n#pragma HLS PIPELINE\n      \
                  int tmp = 0;\n      for (int k = 0; k < DIM; k++) tmp += a[i][k] * a[k + DIM][j];\n      \
                  a[i + 2 * DIM][j] = tmp;\n    }\n  }\n}\n";
    let tb = "void mm(int a[12][4]);\nint main() { int a[12][4] = {{0}}; a[0][0] = 2; a[4][0] = 3; mm(a); mm(a);\n\
              return a[8][0] == 6 ? 0 : 1; }\n";
    let config = &vivado_flow("mm");
    let partition = "syn.directive.array_partition=mm a type=block factor=5 dim=1\n";
    let run = |kernel: &str, config: &str| {
        let dir = project_dir(kernel, tb, config, &[]);
        counts(&sim(dir.path(), &["--no-csynth"])["estimate"]["per_call"])
    };
    assert_eq!(run(kernel, &format!("{config}{partition}")), [98, 98]);
    assert_eq!(run(kernel, config), [146, 146]);
    let dual = kernel.replace("#pragma HLS RESOURCE variable=a core=RAM_1P_BRAM\n", "");
    assert_eq!(run(&dual, config), [82, 82]);
}

/// Without a report, a 32-bit integer multiply on a chain takes its register stages at the
/// project's clock: one at 10 ns, four and the add after it in a state of its own at 5 ns on a
/// 7-series part (the public Vivado HLS 2019.2 `matrixmul` at 5 ns: its product loop's
/// iteration is 8, two states, the read, five of the multiply and one of the add). A
/// `PIPELINE off` loop of `s += a[i] * b[i]`: n × (2 + 1) + 2 at 10 ns (the multiply's first
/// stage in the reads' data state, as 2017.4's UG871 `fir`), n × (2 + 1 + 5) + 2 at 5 ns; on an
/// UltraScale+ part the 10 ns figure.
#[test]
fn without_a_report_a_wide_multiply_takes_more_states_at_a_faster_clock() {
    let kernel = "int dot(int a[64], int b[64], int n) {\n  int s = 0;\n  for (int i = 0; i < n; i++) {\n\
                  #pragma HLS PIPELINE off\n    s += a[i] * b[i];\n  }\n  return s;\n}\n";
    let tb = "int dot(int a[64], int b[64], int n);\nint main() { int a[64] = {1}, b[64] = {2};\n\
              return dot(a, b, 16) + dot(a, b, 40) == 4 ? 0 : 1; }\n";
    let run = |part: &str, clock: &str| {
        let config = format!("part={part}\n[hls]\nsyn.file=kernel.cpp\nsyn.top=dot\ntb.file=tb.cpp\nclock={clock}\n");
        let dir = project_dir(kernel, tb, &config, &[]);
        counts(&sim(dir.path(), &["--no-csynth"])["estimate"]["per_call"])
    };
    assert_eq!(run("xc7z020-clg400-1", "10ns"), [50, 122]);
    assert_eq!(run("xc7z020-clg400-1", "5ns"), [130, 322]);
    assert_eq!(run("xczu3eg-sbva484-1-e", "5ns"), [50, 122]);
    // The same through a typedef (`typedef int data_t;`, as most kernels spell their types):
    // the multiply of the integer it names, not a narrow one.
    let typed =
        kernel.replace("int s = 0;", "data_t s = 0;").replace("int a[64], int b[64]", "data_t a[64], data_t b[64]");
    let typed = format!("typedef int word;\ntypedef word data_t;\n{typed}");
    let config = "part=xc7z020-clg400-1\n[hls]\nsyn.file=kernel.cpp\nsyn.top=dot\ntb.file=tb.cpp\nclock=5ns\n";
    let tb_typed = tb.replace(
        "int dot(int a[64], int b[64], int n);",
        "typedef int data_t;\ndata_t dot(data_t a[64], data_t b[64], int n);",
    );
    let dir = project_dir(&typed.replace("int dot(", "data_t dot("), &tb_typed, config, &[]);
    assert_eq!(counts(&sim(dir.path(), &["--no-csynth"])["estimate"]["per_call"]), [130, 322]);
}

/// A Vivado HLS 2016.4 text report of `module` (written by hand, in that release's layout): its
/// latency (min = max = interval, as written in a 5-wide cell), its instance rows (none: `N/A`)
/// and its loop rows.
fn report_2016_4(module: &str, latency: &str, instances: &[&str], loops: &str) -> String {
    let mut s = format!(
        "\n\n================================================================\n== Vivado HLS Report for '{module}'\n\
         ================================================================\n* Date:           Tue Mar 14 13:06:42 2017\n\n\
         * Version:        2016.4 (Build 1733598 on Wed Dec 14 22:59:20 MST 2016)\n* Project:        proj\n\
         * Solution:       solution1\n* Product family: zynq\n* Target device:  xc7z020clg484-1\n\n\n\
         ================================================================\n== Performance Estimates\n\
         ================================================================\n+ Latency (clock cycles): \n    * Summary: \n\
         \x20   +-----+-----+-----+-----+---------+\n    |  Latency  |  Interval | Pipeline|\n\
         \x20   | min | max | min | max |   Type  |\n    +-----+-----+-----+-----+---------+\n\
         \x20   |{latency}|{latency}|{latency}|{latency}|   none  |\n    +-----+-----+-----+-----+---------+\n\n\
         \x20   + Detail: \n        * Instance: \n"
    );
    if instances.is_empty() {
        s += "        N/A\n\n";
    } else {
        let rule = "        +---------------------+---------+-----+-----+-----+-----+---------+\n";
        s += rule;
        s += "        |                     |         |  Latency  |  Interval | Pipeline|\n";
        s += "        |       Instance      |  Module | min | max | min | max |   Type  |\n";
        s += rule;
        for row in instances {
            s += &format!("        {row}\n");
        }
        s += rule;
        s += "\n";
    }
    s += "        * Loop: \n\
          \x20       +-------------+-----+-----+-----------+-----------+-----------+------+----------+\n\
          \x20       |             |  Latency  | Iteration |  Initiation Interval  | Trip |          |\n\
          \x20       |  Loop Name  | min | max |  Latency  |  achieved |   target  | Count| Pipelined|\n\
          \x20       +-------------+-----+-----+-----------+-----------+-----------+------+----------+\n";
    s += loops;
    s += "        +-------------+-----+-----+-----------+-----------+-----------+------+----------+\n\n\n";
    s
}

/// A loop whose iteration latency is a range and whose body calls one function from two
/// separate branches (the public 2021.2 `Radix2wECC`'s `bf_mult`: `if (tmp[163]) bf_add(..);
/// if (y[i]) bf_add(..);` in a loop of 162 iterations, 4 ~ 342 each). The best path through
/// `twice`'s body skips both `if`s, so no `step` is in the best iteration (2) and each of the
/// 2(n − 1) runs adds what the report counts for `step` (9). Per call: the top's own 2 + n × 2 +
/// 2(n − 1) × 9: n = 3 → 2 + 6 + 36 = 44; n = 4 → 2 + 8 + 54 = 64. Before, a function that ran
/// at least as often as the loop iterated was taken to be in every iteration's best case: 8 and
/// 10. (A function both arms of an `if`/`else` call stays inside it: the public 2016.4
/// `aes256cbc` rounds, `vivado_hls_round_loops_pair_per_level_...` above.)
#[test]
fn a_function_called_from_two_separate_branches_of_a_loop_is_outside_its_best_iteration() {
    let top = report_2016_4(
        "twice",
        "    ?",
        &["|grp_step_fu_40       |step     |    9|    9|    9|    9|   none  |"],
        "        |- Loop 1     |    ?|    ?|   2 ~ 20  |          -|          -|     ?|    no    |\n",
    );
    let step = report_2016_4(
        "step",
        "    9",
        &[],
        "        |- Loop 1     |    8|    8|          2|          -|          -|     4|    no    |\n",
    );
    let kernel = "#include \"kernel.h\"\n\
                  void step(int *b, int k) {\n  for (int i = 0; i < 4; i++) b[i] += k;\n}\n\
                  void twice(int b[4], int n) {\n  for (int r = 0; r < n; r++) {\n    if (r != 0)\n      step(b, 1);\n    \
                  if (r != n - 1)\n      step(b, 2);\n  }\n}\n";
    let header = "#ifndef KERNEL_H\n#define KERNEL_H\nvoid twice(int b[4], int n);\n#endif\n";
    let tb = "#include \"kernel.h\"\nint main(void) {\n  int b[4] = {1, 2, 3, 4};\n  twice(b, 3);\n  twice(b, 4);\n  \
              return 0;\n}\n";
    let ws = vivado_hls_project(
        "twice",
        &[("kernel.c", kernel), ("kernel.h", header), ("tb.c", tb)],
        &[("twice_csynth.rpt", top), ("step_csynth.rpt", step)],
        Z8,
    );
    let (rep, stderr) = sim_script(ws.path(), &[]);
    assert_eq!(counts(&rep["estimate"]["per_call"]), [44, 64], "{stderr}");
}

/// A loop whose iteration latency is a range and whose body runs a nested loop only in an `if`
/// (the public 2016.4 `sha256`'s `while (n)`, 4 ~ 28228 an iteration: a 64-byte copy loop of
/// 128 cycles only when a full block is left). The report's best iteration (2) skips the inner
/// loop (8): a child the report counts at more than the best iteration cannot be inside it, so
/// each run of it adds its 8, also when it ran in every iteration. `blocks(b, 3, 1)`: the top's
/// own 2 + 3 × 2 + 3 × 8 = 32; `blocks(b, 3, 0)`: 2 + 6 = 8. Before, a loop that ran in every
/// iteration was taken to be inside the best one: 8 and 8.
#[test]
fn a_nested_loop_longer_than_the_best_iteration_is_outside_it_even_when_it_ran_every_time() {
    let top = report_2016_4(
        "blocks",
        "    ?",
        &[],
        "        |- Loop 1     |    ?|    ?|   2 ~ 11  |          -|          -|     ?|    no    |\n\
         \x20       | + Loop 1.1  |    8|    8|          2|          -|          -|     4|    no    |\n",
    );
    let kernel = "#include \"kernel.h\"\n\
                  void blocks(int b[4], int n, int full) {\n  for (int r = 0; r < n; r++) {\n    if (full) {\n      \
                  for (int i = 0; i < 4; i++)\n        b[i] ^= r;\n    }\n    b[0] += r;\n  }\n}\n";
    let header = "#ifndef KERNEL_H\n#define KERNEL_H\nvoid blocks(int b[4], int n, int full);\n#endif\n";
    let tb = "#include \"kernel.h\"\nint main(void) {\n  int b[4] = {1, 2, 3, 4};\n  blocks(b, 3, 1);\n  \
              blocks(b, 3, 0);\n  return 0;\n}\n";
    let ws = vivado_hls_project(
        "blocks",
        &[("kernel.c", kernel), ("kernel.h", header), ("tb.c", tb)],
        &[("blocks_csynth.rpt", top)],
        Z8,
    );
    let (rep, stderr) = sim_script(ws.path(), &[]);
    assert_eq!(counts(&rep["estimate"]["per_call"]), [32, 8], "{stderr}");
}

/// Without a report, an iteration of a loop that is not pipelined waits for its memory ports: a
/// message schedule `m[i] = m[i-2] + m[i-7] + m[i-15] + m[i-16]` reads one array four times and
/// writes it once an iteration, 5 accesses on its 2 ports: 3 states, then the last read's data,
/// 4 an iteration (the public Vivado HLS 2016.4 `sha256`'s `Loop 2` of 48 trips: 192 in its
/// report). A local array counts as a parameter does. The first loop's 16 stores take the
/// default 2 each: 2 + 32 + 48 × 4 = 226; before, the schedule loop took 3 an iteration (the
/// default 2 and its chain of adds): 178.
#[test]
fn without_a_report_an_iteration_waits_for_its_memory_ports() {
    let kernel = "void sched(int out[64], int seed) {\n  int m[64];\n  for (int i = 0; i < 16; i++) {\n\
                  #pragma HLS PIPELINE off\n    m[i] = seed + i;\n  }\n  for (int i = 16; i < 64; i++) {\n\
                  #pragma HLS PIPELINE off\n    m[i] = m[i - 2] + m[i - 7] + m[i - 15] + m[i - 16];\n  }\n  \
                  out[0] = m[63];\n}\n";
    let tb = "void sched(int out[64], int seed);\nint main() { int out[64]; sched(out, 3); return out[0] == 0; }\n";
    let config = "part=xc7z020-clg400-1\n[hls]\nsyn.file=kernel.cpp\nsyn.top=sched\ntb.file=tb.cpp\nclock=8ns\n";
    let dir = project_dir(kernel, tb, config, &[]);
    let rep = sim(dir.path(), &["--no-csynth"]);
    assert_eq!(counts(&rep["estimate"]["per_call"]), [226], "the schedule loop at 4 an iteration");
}

/// Calls of one straight line that share no data start together and run side by side (the public
/// Vitis HLS 2021.2 `Radix2wECC`'s schedules start `bf_inv`'s two `vec_degree` pipelines in one
/// state, its two `bf_add`s in another); a call that reads what an earlier one writes waits for
/// it. Without a report, `PIPELINE off` loops of `TC × (2 + chain)`: `fill(a, n)` 2 + 2n,
/// `clear(b, 2n)` 2 + 4n, `copy(a, c, n)` 2 + 2n (its read is in the 2). `clear` writes only
/// `b`, so it runs beside `fill`; `copy` reads `a`, so it starts when `fill` ends (2 + 2n) and
/// ends at 4 + 4n, past `clear`. The top's handshake 2: 6 + 4n, 22 and 38 for n = 4, 8; one
/// after the other 8 + 8n: 40, 72.
#[test]
fn independent_calls_of_a_straight_line_run_side_by_side_and_a_dependent_one_waits() {
    // INLINE off keeps each a module of its own, which Vitis would otherwise inline (each is
    // called from one place: `without_a_report_a_function_called_from_one_place_is_inlined`).
    let body = |k: &str| {
        format!("#pragma HLS INLINE off\n  for (int i = 0; i < n; i++) {{\n#pragma HLS PIPELINE off\n    {k}\n  }}\n")
    };
    let kernel = format!(
        "void fill(int a[16], int n) {{\n{}}}\nvoid clear(int b[16], int n) {{\n{}}}\n\
         void copy(const int a[16], int c[16], int n) {{\n{}}}\n\
         void top(int a[16], int b[16], int c[16], int n) {{\n  fill(a, n);\n  clear(b, 2 * n);\n  copy(a, c, n);\n}}\n",
        body("a[i] = i;"),
        body("b[i] = 0;"),
        body("c[i] = a[i];")
    );
    let tb = "void top(int a[16], int b[16], int c[16], int n);\n\
              int main() { int a[16], b[16], c[16]; top(a, b, c, 4); top(a, b, c, 8); return c[7] == 7 ? 0 : 1; }\n";
    let config = "part=xc7z020-clg400-1\n[hls]\nsyn.file=kernel.cpp\nsyn.top=top\ntb.file=tb.cpp\nclock=10ns\n";
    let dir = project_dir(&kernel, tb, config, &[]);
    let rep = sim(dir.path(), &["--no-csynth"]);
    assert_eq!(counts(&rep["estimate"]["per_call"]), [22, 38], "{rep:#}");
}

/// Two calls that only read one array still take turns: the memory's ports serve one module at
/// a time (UG1448 "Memory Port Contention"). `sum_a` and `sum_b` are the same `PIPELINE off`
/// loop over their array and a store of the sum (2 + 2n each, without a report); reading `a`
/// and `b` they run side by side (the top's handshake 2 and one call), both reading `a` one
/// after the other (one call more).
#[test]
fn calls_reading_one_array_take_turns_on_its_ports() {
    let body =
        "#pragma HLS INLINE off\n  int acc = 0;\n  for (int i = 0; i < n; i++) {\n#pragma HLS PIPELINE off\n    \
                acc += a[i];\n  }\n  *s = acc;\n";
    let run = |second: &str| {
        let kernel = format!(
            "void sum_a(const int a[16], int *s, int n) {{\n{body}}}\nvoid sum_b(const int a[16], int *s, int n) {{\n{body}}}\n\
             void top(const int a[16], const int b[16], int *s0, int *s1, int n) {{\n  sum_a(a, s0, n);\n  \
             sum_b({second}, s1, n);\n}}\n"
        );
        let tb = "void top(const int a[16], const int b[16], int *s0, int *s1, int n);\n\
                  int main() { int a[16] = {1}, b[16] = {2}, s0, s1; top(a, b, &s0, &s1, 4); top(a, b, &s0, &s1, 8); \
                  return s0 + s1 > 0 ? 0 : 1; }\n";
        let config = "part=xc7z020-clg400-1\n[hls]\nsyn.file=kernel.cpp\nsyn.top=top\ntb.file=tb.cpp\nclock=10ns\n";
        let dir = project_dir(&kernel, tb, config, &[]);
        let rep = sim(dir.path(), &["--no-csynth"]);
        let call =
            rep["rows"].as_array().unwrap().iter().find(|r| r["name"] == "sum_b").unwrap()["cycles"].as_u64().unwrap();
        (counts(&rep["estimate"]["per_call"]), call)
    };
    let (apart, sum_b) = run("b");
    assert_eq!(sum_b, 10 + 18, "each call 2 + 2n, for n = 4 and 8");
    assert_eq!(apart, [2 + 10, 2 + 18], "side by side: the handshake and one call");
    let (shared, sum_b) = run("a");
    assert_eq!(sum_b, 10 + 18);
    assert_eq!(shared, [2 + 2 * 10, 2 + 2 * 18], "one after the other");
}

/// The same rule with a report whose top latency is undefined (its cycles come from its
/// children): `fill` (17), `clear` (33) and `copy` (25) have fixed latencies; `clear` runs beside
/// `fill`, `copy` after `fill`: the top's own 2 + max(17 + 25, 33) = 44, where one after the other
/// they make 2 + 75 = 77.
#[test]
fn with_a_report_independent_calls_of_a_module_of_undefined_latency_run_side_by_side() {
    let module = |name: &str, latency: &str, label: &str, row: &str| {
        let loops = format!("        |- {label:<11}|{row}|    no    |\n");
        (format!("{name}_csynth.rpt"), report_2016_4(name, latency, &[], &loops))
    };
    let fill = module("fill", "   17", "Fill", "   16|   16|          2|          -|          -|     8");
    let clear = module("clear", "   33", "Clear", "   32|   32|          2|          -|          -|    16");
    let copy = module("copy", "   25", "Copy", "   24|   24|          3|          -|          -|     8");
    let top = report_2016_4(
        "top",
        "    ?",
        &[
            "|grp_fill_fu_40       |fill     |   17|   17|   17|   17|   none  |",
            "|grp_clear_fu_50      |clear    |   33|   33|   33|   33|   none  |",
            "|grp_copy_fu_60       |copy     |   25|   25|   25|   25|   none  |",
        ],
        "",
    );
    let kernel = "void fill(int a[16]) {\n  Fill: for (int i = 0; i < 8; i++) a[i] = i;\n}\n\
                  void clear(int b[16]) {\n  Clear: for (int i = 0; i < 16; i++) b[i] = 0;\n}\n\
                  void copy(const int a[16], int c[16]) {\n  Copy: for (int i = 0; i < 8; i++) c[i] = a[i];\n}\n\
                  void top(int a[16], int b[16], int c[16]) {\n  fill(a);\n  clear(b);\n  copy(a, c);\n}\n";
    let tb = "void top(int a[16], int b[16], int c[16]);\n\
              int main() { int a[16], b[16], c[16]; top(a, b, c); top(a, b, c); return c[7] == 7 ? 0 : 1; }\n";
    let config = "part=xc7z020-clg400-1\n[hls]\nsyn.file=kernel.cpp\nsyn.top=top\ntb.file=tb.cpp\nclock=10ns\n";
    let files =
        [(fill.0.as_str(), fill.1.as_str()), (clear.0.as_str(), clear.1.as_str()), (copy.0.as_str(), copy.1.as_str())];
    let dir = project_dir(kernel, tb, config, &[files[0], files[1], files[2], ("top_csynth.rpt", top.as_str())]);
    let csynth = dir.path().join("top_csynth.rpt");
    let rep = sim(dir.path(), &["--csynth", csynth.to_str().unwrap()]);
    assert_eq!(counts(&rep["estimate"]["per_call"]), [44, 44], "{rep:#}");
}

/// A C kernel's `memcpy`s of an m_axi port, timed from the run's byte counts (the C probes of
/// `--probes maxi`, probe_c.h): the public 2016.4 `aes256cbc` shaped small. Vivado HLS makes
/// each copy a pipelined loop of the module, `memcpy..mem` (read into a local) or `memcpy.mem.`
/// (written out), elements + 1 (32 bytes: 33; 16: 17). The top's latency is a range over a
/// `switch`, 1 ~ 50, so a call takes the best case plus what ran in it: mode 0 copies the key
/// (1 + 33), mode 1 the IV (1 + 17), mode 2 runs `L` (32) and writes the IV out (1 + 32 + 17),
/// mode 3 nothing (1), mode 4 three copies of 8 bytes in loop `C` (1 + 30: the loop's latency
/// holds them; its 24 bytes match no copy at the module's level, so they add nothing). Before the
/// C probes counted bytes nothing said which copy ran: 1, 1, 33, 1, 31.
fn c_copies_project(report: bool) -> tempfile::TempDir {
    let kernel = "#include <string.h>\n\
                  static unsigned char key[32], iv[16];\n\
                  void k(unsigned char *mem, int mode) {\n#pragma HLS INTERFACE m_axi depth=64 port=mem\n  \
                  int i;\n  unsigned char tmp[8];\n  switch (mode) {\n  case 0:\n    memcpy(key, mem, 32);\n    break;\n  case 1:\n    \
                  memcpy(iv, mem, 16);\n    break;\n  case 2:\n  L:\n    for (i = 0; i < 16; i++) iv[i] ^= key[i];\n    \
                  memcpy(mem + 32, iv, 16);\n    break;\n  case 4:\n  C:\n    for (i = 0; i < 3; i++) {\n      \
                  memcpy(tmp, mem + 8 * i, 8);\n      key[i] ^= tmp[i];\n    }\n    break;\n  }\n}\n";
    let tb = "void k(unsigned char *mem, int mode);\nint main(void) {\n  unsigned char mem[64];\n  int i;\n  \
              for (i = 0; i < 64; i++) mem[i] = (unsigned char)i;\n  for (i = 0; i < 5; i++) k(mem, i);\n  \
              return mem[32] == 0 && mem[47] == 0 ? 0 : 1;\n}\n";
    let row = |name: &str, latency: u32, iteration: u32, ii: &str, trips: u32, pipelined: &str| {
        format!(
            "        |- {name:<12}|{latency:>5}|{latency:>5}|{iteration:>11}|{ii:>11}|{ii:>11}|{trips:>6}|{pipelined:>6}    |\n"
        )
    };
    let rpt = format!(
        "\n\n================================================================\n== Vivado HLS Report for 'k'\n\
         ================================================================\n* Date:           Tue Mar 14 13:06:43 2017\n\n\
         * Version:        2016.4 (Build 1733598 on Wed Dec 14 22:59:20 MST 2016)\n* Project:        proj\n\
         * Solution:       solution1\n* Product family: zynq\n* Target device:  xc7z020clg484-1\n\n\n\
         ================================================================\n== Performance Estimates\n\
         ================================================================\n+ Latency (clock cycles): \n    * Summary: \n\
         \x20   +-----+-----+-----+-----+---------+\n    |  Latency  |  Interval | Pipeline|\n\
         \x20   | min | max | min | max |   Type  |\n    +-----+-----+-----+-----+---------+\n\
         \x20   |    1|   50|    2|   51|   none  |\n    +-----+-----+-----+-----+---------+\n\n\
         \x20   + Detail: \n        * Instance: \n        N/A\n\n        * Loop: \n\
         \x20       +--------------+-----+-----+-----------+-----------+-----------+------+----------+\n\
         \x20       |              |  Latency  | Iteration |  Initiation Interval  | Trip |          |\n\
         \x20       |   Loop Name  | min | max |  Latency  |  achieved |   target  | Count| Pipelined|\n\
         \x20       +--------------+-----+-----+-----------+-----------+-----------+------+----------+\n\
         {}{}{}{}{}{}\
         \x20       +--------------+-----+-----+-----------+-----------+-----------+------+----------+\n\n\n",
        row("memcpy..mem", 33, 3, "1", 32, "yes"),
        row("memcpy..mem", 17, 3, "1", 16, "yes"),
        row("L", 32, 2, "-", 16, "no"),
        row("memcpy.mem.", 17, 3, "1", 16, "yes"),
        row("C", 30, 10, "-", 3, "no"),
        row("memcpy..mem", 9, 3, "1", 8, "yes").replace("|- memcpy..mem ", "| + memcpy..mem"),
    );
    let reports = if report { vec![("k_csynth.rpt", rpt)] } else { Vec::new() };
    vivado_hls_project("k", &[("kernel.c", kernel), ("tb.c", tb)], &reports, Z8)
}

/// The part and clock of the Zynq projects above: a 7-series at 8 ns.
const Z8: &str = "set_part {xc7z020clg484-1}\ncreate_clock -period 8 -name default\n";

/// `sim --format json` of the project [`vivado_hls_project`] wrote in `ws`: the report and stderr.
fn sim_script(ws: &Path, extra: &[&str]) -> (Value, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_hlsinstr"))
        .args(["sim", "--quiet", "--format", "json", "--hls-include"])
        .arg(hls_include())
        .arg(ws.join("proj/solution1/script.tcl"))
        .args(extra)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{stderr}");
    (serde_json::from_slice(&out.stdout).unwrap(), stderr)
}

#[test]
fn a_c_kernels_m_axi_copies_take_the_reports_copy_loop_that_ran() {
    let ws = c_copies_project(true);
    let (rep, stderr) = sim_script(ws.path(), &[]);
    assert!(!stderr.contains("not counted in C files"), "{stderr}");
    assert_eq!(counts(&rep["estimate"]["per_call"]), [34, 18, 50, 1, 31], "{stderr}");
}

/// Without a report the same copies cost their elements + 1 under Vivado HLS (a loop of the
/// module, no `_Pipeline_` module around it: the report above): mode 0 is 33 above mode 3,
/// mode 1 17 above it.
#[test]
fn without_a_report_a_vivado_hls_copy_costs_its_elements_plus_one() {
    let ws = c_copies_project(false);
    let (rep, stderr) = sim_script(ws.path(), &["--no-csynth"]);
    let calls = counts(&rep["estimate"]["per_call"]);
    assert_eq!((calls[0] - calls[3], calls[1] - calls[3]), (33, 17), "{calls:?} {stderr}");
}

/// The same rule in a C++ kernel under Vitis, whose copies are `<top>_Pipeline_<N>` modules
/// (`tests/cycle/01_memcpy_local`, its 2022.2 report made a range, 273 ~ 791, as if its copies
/// could be skipped, and the kernel returning early when `gain` is 0): a call that copies takes
/// the best case's own 13 beside the modules that ran, 259 + 260 + 259 (791); a call that returns
/// early runs none (273, the best case). Without the rule the copies counted nothing: 273, 273.
#[test]
fn a_cpp_kernels_copy_modules_count_where_the_report_leaves_the_latency_open() {
    let case = repo().join("tests/cycle/01_memcpy_local");
    let tmp = tempfile::tempdir().unwrap();
    for f in ["kernel.h", "hls_config.cfg"] {
        std::fs::copy(case.join(f), tmp.path().join(f)).unwrap();
    }
    let kernel = std::fs::read_to_string(case.join("kernel.cpp")).unwrap();
    let early = "  int buf[VS_N];\n";
    assert!(kernel.contains(early));
    std::fs::write(
        tmp.path().join("kernel.cpp"),
        kernel.replacen(early, &format!("  if (gain == 0)\n    return;\n{early}"), 1),
    )
    .unwrap();
    let tb = "#include \"kernel.h\"\nint main() {\n  static int in[VS_N], out[VS_N];\n  for (int i = 0; i < VS_N; i++) in[i] = i;\n  \
              vscale(in, out, 3);\n  vscale(in, out, 0);\n  return out[2] == 6 ? 0 : 1;\n}\n";
    std::fs::write(tmp.path().join("tb.cpp"), tb).unwrap();
    let xml = std::fs::read_to_string(case.join("csynth.xml")).unwrap();
    let report = tmp.path().join("csynth.xml");
    std::fs::write(
        &report,
        xml.replace("<Best-caseLatency>791</Best-caseLatency>", "<Best-caseLatency>273</Best-caseLatency>"),
    )
    .unwrap();
    let e = sim(tmp.path(), &["--csynth", report.to_str().unwrap()])["estimate"].clone();
    assert_eq!(counts(&e["per_call"]), [791, 273]);
}

/// A 2022.1-style report module (cut to what the cycle model reads): `loops` is the
/// `<SummaryOfLoopLatency>` body.
fn vitis_module(name: &str, best: u64, worst: u64, loops: &str) -> String {
    format!(
        "<Module><Name>{name}</Name><PerformanceEstimates><SummaryOfTimingAnalysis>\
         <TargetClockPeriod>10.00</TargetClockPeriod><EstimatedClockPeriod>7.0</EstimatedClockPeriod>\
         </SummaryOfTimingAnalysis><SummaryOfOverallLatency><Best-caseLatency>{best}</Best-caseLatency>\
         <Average-caseLatency>{best}</Average-caseLatency><Worst-caseLatency>{worst}</Worst-caseLatency>\
         <PipelineInitiationInterval>{best} ~ {worst}</PipelineInitiationInterval><PipelineType>no</PipelineType>\
         </SummaryOfOverallLatency><SummaryOfLoopLatency>{loops}</SummaryOfLoopLatency></PerformanceEstimates></Module>"
    )
}

/// A `_Pipeline_` module's RTL ends with its loop, 2 cycles before the report's module latency
/// (docs/cycle-model.md, "Pipeline modules in the RTL"): a top whose report is its 16-trip
/// loop's module (loop 17, module 19) and 3 of its own, 22, runs 20 a call, and the run still
/// agrees with the schedule. A loop of a function with an m_axi port keeps the 2 (its module
/// waits on the interface), and so does one whose trips vary (the report gives its module a
/// range: `tests/cycle` case 03).
#[test]
fn a_pipeline_modules_rtl_ends_with_its_loop_unless_it_waits_on_an_interface() {
    let report = |version: &str| {
        format!(
            "<profile><ReportVersion><Version>{version}</Version></ReportVersion><UserAssignments><unit>ns</unit>\
             <ProductFamily>zynq</ProductFamily><Part>xc7z020-clg400-1</Part><TopModelName>k</TopModelName>\
             <TargetClockPeriod>10.00</TargetClockPeriod><ClockUncertainty>2.70</ClockUncertainty><FlowTarget>vivado</FlowTarget>\
             </UserAssignments><RTLDesignHierarchy><TopModule><ModuleName>k</ModuleName><InstancesList>\
             <Instance><InstName>grp_k_Pipeline_L_fu_10</InstName><ModuleName>k_Pipeline_L</ModuleName>\
             <IsCompInst>true</IsCompInst><ID>10</ID></Instance></InstancesList></TopModule></RTLDesignHierarchy>\
             <ModuleInformation>{}{}</ModuleInformation></profile>",
            vitis_module("k_Pipeline_L", 19, 19, &vitis_pipelined_loop("L", 16, 17, 3)),
            vitis_module("k", 22, 22, ""),
        )
    };
    let config = &vivado_flow("k");
    let run = |kernel: &str, tb: &str| {
        let dir = project_dir(kernel, tb, config, &[("csynth.xml", &report("2022.2"))]);
        sim(dir.path(), &["--csynth", dir.path().join("csynth.xml").to_str().unwrap()])
    };
    // Local memories: the module ends with its loop.
    let memories =
        "void k(const int a[16], int out[16]) {\n  L: for (int i = 0; i < 16; i++) {\n    out[i] = a[i] + 1;\n  }\n}\n";
    let tb = "void k(const int a[16], int out[16]);\nint main() { int a[16], out[16];\n\
              for (int i = 0; i < 16; i++) a[i] = i;\nk(a, out); k(a, out); return out[3] == 4 ? 0 : 1; }\n";
    let rep = run(memories, tb);
    assert_eq!(counts(&rep["estimate"]["per_call"]), [20, 20]);
    assert_eq!(rep["estimate"]["schedule_exact_calls"], 2, "{}", rep["estimate"]);
    assert_eq!(rep["estimate"]["pipeline_rtl_saving"], 2.0);
    let top = rep["rows"].as_array().unwrap().iter().find(|r| r["name"] == "k").unwrap();
    assert_eq!(top["rtl_saving"], 4, "{top}");
    validate_against_schema(&rep);
    // A stream port written in the loop, outside dataflow: the module ends with its loop too
    // (a public 2022.2 `axis` design: report − 4 for two modules). Inside a dataflow region the 2
    // stay (`pipeline_rtl`'s unit test).
    let stream = "#include <hls_stream.h>\nvoid k(const int a[16], hls::stream<int> &out) {\n  \
                  L: for (int i = 0; i < 16; i++) {\n    out.write(a[i] + 1);\n  }\n}\n";
    let tb = "#include <hls_stream.h>\nvoid k(const int a[16], hls::stream<int> &out);\nint main() { int a[16];\n\
              hls::stream<int> out;\nfor (int i = 0; i < 16; i++) a[i] = i;\nk(a, out);\n\
              int s = 0;\nwhile (!out.empty()) s += out.read();\nreturn s == 136 ? 0 : 1; }\n";
    let rep = run(stream, tb);
    assert_eq!(counts(&rep["estimate"]["per_call"]), [20]);
    assert_eq!(rep["estimate"]["pipeline_rtl_saving"], 2.0, "{}", rep["estimate"]);
    // A function with an m_axi port (written once, after the loop): the 2 stay.
    let maxi =
        "void k(const int a[16], int *sum) {\n#pragma HLS INTERFACE m_axi port=sum bundle=gmem\n  int s = 0;\n  \
                L: for (int i = 0; i < 16; i++) {\n    s += a[i];\n  }\n  *sum = s;\n}\n";
    let tb = "void k(const int a[16], int *sum);\nint main() { int a[16], s = 0;\n\
              for (int i = 0; i < 16; i++) a[i] = i;\nk(a, &s); return s == 120 ? 0 : 1; }\n";
    let rep = run(maxi, tb);
    assert_eq!(counts(&rep["estimate"]["per_call"]), [22], "{}", rep["estimate"]);
    // Without port probes the INTERFACE pragma says so just as well.
    let dir = project_dir(maxi, tb, config, &[("csynth.xml", &report("2022.2"))]);
    let csynth = dir.path().join("csynth.xml");
    let rep = sim(dir.path(), &["--csynth", csynth.to_str().unwrap(), "--probes", "modules,loops"]);
    assert_eq!(counts(&rep["estimate"]["per_call"]), [22], "{}", rep["estimate"]);
}

/// A pipelined loop entry of a report module.
fn vitis_pipelined_loop(name: &str, trips: u64, latency: u64, depth: u64) -> String {
    format!(
        "<{name}><Name>{name}</Name><TripCount>{trips}</TripCount><Latency>{latency}</Latency>\
         <PipelineII>1</PipelineII><PipelineDepth>{depth}</PipelineDepth><PipelineType>yes</PipelineType>\
         <InstanceList/></{name}>"
    )
}

/// Loops as Vitis 2022.1 names and schedules them (a public design, `hdc_maxi`, co-sim 170506:
/// 86.7 % over before, 0.2 % after):
/// - `VITIS_LOOP_<line>_<n>` counts only the loops without a label: after `rows:`, the loop at
///   line 3 is `_1` and the one at line 5 `_2` (the design's `hdc_maxi_label0:` sat between
///   `VITIS_LOOP_22_3` and `VITIS_LOOP_40_5` with one unlabeled loop between them);
/// - the flattened `rows` nest (64 trips, iteration 20 ~ 23: a branch without a probe) holds the
///   inner pipeline's module instance in its iteration (rule 4): 64 × 20, not 64 × 23 plus the
///   module's loop again, and its inner member loop is not a child that ran in some iterations;
/// - the `c` loop with code around its inner loop is not a perfect nest, yet the report flattens
///   the two into one pipeline named after both (64 trips, latency 67, module 69): the two are
///   that nest (its loop 67 a call, the module 69), not a 4-trip pipeline.
///
/// The top: 1280 + 69 = 1349 of children, the report's 1351 ~ 1543 (own 2). In the RTL each of
/// the 64 runs of the inner `_Pipeline_` module and the one of the nest ends with its loop, 2
/// cycles before the report's module (docs/cycle-model.md): 1351 − 65 × 2, every call 1221.
#[test]
fn vitis_loop_names_skip_labels_and_flattened_loops_hold_their_instances() {
    let kernel = "void k(const int a[128], int sign[16], int out[4]) {\n  rows: for (int t = 0; t < 4; t++) {\n    \
                  for (int i = 0; i < 16; i++) {\n      int s = 0;\n      for (int e = 0; e < 16; e++) {\n        \
                  s += a[t * 16 + i + e];\n      }\n      if (s < 0) sign[i] = -sign[i];\n    }\n  }\n  \
                  for (int c = 0; c < 4; c++) {\n    int d = 0;\n    for (int i = 0; i < 16; i++) d += sign[i] * c;\n    \
                  out[c] = d;\n  }\n}\n";
    let tb = "void k(const int a[128], int sign[16], int out[4]);\nint main() { int a[128], sign[16], out[4];\n\
              for (int i = 0; i < 128; i++) a[i] = (i % 3) - 1;\nfor (int i = 0; i < 16; i++) sign[i] = 1;\n\
              k(a, sign, out); k(a, sign, out); return 0; }\n";
    let config = &vivado_flow("k");
    let rows = "<rows_VITIS_LOOP_3_1><Name>rows_VITIS_LOOP_3_1</Name><TripCount>64</TripCount>\
                <Latency>1280 ~ 1472</Latency><IterationLatency><range><min>20</min><max>23</max></range></IterationLatency>\
                <PipelineDepth>20 ~ 23</PipelineDepth><PipelineType>no</PipelineType>\
                <InstanceList><Instance>grp_k_Pipeline_VITIS_LOOP_5_2_fu_10</Instance></InstanceList></rows_VITIS_LOOP_3_1>";
    let dot = "VITIS_LOOP_11_3_VITIS_LOOP_13_4";
    let instance = |l: &str, id: u32| {
        format!(
            "<Instance><InstName>grp_k_Pipeline_{l}_fu_{id}</InstName><ModuleName>k_Pipeline_{l}</ModuleName>\
             <IsCompInst>true</IsCompInst><ID>{id}</ID></Instance>"
        )
    };
    let xml = format!(
        "<profile><ReportVersion><Version>2022.1</Version></ReportVersion><UserAssignments><unit>ns</unit>\
         <ProductFamily>zynq</ProductFamily><Part>xc7z020-clg400-1</Part><TopModelName>k</TopModelName>\
         <TargetClockPeriod>10.00</TargetClockPeriod><ClockUncertainty>2.70</ClockUncertainty><FlowTarget>vivado</FlowTarget>\
         </UserAssignments><RTLDesignHierarchy><TopModule><ModuleName>k</ModuleName><InstancesList>{}{}</InstancesList>\
         </TopModule></RTLDesignHierarchy><ModuleInformation>{}{}{}</ModuleInformation></profile>",
        instance("VITIS_LOOP_5_2", 10),
        instance(dot, 20),
        vitis_module("k_Pipeline_VITIS_LOOP_5_2", 19, 19, &vitis_pipelined_loop("VITIS_LOOP_5_2", 16, 17, 2)),
        vitis_module(&format!("k_Pipeline_{dot}"), 69, 69, &vitis_pipelined_loop(dot, 64, 67, 4)),
        vitis_module("k", 1351, 1543, rows),
    );
    let dir = project_dir(kernel, tb, config, &[("csynth.xml", &xml)]);
    let rep = sim(dir.path(), &["--csynth", dir.path().join("csynth.xml").to_str().unwrap()]);
    assert_eq!(counts(&rep["estimate"]["per_call"]), [1221, 1221]);
    let rows = rep["rows"].as_array().unwrap();
    let row = |line: u64| rows.iter().find(|r| r["line"] == line && r["kind"] == "loop").unwrap();
    assert_eq!(row(5)["timing"]["report_name"], "k_Pipeline_VITIS_LOOP_5_2/VITIS_LOOP_5_2", "{}", row(5));
    assert_eq!(row(2)["cycles"], 2 * (1280 - 64 * 2), "{}", row(2));
    assert_eq!(row(11)["cycles"], 2 * 67, "{}", row(11));
    assert_eq!(row(11)["nest"]["role"], "head");
}

/// Without a report, a loop with a partial unroll the user asked for stays a loop of its own
/// and is pipelined, whatever its trips (UG1399: automatic pipelining comes after the user's
/// directives; the public 2022.1 `hdc_maxi`: a 64-trip loop with `unroll factor=2` became a
/// `_Pipeline_` module of 32 trips, its parent not pipelined; 91.6 % → 11.4 % without the
/// report). Here the 16-trip loop with factor 2 is a pipeline of 8 trips in each of the outer
/// loop's 8 iterations; before, it was unrolled into the outer loop, pipelined instead.
#[test]
fn without_a_report_a_partially_unrolled_loop_is_its_own_pipeline() {
    let kernel = "void k(const int a[32], int out[8]) {\n  for (int i = 0; i < 8; i++) {\n    int s = 0;\n    \
                  for (int e = 0; e < 16; e++) {\n#pragma HLS UNROLL factor=2\n      s += a[i + e];\n    }\n    \
                  out[i] = s;\n  }\n}\n";
    let tb = "void k(const int a[32], int out[8]);\nint main() { int a[32], out[8];\n\
              for (int i = 0; i < 32; i++) a[i] = i;\nk(a, out); return out[0] == 120 ? 0 : 1; }\n";
    let config = &vivado_flow("k");
    let dir = project_dir(kernel, tb, config, &[]);
    let rep = sim(dir.path(), &["--no-csynth"]);
    let rows = rep["rows"].as_array().unwrap();
    let row = |line: u64| rows.iter().find(|r| r["line"] == line && r["kind"] == "loop").unwrap();
    assert_eq!(row(4)["timing"]["pipelined"]["value"], true, "{}", row(4));
    assert_eq!(row(2)["timing"]["pipelined"]["value"], false, "{}", row(2));
    assert_eq!(row(4)["in_pipeline"], false);
}

/// Without a report, a small loop in a function inlined into a loop is unrolled into that loop,
/// which becomes the pipeline, as a small loop written in it is (UG1399: automatic pipelining
/// after inlining). The public 2022.1 `fft` calls `reverse(i, 10)` in its `Reverse` loop and its
/// report has `Reverse` as the pipeline (`fft_Pipeline_Reverse`, 513 cycles for 512 trips); the
/// model pipelined `reverse`'s 10-trip loop instead (12288 cycles, co-sim 5324 for the design).
/// The call gives what the loop written out gives (66 and 68 per call); a callee whose trips vary between calls
/// cannot be unrolled, and its loop stays the pipeline.
#[test]
fn without_a_report_a_small_loop_of_an_inlined_callee_unrolls_into_the_calling_loop() {
    let callee =
        "unsigned rev(unsigned x, unsigned w) {\n  unsigned r = 0;\n  for (unsigned b = 0; b < w; b++) {\n    \
                  r = (r << 1) | (x & 1);\n    x >>= 1;\n  }\n  return r;\n}\n";
    let tb = "void k(const int a[64], int out[64], int w);\nint main() { int a[64], out[64];\n\
              for (int i = 0; i < 64; i++) a[i] = i;\nk(a, out, 6); return out[0] == 0 ? 0 : 1; }\n";
    let config = &vivado_flow("k");
    let run = |kernel: &str, inner: u64| {
        let dir = project_dir(kernel, tb, config, &[]);
        let rep = sim(dir.path(), &["--no-csynth"]);
        let rows = rep["rows"].as_array().unwrap().clone();
        let pipelined = |line: u64| {
            let r = rows.iter().find(|r| r["line"] == line && r["kind"] == "loop").unwrap();
            (r["timing"]["pipelined"]["value"] == true, r["in_pipeline"] == true)
        };
        (counts(&rep["estimate"]["per_call"]), pipelined(inner), pipelined(11))
    };
    // Called with a constant width: the loop of line 11 is the pipeline, `rev`'s loop (line 3) is in it.
    let called = format!(
        "{callee}void k(const int a[64], int out[64], int w) {{\n  (void)w;\n  for (int i = 0; i < 64; i++) {{\n    \
         out[i] = a[rev(i, 6)];\n  }}\n}}\n"
    );
    let (per_call, inner, outer) = run(&called, 3);
    assert_eq!(outer, (true, false), "the calling loop is the pipeline");
    assert!(inner.1, "the callee's loop is unrolled into it");
    // The same loop written out in the caller (the lines kept where they were).
    let written = "\n\n\n\n\n\n\n\nvoid k(const int a[64], int out[64], int w) {\n  (void)w;\n  \
                   for (int i = 0; i < 64; i++) {\n    unsigned r = 0, x = i;\n    for (unsigned b = 0; b < 6; b++) { r = (r << 1) | (x & 1); x >>= 1; }\n    \
                   out[i] = a[r];\n  }\n}\n";
    let (written_per_call, written_inner, written_outer) = run(written, 13);
    assert_eq!((written_outer, written_inner.1), ((true, false), true));
    // The same trips at the same II; the depth may differ by the op chain of a call's result
    // feeding an address (2 here). Unrolled, the 6 trips of 64 calls would be 6 × 64 = 384.
    assert!(
        per_call[0] >= written_per_call[0] && per_call[0] <= written_per_call[0] + 2,
        "the call costs what the loop written out costs: {per_call:?} vs {written_per_call:?}"
    );
    // Trips that vary between calls: no unroll; the callee's loop is pipelined on its own.
    let varying = format!(
        "{callee}void k(const int a[64], int out[64], int w) {{\n  (void)w;\n  for (int i = 0; i < 64; i++) {{\n    \
         out[i] = a[rev(i, 1 + (i & 3))];\n  }}\n}}\n"
    );
    let (_, inner, outer) = run(&varying, 3);
    assert_eq!(outer, (false, false));
    assert_eq!(inner, (true, false));
}

/// Without a report, a pipelined loop that carries a value through a multi-cycle operation
/// starts an iteration only once the previous one's operation is done: II = the states on the
/// cycle, L + 1 for an operation of latency L (its result is used in the state after its last
/// stage), one more for a select in front of it (a reset of the accumulator). Public Vitis
/// 2023.2 reports at 5 ns with a 4-cycle fadd: `s += a[i]` II 5, a reset then `t += a * x` II 6;
/// the held-out 2022.1 `spmv_accel` (reset, then `sum += v * x[col]`) II 6. The multiply that
/// feeds the add is not on the cycle. Each kernel runs n = 8 and n = 16: the second call is
/// 8 × II longer. A float add 4 (`model::opchain::op_latency`): 8 × 5 = 40; with the reset in
/// front, 8 × 6 = 48; an integer sum is logic, II 1: 8; a sum made afresh each iteration
/// carries nothing: 8; an array element the loop adds into at an index that names none of its
/// counters is the same element each time, kept in a register (the public 2022.1 `dft`'s
/// `real_output[k] += ...` in its `n` loop, II 5): 40.
#[test]
fn without_a_report_a_float_accumulation_holds_the_pipeline_at_its_adds_states() {
    let run = |ty: &str, body: &str| {
        let kernel = format!(
            "{ty} dot(const {ty} a[16], const {ty} b[16], {ty} out[16], int n) {{\n  {ty} s = 0;\n  \
             for (int i = 0; i < n; i++) {{\n#pragma HLS PIPELINE II=1\n    {body}\n  }}\n  return s;\n}}\n"
        );
        let tb = format!(
            "{ty} dot(const {ty} a[16], const {ty} b[16], {ty} out[16], int n);\nint main() {{ {ty} a[16], b[16], o[16];\n\
             for (int i = 0; i < 16; i++) {{ a[i] = i; b[i] = 1; o[i] = 0; }}\n\
             {ty} x = dot(a, b, o, 8) + dot(a, b, o, 16) + o[0]; return x > 0 ? 0 : 1; }}\n"
        );
        let config = &vivado_flow("dot");
        let dir = project_dir(&kernel, &tb, config, &[]);
        let calls = counts(&sim(dir.path(), &["--no-csynth"])["estimate"]["per_call"]);
        calls[1] - calls[0]
    };
    assert_eq!(run("float", "s += a[i] * b[i];"), 40, "fadd: 5 states a trip");
    assert_eq!(run("float", "if ((i & 3) == 0) s = 0;\n    s += a[i] * b[i];"), 48, "reset, then fadd: 6");
    assert_eq!(run("int", "s += a[i] * b[i];"), 8, "an integer sum: II 1");
    assert_eq!(run("float", "float t = 0;\n    t += a[i] * b[i];\n    out[i] = t;\n    s = t;"), 8, "nothing carried");
    // One element every iteration (its index names no counter of the loop): kept in a register.
    assert_eq!(run("float", "out[n & 1] += a[i] * b[i];"), 40, "an element in a register: 5");
}

/// Without a report, a loop unrolled inside a pipeline lays its trips out in the pipeline's
/// iteration: a recurrence it carries becomes a chain there, its body's chain once and then the
/// carried cycle's states (L + 1 an operation, as for the II above) for each further trip, in
/// the pipeline's depth (the public Vivado HLS 2019.1 `matrixmult`: a read, a float multiply and
/// four chained adds, depth 26 in its report). Each kernel's inner loop runs 4 trips, then 2: the
/// difference is the depth of two more trips. `s = s * x + 1` carries a multiply (3) and an add
/// (4): 2 × (4 + 5) = 18; `s += x * c`, only the add: 2 × 5 = 10; an integer sum is logic: 0;
/// a value made afresh each trip carries nothing: 0.
#[test]
fn without_a_report_a_recurrence_unrolled_inside_a_pipeline_deepens_it() {
    let run = |ty: &str, body: &str| {
        let kernel = |k: u32| {
            format!(
                "void acc(const {ty} x[16], {ty} out[16], {ty} w[64]) {{\n  for (int j = 0; j < 16; j++) {{\n\
                 #pragma HLS PIPELINE II=1\n    {ty} s = x[j];\n    for (int k = 0; k < {k}; k++) {{\n      {body}\n    }}\n\
                 \x20   out[j] = s;\n  }}\n}}\n"
            )
        };
        let tb = format!(
            "void acc(const {ty} x[16], {ty} out[16], {ty} w[64]);\nint main() {{ {ty} x[16], o[16], w[64];\n\
             for (int i = 0; i < 16; i++) x[i] = i;\nacc(x, o, w); return o[1] != 0 ? 0 : 1; }}\n"
        );
        let config = &vivado_flow("acc");
        let cycles = |k: u32| {
            let dir = project_dir(&kernel(k), &tb, config, &[]);
            counts(&sim(dir.path(), &["--no-csynth"])["estimate"]["per_call"])[0]
        };
        cycles(4) - cycles(2)
    };
    assert_eq!(run("float", "s = s * x[j] + 1;"), 18, "a multiply and an add carried: 4 + 5 a trip");
    assert_eq!(run("float", "s += x[j] * 3;"), 10, "an add carried: 5 a trip");
    assert_eq!(run("int", "s += x[j] * 3;"), 0, "an integer sum is logic");
    assert_eq!(run("float", "s = x[j] * k;"), 0, "nothing carried");
}

/// Without a report, an `UNROLL` on a loop whose bound is a run-time argument of the top (`k <
/// K`) is not done: Vitis cannot unroll it ("variable trip count"), keeps it a loop and does not
/// make the pipeline the loop around it asks for (the public 2022.1 `matrix_mul`: without its
/// report 99.4 → 16.8 % so). With the constant 4 the `j` loop is one pipeline of 16 trips at
/// II 2 (`a`'s four reads on its two ports), its tail 25 (the unrolled float sum's chain and the
/// `_Pipeline_` module's 2): (16 − 1) × 2 + 25 + the top's 2 = 57. With `K` (4 in the run) the
/// `j` loop is no pipeline, 2 states an iteration, and the `k` loop a loop of its own, 10 an
/// iteration (2 states, the read, the multiply's 3, the add's 4): 2 + 16 × (2 + 4 × 10) = 674.
/// The manifest says which parameters a bound names (`param_bound`).
#[test]
fn without_a_report_an_unroll_over_a_run_time_bound_is_not_done() {
    let run = |bound: &str| {
        let kernel = format!(
            "void mm(const float a[64], const float b[4], float out[16], int K) {{\n  \
             for (int j = 0; j < 16; j++) {{\n#pragma HLS PIPELINE II=1\n    float s = 0;\n    \
             for (int k = 0; k < {bound}; k++) {{\n#pragma HLS UNROLL\n      s += a[j * 4 + k] * b[k];\n    }}\n    \
             out[j] = s;\n  }}\n}}\n"
        );
        let tb = "void mm(const float a[64], const float b[4], float out[16], int K);\nint main() { float a[64], b[4], o[16];\n\
                  for (int i = 0; i < 64; i++) a[i] = i;\nfor (int i = 0; i < 4; i++) b[i] = 1;\n\
                  mm(a, b, o, 4); return o[1] > 0 ? 0 : 1; }\n";
        let config = &vivado_flow("mm");
        let dir = project_dir(&kernel, tb, config, &[]);
        let rep = sim(dir.path(), &["--no-csynth"]);
        let rows = rep["rows"].as_array().unwrap().clone();
        let pipelined = |line: u64| {
            let r = rows.iter().find(|r| r["line"] == line && r["kind"] == "loop").unwrap();
            r["timing"]["pipelined"]["value"].as_bool().unwrap()
        };
        (counts(&rep["estimate"]["per_call"])[0], pipelined(2), pipelined(5))
    };
    let (constant, j_const, _) = run("4");
    let (run_time, j_run, k_run) = run("K");
    assert!(j_const, "a constant bound: the j loop is the pipeline");
    assert!(!j_run && !k_run, "a run-time bound: neither loop is a pipeline");
    assert_eq!((constant, run_time), (57, 674));
}

/// Without a report, a pipelined loop that stores to an array element whose index comes from
/// data (`hist[in[i]]++`) waits for that store before the next iteration's read: UG1399's
/// histogram runs "read and write operations to the array in alternating cycles, resulting in
/// a loop II of 2"; with a double add between them (a public 2023.2 report, `hist[f[i]] +=
/// w[i]`, dadd of latency 4 at 5 ns) II 8, the read's 2 states, the add's 5 and the store's 1;
/// the model's double add takes 5 (`model::opchain::op_latency`), so 2 + 6 + 1 = 9 here.
/// `DEPENDENCE inter false` on the array lifts it. Each kernel runs n = 8 and n = 16: the
/// second call is 8 × II longer.
#[test]
fn without_a_report_an_element_updated_at_a_data_index_holds_the_pipeline() {
    let run = |ty: &str, pragma: &str, body: &str| {
        let kernel = format!(
            "void hist(const int in[16], const {ty} w[16], {ty} h[16], int n) {{\n{pragma}  \
             for (int i = 0; i < n; i++) {{\n#pragma HLS PIPELINE II=1\n    {body}\n  }}\n}}\n"
        );
        let tb = format!(
            "void hist(const int in[16], const {ty} w[16], {ty} h[16], int n);\nint main() {{ int in[16]; {ty} w[16], h[16];\n\
             for (int i = 0; i < 16; i++) {{ in[i] = i & 3; w[i] = 1; h[i] = 0; }}\n\
             hist(in, w, h, 8); hist(in, w, h, 16); return h[1] > 0 ? 0 : 1; }}\n"
        );
        let config = &vivado_flow("hist");
        let dir = project_dir(&kernel, &tb, config, &[]);
        let calls = counts(&sim(dir.path(), &["--no-csynth"])["estimate"]["per_call"]);
        calls[1] - calls[0]
    };
    assert_eq!(run("int", "", "h[in[i]]++;"), 16, "read, then write: II 2");
    assert_eq!(run("double", "", "h[in[i]] += w[i];"), 72, "read 2, dadd 5 + 1, store 1: II 9");
    assert_eq!(run("int", "#pragma HLS DEPENDENCE variable=h inter false\n", "h[in[i]]++;"), 8, "no dependence: II 1");
    assert_eq!(run("int", "", "h[i] += in[i];"), 8, "its own element each iteration: II 1");
}

/// Without a report, an element that the copies of an unrolled loop all update is read and
/// stored once an iteration (the value stays in a register between them): in the public 2022.2
/// `kernel_2mm` (PolyBench 2mm), `tmp[i][j] += alpha * A[i][k] * B[k][j]` unrolled over ten
/// `k` holds the i-j pipeline at II 5, the ten reads of `A` on two ports; counting `tmp`'s 21
/// accesses gave 11. Here four reads of `a` a trip on two ports: II 2, where the 9 accesses of
/// `t[j]` gave 5. The calls run n = 8 and 16: the second is 8 × II longer.
#[test]
fn without_a_report_an_element_unrolled_copies_update_is_one_read_and_one_store() {
    let kernel = "void acc(const int a[4], int t[16], int n) {\n  for (int j = 0; j < n; j++) {\n\
                  #pragma HLS PIPELINE II=1\n    t[j] = 0;\n    for (int k = 0; k < 4; k++) {\n#pragma HLS UNROLL\n      \
                  t[j] += a[k] * j;\n    }\n  }\n}\n";
    let tb = "void acc(const int a[4], int t[16], int n);\nint main() { int a[4] = {1, 2, 3, 4}, t[16];\n\
              acc(a, t, 8); acc(a, t, 16); return t[1] == 10 ? 0 : 1; }\n";
    let config = &vivado_flow("acc");
    let dir = project_dir(kernel, tb, config, &[]);
    let calls = counts(&sim(dir.path(), &["--no-csynth"])["estimate"]["per_call"]);
    assert_eq!(calls[1] - calls[0], 16, "II 2: {calls:?}");
}

/// Without a report, Vitis inlines a function with loops that the design calls from one place
/// (UG1399: "By default, Vitis HLS performs inlining of smaller functions"; the reports of the
/// public 2020.2 `HLS_CISR_spmv_accel`, 2021.2 `Radix2wECC`, 2022.2 `sr_fft` and 2023.2
/// `mem_streaming` have no module for any such function). `PIPELINE off` loops of `TC × (2 +
/// chain)`, each chain a read and logic (a multiply by 3 is a shift and an add), the read in the
/// 2: `scale` (called once) 2n and no handshake; `bump` (called twice) 2n and its handshake 2,
/// each call; the top's handshake 2: 6 + 6n, 30 and 54 for n = 4, 8 (32 and 56 with `scale`'s
/// handshake). Vivado HLS keeps `scale`'s module (its 2016.4 `aes256cbc` keeps the once-called
/// `aes_mixColumns_inv`), each of its functions of one loop at 2n + 1 (the loop's exit state, no
/// handshake): 2 + 6n + 3, 29 and 53.
#[test]
fn without_a_report_a_function_called_from_one_place_is_inlined() {
    let body = |k: &str| format!("  for (int i = 0; i < n; i++) {{\n#pragma HLS PIPELINE off\n    {k}\n  }}\n");
    let kernel = format!(
        "void scale(int a[16], int n) {{\n{}}}\nvoid bump(int a[16], int n) {{\n{}}}\n\
         void top(int a[16], int n) {{\n  scale(a, n);\n  bump(a, n);\n  bump(a, n);\n}}\n",
        body("a[i] = a[i] * 3;"),
        body("a[i] = a[i] + 1;")
    );
    let tb = "void top(int a[16], int n);\nint main() { int a[16] = {0}; top(a, 4); top(a, 8); return a[0] == 8 ? 0 : 1; }\n";
    let per_call = |tool: &str, year: u32| {
        let rep = sim_tool_script(&kernel, tb, "top", tool, year);
        let scale = rep["rows"].as_array().unwrap().iter().find(|r| r["name"] == "scale").unwrap().clone();
        (counts(&rep["estimate"]["per_call"]), scale["timing"]["inlined"].as_bool().unwrap_or(false))
    };
    assert_eq!(per_call("Vitis", 2022), (vec![30, 54], true));
    assert_eq!(per_call("Vitis", 2020), (vec![30, 54], true));
    assert_eq!(per_call("Vivado", 2019), (vec![29, 53], false));
}

/// Without a report, a function pipeline's stream accesses are its states, one each, and its
/// latency counts the states after the first: the public Vivado HLS 2016.2 `frameSIPO` reads its
/// input stream and writes the header that depends on it in the next state, latency 1 (2 before).
/// `relay`: one read, one dependent write, 1; `pack`: three reads and a write, 3. With a callee of
/// latency 1 or more, its result comes back a state later (`tests/cycle/21_func_chain`).
#[test]
fn without_a_report_a_function_pipelines_stream_accesses_are_its_states() {
    let run = |body: &str| {
        let kernel = format!(
            "#include <hls_stream.h>\nvoid relay(hls::stream<int> &in, hls::stream<int> &out) {{\n\
             #pragma HLS PIPELINE II=1\n#pragma HLS INTERFACE axis port=in\n#pragma HLS INTERFACE axis port=out\n\
             {body}}}\n"
        );
        let tb = "#include <hls_stream.h>\nvoid relay(hls::stream<int> &in, hls::stream<int> &out);\n\
                  int main() { hls::stream<int> a, b; for (int i = 0; i < 6; i++) a.write(i);\n\
                  relay(a, b); relay(a, b); int r = b.read(); r ^= b.read(); return r >= 0 ? 0 : 1; }\n";
        let config = "part=xc7z020-clg400-1\n[hls]\nsyn.file=kernel.cpp\nsyn.top=relay\ntb.file=tb.cpp\nclock=10ns\n";
        let dir = project_dir(&kernel, tb, config, &[]);
        counts(&sim(dir.path(), &["--no-csynth"])["estimate"]["per_call"])
    };
    assert_eq!(run("  if (!in.empty()) {\n    int v = in.read();\n    out.write(v + 1);\n  }\n"), [1, 1]);
    assert_eq!(
        run("  int a = in.read();\n  int b = in.read();\n  int c = in.read();\n  out.write(a ^ b ^ c);\n"),
        [3, 3]
    );
}

/// Without a report, a function kept as a module whose body is one pipelined loop has no
/// `_Pipeline_` module inside (the public Vitis 2021.2 ASCON design's `LOADBYTES_1`: loop 8,
/// module 10). `scale`, called twice (a module), pipelines `a[i] = a[i] * 3` at II 1, depth 2 (a
/// read on the chain): n − 1 + 1 cycles, its handshake 2; the two calls in a row (both write `a`),
/// the top's handshake 2: 6 + 2n, 38 and 86 for n = 16, 40 (42 and 90 with the `_Pipeline_`
/// module's 2 cycles in each call). The top too on plain ports (the public Vitis 2023.2
/// `divide_sum`: its 10-trip pipeline directly in the top, loop 45, top 47): `scale` as the top
/// is n + 2, 18 and 42 (20 and 44 with the `_Pipeline_` module); a top with AXI interfaces keeps
/// the module (case 23, `arrays_on_the_control_bundle_are_moved_inside_the_cosim_window`).
#[test]
fn without_a_report_a_function_of_one_pipelined_loop_is_that_loops_module() {
    let kernel = "void scale(int a[64], int n) {\n  for (int i = 0; i < n; i++) {\n#pragma HLS PIPELINE II=1\n    \
                  a[i] = a[i] * 3;\n  }\n}\nvoid top(int a[64], int n) {\n  scale(a, n);\n  scale(a, n);\n}\n";
    let tb =
        "void top(int a[64], int n);\nint main() { int a[64] = {1}; top(a, 16); top(a, 40); return a[0] == 81 ? 0 : 1; }\n";
    let rep = sim_tool_script(kernel, tb, "top", "Vitis", 2022);
    assert_eq!(counts(&rep["estimate"]["per_call"]), [38, 86]);
    let alone = "void scale(int a[64], int n) {\n  for (int i = 0; i < n; i++) {\n#pragma HLS PIPELINE II=1\n    \
                 a[i] = a[i] * 3;\n  }\n}\n";
    let tb = "void scale(int a[64], int n);\nint main() { int a[64] = {1}; scale(a, 16); scale(a, 40); return a[0] == 9 ? 0 : 1; }\n";
    let rep = sim_tool_script(alone, tb, "scale", "Vitis", 2022);
    assert_eq!(counts(&rep["estimate"]["per_call"]), [18, 42], "the top of one pipelined loop");
}

/// Without a report, a function pipeline over a loop whose bound is not a constant is no
/// pipeline: every loop of a pipelined function's hierarchy must be unrolled, and one with a
/// variable bound cannot be (UG1399 "Function Pipelining"; the public Vivado HLS 2019.1 `LR_top`
/// of mzrghorbani/lr_hls_dev: `Pipeline none`, latency `?`, co-simulation 130 where the
/// pipeline's depth gave 1). A `while` loop makes the pragma's function timed as the same
/// function without it; a constant bound keeps the pipeline (a fixed latency per call).
#[test]
fn without_a_report_a_function_pipeline_over_a_variable_loop_is_no_pipeline() {
    let tb = "int k(int a[64], int n);\nint main() { int a[64] = {0}; a[0] = 1; int s = k(a, 4) + k(a, 12);\n\
              return s == 2 ? 0 : 1; }\n";
    let config = &vivado_flow("k");
    let run = |kernel: &str| {
        let dir = project_dir(kernel, tb, config, &[]);
        counts(&sim(dir.path(), &["--no-csynth"])["estimate"]["per_call"])
    };
    let pragma = "#pragma HLS PIPELINE II=1\n";
    let while_loop = format!(
        "int k(int a[64], int n) {{\n{pragma}  int s = 0, i = 0;\n  while (i < n) {{\n    s += a[i];\n    i++;\n  }}\n  return s;\n}}\n"
    );
    let plain = run(&while_loop.replace(pragma, ""));
    assert!(plain[1] > plain[0], "{plain:?}");
    assert_eq!(run(&while_loop), plain, "a while loop: no pipeline");
    let constant = format!(
        "int k(int a[64], int n) {{\n{pragma}  int s = 0;\n  for (int i = 0; i < 8; i++) s += a[i];\n  return s;\n}}\n"
    );
    let piped = run(&constant);
    assert_eq!(piped[0], piped[1], "{piped:?}");
    assert_ne!(piped, run(&constant.replace(pragma, "")), "a constant bound keeps the pipeline");
}

/// A Vivado HLS 2020.1 text report of one module (`<module>_csynth.rpt`): its latency row
/// (`|  min|  max| ...`), its instances (`(instance, module, latency row)`) and its loop rows.
fn vivado_2020_1_report(module: &str, summary: &str, instances: &[(&str, &str, &str)], loops: &[&str]) -> String {
    module_report(&VIVADO_2020_1, module, summary, instances, loops)
}

/// What a per-module text report's layout says of its release (the tables' widths differ).
struct Release {
    title: &'static str,
    date: &'static str,
    version: &'static str,
    solution: &'static str,
    /// The summary's `Pipeline Type` column is one wider in Vivado HLS.
    wide_pipeline: bool,
    /// The loop table's name column; Vitis 2020.2 writes the table even with no loop.
    loop_name: usize,
    no_loop_na: bool,
}

const VITIS_2020_2: Release = Release {
    title: "Vitis HLS",
    date: "Sat May  7 19:54:08 2022",
    version: "2020.2 (Build 3064766 on Wed Nov 18 09:12:47 MST 2020)",
    solution: "solution1 (Vivado IP Flow Target)",
    wide_pipeline: false,
    loop_name: 10,
    no_loop_na: false,
};

const VIVADO_2020_1: Release = Release {
    title: "Vivado HLS",
    date: "Thu Oct 20 10:00:00 2022",
    version: "2020.1 (Build 2897737 on Wed May 27 20:21:37 MDT 2020)",
    solution: "solution1",
    wide_pipeline: true,
    loop_name: 15,
    no_loop_na: true,
};

/// One module's text report in the per-module layout of Vivado HLS 2020.1 / Vitis HLS 2020.2.
fn module_report(r: &Release, module: &str, summary: &str, instances: &[(&str, &str, &str)], loops: &[&str]) -> String {
    let (title, date, version, solution) = (r.title, r.date, r.version, r.solution);
    let (dash, pipe, kind) = if r.wide_pipeline { ("-", " ", " ") } else { ("", "", "") };
    let border = format!("+---------+---------+----------+----------+-----+-----+---------{dash}+");
    let mut s = format!(
        "\n\n================================================================\n== {title} Report for '{module}'\n\
         ================================================================\n* Date:           {date}\n\n\
         * Version:        {version}\n* Project:        p\n\
         * Solution:       {solution}\n* Product family: zynq\n* Target device:  xc7z020-clg400-1\n\n\n\
         ================================================================\n== Performance Estimates\n\
         ================================================================\n+ Latency: \n    * Summary: \n\
         \x20   {border}\n\
         \x20   |  Latency (cycles) |  Latency (absolute) |  Interval | Pipeline{pipe}|\n\
         \x20   |   min   |   max   |    min   |    max   | min | max |   Type  {kind}|\n\
         \x20   {border}\n\
         \x20   {summary}\n\
         \x20   {border}\n\n\
         \x20   + Detail: \n        * Instance: \n"
    );
    if instances.is_empty() {
        s += "        N/A\n\n";
    } else {
        let rule = "+-------------------------+----------------------+---------+---------+----------+----------+-----+-----+---------+";
        s += &format!("        {rule}\n");
        s += "        |                         |                      |  Latency (cycles) |  Latency (absolute) |  Interval | Pipeline|\n";
        s += "        |         Instance        |        Module        |   min   |   max   |    min   |    max   | min | max |   Type  |\n";
        s += &format!("        {rule}\n");
        for (inst, m, row) in instances {
            s += &format!("        |{inst:<25}|{m:<22}{row}\n");
        }
        s += &format!("        {rule}\n\n");
    }
    if loops.is_empty() && r.no_loop_na {
        return s + "        * Loop: \n        N/A\n\n\n";
    }
    let w = r.loop_name;
    let rule = format!("+{}+---------+---------+----------+-----------+-----------+------+----------+", "-".repeat(w));
    s += &format!("        * Loop: \n        {rule}\n");
    s += &format!("        |{:w$}|  Latency (cycles) | Iteration|  Initiation Interval  | Trip |          |\n", "");
    // Centred, an odd space on the left (Vitis: ` Loop Name`).
    let name = format!("{}{:<rest$}", " ".repeat((w - 8) / 2), "Loop Name", rest = w - (w - 8) / 2);
    s += &format!("        |{name}|   min   |   max   |  Latency |  achieved |   target  | Count| Pipelined|\n");
    s += &format!("        {rule}\n");
    for row in loops {
        s += &format!("        {row}\n");
    }
    s + &format!("        {rule}\n\n\n")
}

/// A DATAFLOW function whose processes are its loops (facts, rule 5): Vivado HLS 2020.1 groups
/// the initialiser of `acc`, the `if`-guarded `load_bias` and `accumulate` into one process
/// `Loop_memset_acc_proc1` (50 without `load_bias`, 60 with it: 8 + 9 + 40 + 2 + 1) and makes
/// `write_result` `Loop_write_result_proc2` (10); the top's instance table cuts both names to
/// 20 characters. The processes share the local array `acc`: a ping-pong buffer, so per call
/// the second starts when the first is done, and the region is the chain + 1: 71 with
/// `load_bias`, 61 without. The report's own top latency, 50 ~ 60, is its longest process, as
/// Vivado HLS 2020.1 reports such a region (the public `blockmatmul`: 190 ~ 207 for co-sim's 218
/// and 201); before this rule every call was 50, the loops mapped to no module.
#[test]
fn loop_processes_of_a_dataflow_function_are_timed_from_their_modules_and_chained_by_arrays() {
    let kernel = "#include \"hls_stream.h\"\n\
                  void acc_rows(hls::stream<int> &in, int out[8], int mode) {\n\
                  #pragma HLS DATAFLOW\n\
                  \x20 int acc[8] = {0};\n\
                  \x20 static int bias[8];\n\
                  \x20 if (mode == 1) {\n\
                  \x20 load_bias:\n    for (int i = 0; i < 8; i++) {\n#pragma HLS PIPELINE II=1\n      bias[i] = in.read();\n    }\n  }\n\
                  accumulate:\n  for (int k = 0; k < 4; k++) {\n\
                  \x20 acc_i:\n    for (int i = 0; i < 8; i++) {\n#pragma HLS PIPELINE II=1\n      acc[i] += bias[i] * k + in.read();\n    }\n  }\n\
                  write_result:\n  for (int i = 0; i < 8; i++) {\n#pragma HLS PIPELINE II=1\n    out[i] = acc[i];\n  }\n}\n";
    let tb = "#include \"hls_stream.h\"\n\
              void acc_rows(hls::stream<int> &in, int out[8], int mode);\n\
              int main() {\n  int out[8];\n  for (int call = 0; call < 4; call++) {\n\
              \x20   hls::stream<int> in;\n    int mode = call % 2 == 0 ? 1 : 0;\n\
              \x20   for (int i = 0; i < (mode ? 40 : 32); i++) in.write(i);\n    acc_rows(in, out, mode);\n  }\n\
              \x20 return 0;\n}\n";
    let config = "part=xc7z020-clg400-1\n[hls]\nsyn.file=kernel.cpp\nsyn.top=acc_rows\ntb.file=tb.cpp\nclock=10ns\n";
    let top = vivado_2020_1_report(
        "acc_rows",
        "|       50|       60| 0.500 us | 0.600 us |   51|   61| dataflow |",
        &[
            (
                "Loop_memset_acc_proc_U0",
                "Loop_memset_acc_proc",
                "|       50|       60| 0.500 us | 0.600 us |   50|   60|   none  |",
            ),
            (
                "Loop_write_result_pr_U0",
                "Loop_write_result_pr",
                "|       10|       10| 0.100 us | 0.100 us |   10|   10|   none  |",
            ),
        ],
        &[],
    );
    let first = vivado_2020_1_report(
        "Loop_memset_acc_proc1",
        "|       50|       60| 0.500 us | 0.600 us |   50|   60|   none   |",
        &[],
        &[
            "|- memset_acc   |        8|        8|         1|          -|          -|     8|    no    |",
            "|- load_bias    |        9|        9|         2|          1|          1|     8|    yes   |",
            "|- accumulate   |       40|       40|        10|          -|          -|     4|    no    |",
            "| + acc_i       |        9|        9|         3|          1|          1|     8|    yes   |",
        ],
    );
    let second = vivado_2020_1_report(
        "Loop_write_result_proc2",
        "|       10|       10| 0.100 us | 0.100 us |   10|   10|   none   |",
        &[],
        &["|- write_result |        9|        9|         2|          1|          1|     8|    yes   |"],
    );
    let dir = project_dir(
        kernel,
        tb,
        config,
        &[
            ("acc_rows_csynth.rpt", top.as_str()),
            ("Loop_memset_acc_proc1_csynth.rpt", first.as_str()),
            ("Loop_write_result_proc2_csynth.rpt", second.as_str()),
        ],
    );
    let csynth = dir.path().join("acc_rows_csynth.rpt");
    let rep = sim(dir.path(), &["--csynth", csynth.to_str().unwrap()]);
    assert_eq!(
        counts(&rep["estimate"]["per_call"]),
        [71, 61, 71, 61],
        "chain of the two processes + 1, the first with or without load_bias: {:#}",
        rep["estimate"]
    );
    let row = |name: &str| rep["rows"].as_array().unwrap().iter().find(|r| r["name"] == name).unwrap().clone();
    assert_eq!(row("load_bias")["timing"]["process"], "Loop_memset_acc_proc1");
    assert_eq!(row("accumulate")["timing"]["process"], "Loop_memset_acc_proc1");
    assert_eq!(row("write_result")["timing"]["process"], "Loop_write_result_proc2");
    let modules = rep["accounting"]["modules"].as_array().unwrap();
    let counted =
        |name: &str| modules.iter().find(|m| m["name"] == name).unwrap()["counted"].as_str().unwrap().to_string();
    assert!(counted("Loop_memset_acc_proc1").contains("load_bias, accumulate"), "{}", counted("Loop_memset_acc_proc1"));
    let warnings = rep["warnings"].to_string();
    assert!(warnings.contains("below the chain"), "the report's latency is replaced, and said: {warnings}");
}

/// Rule 6 with a nest the report flattens: each numbered copy's flattened loop (`R_C` in `f`
/// and in `f_1`) times the calls of that copy. `f` runs 4 rows of 4 (16 trips, 18), `f_1` 2
/// rows (8 trips, 10): the report's 20 and 12, the top's 33 exactly. Before, the copy's nest
/// was looked up by its outer loop's name (`R`), not found, and timed from `f`'s row, 16 trips
/// corrected to the run's 8: 12 − 8, the top 25 (the public 2025.2 CNN's second `pool` call:
/// 3174 for its report's 3958).
#[test]
fn a_numbered_copys_flattened_nest_takes_the_copys_own_row() {
    let kernel = "static void f(const int a[16], int out[16], int rows) {\n\
                  #pragma HLS INLINE off\n\
                  R:\n  for (int r = 0; r < rows; r++) {\n\
                  C:\n    for (int c = 0; c < 4; c++) {\n\
                  #pragma HLS PIPELINE II=1\n\
                  \x20     out[r * 4 + c] = a[r * 4 + c] + 1;\n\
                  \x20   }\n  }\n}\n\
                  void k(const int a[16], int x[16], int y[16]) {\n  f(a, x, 4);\n  f(a, y, 2);\n}\n";
    let tb = "void k(const int a[16], int x[16], int y[16]);\n\
              int main() { int a[16], x[16] = {0}, y[16] = {0}; for (int i = 0; i < 16; i++) a[i] = i;\n\
              \x20 k(a, x, y); return x[15] == 16 && y[7] == 8 ? 0 : 1; }\n";
    let config = "part=xc7z020-clg400-1\n[hls]\nsyn.file=kernel.cpp\nsyn.top=k\ntb.file=tb.cpp\nclock=10ns\n";
    let top = module_report(
        &VITIS_2020_2,
        "k",
        "|       33|       33|  0.330 us|  0.330 us|   34|   34|     none|",
        &[
            ("grp_f_fu_40", "f", "|       20|       20|  0.200 us|  0.200 us|   20|   20|     none|"),
            ("grp_f_1_fu_48", "f_1", "|       12|       12|  0.120 us|  0.120 us|   12|   12|     none|"),
        ],
        &[],
    );
    let f = module_report(
        &VITIS_2020_2,
        "f",
        "|       20|       20|  0.200 us|  0.200 us|   20|   20|     none|",
        &[],
        &["|- R_C     |       18|       18|         3|          1|          1|    16|       yes|"],
    );
    let f_1 = module_report(
        &VITIS_2020_2,
        "f_1",
        "|       12|       12|  0.120 us|  0.120 us|   12|   12|     none|",
        &[],
        &["|- R_C     |       10|       10|         3|          1|          1|     8|       yes|"],
    );
    let dir = project_dir(
        kernel,
        tb,
        config,
        &[("k_csynth.rpt", top.as_str()), ("f_csynth.rpt", f.as_str()), ("f_1_csynth.rpt", f_1.as_str())],
    );
    let csynth = dir.path().join("k_csynth.rpt");
    let e = sim(dir.path(), &["--csynth", csynth.to_str().unwrap()])["estimate"].clone();
    assert_eq!(counts(&e["per_call"]), [33], "{e}");
}

/// `sim --no-csynth` (JSON) of a project of `kernel.cpp` and `tb.cpp` whose `script.tcl` is as
/// `tool` (`Vitis`, `Vivado`) of `year` writes it: the release decides the defaults.
fn sim_tool_script(kernel: &str, tb: &str, top: &str, tool: &str, year: u32) -> Value {
    let body = format!(
        "open_project proj\nset_top {top}\nadd_files kernel.cpp\nadd_files -tb tb.cpp\n\
         open_solution \"solution1\"\ncreate_clock -period 10 -name default\n"
    );
    let dir = project_dir(kernel, tb, "", &[("script.tcl", &common::generated_script(tool, year, &body))]);
    sim_script_json(&dir.path().join("script.tcl"))
}

/// `sim --no-csynth` (JSON) of a project's `script.tcl`.
fn sim_script_json(script: &Path) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_hlsinstr"))
        .args(["sim", "--quiet", "--no-csynth", "--format", "json", "--hls-include"])
        .arg(hls_include())
        .arg(script)
        .output()
        .expect("run hlsinstr");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Without a report, an array partitioned `complete` on each of its dimensions is registers
/// (UG1399 "pragma HLS array_partition": `complete` decomposes the array into its elements;
/// `dim=1` of a one-dimensional array is all of it): no memory port holds a pipeline back,
/// whatever its indices. The public Vitis 2020.2 `aaa` (UG871's data-dependence lab) pipelines
/// `r[i] = a[i] + a[i+1] + a[i+2] + ...; r[i+2] = r[i+1] + r[i] + 1` over arguments split by
/// `set_directive_array_partition -type complete -dim 1`: II 1 and an iteration latency of 1
/// in its report, 11 cycles in co-simulation for 10 trips. Per call here (Vitis 2020, no
/// `_Pipeline_` module, 10 trips, register logic only: depth 1): `(10 − 1) × 1 + (1 − 1)` and
/// the handshake's 2: 11. Before, each access counted against every register its index could
/// reach over the loop (`a[i]`, `a[i+1]`, `a[i+2]` all reach elements 2 to 9): II 2 and a depth
/// of 3, `9 × 2 + 2 + 2` = 22. With `complete dim=0`, the same 11 (it was already registers).
#[test]
fn without_a_report_a_one_dimensional_complete_partition_is_registers() {
    let kernel = "void k(int a[12], int r[12]) {\n\
                  #pragma HLS ARRAY_PARTITION variable=a complete dim=1\n\
                  #pragma HLS ARRAY_PARTITION variable=r complete dim=1\n\
                  \x20 for (int i = 0; i < 10; i++) {\n#pragma HLS PIPELINE II=1\n    \
                  r[i] = a[i] + a[i + 1] + a[i + 2];\n    r[i + 2] = r[i + 1] + r[i] + 1;\n  }\n}\n";
    let tb = "void k(int a[12], int r[12]);\n\
              int main() { int a[12] = {1, 2, 3}, r[12] = {0}; k(a, r); return r[0] == 6 ? 0 : 1; }\n";
    let per_call = |kernel: &str| counts(&sim_tool_script(kernel, tb, "k", "Vitis", 2020)["estimate"]["per_call"]);
    assert_eq!(per_call(kernel), [11]);
    assert_eq!(per_call(&kernel.replace("complete dim=1", "complete dim=0")), [11]);
}

/// Without a report, Vivado HLS gives a loop's exit test states of its own after the last
/// iteration, 1 (2 after a pipeline), and a function of loops no handshake; a loop around a
/// loop takes 1 state of its own beside its inner loop's latency and exit (the public Vivado
/// HLS designs' reports: `mlp`, 2019.1, four loops of 35295 + 384 + 600 + 750 in a function of
/// 37033; `do_convolution`, 2018.1, four pipelines of 39 in 47; `multiply_matrices`'
/// `Column_Loop` 17 = 15 + 1 + 1). Per call of the kernel below, n trips: the pipeline
/// `(n − 1) + (depth 2 − 1)` + 2; the nest `n × (1 + (4 × 2 + 1)) + 1`; the last loop
/// `n × 2 + 1` (a read and logic: 2 an iteration, the read in the exit test's state, as the
/// public 2019.1 `des_dec`'s table loops): 13n + 4 (16: 212, 40: 524). Without the exit states
/// (the handshake of 2, an outer iteration of 2 + 8): n + 10n + 2n + 2 = 13n + 2.
#[test]
fn without_a_report_vivado_hls_loops_exit_in_states_of_their_own() {
    let kernel = "void k(int a[64], int n) {\n\
                  \x20 for (int i = 0; i < n; i++) {\n#pragma HLS PIPELINE II=1\n    a[i] = a[i] + 1;\n  }\n\
                  \x20 for (int i = 0; i < n; i++) {\n    for (int j = 0; j < 4; j++) {\n      a[i] = a[i] + j;\n    }\n  }\n\
                  \x20 for (int i = 0; i < n; i++) {\n    a[i] = a[i] * 3;\n  }\n}\n";
    let tb =
        "void k(int a[64], int n);\nint main() { int a[64] = {0}; k(a, 16); k(a, 40); return a[1] > 0 ? 0 : 1; }\n";
    let per_call =
        |tool: &str, year: u32| counts(&sim_tool_script(kernel, tb, "k", tool, year)["estimate"]["per_call"]);
    assert_eq!(per_call("Vivado", 2019), [212, 524]);
}

/// Without a report, a loop that is not pipelined sends the read that opens its body's path in
/// the exit test's state and takes its data in the next, the 2 every iteration has: a read and
/// logic is 2 an iteration (the public Vivado HLS 2019.1 `des_dec`'s seven table loops, `x =
/// (x << 1) | ((y >> (64 - T[i])) & 1)`), a read and a 32-bit multiply of one register stage 3
/// (2017.4's UG871 `fir`, `acc += d * c[i]`: 11 × 3 + 1 = 34, its report and co-simulation), a
/// read and a combinational 16-bit multiply and add 3 too, since they do not fit in the data's
/// state (2019.1's `multiply_matrices`, `Sum_Loop` 3). Vivado HLS: each loop's exit state, no
/// handshake. Per call, n trips: (2n + 1) + (3n + 1) + (3n + 1) = 8n + 3: 131 and 323 for 16 and
/// 40; charging every opening read a state gave 11n + 3.
#[test]
fn without_a_report_an_opening_read_shares_the_exit_tests_state() {
    let kernel = "typedef unsigned long long u64;
typedef short s16;
                  void k(const char t[64], const int c[64], const s16 a[64], const s16 b[64], u64 y, int n, u64 *o, int *p, s16 *q) {
                    u64 x = 0; int acc = 0; s16 acc16 = 0;
                    for (int i = 0; i < n; i++) {
    x <<= 1;
    x |= (y >> (64 - t[i])) & 1;
  }
                    for (int i = 0; i < n; i++) {
    acc += n * c[i];
  }
                    for (int i = 0; i < n; i++) {
    acc16 += a[i] * b[i];
  }
                    *o = x; *p = acc; *q = acc16;
}
";
    let tb = "typedef unsigned long long u64;
typedef short s16;
              void k(const char t[64], const int c[64], const s16 a[64], const s16 b[64], u64 y, int n, u64 *o, int *p, s16 *q);
              int main() { char t[64]; int c[64]; s16 a[64], b[64]; u64 o; int p; s16 q;
                for (int i = 0; i < 64; i++) { t[i] = 1 + i % 60; c[i] = i; a[i] = i; b[i] = 2; }
                k(t, c, a, b, 12345, 16, &o, &p, &q); k(t, c, a, b, 12345, 40, &o, &p, &q); return p > 0 ? 0 : 1; }
";
    let rep = sim_tool_script(kernel, tb, "k", "Vivado", 2019);
    assert_eq!(counts(&rep["estimate"]["per_call"]), [131, 323], "{:#}", rep["rows"]);
    // `--explain` names whose defaults it applied.
    let body =
        "open_project proj\nset_top k\nadd_files kernel.cpp\nadd_files -tb tb.cpp\nopen_solution \"solution1\"\n";
    for (tool, year, says) in [("Vivado", 2019, "Vivado HLS' defaults"), ("Vitis", 2022, "Vitis' defaults")] {
        let dir = project_dir(kernel, tb, "", &[("script.tcl", &common::generated_script(tool, year, body))]);
        let out = Command::new(env!("CARGO_BIN_EXE_hlsinstr"))
            .args(["sim", "--quiet", "--no-csynth", "--explain", "--hls-include"])
            .arg(hls_include())
            .arg(dir.path().join("script.tcl"))
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains(&format!("report: none (pragmas, directives and {says})")), "{text}");
    }
}

/// Without a report, `ARRAY_PARTITION complete dim=1` of a two-dimensional array leaves a
/// memory per row (UG1399: `complete` splits only the dimension `dim` names, 1 by default): a
/// read of it is a state of the chain, as in the public Vivado HLS 2018.1 `do_convolution`,
/// whose `line_buf[2][5]` (`complete dim=1`), read into registers, makes a pipeline of depth 2.
/// Per call (Vivado HLS, n trips): the fill `(n − 1) + (2 − 1) + 2` (exit), the window loop
/// `(n − 2) + (2 − 1) + 2`: 2n + 3 (16: 35, 40: 83); with `dim=0` (registers) the window
/// loop's depth is 1: 2n + 2, which `dim=1` gave too before.
#[test]
fn without_a_report_a_row_partition_of_a_2d_array_is_still_read_from_memory() {
    let kernel = "void k(int in[64], int out[64], int n) {\n  int buf[2][64];\n  int win[2];\n\
                  #pragma HLS ARRAY_PARTITION variable=buf complete dim=1\n\
                  #pragma HLS ARRAY_PARTITION variable=win complete\n\
                  \x20 for (int i = 0; i < n; i++) {\n#pragma HLS PIPELINE II=1\n    buf[i & 1][i] = in[i];\n  }\n\
                  \x20 for (int i = 1; i < n; i++) {\n#pragma HLS PIPELINE II=1\n    win[0] = buf[0][i];\n    \
                  win[1] = buf[1][i - 1];\n    out[i] = win[0] + win[1];\n  }\n}\n";
    let tb = "void k(int in[64], int out[64], int n);\n\
              int main() { int a[64] = {1}, b[64] = {0}; k(a, b, 16); k(a, b, 40); return 0; }\n";
    let per_call = |kernel: &str| counts(&sim_tool_script(kernel, tb, "k", "Vivado", 2019)["estimate"]["per_call"]);
    assert_eq!(per_call(kernel), [35, 83]);
    assert_eq!(per_call(&kernel.replace("complete dim=1", "complete dim=0")), [34, 82]);
}

/// Without a report, the `memcpy`s of a DATAFLOW function are in the region's chain: a copy
/// fills a buffer a process reads or empties one it wrote, and a process reading an array waits
/// for the one filling it (a ping-pong buffer: UG1399, the consumer starts when the producer is
/// done). They were left out (the public 2020.2 `kernel`, three copies in, a loop and a copy
/// out: 119 cycles for its co-sim's 512): a DATAFLOW function of one loop and its copies takes
/// what the same function without DATAFLOW takes. And before
/// Vitis 2021 (no `_Pipeline_` module: a copy is a loop of the function's own state machine)
/// the copies run one after another whatever their bundles (UG1393 2020.2 "Sequential Loops";
/// the 2020.2 `kernel`'s report: its copies of three bundles one after another).
#[test]
fn without_a_report_a_dataflow_functions_copies_are_in_its_chain() {
    let kernel = |dataflow: bool| {
        format!(
            "#include <string.h>\nvoid k(int *a, int *b, int *c) {{\n{}\
             #pragma HLS INTERFACE m_axi depth=64 bundle=gmem0 port=a\n\
             #pragma HLS INTERFACE m_axi depth=64 bundle=gmem1 port=b\n\
             #pragma HLS INTERFACE m_axi depth=64 bundle=gmem2 port=c\n\
             #pragma HLS INTERFACE s_axilite port=return\n\
             \x20 int al[64], bl[64], cl[64];\n\
             \x20 memcpy(bl, b, 64 * sizeof(int));\n  memcpy(cl, c, 64 * sizeof(int));\n\
             add:\n  for (int i = 0; i < 64; i++) {{\n#pragma HLS pipeline II=1\n    al[i] = bl[i] + cl[i];\n  }}\n\
             \x20 memcpy(a, al, 64 * sizeof(int));\n}}\n",
            if dataflow { "#pragma HLS DATAFLOW\n" } else { "" }
        )
    };
    let tb = "void k(int *a, int *b, int *c);\nint main() {\n  static int a[64], b[64], c[64];\n  \
              for (int i = 0; i < 64; i++) { b[i] = i; c[i] = 2 * i; }\n  k(a, b, c);\n  return a[5] != 15;\n}\n";
    // A Vitis script: its header's copyright year is the release (`project`).
    let script = |year: u32| {
        let body = "open_project p\nset_top k\nadd_files kernel.cpp\nadd_files -tb tb.cpp\n\
                    open_solution \"solution1\" -flow_target vivado\nset_part {xczu9eg-ffvb1156-2-e}\n\
                    create_clock -period 10 -name default\ncsynth_design\n";
        common::generated_script("Vitis", year, body)
    };
    let run = |dataflow: bool, year: u32| -> (u64, u64) {
        let dir = project_dir(&kernel(dataflow), tb, "", &[("script.tcl", &script(year))]);
        let rep = sim_script_json(&dir.path().join("script.tcl"));
        let rows = rep["rows"].as_array().unwrap();
        let add = rows.iter().find(|r| r["name"] == "add").expect("the add loop's row");
        (counts(&rep["estimate"]["per_call"])[0], add["cycles"].as_f64().unwrap() as u64)
    };
    // 2022: a copy is a module of elements + 3 (rule 1): 67. A port's bytes are recorded when
    // the invocation ends, so the copies are one group, their busiest bundle: b (gmem1), c
    // (gmem2) and a (gmem0) side by side (rule 2; the copy out's wait for the loop is not
    // seen): 67, after the loop (63 + its tail), and the AXI top's 13 (rule 11).
    let (plain, add) = run(false, 2022);
    assert_eq!(plain, 13 + add + 67);
    assert_eq!(run(true, 2022), (plain, add), "DATAFLOW: the same chain (it was 13 + the loop)");
    // 2020: a copy is a loop of the function, elements + 1 (no `_Pipeline_` module), and the
    // three run one after another: 3 × 65.
    let (old, add) = run(true, 2020);
    assert_eq!(old, 13 + add + 3 * 65);
    assert_eq!(run(false, 2020).0, old);
}

/// Without a report, a loop whose body holds only loops unrolled fully and calls of inlined
/// functions is an innermost loop (UG1399 "Automatic Loop Pipelining": the automatic pipelining
/// applies after the user's directives, so the `UNROLL` loops and `INLINE` calls have dissolved
/// by then; the public 2022.1 `harris` pipelines such loops). `j` (16 trips) holds an `UNROLL`
/// loop and a call of an `INLINE` function, in a perfect nest under `i` (4 trips); its body is
/// register logic and a store of the top's array (depth 1, no memory read).
/// - Vitis before 2023 (UG1399 2021.2/2022.2: the small innermost loop is pipelined itself; the
///   2022.1 `harris` report flattens its 128 × 16 nests into pipelines of 2048 trips): `j` is
///   the pipeline and the nest is flattened, 64 trips at II 1: `(64 − 1) × 1 + (1 − 1) + 2` (the
///   `_Pipeline_` module) = 65, and the top's handshake 2: 67.
/// - Vitis 2023 on (UG1399 2023.2: "the tool unrolls loop1 into loop2, and marks loop2 to be
///   pipelined"; the 2025.1 `sha256Accel` report): `j` is unrolled into `i`, which is the
///   pipeline: 16 stores of `out` an iteration on its 2 ports, II 8, the tail 2 + the 8 states
///   of those stores: `(4 − 1) × 8 + 10` = 34, and the handshake 2: 36.
#[test]
fn without_a_report_unrolled_loops_and_inlined_calls_leave_a_loop_innermost() {
    let kernel = "static int twice(int x) {\n#pragma HLS INLINE\n  return x + x;\n}\n\
                  void k(int out[64]) {\n  for (int i = 0; i < 4; i++) {\n    for (int j = 0; j < 16; j++) {\n      \
                  int s = 0;\n      for (int e = 0; e < 4; e++) {\n#pragma HLS UNROLL\n        s += j + e;\n      }\n      \
                  out[i * 16 + j] = twice(s) + i;\n    }\n  }\n}\n";
    let tb = "void k(int out[64]);\nint main() { int out[64]; k(out); return out[17] == 2 * (4 + 6) + 1 ? 0 : 1; }\n";
    let run = |year: u32| {
        let rep = sim_tool_script(kernel, tb, "k", "Vitis", year);
        let rows = rep["rows"].as_array().unwrap().clone();
        let row = |line: u64| rows.iter().find(|r| r["line"] == line && r["kind"] == "loop").unwrap().clone();
        let (i, j) = (row(6), row(7)["timing"].clone());
        let flattened = i["nest"]["role"] == "head";
        let flag = rep["defaults"]["flatten_small_perfect_nests"].clone();
        (counts(&rep["estimate"]["per_call"]), i["timing"]["pipelined"]["value"] == true, flattened, j, flag)
    };
    // 2022: the head `i` stands for the flattened nest (a pipeline), `j` is its member.
    let (before, i_before, flat_before, _, flag_before) = run(2022);
    assert_eq!(before, vec![67], "2022: the nest flattened into one pipeline");
    assert!(i_before && flat_before, "2022: one flattened pipeline");
    assert_eq!(flag_before, true);
    // 2023: `i` is the pipeline, `j` unrolled in it, no flattened nest.
    let (after, i_after, flat_after, j_after, flag_after) = run(2023);
    assert_eq!(after, vec![36], "2023: j unrolled into i, i the pipeline");
    assert!(i_after && !flat_after && j_after["pipelined"]["value"] == false, "2023: i is the pipeline");
    assert_eq!(flag_after, false);
}

/// Without a report, before 2023, a perfect nest whose iterations a run are no more than the
/// `pipeline_loops` threshold (64) is unrolled whole into the loop around it, which becomes the
/// pipeline, where a bigger one is pipelined and flattened itself: the public 2020.2 `lenet5`
/// (no pragmas) pipelines its pixel loops with their 5 × 5 × 1 windows and 2 × 2 poolings
/// unrolled into them, and flattens its 5 × 5 × 16 window (400) into one pipeline. Here a pixel
/// loop `y` (8 trips, `s = 0` before the window and a store of the top's array after it) around
/// a 3 × 3 window of register logic: `y` is the pipeline, 8 trips at II 1, depth 1, the
/// function's only loop (no `_Pipeline_` module), `(8 − 1) × 1 + (1 − 1)` = 7, and the top's
/// handshake 2: 9. A 3 × 30 window (90) stays the pipeline, flattened (`i` its head), `y` a loop
/// around it.
#[test]
fn without_a_report_a_small_perfect_nest_is_unrolled_into_the_loop_around_it() {
    let kernel = |inner: u32| {
        format!(
            "void k(int out[8]) {{\n  for (int y = 0; y < 8; y++) {{\n    int s = 0;\n    \
             for (int i = 0; i < 3; i++)\n      for (int j = 0; j < {inner}; j++)\n        s += y + i - j;\n    \
             out[y] = s;\n  }}\n}}\n"
        )
    };
    let tb = "void k(int out[8]);\nint main() { int out[8]; k(out); return out[0] != 1 ? 0 : 1; }\n";
    let run = |inner: u32| {
        let rep = sim_tool_script(&kernel(inner), tb, "k", "Vitis", 2022);
        let rows = rep["rows"].as_array().unwrap().clone();
        let row = |line: u64| rows.iter().find(|r| r["line"] == line && r["kind"] == "loop").unwrap().clone();
        let pipelined = |line: u64| row(line)["timing"]["pipelined"]["value"] == true;
        let head = row(4)["nest"]["role"] == "head";
        (counts(&rep["estimate"]["per_call"]), pipelined(2), pipelined(4), head)
    };
    let (small, y, i, head) = run(3);
    assert!(y && !i && !head, "y is the pipeline");
    assert_eq!(small, vec![9], "the 3 x 3 window unrolled into y, y the pipeline");
    let (_, y, i, head) = run(30);
    assert!(!y && i && head, "the 3 x 30 window is the pipeline, flattened");
}

/// Without a report, `ARRAY_RESHAPE` joins the elements of an array into wider words, and the
/// accesses of one word are one access (UG1399 "pragma HLS array_reshape"); a parameter takes
/// its caller's reshape (the callee cannot change its caller's memory: the public 2022.1
/// `harris` reshapes its top's image `cyclic factor=8` and its `read_input` reads 8 elements an
/// iteration at II 1). `sum8` (called once: inlined, its loop a `_Pipeline_` module of the
/// top) reads 8 elements of `in` an iteration, its `j` loop unrolled: with the caller's reshape
/// they are one word, II 1, depth 2 (a read from the memory, then the adds): `(8 − 1) × 1 + (2 −
/// 1) + 2` = 10, and the top's handshake 2: 12. Without the reshape, 8 reads on 2 ports: II 4,
/// the tail 3 + the 3 states after the first read: `(8 − 1) × 4 + 6` = 34, and 2: 36.
#[test]
fn without_a_report_a_reshaped_word_is_one_access() {
    let kernel = |pragma: &str| {
        format!(
            "static void sum8(int in[64], int out[8]) {{\n  for (int i = 0; i < 8; i++) {{\n    int s = 0;\n    \
             for (int j = 0; j < 8; j++) {{\n#pragma HLS UNROLL\n      s += in[i * 8 + j];\n    }}\n    out[i] = s;\n  }}\n}}\n\
             void k(int a[64], int out[8]) {{\n{pragma}  sum8(a, out);\n}}\n"
        )
    };
    let tb = "void k(int a[64], int out[8]);\nint main() { int a[64], out[8];\n\
              for (int i = 0; i < 64; i++) a[i] = i;\nk(a, out); return out[1] == 92 ? 0 : 1; }\n";
    let per_call =
        |pragma: &str| counts(&sim_tool_script(&kernel(pragma), tb, "k", "Vitis", 2023)["estimate"]["per_call"]);
    assert_eq!(per_call("#pragma HLS ARRAY_RESHAPE variable=a cyclic factor=8 dim=1\n"), vec![12]);
    assert_eq!(per_call(""), vec![36]);
}

/// Without a report, a pipeline's single-beat m_axi reads bound its II: a bundle takes one read
/// request a cycle, so `k` reads an iteration on one bundle need II `k` (Vitis: "unable to
/// schedule bus request ... due to limited memory ports"; the public 2020.2 `lenet5` pipelines a
/// flattened nest of 50 m_axi reads an iteration at II 51 for its target 1). `s += w[i * 4] +
/// v[i * 4]` over 16 trips at `PIPELINE II=1`: both ports in Vitis' default bundle, II 2, a run
/// of (16 - 1) x 1 = 15 cycles more than with a bundle each, and the same as asking for II 2.
/// Vivado HLS 2019.2: its adapter's read waits are not charged, so the II is all that differs.
#[test]
fn without_a_report_single_m_axi_reads_on_one_bundle_bound_the_ii() {
    let kernel = |bundles: &str, ii: u32| {
        format!(
            "void k(const int w[64], const int v[64], int *out) {{\n\
             #pragma HLS INTERFACE m_axi port=w offset=slave{}\n\
             #pragma HLS INTERFACE m_axi port=v offset=slave{}\n\
             \x20 int s = 0;\n\
             \x20 Acc: for (int i = 0; i < 16; i++) {{\n\
             #pragma HLS PIPELINE II={ii}\n\
             \x20   s += w[i * 4] + v[i * 4];\n\
             \x20 }}\n\
             \x20 *out = s;\n}}\n",
            if bundles.is_empty() { "" } else { " bundle=a" },
            if bundles.is_empty() { "" } else { " bundle=b" },
        )
    };
    let tb = "void k(const int w[64], const int v[64], int *out);\n\
              int main() { int w[64], v[64], o = 0; for (int i = 0; i < 64; i++) w[i] = v[i] = i; k(w, v, &o); return o > 0 ? 0 : 1; }\n";
    let run =
        |bundles: &str, ii: u32| sim_tool_script(&kernel(bundles, ii), tb, "k", "Vivado", 2019)["estimate"].clone();
    let shared = run("", 1);
    let apart = run("apart", 1);
    let asked = run("", 2);
    let (shared_n, apart_n) = (counts(&shared["per_call"])[0], counts(&apart["per_call"])[0]);
    assert_eq!(shared_n, apart_n + 15, "{shared}\n{apart}");
    let waits = shared["single_read_waits"].as_array().expect("single_read_waits listed");
    assert_eq!(
        (waits.len(), waits[0]["reads"].as_u64(), waits[0]["ii"].as_u64(), waits[0]["cycles"].as_u64()),
        (1, Some(32), Some(2), Some(15)),
        "{shared}"
    );
    assert!(apart.get("single_read_waits").is_none(), "{apart}");
    assert_eq!(counts(&asked["per_call"])[0], shared_n, "{asked}");
    assert!(asked.get("single_read_waits").is_none(), "{asked}");
}

/// The estimate (with `report`) of a kernel whose loop `Acc` (16 trips, `#pragma HLS <pragma>`)
/// sums `w[<index>]` of an m_axi port.
fn read_loop_estimate(report: &str, pragma: &str, index: &str) -> Value {
    let tb = "void k(const int w[64], int *out);\n\
              int main() { int w[64], o = 0; for (int i = 0; i < 64; i++) w[i] = i; k(w, &o); return o > 0 ? 0 : 1; }\n";
    let config = "part=xc7z020-clg400-1\n[hls]\nsyn.file=kernel.cpp\nsyn.top=k\ntb.file=tb.cpp\nclock=10ns\n";
    let kernel = format!(
        "void k(const int w[64], int *out) {{\n\
         #pragma HLS INTERFACE m_axi port=w offset=slave\n\
         \x20 int s = 0;\n\
         \x20 Acc: for (int i = 0; i < 16; i++) {{\n\
         #pragma HLS {pragma}\n\
         \x20   s += w[{index}];\n\
         \x20 }}\n\
         \x20 *out = s;\n}}\n"
    );
    let dir = project_dir(&kernel, tb, config, &[("k_csynth.rpt", report)]);
    let csynth = dir.path().join("k_csynth.rpt");
    sim(dir.path(), &["--csynth", csynth.to_str().unwrap()])["estimate"].clone()
}

/// [`read_loop_estimate`] of `w[i * 4]`: `strided` cycles a call, its 16 reads listed as one
/// wait of `name` and `cycles`; of `w[i]` (a forward run, a burst): `forward`, no wait.
fn assert_read_waits(report: &str, pragma: &str, (strided, name, cycles): (u64, &str, u64), forward: u64) {
    let e = read_loop_estimate(report, pragma, "i * 4");
    assert_eq!(counts(&e["per_call"]), [strided], "{e}");
    let waits = e["single_read_waits"].as_array().expect("single_read_waits listed");
    assert_eq!(
        (waits.len(), waits[0]["name"].as_str(), waits[0]["reads"].as_u64(), waits[0]["cycles"].as_u64()),
        (1, Some(name), Some(16), Some(cycles))
    );
    let e = read_loop_estimate(report, pragma, "i");
    assert_eq!(counts(&e["per_call"]), [forward], "{e}");
    assert!(e.get("single_read_waits").is_none(), "{e}");
}

/// A single-beat m_axi read outside a pipeline waits for the adapter too: the state machine
/// waits in the state that takes the read's data, due 7 steps after the request at interface
/// latency 0, while the pre-2022 adapter and co-sim's memory take 13. `Acc` (`PIPELINE off`,
/// 16 trips) reads `w[i * 4]`: the report's 50 and 16 × (13 − 7) = 96: 146 a call. `w[i]` is a
/// forward run of the loop's counter, which Vitis may make a burst: not charged, the report's
/// 50. The public 2020.2 `lenet5` reads its conv1 biases so (2048 reads, +12288), which took
/// its estimate with the report from 0.5 to 0.0 % of co-simulation.
#[test]
fn single_reads_outside_a_pipeline_wait_for_the_adapter() {
    let report = report_2020_2(
        "|       50|       50|  0.500 us|  0.500 us|   51|   51|     none|",
        &["|- Acc     |       48|       48|         3|          -|          -|    16|        no|"],
    );
    assert_read_waits(&report, "PIPELINE off", (146, "k", 96), 50);
}

/// A pipelined loop's single-beat m_axi reads wait for the adapter (docs/cycle-model.md, "m_axi
/// single reads in a pipeline"): the Vivado IP flow of 2020.2 schedules a read 7 steps after its
/// request (interface latency 0) where the pre-2022 adapter and co-sim's memory take 13, and the
/// pipeline stalls whole while a due read has no data. `w[i * 4]`, 16 reads at II 1: the first
/// read of each window of 7 waits 6 (steps 7, 14, 21): 26 + 18 = 44 a call. `w[i]` is one
/// forward run of the loop's counter, a burst Vitis makes: the report's 26.
#[test]
fn single_reads_in_a_pipeline_wait_for_the_adapter_and_a_forward_run_does_not() {
    let report = report_2020_2(
        "|       26|       26|  0.260 us|  0.260 us|   27|   27|     none|",
        &["|- Acc     |       24|       24|         9|          1|          1|    16|       yes|"],
    );
    assert_read_waits(&report, "PIPELINE II=1", (44, "Acc", 18), 26);
}

/// A loop whose iteration latency is a range and whose one child loop runs in some iterations
/// only: an iteration that runs it takes the child's run and the states of its path, the
/// iteration's worst case less its best and less the child's worst case. `Rows` (2 ~ 12 an
/// iteration) runs `Elems` (0 ~ 8) for the rows with elements, 3 and 5 of them here: 4 × 2,
/// then 2 × ((12 − 2) − 8) = 4 for the two paths, then the runs' 6 + 8: 26, the top's 10 ~ 50
/// corrected by it: 28 (24 before: the path's states were not counted). The public 2024.1
/// `SpMV` (a row loop of 2 ~ 521 around a `_Pipeline_` module's loop of 0 ~ 515): 20.9 → 7.1 %.
#[test]
fn a_conditional_child_loop_brings_the_states_of_its_path() {
    let report = report_2020_2(
        "|       10|       50|  0.100 us|  0.500 us|   11|   51|     none|",
        &[
            "|- Rows    |        8|       48|    2 ~ 12|          -|          -|     4|        no|",
            "| + Elems  |        0|        8|         4|          1|          1| 0 ~ 5|       yes|",
        ],
    );
    let kernel = "void k(const int n[4], int *out) {\n\
                  \x20 int s = 0;\n\
                  \x20 Rows: for (int r = 0; r < 4; r++) {\n\
                  \x20   if (n[r] > 0) {\n\
                  \x20     Elems: for (int j = 0; j < n[r]; j++) {\n\
                  #pragma HLS PIPELINE II=1\n\
                  \x20       s += j;\n\
                  \x20     }\n\
                  \x20   }\n\
                  \x20 }\n\
                  \x20 *out = s;\n}\n";
    let tb = "void k(const int n[4], int *out);\n\
              int main() { int n[4] = {3, 0, 5, 0}, o = 0; k(n, &o); return o == 13 ? 0 : 1; }\n";
    let config = "part=xc7z020-clg400-1\n[hls]\nsyn.file=kernel.cpp\nsyn.top=k\ntb.file=tb.cpp\nclock=10ns\n";
    let dir = project_dir(kernel, tb, config, &[("k_csynth.rpt", report.as_str())]);
    let csynth = dir.path().join("k_csynth.rpt");
    let e = sim(dir.path(), &["--csynth", csynth.to_str().unwrap()])["estimate"].clone();
    assert_eq!(counts(&e["per_call"]), [28], "{e}");
}

/// Vitis does not burst the reads of two ports of one bundle in one loop (its message 214-224,
/// "Burst Inference Failure 2"; a public 2025.2 report: "Could not burst due to multiple
/// potential reads to the same bundle in the same region"): `s += w[i] + v[i]` with both on
/// `gmem` makes 32 single reads, one a step at II 2, each window of 7 steps waiting 13 − 7 = 6
/// (reads 0, 7, 14, 21, 28): the report's 41 + 30 = 71 a call. On two bundles each is a forward
/// run, a burst: the report's 41. The public 2023.1 `mac` (three ports on one bundle, per-module
/// report without a burst table): 65.7 → 47.4 % of co-simulation.
#[test]
fn reads_of_two_ports_of_one_bundle_in_one_loop_are_single() {
    let report = report_2020_2(
        "|       41|       41|  0.410 us|  0.410 us|   42|   42|     none|",
        &["|- Acc     |       39|       39|         9|          2|          2|    16|       yes|"],
    );
    let tb = "void k(const int w[64], const int v[64], int *out);\n\
              int main() { int w[64], v[64], o = 0; for (int i = 0; i < 64; i++) w[i] = v[i] = i; k(w, v, &o); return o > 0 ? 0 : 1; }\n";
    let config = "part=xc7z020-clg400-1\n[hls]\nsyn.file=kernel.cpp\nsyn.top=k\ntb.file=tb.cpp\nclock=10ns\n";
    let run = |bundles: (&str, &str)| {
        let kernel = format!(
            "void k(const int w[64], const int v[64], int *out) {{\n\
             #pragma HLS INTERFACE m_axi port=w offset=slave bundle={}\n\
             #pragma HLS INTERFACE m_axi port=v offset=slave bundle={}\n\
             \x20 int s = 0;\n\
             \x20 Acc: for (int i = 0; i < 16; i++) {{\n\
             #pragma HLS PIPELINE II=2\n\
             \x20   s += w[i] + v[i];\n\
             \x20 }}\n\
             \x20 *out = s;\n}}\n",
            bundles.0, bundles.1
        );
        let dir = project_dir(&kernel, tb, config, &[("k_csynth.rpt", report.as_str())]);
        let csynth = dir.path().join("k_csynth.rpt");
        sim(dir.path(), &["--csynth", csynth.to_str().unwrap()])["estimate"].clone()
    };
    let e = run(("gmem", "gmem"));
    assert_eq!(counts(&e["per_call"]), [71], "{e}");
    let waits = e["single_read_waits"].as_array().expect("single_read_waits listed");
    assert_eq!((waits.len(), waits[0]["reads"].as_u64(), waits[0]["cycles"].as_u64()), (1, Some(32), Some(30)));
    let e = run(("b1", "b2"));
    assert_eq!(counts(&e["per_call"]), [41], "{e}");
    assert!(e.get("single_read_waits").is_none(), "{e}");
}

/// A port read in two pipelined loops of one function: the run counts its reads per call, so
/// they are shared out by the loops that hold them, each read once a trip of its innermost loop,
/// when that accounts for every read counted. `w[i * 5 % 64]` is no forward run (single
/// reads). `A`, one read every 2 steps (II 2), 16 reads: each window of 7 steps holds 4 of them
/// and waits 13 − 7 = 6 once, 4 × 6 = 24; `B`, one every 4 steps (II 4), 10 reads in windows of
/// 2: 5 × 6 = 30. The report's 86 + 54 = 140 a call (86 before: a port read in more than one
/// loop was not counted). With `B`'s read under an `if`, the shares no longer add up to the
/// reads counted: nothing is placed, 86. The public 2025.2 `conv2d` (its weights read in three
/// pipelines): 17.2 → 14.2 % of co-simulation with its report, 45.6 → 23.4 % without.
#[test]
fn a_port_read_in_two_pipelines_shares_its_reads_out_by_their_trips() {
    let report = report_2020_2(
        "|       86|       86|  0.860 us|  0.860 us|   87|   87|     none|",
        &[
            "|- A       |       39|       39|         9|          2|          2|    16|       yes|",
            "|- B       |       45|       45|         9|          4|          4|    10|       yes|",
        ],
    );
    let tb = "void k(const int w[64], int *out);\n\
              int main() { int w[64], o = 0; for (int i = 0; i < 64; i++) w[i] = i; k(w, &o); return o > 0 ? 0 : 1; }\n";
    let config = "part=xc7z020-clg400-1\n[hls]\nsyn.file=kernel.cpp\nsyn.top=k\ntb.file=tb.cpp\nclock=10ns\n";
    let run = |b_read: &str| {
        let kernel = format!(
            "void k(const int w[64], int *out) {{\n\
             #pragma HLS INTERFACE m_axi port=w offset=slave bundle=gmem\n\
             \x20 int s = 0, t = 0;\n\
             \x20 A: for (int i = 0; i < 16; i++) {{\n\
             #pragma HLS PIPELINE II=2\n\
             \x20   s += w[i * 5 % 64];\n\
             \x20 }}\n\
             \x20 B: for (int i = 0; i < 10; i++) {{\n\
             #pragma HLS PIPELINE II=4\n\
             \x20   {b_read}\n\
             \x20 }}\n\
             \x20 *out = s + t;\n}}\n"
        );
        let dir = project_dir(&kernel, tb, config, &[("k_csynth.rpt", report.as_str())]);
        let csynth = dir.path().join("k_csynth.rpt");
        sim(dir.path(), &["--csynth", csynth.to_str().unwrap()])["estimate"].clone()
    };
    let e = run("t += w[i * 3 % 64];");
    assert_eq!(counts(&e["per_call"]), [140], "{e}");
    let waits = e["single_read_waits"].as_array().expect("single_read_waits listed");
    let waits: Vec<_> = waits.iter().map(|w| (w["reads"].as_u64(), w["cycles"].as_u64())).collect();
    assert_eq!(waits, [(Some(16), Some(24)), (Some(10), Some(30))], "{e}");
    let e = run("if (i & 1) t += w[i * 3 % 64];");
    assert_eq!(counts(&e["per_call"]), [86], "{e}");
    assert!(e.get("single_read_waits").is_none(), "{e}");
}

/// The Vitis kernel flow without a report (a project of our own after the public 2020.2
/// `example`: a `memcpy` of 50 ints in from an m_axi pointer, a loop, a `memcpy` back, one
/// `INTERFACE m_axi` pragma and nothing else). Its block control and the pointer's offset go on
/// the s_axilite bundle (the flow's defaults), so co-sim's polled window counts the call; the
/// Vivado IP flow leaves the control on ports (the schedule). Before 2021 (this script's
/// header) each copy is a loop of the top's states, which wait the project's m_axi latency:
/// `config_interface -m_axi_latency 0` takes 2 × 64 off the flow's 64.
#[test]
fn without_a_report_the_kernel_flow_puts_control_on_the_bundle_and_copies_wait_its_latency() {
    let kernel = "#include <cstring>\n\
         void k(volatile int *a) {\n\
         #pragma HLS INTERFACE m_axi port=a depth=50\n\
         \x20   int buff[50];\n\
         \x20   std::memcpy(buff, (const int *)a, 50 * sizeof(int));\n\
         \x20   for (int i = 0; i < 50; i++) buff[i] = buff[i] + 100;\n\
         \x20   std::memcpy((int *)a, buff, 50 * sizeof(int));\n\
         }\n";
    let tb = "void k(volatile int *a);\n\
         int main() {\n\
         \x20   static int a[50];\n\
         \x20   for (int i = 0; i < 50; i++) a[i] = i;\n\
         \x20   k(a);\n\
         \x20   return a[49] == 149 ? 0 : 1;\n\
         }\n";
    let run = |flow: &str, config: &str| {
        let ws = tempfile::tempdir().unwrap();
        let sol = ws.path().join("proj/solution1");
        std::fs::create_dir_all(&sol).unwrap();
        std::fs::write(ws.path().join("k.cpp"), kernel).unwrap();
        std::fs::write(ws.path().join("tb.cpp"), tb).unwrap();
        std::fs::write(
            sol.join("script.tcl"),
            format!(
                "############################################################\n\
                 ## This file is generated automatically by Vitis HLS.\n\
                 ## Please DO NOT edit it.\n\
                 ## Copyright 1986-2020 Xilinx, Inc. All Rights Reserved.\n\
                 ############################################################\n\
                 open_project proj\nset_top k\nadd_files k.cpp\nadd_files -tb tb.cpp\n\
                 open_solution \"solution1\" -flow_target {flow}\nset_part {{xc7z020clg400-1}}\n\
                 create_clock -period 5 -name default\n{config}"
            ),
        )
        .unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_hlsinstr"))
            .current_dir(ws.path())
            .args(["sim", "--quiet", "--no-csynth", "--format", "json", "--hls-include"])
            .arg(hls_include())
            .arg(sol.join("script.tcl"))
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let rep: Value = serde_json::from_slice(&out.stdout).unwrap();
        validate_against_schema(&rep);
        let e = &rep["estimate"];
        (counts(&e["per_call"])[0], counts(&e["cosim_per_call"])[0])
    };
    let (vitis, vitis_window) = run("vitis", "");
    let (at_0, at_0_window) = run("vitis", "config_interface -m_axi_latency 0 -m_axi_offset slave\n");
    let (vivado, vivado_window) = run("vivado", "");
    assert_eq!(vitis, at_0 + 2 * 64, "each copy waits the latency: {vitis} vs {at_0} at latency 0");
    assert_eq!(at_0, vivado, "the Vivado flow's latency is 0 too");
    assert!(vitis_window > vitis && at_0_window > at_0, "the kernel flow's polled window: {vitis_window} over {vitis}");
    assert_eq!(vivado_window, vivado, "the Vivado flow: control on ports, the schedule");
}

/// Without a report, a top whose only AXI ports are AXI4-Stream, under the block-level
/// handshake, adds the plain 2 (rule 11's 13 is for s_axilite and m_axi tops), and a loop that
/// fills two constant tables side by side is a ROM (rule 7). A public 2022.2 design of this
/// shape (`dut`: 8 + 8 trips writing an `axis` port after a 64-trip fill of two arrays) runs 22
/// a call in co-sim: 2 + 0 + 10 + 10 (its loops store a copy too: depth 3). Here each loop is
/// 7 + 2 (the default depth of a plain read and write): 2 + 0 + 9 + 9 = 20. With `s_axilite`
/// control the 13 come back: 31.
#[test]
fn without_a_report_a_stream_only_top_has_the_plain_handshake_and_two_tables_are_a_rom() {
    let run = |control: &str| {
        let kernel = format!(
            "#include <hls_stream.h>\nvoid dut(unsigned char start, hls::stream<unsigned char> &out) {{\n\
             #pragma HLS INTERFACE axis port=out\n{control}  unsigned char t1[64];\n  unsigned char t2[64];\n  \
             int i;\n  for (i = 0; i < 64; i++) {{\n    t1[i] = i;\n    t2[i] = i;\n  }}\n  \
             for (int j = 0; j < 8; j++) {{\n#pragma HLS PIPELINE II=1\n    out.write(t1[(start + j) % 64]);\n  }}\n  \
             for (int j = 0; j < 8; j++) {{\n#pragma HLS PIPELINE II=1\n    out.write(t2[(start + j * 8) % 64]);\n  }}\n}}\n"
        );
        let tb = "#include <hls_stream.h>\nvoid dut(unsigned char start, hls::stream<unsigned char> &out);\n\
                  int main() { hls::stream<unsigned char> out; dut(3, out); int s = 0;\n\
                  while (!out.empty()) s += out.read(); return s > 0 ? 0 : 1; }\n";
        let config = &vivado_flow("dut");
        let dir = project_dir(&kernel, tb, config, &[]);
        sim(dir.path(), &["--no-csynth"])
    };
    let rep = run("");
    assert_eq!(counts(&rep["estimate"]["per_call"]), [20], "{}", rep["estimate"]);
    let fill = rep["rows"].as_array().unwrap().iter().find(|r| r["kind"] == "loop" && r["line"] == 7).unwrap();
    assert_eq!(
        (fill["cycles"].as_f64(), &fill["timing"]["constant_table"]),
        (Some(0.0), &serde_json::json!("t1`, `t2"))
    );
    let rep = run("#pragma HLS INTERFACE s_axilite port=return\n");
    assert_eq!(counts(&rep["estimate"]["per_call"]), [31], "{}", rep["estimate"]);
}
