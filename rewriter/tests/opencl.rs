//! The Intel FPGA OpenCL side (opencl-lib/): every .cl file passes clang's OpenCL C 1.2 syntax
//! check with the test header for the Intel channel built-ins (and a broken one does not); the
//! get_time counter lints clean under Verilator and its testbench passes under Icarus and
//! Verilator (and fails on broken counters); the HDL-library XML spec has the fixtures'
//! structure and agrees with the Verilog; and the CPU emulation runs sequence numbers, the
//! iBuffer state machine, the stall monitor, the watchpoints, the autorun timers and the
//! deadlock watchdog with exact expected results; and kernels rewritten by `hlsinstr` record their
//! probes into iBuffer units in the emulation, directly and through `hlsinstr emulate`. A missing
//! tool fails the test: it never skips.
//!
//! Build outputs go to temporary directories; nothing is written into the source tree.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;
use common::repo;

fn lib(file: &str) -> PathBuf {
    repo().join("opencl-lib").join(file)
}

/// Runs `cmd`; a tool that is not installed fails the test, saying what to install.
fn run(cmd: &mut Command) -> Output {
    let tool = cmd.get_program().to_string_lossy().into_owned();
    let package = match tool.as_str() {
        "iverilog" | "vvp" => "iverilog",
        "clang" => "clang",
        "python3" => "python3",
        "g++" => "g++",
        _ => tool.as_str(),
    }
    .to_string();
    cmd.output()
        .unwrap_or_else(|e| panic!("cannot run {tool}: {e}; install it (apt-get install {package}) and run again"))
}

fn text(out: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

fn passed(out: &Output) -> bool {
    let t = text(out);
    out.status.success() && t.lines().any(|l| l.trim() == "PASS") && !t.contains("ERROR")
}

// ---- clang -x cl -cl-std=CL1.2 -fsyntax-only ----------------------------------------------

fn cl_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in [lib(""), lib("tests")] {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "cl") {
                files.push(p);
            }
        }
    }
    files.sort();
    files
}

fn clang_cl(file: &Path) -> Output {
    run(Command::new("clang")
        .args(["-x", "cl", "-cl-std=CL1.2", "-fsyntax-only", "-Wall", "-Werror", "-Wno-unknown-attributes"])
        .arg("-include")
        .arg(lib("tb/intel_channels_check.h"))
        .arg("-I")
        .arg(lib(""))
        .arg(file))
}

#[test]
fn every_cl_file_passes_clang_opencl_1_2_syntax_check() {
    let files = cl_files();
    let names: Vec<String> = files.iter().map(|f| f.file_name().unwrap().to_string_lossy().into_owned()).collect();
    for must in ["hlsinstr_ibuffer.cl", "hlsinstr_seq.cl", "hlsinstr_timer.cl", "hlsinstr_watch.cl", "watch.cl"] {
        assert!(names.iter().any(|n| n == must), "{must} not found among {names:?}");
    }
    for f in &files {
        let out = clang_cl(f);
        assert!(out.status.success(), "clang -x cl -cl-std=CL1.2 on {}:\n{}", f.display(), text(&out));
    }
}

#[test]
fn clang_syntax_check_catches_broken_kernels() {
    let source = std::fs::read_to_string(lib("hlsinstr_ibuffer.cl")).unwrap();
    let mutants = [
        ("a misspelled field", "r.time = get_time(p.addr);", "r.time = get_time(p.adr);"),
        (
            "an undeclared channel",
            "read_channel_nb_intel(hlsinstr_ib_data[unit]",
            "read_channel_nb_intel(hlsinstr_data[unit]",
        ),
        ("a missing valid pointer", "&probe_valid);", "probe_valid);"),
    ];
    for (what, from, to) in mutants {
        assert!(source.contains(from), "mutant '{what}': `{from}` is no longer in hlsinstr_ibuffer.cl");
        let work = tempfile::tempdir().unwrap();
        let broken = work.path().join("hlsinstr_ibuffer.cl");
        std::fs::write(&broken, source.replacen(from, to, 1)).unwrap();
        std::fs::copy(lib("hlsinstr_time.h"), work.path().join("hlsinstr_time.h")).unwrap();
        let out = clang_cl(&broken);
        assert!(!out.status.success(), "mutant '{what}' passed clang's syntax check");
    }
}

// ---- the get_time counter -----------------------------------------------------------------

fn icarus(counter: &Path, work: &Path) -> Output {
    let vvp = work.join("tb.vvp");
    let out = run(Command::new("iverilog")
        .args(["-g2012", "-Wall", "-o"])
        .arg(&vvp)
        .arg(lib("tb/hlsinstr_get_time_tb.v"))
        .arg(counter)
        .current_dir(work));
    assert!(out.status.success() && out.stderr.is_empty(), "iverilog:\n{}", text(&out));
    run(Command::new("vvp").arg("-n").arg(&vvp).current_dir(work))
}

#[test]
fn get_time_counter_and_testbench_lint_clean_under_verilator_wall() {
    let work = tempfile::tempdir().unwrap();
    let out = run(Command::new("verilator")
        .args(["--lint-only", "-Wall", "--top-module", "hlsinstr_get_time"])
        .arg(lib("hlsinstr_get_time.v"))
        .current_dir(work.path()));
    assert!(out.status.success() && out.stderr.is_empty(), "verilator -Wall on the counter:\n{}", text(&out));
    let out = run(Command::new("verilator")
        .args(["--lint-only", "--timing", "-Wall", "--top-module", "hlsinstr_get_time_tb"])
        .arg(lib("tb/hlsinstr_get_time_tb.v"))
        .arg(lib("hlsinstr_get_time.v"))
        .current_dir(work.path()));
    assert!(out.status.success() && out.stderr.is_empty(), "verilator -Wall on the testbench:\n{}", text(&out));
}

#[test]
fn get_time_icarus_testbench_passes_and_fails_on_broken_counters() {
    let work = tempfile::tempdir().unwrap();
    let out = icarus(&lib("hlsinstr_get_time.v"), work.path());
    assert!(passed(&out), "Icarus testbench:\n{}", text(&out));

    let source = std::fs::read_to_string(lib("hlsinstr_get_time.v")).unwrap();
    let mutants = [
        ("no carry into bit 32", "count_reg <= count_reg + 64'd1;", "count_reg[31:0] <= count_reg[31:0] + 32'd1;"),
        ("reset does not reach the counter", "count_reg <= RESET_VALUE;", "count_reg <= count_reg + 64'd1;"),
        ("latency 0 value", "time_reg <= count_reg;", "time_reg <= count_reg + 64'd1;"),
        ("ovalid ignores ivalid", "valid_reg <= ivalid;", "valid_reg <= 1'b1;"),
        ("counts only on calls", "count_reg <= count_reg + 64'd1;", "count_reg <= count_reg + {63'd0, ivalid};"),
    ];
    for (what, from, to) in mutants {
        assert!(source.contains(from), "mutant '{what}': `{from}` is no longer in hlsinstr_get_time.v");
        let work = tempfile::tempdir().unwrap();
        let broken = work.path().join("hlsinstr_get_time.v");
        std::fs::write(&broken, source.replacen(from, to, 1)).unwrap();
        let out = icarus(&broken, work.path());
        assert!(!out.status.success() && text(&out).contains("ERROR"), "mutant '{what}' passed:\n{}", text(&out));
    }
}

#[test]
fn get_time_verilator_testbench_passes() {
    let work = tempfile::tempdir().unwrap();
    let obj = work.path().join("obj");
    let out = run(Command::new("verilator")
        .args(["--binary", "--timing", "-Wall", "-j", "1", "--top-module", "hlsinstr_get_time_tb", "--Mdir"])
        .arg(&obj)
        .arg(lib("tb/hlsinstr_get_time_tb.v"))
        .arg(lib("hlsinstr_get_time.v"))
        .current_dir(work.path()));
    assert!(out.status.success(), "verilator --binary failed:\n{}", text(&out));
    let out = run(Command::new(obj.join("Vhlsinstr_get_time_tb")).current_dir(work.path()));
    assert!(passed(&out), "Verilator testbench:\n{}", text(&out));
}

// ---- the HDL-library XML spec -------------------------------------------------------------

fn fixture(name: &str) -> PathBuf {
    repo().parent().unwrap().join("shared/fixtures/intel-hdl-library").join(name)
}

/// Element paths below the root (root name left out, since RTL_SPEC and EFI_SPEC are both
/// accepted), in document order, with the attribute names of each element.
fn structure(xml: &str) -> Result<Vec<String>, String> {
    let doc = roxmltree::Document::parse(xml).map_err(|e| e.to_string())?;
    let root = doc.root_element();
    if !matches!(root.tag_name().name(), "RTL_SPEC" | "EFI_SPEC") {
        return Err(format!("root element {} is neither RTL_SPEC nor EFI_SPEC", root.tag_name().name()));
    }
    fn walk(n: roxmltree::Node, path: &str, out: &mut Vec<String>) {
        for c in n.children().filter(|c| c.is_element()) {
            let p = format!("{path}/{}", c.tag_name().name());
            let mut attrs: Vec<&str> = c.attributes().map(|a| a.name()).collect();
            attrs.sort();
            out.push(format!("{p}[{}]", attrs.join(",")));
            walk(c, &p, out);
        }
    }
    let mut out = Vec::new();
    walk(root, "", &mut out);
    Ok(out)
}

/// The structure without the data ports (INPUT/OUTPUT elements), which differ per function.
fn control_structure(xml: &str) -> Result<Vec<String>, String> {
    Ok(structure(xml)?.into_iter().filter(|p| !p.contains("/INPUT[") && !p.contains("/OUTPUT[")).collect())
}

fn our_spec() -> String {
    std::fs::read_to_string(lib("hlsinstr_get_time.xml")).unwrap()
}

#[test]
fn xml_spec_has_the_fixtures_structure() {
    let ours = control_structure(&our_spec()).expect("hlsinstr_get_time.xml");
    for f in ["cnt32.xml", "rev8.xml"] {
        let path = fixture(f);
        let s = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let theirs = control_structure(&s).unwrap_or_else(|e| panic!("{f}: {e}"));
        assert_eq!(ours, theirs, "hlsinstr_get_time.xml and {f} differ in structure");
    }
    // Both roots are accepted, anything else is not.
    let efi = our_spec().replace("RTL_SPEC>", "EFI_SPEC>");
    assert_eq!(control_structure(&efi).unwrap(), ours);
    let bad = our_spec().replace("RTL_SPEC>", "SPEC>");
    assert!(control_structure(&bad).unwrap_err().contains("neither RTL_SPEC nor EFI_SPEC"));
}

#[test]
fn xml_spec_agrees_with_the_verilog_and_the_files() {
    let xml = our_spec();
    let doc = roxmltree::Document::parse(&xml).unwrap();
    let find = |tag: &str| doc.descendants().find(|n| n.has_tag_name(tag)).unwrap_or_else(|| panic!("no {tag}"));
    let value = |tag: &str| find(tag).attribute("value").unwrap().to_string();
    assert_eq!(value("IS_STALL_FREE"), "yes");
    assert_eq!(value("IS_FIXED_LATENCY"), "yes");
    assert_eq!(value("EXPECTED_LATENCY"), "1", "the Verilog has one register stage");
    assert_eq!(value("HAS_SIDE_EFFECTS"), "yes", "a timestamp must never be removed");
    assert_eq!(value("ALLOW_MERGING"), "no", "every call site keeps its own counter read");
    let function = find("FUNCTION");
    assert_eq!(function.attribute("name"), Some("get_time"));
    let module = function.attribute("module").unwrap();

    let verilog = std::fs::read_to_string(lib("hlsinstr_get_time.v")).unwrap();
    assert!(verilog.contains(&format!("module {module} ")), "no module {module} in hlsinstr_get_time.v");
    let mut ports: Vec<(String, String)> = Vec::new(); // (name, width)
    for line in verilog.lines().map(str::trim) {
        let Some(rest) = line.strip_prefix("input  wire").or_else(|| line.strip_prefix("output wire")) else {
            continue;
        };
        let rest = rest.trim().trim_end_matches(',');
        let (width, name) = match rest.strip_prefix('[') {
            Some(r) => {
                let (range, name) = r.split_once(']').unwrap();
                let hi: u32 = range.split(':').next().unwrap().trim().parse().unwrap();
                ((hi + 1).to_string(), name.trim())
            }
            None => ("1".to_string(), rest),
        };
        ports.push((name.to_string(), width));
    }
    let mut spec_ports: Vec<(String, String)> = Vec::new();
    for n in find("INTERFACE").children().filter(|c| c.is_element()) {
        let port = n.attribute("port").unwrap().to_string();
        let width = n.attribute("width").unwrap_or("1").to_string();
        if n.has_tag_name("AVALON") {
            assert_eq!(n.attribute("type"), Some(port.as_str()), "AVALON port {port} has its own name as type");
        }
        spec_ports.push((port, width));
    }
    ports.sort();
    spec_ports.sort();
    assert_eq!(ports, spec_ports, "Verilog ports and XML INTERFACE differ");

    for f in doc.descendants().filter(|n| n.has_tag_name("FILE")) {
        let name = f.attribute("name").unwrap();
        assert!(lib(name).is_file(), "the spec names {name}, which is not in opencl-lib/");
    }
}

// ---- CPU emulation ------------------------------------------------------------------------

/// Builds opencl-lib/tests/<name>.cl with <name>_host.cpp through hlsinstr-emu-build.
fn emu_build(name: &str, work: &Path) -> PathBuf {
    let exe = work.join(name);
    let out = run(Command::new("bash")
        .arg(lib("emu/hlsinstr-emu-build"))
        .arg("-o")
        .arg(&exe)
        .arg("--work")
        .arg(work.join("build"))
        .arg(lib(&format!("tests/{name}.cl")))
        .arg(lib(&format!("tests/{name}_host.cpp"))));
    assert!(out.status.success(), "hlsinstr-emu-build {name}:\n{}", text(&out));
    exe
}

fn emu_run(name: &str) -> Output {
    let work = tempfile::tempdir().unwrap();
    let exe = emu_build(name, work.path());
    run(Command::new("timeout").arg("120").arg(&exe).env("HLSINSTR_EMU_DEADLOCK_MS", "5000"))
}

#[test]
fn emulation_sequence_numbers_are_dense_and_advance_only_when_read() {
    let out = emu_run("seq");
    assert!(passed(&out), "{}", text(&out));
}

#[test]
fn emulation_ibuffer_transitions_and_linear_cyclic_order() {
    let out = emu_run("ibuffer");
    assert!(passed(&out), "{}", text(&out));
    let t = text(&out);
    for line in [
        "linear: 0 1 2 3 (mode 0, dropped 2)",
        "cyclic: 22 23 24 25 (mode 1, dropped 0)",
        "stop, sample appends: 24 25 50 51 (mode 1, dropped 0)",
    ] {
        assert!(t.lines().any(|l| l == line), "missing `{line}` in:\n{t}");
    }
}

#[test]
fn emulation_snapshot_latencies_equal_the_scripted_ones() {
    let out = emu_run("snapshot");
    assert!(passed(&out), "{}", text(&out));
    assert!(text(&out).contains("k=1 load value -1 latency 40"), "{}", text(&out));
}

#[test]
fn emulation_watchpoint_catches_out_of_bounds_write_and_invariant_violation() {
    let out = emu_run("watch");
    assert!(passed(&out), "{}", text(&out));
    let t = text(&out);
    // Without the time, per unit: the configuration, then the records.
    let lines: Vec<&str> = t.lines().map(|l| l.trim().split(" time").next().unwrap()).collect();
    assert_eq!(
        lines,
        [
            "unit 0: header value 8",
            "config watch bytes [12, 13) hits 1",
            "kind 3 buf[3] value -15",
            "kind 3 buf[3] value -15",
            "kind 2 buf[9] value -5",
            "kind 1 buf[3] value 5",
            "kind 2 buf[9] value 15",
            "kind 1 buf[3] value 25",
            "unit 1: header value 7",
            "config watch bytes [8, 24) hits 1",
            "kind 1 buf[3] value -15",
            "kind 1 buf[5] value -5",
            "kind 1 buf[3] value -15",
            "kind 1 buf[3] value 5",
            "kind 3 buf[3] value 25",
            "unit 2: header value 7",
            "config watch bytes [0, 32) hits 0",
            "kind 3 buf[0] value -25",
            "kind 3 buf[3] value -15",
            "kind 3 buf[5] value -5",
            "kind 3 buf[0] value -25",
            "kind 3 buf[3] value -15",
            "PASS",
        ]
    );
}

#[test]
fn emulation_autorun_timers_increase_at_every_read_site() {
    let out = emu_run("timer");
    assert!(passed(&out), "{}", text(&out));
}

#[test]
fn emulation_deadlock_watchdog_names_the_channel_and_exits_4() {
    let work = tempfile::tempdir().unwrap();
    let exe = emu_build("deadlock", work.path());
    let out = run(Command::new("timeout").arg("60").arg(&exe).env("HLSINSTR_EMU_DEADLOCK_MS", "300"));
    let t = text(&out);
    assert_eq!(out.status.code(), Some(4), "exit code of a deadlocked emulation:\n{t}");
    assert!(t.contains("deadlock"), "{t}");
    assert!(t.contains("kernel stuck (compute unit 0) waits to read channel never_written (0 of depth 4 full)"), "{t}");
    assert!(t.contains("kernel hlsinstr_seq [autorun] (compute unit 0) waits to write channel hlsinstr_seq_ch"), "{t}");
    assert!(!t.contains("stuck returned"), "{t}");

    // A pipelined NDRange: the work-item holding the turn waits on the channel, the others for
    // their turn; all of them count as blocked.
    let out = run(Command::new("timeout").arg("60").arg(&exe).arg("ndrange").env("HLSINSTR_EMU_DEADLOCK_MS", "300"));
    let t = text(&out);
    assert_eq!(out.status.code(), Some(4), "exit code of a deadlocked NDRange:\n{t}");
    assert!(t.contains("kernel stuck_ndrange (compute unit 0) waits to read channel never_written_either"), "{t}");
    for item in [1, 2] {
        assert!(
            t.contains(&format!("kernel stuck_ndrange work-item {item} waits for its turn in the NDRange pipeline")),
            "{t}"
        );
    }
    assert!(!t.contains("stuck returned"), "{t}");
}

#[test]
fn emulation_prepass_refuses_two_dimensional_channel_arrays_with_file_and_line() {
    let work = tempfile::tempdir().unwrap();
    let cl = work.path().join("k.cl");
    std::fs::write(&cl, "// one\nchannel int c[2][3] __attribute__((depth(1)));\n").unwrap();
    let out = run(Command::new("python3").arg(lib("emu/ocl2cpp.py")).arg("-o").arg(work.path().join("o")).arg(&cl));
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        text(&out).contains("k.cl:2: channel c: only one-dimensional channel arrays are supported"),
        "{}",
        text(&out)
    );
}

// ---- probes inserted by `hlsinstr rewrite`, recorded in iBuffer units -----------------------

/// One probe record of a run: the manifest's label of its probe ("function dot",
/// "loop VITIS_LOOP_7_1 in dot"), begin or end, trips, sequence number, unit time.
#[derive(Debug)]
struct ProbeRecord {
    label: String,
    end: bool,
    trips: u64,
    seq: u64,
    time: u64,
}

impl ProbeRecord {
    fn event(&self) -> String {
        match (self.end, self.label.starts_with("loop")) {
            (false, _) => format!("{} begin", self.label),
            (true, false) => format!("{} end", self.label),
            (true, true) => format!("{} end trips {}", self.label, self.trips),
        }
    }
}

/// The records the host printed after `== <kernel>`, decoded with hlsinstr_probe.cl's
/// encoding (trips bits 0..31, end bit 32, sequence number bits 33..62).
fn probe_records(out: &str, kernel: &str, labels: &[String]) -> Vec<ProbeRecord> {
    let mut records = Vec::new();
    let mut inside = false;
    for line in out.lines() {
        if let Some(k) = line.strip_prefix("== ") {
            inside = k == kernel;
            continue;
        }
        let f: Vec<u64> = line.split(' ').filter_map(|w| w.parse().ok()).collect();
        if !inside || f.len() != 5 || f[1] == 15 {
            continue; // another run, PASS, or a read-out header
        }
        assert_eq!(f[1], 0, "not a snapshot record: {line}");
        let v = f[4];
        records.push(ProbeRecord {
            label: labels[f[0] as usize].clone(),
            end: (v >> 32) & 1 == 1,
            trips: v & 0xffff_ffff,
            seq: v >> 33,
            time: f[2],
        });
    }
    records
}

#[test]
fn emulation_records_rewritten_probes_matrix_vector_single_task_vs_ndrange() {
    let work = tempfile::tempdir().unwrap();
    let instr = work.path().join("instr");
    let out = run(Command::new(env!("CARGO_BIN_EXE_hlsinstr"))
        .args(["rewrite", "--probes", "modules,loops,seq", "--out"])
        .arg(&instr)
        .arg(repo().join("examples/opencl/mxv/kernels")));
    assert!(out.status.success(), "hlsinstr rewrite:\n{}", text(&out));
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(instr.join("hlsinstr-manifest.json")).unwrap()).unwrap();
    let labels: Vec<String> = manifest["probes"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .map(|(i, p)| {
            assert_eq!(p["id"].as_u64(), Some(i as u64), "probe ids are 0 .. count-1");
            let (kind, name, func) =
                (p["kind"].as_str().unwrap(), p["name"].as_str().unwrap(), p["function"].as_str().unwrap());
            if kind == "loop" {
                format!("loop {name} in {func}")
            } else {
                format!("{kind} {name}")
            }
        })
        .collect();
    assert_eq!(
        labels,
        [
            "function dot",
            "loop VITIS_LOOP_7_1 in dot",
            "function mxv_single",
            "loop VITIS_LOOP_16_1 in mxv_single",
            "function mxv_ndrange"
        ]
    );
    let units = format!("HLSINSTR_NUM_IBUFFERS={}", labels.len());
    let kernels = instr.join("mxv.cl");

    // The rewritten kernels in recording mode are OpenCL C 1.2.
    let out = run(Command::new("clang")
        .args(["-x", "cl", "-cl-std=CL1.2", "-fsyntax-only", "-Wall", "-Werror", "-Wno-unknown-attributes"])
        .args(["-DHLSINSTR_OPENCL_IBUFFER", &format!("-D{units}"), "-include"])
        .arg(lib("tb/intel_channels_check.h"))
        .arg("-I")
        .arg(lib(""))
        .arg(&kernels));
    assert!(out.status.success(), "clang -x cl on the rewritten kernels in recording mode:\n{}", text(&out));

    let exe = work.path().join("mxv");
    let out = run(Command::new("bash")
        .arg(lib("emu/hlsinstr-emu-build"))
        .args(["-D", "HLSINSTR_OPENCL_IBUFFER", "-D", &units, "-D", "HLSINSTR_IBUFFER_DEPTH=64", "-o"])
        .arg(&exe)
        .arg("--work")
        .arg(work.path().join("build"))
        .arg(&kernels)
        .arg(repo().join("tests/opencl/mxv/host.cpp")));
    assert!(out.status.success(), "hlsinstr-emu-build:\n{}", text(&out));
    let run_mode = |mode: &str| {
        let out = run(Command::new("timeout")
            .arg("120")
            .arg(&exe)
            .env("HLSINSTR_EMU_DEADLOCK_MS", "5000")
            .env("HLSINSTR_EMU_NDRANGE", mode));
        assert!(passed(&out), "{mode}: the kernels' output (y = A x) is wrong:\n{}", text(&out));
        text(&out)
    };

    let common::MxvOrders { single, ndrange, ndrange_sequential } = common::mxv_orders(4, 3); // host.cpp: 4 x 3

    let (pipelined, sequential) = (run_mode("pipelined"), run_mode("sequential"));
    for (kernel, expected, t) in [
        ("mxv_single", &single, &pipelined),
        ("mxv_ndrange", &ndrange, &pipelined),
        ("mxv_single", &single, &sequential),
        ("mxv_ndrange", &ndrange_sequential, &sequential),
    ] {
        let mut records = probe_records(t, kernel, &labels);
        // Every begin and end of every probe, with its count, and nothing else.
        let mut counted: std::collections::BTreeMap<String, usize> = Default::default();
        for r in &records {
            *counted.entry(r.event()).or_default() += 1;
        }
        let mut want: std::collections::BTreeMap<String, usize> = Default::default();
        for e in expected {
            *want.entry(e.clone()).or_default() += 1;
        }
        assert_eq!(counted, want, "{kernel}: begin/end counts and trips\n{t}");
        // Sequence numbers: dense, and they give the execution order.
        records.sort_by_key(|r| r.seq);
        let first = records[0].seq;
        let seqs: Vec<u64> = records.iter().map(|r| r.seq - first).collect();
        assert_eq!(seqs, (0..records.len() as u64).collect::<Vec<_>>(), "{kernel}: sequence numbers\n{t}");
        let order: Vec<String> = records.iter().map(ProbeRecord::event).collect();
        assert_eq!(&order, expected, "{kernel}: execution order");
        // The units' timestamps agree with the order.
        assert!(records.windows(2).all(|w| w[0].time <= w[1].time), "{kernel}: time against sequence: {records:?}");
    }
}

#[test]
fn emulate_subcommand_builds_and_runs_the_rewritten_kernels_with_the_host() {
    let work = tempfile::tempdir().unwrap();
    let instr = work.path().join("instr");
    let hlsinstr = env!("CARGO_BIN_EXE_hlsinstr");
    let out = run(Command::new(hlsinstr)
        .args(["rewrite", "--probes", "modules,loops,seq", "--out"])
        .arg(&instr)
        .arg(repo().join("examples/opencl/mxv/kernels")));
    assert!(out.status.success(), "hlsinstr rewrite:\n{}", text(&out));
    let exe = work.path().join("mxv");
    let out = run(Command::new(hlsinstr)
        .arg("emulate")
        .arg(&instr)
        .arg("--host")
        .arg(repo().join("tests/opencl/mxv/host.cpp"))
        .args(["--depth", "64", "--run", "-o"])
        .arg(&exe)
        .env("HLSINSTR_EMU_DEADLOCK_MS", "5000"));
    let t = text(&out);
    assert!(passed(&out), "hlsinstr emulate --run:\n{t}");
    assert!(
        t.contains(&format!("emulation of {} with 5 iBuffer units: {}", instr.join("mxv.cl").display(), exe.display())),
        "{t}"
    );
    // Read-out headers: unit 2 (mxv_single) holds its begin and end after the single-task run.
    assert!(t.contains("== mxv_single\n") && t.contains("\n2 15 0 0 2\n"), "{t}");
    assert!(exe.is_file());

    // Built without running: exit 0, nothing printed on stdout. Run later, the same records.
    let out = run(Command::new(hlsinstr)
        .arg("emulate")
        .arg(&instr)
        .arg("--host")
        .arg(repo().join("tests/opencl/mxv/host.cpp")));
    assert!(out.status.success() && out.stdout.is_empty(), "{}", text(&out));
    assert!(instr.join("hlsinstr-emu").is_file(), "default executable DIR/hlsinstr-emu");

    // Usage errors say what to give.
    let out = run(Command::new(hlsinstr).arg("emulate").arg(work.path()).arg("--host").arg("h.cpp"));
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("no hlsinstr-manifest.json in"), "{}", text(&out));
    let out = run(Command::new(hlsinstr).arg("emulate").arg(&instr).args(["--host", "h.cpp", "--program", "x.cl"]));
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains("--program x.cl is not a .cl file of the manifest; it lists: mxv.cl"),
        "{}",
        text(&out)
    );
    // A compile error names the .cl file and line; exit 1.
    std::fs::write(
        instr.join("mxv.cl"),
        std::fs::read_to_string(instr.join("mxv.cl")).unwrap().replace("acc += a[j]", "acc += b[j]"),
    )
    .unwrap();
    let out = run(Command::new(hlsinstr)
        .arg("emulate")
        .arg(&instr)
        .arg("--host")
        .arg(repo().join("tests/opencl/mxv/host.cpp")));
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("mxv.cl:9:") && text(&out).contains("the kernels of"), "{}", text(&out));
    assert!(text(&out).contains("mxv.cl do not build"), "the kernels are blamed, not the host: {}", text(&out));
}

fn watch_rewrite(out: &Path, watch: &str) -> Output {
    run(Command::new(env!("CARGO_BIN_EXE_hlsinstr"))
        .args(["rewrite", "--probes", "watch", "--watch", watch, "--bounds"])
        .arg(format!("{}:8", watch.split('[').next().unwrap()))
        .arg("--out")
        .arg(out)
        .arg(repo().join("tests/opencl/watch/kernels/chase.cl")))
}

#[test]
fn watch_probes_catch_the_hits_the_alias_and_the_planted_out_of_bounds_write_in_emulation() {
    let work = tempfile::tempdir().unwrap();
    let instr = work.path().join("wp");
    let out = watch_rewrite(&instr, "data[0]");
    assert!(out.status.success(), "hlsinstr rewrite --probes watch:\n{}", text(&out));
    let kernels = std::fs::read_to_string(instr.join("chase.cl")).unwrap();
    for site in [
        "{ HLSINSTR_WATCH_CFG_BOUNDS(0, data, 0, 1, 8, LONG_MIN, LONG_MAX, 1); HLSINSTR_WATCH_DECL(0, data); HLSINSTR_WATCH_CFG_BOUNDS(1, data, 0, 1, 8, LONG_MIN, LONG_MAX, 1); HLSINSTR_WATCH_DECL(1, data); HLSINSTR_WATCH_CFG(2, data, 0, 1, LONG_MIN, LONG_MAX, 1); HLSINSTR_WATCH_DECL(2, next); HLSINSTR_WATCH_CFG(3, data, 0, 1, LONG_MIN, LONG_MAX, 1); HLSINSTR_WATCH_DECL(3, out);\n",
        "data[HLSINSTR_WATCH_V(0, data, p)] = (int)s; HLSINSTR_WATCH_POST(0);",
        "p = (uint)next[HLSINSTR_WATCH_V(2, next, p)]; HLSINSTR_WATCH_POST(2);",
        "*HLSINSTR_WATCH_PV(3, out, out) = data[HLSINSTR_WATCH_V(1, data, 0)] + 10; HLSINSTR_WATCH_POST(1); HLSINSTR_WATCH_POST(3);",
    ] {
        assert!(kernels.contains(site), "missing `{site}` in\n{kernels}");
    }
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(instr.join("hlsinstr-manifest.json")).unwrap()).unwrap();
    let sites: Vec<String> = manifest["probes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let w = &p["watch"];
            format!(
                "{} {} {}:{} {} {} alias={} bound={} range={} hits={} value={} elem_size={}",
                p["id"],
                p["kind"].as_str().unwrap(),
                p["line"],
                p["column"],
                w["buffer"].as_str().unwrap(),
                w["access"].as_str().unwrap(),
                w["may_alias"].as_bool().unwrap_or(false),
                w["bound"],
                w["range"],
                w["hits"],
                w["value"].as_str().unwrap(),
                w["elem_size"],
            )
        })
        .collect();
    assert_eq!(
        sites,
        [
            "0 watch 7:9 data write alias=false bound=8 range=[0,1] hits=true value=element elem_size=4",
            "1 watch 10:12 data read alias=false bound=8 range=[0,1] hits=true value=element elem_size=4",
            "2 watch 8:19 next read alias=true bound=null range=[0,1] hits=true value=element elem_size=4",
            "3 watch 10:6 out write alias=true bound=null range=[0,1] hits=true value=element elem_size=4",
        ]
    );

    // OpenCL C 1.2 in both modes.
    for mode in [None, Some("-DHLSINSTR_OPENCL_IBUFFER")] {
        let out = run(Command::new("clang")
            .args(["-x", "cl", "-cl-std=CL1.2", "-fsyntax-only", "-Wall", "-Werror", "-Wno-unknown-attributes"])
            .args(mode)
            .args(["-DHLSINSTR_NUM_IBUFFERS=4", "-include"])
            .arg(lib("tb/intel_channels_check.h"))
            .arg("-I")
            .arg(lib(""))
            .arg(instr.join("chase.cl")));
        assert!(out.status.success(), "clang -x cl {mode:?} on the rewritten kernel:\n{}", text(&out));
    }

    // `strip` gives the kernel back.
    let stripped = work.path().join("stripped");
    let out = run(Command::new(env!("CARGO_BIN_EXE_hlsinstr")).arg("strip").arg(&instr).arg("--out").arg(&stripped));
    assert!(out.status.success(), "hlsinstr strip:\n{}", text(&out));
    assert_eq!(
        std::fs::read(stripped.join("chase.cl")).unwrap(),
        std::fs::read(repo().join("tests/opencl/watch/kernels/chase.cl")).unwrap()
    );

    let out = run(Command::new(env!("CARGO_BIN_EXE_hlsinstr"))
        .args(["emulate", "--depth", "16", "--run", "--host"])
        .arg(repo().join("tests/opencl/watch/host.cpp"))
        .arg(&instr)
        .current_dir(work.path()) // the host also writes the binary dump into its working directory
        .env("HLSINSTR_EMU_DEADLOCK_MS", "5000"));
    assert!(passed(&out), "the emulation:\n{}", text(&out));
    let t = text(&out);
    assert_eq!(
        dump_records(&t, "data"),
        [
            "unit 0 header 5",
            "unit 0 watch [data+0, data+4) hits 1",
            "unit 0 bounds [data+0, data+32)",
            // data[p] = s: node 0 (the watched element), node 3 (in bounds, not watched: nothing),
            // node 8 (out of bounds: 8 * 4 bytes past data), node 0 again; the value stored.
            "unit 0 kind 1 data+0 value 0",
            "unit 0 kind 2 data+32 value 2",
            "unit 0 kind 1 data+0 value 3",
            "unit 1 header 3",
            "unit 1 watch [data+0, data+4) hits 1",
            "unit 1 bounds [data+0, data+32)",
            // data[0] read in `*out = data[0] + 10`: the element's value after the statement,
            // which wrote 13 into it through `out`.
            "unit 1 kind 1 data+0 value 13",
            // next[p]: another buffer, never the watched address (unit 2 has no records).
            "unit 2 header 2",
            "unit 2 watch [data+0, data+4) hits 1",
            "unit 2 bounds [0, max)",
            // *out = ...: out is data, so the alias site hits.
            "unit 3 header 3",
            "unit 3 watch [data+0, data+4) hits 1",
            "unit 3 bounds [0, max)",
            "unit 3 kind 1 data+0 value 13",
        ],
        "{t}"
    );
}

/// The `write_dump` lines of an emulation's output ("unit kind time addr value"), without the
/// time (the model clock), addresses relative to the `base <address>` the host printed as
/// `name`: HEADER as `header N`, CONFIG_WATCH as `watch [lo, hi) hits H`, CONFIG_BOUNDS as
/// `bounds [lo, hi)` (`max`: no bound).
fn dump_records(t: &str, name: &str) -> Vec<String> {
    let base: i128 = t.lines().find_map(|l| l.strip_prefix("base ")).unwrap().trim().parse().unwrap();
    let rel = |a: i128| match a {
        0 => "0".to_string(),
        a if a == i128::from(u64::MAX) => "max".to_string(),
        a => format!("{name}+{}", a - base),
    };
    t.lines()
        .filter_map(|l| {
            let f: Vec<i128> = l.split_whitespace().map(|w| w.parse().ok()).collect::<Option<_>>()?;
            (f.len() == 5).then(|| match f[1] {
                15 => format!("unit {} header {}", f[0], f[4]),
                14 => format!("unit {} watch [{}, {}) hits {}", f[0], rel(f[2]), rel(f[3]), f[4]),
                13 => format!("unit {} bounds [{}, {})", f[0], rel(f[2]), rel(f[3])),
                k => format!("unit {} kind {k} {} value {}", f[0], rel(f[3]), f[4]),
            })
        })
        .collect()
}

#[test]
fn watch_expression_naming_nothing_lists_the_candidate_buffers() {
    let work = tempfile::tempdir().unwrap();
    let out = watch_rewrite(&work.path().join("wp"), "dat[0]");
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let t = text(&out);
    assert!(
        t.contains(
            "--watch `dat[0]`: `dat` names no pointer parameter of a .cl kernel; candidates (pointer parameters): data (chase.cl:4:35, in chase), next (chase.cl:4:70, in chase), out (chase.cl:4:90, in chase)"
        ),
        "{t}"
    );
    let out = run(Command::new(env!("CARGO_BIN_EXE_hlsinstr"))
        .args(["rewrite", "--probes", "watch", "--watch", "data", "--out"])
        .arg(work.path().join("wp2"))
        .arg(repo().join("tests/opencl/watch/kernels/chase.cl")));
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("expected BUFFER[INDEX]"), "{}", text(&out));
}

#[test]
fn watch_sites_nest_skip_other_types_and_local_pointers_and_strip_back() {
    let work = tempfile::tempdir().unwrap();
    let src = "__kernel void nest(__global int *d, __global int *e, __global const int *c, __global float *f,\n                   __global int *restrict g, __local int *l, uint i) {\n    d[d[i]] += c[i];\n    *(e + 1) = d[0]++;\n    f[i] = 1.0f;\n    l[i] = g[i];\n    if (d[i] > 0) d[i] = 0;\n}\n";
    let input = work.path().join("nest.cl");
    std::fs::write(&input, src).unwrap();
    let instr = work.path().join("wp");
    let out = run(Command::new(env!("CARGO_BIN_EXE_hlsinstr"))
        .args(["rewrite", "--probes", "modules,watch", "--watch", "d[2]", "--bounds", "d:16", "--out"])
        .arg(&instr)
        .arg(&input));
    assert!(out.status.success(), "{}", text(&out));
    let got = std::fs::read_to_string(instr.join("nest.cl")).unwrap();
    for site in [
        "d[HLSINSTR_WATCH_V(0, d, d[HLSINSTR_WATCH_V(1, d, i)])] += c[HLSINSTR_WATCH_V(6, c, i)]; HLSINSTR_WATCH_POST(0); HLSINSTR_WATCH_POST(1); HLSINSTR_WATCH_POST(6);",
        "*HLSINSTR_WATCH_PV(5, e, (e + 1)) = d[HLSINSTR_WATCH_V(2, d, 0)]++; HLSINSTR_WATCH_POST(2); HLSINSTR_WATCH_POST(5);",
        "f[i] = 1.0f;",
        "l[i] = g[HLSINSTR_WATCH_V(7, g, i)]; HLSINSTR_WATCH_POST(7);",
        // No statement of a `{}` block: the index scheme.
        "if (d[HLSINSTR_WATCH_R(3, d, i)] > 0) d[HLSINSTR_WATCH_W(4, d, i)] = 0;",
        "HLSINSTR_FUNC_BEGIN(8, P, 0); HLSINSTR_WATCH_CFG_BOUNDS(0, d, 2, 3, 16, LONG_MIN, LONG_MAX, 1); HLSINSTR_WATCH_DECL(0, d); HLSINSTR_WATCH_CFG_BOUNDS(1, d, 2, 3, 16, LONG_MIN, LONG_MAX, 1); HLSINSTR_WATCH_DECL(1, d); HLSINSTR_WATCH_CFG_BOUNDS(2, d, 2, 3, 16, LONG_MIN, LONG_MAX, 1); HLSINSTR_WATCH_DECL(2, d); HLSINSTR_WATCH_CFG_BOUNDS(3, d, 2, 3, 16, LONG_MIN, LONG_MAX, 1); HLSINSTR_WATCH_CFG_BOUNDS(4, d, 2, 3, 16, LONG_MIN, LONG_MAX, 1); HLSINSTR_WATCH_CFG(5, d, 2, 3, LONG_MIN, LONG_MAX, 1); HLSINSTR_WATCH_DECL(5, e); HLSINSTR_WATCH_CFG(6, d, 2, 3, LONG_MIN, LONG_MAX, 1); HLSINSTR_WATCH_DECL(6, c); HLSINSTR_WATCH_CFG(7, d, 2, 3, LONG_MIN, LONG_MAX, 1); HLSINSTR_WATCH_DECL(7, g);",
    ] {
        assert!(got.contains(site), "missing `{site}` in\n{got}");
    }
    let out = run(Command::new("clang")
        .args(["-x", "cl", "-cl-std=CL1.2", "-fsyntax-only", "-Wall", "-Werror", "-Wno-unknown-attributes"])
        .args(["-DHLSINSTR_OPENCL_IBUFFER", "-DHLSINSTR_NUM_IBUFFERS=9", "-include"])
        .arg(lib("tb/intel_channels_check.h"))
        .arg("-I")
        .arg(lib(""))
        .arg(instr.join("nest.cl")));
    assert!(out.status.success(), "clang -x cl on the rewritten kernel:\n{}", text(&out));
    let stripped = work.path().join("stripped");
    let out = run(Command::new(env!("CARGO_BIN_EXE_hlsinstr")).arg("strip").arg(&instr).arg("--out").arg(&stripped));
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(std::fs::read_to_string(stripped.join("nest.cl")).unwrap(), src);
}

/// `hlsinstr` with `args`; the output is `text(&out)`.
fn hlsinstr(args: &[&str]) -> Output {
    run(Command::new(env!("CARGO_BIN_EXE_hlsinstr")).args(args))
}

/// clang's OpenCL C 1.2 check of a rewritten kernel in the default and the iBuffer mode.
fn clang_both_modes(file: &Path, units: usize) {
    for mode in [None, Some("-DHLSINSTR_OPENCL_IBUFFER")] {
        let out = run(Command::new("clang")
            .args(["-x", "cl", "-cl-std=CL1.2", "-fsyntax-only", "-Wall", "-Werror", "-Wno-unknown-attributes"])
            .args(mode)
            .arg(format!("-DHLSINSTR_NUM_IBUFFERS={units}"))
            .arg("-include")
            .arg(lib("tb/intel_channels_check.h"))
            .arg("-I")
            .arg(lib(""))
            .arg(file));
        assert!(out.status.success(), "clang -x cl {mode:?} on {}:\n{}", file.display(), text(&out));
    }
}

/// `strip` of the rewrite in `instr` gives `original` back, byte for byte.
fn strips_back(instr: &Path, name: &str, original: &Path) {
    let stripped = instr.with_extension("stripped");
    let out = run(Command::new(env!("CARGO_BIN_EXE_hlsinstr")).arg("strip").arg(instr).arg("--out").arg(&stripped));
    assert!(out.status.success(), "hlsinstr strip:\n{}", text(&out));
    assert_eq!(std::fs::read(stripped.join(name)).unwrap(), std::fs::read(original).unwrap());
}

fn emulate(instr: &Path, host: &str) -> String {
    let out = run(Command::new(env!("CARGO_BIN_EXE_hlsinstr"))
        .args(["emulate", "--depth", "16", "--run", "--host"])
        .arg(repo().join(host))
        .arg(instr)
        .env("HLSINSTR_EMU_DEADLOCK_MS", "5000"));
    assert!(passed(&out), "the emulation:\n{}", text(&out));
    text(&out)
}

#[test]
fn invariant_and_watch_range_catch_the_planted_out_of_bounds_write_and_negative_value_in_emulation() {
    let work = tempfile::tempdir().unwrap();
    let kernel = repo().join("tests/opencl/invariant/kernels/walk.cl");
    // The invariant alone: violations only (hits 0), over the bounds.
    let instr = work.path().join("inv");
    let out = run(Command::new(env!("CARGO_BIN_EXE_hlsinstr"))
        .args(["rewrite", "--probes", "watch", "--invariant", "data[i] >= 0", "--bounds", "data:8", "--out"])
        .arg(&instr)
        .arg(&kernel));
    assert!(out.status.success(), "{}", text(&out));
    let got = std::fs::read_to_string(instr.join("walk.cl")).unwrap();
    for site in [
        "{ HLSINSTR_WATCH_CFG_BOUNDS(0, data, 0, 8, 8, 0, LONG_MAX, 0); HLSINSTR_WATCH_DECL(0, data); HLSINSTR_WATCH_CFG(1, data, 0, 8, 0, LONG_MAX, 0); HLSINSTR_WATCH_DECL(1, vals);\n",
        "data[HLSINSTR_WATCH_V(0, data, p)] = vals[HLSINSTR_WATCH_V(1, vals, s)]; HLSINSTR_WATCH_POST(0); HLSINSTR_WATCH_POST(1);",
        "p = next[p];",
    ] {
        assert!(got.contains(site), "missing `{site}` in\n{got}");
    }
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(instr.join("hlsinstr-manifest.json")).unwrap()).unwrap();
    let w = &manifest["probes"][0]["watch"];
    assert_eq!(
        w.to_string(),
        r#"{"access":"write","bound":8,"buffer":"data","elem_size":4,"hits":false,"invariant":{"expr":"data[i] >= 0","op":">=","value":0,"vmax":9223372036854775807,"vmin":0},"range":[0,8],"value":"element","watched":"data[i] >= 0","watched_buffer":"data"}"#
    );
    assert_eq!(manifest["probes"].as_array().unwrap().len(), 2, "vals may alias data; next (uint) cannot");
    clang_both_modes(&instr.join("walk.cl"), 2);
    strips_back(&instr, "walk.cl", &kernel);
    let t = emulate(&instr, "tests/opencl/invariant/host.cpp");
    assert_eq!(
        dump_records(&t, "data"),
        [
            "unit 0 header 4",
            "unit 0 watch [data+0, data+32) hits 0",
            "unit 0 bounds [data+0, data+32)",
            // Stores 5, 7 (in bounds, valid: nothing), 1 into node 9 (out of bounds, 36 bytes
            // past data), -3 into node 4 (breaks data[i] >= 0), 2 (nothing).
            "unit 0 kind 2 data+36 value 1",
            "unit 0 kind 3 data+16 value -3",
            // vals[s]: loads from another buffer, never in data's range.
            "unit 1 header 2",
            "unit 1 watch [data+0, data+32) hits 0",
            "unit 1 bounds [0, max)",
        ],
        "{t}"
    );

    // A watched range with the same invariant: hits in [2, 5) as well.
    let instr = work.path().join("range");
    let out = run(Command::new(env!("CARGO_BIN_EXE_hlsinstr"))
        .args(["rewrite", "--probes", "watch", "--watch-range", "data[2:5]", "--invariant", "data[i] >= 0"])
        .args(["--bounds", "data:8", "--out"])
        .arg(&instr)
        .arg(&kernel));
    assert!(out.status.success(), "{}", text(&out));
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(instr.join("hlsinstr-manifest.json")).unwrap()).unwrap();
    let w = &manifest["probes"][0]["watch"];
    assert_eq!(
        (w["watched"].as_str(), w["range"].to_string(), w["hits"].as_bool()),
        (Some("data[2:5]"), "[2,5]".into(), Some(true))
    );
    clang_both_modes(&instr.join("walk.cl"), 2);
    strips_back(&instr, "walk.cl", &kernel);
    let t = emulate(&instr, "tests/opencl/invariant/host.cpp");
    assert_eq!(
        dump_records(&t, "data"),
        [
            "unit 0 header 5",
            "unit 0 watch [data+8, data+20) hits 1",
            "unit 0 bounds [data+0, data+32)",
            "unit 0 kind 1 data+8 value 7",
            "unit 0 kind 2 data+36 value 1",
            "unit 0 kind 3 data+16 value -3",
            "unit 1 header 2",
            "unit 1 watch [data+8, data+20) hits 1",
            "unit 1 bounds [0, max)",
        ],
        "{t}"
    );
}

#[test]
fn stall_monitor_measures_the_scripted_load_latency_in_emulation() {
    let work = tempfile::tempdir().unwrap();
    let kernel = repo().join("tests/opencl/stall/kernels/dot.cl");
    let instr = work.path().join("sm");
    let out = run(Command::new(env!("CARGO_BIN_EXE_hlsinstr"))
        .args(["rewrite", "--probes", "stall", "--at", "dot.cl:11", "--at", "12", "--out"])
        .arg(&instr)
        .arg(&kernel));
    assert!(out.status.success(), "{}", text(&out));
    let got = std::fs::read_to_string(instr.join("dot.cl")).unwrap();
    for site in [
        "        HLSINSTR_SNAP(0, 0); int x = a[slow(k)]; HLSINSTR_SNAP(1, x);\n",
        "        HLSINSTR_SNAP(2, 0); acc += x * b[k]; HLSINSTR_SNAP(3, acc);\n",
    ] {
        assert!(got.contains(site), "missing `{site}` in\n{got}");
    }
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(instr.join("hlsinstr-manifest.json")).unwrap()).unwrap();
    let probes: Vec<String> = manifest["probes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            format!(
                "{} {} {}:{} {} {}",
                p["id"],
                p["kind"].as_str().unwrap(),
                p["line"],
                p["column"],
                p["name"].as_str().unwrap(),
                p["snapshot"]
            )
        })
        .collect();
    assert_eq!(
        probes,
        [
            r#"0 snapshot 11:17 a {"access":"a[slow(k)]","dep":null,"pair":1,"role":"before"}"#,
            r#"1 snapshot 11:17 a {"access":"a[slow(k)]","dep":"x","pair":0,"role":"after"}"#,
            r#"2 snapshot 12:20 b {"access":"b[k]","dep":null,"pair":3,"role":"before"}"#,
            r#"3 snapshot 12:20 b {"access":"b[k]","dep":"acc","pair":2,"role":"after"}"#,
        ]
    );
    clang_both_modes(&instr.join("dot.cl"), 4);
    strips_back(&instr, "dot.cl", &kernel);
    // The memory system: the k-th load of a[] takes 10 + 30 k cycles.
    let file = instr.join("dot.cl");
    let slow = "uint slow(uint k) { return k; }";
    assert!(got.contains(slow));
    std::fs::write(&file, got.replace(slow, "uint slow(uint k) { HLSINSTR_EMU_DELAY(10 + 30 * k); return k; }"))
        .unwrap();
    let t = emulate(&instr, "tests/opencl/stall/host.cpp");
    // unit -> [(time, value)] of its SNAPSHOT records.
    let mut snaps: Vec<Vec<(i64, i64)>> = vec![Vec::new(); 4];
    for l in t.lines() {
        let f: Vec<i64> = match l.split_whitespace().map(|w| w.parse().ok()).collect::<Option<Vec<i64>>>() {
            Some(f) if f.len() == 5 && f[1] == 0 => f,
            _ => continue,
        };
        snaps[f[0] as usize].push((f[2], f[4]));
    }
    let latency = |before: usize, after: usize| -> Vec<i64> {
        snaps[before].iter().zip(&snaps[after]).map(|(b, a)| a.0 - b.0).collect()
    };
    assert_eq!(latency(0, 1), [10, 40, 70], "{t}");
    assert_eq!(latency(2, 3), [0, 0, 0], "nothing costs time in the second statement: {t}");
    let values = |u: usize| snaps[u].iter().map(|s| s.1).collect::<Vec<_>>();
    assert_eq!((values(0), values(1), values(3)), (vec![0, 0, 0], vec![1, 2, 3], vec![4, 14, 32]), "{t}");
}

#[test]
fn bad_watch_and_stall_options_exit_2_and_say_what_to_do() {
    let work = tempfile::tempdir().unwrap();
    let chase = repo().join("tests/opencl/watch/kernels/chase.cl");
    let dot = repo().join("tests/opencl/stall/kernels/dot.cl");
    let out_dir = work.path().join("o");
    let o = out_dir.to_str().unwrap();
    let cases: &[(&[&str], &Path, &str)] = &[
        (&["--probes", "watch", "--watch", "data[0]", "--watch-range", "data[0:2]"], &chase, "give one of them"),
        (&["--probes", "watch", "--watch-range", "data[4:2]"], &chase, "(4 is not below 2)"),
        (&["--probes", "watch"], &chase, "add --watch BUF[K], --watch-range 'BUF[A:B]' or --invariant"),
        (&["--watch", "data[0]"], &chase, "add `watch` to --probes"),
        (
            &["--invariant", "data[i] >= 0"],
            &chase,
            "say which with --bounds data:N (elements [0, N)) or --watch-range 'data[A:B]'",
        ),
        (&["--invariant", "data[i] != 0", "--bounds", "data:8"], &chase, "OP one of < <= > >= =="),
        (
            &["--probes", "watch", "--watch", "data[0]", "--invariant", "next[i] > 0"],
            &chase,
            "watchpoints take one buffer",
        ),
        (
            &["--invariant", "dat[0] > 0"],
            &chase,
            "--invariant `dat[0] > 0`: `dat` names no pointer parameter of a .cl kernel",
        ),
        (
            &["--probes", "watch", "--watch-range", "dat[0:2]"],
            &chase,
            "--watch-range `dat[0:2]`: `dat` names no pointer parameter",
        ),
        (&["--bounds", "data:8"], &chase, "add --watch, --watch-range or --invariant"),
        (&["--probes", "stall"], &dot, "add --at FILE:LINE"),
        (&["--at", "11"], &dot, "add `stall` to --probes"),
        (
            &["--probes", "stall", "--at", "8"],
            &dot,
            "line 8 of dot.cl (`long acc = 0;`) has no load from a __global pointer parameter",
        ),
        (&["--probes", "stall", "--at", "14"], &dot, "line 14 of dot.cl (`*out = acc;`) has no load"),
        (&["--probes", "stall", "--at", "mm.cl:11"], &dot, "no .cl input is `mm.cl`; .cl inputs: dot.cl"),
        (&["--probes", "stall", "--at", "dot.cl:x"], &dot, "expected LINE or FILE:LINE"),
        (&["--probes", "stall", "--at", "99"], &dot, "dot.cl has fewer than 99 lines"),
    ];
    for (args, input, want) in cases {
        let mut all = vec!["rewrite"];
        all.extend_from_slice(args);
        all.extend(["--out", o, input.to_str().unwrap()]);
        let out = hlsinstr(&all);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", text(&out));
        assert!(text(&out).contains(want), "{args:?}: `{want}` not in:\n{}", text(&out));
        assert!(!out_dir.exists(), "{args:?} wrote output");
    }
    // A load in a loop header: no statement to go around.
    let input = work.path().join("hdr.cl");
    std::fs::write(
        &input,
        "__kernel void k(__global const int *a, __global int *o) {\n    for (int i = 0; a[i] != 0; i++) o[i] = 1;\n}\n",
    )
    .unwrap();
    let out = hlsinstr(&["rewrite", "--probes", "stall", "--at", "2", "--out", o, input.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains("the load `a[i]` on line 2 is in the header or condition of `for`: the stall monitor goes before and after a statement of a {} block; move the load into a statement of its own (`T v = a[i];`)"),
        "{}",
        text(&out)
    );
}

#[test]
fn a_value_site_skipped_by_short_circuit_sends_nothing_in_emulation() {
    let work = tempfile::tempdir().unwrap();
    let kernel = work.path().join("sc.cl");
    std::fs::write(
        &kernel,
        "__kernel void sc(__global int *d, int mode) {\n    int t = mode && d[1] > 0;\n    d[2] = t + 40;\n}\n",
    )
    .unwrap();
    let host = work.path().join("host.cpp");
    std::fs::write(
        &host,
        r#"#include "hlsinstr_emu.h"
#include <cstdio>
using namespace hlsinstr_emu;
int main() {
    int d[4] = {0, 7, 0, 0};
    for (unsigned u = 0; u < HLSINSTR_NUM_IBUFFERS; ++u) { ibuffer_command(u, kCmdResetLinear); ibuffer_command(u, kCmdSample); }
    run("sc", {&d[0], 0});
    run("sc", {&d[0], 1});
    std::printf("base %llu\n", static_cast<unsigned long long>(reinterpret_cast<size_t>(&d[0])));
    for (unsigned u = 0; u < HLSINSTR_NUM_IBUFFERS; ++u) write_dump(stdout, ibuffer_read(u, HLSINSTR_IBUFFER_DEPTH));
    std::printf("PASS\n");
}
"#,
    )
    .unwrap();
    let instr = work.path().join("sc");
    let out = hlsinstr(&[
        "rewrite",
        "--probes",
        "watch",
        "--watch-range",
        "d[0:4]",
        "--out",
        instr.to_str().unwrap(),
        kernel.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out));
    let got = std::fs::read_to_string(instr.join("sc.cl")).unwrap();
    assert!(got.contains("int t = mode && d[HLSINSTR_WATCH_V(0, d, 1)] > 0; HLSINSTR_WATCH_POST(0);"), "{got}");
    let out = run(Command::new(env!("CARGO_BIN_EXE_hlsinstr"))
        .args(["emulate", "--run", "--host"])
        .arg(&host)
        .arg(&instr)
        .env("HLSINSTR_EMU_DEADLOCK_MS", "5000"));
    assert!(passed(&out), "{}", text(&out));
    assert_eq!(
        dump_records(&text(&out), "d"),
        [
            "unit 0 header 3",
            "unit 0 watch [d+0, d+16) hits 1",
            "unit 0 bounds [0, max)",
            // Only the second launch (mode 1) reads d[1].
            "unit 0 kind 1 d+4 value 7",
            "unit 1 header 4",
            "unit 1 watch [d+0, d+16) hits 1",
            "unit 1 bounds [0, max)",
            "unit 1 kind 1 d+8 value 40",
            "unit 1 kind 1 d+8 value 41",
        ],
        "{}",
        text(&out)
    );
}
