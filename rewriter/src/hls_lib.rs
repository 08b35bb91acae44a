//! The hls-lib headers and the Verilog parts, built into the binary so an installed `hlsinstr`
//! needs no checkout: `sim` compiles against them, `rewrite --target vitis` copies them into the
//! build it generates.

/// `(path below hls-lib/include, text)` of every header.
///
/// `hlsinstr/sim/` holds the models that must be ours whatever the kernel headers (streams and
/// what is built on them: tasks, split/merge, stream of blocks); `hlsinstr/vendor/` the models of
/// Vitis headers the open set lacks, used only where the kernel headers do not have them
/// ([`VENDOR_MODELS`]).
pub const HLS_LIB: &[(&str, &str)] = &[
    ("hlsinstr/config.h", include_str!("../../hls-lib/include/hlsinstr/config.h")),
    ("hlsinstr/options.h", include_str!("../../hls-lib/include/hlsinstr/options.h")),
    ("hlsinstr/timestamp.h", include_str!("../../hls-lib/include/hlsinstr/timestamp.h")),
    ("hlsinstr/event_log.h", include_str!("../../hls-lib/include/hlsinstr/event_log.h")),
    ("hlsinstr/probe.h", include_str!("../../hls-lib/include/hlsinstr/probe.h")),
    ("hlsinstr/probe_c.h", include_str!("../../hls-lib/include/hlsinstr/probe_c.h")),
    ("hlsinstr/c_runtime.h", include_str!("../../hls-lib/include/hlsinstr/c_runtime.h")),
    ("hlsinstr/maxi.h", include_str!("../../hls-lib/include/hlsinstr/maxi.h")),
    ("hlsinstr/branches.h", include_str!("../../hls-lib/include/hlsinstr/branches.h")),
    ("hlsinstr/watch.h", include_str!("../../hls-lib/include/hlsinstr/watch.h")),
    ("hlsinstr/sim/hls_stream.h", include_str!("../../hls-lib/include/hlsinstr/sim/hls_stream.h")),
    ("hlsinstr/sim/watchdog.h", include_str!("../../hls-lib/include/hlsinstr/sim/watchdog.h")),
    ("hlsinstr/sim/hls_task.h", include_str!("../../hls-lib/include/hlsinstr/sim/hls_task.h")),
    ("hlsinstr/sim/hls_np_channel.h", include_str!("../../hls-lib/include/hlsinstr/sim/hls_np_channel.h")),
    ("hlsinstr/sim/hls_streamofblocks.h", include_str!("../../hls-lib/include/hlsinstr/sim/hls_streamofblocks.h")),
    ("hlsinstr/sim/hls_directio.h", include_str!("../../hls-lib/include/hlsinstr/sim/hls_directio.h")),
    ("hlsinstr/vendor/hls_vector.h", include_str!("../../hls-lib/include/hlsinstr/vendor/hls_vector.h")),
    ("hlsinstr/vendor/ap_axi_sdata.h", include_str!("../../hls-lib/include/hlsinstr/vendor/ap_axi_sdata.h")),
    ("hlsinstr/vendor/hls_fence.h", include_str!("../../hls-lib/include/hlsinstr/vendor/hls_fence.h")),
    ("hlsinstr/vendor/hls_burst_maxi.h", include_str!("../../hls-lib/include/hlsinstr/vendor/hls_burst_maxi.h")),
    ("hlsinstr/vendor/hls_math.h", include_str!("../../hls-lib/include/hlsinstr/vendor/hls_math.h")),
    ("hlsinstr/vendor/etc/ap_utils.h", include_str!("../../hls-lib/include/hlsinstr/vendor/etc/ap_utils.h")),
    ("hlsinstr/vendor/ap_utils.h", include_str!("../../hls-lib/include/hlsinstr/vendor/ap_utils.h")),
    ("hlsinstr/vendor/ap_cint.h", include_str!("../../hls-lib/include/hlsinstr/vendor/ap_cint.h")),
    ("hlsinstr/vendor/hls_print.h", include_str!("../../hls-lib/include/hlsinstr/vendor/hls_print.h")),
    ("hlsinstr/vitis.h", include_str!("../../hls-lib/include/hlsinstr/vitis.h")),
    ("hlsinstr/hw/monitor.h", include_str!("../../hls-lib/include/hlsinstr/hw/monitor.h")),
    ("hlsinstr/hw/tb.h", include_str!("../../hls-lib/include/hlsinstr/hw/tb.h")),
    ("hlsinstr/hw/ibuffer.h", include_str!("../../hls-lib/include/hlsinstr/hw/ibuffer.h")),
    ("hlsinstr/hw/trace.h", include_str!("../../hls-lib/include/hlsinstr/hw/trace.h")),
    ("hlsinstr/hw/watch.h", include_str!("../../hls-lib/include/hlsinstr/hw/watch.h")),
    ("hlsinstr/hw/counter.h", include_str!("../../hls-lib/include/hlsinstr/hw/counter.h")),
];

/// The free-running counter's Vitis RTL blackbox (`verilog/`): `(file name, text)`, copied beside
/// the build files of `--target vitis`.
pub const BLACKBOX: &[(&str, &str)] = &[
    ("hlsinstr_counter.json", include_str!("../../verilog/hlsinstr_counter.json")),
    ("hlsinstr_counter.v", include_str!("../../verilog/hlsinstr_counter.v")),
    ("hlsinstr_counter_model.cpp", include_str!("../../verilog/hlsinstr_counter_model.cpp")),
];

/// Directory (below hls-lib/include) of the models of Vitis headers the open set lacks.
pub const VENDOR_MODELS: &str = "hlsinstr/vendor";

/// Vitis IP-library headers that have no C-simulation model here: they wrap IP cores (FFT, FIR,
/// DSP primitives) whose C models ship only with Vitis.
pub const IP_LIBRARY_HEADERS: &[&str] = &["hls_fft.h", "hls_fir.h", "hls_dsp_builtins.h", "hls_dds.h", "hls_qrf.h"];

/// Headers of Vivado HLS' video library (2015.x to 2019.2: `hls::Mat`, `hls::AXIvideo2Mat`,
/// `hls::LineBuffer`, and the OpenCV bridge `hls_opencv.h`). Vitis HLS dropped them in 2020.1
/// for the Vitis Vision library (`xf::cv`), so `$XILINX_HLS/include` does not hold them: only a
/// Vivado HLS installation does. No model here either.
pub const VIVADO_VIDEO_HEADERS: &[&str] = &["hls_video.h", "hls_opencv.h", "hls/hls_video_mem.h", "hls_video_mem.h"];
