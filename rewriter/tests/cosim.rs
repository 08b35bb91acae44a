//! hlsinstr::cosim on the co-simulation reports of real Vitis HLS / Vivado HLS runs
//! (shared/fixtures, beside the repo). The numbers are the ones written in those files.

mod common;
use common::fixtures;

use hlsinstr::cosim::{self, Cosim};
use hlsinstr::csynth::Range;
use hlsinstr::ErrorKind;
use std::path::{Path, PathBuf};

fn fixture(rel: &str) -> PathBuf {
    let p = fixtures().join(rel);
    assert!(p.exists(), "missing fixture {}", p.display());
    p
}

const SOLUTION: &str = "vitis-solution/2022.2-systolic-mm/solution";

fn read(rel: &str) -> Cosim {
    cosim::read(&fixture(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

fn exact(v: u64) -> Option<Range<u64>> {
    Some(Range { min: v, max: v })
}

fn names(c: &Cosim) -> Vec<String> {
    c.files.iter().map(|f| f.file_name().unwrap().to_string_lossy().into_owned()).collect()
}

#[test]
fn systolic_2022_2_solution_directory() {
    // multiplier_cosim.rpt: Verilog Pass 321/321/321, interval NA, total 321;
    // verilog/result.transaction.rpt: one call of 321 cycles.
    for rel in [SOLUTION.to_string(), format!("{SOLUTION}/sim/report"), format!("{SOLUTION}/sim/report/verilog")] {
        let c = read(&rel);
        assert_eq!(
            (c.rtl.as_str(), c.status.as_deref(), c.simulator.as_deref()),
            ("Verilog", Some("Pass"), Some("xsim")),
            "{rel}"
        );
        assert_eq!(
            (c.latency, c.latency_avg, c.interval, c.total_cycles),
            (exact(321), Some(321.0), None, Some(321)),
            "{rel}"
        );
        assert_eq!(c.per_call, [321], "{rel}");
        assert_eq!(names(&c), ["multiplier_cosim.rpt", "lat.rpt", "result.transaction.rpt"], "{rel}");
        assert!(c.warnings.is_empty(), "{rel}: {:?}", c.warnings);
    }
    // The summary file: its per-call files come along from verilog/ beside it.
    let c = read(&format!("{SOLUTION}/sim/report/multiplier_cosim.rpt"));
    assert_eq!((c.per_call.as_slice(), c.files.len()), ([321].as_slice(), 3));
    let v = serde_json::to_value(&c).unwrap();
    assert_eq!((v["latency"]["max"].as_u64(), v["per_call"][0].as_u64()), (Some(321), Some(321)));
}

#[test]
fn systolic_per_call_files_alone() {
    let c = read(&format!("{SOLUTION}/sim/report/verilog/result.transaction.rpt"));
    assert_eq!((c.per_call.as_slice(), c.rtl.as_str(), c.status.as_deref()), ([321].as_slice(), "Verilog", None));
    assert_eq!(c.latency, None, "no summary read");
    let c = read(&format!("{SOLUTION}/sim/report/verilog/lat.rpt"));
    assert_eq!((c.latency, c.latency_avg, c.total_cycles, c.interval), (exact(321), Some(321.0), Some(321), None));
    assert!(c.per_call.is_empty(), "lat.rpt has min/avg/max, not the calls");
}

#[test]
fn rlsoc_2020_1_with_total_execution_time() {
    // VecDotProduct_cosim.rpt: VHDL NA, Verilog Pass 10099/10099/10099, total 10099; lat.rpt and
    // result.transaction.rpt sit beside it in this fixture.
    let c = read("vitis-reports/2020.1-rlsoc/VecDotProduct_cosim.rpt");
    assert_eq!((c.rtl.as_str(), c.status.as_deref()), ("Verilog", Some("Pass")));
    assert_eq!(
        (c.latency, c.latency_avg, c.interval, c.total_cycles),
        (exact(10099), Some(10099.0), None, Some(10099))
    );
    assert_eq!(c.per_call, [10099]);
    assert_eq!(names(&c), ["VecDotProduct_cosim.rpt", "lat.rpt", "result.transaction.rpt"]);
    let dir = read("vitis-reports/2020.1-rlsoc");
    assert_eq!(dir, c, "the directory finds the same files");
}

#[test]
fn vivado_style_without_total_column() {
    // cosim.rpt: Latency / Interval without "(Clock Cycles)", no total column, no closing border.
    let c = read("vitis-reports/cosim-vivado-style/cosim.rpt");
    assert_eq!((c.rtl.as_str(), c.status.as_deref(), c.simulator.as_deref()), ("Verilog", Some("Pass"), Some("xsim")));
    assert_eq!((c.latency, c.latency_avg, c.interval, c.total_cycles), (exact(777), Some(777.0), None, None));
    assert!(c.per_call.is_empty(), "no per-call file: min == max, the caller decides");
    assert_eq!(names(&c), ["cosim.rpt"]);
}

#[test]
fn a_failed_run_is_read_with_its_status() {
    let tmp = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(fixture(&format!("{SOLUTION}/sim/report/multiplier_cosim.rpt"))).unwrap();
    std::fs::write(tmp.path().join("k_cosim.rpt"), text.replace("|      Pass|", "|      Fail|")).unwrap();
    let c = cosim::read(tmp.path()).unwrap();
    assert_eq!((c.rtl.as_str(), c.status.as_deref(), c.latency), ("Verilog", Some("Fail"), exact(321)));
    // Per-call files from another run: read, and a warning.
    std::fs::create_dir(tmp.path().join("verilog")).unwrap();
    std::fs::write(
        tmp.path().join("verilog/result.transaction.rpt"),
        "   latency  interval\ntransaction 0:  300  0\ntransaction 1:  330  310\n",
    )
    .unwrap();
    let c = cosim::read(tmp.path()).unwrap();
    assert_eq!(c.per_call, [300, 330]);
    assert_eq!(c.warnings.len(), 1, "{:?}", c.warnings);
    assert!(c.warnings[0].contains("another run"), "{:?}", c.warnings);
}

#[test]
fn other_files_are_refused_with_what_was_expected() {
    for rel in [
        "vitis-reports/2022.1-topk/csynth.rpt",
        "vitis-reports/2022.1-topk/csynth.xml",
        "vitis-blackbox/rtl_model.json",
    ] {
        let e = cosim::read(&fixture(rel)).unwrap_err();
        assert_eq!(e.kind, ErrorKind::BadInput, "{rel}: {e}");
        assert!(e.message.contains("_cosim.rpt") && e.message.contains("result.transaction.rpt"), "{e}");
    }
    let tmp = tempfile::tempdir().unwrap();
    let e = cosim::read(tmp.path()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::BadInput);
    assert!(e.message.contains("sim/report"), "{e}");
    std::fs::write(tmp.path().join("lat.rpt"), "nothing here").unwrap();
    let e = cosim::read(&tmp.path().join("lat.rpt")).unwrap_err();
    assert!(e.message.contains("$MIN_LATENCY"), "{e}");
    let e = cosim::read(Path::new("/no/such/k_cosim.rpt")).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Io);
}

#[test]
fn truncated_reports_never_panic() {
    for rel in [
        "vitis-reports/2020.1-rlsoc/VecDotProduct_cosim.rpt",
        "vitis-reports/cosim-vivado-style/cosim.rpt",
        &format!("{SOLUTION}/sim/report/multiplier_cosim.rpt"),
    ] {
        let text = std::fs::read_to_string(fixture(rel)).unwrap();
        let mut errors = 0;
        for cut in (0..=text.len()).filter(|&i| text.is_char_boundary(i)) {
            let out = std::panic::catch_unwind(|| cosim::parse_summary(&text[..cut], Path::new("t_cosim.rpt")));
            let res = out.unwrap_or_else(|_| panic!("{rel} cut at {cut} panicked"));
            match res {
                Err(e) => {
                    assert_eq!(e.kind, ErrorKind::BadInput);
                    errors += 1;
                }
                Ok(c) => assert!(c.status.is_some() || c.latency.is_none(), "{rel} cut at {cut}"),
            }
        }
        assert!(errors > text.len() / 2, "{rel}: most cuts lose the Verilog row ({errors})");
    }
    let text =
        std::fs::read_to_string(fixture(&format!("{SOLUTION}/sim/report/verilog/result.transaction.rpt"))).unwrap();
    for cut in 0..=text.len() {
        let _ = cosim::parse_transactions(&text[..cut], Path::new("result.transaction.rpt"));
    }
}

#[test]
fn per_call_files_of_another_language_are_not_taken() {
    let tmp = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(fixture(&format!("{SOLUTION}/sim/report/multiplier_cosim.rpt"))).unwrap();
    // VHDL passed, Verilog was not run; only verilog/ has per-call files (from an older run).
    let swapped = text
        .replace(
            "|      VHDL|        NA|             NA|             NA|             NA|",
            "|      VHDL|      Pass|            300|            300|            300|",
        )
        .replace(
            "|   Verilog|      Pass|            321|            321|            321|",
            "|   Verilog|        NA|             NA|             NA|             NA|",
        );
    assert_ne!(swapped, text);
    std::fs::write(tmp.path().join("k_cosim.rpt"), swapped).unwrap();
    std::fs::create_dir(tmp.path().join("verilog")).unwrap();
    std::fs::write(tmp.path().join("verilog/result.transaction.rpt"), "latency interval\ntransaction 0: 321 0\n")
        .unwrap();
    let c = cosim::read(tmp.path()).unwrap();
    assert_eq!((c.rtl.as_str(), c.latency), ("VHDL", exact(300)));
    assert!(c.per_call.is_empty(), "{:?}", c.per_call);
    assert_eq!(c.files.len(), 1);
}

/// A Vitis 2025.2 unified component may keep its co-simulation summary only as
/// `<component>/reports/hls_cosim.rpt` (no `hls/sim/report`): found from the component, from
/// its `hls/sim` folder, and from a component whose `hls/sim/report` holds it.
#[test]
fn a_unified_components_reports_hls_cosim_rpt_is_found() {
    let tmp = tempfile::tempdir().unwrap();
    let comp = tmp.path().join("top");
    let text = std::fs::read_to_string(fixture(&format!("{SOLUTION}/sim/report/multiplier_cosim.rpt"))).unwrap();
    std::fs::create_dir_all(comp.join("reports")).unwrap();
    std::fs::create_dir_all(comp.join("hls/sim/verilog")).unwrap();
    std::fs::write(comp.join("reports/hls_cosim.rpt"), &text).unwrap();
    for dir in [comp.clone(), comp.join("hls"), comp.join("hls/sim"), comp.join("hls/sim/verilog")] {
        let c = cosim::read(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        assert_eq!((c.latency, names(&c)), (exact(321), vec!["hls_cosim.rpt".to_string()]), "{}", dir.display());
    }
    // The habitual `hls/sim/report`, absent here: the error names the summary nearby.
    let e = cosim::read(&comp.join("hls/sim/report")).unwrap_err();
    assert_eq!(e.kind, ErrorKind::BadInput, "{e}");
    assert!(e.message.contains("reports/hls_cosim.rpt: give that"), "{e}");
    // A component with its own `hls/sim/report` reads that one.
    std::fs::create_dir_all(comp.join("hls/sim/report")).unwrap();
    std::fs::write(comp.join("hls/sim/report/top_cosim.rpt"), text.replace("321", "322")).unwrap();
    assert_eq!(cosim::read(&comp).unwrap().latency, exact(322));
}
