#!/usr/bin/env bash
# The one command that runs every test: formatting, lints, unit, golden, robustness and
# end-to-end tests (rewrite -> g++/clang++ -> run testbench -> compare output and event log).
set -euo pipefail
cd "$(dirname "$0")/.."
# cargo's target probe (`rustc -`) reads /dev/null as its program: when /dev/null is a regular
# file (seen on CI machines), it holds what other programs discarded, and every cargo step fails.
[ -c /dev/null ] || { echo "/dev/null is a regular file, not the null device: as root, run rm /dev/null; mknod -m 666 /dev/null c 1 3 (.ci/run does this) and run again" >&2; exit 1; }
exec </dev/null
for tool in g++ clang clang++ python3 cargo verilator iverilog yosys; do
  command -v "$tool" >/dev/null || { echo "missing $tool: install it (apt-get install g++ clang python3 verilator iverilog yosys) and run again" >&2; exit 1; }
done
[ -f /usr/include/CL/cl.h ] || { echo "missing CL/cl.h (the Khronos OpenCL headers): install them (apt-get install opencl-c-headers) and run again" >&2; exit 1; }
scripts/fetch-hls-headers.sh >/dev/null
cargo fmt --all --check
cargo clippy --workspace --all-targets -- -D warnings
cargo test --workspace
