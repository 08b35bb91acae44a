//! `hlsinstr rtl-probe`: probes on the RTL of a Vitis HLS solution (docs/rtl-probe.md).

use super::EXIT_OK;
use clap::Args;
use hlsinstr::error::Error;
use std::path::PathBuf;

#[derive(Args, Debug)]
#[command(after_help = "Example:\n  hlsinstr rtl-probe proj/solution1 --select 'multiplier/*' --out build/probed\n  \
    then: vivado -mode batch -source build/probed/package.tcl; after a run on the board,\n  \
    hlsinstr decode rtlprobe.bin --manifest build/probed/hlsinstr-manifest.json")]
pub struct RtlProbeArgs {
    /// The Vitis HLS solution folder (holding syn/report/csynth.xml and syn/verilog/).
    pub solution: PathBuf,
    /// Instances to probe: a glob over source paths (`top/loop`, `loop`) or RTL instance paths;
    /// a match takes everything below it too (repeatable; default: every instance).
    #[arg(long, value_name = "GLOB")]
    pub select: Vec<String>,
    /// Output directory: rtl/ (the edited design, the IP, the new top), package.tcl, host/,
    /// rtl-probe.diff and hlsinstr-manifest.json.
    #[arg(long)]
    pub out: PathBuf,
    /// Timestamps kept per probed instance (2 to 255; default: twice the expected starts and
    /// ends of one top call, 4 to 64).
    #[arg(long)]
    pub depth: Option<u32>,
    /// Bits of each probe's call counter, 0 to 32 (default 16); 0 builds none (about 20 LUT less
    /// per probe; calls past a full queue are then not counted).
    #[arg(long)]
    pub calls_width: Option<u32>,
    /// Bits of each stored timestamp, 32 to 64 (default 48): the cycle counter's low bits, exact
    /// while fewer cycles than 2^bits passed since reset (decode warns otherwise).
    #[arg(long)]
    pub ts_width: Option<u32>,
    /// Give the new top an m_axi port (`m_axi_rtlprobe_*`) through which the IP writes a queue
    /// that is half full to a DRAM region the host sets (docs/rtl-probe.md#dram-offload);
    /// timestamps at most 48 bits.
    #[arg(long)]
    pub offload: bool,
}

pub fn run_rtl_probe(args: RtlProbeArgs) -> Result<i32, Error> {
    let opts = hlsinstr::rtlprobe::Options {
        select: args.select,
        depth: args.depth,
        calls_width: args.calls_width,
        ts_width: args.ts_width,
        offload: args.offload,
    };
    let summary = hlsinstr::rtlprobe::run(&args.solution, &args.out, &opts)?;
    for w in &summary.warnings {
        eprintln!("hlsinstr rtl-probe: warning: {w}");
    }
    eprintln!(
        "hlsinstr rtl-probe: {} probed instance{}; wrote {} files to {}",
        summary.probes,
        if summary.probes == 1 { "" } else { "s" },
        summary.written.len(),
        args.out.display()
    );
    Ok(EXIT_OK)
}
