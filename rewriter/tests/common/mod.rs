//! What the integration tests share: where the repository is, and the Xilinx C-simulation
//! headers (`scripts/fetch-hls-headers.sh`, or `$XILINX_HLS/include`).
//! Each test crate uses part of it, hence `allow(dead_code)`.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// The repository root (the workspace, one above the crate).
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// The directory holding ap_int.h, hls_stream.h, ...: fetched once, cached in .cache/.
pub fn hls_include() -> PathBuf {
    let out = Command::new("bash")
        .arg(repo().join("scripts/fetch-hls-headers.sh"))
        .output()
        .expect("bash is needed to fetch the HLS headers");
    assert!(out.status.success(), "scripts/fetch-hls-headers.sh failed: {}", String::from_utf8_lossy(&out.stderr));
    let dir = PathBuf::from(String::from_utf8(out.stdout).unwrap().trim());
    assert!(dir.join("hls_stream.h").exists(), "no hls_stream.h in {}", dir.display());
    dir
}
