//! The "Examples:" section of each subcommand's `--help` (and of its man page). Every line is a
//! command a user can paste from the repository root; `tests/doc_commands.rs` runs each one (vendor-only
//! steps are not listed here) so the examples cannot rot. An example that takes minutes says
//! `# slow: as <test file> runs it`, and that test runs the same command.

pub const REWRITE: &str = "\
Examples:
  hlsinstr rewrite examples/quicksort --probes modules,loops --top qsort_top --out build/instr
  hlsinstr rewrite examples/quicksort --probes modules,loops --target vitis --top qsort_top --out build/hw
  hlsinstr rewrite examples/binary_search --probes branches,timestamps --target vitis --top bsearch_top --trace-depth 512 --out build/cft-hw
  hlsinstr rewrite examples/opencl/mxv/kernels --probes modules,loops,seq --out build/ocl";

pub const DIFF: &str = "\
Examples:
  hlsinstr diff examples/quicksort --probes modules,loops --top qsort_top
  hlsinstr diff examples/quicksort --probes modules --stat";

pub const STRIP: &str = "\
Examples:
  hlsinstr strip build/instr --out build/restored
  hlsinstr strip build/instr --out build/restored --force";

pub const SIM: &str = "\
Examples:
  hlsinstr sim examples/quicksort/hls_config.cfg
  hlsinstr sim examples/quicksort/hls_config.cfg --format json -o build/report.json
  hlsinstr sim examples/quicksort/hls_config.cfg --explain --vcd build/timeline.vcd";

pub const DECODE: &str = "\
Examples:
  hlsinstr decode mxv_single.bin --manifest build/ocl/hlsinstr-manifest.json     # after `emulate --run`
  hlsinstr decode mxv_single.bin --manifest build/ocl/hlsinstr-manifest.json --format json -o build/mxv.json";

pub const EMULATE: &str = "\
Examples:
  hlsinstr emulate build/ocl --host examples/opencl/mxv/host.cpp
  hlsinstr emulate build/ocl --host examples/opencl/mxv/host.cpp --run";

pub const COSIM: &str = "\
Examples:
  hlsinstr cosim hls_config.cfg --solution solution1 --vcd run.vcd     # slow: as tests/cosim_rtl.rs runs it
  hlsinstr cosim --solution solution1 --top multiplier --src design.cpp --tb design_tb.cpp --simulator icarus   # slow: as tests/cosim_rtl.rs runs it";

pub const PROFILE: &str = "\
Examples:
  hlsinstr profile tests/profile/tiny/solution --wave tiny.vcd      # tiny.vcd: vvp of tests/profile/tiny/tiny_tb.v
  hlsinstr profile tests/profile/tiny/solution --wave tiny.vcd --format json -o build/profile.json
  hlsinstr profile tests/profile/tiny/solution --wave tiny.vcd --perfetto build/trace.json
  hlsinstr profile solution --top multiplier --src design.cpp --tb design_tb.cpp   # slow: as tests/cosim_rtl.rs runs it";

pub const RTL_PROBE: &str = "\
Examples:
  hlsinstr rtl-probe tests/hw/rtlprobe-mini/solution --out build/probed
  hlsinstr rtl-probe tests/hw/rtlprobe-mini/solution --select 'mini_sub/*' --depth 8 --out build/probed-sub
  hlsinstr rtl-probe tests/hw/rtlprobe-mini/solution --offload --depth 4 --out build/probed-offload";

pub const MAN: &str = "\
Examples:
  hlsinstr man                      # hlsinstr.1 on stdout
  hlsinstr man --out build/man      # hlsinstr.1 and hlsinstr-<subcommand>.1 for each subcommand";
