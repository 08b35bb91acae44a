//! `hlsinstr emulate`: build (and with `--run`, run) the CPU emulation of rewritten `.cl`
//! kernels with their probes recording into iBuffer units.

use super::EXIT_OK;
use clap::Args;
use hlsinstr::emulate::{self, EmulateOptions};
use hlsinstr::error::{Error, ErrorKind};
use hlsinstr::proc::Ended;
use std::path::PathBuf;
use std::time::Duration;

#[derive(Args, Debug)]
pub struct EmulateArgs {
    /// The output directory of `hlsinstr rewrite` of the .cl kernels (with hlsinstr-manifest.json).
    pub dir: PathBuf,
    /// The host program: C++ that includes hlsinstr_emu.h or uses the OpenCL C API (CL/cl.h,
    /// with the generated hlsinstr_ocl_host.h), launches the kernels, reads the iBuffer units
    /// (HLSINSTR_NUM_IBUFFERS of them, one per probe) and writes the dump.
    #[arg(long, value_name = "HOST.cpp")]
    pub host: PathBuf,
    /// The .cl file to build, relative to DIR (needed when the manifest lists several).
    #[arg(long, value_name = "FILE.cl")]
    pub program: Option<String>,
    /// The executable (default DIR/hlsinstr-emu).
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// Records per iBuffer unit (HLSINSTR_IBUFFER_DEPTH, also defined for the host program).
    #[arg(long, default_value_t = emulate::DEFAULT_DEPTH)]
    pub depth: u32,
    /// Run the executable after building it; the exit code is then the emulation's.
    #[arg(long)]
    pub run: bool,
    /// An include directory for the kernels and the host (after DIR), as for the board build.
    #[arg(short = 'I', value_name = "DIR")]
    pub include: Vec<PathBuf>,
    /// A macro for the kernels and the host: NAME or NAME=VALUE (as aoc -D).
    #[arg(short = 'D', value_name = "NAME[=VALUE]")]
    pub define: Vec<String>,
}

pub fn run_emulate(args: EmulateArgs) -> Result<i32, Error> {
    if args.depth == 0 {
        return Err(Error::new(ErrorKind::Usage, "--depth must be at least 1"));
    }
    let exe = args.output.clone().unwrap_or_else(|| args.dir.join("hlsinstr-emu"));
    let build = emulate::build(&EmulateOptions {
        dir: args.dir,
        host: args.host,
        program: args.program,
        exe,
        depth: args.depth,
        include_dirs: args.include,
        defines: args.define,
    })?;
    eprintln!(
        "hlsinstr: emulation of {} with {} iBuffer units: {}",
        build.program.display(),
        build.units,
        build.exe.display()
    );
    if !args.run {
        return Ok(EXIT_OK);
    }
    // A relative path names a file in the current directory, not a command on PATH.
    let exe = if build.exe.is_relative() { PathBuf::from(".").join(&build.exe) } else { build.exe };
    // In a process group of its own, so that Ctrl-C (handled here) and the end of the host end
    // every process it started.
    // Its stdin is not the terminal: a background group reading the terminal would be stopped
    // (SIGTTIN) and hang.
    let mut cmd = std::process::Command::new(&exe);
    cmd.stdin(std::process::Stdio::null());
    hlsinstr::proc::own_group(&mut cmd);
    let guard = super::signals::install();
    let child = cmd.spawn().map_err(|e| Error::new(ErrorKind::Io, format!("cannot run {}: {e}", exe.display())))?;
    let mut group = hlsinstr::proc::Group::new(child);
    let ended = group
        .wait(Duration::MAX, Some(&super::signals::INTERRUPTED), |_| {})
        .map_err(|e| Error::new(ErrorKind::Io, format!("waiting for {}: {e}", exe.display())))?;
    let leftovers = matches!(ended, Ended::Exited(_)) && group.kill_group();
    drop(group);
    drop(guard);
    if leftovers {
        eprintln!("hlsinstr: {} left processes running after it exited; they were stopped", exe.display());
    }
    match ended {
        Ended::Exited(s) => match s.code() {
            Some(c) => Ok(c),
            None => {
                // A signal: the host (or a kernel it ran) crashed; say so rather than exit quietly.
                let what = crash_name(&s);
                eprintln!(
                    "hlsinstr: the emulation {} {what}: the host program or a kernel it launched (run it under gdb \
                     to see which)",
                    exe.display()
                );
                Ok(super::EXIT_ERROR)
            }
        },
        Ended::TimedOut | Ended::Cancelled => Err(Error::new(
            ErrorKind::Interrupted,
            format!("interrupted: {} and every process it started were stopped", exe.display()),
        )),
    }
}

/// How a process ended by a signal, in words.
fn crash_name(s: &std::process::ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        match s.signal() {
            Some(11) => return "crashed (SIGSEGV: an out-of-bounds access or a bad pointer)".into(),
            Some(6) => return "aborted (SIGABRT: an assert?)".into(),
            Some(8) => return "crashed (SIGFPE: an integer division by zero?)".into(),
            Some(7) => return "crashed (SIGBUS)".into(),
            Some(4) => return "crashed (SIGILL)".into(),
            Some(n) => return format!("was killed by signal {n}"),
            None => {}
        }
    }
    let _ = s;
    "ended abnormally".into()
}
