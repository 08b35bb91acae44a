//! The C-simulation run: rewrite the synthesis sources with probes, compile them with the
//! testbench (g++ by default) against hls-lib and the kernel headers, run the testbench in a
//! scratch directory beside its data files, and collect the event log.
//!
//! Nothing is written outside the work directory. Compile errors in instrumented files are
//! shown with the original file and line. A failing testbench, a timeout or a deadlock (the
//! stream model's watchdog, exit code 86) is an error carrying the testbench's output.
//!
//! The testbench runs in a process group of its own ([`crate::proc`]): when it ends, times out
//! or the run is cancelled, every process it started ends with it, the event log is read with a
//! deadline (a process that left the group may hold the pipe forever), and the temporary work
//! directory is removed on every way out.

use super::logpipe;
use super::shadow;
use crate::emit::manifest::{self, Manifest};
use crate::error::{Error, ErrorKind, Result};
use crate::proc::{self, Ended};
use crate::project::Project;
use crate::rewrite::{rewrite, RewriteOptions};
use crate::select::{Kinds, SelectOptions};
use crate::walk::Input;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Exit code of a testbench stopped by hls-lib's deadlock watchdog.
pub const DEADLOCK_EXIT: i32 = 86;

use crate::hls_lib::HLS_LIB;

/// What to build and run.
#[derive(Debug, Clone)]
pub struct RunSpec {
    pub top: String,
    /// Synthesis sources (rewritten), with their own extra flags.
    pub sources: Vec<(PathBuf, Vec<String>)>,
    /// Testbench translation units (compiled as they are), with their flags.
    pub testbench: Vec<(PathBuf, Vec<String>)>,
    /// Files the testbench reads (copied next to it).
    pub data_files: Vec<PathBuf>,
    /// Where Vitis runs the testbench (`<project>/<solution>/csim/build`): the testbench runs at
    /// the same depth in the work directory, with the files its paths name (see csim_dir.rs).
    /// `None` without a project: it runs beside its data files.
    pub csim_build: Option<PathBuf>,
    /// The project's directory, searched for a file the testbench names that it does not list.
    pub project_dir: Option<PathBuf>,
    /// Flags for every translation unit (after the per-file ones are added).
    pub common_flags: Vec<String>,
    pub argv: Vec<String>,
    pub ldflags: Vec<String>,
    /// Build optimised (`-O2`) instead of as Vitis' csim does by default (`-O0 -g`): the
    /// project's `csim_design -O` / `csim.O=true`. A file's own `-O` flag wins either way.
    pub optimize: bool,
    /// The project is the Vitis kernel flow's (`flow_target` `vitis`): the top's pointers and
    /// arrays that no INTERFACE pragma names are m_axi ports, counted as such.
    pub kernel_flow: bool,
}

#[derive(Debug, Clone)]
pub struct RunOptions {
    pub cxx: String,
    /// Directory of the kernel headers (ap_int.h, hls_stream.h, ...).
    pub hls_include: PathBuf,
    /// Work directory (kept); `None` uses a temporary one, removed afterwards.
    pub work_dir: Option<PathBuf>,
    /// Whole-run limit for the testbench.
    pub timeout: Duration,
    /// `HLSINSTR_WATCHDOG_MS` for the stream model's deadlock watchdog.
    pub watchdog_ms: u64,
    /// Probe kinds to insert.
    pub kinds: Kinds,
    /// `watch` probes: the watchpoints (`--watch`, ...; docs/watch.md).
    pub watch: Option<crate::select::WatchSpec>,
    /// Build without probes (the uninstrumented baseline of the overhead benchmark).
    pub uninstrumented: bool,
    /// Called with progress messages (stage changes, and every few seconds while the testbench runs).
    pub progress: Option<fn(&str)>,
    /// Raised to cancel the run (the CLI's Ctrl-C handler): the testbench's process group is
    /// killed and the run ends with [`ErrorKind::Interrupted`].
    pub cancel: Option<&'static AtomicBool>,
}

/// How long the event log may take to reach its end once the testbench's group is gone: only a
/// process that left the group can keep it open longer.
const LOG_GRACE: Duration = Duration::from_secs(5);

/// What a run produced.
pub struct RunOutcome {
    pub manifest: Manifest,
    /// The event log in the work directory (binary; read it with `events::open`), `None` for an
    /// uninstrumented run.
    pub log: Option<PathBuf>,
    /// The end of what the testbench printed (the whole is in the work directory).
    pub stdout: Tail,
    pub stderr: Tail,
    pub run_time: Duration,
    /// Original source lines by manifest path.
    pub sources: std::collections::HashMap<String, Vec<String>>,
    pub skipped: Vec<String>,
    /// What the run did besides its job that the user should hear of (processes the testbench
    /// left running, stopped).
    pub notes: Vec<String>,
    /// The analysis that ran beside the testbench ([`run_analysed`]).
    pub live: Option<Live>,
    _temp: Option<tempfile::TempDir>,
    pub work_dir: PathBuf,
}

/// What [`run_analysed`] analysed, and with which manifest (the prepared one).
pub struct Live {
    pub manifest: Manifest,
    pub result: Result<super::Analysis>,
}

/// Turns the rewrite's manifest and the original sources (by manifest path) into the manifest
/// and the options the analysis runs with (the CLI applies the project's directives there).
pub type Prepare<'p> = dyn Fn(&Manifest, &std::collections::HashMap<String, Vec<String>>) -> Result<(Manifest, super::AnalysisOptions)>
    + 'p;

impl RunSpec {
    /// Everything a Vitis project says about C simulation.
    pub fn from_project(p: &Project) -> Result<RunSpec> {
        p.check()?;
        let top = p.require_top()?.to_string();
        let sources = p.sources.iter().filter(|f| f.is_source).map(|f| (f.path.clone(), p.source_flags(f))).collect();
        let mut testbench: Vec<(PathBuf, Vec<String>)> =
            p.testbench.iter().filter(|f| f.is_compiled()).map(|f| (f.path.clone(), p.testbench_flags(f))).collect();
        // A blackbox's C model stands in for its RTL module: compiled as it is, like the testbench.
        let models = crate::project::blackbox::model_files(p)?;
        for m in &models {
            let mut flags = p.cflags.clone();
            flags.extend(p.csimflags.iter().cloned());
            flags.extend(m.cflags.iter().cloned());
            testbench.push((m.path.clone(), crate::project::absolutize_flags(&p.root, &flags)));
        }
        // Data files: the testbench's, and those a project lists as synthesis files (Vitis 2024.2
        // copies a `syn.file=../in.dat` where the testbench reads it, the public `dct` of
        // j1hye0n/vitis_hls; left out, its `fopen` got NULL and the testbench crashed).
        let mut data_files: Vec<PathBuf> = Vec::new();
        for f in p.testbench.iter().chain(&p.sources).filter(|f| !f.is_source) {
            if !data_files.contains(&f.path) {
                data_files.push(f.path.clone());
            }
        }
        let argv = argv_words(p.csim_argv.as_deref());
        let mut include_dirs: Vec<String> = Vec::new();
        for f in p
            .sources
            .iter()
            .map(|f| &f.path)
            .chain(p.testbench.iter().map(|f| &f.path))
            .chain(models.iter().map(|m| &m.path))
        {
            if let Some(d) = f.parent() {
                let flag = format!("-I{}", d.display());
                if !include_dirs.contains(&flag) {
                    include_dirs.push(flag);
                }
            }
        }
        Ok(RunSpec {
            top,
            sources,
            testbench,
            data_files,
            csim_build: p.csim_build_dir(),
            project_dir: Some(p.root.clone()),
            common_flags: include_dirs,
            argv,
            ldflags: p.csim_ldflags.clone(),
            optimize: p.csim_optimize,
            kernel_flow: p.flow_target.as_deref() == Some("vitis"),
        })
    }
}

/// The testbench's arguments as a project writes them (`csim.argv`, `cosim_design -argv`): its
/// words, none when it gives none.
pub fn argv_words(argv: Option<&str>) -> Vec<String> {
    argv.map(|a| a.split_whitespace().map(String::from).collect()).unwrap_or_default()
}

/// Rewrite, build, run; the event log and manifest come back.
pub fn run(spec: &RunSpec, opts: &RunOptions) -> Result<RunOutcome> {
    run_analysed(spec, opts, None)
}

/// As [`run`], and with `prepare` the log is analysed while the testbench writes it (on a
/// thread of its own, following the log's file: see [`logpipe::Progress`]); the result is in
/// [`RunOutcome::live`]. A run that fails gives its own error, as [`run`] does.
pub fn run_analysed(spec: &RunSpec, opts: &RunOptions, prepare: Option<&Prepare<'_>>) -> Result<RunOutcome> {
    let (temp, work) = match &opts.work_dir {
        Some(d) => {
            std::fs::create_dir_all(d).map_err(|e| Error::io(d, &e))?;
            (None, d.canonicalize().map_err(|e| Error::io(d, &e))?)
        }
        None => {
            let t = tempfile::Builder::new()
                .prefix("hlsinstr-sim-")
                .tempdir()
                .map_err(|e| Error::new(ErrorKind::Io, format!("cannot create a temporary directory: {e}")))?;
            let p = t.path().to_path_buf();
            (Some(t), p)
        }
    };
    let say = |m: &str| {
        if let Some(f) = opts.progress {
            f(m)
        }
    };
    // Checked between stages: a compiler run is short and dies with the terminal's Ctrl-C.
    let cancelled = || {
        if opts.cancel.is_some_and(|c| c.load(Ordering::SeqCst)) {
            Err(interrupted(opts, None))
        } else {
            Ok(())
        }
    };
    say("rewriting the kernel sources");
    let root = common_root(spec.sources.iter().map(|(p, _)| p.as_path()));
    let mut inputs: Vec<Input> =
        spec.sources.iter().map(|(p, _)| Input { path: p.clone(), rel: rel_path(&root, p) }).collect();
    // The copy of the user's tree: instrumented sources, the testbench and every project file
    // they include, at the same relative places (see shadow.rs).
    let lib = work.join("hls-lib/include");
    let units_orig: Vec<PathBuf> =
        spec.sources.iter().chain(&spec.testbench).map(|(p, _)| shadow::canonical(p)).collect();
    let dirs = shadow::include_dirs(
        spec.common_flags.iter().chain(spec.sources.iter().chain(&spec.testbench).flat_map(|(_, f)| f)),
    );
    let exclude = [shadow::canonical(&opts.hls_include), lib.clone()];
    let reached_bytes = shadow::reached_with_bytes(&units_orig, &dirs, &exclude);
    let reached: Vec<PathBuf> = reached_bytes.iter().map(|(p, _)| p.clone()).collect();
    // The project headers the kernel includes are rewritten with it: the helpers defined in them
    // are modules and loops of the design (see headers.rs). Each is one input, however many
    // files include it.
    let kernel_headers = if opts.uninstrumented {
        Vec::new()
    } else {
        let sources: Vec<PathBuf> = spec.sources.iter().map(|(p, _)| shadow::canonical(p)).collect();
        super::headers::kernel_headers(&sources, &units_orig, &dirs, &exclude, &opts.hls_include)
    };
    let croot = shadow::canonical(&root);
    inputs.extend(kernel_headers.iter().map(|h| Input { path: h.clone(), rel: super::headers::rel_to(&croot, h) }));
    let all: Vec<PathBuf> = units_orig.iter().chain(&reached).cloned().collect();
    let mut tree = shadow::Tree::new(work.join("src"), &all);
    let (manifest, skipped) = if opts.uninstrumented {
        for i in &inputs {
            let text = std::fs::read(&i.path).map_err(|e| Error::io(&i.path, &e))?;
            tree.add(&shadow::canonical(&i.path), &text, None)?;
        }
        (empty_manifest(&spec.top), Vec::new())
    } else {
        let ropts = RewriteOptions {
            kinds: opts.kinds,
            select: SelectOptions {
                top: Some(spec.top.clone()),
                watch: opts.watch.clone(),
                kernel_flow: spec.kernel_flow,
                ..SelectOptions::default()
            },
            target: crate::fpga::Target::Csim,
        };
        let mut out = rewrite(&inputs, &ropts)?;
        // A source that cannot be rewritten stops the run; a header is copied as it is (as it
        // was before headers were instrumented), and the warning says which and why.
        let (header_errors, errors): (Vec<Error>, Vec<Error>) = std::mem::take(&mut out.errors)
            .into_iter()
            .partition(|e| e.path.as_ref().is_some_and(|p| kernel_headers.contains(&shadow::canonical(p))));
        if let Some(e) = errors.first() {
            return Err(e.clone());
        }
        // Array sizes may be constants of the headers the sources include (those not rewritten).
        let mut consts = crate::model::consts::Constants::scan(out.files.iter().map(|f| f.source.text.as_str()));
        let rewritten: std::collections::HashSet<PathBuf> =
            out.files.iter().map(|f| shadow::canonical(&f.source.path)).collect();
        // Borrowed from the walk's bytes: a weights header is not copied to be scanned.
        let headers: Vec<&str> = reached_bytes
            .iter()
            .filter(|(h, _)| !rewritten.contains(h))
            .filter_map(|(_, b)| std::str::from_utf8(b.as_deref()?).ok())
            .collect();
        for t in &headers {
            consts.add(t);
        }
        crate::emit::manifest::resolve_initialisers(&mut out.manifest, &consts);
        crate::emit::manifest::resolve_loop_memories(&mut out.manifest, &consts);
        // The types of the loop bodies' op chains, with the typedefs of sources and headers.
        let texts: Vec<&str> =
            out.files.iter().map(|f| f.source.text.as_str()).chain(headers.iter().copied()).collect();
        crate::emit::manifest::resolve_chain_types(&mut out.manifest, &texts);
        crate::emit::manifest::resolve_constant_divisors(&mut out.manifest, &consts);
        crate::emit::manifest::resolve_param_sizes(&mut out.manifest, &spec.top, &texts, &consts);
        for f in &out.files {
            let map = out.manifest.files.iter().find(|m| m.path == f.source.rel).map(|m| m.line_map.clone());
            tree.add(&shadow::canonical(&f.source.path), f.output.as_bytes(), map)?;
        }
        let mut skipped: Vec<String> = out
            .skipped
            .iter()
            .map(|(file, s)| format!("{file}:{}:{}: skipped {}: {}", s.line, s.col, s.function, s.reason))
            .collect();
        // What the rewrite warns of (a lambda's loops left unprobed, m_axi accesses it cannot
        // count, an unknown `#pragma HLSINSTR`) bears on the report as much as a skipped function.
        skipped.extend(std::mem::take(&mut out.warnings));
        for e in &header_errors {
            skipped.push(format!(
                "hlsinstr sim: warning: {e}; this header the kernel includes is copied without probes: its functions \
                 and loops count nothing in the report"
            ));
        }
        let json = serde_json::to_string_pretty(&out.manifest).unwrap_or_default();
        write_file(&work.join(manifest::FILE_NAME), json.as_bytes())?;
        (out.manifest, skipped)
    };
    // Inputs the rewrite left alone (headers without a function to probe) are copied as well.
    let copied: std::collections::HashSet<PathBuf> = tree.files.iter().map(|f| f.original.clone()).collect();
    for f in &units_orig {
        if !copied.contains(f) {
            let text = std::fs::read(f).map_err(|e| Error::io(f, &e))?;
            tree.add(f, &text, None)?;
        }
    }
    for (f, bytes) in &reached_bytes {
        if !copied.contains(f) {
            let read;
            let text = match bytes {
                Some(b) => b,
                None => {
                    read = std::fs::read(f).map_err(|e| Error::io(f, &e))?;
                    &read
                }
            };
            tree.add(f, text, None)?;
        }
    }
    for (rel, text) in HLS_LIB {
        write_file(&lib.join(rel), text.as_bytes())?;
    }
    say("compiling the testbench");
    let exe = work.join("csim.exe");
    let mut sources_by_rel = std::collections::HashMap::new();
    for i in &inputs {
        if let Ok(t) = std::fs::read_to_string(&i.path) {
            sources_by_rel.insert(i.rel.clone(), t.lines().map(String::from).collect::<Vec<_>>());
        }
    }
    cancelled()?;
    // A compiler killed by the terminal's Ctrl-C fails: the cancel, not the failure, is news.
    let compiled = compile(spec, opts, &work, &tree, &lib, &exe);
    cancelled()?;
    compiled?;
    say("running the testbench");
    let run_dir = work.join("run");
    std::fs::create_dir_all(&run_dir).map_err(|e| Error::io(&run_dir, &e))?;
    // The testbench's own texts (and the headers it includes) name the files it opens.
    let texts: Vec<String> = spec
        .testbench
        .iter()
        .filter_map(|(p, _)| std::fs::read(p).ok())
        .chain(reached_bytes.into_iter().filter_map(|(_, b)| b))
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .collect();
    let layout = super::csim_dir::prepare(
        &run_dir,
        spec.csim_build.as_deref(),
        &spec.data_files,
        &texts,
        &spec.argv,
        spec.project_dir.as_deref(),
    )?;
    let log = run_dir.join("hlsinstr-events.log");
    let prepared = match prepare {
        Some(f) if !opts.uninstrumented => Some(f(&manifest, &sources_by_rel)?),
        _ => None,
    };
    let started = Instant::now();
    let Executed { status, stdout, stderr, log_complete, leftovers, analysis } =
        execute(&exe, spec, opts, &layout.cwd, &run_dir, &log, prepared.as_ref().map(|(m, o)| (m, o)))?;
    let run_time = started.elapsed();
    let mut notes = Vec::new();
    if leftovers {
        notes.push(
            "the testbench left processes running after it exited (system(), fork()); they were stopped".to_string(),
        );
    }
    match status {
        Status::Exited(0) => {}
        Status::Exited(DEADLOCK_EXIT) => return Err(deadlock_error(&stdout, &stderr, &manifest, &log)),
        Status::Exited(code) => {
            return Err(Error::new(
                ErrorKind::BadInput,
                format!(
                    "the testbench failed (exit code {code}); no report is made from a failing run.\n{}{}",
                    show_output(&stdout, &stderr),
                    show_hints(&layout.hints())
                ),
            ))
        }
        Status::Signal(what) => {
            return Err(Error::new(
                ErrorKind::BadInput,
                format!("the testbench {what}.\n{}{}", show_output(&stdout, &stderr), show_hints(&layout.hints())),
            ))
        }
        Status::TimedOut => {
            return Err(Error::new(
                ErrorKind::BadInput,
                format!(
                    "the testbench ran longer than {} s and was stopped with every process it started (raise \
                     --timeout if it needs longer).\n{}",
                    opts.timeout.as_secs(),
                    show_output(&stdout, &stderr)
                ),
            ))
        }
        Status::Cancelled => return Err(interrupted(opts, Some((&stdout, &stderr)))),
    }
    if !log_complete {
        return Err(Error::new(
            ErrorKind::BadInput,
            format!(
                "the testbench exited, but a process it started outside its process group (setsid, a daemon) still \
                 holds its event log open (it inherited HLSINSTR_EVENTS_FD); stop that process, or close the \
                 descriptor in it.\n{}",
                show_output(&stdout, &stderr)
            ),
        ));
    }
    Ok(RunOutcome {
        manifest,
        log: (!opts.uninstrumented).then_some(log),
        stdout,
        stderr,
        run_time,
        sources: sources_by_rel,
        skipped,
        notes,
        live: prepared.zip(analysis).map(|((manifest, _), result)| Live { manifest, result }),
        _temp: temp,
        work_dir: work,
    })
}

/// What the testbench names that its working directory does not hold (csim_dir.rs), after the
/// output of a failing run: the likeliest reason it failed.
fn show_hints(hints: &[String]) -> String {
    hints.iter().map(|h| format!("\nhlsinstr sim: note: {h}")).collect()
}

fn empty_manifest(top: &str) -> Manifest {
    Manifest {
        format: manifest::FORMAT.into(),
        version: manifest::VERSION,
        tool: String::new(),
        kinds: Vec::new(),
        top: Some(top.into()),
        files: Vec::new(),
        probes: Vec::new(),
        skipped: Vec::new(),
        hw: None,
        generated: Vec::new(),
        branches: None,
        rtl: None,
    }
}

fn compile(spec: &RunSpec, opts: &RunOptions, work: &Path, tree: &shadow::Tree, lib: &Path, exe: &Path) -> Result<()> {
    let obj_dir = work.join("obj");
    std::fs::create_dir_all(&obj_dir).map_err(|e| Error::io(&obj_dir, &e))?;
    let copy = |p: &Path| {
        let c = shadow::canonical(p);
        tree.files.iter().find(|f| f.original == c).map_or_else(|| p.to_path_buf(), |f| f.copy.clone())
    };
    let mut units: Vec<(PathBuf, Vec<String>)> = Vec::new();
    // A file the script adds both as a source and with `-tb` (`add_files main.c` and
    // `add_files -tb main.c`) is one translation unit to Vivado's and Vitis' csim: compiled twice
    // it would define its functions (`main`) twice and not link. It is compiled once, as the
    // source (its rewritten copy, since it may hold the top or its callees).
    let sources: Vec<&(PathBuf, Vec<String>)> = spec.sources.iter().filter(|(p, _)| !is_header(p)).collect();
    let source_keys: Vec<PathBuf> = sources.iter().map(|(p, _)| shadow::canonical(p)).collect();
    let tb = spec.testbench.iter().filter(|(p, _)| !source_keys.contains(&shadow::canonical(p)));
    for (path, flags) in sources.into_iter().chain(tb) {
        units.push((copy(path), tree.include_flags(flags)));
    }
    let common_flags = tree.include_flags(&spec.common_flags);
    // C files stay C (a C++ compiler rejects valid C: `new` as a name, void* conversions); their
    // probes call the C++ runtime through C linkage, built once beside them (probe_c.h).
    if units.iter().any(|(f, _)| is_c_file(f)) {
        let runtime = work.join("hlsinstr_c_runtime.cpp");
        write_file(&runtime, b"#include \"hlsinstr/c_runtime.h\"\n")?;
        units.push((runtime, Vec::new()));
    }
    let cc = c_compiler();
    let mut objects = Vec::new();
    for (k, (file, flags)) in units.iter().enumerate() {
        let obj = object_path(&obj_dir, k);
        let is_c = is_c_file(file);
        let compiler = if is_c { &cc } else { &opts.cxx };
        let mut cmd = Command::new(compiler);
        cmd.arg("-c").arg(file).arg("-o").arg(&obj);
        // C keeps the compiler's default standard; C++ gets the one Vitis' csim uses.
        if !is_c && !flags.iter().chain(&common_flags).any(|f| f.starts_with("-std=")) {
            cmd.arg("-std=c++14");
        }
        // Vitis' csim builds unoptimised with debug information unless the project asks for
        // `-O`: a testbench whose undefined behaviour happens to work at -O0 must work here.
        if !flags.iter().chain(&common_flags).any(|f| f.starts_with("-O")) {
            if spec.optimize {
                cmd.arg("-O2");
            } else {
                cmd.args(["-O0", "-g"]);
            }
        }
        // The source's own directory first (its headers beside it), then hls-lib with its
        // hls::stream model (it must come before the vendor's hls_stream.h: it blocks on an
        // empty read and reports deadlocks), the kernel headers and the project's directories.
        if let Some(d) = file.parent() {
            cmd.arg(format!("-I{}", d.display()));
        }
        // The models of the Vitis headers the kernel headers lack come before them when they are
        // the open set (whose hls_math.h the model extends), after them otherwise.
        let models = lib.join(crate::hls_lib::VENDOR_MODELS);
        let open_set = !opts.hls_include.join("hls_vector.h").is_file();
        cmd.arg(format!("-I{}", lib.join("hlsinstr/sim").display()));
        cmd.arg(format!("-I{}", lib.display()));
        if open_set {
            cmd.arg(format!("-I{}", models.display()));
        }
        cmd.arg(format!("-I{}", opts.hls_include.display()));
        if !open_set {
            cmd.arg(format!("-I{}", models.display()));
        }
        cmd.args(&common_flags).args(flags);
        cmd.args(["-Wno-unknown-pragmas", "-Wno-unused-label"]);
        let out = cmd.output().map_err(|e| missing_tool(compiler, &e))?;
        if !out.status.success() {
            let text = String::from_utf8_lossy(&out.stderr);
            let mapped = shadow::map_diagnostics(&text, &tree.files);
            let searched = [lib.join("hlsinstr/sim"), lib.to_path_buf(), models, opts.hls_include.clone()];
            let mut advice = missing_header_advice(&text, &searched);
            if open_set {
                advice.push_str(&open_set_advice(&text, &opts.hls_include));
            }
            return Err(Error::new(
                ErrorKind::BadInput,
                format!("the C simulation does not compile:\n{mapped}{advice}"),
            ));
        }
        objects.push(obj);
    }
    link(&opts.cxx, &objects, &with_systemc(spec), exe).map_err(|e| match linkage_advice(&e.to_string(), spec) {
        Some(advice) => Error::new(ErrorKind::BadInput, format!("{e}{advice}")),
        None => e,
    })
}

/// Why a kernel function the testbench calls is missing at link time when the sources define it
/// inside `extern "C"` while the testbench sees a C++ declaration (g++ names the missing
/// symbol with its parameter list, `mac(float*, float*, float*, int)`): Vitis' co-simulation
/// wrapper links such a design, a plain C simulation does not (a public 2023.1 `mac`).
fn linkage_advice(message: &str, spec: &RunSpec) -> Option<String> {
    let at = message.find("undefined reference to `")? + "undefined reference to `".len();
    let symbol = message[at..].split('\'').next()?;
    // No parameter list: a C symbol, not this case.
    let (name, _) = symbol.split_once('(')?;
    let simple = name.trim().rsplit("::").next().unwrap_or("");
    if simple.is_empty() {
        return None;
    }
    let defines = |text: &str| text.contains("extern \"C\"") && text.contains(&format!("{simple}("));
    let file = spec.sources.iter().find(|(p, _)| std::fs::read_to_string(p).is_ok_and(|t| defines(&t)))?;
    Some(format!(
        "\nhlsinstr: {} defines `{simple}` inside `extern \"C\"`, but the testbench calls it as a C++ function (the \
         name above is C++'s): declare it `extern \"C\"` where the testbench includes it, or give --tb a file that \
         declares the C function and defines the C++ one calling it",
        file.0.display()
    ))
}

/// The link flags, with SystemC's library when a testbench is a SystemC one (it includes
/// `systemc.h` or `<systemc>`, or defines `sc_main`, which SystemC's own `main` calls): Vivado
/// HLS links its SystemC for such testbenches (the public `top` of
/// acordobav/histogram_equalization, 2019.1, runs its calls from an `SC_THREAD`).
fn with_systemc(spec: &RunSpec) -> Vec<String> {
    let mut flags = spec.ldflags.clone();
    let systemc = spec.testbench.iter().any(|(path, _)| {
        std::fs::read_to_string(path)
            .is_ok_and(|text| text.contains("systemc.h") || text.contains("<systemc>") || text.contains("sc_main("))
    });
    if systemc && !flags.iter().any(|f| f == "-lsystemc") {
        flags.push("-lsystemc".to_string());
    }
    flags
}

/// What to do about a header the compiler did not find (`fatal error: X: No such file or
/// directory`): a Vitis IP-library header has no model here, a header of Vivado HLS' video
/// library is in no Vitis installation (only in Vivado HLS'), a Vitis Libraries header (`xf_*`)
/// is in their own checkout, a name that is no Vitis header's is the project's or a library's
/// (no Vitis installation helps), another header may be in a Vitis installation. Empty when no
/// header was missing.
fn missing_header_advice(stderr: &str, searched: &[PathBuf]) -> String {
    let mut out = String::new();
    for line in stderr.lines() {
        let Some(rest) = line.split("fatal error: ").nth(1) else { continue };
        let Some(name) = rest.strip_suffix(": No such file or directory") else { continue };
        let name = name.trim_matches(|c| c == '\'' || c == '"' || c == '<' || c == '>');
        let dirs: Vec<String> = searched.iter().map(|d| d.display().to_string()).collect();
        if crate::hls_lib::VIVADO_VIDEO_HEADERS.contains(&name) {
            out.push_str(&vivado_video_advice(name, &dirs));
            continue;
        }
        let searched =
            format!("Searched (besides the source's own directory and the project's -I): {}", dirs.join(", "));
        let file = name.rsplit('/').next().unwrap_or(name);
        if file.starts_with("xf_") {
            // Vitis Libraries (xf::cv, xf::blas, ...) are a separate open-source checkout.
            out.push_str(&format!(
                "\nhlsinstr: {name} is a header of the Vitis Libraries (github.com/Xilinx/Vitis_Libraries: \
                 vision/L1/include for xf::cv, ...), which no Vitis installation's include directory holds. {searched}. \
                 Pass the library's include directory with --cflags \"-I<Vitis_Libraries>/<library>/L1/include\", or \
                 the project's own -I (syn.cflags, add_files -cflags) where it names it."
            ));
            continue;
        }
        if !(name.starts_with("hls_") || name.starts_with("ap_") || name.starts_with("etc/")) {
            // Not a Vitis name: the project's own header, or a library's the testbench uses.
            out.push_str(&format!(
                "\nhlsinstr: {name} was not found; it is no Vitis header, so it is the project's own (check its files \
                 and -I flags) or a library's the code uses (install the library's development files, or pass its \
                 include directory and link flags with --cflags \"-I<dir> -L<dir> -l<name>\"). {searched}."
            ));
            continue;
        }
        let what = if crate::hls_lib::IP_LIBRARY_HEADERS.contains(&name) {
            format!(
                "{name} is a Vitis IP-library header (it wraps an IP core whose C model ships only with Vitis); \
                 hlsinstr has no model of it"
            )
        } else {
            format!("{name} is not in the kernel headers nor among hlsinstr's models of Vitis headers")
        };
        out.push_str(&format!(
            "\nhlsinstr: {what}. {searched}. With Vitis installed, pass --hls-include $XILINX_HLS/include (or set \
             XILINX_HLS)."
        ));
    }
    out
}

/// What to add when a compile error involves a type the open kernel headers (hls4ml's) define
/// differently from Vitis: their `ap_float.h` is hls4ml's own `ap_float<M, E, E0>`, not Vitis'
/// `ap_float<W, E>` (2024.2 on, with `ap_float_acc`), so a Vitis design fails to compile with
/// errors about names that look like the user's mistake. Empty otherwise.
fn open_set_advice(stderr: &str, hls_include: &Path) -> String {
    if !stderr.contains("ap_float") {
        return String::new();
    }
    format!(
        "\nhlsinstr: the kernel headers in {} are the open set (hls4ml's): its ap_float.h defines hls4ml's own \
         ap_float<M, E, E0>, not Vitis' ap_float<W, E> (2024.2 on, with ap_float_acc), and hlsinstr has no model of \
         Vitis' ap_float. With Vitis installed, pass --hls-include $XILINX_HLS/include (or set XILINX_HLS).",
        hls_include.display()
    )
}

/// The advice for a header of Vivado HLS' video library: pointing at `$XILINX_HLS/include`
/// would send the user to a Vitis installation that does not have it.
fn vivado_video_advice(name: &str, dirs: &[String]) -> String {
    let opencv = if name == "hls_opencv.h" {
        " It also needs OpenCV's headers and libraries of the 2.x/3.x C API it was built for (IplImage, \
         cvLoadImage): pass their -I and -L/-l with --cflags."
    } else {
        ""
    };
    format!(
        "\nhlsinstr: {name} is part of Vivado HLS' video library (2015.x to 2019.2: hls::Mat, hls::AXIvideo2Mat, \
         hls::LineBuffer, ...), which Vitis HLS dropped in 2020.1 for the Vitis Vision library (xf::cv): no Vitis \
         installation has it, and hlsinstr has no model of it. Searched (besides the source's own directory and the \
         project's -I): {}. With Vivado HLS installed, pass --hls-include <Vivado HLS>/include (e.g. \
         /opt/Xilinx/Vivado/2019.2/include); to run under Vitis, port the design to xf::cv.{opencv}",
        dirs.join(", ")
    )
}

/// The object of the k-th compiled unit (the link order).
fn object_path(obj_dir: &Path, k: usize) -> PathBuf {
    obj_dir.join(format!("{k}.o"))
}

/// The objects of a work directory's C simulation in link order (the benchmark relinks them).
pub fn object_files(work: &Path) -> Result<Vec<PathBuf>> {
    let obj_dir = work.join("obj");
    let count = std::fs::read_dir(&obj_dir).map_err(|e| Error::io(&obj_dir, &e))?.count();
    Ok((0..count).map(|k| object_path(&obj_dir, k)).filter(|p| p.is_file()).collect())
}

/// Links the C simulation, in the first of these ways the toolchain and the project's
/// libraries allow:
/// 1. fully static: no dynamic loader at all. Loading, relocating and binding the C library
///    took ~120 K instructions and several mappings at every start of a testbench of ~250 K
///    instructions, and each symbol the probes add to it (a dozen C library functions) was one
///    more lookup, paid by the probed run only. A static link that warns that the program still
///    needs shared libraries at run time (dlopen, name services) is not used;
/// 2. the C++ runtime static, not position-independent: loading libstdc++.so costs ~1.4 M
///    instructions per run, and a static runtime's relative relocations would be applied (and
///    their pages copied) at every start of a position-independent executable;
/// 3. as the compiler links by default.
///
/// The benchmark relinks with this too.
pub fn link(cxx: &str, objects: &[PathBuf], ldflags: &[String], exe: &Path) -> Result<()> {
    const WAYS: [&[&str]; 3] = [&["-static"], &["-static-libstdc++", "-static-libgcc", "-no-pie"], &[]];
    let mut last = None;
    for way in WAYS {
        let mut link = Command::new(cxx);
        link.args(objects).arg("-o").arg(exe).args(way).args(ldflags).arg("-pthread");
        let out = link.output().map_err(|e| missing_tool(cxx, &e))?;
        let needs_shared = String::from_utf8_lossy(&out.stderr).contains("statically linked applications requires");
        if out.status.success() && !(way.contains(&"-static") && needs_shared) {
            return Ok(());
        }
        last = Some(out);
    }
    let stderr = last.map(|o| String::from_utf8_lossy(&o.stderr).into_owned()).unwrap_or_default();
    Err(Error::new(ErrorKind::BadInput, format!("the C simulation does not link:\n{stderr}")))
}

fn is_header(p: &Path) -> bool {
    const HEADERS: &[&str] = &["h", "hh", "hpp", "hxx", "h++", "inl", "ipp", "tpp"];
    p.extension().and_then(|e| e.to_str()).is_some_and(|e| HEADERS.contains(&e.to_ascii_lowercase().as_str()))
}

/// A `.c` file: compiled by the C compiler.
fn is_c_file(p: &Path) -> bool {
    p.extension().is_some_and(|e| e == "c")
}

/// The C compiler: `$CC`, else gcc.
fn c_compiler() -> String {
    std::env::var("CC").ok().filter(|c| !c.trim().is_empty()).unwrap_or_else(|| "gcc".into())
}

fn missing_tool(cxx: &str, e: &std::io::Error) -> Error {
    Error::new(
        ErrorKind::Usage,
        format!("cannot run the compiler `{cxx}`: {e} (install it, or name another: --cxx for C++, $CC for C)"),
    )
}

pub use shadow::original_line;

/// The error of a cancelled run, saying what was stopped and where the work directory is.
fn interrupted(opts: &RunOptions, output: Option<(&Tail, &Tail)>) -> Error {
    let work = match &opts.work_dir {
        Some(d) => format!("the work directory is kept in {}", d.display()),
        None => "the work directory is removed".to_string(),
    };
    let what = if output.is_some() { "; the testbench and every process it started were stopped" } else { "" };
    let shown = output.map(|(o, e)| format!("\n{}", show_output(o, e))).unwrap_or_default();
    Error::new(ErrorKind::Interrupted, format!("interrupted{what}; {work}{shown}"))
}

enum Status {
    Exited(i32),
    Signal(String),
    TimedOut,
    Cancelled,
}

struct Executed {
    status: Status,
    stdout: Tail,
    stderr: Tail,
    /// The event log reached its end (false: a process outside the group still holds it).
    log_complete: bool,
    /// The testbench exited and left processes of its group running (now killed).
    leftovers: bool,
    /// The analysis run beside it (when asked for).
    analysis: Option<Result<super::Analysis>>,
}

/// Runs the testbench in a process group of its own; its event log arrives through a pipe
/// (logpipe) and is saved to `log` (for `--keep` and `sim --events`) as it arrives. With
/// `analysis`, a thread analyses the log from that file as it grows.
fn execute(
    exe: &Path,
    spec: &RunSpec,
    opts: &RunOptions,
    cwd: &Path,
    dir: &Path,
    log: &Path,
    analysis: Option<(&Manifest, &super::AnalysisOptions)>,
) -> Result<Executed> {
    let stdout_path = dir.join("csim.stdout");
    let stderr_path = dir.join("csim.stderr");
    let so = std::fs::File::create(&stdout_path).map_err(|e| Error::io(&stdout_path, &e))?;
    let se = std::fs::File::create(&stderr_path).map_err(|e| Error::io(&stderr_path, &e))?;
    let mut cmd = Command::new(exe);
    cmd.args(&spec.argv)
        .current_dir(cwd)
        .env("HLSINSTR_WATCHDOG_MS", opts.watchdog_ms.to_string())
        .stdin(Stdio::null())
        .stdout(so)
        .stderr(se);
    proc::own_group(&mut cmd);
    let (child, reader) = logpipe::spawn(&mut cmd, log)
        .map_err(|e| Error::new(ErrorKind::Io, format!("cannot start the testbench: {e}")).at(exe))?;
    // From here every way out (an error included: `Group` kills on drop) ends the group.
    let group = proc::Group::new(child);
    // Drained while the testbench runs (a full pipe would stop it), on a thread whose result is
    // awaited with a deadline: a process that left the group can hold the pipe open forever.
    // The log goes straight to its file: nothing of it is held in memory.
    let (tx, rx) = std::sync::mpsc::channel();
    let log_file = std::fs::File::create(log).map_err(|e| Error::io(log, &e))?;
    let progress = std::sync::Arc::new(logpipe::Progress::default());
    let copied = progress.clone();
    std::thread::spawn(move || {
        let _ = tx.send(reader.copy_following(log_file, &copied));
    });
    std::thread::scope(|scope| {
        // The analysis follows the file (it never holds the testbench back); it is stopped when
        // the run fails, and awaited otherwise.
        let analysing = analysis.map(|(manifest, aopts)| {
            let follower = logpipe::Follower::new(log, progress.clone());
            scope.spawn(move || {
                let follower = follower.map_err(|e| Error::io(log, &e))?;
                let stream = super::events::Stream::new(follower)?;
                super::analyze_stream(stream, &|| super::events::open(log), manifest, aopts)
            })
        });
        let waited = wait_for(group, opts, &rx);
        if !matches!(waited, Ok((Status::Exited(0), true, _))) {
            progress.stop();
        }
        let analysis = analysing.map(|h| {
            h.join()
                .unwrap_or_else(|_| Err(Error::new(ErrorKind::Internal, "the analysis of the event log failed")))
                .map_err(|e| e.or_at(log))
        });
        let (status, log_complete, leftovers) = waited?;
        Ok(Executed {
            status,
            stdout: Tail::read(&stdout_path),
            stderr: Tail::read(&stderr_path),
            log_complete,
            leftovers,
            analysis,
        })
    })
}

/// Waits for the testbench's group to end and for its log to reach its end: its status,
/// whether the log is complete, and whether it left processes running.
fn wait_for(
    mut group: proc::Group,
    opts: &RunOptions,
    copied: &std::sync::mpsc::Receiver<std::io::Result<u64>>,
) -> Result<(Status, bool, bool)> {
    let mut next_note = Duration::from_secs(5);
    let ended = group
        .wait(opts.timeout, opts.cancel, |t| {
            if t >= next_note {
                if let Some(f) = opts.progress {
                    f(&format!("testbench running for {} s", t.as_secs()));
                }
                next_note += Duration::from_secs(5);
            }
        })
        .map_err(|e| Error::new(ErrorKind::Io, format!("waiting for the testbench: {e}")))?;
    // What the testbench left behind goes too (after a time-out or cancel nothing is left).
    let leftovers = matches!(ended, Ended::Exited(_)) && group.kill_group();
    drop(group);
    let status = match ended {
        Ended::Exited(s) => exit_status(s),
        Ended::TimedOut => Status::TimedOut,
        Ended::Cancelled => Status::Cancelled,
    };
    let log_complete = match copied.recv_timeout(LOG_GRACE) {
        Ok(r) => {
            r.map_err(|e| Error::new(ErrorKind::Io, format!("reading the event log from the testbench: {e}")))?;
            true
        }
        // The reader thread stays blocked on the pipe until that process ends; it holds nothing
        // but the pipe's read end and the log file.
        Err(_) => false,
    };
    Ok((status, log_complete, leftovers))
}

fn exit_status(s: std::process::ExitStatus) -> Status {
    if let Some(c) = s.code() {
        return Status::Exited(c);
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = s.signal() {
            let name = match sig {
                6 => "aborted (SIGABRT: an assert?)".to_string(),
                11 => "crashed (SIGSEGV: an out-of-bounds access?)".to_string(),
                8 => "crashed (SIGFPE)".to_string(),
                n => format!("was killed by signal {n}"),
            };
            return Status::Signal(name);
        }
    }
    Status::Signal("ended abnormally".into())
}

/// Lines of the testbench's output shown with a message.
pub const TAIL_LINES: usize = 40;
/// Bytes read from the end of an output file for its tail (longer lines are cut).
const TAIL_BYTES: u64 = 64 << 10;

/// The end of a file the testbench printed to: its last [`TAIL_LINES`] lines (from its last
/// [`TAIL_BYTES`]), and how many lines came before them. Reading it holds no more than that,
/// however much the testbench printed.
#[derive(Debug, Clone, Default)]
pub struct Tail {
    pub lines: Vec<String>,
    /// Lines before the ones kept.
    pub earlier: u64,
    /// Bytes printed in all.
    pub bytes: u64,
    pub path: PathBuf,
}

impl Tail {
    pub fn read(path: &Path) -> Tail {
        use std::io::{BufRead, Read, Seek};
        let mut t = Tail { path: path.to_path_buf(), ..Tail::default() };
        let Ok(mut f) = std::fs::File::open(path) else { return t };
        // Lines in all: a last line without its newline counts (as `str::lines` does).
        let (mut total, mut last) = (0u64, b'\n');
        let mut r = std::io::BufReader::with_capacity(1 << 16, &mut f);
        while let Ok(buf) = r.fill_buf() {
            if buf.is_empty() {
                break;
            }
            total += buf.iter().filter(|&&b| b == b'\n').count() as u64;
            t.bytes += buf.len() as u64;
            last = buf[buf.len() - 1];
            let n = buf.len();
            r.consume(n);
        }
        total += u64::from(last != b'\n');
        let from = t.bytes.saturating_sub(TAIL_BYTES);
        let mut end = Vec::new();
        if f.seek(std::io::SeekFrom::Start(from)).is_err() || f.take(TAIL_BYTES).read_to_end(&mut end).is_err() {
            return t;
        }
        let text = String::from_utf8_lossy(&end);
        let mut lines: Vec<&str> = text.lines().collect();
        if from > 0 && !lines.is_empty() {
            lines.remove(0); // begun mid-line
        }
        let keep = lines.len().saturating_sub(TAIL_LINES);
        t.lines = lines[keep..].iter().map(|l| l.to_string()).collect();
        t.earlier = total.saturating_sub(t.lines.len() as u64);
        t
    }

    pub fn is_empty(&self) -> bool {
        self.bytes == 0
    }

    /// The kept lines, indented, after a count of the earlier ones.
    pub fn show(&self) -> String {
        let mut t = String::new();
        if self.earlier > 0 {
            t.push_str(&format!("  ... {} earlier lines\n", self.earlier));
        }
        for l in &self.lines {
            t.push_str("  ");
            t.push_str(l);
            t.push('\n');
        }
        t
    }

    /// Every line of the tail (the deadlock messages are looked for here).
    fn iter(&self) -> impl Iterator<Item = &str> {
        self.lines.iter().map(String::as_str)
    }
}

fn show_output(stdout: &Tail, stderr: &Tail) -> String {
    format!("--- testbench stdout ---\n{}--- testbench stderr ---\n{}", stdout.show(), stderr.show())
}

/// A deadlock, from the watchdog's stderr lines, with module names from the manifest.
fn deadlock_error(stdout: &Tail, stderr: &Tail, m: &Manifest, _log: &Path) -> Error {
    let mut lines = Vec::new();
    for l in stderr.iter().filter(|l| l.starts_with("hlsinstr: deadlock:")) {
        let mut line = l.trim_start_matches("hlsinstr: ").to_string();
        if let Some(id) = l.rsplit("probe ").next().and_then(|s| s.trim().parse::<u32>().ok()) {
            if let Some(p) = m.probes.iter().find(|p| p.id == id) {
                let what = if p.kind == "loop" { format!("loop {} in {}", p.name, p.function) } else { p.name.clone() };
                line.push_str(&format!(" = {what} ({}:{})", p.file, p.line));
            }
        }
        lines.push(line);
    }
    Error::new(
        ErrorKind::BadInput,
        format!(
            "the design deadlocks: a process reads a stream nothing will write (or writes a full one nothing will \
             read); in hardware this dataflow region would hang.\n  {}\n{}",
            lines.join("\n  "),
            show_output(stdout, stderr)
        ),
    )
}

fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    if let Some(d) = path.parent() {
        std::fs::create_dir_all(d).map_err(|e| Error::io(d, &e))?;
    }
    std::fs::write(path, bytes).map_err(|e| Error::io(path, &e))
}

/// Deepest directory holding every path.
fn common_root<'a>(paths: impl Iterator<Item = &'a Path>) -> PathBuf {
    let mut root: Option<PathBuf> = None;
    for p in paths {
        let dir = p.parent().unwrap_or(Path::new("")).to_path_buf();
        root = Some(match root {
            None => dir,
            Some(r) => {
                let common: PathBuf =
                    r.components().zip(dir.components()).take_while(|(a, b)| a == b).map(|(a, _)| a).collect();
                common
            }
        });
    }
    root.unwrap_or_default()
}

fn rel_path(root: &Path, p: &Path) -> String {
    let rel = p.strip_prefix(root).unwrap_or(p);
    rel.components()
        .filter_map(|c| match c {
            std::path::Component::Normal(s) => Some(s.to_string_lossy().into_owned()),
            std::path::Component::ParentDir => Some("__parent__".into()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("/")
}

#[cfg(test)]
mod tests {

    /// A data file a project lists as a synthesis file is copied for the testbench as a
    /// testbench data file is; C/C++ files stay sources.
    #[test]
    fn data_files_listed_as_synthesis_files_reach_the_testbench() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::create_dir(d.join("sol")).unwrap();
        for (name, text) in [("k.cpp", "void k() {}\n"), ("tb.cpp", "int main() { return 0; }\n"), ("in.dat", "1\n")] {
            std::fs::write(d.join(name), text).unwrap();
        }
        let cfg = "[hls]\nsyn.top=k\nsyn.file=../k.cpp\nsyn.file=../in.dat\ntb.file=../tb.cpp\n";
        std::fs::write(d.join("sol/hls_config.cfg"), cfg).unwrap();
        let p = crate::project::load(&d.join("sol/hls_config.cfg")).unwrap();
        let spec = RunSpec::from_project(&p).unwrap();
        let names = |v: Vec<&PathBuf>| -> Vec<String> {
            v.iter().map(|f| f.file_name().unwrap().to_string_lossy().into_owned()).collect()
        };
        assert_eq!(names(spec.data_files.iter().collect()), ["in.dat"]);
        assert_eq!(names(spec.sources.iter().map(|s| &s.0).collect()), ["k.cpp"]);
    }

    /// A SystemC testbench (`sc_main` in an `SC_THREAD`'s module, as Vivado HLS runs them) is
    /// linked with SystemC's library; another is not.
    #[test]
    fn a_systemc_testbench_links_systemc() {
        let dir = tempfile::tempdir().unwrap();
        let (sc, plain) = (dir.path().join("tb_sc.cpp"), dir.path().join("tb.cpp"));
        std::fs::write(&sc, "#include <systemc.h>\nint sc_main(int, char **) { return 0; }\n").unwrap();
        std::fs::write(&plain, "int main() { return 0; }\n").unwrap();
        let spec = |tb: &std::path::Path| RunSpec {
            top: "k".into(),
            sources: Vec::new(),
            testbench: vec![(tb.to_path_buf(), Vec::new())],
            data_files: Vec::new(),
            csim_build: None,
            project_dir: None,
            common_flags: Vec::new(),
            argv: Vec::new(),
            ldflags: vec!["-lm".into()],
            optimize: false,
            kernel_flow: false,
        };
        assert_eq!(with_systemc(&spec(&sc)), ["-lm", "-lsystemc"]);
        assert_eq!(with_systemc(&spec(&plain)), ["-lm"]);
    }
    use super::*;

    #[test]
    fn every_hls_lib_header_is_built_in() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../hls-lib/include");
        let mut stack = vec![root.clone()];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).unwrap().flatten() {
                let p = e.path();
                if p.is_dir() {
                    stack.push(p);
                } else {
                    let rel = p.strip_prefix(&root).unwrap().to_string_lossy().replace('\\', "/");
                    let text = std::fs::read_to_string(&p).unwrap();
                    assert!(HLS_LIB.iter().any(|(r, t)| *r == rel && *t == text), "{rel} is not in HLS_LIB");
                }
            }
        }
    }

    #[test]
    fn common_root_and_relative_paths() {
        let r = common_root([Path::new("/a/b/c/x.cpp"), Path::new("/a/b/y.cpp")].into_iter());
        assert_eq!(r, PathBuf::from("/a/b"));
        assert_eq!(rel_path(&r, Path::new("/a/b/c/x.cpp")), "c/x.cpp");
    }
}
