//! The m_axi wait constants of the cycle model (`sim::maxi_wait`) are what the Vitis 2022.2
//! adapter of the systolic fixture does: `scripts/maxi-adapter-tb.v` drives the fixture's
//! `multiplier_gmem1_m_axi.v` in Icarus against a memory that answers in the cycle after each
//! handshake, and the read round trip and the write response tail it prints must be the
//! constants the model charges. A missing Icarus fails the test: it never skips.
//!
//! The adapter is copied (with the two edits Icarus needs) into a temporary directory; nothing
//! is written into the source tree or the fixtures.

use hlsinstr::sim::maxi_wait::{READ_ROUND_TRIP, WRITE_RESPONSE_TAIL};
use std::path::Path;
use std::process::{Command, Output};

mod common;
use common::{fixtures, repo};

fn run(cmd: &mut Command) -> Output {
    let tool = cmd.get_program().to_string_lossy().into_owned();
    cmd.output()
        .unwrap_or_else(|e| panic!("cannot run {tool}: {e}; install it (apt-get install iverilog) and run again"))
}

fn text(out: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

/// The adapter as Icarus takes it: `always @ (*)` blocks read as `always_comb` (Icarus does not
/// wake them at time 0 otherwise) and no `default_nettype` lines.
fn icarus_adapter(src: &Path) -> String {
    let text = std::fs::read_to_string(src).unwrap_or_else(|e| panic!("{}: {e}", src.display()));
    text.lines()
        .filter(|l| !l.trim_start().starts_with("`default_nettype"))
        .map(|l| l.replace("always @ (*)", "always_comb").replace("always @(*)", "always_comb"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The last number of the line of `out` that starts with `prefix`.
fn figure(out: &str, prefix: &str) -> u64 {
    let line =
        out.lines().find(|l| l.starts_with(prefix)).unwrap_or_else(|| panic!("no line starting {prefix:?} in:\n{out}"));
    line.rsplit(|c: char| !c.is_ascii_digit())
        .find(|w| !w.is_empty())
        .and_then(|w| w.parse().ok())
        .unwrap_or_else(|| panic!("no number in {line:?}"))
}

#[test]
fn the_wait_constants_are_what_the_2022_2_adapter_does() {
    let adapter = fixtures().join("vitis-solution/2022.2-systolic-mm/solution/syn/verilog/multiplier_gmem1_m_axi.v");
    let work = tempfile::tempdir().unwrap();
    let copy = work.path().join("adapter.v");
    std::fs::write(&copy, icarus_adapter(&adapter)).unwrap();
    let sim = work.path().join("tb.vvp");
    let out = run(Command::new("iverilog")
        .args(["-g2012", "-o"])
        .arg(&sim)
        .arg(repo().join("scripts/maxi-adapter-tb.v"))
        .arg(&copy)
        .current_dir(work.path()));
    assert!(out.status.success(), "iverilog failed:\n{}", text(&out));
    let mode = |m: u32| {
        let out = run(Command::new("vvp")
            .arg("-n")
            .arg(&sim)
            .arg(format!("+MODE={m}"))
            .arg("+DLY=0")
            .current_dir(work.path()));
        assert!(out.status.success(), "vvp +MODE={m} failed:\n{}", text(&out));
        let t = text(&out);
        assert!(!t.contains("timeout"), "vvp +MODE={m} timed out:\n{t}");
        t
    };
    assert_eq!(figure(&mode(0), "single read:"), READ_ROUND_TRIP, "request taken -> first beat");
    assert_eq!(figure(&mode(4), "write burst of 50"), WRITE_RESPONSE_TAIL, "last beat -> write response");
    // The adapter itself takes a read a cycle: 100 single reads back to back within 100 + the
    // round trip, so a pipeline's waits come from its own stalls, not the adapter's throughput.
    let back_to_back = figure(&mode(2), "100 back-to-back single reads:");
    assert!(back_to_back <= 100 + READ_ROUND_TRIP, "100 back-to-back reads took {back_to_back}");
}
