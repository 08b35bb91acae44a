//! `--target vitis`: plumbing (stage 3c, after plan) and the generated build (stage 5b).
//!
//! Plumbing: every probe owns a FIFO `hlsinstr_p<id>`. A function that posts into a FIFO, or calls
//! one that does, gets those FIFOs as added reference parameters (`HLSINSTR_PROBE& hlsinstr_p<id>`,
//! ids ascending, after its own parameters) and passes them on at every call (`HLSINSTR_P(<id>)`);
//! declarations without a body get the same parameters. No globals: this is the only way a FIFO
//! reaches a probe. The testbench's calls of the top go to the new top (`HLSINSTR_TB_CALL`).
//!
//! The top's own probe is posted by the generated wrapper around it, and a `#pragma HLS dataflow`
//! function below the top gets no probes in its body (a FIFO write there is not a process): its
//! time is derived from its processes'.

pub mod generate;
mod plumb;

pub use plumb::{plumb, HwDesign, TopInfo, TRACE_ARG, TRACE_PARAM, TRACE_STREAM};

/// Words of the trace buffer's header (hls-lib `hw/trace.h` `TRACE_HEADER_WORDS`).
pub const TRACE_HEADER_WORDS: u64 = 10;

/// Options of the in-FPGA build.
#[derive(Debug, Clone)]
pub struct VitisOptions {
    /// Name of the new top (default `<top>_instr`).
    pub instr_top: Option<String>,
    /// Depth of every probe FIFO.
    pub fifo_depth: u32,
    /// Clock for the build files (`clock=` / `create_clock`), e.g. `4ns` or `250MHz`.
    pub clock: String,
    /// FPGA part for the build files.
    pub part: String,
    /// The monitor also keeps each probe's longest invocation (about 45 LUT more per probe).
    pub longest: bool,
    /// Records of the trace buffer's BRAM (`--trace-depth`; even).
    pub trace_depth: u32,
    /// Records of the trace's DRAM region (`--trace-records`).
    pub trace_records: u64,
    /// Keep the newest records when the region is full (else the first ones).
    pub trace_wrap: bool,
}

impl Default for VitisOptions {
    fn default() -> Self {
        VitisOptions {
            instr_top: None,
            fifo_depth: DEFAULT_FIFO_DEPTH,
            clock: "4ns".into(),
            part: "xcu250-figd2104-2L-e".into(),
            longest: false,
            trace_depth: DEFAULT_TRACE_DEPTH,
            trace_records: DEFAULT_TRACE_RECORDS,
            trace_wrap: true,
        }
    }
}

/// A probe posts at most one event per cycle and the monitor reads every FIFO once per cycle, so
/// two entries hold the steady state; the rest absorbs the cycles before the monitor's pipeline
/// reads for the first time. Sixteen 97-bit entries are one SRL-based FIFO, no BRAM.
pub const DEFAULT_FIFO_DEPTH: u32 = 16;

/// One BRAM36 holds 512 records of up to 72 bits (its widest shape), which covers the site id,
/// a 32-bit trip count and a 24-bit cycle delta of any kernel with up to 65,536 sites.
pub const DEFAULT_TRACE_DEPTH: u32 = 512;
/// 65,536 records of 8 bytes: a 512 KiB DRAM region.
pub const DEFAULT_TRACE_RECORDS: u64 = 65_536;
/// Bits of the cycles between two records (saturating at 16.7 million).
pub const TRACE_DELTA_BITS: u32 = 24;
/// Bits of a loop exit's trip count (the hardware counter's width).
pub const TRACE_VALUE_BITS: u32 = 32;
