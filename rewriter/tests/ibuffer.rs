//! The iBuffer (hls-lib/include/hlsinstr/hw/ibuffer.h): its self-checking testbench
//! tests/hw/ibuffer_tb.cpp, compiled with g++ (C++14, -Wall -Wextra -Werror) and run, once against
//! the vendor hls_stream.h and once against hlsinstr's stream model, whose bounded streams really
//! fill up (the output back-pressure test runs only there).
//!
//! Needs g++ and the Xilinx C-simulation headers (scripts/fetch-hls-headers.sh, or
//! `$XILINX_HLS/include`). A missing tool fails the test: it never skips.

use std::path::PathBuf;
use std::process::Command;

mod common;
use common::{hls_include, repo};

/// Builds the testbench with `first_includes` ahead of hls-lib, runs it, returns its stdout.
fn build_and_run(first_includes: &[PathBuf]) -> String {
    let work = tempfile::tempdir().unwrap();
    let exe = work.path().join("ibuffer_tb");
    let mut cmd = Command::new("g++");
    // The vendor headers are -isystem: they are not warning-free under -Wextra, and -Werror is
    // for hlsinstr's code. HLS pragmas and the loop labels Vitis names loops by are unknown to
    // or unused by g++.
    cmd.args(["-std=c++14", "-Wall", "-Wextra", "-Werror", "-Wno-unknown-pragmas", "-Wno-unused-label", "-pthread"]);
    for dir in first_includes {
        cmd.arg("-I").arg(dir);
    }
    cmd.arg("-I")
        .arg(repo().join("hls-lib/include"))
        .arg("-isystem")
        .arg(hls_include())
        .arg(repo().join("tests/hw/ibuffer_tb.cpp"))
        .arg("-o")
        .arg(&exe);
    let out = cmd.output().unwrap_or_else(|e| panic!("cannot run g++: {e}; install it (apt-get install g++)"));
    assert!(out.status.success(), "g++ tests/hw/ibuffer_tb.cpp failed:\n{}", String::from_utf8_lossy(&out.stderr));

    let run = Command::new(&exe).current_dir(work.path()).output().unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout).into_owned();
    assert!(
        run.status.success(),
        "ibuffer_tb failed ({}):\n{stdout}{}",
        run.status,
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(stdout.contains("ok: 0 failed checks"), "unexpected testbench output:\n{stdout}");
    stdout
}

#[test]
fn ibuffer_testbench_passes_with_the_vendor_stream() {
    let out = build_and_run(&[]);
    assert!(out.contains("bounded output stream: not tested"), "{out}");
}

#[test]
fn ibuffer_testbench_passes_with_bounded_streams() {
    let out = build_and_run(&[repo().join("hls-lib/include/hlsinstr/sim")]);
    assert!(out.contains("bounded output stream: tested"), "{out}");
}
