//! Accuracy of `hlsinstr sim`'s per-call cycles against every design the repository has truth
//! for, with the csynth report and without it, beside the report's own top latency.
//!
//! Designs and their truth:
//! - `shared/fixtures/vitis-solution/2022.2-systolic-mm`: a real Vitis 2022.2 solution; truth is
//!   its co-simulation (321 cycles per call, Vitis' window: from its testbench's start, s_axilite
//!   writes included) and 264 ap_start → ap_done (its RTL simulated with Icarus, fixtures README);
//! - `tests/cycle/*`: kernels of our own, one per timing rule, with hand-written reports; truth is
//!   the per-call cycles worked out by hand from the rule (`expected.json`), not a measurement.
//!
//! Prints per design the truth, the report's top latency, the estimates and their errors, then
//! the mean absolute percentage error (MAPE) of each column. `cargo bench --bench accuracy`.
//! Needs g++ and the kernel headers (scripts/fetch-hls-headers.sh). Figures only: nothing fails.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

struct Design {
    name: String,
    /// Project arguments for `hlsinstr sim`.
    args: Vec<String>,
    report: Option<PathBuf>,
    /// Truth per call and the window it counts.
    truth: Vec<u64>,
    window: &'static str,
    /// The truth is a co-simulation figure: compare `sim`'s estimate in co-sim's window
    /// (`estimate.cosim_per_call`: Vitis' testbench around ap_start → ap_done, src/vitis_tb/mod.rs).
    cosim_window: bool,
}

fn main() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf();
    let include = repo.join(".cache/hls-headers");
    let mut designs = Vec::new();
    let sys = repo.join("../shared/fixtures/vitis-solution/2022.2-systolic-mm");
    let sys_args = vec![
        "--top".to_string(),
        "multiplier".into(),
        "--src".into(),
        sys.join("design.cpp").display().to_string(),
        "--tb".into(),
        sys.join("design_tb.cpp").display().to_string(),
    ];
    let sys_report = Some(sys.join("solution/syn/report/csynth.xml"));
    designs.push(Design {
        name: "systolic-mm (co-sim)".into(),
        args: sys_args.clone(),
        report: sys_report.clone(),
        truth: vec![321],
        window: "co-sim",
        cosim_window: true,
    });
    designs.push(Design {
        name: "systolic-mm (RTL)".into(),
        args: sys_args,
        report: sys_report,
        truth: vec![264],
        window: "ap_start..done",
        cosim_window: false,
    });
    let mut cases: Vec<PathBuf> = std::fs::read_dir(repo.join("tests/cycle"))
        .map(|rd| rd.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.join("expected.json").is_file()).collect())
        .unwrap_or_default();
    cases.sort();
    for c in cases {
        let e: Value = serde_json::from_str(&std::fs::read_to_string(c.join("expected.json")).unwrap()).unwrap();
        let truth: Vec<u64> = e["calls"].as_array().unwrap().iter().filter_map(Value::as_u64).collect();
        let report = Some(c.join("csynth.xml")).filter(|p| p.is_file());
        designs.push(Design {
            name: c.file_name().unwrap().to_string_lossy().into_owned(),
            args: vec![c.join("hls_config.cfg").display().to_string()],
            report,
            truth,
            window: "by hand",
            cosim_window: false,
        });
    }
    println!("hlsinstr sim accuracy: per-call cycles, mean over the calls of |estimate - truth| / truth");
    println!(
        "{:<28} {:>14} {:>6} {:>11} {:>10} {:>7} {:>10} {:>7} {:>10} {:>7}",
        "design", "truth window", "calls", "truth mean", "report", "err %", "with rpt", "err %", "no rpt", "err %"
    );
    let (mut with, mut without, mut rep) = (Vec::new(), Vec::new(), Vec::new());
    for d in &designs {
        let with_report = d.report.as_ref().and_then(|r| run(&d.args, Some(r), &include, d.cosim_window));
        let no_report = run(&d.args, None, &include, d.cosim_window);
        let mean = |v: &[u64]| v.iter().sum::<u64>() as f64 / v.len().max(1) as f64;
        let err = |est: &[u64]| -> Option<f64> {
            if est.len() != d.truth.len() && d.truth.len() != 1 {
                return None;
            }
            let errs: Vec<f64> = est
                .iter()
                .enumerate()
                .map(|(i, &e)| {
                    let t = d.truth[i.min(d.truth.len() - 1)] as f64;
                    100.0 * (e as f64 - t).abs() / t
                })
                .collect();
            Some(errs.iter().sum::<f64>() / errs.len().max(1) as f64)
        };
        let report_latency = with_report.as_ref().and_then(|(_, r)| *r);
        let report_err = report_latency.and_then(|r| err(&vec![r; d.truth.len()]));
        let we = with_report.as_ref().and_then(|(c, _)| err(c));
        let ne = no_report.as_ref().and_then(|(c, _)| err(c));
        let cell = |v: Option<f64>| v.map_or("-".to_string(), |x| format!("{x:.1}"));
        println!(
            "{:<28} {:>14} {:>6} {:>11.1} {:>10} {:>7} {:>10} {:>7} {:>10} {:>7}",
            d.name,
            d.window,
            d.truth.len(),
            mean(&d.truth),
            report_latency.map_or("-".into(), |r| r.to_string()),
            cell(report_err),
            with_report.as_ref().map_or("-".into(), |(c, _)| format!("{:.1}", mean(c))),
            cell(we),
            no_report.as_ref().map_or("failed".into(), |(c, _)| format!("{:.1}", mean(c))),
            cell(ne),
        );
        with.extend(we);
        without.extend(ne);
        rep.extend(report_err);
    }
    let mape = |v: &[f64]| {
        if v.is_empty() {
            "-".to_string()
        } else {
            format!("{:.1} %", v.iter().sum::<f64>() / v.len() as f64)
        }
    };
    println!(
        "MAPE: report's top latency {} ({} designs), estimate with the report {} ({}), without {} ({})",
        mape(&rep),
        rep.len(),
        mape(&with),
        with.len(),
        mape(&without),
        without.len()
    );
}

/// Per-call estimates (in co-sim's window when `cosim`) and the report's top latency (its worst
/// case), or `None` when the run failed (the error is printed).
fn run(args: &[String], report: Option<&PathBuf>, include: &Path, cosim: bool) -> Option<(Vec<u64>, Option<u64>)> {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_hlsinstr"));
    cmd.args(["sim", "--quiet", "--format", "json", "--hls-include"]).arg(include).args(args);
    match report {
        Some(r) => cmd.arg("--csynth").arg(r),
        None => cmd.arg("--no-csynth"),
    };
    let out = cmd.output().ok()?;
    if !out.status.success() {
        eprintln!("{:?}: {}", args, String::from_utf8_lossy(&out.stderr));
        return None;
    }
    let v: Value = serde_json::from_slice(&out.stdout).ok()?;
    let key = if cosim { "cosim_per_call" } else { "per_call" };
    let calls = v["estimate"][key].as_array()?.iter().filter_map(Value::as_u64).collect();
    let report_latency = v["estimate"]["report_latency"]["max"].as_u64();
    Some((calls, report_latency))
}
