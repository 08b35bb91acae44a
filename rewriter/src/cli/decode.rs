//! `hlsinstr decode`: the in-FPGA debug dump as a per-probe table.

use super::EXIT_OK;
use clap::{Args, ValueEnum};
use hlsinstr::decode::{self, output, Options, SimReport};
use hlsinstr::emit::manifest::Manifest;
use hlsinstr::emit::manifest::FILE_NAME;
use hlsinstr::error::{Error, ErrorKind};
use std::io::Read;
use std::path::PathBuf;

/// A dump larger than this is not one (a million slots is 64 MB): refuse it before reading.
const MAX_DUMP_BYTES: u64 = 1 << 30;

#[derive(Args, Debug)]
pub struct DecodeArgs {
    /// The dump the host program (or C simulation of the new top) wrote: `dbg.bin`, or the
    /// OpenCL iBuffer dump `hlsinstr-ocl.bin` (told apart by its first bytes).
    pub dump: PathBuf,
    /// The manifest of the rewrite that built the kernel (`--target vitis`, or the `.cl` rewrite
    /// for an OpenCL dump; default: `hlsinstr-manifest.json` beside the dump).
    #[arg(long)]
    pub manifest: Option<PathBuf>,
    /// `hlsinstr sim --format json` output of the same top: its cycles beside the hardware's
    /// (in-FPGA dump only).
    #[arg(long, value_name = "REPORT.json")]
    pub sim: Option<PathBuf>,
    /// Vitis' co-simulation report of the same top (`<solution>/sim/report`, a `*_cosim.rpt`,
    /// `lat.rpt` or `result.transaction.rpt`): its per-call latency beside the top's calls
    /// (rtl-probe dump only).
    #[arg(long, value_name = "PATH")]
    pub cosim: Option<PathBuf>,
    /// Report format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Write the report here instead of stdout.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// The kernel clock, for microseconds: a period (`4ns`, `4`) or a frequency (`250MHz`)
    /// (in-FPGA dump only).
    #[arg(long)]
    pub clock: Option<String>,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
}

pub fn run_decode(args: DecodeArgs) -> Result<i32, Error> {
    let clock_ns = args.clock.as_deref().map(decode::parse_clock).transpose()?;
    let bytes = read_dump(&args.dump)?;
    let ocl = decode::ocl::is_ocl(&bytes);
    let manifest_path = match &args.manifest {
        Some(m) => m.clone(),
        None => {
            let beside = args.dump.parent().map_or_else(|| PathBuf::from(FILE_NAME), |d| d.join(FILE_NAME));
            if !beside.is_file() {
                let rewrite =
                    if ocl { "the .cl rewrite (hlsinstr emulate's DIR)" } else { "the --target vitis rewrite" };
                return Err(Error::new(
                    ErrorKind::Usage,
                    format!(
                        "no manifest at {}: give --manifest, the {FILE_NAME} of {rewrite} that built this kernel",
                        beside.display()
                    ),
                ));
            }
            beside
        }
    };
    let manifest = hlsinstr::sim::read_manifest(&manifest_path)?;
    if hlsinstr::rtlprobe::decode::is_rtlprobe(&bytes) {
        return run_rtlprobe(&args, &manifest, &bytes);
    }
    if args.cosim.is_some() {
        return Err(Error::new(
            ErrorKind::Usage,
            "--cosim applies to an rtl-probe dump (its top's calls beside the co-simulation's); this dump is not one:              leave --cosim out (for the in-FPGA monitor, `hlsinstr sim --cosim` gives the comparison)",
        ));
    }
    if ocl {
        return run_ocl(&args, &manifest, &bytes);
    }
    if decode::trace::is_trace(&bytes) {
        return run_trace(&args, &manifest, &bytes);
    }
    let sim = args.sim.as_deref().map(SimReport::read).transpose()?;
    let rep = decode::decode(&bytes, &manifest, sim.as_ref(), &Options { clock_ns }).map_err(|e| {
        if e.path.is_none() {
            e.at(&args.dump)
        } else {
            e
        }
    })?;
    let text = match args.format {
        Format::Text => output::text(&rep),
        Format::Json => output::json(&rep),
    };
    emit(&args, &text, &rep.warnings)
}

/// Writes the report (to --output or stdout); the warnings go to stderr unless the text report
/// on stdout already shows them.
fn emit(args: &DecodeArgs, text: &str, warnings: &[String]) -> Result<i32, Error> {
    match &args.output {
        Some(p) => hlsinstr::emit::atomic_write(p, text.as_bytes())?,
        None => print!("{text}"),
    }
    if args.output.is_some() || args.format != Format::Text {
        for w in warnings {
            eprintln!("hlsinstr decode: warning: {w}");
        }
    }
    Ok(EXIT_OK)
}

/// The rtl-probe IP's dump (docs/rtl-probe.md#dump-format).
fn run_rtlprobe(args: &DecodeArgs, manifest: &Manifest, bytes: &[u8]) -> Result<i32, Error> {
    let Some(rtl) = &manifest.rtl else {
        return Err(Error::new(
            ErrorKind::Usage,
            "this is an rtl-probe dump but the manifest has no rtl section: give --manifest, the one `hlsinstr rtl-probe` wrote",
        ));
    };
    let mut rep = hlsinstr::rtlprobe::decode::decode(bytes, rtl).map_err(|e| e.at(&args.dump))?;
    if let Some(path) = &args.sim {
        hlsinstr::rtlprobe::compare::with_sim(&mut rep, rtl, &SimReport::read(path)?);
    }
    if let Some(path) = &args.cosim {
        hlsinstr::rtlprobe::compare::with_cosim(&mut rep, rtl, &super::sim::cosim_truth(path, "decode")?);
    }
    let text = match args.format {
        Format::Text => hlsinstr::rtlprobe::decode::text(&rep),
        Format::Json => serde_json::to_string_pretty(&rep).unwrap_or_default() + "\n",
    };
    emit(args, &text, &rep.warnings)
}

/// The OpenCL iBuffer dump (docs/opencl-dump.md); `--sim` and `--clock` do not apply to it.
fn run_ocl(args: &DecodeArgs, manifest: &Manifest, bytes: &[u8]) -> Result<i32, Error> {
    for (given, flag) in [(args.sim.is_some(), "--sim"), (args.clock.is_some(), "--clock")] {
        if given {
            return Err(Error::new(
                ErrorKind::Usage,
                format!(
                    "{flag} applies to the in-FPGA monitor's dump (dbg.bin); this is an OpenCL iBuffer dump, whose \
                     times are unit cycles: leave {flag} out"
                ),
            ));
        }
    }
    let rep = decode::ocl::decode(bytes, manifest).map_err(|e| e.at(&args.dump))?;
    let text = match args.format {
        Format::Text => decode::ocl::output::text(&rep),
        Format::Json => decode::ocl::output::json(&rep),
    };
    emit(args, &text, &rep.warnings)
}

/// The in-FPGA trace buffer's dump (docs/branches.md#in-fpga): the path of every complete call.
fn run_trace(args: &DecodeArgs, manifest: &Manifest, bytes: &[u8]) -> Result<i32, Error> {
    if args.sim.is_some() {
        return Err(Error::new(
            ErrorKind::Usage,
            "--sim applies to the in-FPGA monitor's dump; this is a trace buffer dump: leave --sim out",
        ));
    }
    let rep = decode::trace::decode(bytes, manifest).map_err(|e| e.at(&args.dump))?;
    let text = match args.format {
        Format::Text => decode::trace::text(&rep),
        Format::Json => serde_json::to_string_pretty(&rep).unwrap_or_default() + "\n",
    };
    emit(args, &text, &rep.warnings)
}

fn read_dump(path: &std::path::Path) -> Result<Vec<u8>, Error> {
    let f = std::fs::File::open(path).map_err(|e| Error::io(path, &e))?;
    let mut bytes = Vec::new();
    f.take(MAX_DUMP_BYTES + 1).read_to_end(&mut bytes).map_err(|e| Error::io(path, &e))?;
    if bytes.len() as u64 > MAX_DUMP_BYTES {
        return Err(Error::new(
            ErrorKind::BadInput,
            "larger than 1 GiB, so not an hlsinstr debug dump: give the dbg.bin the host program wrote",
        )
        .at(path));
    }
    Ok(bytes)
}
