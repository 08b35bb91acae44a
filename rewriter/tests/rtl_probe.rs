//! `hlsinstr rtl-probe` end to end: the edit only inserts; the probed design computes the same
//! outputs in the same cycles as the original; the IP's recorded start/end cycles equal the
//! ap_start/ap_done edges the testbench's own observers see, for every instance and call; a full
//! queue keeps its first events and says so; `hlsinstr decode` reads the host's dump back; the IP
//! lints clean. On the 2022.2 systolic fixture and on tests/hw/rtlprobe-mini, under Icarus
//! (Verilator 5.006 rejects the fixture's m_axi adapters; verilog/rtlprobe/tb/rtlprobe_tb_main.cpp
//! runs the mini testbench under Verilator by hand, see docs/rtl-probe.md); the IP alone under
//! both Icarus and Verilator.
//! A missing simulator fails the tests.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;
use common::{fixtures, repo};

fn hlsinstr(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hlsinstr")).args(args).current_dir(cwd).output().unwrap()
}

fn run(cmd: &mut Command) -> Output {
    let tool = cmd.get_program().to_string_lossy().into_owned();
    cmd.output().unwrap_or_else(|e| panic!("cannot run {tool}: {e}; install it and run again"))
}

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

fn tb(file: &str) -> PathBuf {
    repo().join("verilog/rtlprobe/tb").join(file)
}

fn systolic() -> PathBuf {
    fixtures().join("vitis-solution/2022.2-systolic-mm/solution")
}

fn mini() -> PathBuf {
    repo().join("tests/hw/rtlprobe-mini/solution")
}

fn loops_design() -> PathBuf {
    repo().join("tests/hw/rtlprobe-loops/solution")
}

fn manifest(out: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(out.join("hlsinstr-manifest.json")).unwrap()).unwrap()
}

/// `observe.svh`: one observer per queue (ID: the queue's index), on the instance's own ports
/// (not the threaded ones); for a loop of an FSM, on its module's `ap_CS_fsm` compared with the
/// state parameters the manifest names (not the generated decoder).
fn observers(m: &serde_json::Value) -> String {
    let rtl = &m["rtl"];
    let mut s = String::new();
    for (id, q) in rtl["queues"].as_array().unwrap().iter().enumerate() {
        let mut at = q["instance"].as_u64().unwrap() as usize;
        let inst = &rtl["instances"][at];
        let fsm = &inst["fsm"];
        while !rtl["instances"][at]["fsm"].is_null() {
            at = rtl["instances"][at]["parent"].as_u64().unwrap() as usize; // the loop's function
        }
        let host = rtl["instances"][at]["path"].as_str().unwrap();
        let below: String = host.split('/').skip(1).map(|p| format!(".{p}")).collect();
        if q["role"] == "header" {
            continue; // the loop's observer prints its header entries
        }
        if q["role"] == "loop" {
            let states: Vec<String> = fsm["rtl_states"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| format!("(`DESIGN{below}.ap_CS_fsm == `DESIGN{below}.{})", p.as_str().unwrap()))
                .collect();
            let header = if fsm["header"].is_null() { "1'b0".to_string() } else { states[0].clone() };
            s.push_str(&format!(
                "rtlprobe_tb_fsm_observer #(.ID({id})) obs{id} (.clk(clk), .rst_n(rst_n), .cycle(cycle), \
                 .active({}), .header({header}));\n",
                states.join(" || ")
            ));
            continue;
        }
        let below: String = inst["path"].as_str().unwrap().split('/').skip(1).map(|p| format!(".{p}")).collect();
        s.push_str(&format!(
            "rtlprobe_tb_observer #(.ID({id})) obs{id} (.clk(clk), .rst_n(rst_n), .cycle(cycle), \
             .start(`DESIGN{below}.ap_start), .done(`DESIGN{below}.ap_done));\n"
        ));
    }
    s
}

/// Copies `.v` files for Icarus: Vitis' `always @ (*)` read as `always_comb` (Icarus does not
/// evaluate a block whose inputs never change) and `default_nettype wire//` given a space.
fn icarus_copy(from: &Path, to: &Path) -> Vec<PathBuf> {
    std::fs::create_dir_all(to).unwrap();
    let mut out = Vec::new();
    for e in std::fs::read_dir(from).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "v") {
            let t = std::fs::read_to_string(&p).unwrap();
            // As `cosim --simulator icarus` reads Vitis RTL; the IP's own files are left as written
            // (its offload's `always @(*)` loop would spin as an always_comb in Icarus 11).
            let ours = p.file_name().unwrap().to_string_lossy().starts_with("hlsinstr_");
            let t = if ours { t } else { hlsinstr::cosim::build::icarus_comb(&t) };
            let dst = to.join(p.file_name().unwrap());
            std::fs::write(&dst, t).unwrap();
            out.push(dst);
        }
    }
    out.sort();
    out
}

/// Compiles and runs `top` under Icarus in `work` (which holds observe.svh); its stdout.
fn icarus(work: &Path, top: &str, rtl: &[PathBuf], defines: &[String], parts: &[&str]) -> String {
    let vvp = work.join("sim.vvp");
    let mut cmd = Command::new("iverilog");
    cmd.args(["-g2012", "-o"]).arg(&vvp).arg(format!("-DTB_TOP={top}")).arg("-DMAX_CYCLES=20000");
    // The testbenches' shared `probe_host.svh` beside them; `observe.svh` in `work`.
    cmd.arg("-I").arg(tb("")).arg("-I").arg(work);
    cmd.args(defines.iter().map(|d| format!("-D{d}")));
    cmd.args(["-s", "rtlprobe_tb_clock"]).arg(tb("rtlprobe_tb_clock.sv"));
    for p in parts {
        cmd.arg(tb(p));
    }
    cmd.args(rtl).current_dir(work);
    let o = run(&mut cmd);
    assert!(o.status.success(), "iverilog failed:\n{}", text(&o));
    let o = run(Command::new("vvp").arg("-n").arg(&vvp).current_dir(work));
    let t = text(&o);
    assert!(o.status.success() && !t.contains("ERROR"), "simulation failed:\n{t}");
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn lines<'a>(out: &'a str, tag: &str) -> Vec<&'a str> {
    out.lines().filter(|l| l.split_whitespace().next() == Some(tag)).collect()
}

/// Per probe, the observers' `(start, end)` cycles in order.
fn observed(out: &str) -> BTreeMap<u32, Vec<u64>> {
    let mut m: BTreeMap<u32, Vec<u64>> = BTreeMap::new();
    for l in lines(out, "EV") {
        let f: Vec<&str> = l.split_whitespace().collect();
        m.entry(f[1].parse().unwrap()).or_default().push(f[3].parse().unwrap());
    }
    m
}

/// Per probe: status word and the valid timestamps, oldest first, as the host reads them.
fn recorded(out: &str) -> BTreeMap<u32, (u32, Vec<u64>)> {
    let mut m: BTreeMap<u32, (u32, Vec<u64>)> = BTreeMap::new();
    for l in lines(out, "Q") {
        let f: Vec<u64> = l.split_whitespace().skip(1).map(|x| x.parse().unwrap_or(0)).collect();
        let e = m.entry(f[0] as u32).or_insert((0, Vec::new()));
        if e.1.is_empty() && e.0 == 0 {
            e.0 = f[1] as u32 & !1; // status without the valid bit of this entry
        }
        if f[1] & 1 == 1 {
            e.1.push(f[2] | (f[3] << 32));
        }
    }
    m
}

/// The IP's INFO register as the testbench's host read it.
fn info(out: &str) -> u32 {
    let l = lines(out, "I");
    assert_eq!(l.len(), 1, "one INFO read:\n{out}");
    l[0].split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// The dump the generated host snippet writes (docs/rtl-probe.md#dump-format).
fn dump(m: &serde_json::Value, info: u32, rec: &BTreeMap<u32, (u32, Vec<u64>)>) -> Vec<u8> {
    let key = u64::from_str_radix(m["rtl"]["key"].as_str().unwrap(), 16).unwrap();
    let mut w: Vec<u32> = vec![0x484C_5250, 1, rec.len() as u32, info, key as u32, (key >> 32) as u32];
    for (status, ts) in rec.values() {
        w.push(*status);
        w.push(ts.len() as u32);
        for t in ts {
            w.push(*t as u32);
            w.push((*t >> 32) as u32);
        }
    }
    w.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// Runs the generated host snippet (`out/host/hlsinstr_rtlprobe_host.h`) against a model of the
/// IP's registers holding what the simulation's host read (`info`, each queue's status and
/// timestamps, the empty entries first as the IP's shift register gives them), with XRT's
/// `xrt::ip` declared by tests/hw/xrt_stub; returns the `rtlprobe.bin` it wrote.
fn host_dump(
    out: &Path,
    work: &Path,
    m: &serde_json::Value,
    info: u32,
    rec: &BTreeMap<u32, (u32, Vec<u64>)>,
    dram: Option<&[u64]>,
) -> Vec<u8> {
    let key = u64::from_str_radix(m["rtl"]["key"].as_str().unwrap(), 16).unwrap();
    let records: Vec<String> = dram.unwrap_or(&[]).iter().map(|r| format!("{r}ull")).collect();
    let (setup, dump_args) = match dram {
        Some(_) => (
            "hlsinstr_rtlprobe_offload_to(probe, 0x100, 64);\n    if (!hlsinstr_rtlprobe_offload_wait(probe)) return 1;",
            ", dram.data()",
        ),
        None => ("", ""),
    };
    let queues: Vec<String> = rec
        .values()
        .map(|(status, ts)| {
            let t: Vec<String> = ts.iter().map(|t| format!("{t}ull")).collect();
            format!("{{{status}u, {{{}}}}}", t.join(", "))
        })
        .collect();
    let main = format!(
        r#"#include <cstdint>
#include <vector>
#include "hlsinstr_rtlprobe_host.h"
namespace {{
struct Queue {{ uint32_t status; std::vector<uint64_t> ts; }};
const std::vector<Queue> queues = {{{}}};
const std::vector<uint64_t> dram = {{{}}};
uint32_t sel = 0;
uint32_t pops = 0;
}}
uint32_t xrt::ip::read_register(uint32_t offset) const {{
    const Queue& q = queues.at(sel);
    const uint32_t depth = (q.status >> 8) & 0xff, empty = depth - uint32_t(q.ts.size());
    const bool valid = pops >= empty && pops < depth;
    const uint64_t head = valid ? q.ts[pops - empty] : 0;
    switch (offset) {{
    case 0x00: return 0x484C5250u;
    case 0x04: return {info}u;
    case 0x08: return {}u;
    case 0x0C: return {}u;
    case 0x1C: return q.status | (valid ? 1u : 0u);
    case 0x20: return uint32_t(head);
    case 0x24: ++pops; return uint32_t(head >> 32);
    case 0x34: return 64u;
    case 0x38: return uint32_t(dram.size());
    default: return 0;
    }}
}}
void xrt::ip::write_register(uint32_t offset, uint32_t data) {{
    if (offset == 0x18) {{ sel = data; pops = 0; }}
}}
int main() {{
    xrt::ip probe;
    {setup}
    return hlsinstr_rtlprobe_dump(probe, "host.bin"{dump_args}) == 0 ? 0 : 1;
}}
"#,
        queues.join(", "),
        records.join(", "),
        key as u32,
        (key >> 32) as u32
    );
    std::fs::write(work.join("host_main.cpp"), main).unwrap();
    let exe = work.join("host_main");
    let o = run(Command::new("g++")
        .args(["-std=c++17", "-Wall", "-Wextra", "-Werror", "-I"])
        .arg(out.join("host"))
        .arg("-I")
        .arg(repo().join("tests/hw/xrt_stub"))
        .arg(work.join("host_main.cpp"))
        .arg("-o")
        .arg(&exe));
    assert!(o.status.success(), "the host snippet does not build:\n{}", text(&o));
    let o = run(Command::new(&exe).current_dir(work));
    assert!(o.status.success(), "the host snippet failed:\n{}", text(&o));
    std::fs::read(work.join("host.bin")).unwrap()
}

/// `original` is `edited` with some pieces left out: the edit only inserted.
/// `hlsinstr decode DUMP --manifest OUT/hlsinstr-manifest.json --format json` in `cwd`, which
/// must succeed: its report.
fn decode_json(dump: &str, out: &Path, cwd: &Path) -> serde_json::Value {
    let manifest = out.join("hlsinstr-manifest.json");
    let o = hlsinstr(&["decode", dump, "--manifest", manifest.to_str().unwrap(), "--format", "json"], cwd);
    assert!(o.status.success(), "{}", text(&o));
    serde_json::from_slice(&o.stdout).unwrap()
}

fn only_inserted(original: &str, edited: &str) -> bool {
    let mut it = edited.bytes();
    original.bytes().all(|b| it.any(|c| c == b))
}

fn probe(solution: &Path, out: &Path, extra: &[&str]) {
    let mut args = vec!["rtl-probe", solution.to_str().unwrap(), "--out", out.to_str().unwrap()];
    args.extend(extra);
    let o = hlsinstr(&args, out.parent().unwrap());
    assert!(o.status.success(), "rtl-probe failed:\n{}", text(&o));
}

#[test]
fn systolic_fixture_probes_equal_the_waveform_and_change_nothing_else() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("probed");
    probe(&systolic(), &out, &[]);
    let m = manifest(&out);
    let names: Vec<&str> =
        m["rtl"]["instances"].as_array().unwrap().iter().map(|i| i["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "multiplier",
            "multiplier/Pipeline_1",
            "multiplier/Pipeline_2",
            "multiplier/Pipeline_4",
            "multiplier/Pipeline_5",
            "multiplier/Pipeline_6",
            "multiplier/VITIS_LOOP_31_1",
            "multiplier/systolic1",
            "multiplier/VITIS_LOOP_142_3"
        ]
    );
    // Loops are mapped to their source line (the schedule's specloopname).
    let p31 = m["probes"].as_array().unwrap().iter().find(|p| p["name"] == "VITIS_LOOP_31_1").unwrap();
    assert_eq!((p31["kind"].as_str(), p31["line"].as_u64()), (Some("loop"), Some(31)));
    // The edit: insertions into multiplier.v only; every other file byte for byte.
    for e in std::fs::read_dir(systolic().join("syn/verilog")).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_str().unwrap().to_string();
        let before = std::fs::read_to_string(&p).unwrap();
        let after = std::fs::read_to_string(out.join("rtl").join(&name)).unwrap();
        if name == "multiplier.v" {
            assert!(after.len() > before.len() && only_inserted(&before, &after), "{name}: not insert-only");
        } else {
            assert_eq!(before, after, "{name} changed");
        }
    }
    // A --select that matches nothing is refused (exit 2) and names the instances.
    let again = hlsinstr(
        &[
            "rtl-probe",
            systolic().to_str().unwrap(),
            "--out",
            dir.path().join("x").to_str().unwrap(),
            "--select",
            "nothing*",
        ],
        dir.path(),
    );
    assert_eq!(again.status.code(), Some(2), "{}", text(&again));
    assert!(text(&again).contains("matches no instance"), "{}", text(&again));

    let parts =
        ["rtlprobe_tb_systolic.sv", "rtlprobe_tb_axi_mem.sv", "rtlprobe_tb_axil_master.sv", "rtlprobe_tb_observer.sv"];
    let obs = observers(&m);
    let plain = dir.path().join("plain");
    let rtl = icarus_copy(&systolic().join("syn/verilog"), &plain.join("rtl"));
    std::fs::write(plain.join("observe.svh"), &obs).unwrap();
    let before = icarus(&plain, "rtlprobe_tb_systolic", &rtl, &[], &parts);
    let probed = dir.path().join("sim");
    let rtl = icarus_copy(&out.join("rtl"), &probed.join("rtl"));
    std::fs::write(probed.join("observe.svh"), &obs).unwrap();
    let n = m["rtl"]["queues"].as_array().unwrap().len();
    let after = icarus(&probed, "rtlprobe_tb_systolic", &rtl, &["PROBED".into(), format!("NPROBES={n}")], &parts);

    // Same results, same cycles for every instance (the top's start..done is one of them).
    assert_eq!(lines(&before, "RES").len(), 64);
    assert_eq!(lines(&before, "RES"), lines(&after, "RES"));
    assert_eq!(observed(&before), observed(&after));
    let res0: i64 = lines(&after, "RES")[0].split_whitespace().nth(2).unwrap().parse().unwrap();
    assert_eq!(res0, -17, "A*B[0][0]");
    let top = &observed(&after)[&0];
    assert!(top[1] - top[0] > 200, "the top's call: {top:?}");

    // The IP's record equals the waveform, exactly, for every instance.
    let rec = recorded(&after);
    assert_eq!(rec.len(), n);
    for (probe, events) in observed(&after) {
        assert_eq!(rec[&probe].1, events, "probe {probe}");
        assert_eq!(rec[&probe].0 >> 16, 1, "probe {probe}: one call");
    }
    // INFO: N, the default 48-bit timestamps, the counter not past 2^48.
    let info = info(&after);
    assert_eq!((info & 0xffff, (info >> 16) & 0xff), (n as u32, 48), "INFO {info:#x}");
    // decode reads the host's dump back.
    std::fs::write(dir.path().join("rtlprobe.bin"), dump(&m, info, &rec)).unwrap();
    let r = decode_json("rtlprobe.bin", &out, dir.path());
    let p7 = &r["probes"][7];
    assert_eq!(p7["name"], "multiplier/systolic1");
    let ev = &observed(&after)[&7];
    assert_eq!(p7["intervals"][0], serde_json::json!([ev[0], ev[1]]));
    assert_eq!(p7["busy_cycles"].as_u64().unwrap(), ev[1] - ev[0] + 1);
}

#[test]
fn mini_design_two_levels_and_a_full_queue() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("probed");
    probe(&mini(), &out, &["--depth", "2"]);
    let m = manifest(&out);
    let obs = observers(&m);
    let n = m["rtl"]["queues"].as_array().unwrap().len();
    assert_eq!(n, 3, "top, sub, and the leaf two levels down");
    let parts = ["rtlprobe_tb_mini.sv", "rtlprobe_tb_axil_master.sv", "rtlprobe_tb_observer.sv"];
    let plain = dir.path().join("plain");
    let rtl = icarus_copy(&mini().join("syn/verilog"), &plain.join("rtl"));
    std::fs::write(plain.join("observe.svh"), &obs).unwrap();
    let before = icarus(&plain, "rtlprobe_tb_mini", &rtl, &[], &parts);
    let sim = dir.path().join("sim");
    let rtl = icarus_copy(&out.join("rtl"), &sim.join("rtl"));
    std::fs::write(sim.join("observe.svh"), &obs).unwrap();
    let defines = ["PROBED".to_string(), format!("NPROBES={n}")];
    let after = icarus(&sim, "rtlprobe_tb_mini", &rtl, &defines, &parts);
    assert_eq!(lines(&before, "Y").len(), 2);
    assert_eq!(lines(&before, "Y"), lines(&after, "Y"));
    assert_eq!(observed(&before), observed(&after));

    // Depth 2: every queue keeps its first call, flags the loss, and still counts every call.
    let seen = observed(&after);
    let rec = recorded(&after);
    for (probe, events) in &seen {
        let (status, ts) = &rec[probe];
        assert_eq!(ts, &events[..2].to_vec(), "probe {probe}: the first start and end");
        assert_eq!(u64::from(status >> 16), events.len() as u64 / 2, "probe {probe}: calls");
        assert_eq!(status & 6, 6, "probe {probe}: full and lost");
    }
    assert_eq!(seen[&1].len(), 12, "sub: 3 calls per top call, 2 top calls");

    // Without call counters (--calls-width 0): the same record, STATUS shows no calls, and
    // decode counts the starts kept.
    let lean = dir.path().join("lean");
    probe(&mini(), &lean, &["--calls-width", "0", "--depth", "16", "--ts-width", "32"]);
    let sim = dir.path().join("sim-lean");
    let rtl = icarus_copy(&lean.join("rtl"), &sim.join("rtl"));
    std::fs::write(sim.join("observe.svh"), &obs).unwrap();
    let out_lean = icarus(&sim, "rtlprobe_tb_mini", &rtl, &defines, &parts);
    let rec = recorded(&out_lean);
    for (probe, events) in &seen {
        assert_eq!(&rec[probe].1, events, "probe {probe}: every event at depth 16");
        assert_eq!(rec[probe].0 >> 16, 0, "probe {probe}: no counter");
    }
    let ml = manifest(&lean);
    let info = info(&out_lean);
    assert_eq!((info >> 16) & 0xff, 32, "32-bit timestamps, not wrapped: INFO {info:#x}");
    std::fs::write(dir.path().join("lean.bin"), dump(&ml, info, &rec)).unwrap();
    let r = decode_json("lean.bin", &lean, dir.path());
    assert_eq!(r["probes"][1]["calls"], 6, "{r}");
    assert_eq!(r["warnings"], serde_json::json!([]), "{r}");
    // The generated host snippet, run over the same registers, writes a dump that decodes the same.
    std::fs::write(dir.path().join("host.bin"), host_dump(&lean, dir.path(), &ml, info, &rec, None)).unwrap();
    assert_eq!(decode_json("host.bin", &lean, dir.path()), r);
    // A counter that went past 2^32 is reported; a dump of another timestamp width is refused.
    let lean_manifest = lean.join("hlsinstr-manifest.json");
    let decode = |info: u32| {
        std::fs::write(dir.path().join("lean.bin"), dump(&ml, info, &rec)).unwrap();
        hlsinstr(&["decode", "lean.bin", "--manifest", lean_manifest.to_str().unwrap()], dir.path())
    };
    let o = decode(info | 1 << 23);
    assert!(o.status.success() && text(&o).contains("passed 2^32"), "{}", text(&o));
    let o = decode(info & !(0x7f << 16) | 40 << 16);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("40-bit timestamps"), "{}", text(&o));
}

/// A dataflow region (tests/profile/df: two processes joined by a FIFO run at once, the region
/// done when both are): each process and the loop in each is probed, and the IP's record of every
/// call of each equals the observers' edges, while the sums and every edge stay as without probes.
#[test]
fn dataflow_processes_are_timed_exactly() {
    let solution = repo().join("tests/profile/df/solution");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("probed");
    probe(&solution, &out, &["--depth", "8"]);
    let m = manifest(&out);
    let names: Vec<&str> =
        m["rtl"]["instances"].as_array().unwrap().iter().map(|i| i["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["df", "df/produce", "df/produce/VITIS_LOOP_3_1", "df/consume", "df/consume/VITIS_LOOP_8_1"]);
    let paths: Vec<&str> =
        m["rtl"]["instances"].as_array().unwrap().iter().map(|i| i["path"].as_str().unwrap()).collect();
    assert_eq!(paths[1], "df/produce_U0");
    let obs = observers(&m);
    let n = m["rtl"]["queues"].as_array().unwrap().len();
    assert_eq!(n, 5);
    let parts =
        ["rtlprobe_tb_df.sv", "rtlprobe_tb_axil_master.sv", "rtlprobe_tb_observer.sv", "rtlprobe_tb_fsm_observer.sv"];
    let plain = dir.path().join("plain");
    let rtl = icarus_copy(&solution.join("syn/verilog"), &plain.join("rtl"));
    std::fs::write(plain.join("observe.svh"), &obs).unwrap();
    let before = icarus(&plain, "rtlprobe_tb_df", &rtl, &[], &parts);
    let sim = dir.path().join("sim");
    let rtl = icarus_copy(&out.join("rtl"), &sim.join("rtl"));
    std::fs::write(sim.join("observe.svh"), &obs).unwrap();
    let after = icarus(&sim, "rtlprobe_tb_df", &rtl, &["PROBED".into(), format!("NPROBES={n}")], &parts);

    // 0+3+6, 0+3+...+12, 0: the same sums in the same cycles, every process's edges the same.
    assert_eq!(lines(&before, "SUM"), ["SUM 0 9", "SUM 1 30", "SUM 2 0"]);
    assert_eq!(lines(&before, "SUM"), lines(&after, "SUM"));
    let seen = observed(&after);
    assert_eq!(observed(&before), seen);
    // The processes overlap: consume starts with produce and ends after it, in every call.
    let (prod, cons, top) = (&seen[&1], &seen[&3], &seen[&0]);
    assert_eq!((prod.len(), cons.len(), top.len()), (6, 6, 6), "{seen:?}");
    for c in 0..3 {
        assert_eq!(prod[2 * c], cons[2 * c], "call {c}: both start together");
        assert!(prod[2 * c + 1] < cons[2 * c + 1], "call {c}: produce ends first");
        assert_eq!(top[2 * c + 1], cons[2 * c + 1], "call {c}: the region is done with consume");
    }
    // The IP's record: every start and end of every call of each process and loop, exactly.
    let rec = recorded(&after);
    assert_eq!(rec.len(), n);
    for (probe, events) in &seen {
        assert_eq!(&rec[probe].1, events, "probe {probe}");
        assert_eq!(u64::from(rec[probe].0 >> 16), events.len() as u64 / 2, "probe {probe}: calls");
        assert_eq!(rec[probe].0 & 6, 0, "probe {probe}: not full, none lost");
    }
    assert_eq!(seen.len(), n, "an observer per queue");
    // decode gives each process's calls and intervals.
    let info = info(&after);
    std::fs::write(dir.path().join("df.bin"), dump(&m, info, &rec)).unwrap();
    let r = decode_json("df.bin", &out, dir.path());
    assert_eq!(r["probes"][3]["name"], "df/consume");
    assert_eq!(r["probes"][3]["calls"], 3);
    assert_eq!(r["probes"][3]["intervals"][1], serde_json::json!([cons[2], cons[3]]));
}

/// Per FSM loop observer, its header entries (`HV` lines).
fn header_visits(out: &str) -> BTreeMap<u32, u64> {
    header_entries(out).into_iter().map(|(q, t)| (q, t.len() as u64)).collect()
}

/// Per FSM loop observer, the cycle of each header entry.
fn header_entries(out: &str) -> BTreeMap<u32, Vec<u64>> {
    let mut m: BTreeMap<u32, Vec<u64>> = BTreeMap::new();
    for l in lines(out, "HV") {
        let f: Vec<&str> = l.split_whitespace().collect();
        m.entry(f[1].parse().unwrap()).or_default().push(f[2].parse().unwrap());
    }
    m
}

/// Loops that live in an FSM (tests/hw/rtlprobe-loops: a one-hot nest in the top, a binary
/// one-state loop in a callee) are found from the schedule, named from csynth.xml, decoded from
/// `ap_CS_fsm`; the IP's entries and exits equal the waveform's, exactly; iterations equal the
/// header entries the waveform shows and the loop bounds; the design computes the same in the
/// same cycles; per run, the iterations decode gives equal the header entries the waveform
/// shows within each run; the edited design and wrapper add no Verilator lint warning; Icarus
/// and Verilator simulate the probed design to the same record.
#[test]
fn fsm_loops_are_timed_from_ap_cs_fsm_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("probed");
    // Depth 48: the inner loop's header queue keeps all its 23 visits (46 events), so every run
    // gets its iterations.
    probe(&loops_design(), &out, &["--depth", "48"]);
    let m = manifest(&out);
    let inst = m["rtl"]["instances"].as_array().unwrap();
    let summary: Vec<(String, serde_json::Value)> = inst
        .iter()
        .filter(|i| !i["fsm"].is_null())
        .map(|i| (i["name"].as_str().unwrap().to_string(), i["fsm"]["states"].clone()))
        .collect();
    assert_eq!(
        summary,
        [
            ("loops/loops_spin/spin".to_string(), serde_json::json!([2])),
            ("loops/VITIS_LOOP_9_1".to_string(), serde_json::json!([2, 3, 4, 5])),
            ("loops/VITIS_LOOP_9_1/VITIS_LOOP_10_2".to_string(), serde_json::json!([3, 4])),
        ]
    );
    let spin = inst.iter().find(|i| i["name"] == "loops/loops_spin/spin").unwrap();
    assert!(spin["fsm"]["header"].is_null(), "a one-state loop: iterations not countable");
    assert_eq!(spin["fsm"]["active"], "(ap_CS_fsm == ap_ST_fsm_state2)", "binary encoding");
    let p10 = m["probes"].as_array().unwrap().iter().find(|p| p["name"] == "VITIS_LOOP_10_2").unwrap();
    assert_eq!((p10["kind"].as_str(), p10["line"].as_u64()), (Some("loop"), Some(10)));
    let queues = m["rtl"]["queues"].as_array().unwrap();
    let n = queues.len();
    assert_eq!(n, 7, "2 calls, 3 loops, 2 header queues");

    let obs = observers(&m);
    let parts = [
        "rtlprobe_tb_loops.sv",
        "rtlprobe_tb_axil_master.sv",
        "rtlprobe_tb_observer.sv",
        "rtlprobe_tb_fsm_observer.sv",
    ];
    let plain = dir.path().join("plain");
    let rtl = icarus_copy(&loops_design().join("syn/verilog"), &plain.join("rtl"));
    std::fs::write(plain.join("observe.svh"), &obs).unwrap();
    let before = icarus(&plain, "rtlprobe_tb_loops", &rtl, &[], &parts);
    let sim = dir.path().join("sim");
    let probed_rtl = icarus_copy(&out.join("rtl"), &sim.join("rtl"));
    std::fs::write(sim.join("observe.svh"), &obs).unwrap();
    let defines = ["PROBED".to_string(), format!("NPROBES={n}")];
    let after = icarus(&sim, "rtlprobe_tb_loops", &probed_rtl, &defines, &parts);
    // acc = the sum over i < n, j <= i of i + j: 12 for n = 3, 30 for n = 4.
    assert_eq!(lines(&after, "Y"), ["Y 0 12", "Y 1 30"]);
    assert_eq!(lines(&before, "Y"), lines(&after, "Y"));
    assert_eq!(observed(&before), observed(&after));
    assert_eq!(header_visits(&before), header_visits(&after));

    // Every entry and exit of every loop (and call) as recorded equals the waveform.
    let seen = observed(&after);
    let rec = recorded(&after);
    for (q, events) in &seen {
        assert_eq!(&rec[q].1, events, "queue {q}");
    }
    let queue_of = |name: &str| {
        let at = inst.iter().position(|i| i["name"] == name).unwrap();
        queues.iter().position(|q| q["role"] == "loop" && q["instance"] == at).unwrap() as u32
    };
    let (outer, inner) = (queue_of("loops/VITIS_LOOP_9_1"), queue_of("loops/VITIS_LOOP_9_1/VITIS_LOOP_10_2"));
    assert_eq!(seen[&outer].len(), 4, "the outer loop runs once per call");
    assert_eq!(seen[&inner].len(), 2 * 7, "the inner loop runs n times per call: 3 + 4");
    // Header entries: the outer loop tests n + 1 times per call, the inner one i + 2 times.
    let hv = header_visits(&after);
    assert_eq!((hv[&outer], hv[&inner]), (4 + 5, (2 + 3 + 4) + (2 + 3 + 4 + 5)));

    // decode: runs, cycles (exit - entry) and iterations.
    std::fs::write(dir.path().join("loops.bin"), dump(&m, info(&after), &rec)).unwrap();
    let r = decode_json("loops.bin", &out, dir.path());
    let by_name = |name: &str| r["probes"].as_array().unwrap().iter().find(|p| p["name"] == name).unwrap().clone();
    let (o, i, sp) = (
        by_name("loops/VITIS_LOOP_9_1"),
        by_name("loops/VITIS_LOOP_9_1/VITIS_LOOP_10_2"),
        by_name("loops/loops_spin/spin"),
    );
    assert_eq!((o["calls"].as_u64(), o["iterations"].as_u64()), (Some(2), Some(3 + 4)), "{r}");
    assert_eq!((i["calls"].as_u64(), i["iterations"].as_u64()), (Some(7), Some(6 + 10)), "{r}");
    assert_eq!(i["iterations"].as_u64().unwrap(), hv[&inner] - 7, "header entries less one per run");
    assert!(sp["iterations"].is_null(), "{r}");
    assert!(sp["iterations_per_run"].is_null(), "{r}");
    // Per run: the header entries the waveform shows between the run's entry and exit, less its
    // last (both loops test at the header and leave from it).
    let entries = header_entries(&after);
    for (q, p) in [(outer, &o), (inner, &i)] {
        let at = queues[q as usize]["instance"].as_u64().unwrap() as usize;
        assert_eq!(inst[at]["fsm"]["exits_at_header"], true);
        let runs = &seen[&q];
        let want: Vec<u64> =
            runs.chunks(2).map(|r| entries[&q].iter().filter(|&&t| t >= r[0] && t < r[1]).count() as u64 - 1).collect();
        let per_run = &p["iterations_per_run"];
        let each: Vec<u64> = per_run["each"].as_array().unwrap().iter().map(|x| x.as_u64().unwrap()).collect();
        assert_eq!(each, want, "queue {q}: {per_run}");
        assert_eq!(per_run["runs"].as_u64(), Some(want.len() as u64));
        assert_eq!(per_run["of"].as_u64(), Some(want.len() as u64));
        assert_eq!(per_run["min"].as_u64(), want.iter().min().copied());
        assert_eq!(per_run["max"].as_u64(), want.iter().max().copied());
        assert_eq!(want.iter().sum::<u64>(), p["iterations"].as_u64().unwrap());
    }
    // The inner loop runs i + 1 times for i < n: 1 2 3, then 1 2 3 4.
    assert_eq!(i["iterations_per_run"]["each"], serde_json::json!([1, 2, 3, 1, 2, 3, 4]));
    let ev = &seen[&outer];
    assert_eq!(o["busy_cycles"].as_u64().unwrap(), (ev[1] - ev[0]) + (ev[3] - ev[2]));
    assert_eq!(r["probes"].as_array().unwrap().len(), 5, "header queues fold into their loop");
    let table = hlsinstr(
        &["decode", "loops.bin", "--manifest", out.join("hlsinstr-manifest.json").to_str().unwrap()],
        dir.path(),
    );
    let table = text(&table);
    assert!(table.contains("iters"), "{table}");
    let row =
        table.lines().find(|l| l.starts_with("loops/VITIS_LOOP_9_1/VITIS_LOOP_10_2 ") && l.contains(" of ")).unwrap();
    assert_eq!(row.split_whitespace().skip(1).collect::<Vec<_>>(), ["7", "of", "7", "1", "2.3", "4"], "{table}");

    // Verilator: the probed design adds no lint warning to the original's, and simulates to the
    // same record as Icarus.
    let lint = |top: &str, files: &[PathBuf]| -> String {
        let o = run(Command::new("verilator")
            .args(["--lint-only", "-Wall", "-Wno-DECLFILENAME", "-Wno-UNUSEDSIGNAL", "--top-module", top])
            .args(files)
            .current_dir(dir.path()));
        text(&o)
    };
    let original: Vec<PathBuf> = rtl.clone();
    assert_eq!(lint("loops", &original), "", "the original lints clean");
    assert_eq!(lint("loops_rtlprobe", &probed_rtl), "", "the probed design lints clean");
    let obj = dir.path().join("vobj");
    let mut tb_files: Vec<PathBuf> = parts.iter().map(|p| tb(p)).collect();
    tb_files.extend(probed_rtl.iter().cloned());
    let o = run(Command::new("verilator")
        .args([
            "--cc",
            "--exe",
            "--build",
            "-j",
            "0",
            "-Wno-fatal",
            "-Wno-lint",
            "-Wno-style",
            "--top-module",
            "rtlprobe_tb_loops",
        ])
        .args(["-MAKEFLAGS", "OPT_FAST=-O0 OPT_SLOW=-O0 OPT_GLOBAL=-O0"]) // a short run: compile fast
        .args(["-CFLAGS", "-DTB_HEADER='\"Vrtlprobe_tb_loops.h\"' -DTB_CLASS=Vrtlprobe_tb_loops"])
        .arg("-DPROBED")
        .arg(format!("-DNPROBES={n}"))
        .arg(format!("-I{}", sim.display()))
        .arg(format!("-I{}", tb("").display()))
        .arg("--Mdir")
        .arg(&obj)
        .arg(tb("rtlprobe_tb_main.cpp"))
        .args(&tb_files)
        .current_dir(&sim));
    assert!(o.status.success(), "verilator failed:\n{}", text(&o));
    let o = run(Command::new(obj.join("Vrtlprobe_tb_loops")).current_dir(&sim));
    let vout = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(observed(&vout), seen, "Verilator's waveform is Icarus'");
    assert_eq!(recorded(&vout), rec, "Verilator's record is Icarus'");
}

/// `rtl-probe --offload`: the new top's m_axi_rtlprobe port on the testbench's AXI4 memory model
/// (tests/hw/rtlprobe-mini at depth 4, more calls than that per queue): the records the offload
/// wrote come back from "DRAM" in order, the generated host code merges them with what the
/// queues still hold into a version 2 dump, and decode gives every start and end the waveform
/// shows, nothing lost; the design computes the same in the same cycles.
#[test]
fn offload_brings_overflowed_records_back_from_dram() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("probed");
    probe(&mini(), &out, &["--offload", "--depth", "4"]);
    let m = manifest(&out);
    assert_eq!(m["rtl"]["offload"], true);
    let wrapper = std::fs::read_to_string(out.join("rtl/mini_rtlprobe.v")).unwrap();
    assert!(
        wrapper.contains(".OFFLOAD(1)") && wrapper.contains("output wire [63:0] m_axi_rtlprobe_awaddr")
            || wrapper.contains("output [63:0] m_axi_rtlprobe_awaddr"),
        "{wrapper}"
    );
    assert!(std::fs::read_to_string(out.join("package.tcl")).unwrap().contains("-busif m_axi_rtlprobe"));
    let n = m["rtl"]["queues"].as_array().unwrap().len();
    let obs = observers(&m);
    let parts =
        ["rtlprobe_tb_mini.sv", "rtlprobe_tb_axil_master.sv", "rtlprobe_tb_observer.sv", "rtlprobe_tb_axi_mem.sv"];
    let plain = dir.path().join("plain");
    let rtl = icarus_copy(&mini().join("syn/verilog"), &plain.join("rtl"));
    std::fs::write(plain.join("observe.svh"), &obs).unwrap();
    let before = icarus(&plain, "rtlprobe_tb_mini", &rtl, &[], &parts);
    let sim = dir.path().join("sim");
    let rtl = icarus_copy(&out.join("rtl"), &sim.join("rtl"));
    std::fs::write(sim.join("observe.svh"), &obs).unwrap();
    let defines = ["PROBED".to_string(), "OFFLOAD".to_string(), format!("NPROBES={n}")];
    let after = icarus(&sim, "rtlprobe_tb_mini", &rtl, &defines, &parts);
    assert_eq!(lines(&before, "Y"), lines(&after, "Y"));
    // The same cycles, counted from the first start (the host set the region up before it).
    let seen = observed(&after);
    let shift = seen[&0][0] - observed(&before)[&0][0];
    let shifted: BTreeMap<u32, Vec<u64>> =
        observed(&before).into_iter().map(|(q, e)| (q, e.iter().map(|c| c + shift).collect())).collect();
    assert_eq!(shifted, seen);
    assert!(seen.values().any(|e| e.len() > 4), "a queue sees more events than its depth: {seen:?}");
    let dram: Vec<u64> = lines(&after, "R")
        .iter()
        .map(|l| {
            let f: Vec<u64> = l.split_whitespace().skip(1).map(|x| x.parse().unwrap()).collect();
            f[1] | f[2] << 32
        })
        .collect();
    let written: usize = lines(&after, "W")[0].split_whitespace().nth(1).unwrap().parse().unwrap();
    assert!(written > 0 && written == dram.len(), "{written} records");
    let rec = recorded(&after);
    for (status, _) in rec.values() {
        assert_eq!(status & 4, 0, "no queue lost an event");
    }
    std::fs::write(dir.path().join("rtlprobe.bin"), host_dump(&out, dir.path(), &m, info(&after), &rec, Some(&dram)))
        .unwrap();
    let r = decode_json("rtlprobe.bin", &out, dir.path());
    for (q, events) in &seen {
        let p = &r["probes"][*q as usize];
        let got: Vec<u64> = p["intervals"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|i| i.as_array().unwrap().iter().filter_map(|x| x.as_u64()).collect::<Vec<_>>())
            .collect();
        assert_eq!(&got, events, "probe {q}: DRAM records then the queue, in order");
        assert_eq!(p["truncated"], false);
    }
    assert_eq!(r["warnings"], serde_json::json!([]), "{r}");
}

#[test]
fn profiling_ip_lints_clean_under_verilator_wall() {
    let dir = tempfile::tempdir().unwrap();
    let ip = repo().join("verilog/rtlprobe");
    for params in [
        vec![],
        vec!["-GN=3", "-GDEPTHS=24'h020810"],
        vec!["-GN=5", "-GCALLS_WIDTH=8"],
        vec!["-GN=2", "-GCALLS_WIDTH=0"],
        vec!["-GN=17", "-GTS_WIDTH=32"],
        vec!["-GN=64", "-GTS_WIDTH=64"],
        vec!["-GN=1", "-GOFFLOAD=1"],
        vec!["-GN=3", "-GDEPTHS=24'h020810", "-GOFFLOAD=1", "-GTS_WIDTH=40"],
    ] {
        let o = run(Command::new("verilator")
            .args(["--lint-only", "-Wall", "--top-module", "hlsinstr_rtlprobe"])
            .args(&params)
            .arg(ip.join("hlsinstr_rtlprobe.v"))
            .arg(ip.join("hlsinstr_rtlprobe_queue.v"))
            .arg(ip.join("hlsinstr_rtlprobe_mux.v"))
            .arg(ip.join("hlsinstr_rtlprobe_offload.v"))
            .current_dir(dir.path()));
        assert!(o.status.success() && o.stderr.is_empty(), "verilator -Wall {params:?}:\n{}", text(&o));
    }
}

#[test]
fn a_bad_solution_is_refused_with_a_message_and_nothing_written() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let o = hlsinstr(&["rtl-probe", dir.path().to_str().unwrap(), "--out", out.to_str().unwrap()], dir.path());
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("give a Vitis HLS solution folder"), "{}", text(&o));
    assert!(!out.exists());
    let o =
        hlsinstr(&["rtl-probe", mini().to_str().unwrap(), "--out", out.to_str().unwrap(), "--depth", "1"], dir.path());
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(!out.exists(), "nothing written on an error");
}

/// The testbench of the IP alone with the IP's files (`queue` and `mux` may be mutants).
fn ip_sources(queue: &Path, mux: &Path) -> Vec<PathBuf> {
    let ip = repo().join("verilog/rtlprobe");
    vec![
        tb("rtlprobe_tb_ip.sv"),
        ip.join("hlsinstr_rtlprobe.v"),
        queue.to_path_buf(),
        mux.to_path_buf(),
        ip.join("hlsinstr_rtlprobe_offload.v"),
    ]
}

fn ip_icarus(work: &Path, sources: &[PathBuf]) -> String {
    let vvp = work.join("ip.vvp");
    let o = run(Command::new("iverilog").args(["-g2012", "-s", "rtlprobe_tb_ip", "-o"]).arg(&vvp).args(sources));
    assert!(o.status.success(), "iverilog failed:\n{}", text(&o));
    text(&run(Command::new("vvp").arg("-n").arg(&vvp).current_dir(work)))
}

/// The IP alone (verilog/rtlprobe/tb/rtlprobe_tb_ip.sv): five queues, 40-bit timestamps,
/// pseudo-random handshakes; every kept start and end, flag and call count read over AXI4-Lite
/// equals the testbench's reference, under Icarus and under Verilator.
/// A self-checking testbench's verdict: a line `PASS` and no `FAIL`.
fn passed(t: &str) -> bool {
    t.lines().any(|l| l.trim() == "PASS") && !t.contains("FAIL")
}

/// Each mutant `(file, from, to)`: `file` with `from` replaced by `to`, written into `dir`, must
/// make the testbench fail; `sim(file, broken)` simulates with the broken copy in `file`'s place.
fn assert_mutants_fail(dir: &Path, mutants: &[(&PathBuf, &str, &str)], sim: impl Fn(&Path, &Path) -> String) {
    for &(file, from, to) in mutants {
        let source = std::fs::read_to_string(file).unwrap();
        assert!(source.contains(from), "`{from}` is no longer in {}", file.display());
        let broken = dir.join(file.file_name().unwrap());
        std::fs::write(&broken, source.replacen(from, to, 1)).unwrap();
        let t = sim(file, &broken);
        assert!(!passed(&t) && t.contains("FAIL"), "the mutant `{to}` passed:\n{t}");
    }
}

#[test]
fn profiling_ip_testbench_passes_under_icarus_and_verilator() {
    let dir = tempfile::tempdir().unwrap();
    let ip = repo().join("verilog/rtlprobe");
    let (queue, mux) = (ip.join("hlsinstr_rtlprobe_queue.v"), ip.join("hlsinstr_rtlprobe_mux.v"));
    let t = ip_icarus(dir.path(), &ip_sources(&queue, &mux));
    assert!(passed(&t), "Icarus:\n{t}");
    // The testbench catches a wrong end rule and a wrong multiplexer leg.
    let mutants = [
        (&queue, "wire end_ev   = open_reg && ap_done;", "wire end_ev   = open_reg && ap_done && !ap_start;"),
        (&mux, "s[1] ? (s[0] ?", "s[1] ? (!s[0] ?"),
    ];
    assert_mutants_fail(dir.path(), &mutants, |file, broken| {
        let sources = if file == queue { ip_sources(broken, &mux) } else { ip_sources(&queue, broken) };
        ip_icarus(dir.path(), &sources)
    });
    let obj = dir.path().join("obj");
    let o = run(Command::new("verilator")
        .args(["--binary", "--timing", "-Wall", "-j", "0", "--top-module", "rtlprobe_tb_ip", "--Mdir"])
        .arg(&obj)
        .args(ip_sources(&queue, &mux))
        .current_dir(dir.path()));
    assert!(o.status.success(), "verilator --binary failed:\n{}", text(&o));
    let t = text(&run(Command::new(obj.join("Vrtlprobe_tb_ip")).current_dir(dir.path())));
    assert!(passed(&t), "Verilator:\n{t}");
}

/// The DRAM offload (verilog/rtlprobe/tb/rtlprobe_tb_offload.sv): two queues of depths 8 and 12
/// see about ten times their depth in events; the host's merge of the DRAM records (read from
/// the AXI4 memory model) with what is left in the queues equals every start and end of the
/// reference, in order, under Icarus and Verilator; no queue loses an event; the host's polls of
/// STATUS during the run wait out the drains and show their own queue. It fails when a queue
/// refuses a push in the cycle the offload pops it (the drain under load), and when a read of a
/// queue is taken during a drain (the readout multiplexer then shows the drained queue).
#[test]
fn dram_offload_recovers_every_edge_under_icarus_and_verilator() {
    let dir = tempfile::tempdir().unwrap();
    let ip = repo().join("verilog/rtlprobe");
    let queue = ip.join("hlsinstr_rtlprobe_queue.v");
    let top = ip.join("hlsinstr_rtlprobe.v");
    let sources = |queue: &Path, top: &Path| -> Vec<PathBuf> {
        vec![
            tb("rtlprobe_tb_offload.sv"),
            tb("rtlprobe_tb_axi_mem.sv"),
            top.to_path_buf(),
            queue.to_path_buf(),
            ip.join("hlsinstr_rtlprobe_mux.v"),
            ip.join("hlsinstr_rtlprobe_offload.v"),
        ]
    };
    let icarus = |queue: &Path, top: &Path| -> String {
        let vvp = dir.path().join("offload.vvp");
        let o = run(Command::new("iverilog")
            .args(["-g2012", "-s", "rtlprobe_tb_offload", "-o"])
            .arg(&vvp)
            .args(sources(queue, top)));
        assert!(o.status.success(), "iverilog failed:\n{}", text(&o));
        text(&run(Command::new("vvp").arg("-n").arg(&vvp).current_dir(dir.path())))
    };
    let t = icarus(&queue, &top);
    assert!(passed(&t), "Icarus:\n{t}");
    let mutants = [
        (&queue, "assign move[k] = pop || !(&valid_reg[DEPTH-1:k]);", "assign move[k] = !(&valid_reg[DEPTH-1:k]);"),
        (&top, "!(read_queue && (off_busy || off_starting))", "1'b1"),
    ];
    assert_mutants_fail(dir.path(), &mutants, |file, broken| {
        if file == queue {
            icarus(broken, &top)
        } else {
            icarus(&queue, broken)
        }
    });
    let obj = dir.path().join("obj");
    // -Wno-WIDTH/-Wno-UNUSEDSIGNAL for the shared AXI memory model; the IP lints with -Wall above.
    let o = run(Command::new("verilator")
        .args(["--binary", "--timing", "-Wall", "-Wno-WIDTH", "-Wno-UNUSEDSIGNAL", "-j", "0"])
        .args(["--top-module", "rtlprobe_tb_offload", "--Mdir"])
        .arg(&obj)
        .args(sources(&queue, &top))
        .current_dir(dir.path()));
    assert!(o.status.success(), "verilator --binary failed:\n{}", text(&o));
    let t = text(&run(Command::new(obj.join("Vrtlprobe_tb_offload")).current_dir(dir.path())));
    assert!(passed(&t), "Verilator:\n{t}");
}
