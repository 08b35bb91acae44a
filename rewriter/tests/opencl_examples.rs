//! The three OpenCL examples of `examples/opencl/` end to end, as a user runs them: rewrite the
//! kernels with the options each kernel's header documents, run the example's ordinary OpenCL
//! host against the emulated kernels (`hlsinstr emulate --run`, through the OpenCL C API layer
//! and the generated `hlsinstr_ocl_host.h`), decode the dump and check exactly what it reports.
//! Needs bash, python3, g++ and the Khronos headers (CL/cl.h).

mod common;

use common::repo;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn hlsinstr(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hlsinstr")).args(args).current_dir(cwd).output().expect("run hlsinstr")
}

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

/// Rewrites `examples/opencl/<example>/kernels` with `options` into `<work>/instr`, then builds
/// and runs the example's host in `<work>`; returns the instrumented directory.
fn rewrite_and_run(example: &str, options: &[&str], work: &Path) -> PathBuf {
    let dir = repo().join("examples/opencl").join(example);
    let instr = work.join("instr");
    let mut args = vec!["rewrite"];
    args.extend_from_slice(options);
    let (kernels, out) = (dir.join("kernels"), instr.to_str().unwrap().to_string());
    args.extend_from_slice(&["--out", &out, kernels.to_str().unwrap()]);
    let o = hlsinstr(&args, work);
    assert!(o.status.success(), "hlsinstr {args:?}:\n{}", text(&o));
    let host = dir.join("host.cpp");
    let o = Command::new(env!("CARGO_BIN_EXE_hlsinstr"))
        .args(["emulate", &out, "--host", host.to_str().unwrap(), "--run"])
        .current_dir(work)
        .env("HLSINSTR_EMU_DEADLOCK_MS", "5000")
        .output()
        .expect("run hlsinstr emulate");
    assert!(
        o.status.success() && String::from_utf8_lossy(&o.stdout).contains("PASS"),
        "{example}: the host's checks of what the kernels computed:\n{}",
        text(&o)
    );
    instr
}

fn decode(work: &Path, dump: &str) -> Value {
    let o = hlsinstr(&["decode", dump, "--manifest", "instr/hlsinstr-manifest.json", "--format", "json"], work);
    assert!(o.status.success(), "hlsinstr decode {dump}:\n{}", text(&o));
    serde_json::from_str(&String::from_utf8_lossy(&o.stdout)).unwrap()
}

fn manifest(instr: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(instr.join("hlsinstr-manifest.json")).unwrap()).unwrap()
}

/// mm: a stall monitor around each of the inner loop's two loads. 8 x 8 x 8 multiply: every
/// snapshot unit records 512 executions; the emulation models no memory timing (a load costs
/// no cycles), so every latency is 0 cycles — on a board the same build measures the real ones.
#[test]
fn matrix_multiply_stall_monitor_brackets_both_loads_every_iteration() {
    let work = tempfile::tempdir().unwrap();
    let instr = rewrite_and_run("mm", &["--probes", "stall", "--at", "mm.cl:15", "--at", "mm.cl:16"], work.path());
    let m = manifest(&instr);
    let sites: Vec<(String, String, u64)> = m["probes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            assert_eq!(p["kind"], "snapshot");
            let s = &p["snapshot"];
            (s["role"].as_str().unwrap().into(), s["access"].as_str().unwrap().into(), p["line"].as_u64().unwrap())
        })
        .collect();
    let site = |role: &str, access: &str, line| (role.to_string(), access.to_string(), line);
    assert_eq!(
        sites,
        [
            site("before", "data_b[k * cols + j]", 15),
            site("after", "data_b[k * cols + j]", 15),
            site("before", "data_a[i * inner + k]", 16),
            site("after", "data_a[i * inner + k]", 16)
        ]
    );
    let rep = decode(work.path(), "hlsinstr-ocl.bin");
    for u in rep["units"].as_array().unwrap() {
        assert_eq!((u["records"].as_u64(), u["dropped"].as_u64()), (Some(512), Some(0)), "{u}");
    }
    let lat = rep["latencies"].as_array().unwrap();
    assert_eq!(lat.len(), 2);
    for (l, access) in lat.iter().zip(["data_b[k * cols + j]", "data_a[i * inner + k]"]) {
        assert_eq!(l["access"], access);
        assert_eq!((l["unpaired_before"].as_u64(), l["unpaired_after"].as_u64()), (Some(0), Some(0)));
        let all = l["latencies"].as_array().unwrap();
        assert_eq!(all.len(), 512);
        assert!(all.iter().all(|c| c.as_u64() == Some(0)), "{access}: {l}");
    }
}

/// chase: the host's list runs 0 -> 4 -> 2 -> 12 -> 3 -> 7 -> 5 -> 3 ... for 20 steps. The
/// watchpoints catch the write of rank 3 to rank[12] (out of bounds of 10) and every rank from
/// 10 on (the cycle 3 -> 7 -> 5) breaking `rank[i] < 10`, each at the write on line 17, in the
/// order the kernel wrote them; the reads of `next` (a conservatively possible alias) see none.
#[test]
fn pointer_chase_watchpoints_catch_the_stray_link_and_the_cycle() {
    let work = tempfile::tempdir().unwrap();
    let instr = rewrite_and_run(
        "chase",
        &["--probes", "watch", "--bounds", "rank:10", "--invariant", "rank[i] < 10"],
        work.path(),
    );
    let m = manifest(&instr);
    let sites: Vec<(String, bool, u64)> = m["probes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let w = &p["watch"];
            (
                w["buffer"].as_str().unwrap().into(),
                w["may_alias"].as_bool().unwrap_or(false),
                p["line"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(sites, [("next".to_string(), true, 19), ("rank".to_string(), false, 17)]);

    let rep = decode(work.path(), "hlsinstr-ocl.bin");
    assert_eq!(rep["hits"].as_array().unwrap().len(), 0, "an invariant alone records no plain hits");
    let got: Vec<(String, String, i64, u64)> = rep["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| {
            assert_eq!((v["source"]["file"].as_str(), v["access"].as_str()), (Some("chase.cl"), Some("write")));
            (
                v["kind"].as_str().unwrap().into(),
                v["element"].as_str().unwrap().into(),
                v["value"].as_i64().unwrap(),
                v["source"]["line"].as_u64().unwrap(),
            )
        })
        .collect();
    let mut want = vec![("out_of_bounds".to_string(), "rank[12]".to_string(), 3, 17)];
    let cycle = [3, 7, 5];
    for step in 10..20i64 {
        want.push(("invariant".into(), format!("rank[{}]", cycle[(step - 10) as usize % 3]), step, 17));
    }
    assert_eq!(got, want);
    let units = rep["units"].as_array().unwrap();
    assert_eq!(units[0]["records"].as_u64(), Some(0), "the reads of next: {}", units[0]);
}

/// mxv: sequence numbers give the two execution orders of seed 004's Fig. 2: the single
/// work-item kernel runs row after row, the pipelined NDRange lets every work-item pass a probe
/// before any passes the next one. Every event is one model cycle after the one before it.
#[test]
fn matrix_vector_sequence_numbers_show_single_task_and_ndrange_orders() {
    let work = tempfile::tempdir().unwrap();
    rewrite_and_run("mxv", &["--probes", "modules,loops,seq"], work.path());
    let common::MxvOrders { single, ndrange, .. } = common::mxv_orders(4, 3); // host.cpp: 4 x 3

    for (dump, want) in [("mxv_single.bin", single), ("mxv_ndrange.bin", ndrange)] {
        let rep = decode(work.path(), dump);
        assert_eq!(rep["order"], "seq");
        let events = rep["events"].as_array().unwrap();
        let got: Vec<String> = events
            .iter()
            .map(|e| {
                let label = format!("{} {}", e["label"].as_str().unwrap(), e["event"].as_str().unwrap());
                match e.get("trips").and_then(Value::as_u64) {
                    Some(t) => format!("{label} trips {t}"),
                    None => label,
                }
            })
            .collect();
        assert_eq!(got, want, "{dump}");
        let times: Vec<u64> = events.iter().map(|e| e["time"].as_u64().unwrap()).collect();
        assert!(times.windows(2).all(|w| w[1] == w[0] + 1), "{dump}: event times {times:?}");
    }
}
