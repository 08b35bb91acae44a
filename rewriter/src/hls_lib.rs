//! The hls-lib headers and the Verilog parts, built into the binary so an installed `hlsinstr`
//! needs no checkout: `sim` compiles against them, `rewrite --target vitis` copies them into the
//! build it generates.

/// `(path below hls-lib/include, text)` of every header.
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
    ("hlsinstr/sim/hls_stream.h", include_str!("../../hls-lib/include/hlsinstr/sim/hls_stream.h")),
    ("hlsinstr/sim/watchdog.h", include_str!("../../hls-lib/include/hlsinstr/sim/watchdog.h")),
    ("hlsinstr/vitis.h", include_str!("../../hls-lib/include/hlsinstr/vitis.h")),
    ("hlsinstr/hw/monitor.h", include_str!("../../hls-lib/include/hlsinstr/hw/monitor.h")),
    ("hlsinstr/hw/tb.h", include_str!("../../hls-lib/include/hlsinstr/hw/tb.h")),
    ("hlsinstr/hw/ibuffer.h", include_str!("../../hls-lib/include/hlsinstr/hw/ibuffer.h")),
    ("hlsinstr/hw/counter.h", include_str!("../../hls-lib/include/hlsinstr/hw/counter.h")),
];

/// The free-running counter's Vitis RTL blackbox (`verilog/`): `(file name, text)`, copied beside
/// the build files of `--target vitis`.
pub const BLACKBOX: &[(&str, &str)] = &[
    ("hlsinstr_counter.json", include_str!("../../verilog/hlsinstr_counter.json")),
    ("hlsinstr_counter.v", include_str!("../../verilog/hlsinstr_counter.v")),
    ("hlsinstr_counter_model.cpp", include_str!("../../verilog/hlsinstr_counter_model.cpp")),
];
