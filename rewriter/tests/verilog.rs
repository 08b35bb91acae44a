//! The Verilog parts (verilog/): the hlsinstr_counter RTL blackbox lints clean under
//! `verilator -Wall`, its testbench passes under Icarus and Verilator (and fails on broken
//! counters), its C model and hls-lib's hlsinstr/hw/counter.h pass their test with g++ and
//! clang++, and the Vitis blackbox JSON agrees with the Verilog ports, latency and yosys's
//! resource figures. A missing tool fails the test: it never skips.
//!
//! Build outputs go to temporary directories; nothing is written into the source tree.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;
use common::{hls_include, repo};

fn verilog(file: &str) -> PathBuf {
    repo().join("verilog").join(file)
}

/// Debian package that provides each tool, for the failure message.
fn package(tool: &str) -> &str {
    match tool {
        "iverilog" | "vvp" => "iverilog",
        "g++" => "g++",
        "clang++" => "clang",
        other => other,
    }
}

/// Runs `cmd`; a tool that is not installed fails the test, saying what to install.
fn run(cmd: &mut Command) -> Output {
    let tool = cmd.get_program().to_string_lossy().into_owned();
    cmd.output().unwrap_or_else(|e| {
        panic!("cannot run {tool}: {e}; install it (apt-get install {}) and run again", package(&tool))
    })
}

fn text(out: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

fn json() -> Value {
    let s = std::fs::read_to_string(verilog("hlsinstr_counter.json")).unwrap();
    serde_json::from_str(&s).expect("verilog/hlsinstr_counter.json parses")
}

/// Icarus: compiles the testbench against `counter` (a path to hlsinstr_counter.v) and runs it.
fn icarus(counter: &Path, work: &Path) -> Output {
    let vvp = work.join("tb.vvp");
    let out = run(Command::new("iverilog")
        .args(["-g2012", "-Wall", "-o"])
        .arg(&vvp)
        .arg(verilog("tb/hlsinstr_counter_tb.v"))
        .arg(counter)
        .current_dir(work));
    assert!(out.status.success(), "iverilog failed:\n{}", text(&out));
    assert!(out.stderr.is_empty(), "iverilog warnings:\n{}", text(&out));
    run(Command::new("vvp").arg("-n").arg(&vvp).current_dir(work))
}

fn passed(out: &Output) -> bool {
    let t = text(out);
    out.status.success() && t.lines().any(|l| l.trim() == "PASS") && !t.contains("ERROR")
}

#[test]
fn counter_and_testbench_lint_clean_under_verilator_wall() {
    let work = tempfile::tempdir().unwrap();
    let out = run(Command::new("verilator")
        .args(["--lint-only", "-Wall", "--top-module", "hlsinstr_counter"])
        .arg(verilog("hlsinstr_counter.v"))
        .current_dir(work.path()));
    assert!(out.status.success() && out.stderr.is_empty(), "verilator -Wall on the counter:\n{}", text(&out));
    let out = run(Command::new("verilator")
        .args(["--lint-only", "--timing", "-Wall", "--top-module", "hlsinstr_counter_tb"])
        .arg(verilog("tb/hlsinstr_counter_tb.v"))
        .arg(verilog("hlsinstr_counter.v"))
        .current_dir(work.path()));
    assert!(out.status.success() && out.stderr.is_empty(), "verilator -Wall on the testbench:\n{}", text(&out));
    assert!(std::fs::read_dir(work.path()).unwrap().next().is_none(), "lint writes nothing");
}

#[test]
fn icarus_testbench_passes() {
    let work = tempfile::tempdir().unwrap();
    let out = icarus(&verilog("hlsinstr_counter.v"), work.path());
    assert!(passed(&out), "Icarus testbench:\n{}", text(&out));
}

#[test]
fn icarus_testbench_fails_on_broken_counters() {
    let source = std::fs::read_to_string(verilog("hlsinstr_counter.v")).unwrap();
    let mutants = [
        ("counts only with ap_ce", "count_reg <= count_reg + 64'd1;", "count_reg <= count_reg + {63'd0, ap_ce};"),
        ("no carry into bit 32", "count_reg <= count_reg + 64'd1;", "count_reg[31:0] <= count_reg[31:0] + 32'd1;"),
        ("reset does not reach the counter", "count_reg <= RESET_VALUE;", "count_reg <= count_reg + 64'd1;"),
        ("ignores ap_continue", "(!done_reg || ap_continue)", "1'b1"),
        ("ignores ap_ce", "ap_start && ap_ce &&", "ap_start &&"),
        ("latency 0 value", "ts_reg <= count_reg;", "ts_reg <= count_reg + 64'd1;"),
    ];
    for (what, from, to) in mutants {
        assert!(source.contains(from), "mutant '{what}': `{from}` is no longer in hlsinstr_counter.v");
        let work = tempfile::tempdir().unwrap();
        let broken = work.path().join("hlsinstr_counter.v");
        std::fs::write(&broken, source.replacen(from, to, 1)).unwrap();
        let out = icarus(&broken, work.path());
        let t = text(&out);
        assert!(!out.status.success() && t.contains("ERROR"), "mutant '{what}' passed the testbench:\n{t}");
    }
}

#[test]
fn verilator_testbench_passes() {
    let work = tempfile::tempdir().unwrap();
    let obj = work.path().join("obj");
    let out = run(Command::new("verilator")
        .args(["--binary", "--timing", "-Wall", "-j", "0", "--top-module", "hlsinstr_counter_tb", "--Mdir"])
        .arg(&obj)
        .arg(verilog("tb/hlsinstr_counter_tb.v"))
        .arg(verilog("hlsinstr_counter.v"))
        .current_dir(work.path()));
    assert!(out.status.success(), "verilator --binary failed:\n{}", text(&out));
    let out = run(Command::new(obj.join("Vhlsinstr_counter_tb")).current_dir(work.path()));
    assert!(passed(&out), "Verilator testbench:\n{}", text(&out));
}

fn cxx(compiler: &str, std: &str, extra: &[&str], exe: Option<&Path>) -> Output {
    let mut cmd = Command::new(compiler);
    cmd.arg(format!("-std={std}"))
        .args(["-Wall", "-Wextra", "-Wpedantic", "-Wshadow", "-Werror", "-pthread", "-I"])
        .arg(repo().join("hls-lib/include"))
        .arg("-isystem")
        .arg(hls_include())
        .args(extra);
    match exe {
        Some(exe) => cmd.arg("-o").arg(exe).arg(verilog("hlsinstr_counter_model.cpp")),
        None => cmd.arg("-fsyntax-only"),
    };
    run(cmd.arg(verilog("tb/hlsinstr_counter_model_tb.cpp")))
}

#[test]
fn c_model_and_counter_h_pass_with_gcc_and_clang() {
    let work = tempfile::tempdir().unwrap();
    for compiler in ["g++", "clang++"] {
        for std in ["c++11", "c++14", "c++17"] {
            let exe = work.path().join(format!("model-{compiler}-{std}"));
            let out = cxx(compiler, std, &[], Some(&exe));
            assert!(out.status.success(), "{compiler} -std={std} failed:\n{}", text(&out));
            let out = run(Command::new(&exe).current_dir(work.path()));
            assert!(out.status.success() && text(&out) == "ok\n", "{compiler} {std}:\n{}", text(&out));
        }
    }
}

#[test]
fn a_float_dependence_is_refused_with_a_message() {
    let out = cxx("g++", "c++14", &["-DHLSINSTR_TEST_REFUSED"], None);
    assert!(!out.status.success(), "a float dependence compiled");
    assert!(text(&out).contains("dep must be an integer, bool, enum, ap_int<W> or ap_uint<W>"), "{}", text(&out));
}

/// The port names of the module in `hlsinstr_counter.v`, from its `input wire`/`output wire` lines.
fn verilog_ports() -> Vec<String> {
    let source = std::fs::read_to_string(verilog("hlsinstr_counter.v")).unwrap();
    source
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("input ") || l.starts_with("output "))
        .map(|l| l.split_whitespace().last().unwrap().trim_end_matches(',').to_string())
        .collect()
}

#[test]
fn blackbox_json_agrees_with_the_verilog_and_the_c_declaration() {
    let j = json();
    assert_eq!(j["c_function_name"], "hlsinstr_counter");
    assert_eq!(j["rtl_top_module_name"], "hlsinstr_counter");
    for f in j["rtl_files"].as_array().unwrap() {
        assert!(verilog(f.as_str().unwrap()).is_file(), "rtl_files: {f} is not in verilog/");
    }
    for f in j["c_files"].as_array().unwrap() {
        assert!(verilog(f["c_file"].as_str().unwrap()).is_file(), "c_files: {f} is not in verilog/");
    }
    // Latency 1 and II 1: what the testbench checks cycle by cycle.
    assert_eq!(j["rtl_performance"]["latency"], "1");
    assert_eq!(j["rtl_performance"]["II"], "1");

    let mut named: Vec<String> = Vec::new();
    for v in j["rtl_common_signal"].as_object().unwrap().values() {
        named.push(v.as_str().unwrap().to_string());
    }
    let params = j["c_parameters"].as_array().unwrap();
    let names: Vec<&str> = params.iter().map(|p| p["c_name"].as_str().unwrap()).collect();
    assert_eq!(names, ["dep", "ts"]);
    assert_eq!(params[0]["c_port_direction"], "in");
    assert_eq!(params[1]["c_port_direction"], "out");
    for p in params {
        for v in p["rtl_ports"].as_object().unwrap().values() {
            named.push(v.as_str().unwrap().to_string());
        }
    }
    let mut ports = verilog_ports();
    ports.sort();
    named.sort();
    assert_eq!(ports, named, "every Verilog port is named in the JSON, and only those");

    let header = std::fs::read_to_string(repo().join("hls-lib/include/hlsinstr/hw/counter.h")).unwrap();
    assert!(header.contains("\nvoid hlsinstr_counter(ap_uint<64> dep, ap_uint<64>& ts);\n"));
    let model = std::fs::read_to_string(verilog("hlsinstr_counter_model.cpp")).unwrap();
    assert!(model.contains("\nvoid hlsinstr_counter(ap_uint<64> dep, ap_uint<64>& ts) {\n"));
}

#[test]
fn resource_figures_in_json_and_docs_are_yosys_output() {
    let out = run(Command::new("bash").arg(repo().join("scripts/verilog-resources.sh")));
    assert!(out.status.success(), "scripts/verilog-resources.sh failed (apt-get install yosys):\n{}", text(&out));
    let report = String::from_utf8(out.stdout).unwrap();
    let figure = |name: &str| -> String {
        let line = report.lines().find(|l| l.starts_with(name)).unwrap_or_else(|| panic!("no {name} in:\n{report}"));
        line.split_whitespace().nth(1).unwrap().to_string()
    };
    let j = json();
    assert_eq!(j["rtl_resource_usage"]["FF"], figure("FF "), "{report}");
    assert_eq!(j["rtl_resource_usage"]["LUT"], figure("LUT "), "{report}");
    assert_eq!(j["rtl_resource_usage"]["DSP"], "0");
    let page = std::fs::read_to_string(repo().join("docs/verilog.md")).unwrap();
    assert!(page.contains(&report), "docs/verilog.md must quote scripts/verilog-resources.sh verbatim:\n{report}");
}

/// The RTL estimate of the monitor (verilog/estimate/): the shared monitor lints clean, and its
/// testbench (random events on N probes compared with one per-probe-register reference slot
/// each) passes under Icarus for several N, both time modes and with and without the longest
/// invocation, and under Verilator; it fails when the accumulator's forwarding is taken out or
/// the read cycle is stamped one late. The reference slot itself passes its own testbench.
#[test]
fn monitor_estimate_lints_and_matches_its_reference_under_icarus_and_verilator() {
    let dir = repo().join("verilog/estimate");
    let dut = ["hlsinstr_monitor_shared.v", "hlsinstr_monitor_front.v", "hlsinstr_monitor_observe.v"];
    let out = run(Command::new("verilator")
        .args(["--lint-only", "-Wall", "--top-module", "hlsinstr_monitor_shared"])
        .args(dut.iter().map(|f| dir.join(f))));
    assert!(out.status.success() && text(&out).trim().is_empty(), "verilator: {}", text(&out));
    let out = run(Command::new("verilator").args(["--lint-only", "-Wall"]).arg(dir.join("hlsinstr_monitor_slot.v")));
    assert!(out.status.success() && text(&out).trim().is_empty(), "verilator: {}", text(&out));
    let work = tempfile::tempdir().unwrap();
    // Icarus with the DUT files in `files` (a mutant replaces one) and testbench parameters.
    let sim = |files: &[PathBuf], params: &[(&str, u32)]| -> Output {
        let vvp = work.path().join("monitor.vvp");
        let mut cmd = Command::new("iverilog");
        cmd.args(["-g2012", "-Wall", "-o"]).arg(&vvp);
        for (k, v) in params {
            cmd.arg("-P").arg(format!("hlsinstr_monitor_shared_tb.{k}={v}"));
        }
        let out =
            run(cmd.args(files).arg(dir.join("hlsinstr_monitor_slot.v")).arg(dir.join("hlsinstr_monitor_shared_tb.v")));
        assert!(out.status.success() && out.stderr.is_empty(), "iverilog: {}", text(&out));
        run(Command::new("vvp").arg("-n").arg(&vvp))
    };
    let files: Vec<PathBuf> = dut.iter().map(|f| dir.join(f)).collect();
    for (n, event_time, longest) in [(1, 1, 0), (3, 1, 1), (8, 1, 0), (5, 0, 1), (4, 0, 0)] {
        let out = sim(&files, &[("N", n), ("EVENT_TIME", event_time), ("LONGEST", longest)]);
        assert!(passed(&out), "N={n} EVENT_TIME={event_time} LONGEST={longest}:\n{}", text(&out));
    }
    let mutants = [
        ("no forwarding", 0, "(fwd_valid && fwd_slot == s1_slot) ? fwd_state : ram_q", "ram_q", 1),
        ("stamped a cycle late", 1, "assign stamp = cycle;", "assign stamp = cycle + 64'd1;", 0),
    ];
    for (what, file, from, to, event_time) in mutants {
        let source = std::fs::read_to_string(&files[file]).unwrap();
        assert!(source.contains(from), "mutant '{what}': `{from}` is no longer in {}", dut[file]);
        let broken = work.path().join(dut[file]);
        std::fs::write(&broken, source.replacen(from, to, 1)).unwrap();
        let mut mutant = files.clone();
        mutant[file] = broken;
        let out = sim(&mutant, &[("N", 3), ("EVENT_TIME", event_time)]);
        assert!(!passed(&out), "mutant '{what}' passed the testbench:\n{}", text(&out));
    }
    let obj = work.path().join("obj");
    let out = run(Command::new("verilator")
        .args(["--binary", "--timing", "-Wall", "-Wno-BLKSEQ", "-j", "0", "-GN=4", "-GEVENT_TIME=1"])
        .args(["--top-module", "hlsinstr_monitor_shared_tb", "--Mdir"])
        .arg(&obj)
        .args(&files)
        .arg(dir.join("hlsinstr_monitor_slot.v"))
        .arg(dir.join("hlsinstr_monitor_shared_tb.v")));
    assert!(out.status.success(), "verilator --binary: {}", text(&out));
    let out = run(&mut Command::new(obj.join("Vhlsinstr_monitor_shared_tb")));
    assert!(passed(&out), "Verilator: {}", text(&out));

    // The reference slot's own testbench, and a wrong busy sum fails it.
    let rtl = dir.join("hlsinstr_monitor_slot.v");
    let slot = |rtl: &Path| -> Output {
        let vvp = work.path().join("slot.vvp");
        let out = run(Command::new("iverilog")
            .args(["-g2012", "-o"])
            .arg(&vvp)
            .arg(rtl)
            .arg(dir.join("hlsinstr_monitor_slot_tb.v")));
        assert!(out.status.success(), "iverilog: {}", text(&out));
        run(Command::new("vvp").arg(&vvp))
    };
    assert!(passed(&slot(&rtl)), "the reference slot's testbench");
    let broken = std::fs::read_to_string(&rtl).unwrap().replace("busy_reg + duration", "busy_reg + duration + 64'd1");
    let broken_path = work.path().join("broken.v");
    std::fs::write(&broken_path, broken).unwrap();
    assert!(!passed(&slot(&broken_path)), "the testbench catches a wrong busy sum");
}
