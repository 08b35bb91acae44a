//! Simulated cycles per second of `hlsinstr cosim` in Verilator and in Icarus on the systolic
//! Vitis 2022.2 solution, its one captured call replayed many times (a run over 100 k cycles for
//! Verilator). Builds are cached in `target/cosim-bench`. `cargo bench --bench cosim_speed`.
//! Needs g++, the kernel headers (scripts/fetch-hls-headers.sh), verilator and iverilog.
//! Figures only: nothing fails on speed.

use hlsinstr::cosim::{self, CallSource, CosimRequest, MemTiming, Simulator};
use hlsinstr::sim::run::{RunOptions, RunSpec};
use std::path::{Path, PathBuf};
use std::time::Duration;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf();
    let sol = root.join("../shared/fixtures/vitis-solution/2022.2-systolic-mm");
    let work = std::env::var_os("CARGO_TARGET_DIR").map_or(root.join("target"), PathBuf::from).join("cosim-bench");
    let headers = std::env::var_os("HLSINSTR_HLS_INCLUDE").map_or(root.join(".cache/hls-headers"), PathBuf::from);
    let spec = RunSpec {
        top: "multiplier".into(),
        sources: vec![(sol.join("design.cpp"), Vec::new())],
        testbench: vec![(sol.join("design_tb.cpp"), Vec::new())],
        data_files: Vec::new(),
        csim_build: None,
        project_dir: None,
        common_flags: vec![format!("-I{}", sol.display())],
        argv: Vec::new(),
        ldflags: Vec::new(),
        optimize: false,
        kernel_flow: false,
    };
    let options = RunOptions {
        cxx: "g++".into(),
        hls_include: headers,
        work_dir: None,
        timeout: Duration::from_secs(300),
        watchdog_ms: 2000,
        kinds: hlsinstr::select::Kinds::parse("modules").unwrap(),
        watch: None,
        uninstrumented: true,
        progress: None,
        cancel: None,
    };
    let mut rows = Vec::new();
    for (sim, repeat) in [(Simulator::Verilator, 400u32), (Simulator::Icarus, 4)] {
        let calls = if work.join("calls").is_dir() {
            CallSource::Captured { dir: work.join("calls"), sources: vec![sol.join("design.cpp")] }
        } else {
            CallSource::Testbench { spec: Box::new(spec.clone()), options: Box::new(options.clone()) }
        };
        let req = CosimRequest {
            top: "multiplier".into(),
            solution: sol.clone(),
            calls,
            work_dir: work.clone(),
            simulator: sim,
            wave: None,
            timing: MemTiming::default(),
            flow: Default::default(),
            max_cycles: 1_000_000,
            repeat,
            progress: Some(|m| eprintln!("cosim_speed: {m}")),
        };
        let o = cosim::run(&req).unwrap_or_else(|e| panic!("{e}"));
        assert!(o.passed(), "{:?}", o.calls.iter().find(|c| !c.mismatches.is_empty()));
        println!(
            "{:<10} {:>4} calls  {:>8} cycles  {:>9.3} s  {:>12.0} cycles/s",
            sim.name(),
            o.calls.len(),
            o.total_cycles,
            o.sim_seconds,
            o.cycles_per_second
        );
        rows.push(o.cycles_per_second);
    }
    println!("Verilator / Icarus: {:.0}x", rows[0] / rows[1].max(1e-9));
}
