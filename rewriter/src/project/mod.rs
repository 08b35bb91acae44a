//! The user's own Vitis HLS project description, read so that `hlsinstr` can rewrite, compile and
//! run their C simulation without a configuration format of its own.
//!
//! Two formats are understood:
//!
//! * the Vitis unified flow config file (`hls_config.cfg`, given to `v++ -c --mode hls --config`
//!   or `vitis-run --mode hls --csim --config`), see [`parse_cfg`];
//! * a Vivado/Vitis HLS Tcl script (`run_hls.tcl`, `script.tcl`, given to `vitis_hls -f`), see
//!   [`parse_tcl`].
//!
//! [`load`] picks the reader by extension. Both produce the same [`Project`]. Reading never runs
//! anything and never fails on something it merely does not understand: unknown keys and commands
//! are kept or reported as [`Warning`]s. It fails ([`crate::Error`], kind
//! [`ErrorKind::BadInput`] or `Io`) only when the file cannot be
//! read or is malformed (unbalanced braces or quotes, a line that is not `key=value`), with the
//! line and column.
//!
//! Relative paths are resolved against [`Project::root`], the directory of the project file. For
//! config files that is what Vitis does (unless `relative_roots` says otherwise, which is not
//! interpreted). For Tcl scripts Vitis resolves against the directory `vitis_hls` runs in; we
//! assume it is run from the script's own directory (`cd dir && vitis_hls -f run_hls.tcl`), which
//! is how nearly every project is laid out, and follow the script's own `cd` commands. Files named
//! in a script pulled in with `source` are relative to that same directory, not to the sourced file.

pub mod blackbox;
mod cfg;
pub mod directive;
mod glob;
mod interp;
pub(crate) mod tcl;

use crate::error::{Error, ErrorKind, Result};
pub use directive::{Directive, DirectiveKind};
use serde::Serialize;
use std::fmt;
use std::path::{Component, Path, PathBuf};

/// Project files larger than this are refused: no project description is this big.
pub const MAX_PROJECT_BYTES: u64 = 4 * 1024 * 1024;
/// At most this many warnings are kept; the last one says more were dropped.
pub const MAX_WARNINGS: usize = 200;
/// Clock period Vitis uses when the project sets none.
pub const DEFAULT_CLOCK_NS: f64 = 10.0;
/// Names looked for, in order, when [`load`] is given a directory.
pub const PROJECT_FILE_NAMES: &[&str] = &["hls_config.cfg", "run_hls.tcl", "script.tcl"];

/// Which format the project was read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ProjectKind {
    /// A Vitis unified flow config file (`hls_config.cfg`).
    Cfg,
    /// A Vivado/Vitis HLS Tcl script.
    Tcl,
}

/// Something in the project file that was ignored or guessed at. Never fatal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Warning {
    /// The file it is about (a script pulled in by `source` has its own).
    pub path: PathBuf,
    /// 1-based line and column, when the warning is about one place.
    pub line_col: Option<(usize, usize)>,
    pub message: String,
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line_col {
            Some((l, c)) => write!(f, "{}:{l}:{c}: warning: {}", self.path.display(), self.message),
            None => write!(f, "{}: warning: {}", self.path.display(), self.message),
        }
    }
}

/// One file of the project: a synthesis source (`syn.file`, `add_files`) or a testbench file
/// (`tb.file`, `add_files -tb`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SourceFile {
    /// Resolved against [`Project::root`] unless absolute (`.` components dropped, `..` kept).
    pub path: PathBuf,
    /// Per-file compiler flags (`add_files -cflags`, `syn.file_cflags` / `tb.file_cflags`), split
    /// into words the way a shell would.
    pub cflags: Vec<String>,
    /// Per-file flags for C simulation only (`add_files -csimflags`, `syn.file_csimflags`).
    pub csimflags: Vec<String>,
    /// A C or C++ file (source or header, by extension). Testbench lists also hold data files
    /// (`result.golden.dat`) that csim copies next to the executable: those are `false`.
    pub is_source: bool,
}

impl SourceFile {
    /// A C/C++ translation unit that csim compiles: a source, not a header nor a data file.
    pub fn is_compiled(&self) -> bool {
        const HEADERS: &[&str] = &["h", "hh", "hpp", "hxx", "h++", "inl", "ipp", "tpp"];
        self.is_source
            && !self
                .path
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| HEADERS.contains(&e.to_ascii_lowercase().as_str()))
    }
}

/// A Vitis HLS project as described by the user's config file or Tcl script.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Project {
    pub kind: ProjectKind,
    /// The project file, absolute.
    pub file: PathBuf,
    /// Directory of the project file, absolute: relative paths are resolved against it.
    pub root: PathBuf,
    /// Tcl: the `open_project` (or `open_component`) name as written, or the absolute project
    /// directory when the script `cd`s elsewhere first. Config files have none.
    pub name: Option<String>,
    /// The top function (`syn.top`, `set_top`).
    pub top: Option<String>,
    /// Synthesis sources (`syn.file`, `add_files`), in order, without duplicates.
    pub sources: Vec<SourceFile>,
    /// Testbench files (`tb.file`, `add_files -tb`), data files included.
    pub testbench: Vec<SourceFile>,
    /// Flags for every synthesis source (`syn.cflags`). Tcl has only per-file flags.
    pub cflags: Vec<String>,
    /// Flags for every synthesis source in C simulation only (`syn.csimflags`).
    pub csimflags: Vec<String>,
    /// Flags for every testbench file (`tb.cflags`).
    pub tb_cflags: Vec<String>,
    /// Clock period in ns (`clock`, `freqhz`, `create_clock -period`); `None`: Vitis uses 10 ns.
    pub clock_ns: Option<f64>,
    /// As written (`clock_uncertainty`, `set_clock_uncertainty`): ns, `%` or MHz.
    pub clock_uncertainty: Option<String>,
    /// Target part (`part`, `set_part`).
    pub part: Option<String>,
    /// Target platform (`platform`, config files only).
    pub platform: Option<String>,
    /// `vitis` or `vivado` (`flow_target`, `open_solution -flow_target`).
    pub flow_target: Option<String>,
    /// Tcl: the active solution (`open_solution`). Config files have none.
    pub solution: Option<String>,
    /// RTL blackbox descriptors (`syn.blackbox.file`, `add_files -blackbox`).
    pub blackbox: Vec<PathBuf>,
    /// Arguments for the testbench's `main` (`csim.argv`, `csim_design -argv`), as written.
    pub csim_argv: Option<String>,
    /// Arguments co-simulation runs the testbench with (`cosim.argv`, `cosim_design -argv`), as
    /// written: Vitis does not pass the C simulation's to it.
    pub cosim_argv: Option<String>,
    /// Co-simulation stalls the top's ports at random (`cosim.random_stall`, `cosim_design
    /// -random_stall`): its latencies hold waits no schedule has.
    pub cosim_random_stall: bool,
    /// Linker flags for C simulation (`csim.ldflags`, `csim_design -ldflags`).
    pub csim_ldflags: Vec<String>,
    /// Optimization directives (`syn.directive.<kind>`, `set_directive_<kind>`), in file order;
    /// `source`d scripts included. See [`directive`] and docs/directives.md.
    pub directives: Vec<Directive>,
    /// Trip-count threshold for automatic loop pipelining (`syn.compile.pipeline_loops`,
    /// `config_compile -pipeline_loops`); `None`: not set, so Vitis uses its default.
    ///
    /// UG1399, "Automatic Loop Pipelining" and "config_compile": Vitis HLS pipelines a loop on its
    /// own (as with `PIPELINE II=1`) when its trip count is above the threshold, after applying the
    /// user's directives (a loop unrolled by a directive is not pipelined). In a nest it starts at
    /// the innermost loop and moves out: when the parent can be pipelined too, the inner loop is
    /// unrolled into it and the parent is pipelined. `PIPELINE off` keeps a loop out. The default
    /// is 64 in every UG1399 edition read (2020.2 to 2025.2; a trip count of 65 is pipelined, 64
    /// is not, per 2025.2; 2021.2 and 2022.2 word it as "below the limit", 2020.2 as "64 or
    /// greater"). 0 switches automatic pipelining off: that is how projects use it
    /// (`config_compile -pipeline_loops 0`); the UG1399 excerpts read do not say so in words.
    pub pipeline_loops: Option<u64>,
    /// The m_axi latency the schedule assumes (`config_interface -m_axi_latency`,
    /// `syn.interface.m_axi_latency`); `None`: the flow's default ([`Project::maxi_latency_default`]).
    pub m_axi_latency: Option<u64>,
    /// Tcl: the project is Vivado HLS' (the tool before Vitis HLS 2020.1): the script says it was
    /// written by Vivado HLS, or the project directory holds Vivado HLS' `vivado_hls.app` (Vitis
    /// HLS writes `hls.app`). It pipelines no loop on its own: see [`Project::pipeline_threshold`].
    pub vivado_hls: bool,
    /// Channel kind of dataflow regions for arrays passed between processes
    /// (`syn.dataflow.default_channel`, `config_dataflow -default_channel`): `fifo` or `pingpong`.
    pub dataflow_default_channel: Option<String>,
    /// Everything read but not interpreted, `(key, value)`: config keys (qualified by their section
    /// unless it is `[hls]`) and Tcl `config_*` commands with the arguments not interpreted.
    pub other: Vec<(String, String)>,
    /// What was ignored or guessed at, in file order.
    pub warnings: Vec<Warning>,
    /// Tcl: every project or component the script opens (`open_project`, `open_component`), in
    /// order; the one read is [`Project::name`] ([`Select::component`], default the first).
    pub components: Vec<String>,
    /// Tcl: every solution the script opens in the component read, in order; the one read is
    /// [`Project::solution`] ([`Select::solution`], default the first).
    pub solutions: Vec<String>,
    /// Compile the C simulation optimised (`csim_design -O`, `csim.O=true`); Vitis' csim builds
    /// unoptimised with debug information unless the project asks.
    pub csim_optimize: bool,
    /// What the user should hear of that is not a problem (which of several blocks was read).
    pub notes: Vec<String>,
}

/// Which block of a script with several to read: a project or component (`open_project`,
/// `open_component`) and a solution in it (`open_solution`). `None`: the first.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Select {
    pub component: Option<String>,
    pub solution: Option<String>,
}

/// Read a project file, choosing the reader by extension: `.cfg` → [`parse_cfg`], `.tcl` →
/// [`parse_tcl`]. A directory is searched for [`PROJECT_FILE_NAMES`], in that order.
pub fn load(path: &Path) -> Result<Project> {
    load_selected(path, &Select::default())
}

/// [`load`], reading the component and solution `select` names when the script has several.
/// A name the script does not open is an error listing those it does; a selection given for a
/// config file (one component, no solutions) is an error too.
pub fn load_selected(path: &Path, select: &Select) -> Result<Project> {
    if path.is_dir() {
        return match PROJECT_FILE_NAMES.iter().map(|n| path.join(n)).find(|p| p.is_file()) {
            Some(file) => load_selected(&file, select),
            None => Err(Error::new(
                ErrorKind::BadInput,
                format!(
                    "no Vitis HLS project file in this directory (looked for {}); pass the config file or Tcl script itself",
                    PROJECT_FILE_NAMES.join(", ")
                ),
            )
            .at(path)),
        };
    }
    match path.extension().and_then(|e| e.to_str()).map(|e| e.to_ascii_lowercase()).as_deref() {
        Some("cfg") if *select != Select::default() => Err(Error::new(
            ErrorKind::Usage,
            "a config file describes one component with no solutions: --component and --solution apply to Tcl \
             scripts; give the config file of the component you mean",
        )
        .at(path)),
        Some("cfg") => parse_cfg(path),
        Some("tcl") => {
            let text = read_text(path)?;
            parse_tcl_selected(path, &text, select)
        }
        _ => Err(Error::new(
            ErrorKind::BadInput,
            "not a Vitis HLS project file: expected a config file ending in `.cfg` (hls_config.cfg, for \
             `v++ --mode hls --config`) or a Tcl script ending in `.tcl` (run_hls.tcl, for `vitis_hls -f`)",
        )
        .at(path)),
    }
}

/// Read a Vitis unified flow config file (`hls_config.cfg`).
///
/// The syntax is that of Boost.Program_options config files, which `v++` uses: `key=value` lines
/// with blanks around `=` ignored, `[section]` headers that prefix the keys after them (`[hls]`
/// keys are the HLS options, keys before any header are general `v++` options such as `part`),
/// and `#` starting a comment anywhere on a line. Repeated keys accumulate (files, flags); for
/// single-valued keys the last one wins, with a warning.
///
/// Interpreted keys: `part`, `platform`, `freqhz`, and under `[hls]`: `syn.top`, `syn.file`,
/// `syn.cflags`, `syn.csimflags`, `syn.file_cflags`, `syn.file_csimflags`, `syn.blackbox.file`,
/// `tb.file`, `tb.cflags`, `tb.file_cflags`, `tb.file_csimflags`, `clock`, `clock_uncertainty`,
/// `flow_target`, `csim.argv`, `cosim.argv`, `csim.ldflags`, `syn.directive.<kind>` (to [`Project::directives`]),
/// `syn.compile.pipeline_loops`, `syn.dataflow.default_channel`. Everything else goes to
/// [`Project::other`].
pub fn parse_cfg(path: &Path) -> Result<Project> {
    let text = read_text(path)?;
    parse_cfg_str(path, &text)
}

/// [`parse_cfg`] on text already in memory; `path` names the file (its directory is the root).
pub fn parse_cfg_str(path: &Path, text: &str) -> Result<Project> {
    let mut project = Project::empty(ProjectKind::Cfg, path);
    cfg::parse(&mut project, text)?;
    project.finish();
    Ok(project)
}

/// Read a Vivado/Vitis HLS Tcl script (`run_hls.tcl`).
///
/// The script is tokenized as real Tcl (comments, `;`, backslash-newline, braces, quotes,
/// backslash escapes, `{*}`) but not run. Interpreted commands: `open_project`, `open_solution`
/// (also `project/solution`), `open_component`, `set_top`, `add_files` / `add_file` (`-tb`,
/// `-cflags`, `-csimflags`, `-blackbox`, several files, Tcl lists), `set_part`, `create_clock -period`
/// (ns or with a unit such as `250MHz`), `set_clock_uncertainty`, `csim_design` / `config_csim`
/// / `config_sim` (`-argv`, `-ldflags`), `cosim_design -argv`, `source`, `foreach`, `catch`, `cd`, `exit`; `set`, `append`,
/// `lappend` and `unset` keep variables, and `$var` and `[set var]` are substituted from them
/// (`$env(NAME)` from the environment). In brackets, `list`, `concat`, `join`, `file
/// dirname|tail|join|rootname|extension|normalize`, `info script`, `pwd` (taken to be the
/// script's directory) and `string tolower|toupper|trim` are evaluated too. Anything else is kept
/// as written, with a warning. `set_directive_*` commands become [`Project::directives`];
/// `config_compile -pipeline_loops` and `config_dataflow -default_channel` are read, and the rest
/// of the `config_*` commands go to [`Project::other`].
/// Control flow other than `foreach` (`if`, `proc`, ...) is not interpreted.
pub fn parse_tcl(path: &Path) -> Result<Project> {
    let text = read_text(path)?;
    parse_tcl_str(path, &text)
}

/// [`parse_tcl`] on text already in memory; `path` names the file (its directory is the root).
/// Scripts pulled in with `source` are still read from disk.
pub fn parse_tcl_str(path: &Path, text: &str) -> Result<Project> {
    parse_tcl_selected(path, text, &Select::default())
}

/// [`parse_tcl_str`] reading the blocks `select` names (see [`load_selected`]).
pub fn parse_tcl_selected(path: &Path, text: &str, select: &Select) -> Result<Project> {
    let mut project = Project::empty(ProjectKind::Tcl, path);
    interp::run(&mut project, text, select)?;
    if let Some(workspace) = workspace_of_solution_script(&project) {
        project = Project::empty(ProjectKind::Tcl, path);
        project.root = workspace;
        interp::run(&mut project, text, select)?;
    }
    for (what, wanted, seen, flag) in [
        ("project or component", &select.component, &project.components, "--component"),
        ("solution", &select.solution, &project.solutions, "--solution"),
    ] {
        if let Some(w) = wanted.as_ref().filter(|w| !seen.contains(w)) {
            let opened = if seen.is_empty() { "none".to_string() } else { seen.join(", ") };
            return Err(Error::new(
                ErrorKind::Usage,
                format!("{flag} {w}: the script opens no {what} of that name (it opens: {opened})"),
            )
            .at(path));
        }
    }
    project.vivado_hls = written_by_vivado_hls(text)
        || project.name.as_ref().is_some_and(|n| resolve(&project.root, n).join("vivado_hls.app").is_file());
    project.finish();
    Ok(project)
}

impl Project {
    /// The tool release the project was run with, when its files say: the banner of the
    /// solution's own log (`<project>/<solution>/<solution>.log`, which Vitis HLS and Vivado HLS
    /// append to at every session: `... OpenCL v2023.2.1 (64-bit)`, the last session's);
    /// else a Vitis unified `hls_config.cfg` is 2023.2 or later (the format came with it); a
    /// `script.tcl` Vitis HLS or Vivado HLS generated names the year in its header (`##
    /// Copyright 1986-2022 Xilinx, Inc.`: `2022`; a year names no release, so 2023, which has
    /// both testbench models, says nothing more than that). `None` for a script written by hand
    /// without a log beside it.
    pub fn tool_version_hint(&self) -> Option<String> {
        if let Some(v) = self.solution_log().and_then(|log| version_in_log(&log)) {
            return Some(v);
        }
        if self.file.extension().is_some_and(|e| e == "cfg") {
            return Some("2023.2".into());
        }
        version_in_header(&std::fs::read_to_string(&self.file).ok()?)
    }

    /// The text of the solution's log, where the project's solution has one: under the
    /// project directory, or the script's own directory when the script sits in the solution
    /// (Vitis' `<solution>/script.tcl`). Read lossily: a log is not always UTF-8.
    fn solution_log(&self) -> Option<String> {
        let solution = self.solution.as_deref()?;
        let log = format!("{solution}.log");
        let mut dirs = Vec::new();
        if let Some(name) = &self.name {
            dirs.push(resolve(&self.root, name).join(solution));
        }
        if let Some(dir) = self.file.parent().filter(|d| d.file_name() == Some(std::ffi::OsStr::new(solution))) {
            dirs.push(dir.to_path_buf());
        }
        dirs.iter().find_map(|d| std::fs::read(d.join(&log)).ok()).map(|b| String::from_utf8_lossy(&b).into_owned())
    }
}

/// The release in the last banner of a Vitis HLS or Vivado HLS log: `Vitis HLS - High-Level
/// Synthesis from C, C++ and OpenCL v2023.2.1 (64-bit)` gives `2023.2.1`, `Vivado(TM) HLS -
/// High-Level Synthesis from C, C++ and SystemC v2018.3 (64-bit)` `2018.3`. Each session
/// writes one; the last is the latest run's.
fn version_in_log(text: &str) -> Option<String> {
    text.lines()
        .rev()
        .filter(|l| l.contains("HLS - High-Level Synthesis from"))
        .find_map(|l| l.split_whitespace().find_map(crate::vitis_tb::release_in_word))
        .map(str::to_string)
}

/// The year of the `Copyright` line in the header Vitis HLS or Vivado HLS writes at the top of
/// a generated script; `None` for a script without that header.
fn version_in_header(text: &str) -> Option<String> {
    let header: Vec<&str> = text.lines().map(str::trim).take_while(|l| l.starts_with('#') || l.is_empty()).collect();
    if !header.iter().any(|l| l.contains("generated automatically by Vi") && l.contains("HLS")) {
        return None;
    }
    let years = header.iter().filter(|l| l.contains("Copyright")).flat_map(|l| {
        l.split(|c: char| !c.is_ascii_digit())
            .filter_map(|w| w.parse::<u32>().ok())
            .filter(|y| (2000..2100).contains(y))
    });
    years.max().map(|y| y.to_string())
}

/// The header Vivado HLS writes at the top of the scripts it generates (`script.tcl`,
/// `directives.tcl`): `## This file is generated automatically by Vivado HLS.` (Vitis HLS
/// writes `... by Vitis HLS.`). Only the leading comment block is looked at.
fn written_by_vivado_hls(text: &str) -> bool {
    text.lines()
        .map(str::trim)
        .take_while(|l| l.starts_with('#') || l.is_empty())
        .any(|l| l.contains("generated automatically by Vivado") && l.contains("HLS"))
}

/// The directory Vitis ran a script from when the script is the `script.tcl` it writes into a
/// solution (`<workspace>/<project>/<solution>/script.tcl`): its paths (`add_files
/// <project>/f.cpp`, `source ./<project>/<solution>/directives.tcl`) are relative to the
/// workspace, not to the script. Recognised by the script's own `open_project` and
/// `open_solution` naming the two directories it sits in.
fn workspace_of_solution_script(p: &Project) -> Option<PathBuf> {
    let (name, solution) = (p.name.as_deref()?, p.solution.as_deref()?);
    let solution_dir = p.file.parent()?;
    let project_dir = solution_dir.parent()?;
    let name = Path::new(name);
    let named = |dir: &Path, want: &std::ffi::OsStr| dir.file_name() == Some(want);
    (name.is_relative()
        && name.components().count() == 1
        && named(solution_dir, std::ffi::OsStr::new(solution))
        && named(project_dir, name.as_os_str()))
    .then(|| project_dir.parent().map(Path::to_path_buf))
    .flatten()
}

/// Which list of files an entry goes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FileSet {
    Syn,
    Tb,
}

impl Project {
    fn empty(kind: ProjectKind, path: &Path) -> Project {
        let file = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        let root = file.parent().map(Path::to_path_buf).unwrap_or_else(|| PathBuf::from("."));
        Project {
            kind,
            file,
            root,
            name: None,
            top: None,
            sources: Vec::new(),
            testbench: Vec::new(),
            cflags: Vec::new(),
            csimflags: Vec::new(),
            tb_cflags: Vec::new(),
            clock_ns: None,
            clock_uncertainty: None,
            part: None,
            platform: None,
            flow_target: None,
            m_axi_latency: None,
            solution: None,
            blackbox: Vec::new(),
            csim_argv: None,
            cosim_argv: None,
            cosim_random_stall: false,
            csim_ldflags: Vec::new(),
            directives: Vec::new(),
            pipeline_loops: None,
            vivado_hls: false,
            dataflow_default_channel: None,
            other: Vec::new(),
            warnings: Vec::new(),
            components: Vec::new(),
            solutions: Vec::new(),
            csim_optimize: false,
            notes: Vec::new(),
        }
    }

    /// Warnings about the project as a whole, once everything is read.
    fn finish(&mut self) {
        let file = self.file.clone();
        for (what, all, read, flag) in [
            ("projects or components", &self.components, &self.name, "--component"),
            ("solutions", &self.solutions, &self.solution, "--solution"),
        ] {
            if all.len() > 1 {
                let read = read.clone().unwrap_or_default();
                let others: Vec<&str> = all.iter().map(String::as_str).filter(|n| *n != read).collect();
                let msg = format!(
                    "the script opens {} {what}; `{read}` is read (the others: {}; choose one with {flag} NAME)",
                    all.len(),
                    others.join(", ")
                );
                self.notes.push(msg);
            }
        }
        if self.top.is_none() {
            let hint = match self.kind {
                ProjectKind::Cfg => "add `syn.top=<function>` under [hls]",
                ProjectKind::Tcl => "add `set_top <function>` after open_project",
            };
            self.warn(&file, None, format!("no top function: {hint}"));
        }
        if self.sources.is_empty() {
            let hint = match self.kind {
                ProjectKind::Cfg => "add `syn.file=<path>` lines under [hls]",
                ProjectKind::Tcl => "add `add_files <path>` commands",
            };
            self.warn(&file, None, format!("no synthesis source files: {hint}"));
        }
    }

    pub(crate) fn warn(&mut self, path: &Path, line_col: Option<(usize, usize)>, message: impl Into<String>) {
        let w = Warning { path: path.to_path_buf(), line_col, message: message.into() };
        if self.warnings.len() > MAX_WARNINGS || self.warnings.contains(&w) {
            return;
        }
        if self.warnings.len() == MAX_WARNINGS {
            let more = Warning {
                path: self.file.clone(),
                line_col: None,
                message: format!("more than {MAX_WARNINGS} warnings; the rest are not shown"),
            };
            self.warnings.push(more);
            return;
        }
        self.warnings.push(w);
    }

    /// Add a file to the sources or the testbench. A file added twice is kept once, with the flags
    /// of both entries. A file that does not exist is kept, with a warning.
    /// `path` is already resolved; `base` is what it was resolved against (for the message).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn add_file(
        &mut self,
        set: FileSet,
        path: PathBuf,
        base: &Path,
        cflags: Vec<String>,
        csimflags: Vec<String>,
        from: &Path,
        at: Option<(usize, usize)>,
    ) {
        let mut path = path;
        if !path.exists() {
            if let Some(found) = relocate(&path, base, &[base, &self.root]) {
                let msg = format!(
                    "{} does not exist here (written for another machine or layout?); using {}, the file \
                     with the same trailing path below the project",
                    path.display(),
                    found.display()
                );
                self.warn(from, at, msg);
                path = found;
            } else {
                let msg = format!(
                    "file not found: {} (relative paths are resolved against {})",
                    path.display(),
                    base.display()
                );
                self.warn(from, at, msg);
            }
        }
        let key = normalize(&path);
        let list = match set {
            FileSet::Syn => &mut self.sources,
            FileSet::Tb => &mut self.testbench,
        };
        if let Some(existing) = list.iter_mut().find(|f| normalize(&f.path) == key) {
            existing.cflags.extend(cflags);
            existing.csimflags.extend(csimflags);
            let msg = format!("{} is added twice; it is kept once", path.display());
            self.warn(from, at, msg);
            return;
        }
        let is_source = crate::source::is_cxx_path(&path);
        list.push(SourceFile { path, cflags, csimflags, is_source });
    }

    /// The top function, or an error that says how to name one.
    pub fn require_top(&self) -> Result<&str> {
        self.top.as_deref().ok_or_else(|| {
            let hint = match self.kind {
                ProjectKind::Cfg => "add `syn.top=<function>` under [hls]",
                ProjectKind::Tcl => "add `set_top <function>` to the script",
            };
            Error::new(ErrorKind::BadInput, format!("the project names no top function: {hint}")).at(&self.file)
        })
    }

    /// Is there enough to run a C simulation? A top function, at least one synthesis source, a
    /// testbench source to provide `main`, and every listed file present. The error says what to
    /// add or fix.
    pub fn check(&self) -> Result<()> {
        self.require_top()?;
        let (src_hint, tb_hint) = match self.kind {
            ProjectKind::Cfg => ("add `syn.file=<path>` under [hls]", "add `tb.file=<path>` under [hls]"),
            ProjectKind::Tcl => ("add `add_files <path>`", "add `add_files -tb <path>`"),
        };
        let err = |msg: String| Err(Error::new(ErrorKind::BadInput, msg).at(&self.file));
        if self.sources.is_empty() {
            return err(format!("the project lists no synthesis source files: {src_hint}"));
        }
        if !self.testbench.iter().any(SourceFile::is_compiled) {
            return err(format!(
                "the project lists no testbench source (C simulation needs its `main`): {tb_hint}, or name it with \
                 `sim --tb <path>`"
            ));
        }
        let missing: Vec<String> = self
            .sources
            .iter()
            .chain(&self.testbench)
            .map(|f| &f.path)
            .chain(&self.blackbox)
            .filter(|p| !p.exists())
            .map(|p| p.display().to_string())
            .collect();
        if !missing.is_empty() {
            // A blackbox descriptor is often left out of a commit (Vitis' blackbox wizard writes
            // it): say what it is for and the way around it.
            let blackbox = if self.blackbox.iter().any(|p| !p.exists()) {
                "; a missing RTL blackbox descriptor (JSON) names the C model C simulation compiles in the RTL \
                 module's place: write it (UG1399, \"Adding RTL Blackbox Functions\"), or pass the model with \
                 `sim --tb <model.cpp>`, which then runs without the descriptor"
            } else {
                ""
            };
            return err(format!(
                "the project lists files that do not exist: {} (relative paths are resolved against {}; fix the paths \
                 or run from the directory Vitis is run from{blackbox})",
                missing.join(", "),
                self.root.display()
            ));
        }
        Ok(())
    }

    /// The clock period in ns, Vitis's default (10 ns) when the project sets none.
    pub fn clock_ns_or_default(&self) -> f64 {
        self.clock_ns.unwrap_or(DEFAULT_CLOCK_NS)
    }

    /// All flags to compile synthesis source `file` for C simulation: global `syn.cflags` and
    /// `syn.csimflags`, then the file's own; relative include and library paths made absolute.
    pub fn source_flags(&self, file: &SourceFile) -> Vec<String> {
        let all: Vec<String> =
            self.cflags.iter().chain(&self.csimflags).chain(&file.cflags).chain(&file.csimflags).cloned().collect();
        absolutize_flags(&self.root, &all)
    }

    /// All flags to compile testbench `file`: global `tb.cflags`, then the file's own; relative
    /// include and library paths made absolute.
    pub fn testbench_flags(&self, file: &SourceFile) -> Vec<String> {
        let all: Vec<String> = self.tb_cflags.iter().chain(&file.cflags).chain(&file.csimflags).cloned().collect();
        absolutize_flags(&self.root, &all)
    }

    /// The trip-count threshold of automatic loop pipelining this project's tool applies: the
    /// project's own setting; else 0 (none) for a Vivado HLS project, whose `config_compile
    /// -pipeline_loops` defaults to 0 (UG902; on a public Vivado HLS 2019.1 design with a
    /// 2-cycle loop body, the report and co-sim show the innermost loop not pipelined); else
    /// `None`: Vitis' default (64).
    pub fn pipeline_threshold(&self) -> Option<u64> {
        self.pipeline_loops.or(self.vivado_hls.then_some(0))
    }

    /// The cycles a pipelined loop's own module adds around it, where this project's tool makes
    /// none: 0 for Vivado HLS and for Vitis before 2021, whose pipelined loops are states of
    /// their function (no `<func>_Pipeline_<loop>` module in any such report: public Vivado HLS
    /// 2016.4 to 2019.1 designs, Vitis 2020.1 and 2020.2 ones; from 2021.2 on they have them,
    /// rule 3). `None`: Vitis' 2, or the release is unknown.
    pub fn pipeline_wrapper(&self) -> Option<u64> {
        self.vivado_hls_or_before(2021).then_some(0)
    }

    /// Whether this project's tool pipelines a small innermost loop of a perfect nest itself and
    /// flattens the nest, instead of unrolling it into its parent: Vitis releases before 2023
    /// (`sim::timing::Defaults::flatten_small_perfect_nests`). `false` when the release is not
    /// known (the 2023.2 rule, as before) and for Vivado HLS (no automatic pipelining).
    pub fn flattens_small_perfect_nests(&self) -> bool {
        let release = || self.tool_version_hint()?.get(..4)?.parse::<u32>().ok();
        !self.vivado_hls && release().is_some_and(|y| y < 2023)
    }

    /// Whether Vivado HLS wrote this project, or its release (the solution log's, else the
    /// script's copyright year) is before `year`.
    fn vivado_hls_or_before(&self, year: u32) -> bool {
        let release = || self.tool_version_hint()?.get(..4)?.parse::<u32>().ok();
        self.vivado_hls || release().is_some_and(|y| y < year)
    }

    /// The cycles a top with AXI interfaces adds beyond its children, where this project's tool
    /// adds no more than any module: Vivado HLS (and any release before 2020). Its reports put
    /// such a top 1 or 2 cycles over its loops (public designs: 2018.3 `doGain`, axis and
    /// s_axilite, 1001 → 1003; 2019.2 `cordic`, s_axilite, 32 → 34; 2019.2 `matrixmul`,
    /// s_axilite, 264256 → 264257), where Vitis' are about 13 over (rule 11). `None`: Vitis'.
    pub fn axi_top_overhead(&self) -> Option<u64> {
        self.vivado_hls_or_before(2020).then_some(2)
    }

    /// Whether this project's tool gives a loop's exit test states of its own after the last
    /// iteration (1, 2 after a pipeline), with no handshake around a function of loops: Vivado
    /// HLS and releases before 2020 (their reports: `sim::timing::exit_states`).
    pub fn loop_exit_states(&self) -> bool {
        self.vivado_hls_or_before(2020)
    }

    /// Whether this project's tool inlines, without being told, a function with loops that the
    /// design calls from one place: Vitis does (its 2020.2 to 2023.2 reports,
    /// `sim::timing::single_call`), Vivado HLS keeps some such functions (`false`).
    pub fn inlines_single_calls(&self) -> bool {
        !self.vivado_hls_or_before(2020)
    }

    /// The m_axi latency, in cycles, that the project sets, else that Vitis schedules for when nothing sets it
    /// (`syn.interface.m_axi_latency`, UG1399 "Default Settings of Vivado/Vitis Flows", 2020.2 to
    /// 2023.2): 0 for the Vivado IP flow, 64 for the Vitis kernel flow; Vivado HLS' INTERFACE
    /// latency is 0 by default too. `None` when the project names neither.
    pub fn maxi_latency_default(&self) -> Option<u64> {
        if self.m_axi_latency.is_some() {
            return self.m_axi_latency;
        }
        match self.flow_target.as_deref() {
            Some("vitis") => Some(64),
            Some("vivado") => Some(0),
            _ => self.vivado_hls.then_some(0),
        }
    }

    /// Directories where Vitis writes the synthesis reports (`csynth.xml`, `<top>_csynth.xml`)
    /// for this project, most likely first. None of them needs to exist.
    ///
    /// * Tcl: `<root>/<project>/<solution>/syn/report`. Without `open_solution`, every
    ///   `<project>/*/syn/report` found on disk, then `<project>/solution1/syn/report`. A project
    ///   opened with `open_component <c>` (unified flow from Tcl) writes `<root>/<c>/hls/syn/report`.
    /// * Config files: the work directory is chosen on the command line (`--work_dir`), not in the
    ///   file. The Vitis IDE keeps the config at `<workspace>/<component>/hls_config.cfg` and
    ///   builds in `<workspace>/<component>/<component>` (UG1399, "Output of C Synthesis"), so
    ///   the candidates are `<root>/<root's name>/hls/syn/report`, `<root>/hls/syn/report`
    ///   (`--work_dir .`), `<root>/<top>/hls/syn/report`, then any `<root>/*/hls/syn/report` on disk.
    pub fn solution_dirs(&self) -> Vec<PathBuf> {
        let mut out: Vec<PathBuf> = Vec::new();
        match self.kind {
            ProjectKind::Tcl => {
                let Some(name) = &self.name else { return out };
                let project = resolve(&self.root, name);
                match &self.solution {
                    Some(solution) => out.push(project.join(solution).join("syn").join("report")),
                    None => {
                        out.push(project.join("hls").join("syn").join("report"));
                        out.extend(subdirs_with(&project, &["syn", "report"]));
                        out.push(project.join("solution1").join("syn").join("report"));
                    }
                }
            }
            ProjectKind::Cfg => {
                let report = |dir: PathBuf| dir.join("hls").join("syn").join("report");
                if let Some(name) = self.root.file_name() {
                    out.push(report(self.root.join(name)));
                }
                out.push(report(self.root.clone()));
                if let Some(top) = &self.top {
                    out.push(report(self.root.join(top)));
                }
                out.extend(subdirs_with(&self.root, &["hls", "syn", "report"]));
            }
        }
        let mut seen = std::collections::HashSet::new();
        out.retain(|p| seen.insert(normalize(p)));
        out
    }
}

impl Project {
    /// Where Vitis runs the testbench in C simulation (UG1399, "Output of C Simulation"); it
    /// need not exist. Tcl: `<project>/<solution>/csim/build` (without `open_solution`, a
    /// unified component's `<project>/hls/csim/build` when that folder is there, else
    /// `solution1`'s). Config files: the Vitis IDE's `<root>/<root's name>/hls/csim/build`, the
    /// layout its csim logs show (`Compiling ../../../../../src/main.cpp` for a config file one
    /// level below the sources). `None` for a script that opens no project.
    pub fn csim_build_dir(&self) -> Option<PathBuf> {
        let solution = match self.kind {
            ProjectKind::Tcl => {
                let project = normalize(&resolve(&self.root, self.name.as_deref()?));
                match &self.solution {
                    Some(s) => project.join(s),
                    None if project.join("hls").is_dir() => project.join("hls"),
                    None => project.join("solution1"),
                }
            }
            ProjectKind::Cfg => self.root.join(self.root.file_name()?).join("hls"),
        };
        Some(solution.join("csim").join("build"))
    }
}

/// `<dir>/*/<tail...>` that exist, sorted.
fn subdirs_with(dir: &Path, tail: &[&str]) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut found: Vec<PathBuf> = entries
        .filter_map(|e| e.ok())
        .map(|e| tail.iter().fold(e.path(), |p, t| p.join(t)))
        .filter(|p| p.is_dir())
        .collect();
    found.sort();
    found
}

/// Read a project file as text, refusing what cannot be one.
pub(crate) fn read_text(path: &Path) -> Result<String> {
    let meta = std::fs::metadata(path).map_err(|e| {
        Error::new(
            ErrorKind::Io,
            format!("cannot read the project file: {e}; pass the path of hls_config.cfg or of the Tcl script given to vitis_hls -f"),
        )
        .at(path)
    })?;
    if meta.is_dir() {
        return Err(Error::new(ErrorKind::BadInput, "is a directory, not a project file").at(path));
    }
    if meta.len() > MAX_PROJECT_BYTES {
        return Err(Error::new(
            ErrorKind::BadInput,
            format!("{} bytes is too big for a project file; is this the right file?", meta.len()),
        )
        .at(path));
    }
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, &e))?;
    if let Some(pos) = bytes.iter().position(|&b| b == 0) {
        let (l, c) = line_col(&String::from_utf8_lossy(&bytes[..pos]), pos.min(bytes.len()));
        return Err(Error::new(ErrorKind::BadInput, "binary file (NUL byte), not a project file")
            .at(path)
            .at_line(l, c));
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        let pos = e.utf8_error().valid_up_to();
        let valid = String::from_utf8_lossy(&e.as_bytes()[..pos]).into_owned();
        let (l, c) = line_col(&valid, valid.len());
        Error::new(ErrorKind::BadInput, "not UTF-8 text; save the project file as UTF-8").at(path).at_line(l, c)
    })?;
    Ok(text.strip_prefix('\u{feff}').map(str::to_string).unwrap_or(text))
}

/// 1-based line and column (in characters) of byte `offset` of `text`.
pub(crate) fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map(|i| i + 1).unwrap_or(0);
    (line, before[line_start..].chars().count() + 1)
}

/// `p` against `root` unless absolute, without `.` components (`..` is kept: lexically folding it
/// would be wrong through symlinks).
pub(crate) fn resolve(root: &Path, p: &str) -> PathBuf {
    let p = Path::new(p);
    let joined = if p.is_absolute() { p.to_path_buf() } else { root.join(p) };
    joined.components().filter(|c| !matches!(c, Component::CurDir)).collect()
}

/// Where a file named by a path of the author's layout is in this checkout. Vitis' GUI writes
/// absolute paths into `hls_config.cfg` and `script.tcl` (`C:/Users/me/proj/src/k.cpp`,
/// `/home/me/proj/src/k.cpp`), or paths that climb out of the component (`../k.cpp`); in a clone
/// laid out otherwise they name nothing. Such a path (as written: absolute, holding a Windows
/// drive, which on Linux resolves as a relative name, or climbing with `..`) is looked for by its
/// trailing components below each of `dirs`, the longest tail first (`proj/src/k.cpp`, then
/// `src/k.cpp`, then `k.cpp`), so the file the author meant wins over a namesake. `path` is the
/// resolved path, `base` what a relative one was resolved against. `None` for a plain relative
/// path, or when no tail exists.
fn relocate(path: &Path, base: &Path, dirs: &[&Path]) -> Option<PathBuf> {
    let written = path.strip_prefix(base).unwrap_or(path);
    let text = written.to_string_lossy();
    let words: Vec<&str> = text.split(['/', '\\']).filter(|w| !w.is_empty() && *w != ".").collect();
    let drive = words.iter().rposition(|w| w.len() == 2 && w.ends_with(':') && w.as_bytes()[0].is_ascii_alphabetic());
    let after = match (drive, words.iter().rposition(|w| *w == "..")) {
        (Some(i), _) => &words[i + 1..],
        (None, Some(up)) => &words[up + 1..],
        (None, None) if written.is_absolute() => &words[..],
        (None, None) => return None,
    };
    (1..=after.len()).rev().find_map(|n| {
        let tail: PathBuf = after[after.len() - n..].iter().collect();
        dirs.iter().map(|d| d.join(&tail)).find(|p| p.is_file())
    })
}

/// A comparison key for paths: `..` folded lexically.
fn normalize(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir if matches!(out.components().next_back(), Some(Component::Normal(_))) => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    out
}

/// The file name of `path`, for directive origins.
pub(crate) fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned())
}

/// `fifo` or `pingpong` (any case), lower case; `None` for anything else.
pub(crate) fn dataflow_channel(v: &str) -> Option<String> {
    let v = v.trim().to_ascii_lowercase();
    matches!(v.as_str(), "fifo" | "pingpong").then_some(v)
}

/// Clock period in ns from `4`, `4ns`, `4.0 ns`, `250MHz`, `0.25GHz`, `4000ps`, ... A bare number
/// is ns. `None` for anything else, zero or negative.
pub fn parse_clock(s: &str) -> Option<f64> {
    let (value, unit) = split_number(s)?;
    let ns = match unit.as_str() {
        "" | "ns" => value,
        "ps" => value / 1e3,
        "us" => value * 1e3,
        "ms" => value * 1e6,
        "s" => value * 1e9,
        "hz" => 1e9 / value,
        "khz" => 1e6 / value,
        "mhz" => 1e3 / value,
        "ghz" => 1.0 / value,
        _ => return None,
    };
    (ns.is_finite() && ns > 0.0).then_some(ns)
}

/// Clock period in ns from a frequency (`freqhz`): a bare number is Hz, or a value with a unit.
pub fn parse_frequency(s: &str) -> Option<f64> {
    match split_number(s)? {
        (hz, unit) if unit.is_empty() => {
            let ns = 1e9 / hz;
            (ns.is_finite() && ns > 0.0).then_some(ns)
        }
        _ => parse_clock(s),
    }
}

fn split_number(s: &str) -> Option<(f64, String)> {
    let s = s.trim();
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'.' || (i == 0 && b[i] == b'+')) {
        i += 1;
    }
    // An exponent, only when digits follow (so `4e` is not eaten from a unit).
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        let mut j = i + 1;
        if j < b.len() && (b[j] == b'+' || b[j] == b'-') {
            j += 1;
        }
        if j < b.len() && b[j].is_ascii_digit() {
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
            i = j;
        }
    }
    let value: f64 = s[..i].parse().ok()?;
    Some((value, s[i..].trim().to_ascii_lowercase()))
}

/// Split a flags string into words as a POSIX shell would: blanks separate, `'...'` is literal,
/// `"..."` takes `\"`, `\\`, `\$` and `` \` `` escapes, a backslash outside quotes escapes the next
/// character. Returns the words and whether a quote was left open (its text is kept).
pub fn split_flags(s: &str) -> (Vec<String>, bool) {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = s.chars().peekable();
    let mut open = false;
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                open = true;
                for c in chars.by_ref() {
                    if c == '\'' {
                        open = false;
                        break;
                    }
                    cur.push(c);
                }
            }
            '"' => {
                in_word = true;
                open = true;
                while let Some(c) = chars.next() {
                    match c {
                        '"' => {
                            open = false;
                            break;
                        }
                        '\\' => match chars.peek() {
                            Some(&n @ ('"' | '\\' | '$' | '`')) => {
                                cur.push(n);
                                chars.next();
                            }
                            Some('\n') => {
                                chars.next();
                            }
                            _ => cur.push('\\'),
                        },
                        c => cur.push(c),
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next() {
                    Some('\n') => {}
                    Some(n) => cur.push(n),
                    None => cur.push('\\'),
                }
            }
            c => {
                in_word = true;
                cur.push(c);
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    (words, open)
}

/// Make the paths in compiler flags absolute against `root`: `-I`, `-L` (attached or not),
/// `-isystem`, `-iquote`, `-idirafter`, `-include`, `-imacros`. Other flags are kept as they are.
pub fn absolutize_flags(root: &Path, flags: &[String]) -> Vec<String> {
    const SEPARATE: &[&str] = &["-I", "-L", "-isystem", "-iquote", "-idirafter", "-include", "-imacros"];
    let abs = |p: &str| -> String {
        if p.is_empty() || Path::new(p).is_absolute() || p.starts_with('$') {
            p.to_string()
        } else {
            resolve(root, p).display().to_string()
        }
    };
    let mut out = Vec::with_capacity(flags.len());
    let mut i = 0;
    while i < flags.len() {
        let f = &flags[i];
        if SEPARATE.contains(&f.as_str()) && i + 1 < flags.len() {
            out.push(f.clone());
            out.push(abs(&flags[i + 1]));
            i += 2;
            continue;
        }
        match ["-I", "-L"].iter().find(|p| f.len() > 2 && f.starts_with(*p)) {
            Some(prefix) => out.push(format!("{prefix}{}", abs(&f[2..]))),
            None => out.push(f.clone()),
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_release_a_generated_script_names() {
        let vitis = "############################################################\n\
                     ## This file is generated automatically by Vitis HLS.\n\
                     ## Please DO NOT edit it.\n## Copyright 1986-2022 Xilinx, Inc. All Rights Reserved.\n\
                     ############################################################\nopen_project p\n";
        assert_eq!(version_in_header(vitis).as_deref(), Some("2022"));
        let vivado =
            "## This file is generated automatically by Vivado HLS.\n## Copyright (C) 1986-2019 Xilinx, Inc.\n";
        assert_eq!(version_in_header(vivado).as_deref(), Some("2019"));
        assert_eq!(version_in_header("# my script, 2022\nopen_project p\n"), None, "written by hand");
    }

    #[test]
    fn the_release_a_solution_log_names() {
        let vitis = "==============================================================\n\
                     Vitis HLS - High-Level Synthesis from C, C++ and OpenCL v2023.1 (64-bit)\n\
                     Copyright 1986-2022 Xilinx, Inc. All Rights Reserved.\nINFO: [HLS 200-1510] Running: csynth_design\n\
                     ==============================================================\n\
                     Vitis HLS - High-Level Synthesis from C, C++ and OpenCL v2023.2.1 (64-bit)\n\
                     Tool Version Limit: 2023.12\nINFO: [COSIM 212-47] Using XSIM for RTL simulation.\n";
        assert_eq!(version_in_log(vitis).as_deref(), Some("2023.2.1"), "the last session's");
        let vivado = "File generated on Thu Mar 14 09:41:35 -0400 2019\n\
                      Vivado(TM) HLS - High-Level Synthesis from C, C++ and SystemC v2018.3 (64-bit)\n\
                      SW Build 2405991 on Thu Dec  6 23:38:27 MST 2018\n";
        assert_eq!(version_in_log(vivado).as_deref(), Some("2018.3"));
        assert_eq!(version_in_log("INFO: [HLS 200-10] Analyzing design file 'v2.cpp'\n"), None);
    }

    #[test]
    fn clocks() {
        assert_eq!(parse_clock("4"), Some(4.0));
        assert_eq!(parse_clock("4ns"), Some(4.0));
        assert_eq!(parse_clock(" 3.33 ns "), Some(3.33));
        assert_eq!(parse_clock("200MHz"), Some(5.0));
        assert_eq!(parse_clock("250mhz"), Some(4.0));
        assert_eq!(parse_clock("0.25GHz"), Some(4.0));
        assert_eq!(parse_clock("4000ps"), Some(4.0));
        assert_eq!(parse_clock("1e1"), Some(10.0));
        for bad in ["", "ns", "0", "-4", "4 parsecs", "abc", "0MHz", "1e"] {
            assert_eq!(parse_clock(bad), None, "{bad}");
        }
        assert_eq!(parse_frequency("250000000"), Some(4.0));
        assert_eq!(parse_frequency("250MHz"), Some(4.0));
    }

    #[test]
    fn flags_split_like_a_shell() {
        let (w, open) = split_flags(r#"-I../inc  -DSTR="\"hi there\"" '-DA=b c' -D\ X"#);
        assert_eq!(w, ["-I../inc", r#"-DSTR="hi there""#, "-DA=b c", "-D X"]);
        assert!(!open);
        let (w, open) = split_flags("-DX \"unterminated");
        assert_eq!(w, ["-DX", "unterminated"]);
        assert!(open);
        assert!(split_flags("  ").0.is_empty());
    }

    #[test]
    fn include_paths_become_absolute() {
        let flags: Vec<String> =
            ["-I../inc", "-I", "x", "-isystem", "/abs", "-DFOO", "-L.", "-include", "cfg.h", "-Iinc/$V"]
                .map(String::from)
                .to_vec();
        assert_eq!(
            absolutize_flags(Path::new("/p/q"), &flags),
            [
                "-I/p/q/../inc",
                "-I",
                "/p/q/x",
                "-isystem",
                "/abs",
                "-DFOO",
                "-L/p/q",
                "-include",
                "/p/q/cfg.h",
                "-I/p/q/inc/$V"
            ]
        );
    }

    #[test]
    fn paths_resolve_and_normalize() {
        assert_eq!(resolve(Path::new("/r"), "./a/./b.cpp"), PathBuf::from("/r/a/b.cpp"));
        assert_eq!(resolve(Path::new("/r"), "/x/y.cpp"), PathBuf::from("/x/y.cpp"));
        assert_eq!(resolve(Path::new("/r/s"), "../y.cpp"), PathBuf::from("/r/s/../y.cpp"));
        assert_eq!(normalize(Path::new("/r/s/../y.cpp")), PathBuf::from("/r/y.cpp"));
    }

    #[test]
    fn line_col_counts_characters() {
        assert_eq!(line_col("ab\ncé d", 0), (1, 1));
        assert_eq!(line_col("ab\ncé d", 3), (2, 1));
        assert_eq!(line_col("ab\ncé d", 7), (2, 4));
        assert_eq!(line_col("é", 1), (1, 1), "inside a character counts from its start");
    }
}
