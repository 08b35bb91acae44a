//! `hlsinstr profile`: cycles per source line of a synthesized solution, from a waveform of its
//! RTL (docs/profile.md).

use super::EXIT_OK;
use clap::{Args, ValueEnum};
use hlsinstr::error::{Error, ErrorKind};
use hlsinstr::profile::{self, output, wave::Wave, Design, Options};
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct ProfileArgs {
    /// The solution folder csynth wrote (with .autopilot/db and syn/verilog), or a project
    /// folder holding one solution.
    pub solution: PathBuf,
    /// A VCD or FST waveform of the RTL running (the whole design dumped: `hlsinstr cosim --vcd`
    /// or `--fst`, Icarus `$dumpvars`, Verilator `--trace`/`--trace-fst`); the format is told by
    /// content.
    #[arg(long, value_name = "FILE.vcd|FILE.fst")]
    pub wave: Option<PathBuf>,
    /// Source files or folders to find the `[file:line]` tags in (default: beside the solution).
    #[arg(long, value_name = "PATH")]
    pub src: Vec<PathBuf>,
    /// Dot-separated scope of the top instance in the waveform (default: found by its signals).
    #[arg(long, value_name = "tb.dut")]
    pub scope: Option<String>,
    /// Report format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Write the report here instead of stdout.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// Also write a Chrome trace-event JSON (Perfetto, chrome://tracing): one track per module
    /// instance, one slice per stretch of cycles in the same states.
    #[arg(long, value_name = "FILE.json")]
    pub perfetto: Option<PathBuf>,
    /// Without --wave: the project (`hls_config.cfg` or Tcl) whose testbench `cosim` runs to
    /// make the waveform (or give --top, --src and --tb).
    #[arg(long, value_name = "FILE")]
    pub project: Option<PathBuf>,
    /// Without --wave: the top function of the testbench's calls.
    #[arg(long)]
    pub top: Option<String>,
    /// Without --wave: the testbench files.
    #[arg(long = "tb", num_args = 1..)]
    pub tb: Vec<PathBuf>,
    /// Without --wave: the co-simulation's work directory (its builds are cached there).
    #[arg(long, value_name = "DIR")]
    pub work: Option<PathBuf>,
    /// Without --wave: the kernel headers for the testbench, as for `sim`.
    #[arg(long)]
    pub hls_include: Option<PathBuf>,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
}

pub fn run_profile(args: ProfileArgs) -> Result<i32, Error> {
    // Without a waveform, the co-simulation makes one (kept in its work directory).
    let made;
    let wave_path = match &args.wave {
        Some(w) => w,
        None => {
            made = cosim_wave(&args)?;
            &made.0
        }
    };
    let mut design = Design::load(&args.solution)?;
    for s in &args.src {
        if !s.exists() {
            return Err(Error::new(ErrorKind::Usage, "--src: no such file or folder").at(s));
        }
    }
    design.source_roots.splice(0..0, args.src.iter().cloned());
    let mut wave = Wave::open(wave_path)?;
    let opts = Options { scope: args.scope.clone() };
    // The trace goes to a temporary file beside its target, renamed once the profile is done.
    let trace = match &args.perfetto {
        Some(p) => {
            let dir = p.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(std::path::Path::new("."));
            let mut b = tempfile::Builder::new();
            b.prefix(".hlsinstr-");
            #[cfg(unix)]
            {
                // The mode a new file gets (tempfile's 0600 would stay on the trace).
                use std::os::unix::fs::PermissionsExt;
                b.permissions(std::fs::Permissions::from_mode(0o666));
            }
            let tmp = b.tempfile_in(dir).map_err(|e| Error::io(dir, &e))?;
            let w = std::io::BufWriter::new(tmp.reopen().map_err(|e| Error::io(tmp.path(), &e))?);
            Some((tmp, output::PerfettoWriter::new(w, p)?))
        }
        None => None,
    };
    let (rep, trace) = match trace {
        Some((tmp, mut w)) => {
            let rep = profile::profile(&design, &mut wave, &opts, Some(&mut w))?;
            let mut inner = w.finish()?;
            std::io::Write::flush(&mut inner).map_err(|e| Error::io(tmp.path(), &e))?;
            (rep, Some(tmp))
        }
        None => (profile::profile(&design, &mut wave, &opts, None)?, None),
    };
    let text = match args.format {
        Format::Text => output::text(&rep),
        Format::Json => output::json(&rep),
    };
    match &args.output {
        Some(p) => hlsinstr::emit::atomic_write(p, text.as_bytes())?,
        None => print!("{text}"),
    }
    if let (Some(tmp), Some(p)) = (trace, &args.perfetto) {
        tmp.persist(p).map_err(|e| Error::io(p, &e.error))?;
    }
    if args.output.is_some() || args.format != Format::Text {
        for n in &rep.notes {
            eprintln!("hlsinstr profile: note: {n}");
        }
    }
    Ok(EXIT_OK)
}

/// Run `cosim` on the testbench the arguments name, with a VCD in its work directory: --work
/// (kept, builds cached), else a temporary one removed after the profile.
fn cosim_wave(args: &ProfileArgs) -> Result<(PathBuf, Option<tempfile::TempDir>), Error> {
    if args.project.is_none() && (args.top.is_none() || args.tb.is_empty() || args.src.is_empty()) {
        return Err(Error::new(
            ErrorKind::Usage,
            "give --wave FILE.vcd or FILE.fst (a waveform of the solution's RTL), or the testbench for `cosim` to make \
             one: --project FILE, or --top, --src and --tb",
        ));
    }
    use clap::Parser;
    #[derive(Parser)]
    struct Wrap {
        #[command(flatten)]
        cosim: super::cosim::CosimArgs,
    }
    let mut argv: Vec<std::ffi::OsString> = vec!["cosim".into(), "--solution".into(), args.solution.clone().into()];
    if let Some(p) = &args.project {
        argv.push(p.clone().into());
    }
    if let Some(t) = &args.top {
        argv.extend(["--top".into(), t.into()]);
    }
    for (flag, files) in [("--src", &args.src), ("--tb", &args.tb)] {
        for f in files {
            argv.extend([flag.into(), f.clone().into()]);
        }
    }
    for (flag, value) in [("--work", &args.work), ("--hls-include", &args.hls_include)] {
        if let Some(v) = value {
            argv.extend([flag.into(), v.clone().into()]);
        }
    }
    let mut cosim = Wrap::try_parse_from(argv).map_err(|e| Error::new(ErrorKind::Usage, e.to_string()))?.cosim;
    let temp = match &cosim.work {
        Some(_) => None,
        None => Some(
            tempfile::Builder::new()
                .prefix("hlsinstr-profile-")
                .tempdir()
                .map_err(|e| Error::new(ErrorKind::Io, format!("cannot make a work directory: {e}")))?,
        ),
    };
    let work = cosim.work.clone().unwrap_or_else(|| temp.as_ref().unwrap().path().to_path_buf());
    let vcd = work.join("profile.vcd");
    cosim.work = Some(work);
    cosim.vcd = Some(vcd.clone());
    let outcome = super::cosim::cosimulate(&cosim)?;
    if !outcome.passed() {
        return Err(Error::new(
            ErrorKind::BadInput,
            "the RTL's outputs differ from the C simulation's (run `hlsinstr cosim` for the details); not profiled",
        ));
    }
    eprintln!("hlsinstr profile: waveform of {} call(s) from cosim: {}", outcome.calls.len(), vcd.display());
    Ok((vcd, temp))
}
