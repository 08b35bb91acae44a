//! `hlsinstr emulate`: builds the CPU emulation (opencl-lib/emu/) of `.cl` kernels that
//! `rewrite` instrumented, with their probes recording into iBuffer units
//! (`-DHLSINSTR_OPENCL_IBUFFER`, one unit per probe of the manifest), linked with the user's host
//! program (C++ using `hlsinstr_emu.h`, or the OpenCL 1.2 C API of `CL/cl.h`, which
//! `emu/hlsinstr_emu_cl.cpp` implements over the emulation; the rewrite's directory is on the
//! host's include path for the generated `hlsinstr_ocl_host.h`). opencl-lib is built into the
//! binary, like hls-lib: an installed `hlsinstr` needs no checkout, only bash, python3 and a C++17
//! compiler (`CXX`, default g++), and for an OpenCL C API host the Khronos headers.

use crate::emit::manifest::FILE_NAME;
use crate::error::{Error, ErrorKind, Result};
use std::path::PathBuf;
use std::process::Command;

/// `(path below opencl-lib, text)` of what an emulation build needs.
pub const OPENCL_LIB: &[(&str, &str)] = &[
    ("hlsinstr_probe.cl", include_str!("../../opencl-lib/hlsinstr_probe.cl")),
    ("hlsinstr_ibuffer.cl", include_str!("../../opencl-lib/hlsinstr_ibuffer.cl")),
    ("hlsinstr_snapshot.cl", include_str!("../../opencl-lib/hlsinstr_snapshot.cl")),
    ("hlsinstr_seq.cl", include_str!("../../opencl-lib/hlsinstr_seq.cl")),
    ("hlsinstr_watch.cl", include_str!("../../opencl-lib/hlsinstr_watch.cl")),
    ("hlsinstr_timer.cl", include_str!("../../opencl-lib/hlsinstr_timer.cl")),
    ("hlsinstr_time_model.cl", include_str!("../../opencl-lib/hlsinstr_time_model.cl")),
    ("hlsinstr_time.h", include_str!("../../opencl-lib/hlsinstr_time.h")),
    ("host/hlsinstr_ocl_records.h", include_str!("../../opencl-lib/host/hlsinstr_ocl_records.h")),
    ("host/hlsinstr_ocl_profiler.h", include_str!("../../opencl-lib/host/hlsinstr_ocl_profiler.h")),
    ("emu/hlsinstr-emu-build", include_str!("../../opencl-lib/emu/hlsinstr-emu-build")),
    ("emu/hlsinstr_emu.h", include_str!("../../opencl-lib/emu/hlsinstr_emu.h")),
    ("emu/hlsinstr_emu_prelude.h", include_str!("../../opencl-lib/emu/hlsinstr_emu_prelude.h")),
    ("emu/hlsinstr_emu_vector.h", include_str!("../../opencl-lib/emu/hlsinstr_emu_vector.h")),
    ("emu/hlsinstr_emu_builtins.h", include_str!("../../opencl-lib/emu/hlsinstr_emu_builtins.h")),
    ("emu/hlsinstr_emu_cl.cpp", include_str!("../../opencl-lib/emu/hlsinstr_emu_cl.cpp")),
    ("emu/ocl2cpp.py", include_str!("../../opencl-lib/emu/ocl2cpp.py")),
];

/// The files the `.cl` inputs include with `#include "..."` (found beside the including file,
/// directly or through other such files) that are not inputs themselves, as `(rel, path)`:
/// `rel` below the inputs' root, for the output directory. `rewrite` carries them into its
/// output, so that the emulation (and the board build) of the output finds the kernels' own
/// headers. Files outside the inputs' root are left where they are (an `-I` finds them).
pub fn carried_headers(inputs: &[crate::walk::Input]) -> Vec<(String, PathBuf)> {
    let cl: Vec<&crate::walk::Input> =
        inputs.iter().filter(|i| i.path.extension().is_some_and(|e| e == "cl")).collect();
    let Some(first) = cl.first() else { return Vec::new() };
    // The root: the input path without its relative part.
    let canon = crate::sim::shadow::canonical(&first.path);
    let depth = first.rel.split('/').count();
    let Some(root) = canon.ancestors().nth(depth) else { return Vec::new() };
    let taken: std::collections::HashSet<PathBuf> =
        inputs.iter().map(|i| crate::sim::shadow::canonical(&i.path)).collect();
    let starts: Vec<PathBuf> = cl.iter().map(|i| crate::sim::shadow::canonical(&i.path)).collect();
    crate::sim::shadow::reached(&starts, &[], &[])
        .into_iter()
        .filter(|p| !taken.contains(p))
        .filter_map(|p| {
            let rel = p.strip_prefix(root).ok()?.to_string_lossy().replace('\\', "/");
            Some((rel, p))
        })
        .collect()
}

/// opencl-lib's default of `HLSINSTR_IBUFFER_DEPTH`.
pub const DEFAULT_DEPTH: u32 = 1024;

#[derive(Debug, Clone)]
pub struct EmulateOptions {
    /// The output directory of `hlsinstr rewrite` (with its manifest).
    pub dir: PathBuf,
    /// The host program (C++ including `hlsinstr_emu.h` or `CL/cl.h`).
    pub host: PathBuf,
    /// The `.cl` file to build, relative to `dir`; needed when the manifest lists several.
    pub program: Option<String>,
    /// Where the executable goes.
    pub exe: PathBuf,
    /// Records per iBuffer unit (`HLSINSTR_IBUFFER_DEPTH`, defined for the host program too).
    pub depth: u32,
    /// Include directories for the kernels and the host (after the rewrite's directory).
    pub include_dirs: Vec<PathBuf>,
    /// `NAME` or `NAME=VALUE` macros for the kernels and the host (`-D`).
    pub defines: Vec<String>,
}

/// What was built.
#[derive(Debug, Clone, PartialEq)]
pub struct Build {
    pub program: PathBuf,
    /// iBuffer units = probes of the manifest (`HLSINSTR_NUM_IBUFFERS`).
    pub units: usize,
    pub exe: PathBuf,
}

/// The `.cl` file to build: `program`, else the manifest's only `.cl` file.
pub fn choose_program(cl_files: &[String], program: Option<&str>) -> Result<String> {
    match program {
        Some(p) if cl_files.iter().any(|f| f == p) => Ok(p.to_string()),
        Some(p) => Err(Error::new(
            ErrorKind::Usage,
            format!("--program {p} is not a .cl file of the manifest; it lists: {}", list(cl_files)),
        )),
        None => match cl_files {
            [one] => Ok(one.clone()),
            [] => Err(Error::new(
                ErrorKind::Usage,
                "the manifest lists no .cl file: rewrite OpenCL kernels (.cl) first".to_string(),
            )),
            _ => Err(Error::new(
                ErrorKind::Usage,
                format!("the manifest lists several .cl files; choose one with --program: {}", list(cl_files)),
            )),
        },
    }
}

fn list(files: &[String]) -> String {
    if files.is_empty() {
        "(none)".to_string()
    } else {
        files.join(", ")
    }
}

/// Builds the emulation: writes opencl-lib into a temporary directory and runs its
/// `hlsinstr-emu-build` with `-DHLSINSTR_OPENCL_IBUFFER -DHLSINSTR_NUM_IBUFFERS=<probes>
/// -DHLSINSTR_IBUFFER_DEPTH=<depth> -DHLSINSTR_MANIFEST_KEY=<fpga::opencl::dump_key>` (for the kernels and
/// the host program).
/// The compiler's messages (with the .cl file and line) are in the error.
pub fn build(opts: &EmulateOptions) -> Result<Build> {
    let manifest_path = opts.dir.join(FILE_NAME);
    if !manifest_path.is_file() {
        return Err(Error::new(
            ErrorKind::Usage,
            format!("no {FILE_NAME} in {}: give the output directory of `hlsinstr rewrite`", opts.dir.display()),
        ));
    }
    let manifest = crate::sim::read_manifest(&manifest_path)?;
    let cl: Vec<String> = manifest.files.iter().map(|f| f.path.clone()).filter(|p| p.ends_with(".cl")).collect();
    let program = opts.dir.join(choose_program(&cl, opts.program.as_deref())?);
    let units = manifest.probes.len();
    if units == 0 {
        return Err(Error::new(ErrorKind::Usage, "the manifest has no probes: there is nothing to record".to_string()));
    }
    if !opts.host.is_file() {
        return Err(Error::new(ErrorKind::Usage, format!("host program {} not found", opts.host.display())));
    }
    let lib = tempfile::tempdir()
        .map_err(|e| Error::new(ErrorKind::Io, format!("cannot make a temporary directory: {e}")))?;
    for (rel, text) in OPENCL_LIB {
        let path = lib.path().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).map_err(|e| Error::io(&path, &e))?;
        std::fs::write(&path, text).map_err(|e| Error::io(&path, &e))?;
    }
    let mut cmd = Command::new("bash");
    cmd.arg(lib.path().join("emu/hlsinstr-emu-build"))
        .args(["-D", "HLSINSTR_OPENCL_IBUFFER", "-D"])
        .arg(format!("HLSINSTR_NUM_IBUFFERS={units}"));
    cmd.arg("-D").arg(format!("HLSINSTR_IBUFFER_DEPTH={}", opts.depth));
    cmd.arg("-D").arg(format!("HLSINSTR_MANIFEST_KEY=0x{:016x}ULL", crate::fpga::opencl::dump_key(&manifest.probes)));
    // The host may include the rewrite's generated hlsinstr_ocl_host.h.
    cmd.arg("-I").arg(&opts.dir);
    for d in &opts.include_dirs {
        cmd.arg("-I").arg(d);
    }
    for d in &opts.defines {
        cmd.arg("-D").arg(d);
    }
    cmd.arg("-o").arg(&opts.exe).arg(&program).arg(&opts.host);
    let out = cmd.output().map_err(|e| Error::new(ErrorKind::Io, format!("cannot run bash: {e}; install it")))?;
    if !out.status.success() {
        let messages = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        // hlsinstr-emu-build's exit code says which part failed: the user fixes that part.
        let what = match out.status.code() {
            Some(3) => format!(
                "the host program {} does not compile (the kernels of {} did)",
                opts.host.display(),
                program.display()
            ),
            Some(4) => format!(
                "the kernels of {} and the host program {} compiled but do not link together (a function or kernel \
                 one of them needs is missing)",
                program.display(),
                opts.host.display()
            ),
            _ if messages.contains("file not found") || messages.contains("No such file") => format!(
                "the kernels of {} do not build: a file they include is missing (the rewrite carries the headers \
                 beside the kernels into its output; give the directory of others with -I DIR)",
                program.display()
            ),
            _ => format!("the kernels of {} do not build", program.display()),
        };
        return Err(Error::new(ErrorKind::BadInput, format!("{what}:\n{messages}")));
    }
    Ok(Build { program, units, exe: opts.exe.clone() })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    /// The .cl and .h files of opencl-lib and everything in emu/ and host/.
    fn on_disk(dir: &Path) -> Vec<String> {
        let mut v = Vec::new();
        for (sub, prefix) in [(dir.to_path_buf(), ""), (dir.join("emu"), "emu/"), (dir.join("host"), "host/")] {
            for e in std::fs::read_dir(sub).unwrap() {
                let name = e.unwrap().file_name().to_string_lossy().into_owned();
                if !prefix.is_empty() || name.ends_with(".cl") || name.ends_with(".h") {
                    v.push(format!("{prefix}{name}"));
                }
            }
        }
        v.sort();
        v
    }

    #[test]
    fn every_opencl_lib_file_is_embedded_and_current() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../opencl-lib");
        let mut embedded: Vec<String> = OPENCL_LIB.iter().map(|(p, _)| p.to_string()).collect();
        embedded.sort();
        assert_eq!(embedded, on_disk(&dir));
        for (rel, text) in OPENCL_LIB {
            assert_eq!(std::fs::read_to_string(dir.join(rel)).unwrap(), *text, "{rel}");
        }
    }

    #[test]
    fn program_is_the_only_cl_file_or_the_chosen_one() {
        let one = ["k.cl".to_string()];
        assert_eq!(choose_program(&one, None).unwrap(), "k.cl");
        let two = ["a.cl".to_string(), "b.cl".to_string()];
        assert_eq!(choose_program(&two, Some("b.cl")).unwrap(), "b.cl");
        let e = choose_program(&two, None).unwrap_err();
        assert!(e.to_string().contains("choose one with --program: a.cl, b.cl"), "{e}");
        let e = choose_program(&two, Some("c.cl")).unwrap_err();
        assert!(
            e.to_string().contains("--program c.cl is not a .cl file of the manifest; it lists: a.cl, b.cl"),
            "{e}"
        );
        assert!(choose_program(&[], None).unwrap_err().to_string().contains("no .cl file"));
    }
}
