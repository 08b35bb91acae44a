//! The rewrite pipeline, in memory: parse → model → select → plan → edit → check.
//! Writing the results is `emit`'s job, so `diff` runs the very same pipeline and writes nothing.
//! The stages run over all files at once (`rewrite_whole`), or a window of files at a time
//! when what is probed in a file depends on that file alone (`rewrite_streamed`); there, a large
//! C++ file goes a piece of top-level items at a time (`in_pieces`).

use crate::edit::{apply_tracked, Change, Edit, Piece};
use crate::emit::manifest::{self, HwBuild, Manifest, ManifestFile, SkipEntry};
use crate::error::{Error, ErrorKind, Result};
use crate::fpga::opencl as opencl_host;
use crate::fpga::vitis::{self, generate::Generated};
use crate::fpga::Target;
use crate::model::{self, FileModel, LoopDetail, Skipped};
use crate::opencl::{self, Blanked};
use crate::parse::{count_errors, parse, Lang};
use crate::plan::{plan_file, PlanTarget, ProbeKind};
use crate::select::{select, FnSelection, Kinds, SelectOptions};
use crate::source::{self, SourceFile};
use crate::strip::{find_marker, strip};
use crate::walk::Input;
use rayon::prelude::*;
use std::sync::atomic::{AtomicUsize, Ordering};
use tree_sitter::{InputEdit, Point, Tree};

mod in_pieces;

#[derive(Debug, Clone)]
pub struct RewriteOptions {
    pub kinds: Kinds,
    pub select: SelectOptions,
    pub target: Target,
}

/// One input file after the pipeline.
#[derive(Debug, Clone)]
pub struct FileOutcome {
    pub source: SourceFile,
    /// The instrumented text (equal to the source when nothing was probed).
    pub output: String,
    pub probes: usize,
}

/// Everything a rewrite produced. Per-file failures are in `errors`; the run went on without them.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub files: Vec<FileOutcome>,
    pub manifest: Manifest,
    pub errors: Vec<Error>,
    /// `(file, function skipped with its reason)`.
    pub skipped: Vec<(String, Skipped)>,
    pub warnings: Vec<String>,
    /// Files the target adds (`--target vitis`: new top, monitor, build files, hls-lib copy;
    /// `.cl` kernels: `hlsinstr_ocl_host.h`).
    pub generated: Vec<Generated>,
}

struct Analyzed {
    source: SourceFile,
    model: FileModel,
    /// The input's syntax tree, kept for an incremental re-parse of the output (see `reparse`).
    tree: Option<Tree>,
    /// OpenCL C: the text the parser saw, with OpenCL-only syntax blanked (see [`opencl`]).
    blanked: Option<Blanked>,
    /// C++: the text the parser saw, when HLS syntax the grammar lacks was blanked (see
    /// [`crate::cpp_blank`]); the model reads the original.
    cpp_blanked: Option<Blanked>,
    /// Where the check may cut the output of a clean input whose tree was not kept (see
    /// [`cut_points`]).
    cuts: Vec<usize>,
}

/// Input trees are kept for the self-check up to this many bytes of source in all (in a run, or
/// in a window of a streamed run). A tree takes about 55 bytes per byte of source (measured on
/// dense C++), every kept tree lives until its file is emitted, and the incremental re-parse
/// holds the output's tree beside it; past the budget the output is parsed from scratch in
/// pieces ([`CHECK_PIECE`]), which gives the same verdict in a fraction of the memory, slower
/// when the probes are sparse.
const KEEP_TREES_UP_TO: usize = 4 << 20;

/// Without the input tree, the output is checked in pieces of about this many bytes of source,
/// each parsed on its own and its tree dropped before the next: the check then holds one
/// piece's tree instead of the whole output's (some 60 bytes per byte of text).
const CHECK_PIECE: usize = 1 << 20;

/// A file whose tree cannot be kept is parsed in pieces of about this many bytes (see
/// [`model_in_pieces`], and [`in_pieces`] where the whole pipeline goes a piece at a time): a
/// tree takes ~55 bytes per byte, a 20 MB file's over 1 GB. The check's cuts are as far apart.
const PARSE_PIECE: usize = CHECK_PIECE;

/// Where the pipeline takes a file a piece at a time: past `keep_trees_up_to` bytes, in pieces
/// of about `piece` bytes. The constants above in a run; tests cut small files into pieces of
/// one item to show that the pieces give the whole file's outcome.
#[derive(Debug, Clone, Copy)]
struct Scale {
    keep_trees_up_to: usize,
    piece: usize,
}

impl Default for Scale {
    fn default() -> Self {
        Scale { keep_trees_up_to: KEEP_TREES_UP_TO, piece: PARSE_PIECE }
    }
}

/// Run the pipeline over the given files. Only option errors (unknown top, bad glob) fail the
/// whole run; a bad file is reported in `Outcome::errors` and left out.
pub fn rewrite(inputs: &[Input], opts: &RewriteOptions) -> Result<Outcome> {
    rewrite_with(inputs, opts, loop_detail(opts.kinds), true)
}

/// The loops whose details the model works out: every loop with the `loops` kind; without it,
/// only loops marked `#pragma HLSINSTR probe` can get probes (see `select`).
pub fn loop_detail(kinds: Kinds) -> LoopDetail {
    if kinds.loops {
        LoopDetail::All
    } else {
        LoopDetail::Marked
    }
}

/// [`rewrite`] with the loop details of the model given instead of derived from the kinds, and
/// without streaming if `may_stream` is false: for the test that shows that neither changes
/// the outcome (`tests/loop_detail.rs`).
#[doc(hidden)]
pub fn rewrite_with(inputs: &[Input], opts: &RewriteOptions, detail: LoopDetail, may_stream: bool) -> Result<Outcome> {
    let sources: Vec<std::result::Result<SourceFile, Error>> =
        inputs.par_iter().map(|i| crate::timings::time("load", || load(i))).collect();
    let aliases = crate::timings::time("aliases", || function_aliases(&sources));
    let mut out = if may_stream && streamable(opts, &sources) {
        rewrite_streamed(sources, opts, detail, Scale::default())
    } else {
        rewrite_whole(sources, opts, detail, &aliases)
    }?;
    manifest::record_vitis_names(&mut out.manifest, &aliases);
    Ok(out)
}

/// The macros of every input that rename an identifier ([`model::aliases`]): a function named
/// by one is known to Vitis by the expansion.
fn function_aliases(sources: &[std::result::Result<SourceFile, Error>]) -> model::aliases::Aliases {
    let scans: Vec<model::aliases::Aliases> =
        sources.par_iter().flatten().map(|s| model::aliases::Aliases::scan([s.text.as_str()])).collect();
    let mut all = model::aliases::Aliases::default();
    for a in scans {
        all.merge(a);
    }
    all
}

/// `opts` with `--top` named as the sources spell it, when it names no function but is what the
/// name of one expands to (`set_top pqcrystals_fips202_ref_sha3_256` for a function defined as
/// `sha3_256` under `#define sha3_256 pqcrystals_fips202_ref_sha3_256`): the rewrite works on
/// the names as written.
fn top_as_written(
    files: &[Analyzed],
    opts: &RewriteOptions,
    aliases: &model::aliases::Aliases,
) -> Option<RewriteOptions> {
    let top = opts.select.top.as_deref()?;
    let functions = || files.iter().flat_map(|a| &a.model.functions);
    if aliases.is_empty() || functions().any(|f| f.name == top || f.qualified == top) {
        return None;
    }
    let mut written: Vec<&str> =
        functions().filter(|f| aliases.expand(&f.name) == Some(top)).map(|f| f.name.as_str()).collect();
    written.sort_unstable();
    written.dedup();
    let [name] = written[..] else { return None };
    Some(RewriteOptions {
        select: SelectOptions { top: Some(name.to_string()), ..opts.select.clone() },
        ..opts.clone()
    })
}

/// The pipeline over all files at once: every file is analysed before any is planned, since
/// what is probed in one file may depend on the others (`--top`, marks, m_axi ports, the Vitis
/// design).
fn rewrite_whole(
    sources: Vec<std::result::Result<SourceFile, Error>>,
    opts: &RewriteOptions,
    detail: LoopDetail,
    aliases: &model::aliases::Aliases,
) -> Result<Outcome> {
    let mut errors = Vec::new();
    let mut files = analyze_all(sources, opts, detail, &mut errors);
    let written = top_as_written(&files, opts, aliases);
    let opts = written.as_ref().unwrap_or(opts);
    let mut warnings = Vec::new();
    let selection = crate::timings::time("select", || select_files(&mut files, opts))?;
    let vitis_build = matches!(opts.target, Target::Vitis(_));
    let cpp_watch = match &opts.select.watch {
        Some(w) if files.iter().any(|a| a.blanked.is_some()) => {
            check_watch(&files, w)?;
            None
        }
        Some(w) => Some(cpp_watch(&files, w, opts, vitis_build)?),
        None => None,
    };
    // The manifest describes the C++ watch with its resolved bound.
    let resolved;
    let opts = match &cpp_watch {
        Some(c) => {
            resolved = RewriteOptions {
                select: SelectOptions { watch: Some(c.spec.clone()), ..opts.select.clone() },
                ..opts.clone()
            };
            &resolved
        }
        None => opts,
    };
    let stall_lines = stall_lines(&files, &opts.select.stall)?;

    // Ids are handed out in file order, then source order: the same whatever the thread count.
    let mut next_id = 0u32;
    let mut plans = Vec::with_capacity(files.len());
    let vitis_opts = match &opts.target {
        Target::Vitis(v) => Some(v),
        Target::Csim => None,
    };
    let top = opts.select.top.as_deref();
    if vitis_opts.is_some() && top.is_none() {
        return Err(Error::new(ErrorKind::Usage, "--target vitis needs --top: the new top wraps it"));
    }
    if vitis_opts.is_some() {
        if let Some(a) = files.iter().find(|a| a.blanked.is_some()) {
            return Err(Error::new(
                ErrorKind::Usage,
                format!(
                    "{}: --target vitis is for Vitis HLS C++; rewrite OpenCL C (.cl) files without it",
                    a.source.path.display()
                ),
            ));
        }
    }
    let plan_target = PlanTarget {
        vitis: vitis_opts.is_some(),
        top,
        opencl: false,
        watch: opts.select.watch.as_ref(),
        stall: &[],
        cpp_watch: cpp_watch.as_ref(),
        piece: false,
    };
    let mut skipped = Vec::new();
    for ((a, sel), stall) in files.iter().zip(&selection).zip(&stall_lines) {
        let target = PlanTarget { opencl: a.blanked.is_some(), stall, ..plan_target };
        let plan =
            crate::timings::time("plan", || plan_file(&a.source, &a.model, sel, opts.kinds, target, &mut next_id));
        diagnose(&a.source, &a.model, &plan, opts.select.top.as_deref(), &mut skipped, &mut warnings);
        plans.push(plan);
    }
    if let (Some(_), Some(c)) = (vitis_opts, &cpp_watch) {
        let watched = plans.iter().flat_map(|p| &p.probes).any(|p| p.kind == ProbeKind::Watch);
        if !watched {
            let why: Vec<&str> = warnings
                .iter()
                .filter(|w| w.contains("not watched in the in-FPGA build"))
                .map(String::as_str)
                .collect();
            return Err(Error::new(
                ErrorKind::Usage,
                format!(
                    "--probes watch --target vitis: no access that may touch `{}` has a known place in it, so nothing is watched in the in-FPGA build ({}); pass the buffer (or buffer + a constant) to the callees, or watch in C simulation without --target vitis",
                    c.spec.buffer,
                    if why.is_empty() { "no access to it".to_string() } else { why.join("; ") }
                ),
            ));
        }
    }
    let design = match (vitis_opts, top) {
        (Some(v), Some(top)) => {
            let pairs: Vec<(&SourceFile, &FileModel)> = files.iter().map(|a| (&a.source, &a.model)).collect();
            Some(vitis::plumb(&pairs, &mut plans, opts.kinds, top, v)?)
        }
        _ => None,
    };

    let emitted = emit_all(&mut files, &plans);
    let mut manifest = new_manifest(opts, &skipped);
    let mut generated = Vec::new();
    let mut outcomes = Vec::new();
    crate::timings::time("collect (manifest entries)", || {
        collect(emitted, files, &plans, opts, &mut manifest, &mut outcomes, &mut errors)
    });
    if let (Some(d), Some(v)) = (&design, vitis_opts) {
        if !errors.is_empty() {
            return Err(Error::new(
                ErrorKind::BadInput,
                format!("{} (the in-FPGA build needs every file of the design)", errors[0]),
            ));
        }
        let key = manifest::hw_key(&d.slots, &manifest.probes);
        manifest.hw = Some(HwBuild {
            target: "vitis".into(),
            top: d.top.name.clone(),
            instr_top: d.instr_top.clone(),
            key: format!("{key:016x}"),
            fifo_depth: d.fifo_depth,
            timestamps: d.timestamps,
            slots: d.slots.clone(),
            derived: d.derived.clone(),
            generated: Vec::new(),
            trace: trace_layout(
                d,
                v,
                manifest.branches.as_ref(),
                &manifest.probes,
                opts.select.watch.as_ref(),
                next_id,
            )?,
        });
        let trace = manifest.hw.as_ref().and_then(|h| h.trace.clone());
        generated = vitis::generate::generate(d, key, &manifest.probes, v, trace.as_ref())?;
        if let Some(hw) = manifest.hw.as_mut() {
            hw.generated = generated.iter().map(|g| g.path.clone()).collect();
        }
    }
    if design.is_none() {
        add_opencl_host_header(&outcomes, &mut manifest, &mut generated)?;
    }
    crate::timings::time("resolve initialisers", || resolve_initialisers(&mut manifest, &outcomes));
    Ok(Outcome { files: outcomes, manifest, errors, skipped, warnings, generated })
}

/// The trace buffer of a Vitis build with record sites (branch sites, watch sites): its size,
/// mode and record layout. `value_id` is the first id no probe took: the watch value records'.
fn trace_layout(
    d: &vitis::HwDesign,
    v: &vitis::VitisOptions,
    branches: Option<&manifest::BranchTrace>,
    probes: &[manifest::ProbeEntry],
    watch: Option<&crate::select::WatchSpec>,
    value_id: u32,
) -> Result<Option<manifest::HwTrace>> {
    if !d.trace {
        return Ok(None);
    }
    let none = manifest::BranchTrace::default();
    let b = branches.unwrap_or(&none);
    let watch_sites: Vec<&manifest::ProbeEntry> = probes.iter().filter(|p| p.kind == "watch").collect();
    let hw_watch = match (watch, watch_sites.is_empty()) {
        (Some(w), false) => {
            let (a, z) = w.covered();
            let (vmin, vmax) = w.invariant.as_ref().map_or((i64::MIN, i64::MAX), |i| (i.vmin, i.vmax));
            Some(manifest::HwWatch { value_id, range: [a, z], bound: w.bound.unwrap_or(0), vmin, vmax, hits: w.hits() })
        }
        _ => None,
    };
    let top_id = hw_watch.as_ref().map_or(0, |w| w.value_id);
    let id_bits = b.id_bits.max(32 - top_id.leading_zeros()).max(1);
    let loop_exits = b.sites.iter().any(|s| s.kind == "loop_exit");
    let value_bits = if loop_exits || hw_watch.is_some() { vitis::TRACE_VALUE_BITS } else { 0 };
    let delta_bits = if d.timestamps { vitis::TRACE_DELTA_BITS } else { 0 };
    if id_bits + value_bits + delta_bits > 64 {
        return Err(Error::new(
            ErrorKind::Usage,
            format!("{id_bits}-bit site ids do not fit a 64-bit trace record with a 32-bit value and a cycle delta: trace fewer functions (--only) or drop timestamps"),
        ));
    }
    let layout = (id_bits, value_bits, delta_bits);
    let key = match &hw_watch {
        Some(w) => manifest::trace_key_with_watch(b, layout, &watch_sites, w.value_id),
        None => manifest::trace_key(b, layout),
    };
    Ok(Some(manifest::HwTrace {
        key: format!("{key:016x}"),
        depth: v.trace_depth,
        records: v.trace_records,
        mode: if v.trace_wrap { "wrap" } else { "linear" }.into(),
        id_bits,
        value_bits,
        delta_bits,
        watch: hw_watch,
    }))
}

/// Whether the selection of each function depends on its own file alone, so files can be
/// planned and emitted a few at a time ([`rewrite_streamed`]): no `--top` (what it reaches
/// spans files), no m_axi ports (bound across calls), no watch or stall options (checked against
/// every file), C simulation (the Vitis plumbing sees the whole design), and no `#pragma
/// HLSINSTR` in any input (a function or loop marked `probe` anywhere changes what is probed
/// everywhere; the word is looked for anywhere in the text, which is enough).
fn streamable(opts: &RewriteOptions, sources: &[std::result::Result<SourceFile, Error>]) -> bool {
    let (k, s) = (opts.kinds, &opts.select);
    let local = s.top.is_none() && s.watch.is_none() && s.stall.is_empty() && !(k.maxi || k.watch || k.stall);
    local
        && matches!(opts.target, Target::Csim)
        && sources.iter().flatten().all(|source| !source.text.contains("HLSINSTR"))
}

/// The pipeline a window of files at a time, for runs whose selection is per file (see
/// [`streamable`]); the outcome is the one of [`rewrite_whole`]. Each input tree is
/// re-parsed for the check soon after it was built, while it is still in the cache, and only a
/// window's trees are alive at once (instead of hundreds of megabytes of them): 1 file with 1
/// thread, 4 per thread with more, so that threads wait little for each other at the end of a
/// window. A C++ file too large to keep its tree goes alone, a piece at a time
/// ([`in_pieces`]), so that memory is bounded by the piece, not the file.
fn rewrite_streamed(
    sources: Vec<std::result::Result<SourceFile, Error>>,
    opts: &RewriteOptions,
    detail: LoopDetail,
    scale: Scale,
) -> Result<Outcome> {
    // Option errors (a bad `--only` glob) fail the run as they do after analysing every file.
    select(&[], opts.kinds, &opts.select)?;
    let threads = rayon::current_num_threads();
    let window = if threads == 1 { 1 } else { 4 * threads };
    let (mut load_errors, mut emit_errors) = (Vec::new(), Vec::new());
    let (mut skipped, mut warnings, mut outcomes) = (Vec::new(), Vec::new(), Vec::new());
    let mut manifest = new_manifest(opts, &[]);
    let mut next_id = 0u32;
    let mut sources = sources.into_iter().peekable();
    let large = |s: &std::result::Result<SourceFile, Error>| s.as_ref().is_ok_and(|s| in_pieces::wanted(s, scale));
    while let Some(first) = sources.next() {
        let first = match first {
            Ok(source) if in_pieces::wanted(&source, scale) => {
                match in_pieces::rewrite(source, opts, detail, next_id, scale) {
                    in_pieces::Piecewise::Done(source, p) => {
                        next_id = p.next_id;
                        skipped.extend(p.skipped);
                        warnings.extend(p.warnings);
                        add_entries(&mut manifest, p.entries);
                        if let Some(b) = p.branches {
                            manifest.branches.get_or_insert_with(Default::default).append(b);
                        }
                        manifest.files.push(p.mfile);
                        outcomes.push(FileOutcome { source, output: p.output, probes: p.counted });
                        continue;
                    }
                    in_pieces::Piecewise::Whole(source) => Ok(source),
                }
            }
            other => other,
        };
        let mut chunk = vec![first];
        while chunk.len() < window && sources.peek().is_some_and(|s| !large(s)) {
            chunk.extend(sources.next());
        }
        let mut files = analyze_all(chunk, opts, detail, &mut load_errors);
        let selection = crate::timings::time("select", || select_files(&mut files, opts))?;
        let mut plans = Vec::with_capacity(files.len());
        for (a, sel) in files.iter().zip(&selection) {
            let target = PlanTarget { opencl: a.blanked.is_some(), ..PlanTarget::default() };
            let plan =
                crate::timings::time("plan", || plan_file(&a.source, &a.model, sel, opts.kinds, target, &mut next_id));
            diagnose(&a.source, &a.model, &plan, opts.select.top.as_deref(), &mut skipped, &mut warnings);
            plans.push(plan);
        }
        let emitted = emit_all(&mut files, &plans);
        crate::timings::time("collect (manifest entries)", || {
            collect(emitted, files, &plans, opts, &mut manifest, &mut outcomes, &mut emit_errors)
        });
    }
    manifest.skipped = skipped.iter().map(|(f, s)| SkipEntry::new(f, s)).collect();
    let mut generated = Vec::new();
    add_opencl_host_header(&outcomes, &mut manifest, &mut generated)?;
    load_errors.append(&mut emit_errors);
    crate::timings::time("resolve initialisers", || resolve_initialisers(&mut manifest, &outcomes));
    Ok(Outcome { files: outcomes, manifest, errors: load_errors, skipped, warnings, generated })
}

/// Analyses `sources` in parallel, with a budget of kept trees of their own; the files that could
/// be read, in order, and the errors of the others appended to `errors`.
fn analyze_all(
    sources: Vec<std::result::Result<SourceFile, Error>>,
    opts: &RewriteOptions,
    detail: LoopDetail,
    errors: &mut Vec<Error>,
) -> Vec<Analyzed> {
    let tree_budget = AtomicUsize::new(KEEP_TREES_UP_TO);
    let analyzed: Vec<std::result::Result<Analyzed, Error>> = sources
        .into_par_iter()
        .map(|source| crate::timings::time("analyze", || analyze(source, opts.kinds, detail, &tree_budget)))
        .collect();
    let mut files = Vec::with_capacity(analyzed.len());
    for a in analyzed {
        match a {
            Ok(a) => files.push(a),
            Err(e) => errors.push(e),
        }
    }
    files
}

/// What is probed in each function of `files`. `select` wants the models side by side: they are
/// lent to it instead of copied.
fn select_files(files: &mut [Analyzed], opts: &RewriteOptions) -> Result<Vec<Vec<FnSelection>>> {
    let models: Vec<FileModel> = files.iter_mut().map(|a| std::mem::take(&mut a.model)).collect();
    let selection = select(&models, opts.kinds, &opts.select);
    for (a, m) in files.iter_mut().zip(models) {
        a.model = m;
    }
    selection
}

/// The skipped functions and the warnings of one planned file, in the order they are reported:
/// the model's skips, then the functions the plan dropped; the model's warnings, then the
/// plan's (a file rewritten in pieces joins its pieces' lists in that order).
fn diagnose(
    source: &SourceFile,
    model: &FileModel,
    plan: &crate::plan::FilePlan,
    top: Option<&str>,
    skipped: &mut Vec<(String, Skipped)>,
    warnings: &mut Vec<String>,
) {
    for s in model.skipped.iter() {
        let mut s = s.clone();
        let is_top = top.is_some_and(|t| s.function == t || s.function.rsplit("::").next() == Some(t));
        if is_top {
            // Said here, where the skip is reported: select went on from what the top calls.
            s.reason.push_str("; it is the --top function: what it calls is probed");
        }
        skipped.push((source.rel.clone(), s));
    }
    for (fi, reason) in &plan.dropped {
        let f = &model.functions[*fi];
        let s = Skipped { function: f.qualified.clone(), line: f.line, col: f.col, reason: reason.clone() };
        skipped.push((source.rel.clone(), s));
    }
    for w in &model.warnings {
        warnings.push(format!("{}:{}:{}: warning: {}", source.path.display(), w.line, w.col, w.reason));
    }
    warnings.extend(uncounted_warnings(source, model, plan));
    let path = source.path.display();
    warnings.extend(plan.warnings.iter().map(|(line, col, w)| format!("{path}:{line}:{col}: warning: {w}")));
    if source.text.is_empty() {
        warnings.push(format!("{}: empty file, copied unchanged", source.path.display()));
    }
}

/// Apply every plan and check the results, in parallel (see [`emit_file`]).
fn emit_all(
    files: &mut [Analyzed],
    plans: &[crate::plan::FilePlan],
) -> Vec<std::result::Result<(String, ManifestFile), Error>> {
    let trees: Vec<Option<Tree>> = files.iter_mut().map(|a| a.tree.take()).collect();
    files
        .par_iter()
        .zip(plans.par_iter())
        .zip(trees.into_par_iter())
        .map(|((a, plan), tree)| crate::timings::time("emit", || emit_file(a, plan, tree)))
        .collect()
}

/// Element counts of the initialisers, from the constants of every rewritten file.
fn resolve_initialisers(manifest: &mut Manifest, outcomes: &[FileOutcome]) {
    let consts = crate::model::consts::Constants::scan(outcomes.iter().map(|o| o.source.text.as_str()));
    manifest::resolve_initialisers(manifest, &consts);
}

fn new_manifest(opts: &RewriteOptions, skipped: &[(String, Skipped)]) -> Manifest {
    Manifest {
        format: manifest::FORMAT.into(),
        version: manifest::VERSION,
        tool: format!("hlsinstr {}", env!("CARGO_PKG_VERSION")),
        kinds: opts.kinds.names().iter().map(|s| s.to_string()).collect(),
        top: opts.select.top.clone(),
        files: Vec::new(),
        probes: Vec::new(),
        skipped: skipped.iter().map(|(f, s)| SkipEntry::new(f, s)).collect(),
        hw: None,
        generated: Vec::new(),
        branches: None,
        rtl: None,
    }
}

/// The emitted files into the outcome and the manifest, in input order; failures into `errors`.
fn collect(
    emitted: Vec<std::result::Result<(String, ManifestFile), Error>>,
    files: Vec<Analyzed>,
    plans: &[crate::plan::FilePlan],
    opts: &RewriteOptions,
    manifest: &mut Manifest,
    outcomes: &mut Vec<FileOutcome>,
    errors: &mut Vec<Error>,
) {
    for ((result, a), plan) in emitted.into_iter().zip(files).zip(plans) {
        match result {
            Ok((output, mfile)) => {
                add_entries(manifest, describe(&a.source.rel, &a.model, plan, opts));
                if opts.kinds.branches {
                    manifest.branches.get_or_insert_with(Default::default).add(&a.source.rel, &a.model, plan);
                }
                manifest.files.push(mfile);
                outcomes.push(FileOutcome { source: a.source, output, probes: plan.probes.len() + plan.sites.len() });
            }
            Err(e) => errors.push(e),
        }
    }
}

/// The manifest's entries of one file (or piece). A function's body chain, port and scalar uses come
/// with the loops' details, which only the `loops` kind works out for every function
/// (`loop_detail`): without that kind they are left out, so that an entry does not depend on
/// which functions happened to need their details.
fn describe(
    file: &str,
    model: &crate::model::FileModel,
    plan: &crate::plan::FilePlan,
    opts: &RewriteOptions,
) -> Vec<manifest::ProbeEntry> {
    let mut entries = manifest::describe(file, model, plan, opts.select.watch.as_ref());
    if !opts.kinds.loops {
        for m in entries.iter_mut().filter_map(|e| e.module.as_deref_mut()) {
            m.chain.clear();
            m.port_uses.clear();
            m.scalar_uses.clear();
            m.segments.clear();
            m.const_params.clear();
            m.volatile_params.clear();
        }
    }
    entries
}

/// A file's probe entries into the manifest.
fn add_entries(manifest: &mut Manifest, entries: Vec<manifest::ProbeEntry>) {
    if manifest.probes.is_empty() {
        // The first file's entries are taken as they are: extending would hold a copy of them
        // beside them (hundreds of megabytes for one big file).
        manifest.probes = entries;
    } else {
        manifest.probes.extend(entries);
    }
}

/// With OpenCL C kernels among the outputs (and no Vitis design): the host header their probes
/// need, `hlsinstr_ocl_host.h`.
fn add_opencl_host_header(
    outcomes: &[FileOutcome],
    manifest: &mut Manifest,
    generated: &mut Vec<Generated>,
) -> Result<()> {
    if !outcomes.iter().any(|f| opencl::is_opencl_path(&f.source.path)) {
        return Ok(());
    }
    if let Some(f) = outcomes.iter().find(|f| f.source.rel == opencl_host::HOST_HEADER) {
        return Err(Error::new(
            ErrorKind::Usage,
            format!(
                "an input is named {}, the file rewrite generates for OpenCL kernels; rename it",
                opencl_host::HOST_HEADER
            ),
        )
        .at(&f.source.path));
    }
    let header = opencl_host::generate(&manifest.probes)?;
    manifest.generated.push(header.path.clone());
    generated.push(header);
    Ok(())
}

/// One warning per function whose m_axi ports have uses that are not counted (each is listed,
/// with its reason, under `uncounted` in the port's manifest entry).
fn uncounted_warnings(src: &SourceFile, model: &FileModel, plan: &crate::plan::FilePlan) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = 0;
    let ports: Vec<_> = plan.probes.iter().filter_map(|p| Some((p.function, p.port.as_ref()?))).collect();
    while i < ports.len() {
        let fi = ports[i].0;
        let f = &model.functions[fi];
        let mut uses = Vec::new();
        while i < ports.len() && ports[i].0 == fi {
            let name = &f.maxi.params[ports[i].1.param].name;
            uses.extend(ports[i].1.uncounted.iter().map(|u| (u.line, u.column, name)));
            i += 1;
        }
        uses.sort();
        let uses: Vec<String> = uses.iter().map(|(l, c, name)| format!("`{name}` at {l}:{c}")).collect();
        if !uses.is_empty() {
            out.push(format!(
                "{}:{}:{}: warning: {}: {} m_axi {} not counted ({}); reasons under `uncounted` in the manifest",
                src.path.display(),
                f.line,
                f.col,
                f.qualified,
                uses.len(),
                if uses.len() == 1 { "use is" } else { "uses are" },
                uses.join(", ")
            ));
        }
    }
    out
}

/// Per file, the lines of `--at` in it. Each line must hold a load from a `__global` pointer
/// parameter in a statement a probe can go before and after; else the error says what is there.
fn stall_lines(files: &[Analyzed], at: &[crate::select::StallLine]) -> Result<Vec<Vec<usize>>> {
    let mut out = vec![Vec::new(); files.len()];
    let cl: Vec<usize> = (0..files.len()).filter(|&i| files[i].blanked.is_some()).collect();
    for s in at {
        let usage = |m: String| Error::new(ErrorKind::Usage, format!("--at `{}`: {m}", s.expr));
        let fi = match &s.file {
            Some(name) => {
                let hits: Vec<usize> = cl
                    .iter()
                    .copied()
                    .filter(|&i| {
                        let rel = &files[i].source.rel;
                        rel == name || rel.rsplit('/').next() == Some(name.as_str())
                    })
                    .collect();
                match hits.as_slice() {
                    [i] => *i,
                    [] => return Err(usage(format!("no .cl input is `{name}`; .cl inputs: {}", cl_names(files, &cl)))),
                    _ => {
                        return Err(usage(format!("several .cl inputs are named `{name}`: give the path (FILE:LINE)")))
                    }
                }
            }
            None => match cl.as_slice() {
                [i] => *i,
                [] => return Err(usage("--probes stall is for OpenCL C (.cl) files and there is none".into())),
                _ => return Err(usage(format!("several .cl inputs ({}): say which, FILE:LINE", cl_names(files, &cl)))),
            },
        };
        let a = &files[fi];
        let text = a.source.text.split('\n').nth(s.line - 1).map(|l| l.trim().to_string());
        let Some(text) = text else {
            return Err(usage(format!("{} has fewer than {} lines", a.source.rel, s.line)));
        };
        let lines = [s.line];
        let found = a.model.functions.iter().any(|f| !crate::plan::stall_statements(&a.source, f, &lines).is_empty());
        let problems: Vec<(String, String)> =
            a.model.functions.iter().flat_map(|f| crate::plan::stall_problems(&a.source, f, s.line)).collect();
        if let Some((load, why)) = problems.first() {
            return Err(usage(format!(
                "the load `{load}` on line {} is {why}: the stall monitor goes before and after a statement of a {{}} block; move the load into a statement of its own (`T v = {load};`)",
                s.line
            )));
        }
        if !found {
            return Err(usage(format!(
                "line {} of {} (`{text}`) has no load from a __global pointer parameter (a read `p[i]` or `*p` that is not assigned to): give the line of the load",
                s.line, a.source.rel
            )));
        }
        out[fi].push(s.line);
    }
    Ok(out)
}

fn cl_names(files: &[Analyzed], cl: &[usize]) -> String {
    cl.iter().map(|&i| files[i].source.rel.as_str()).collect::<Vec<_>>().join(", ")
}

/// `--probes watch` on Vitis C++: the watched buffer a parameter of the top; with `--target
/// vitis` the sites' offsets in it too (their records go into the trace buffer).
fn cpp_watch(
    files: &[Analyzed],
    w: &crate::select::WatchSpec,
    opts: &RewriteOptions,
    vitis_build: bool,
) -> Result<crate::watch::CppWatch> {
    let pairs: Vec<(&SourceFile, &FileModel)> = files.iter().map(|a| (&a.source, &a.model)).collect();
    crate::watch::resolve(&pairs, w, opts.select.top.as_deref(), vitis_build)
}

/// The watched buffer must be a pointer parameter of a function in a `.cl` file; else the error
/// lists the candidates.
fn check_watch(files: &[Analyzed], w: &crate::select::WatchSpec) -> Result<()> {
    let mut candidates = Vec::new();
    for a in files.iter().filter(|a| a.blanked.is_some()) {
        for f in &a.model.functions {
            for p in &f.maxi.params {
                if p.name == w.buffer {
                    return Ok(());
                }
                candidates.push(format!("{} ({}:{}:{}, in {})", p.name, a.source.rel, p.line, p.col, f.qualified));
            }
        }
    }
    let list = if candidates.is_empty() {
        "there are none: no OpenCL C (.cl) function in the inputs has a pointer parameter".to_string()
    } else {
        format!("candidates (pointer parameters): {}", candidates.join(", "))
    };
    let (option, expr) = match (&w.expr, &w.invariant) {
        (Some(e), _) if e.contains(':') => ("--watch-range", e.as_str()),
        (Some(e), _) => ("--watch", e.as_str()),
        (None, Some(i)) => ("--invariant", i.expr.as_str()),
        (None, None) => ("--watch", ""),
    };
    Err(Error::new(
        ErrorKind::Usage,
        format!("{option} `{expr}`: `{}` names no pointer parameter of a .cl kernel; {list}", w.buffer),
    ))
}

/// Read an input; a file that holds our markers already is refused.
fn load(input: &Input) -> std::result::Result<SourceFile, Error> {
    let source = source::load(&input.path, &input.rel)?;
    if let Some((offset, marker)) = find_marker(&source.text) {
        let (line, col) = model::position(&source.text, offset);
        return Err(Error::new(
            ErrorKind::AlreadyInstrumented,
            format!(
                "already instrumented (found `{marker}`); run `hlsinstr strip` on it first instead of rewriting twice"
            ),
        )
        .at(&source.path)
        .at_line(line, col));
    }
    Ok(source)
}

/// Parse and model one file.
fn analyze(
    source: std::result::Result<SourceFile, Error>,
    kinds: Kinds,
    detail: LoopDetail,
    tree_budget: &AtomicUsize,
) -> std::result::Result<Analyzed, Error> {
    let source = source?;
    let blanked = opencl::is_opencl_path(&source.path).then(|| opencl::blank(&source.text));
    // The parser and the model see the blanked text; every offset is the original's.
    let text = blanked.as_ref().map_or(source.text.as_str(), |b| b.text.as_str());
    let cpp_blanked = if blanked.is_none() {
        crate::timings::time("analyze: cpp_blank", || crate::cpp_blank::blank(&source.text))
    } else {
        None
    };
    let parsed = cpp_blanked.as_ref().map_or(text, |b| b.text.as_str());
    let lang = Lang::of_path(&source.path);
    let attach = |model: &mut FileModel, tree: &Tree| {
        if kinds.branches {
            crate::cfg::build::attach(model, tree, text);
        }
        if kinds.maxi || kinds.watch || kinds.stall {
            model::maxi::attach(model, tree, text);
        }
    };
    let large = parsed.len() > KEEP_TREES_UP_TO;
    let (mut model, tree, cuts) =
        match large.then(|| model_in_pieces(lang, parsed, text, detail, &attach, PARSE_PIECE)).flatten() {
            Some((model, cuts)) => (model, None, cuts),
            None => {
                let tree = parse(lang, parsed, None);
                let mut model = model::build_with(&tree, text, detail);
                attach(&mut model, &tree);
                // With errors in the input, the check re-parses from scratch anyway (see `emit_file`).
                let keep = model.error_count == 0 && take(tree_budget, source.text.len());
                let cuts = if keep || model.error_count > 0 { Vec::new() } else { cut_points(&tree, CHECK_PIECE) };
                (model, keep.then_some(tree), cuts)
            }
        };
    if let Some(b) = &blanked {
        for f in &mut model.functions {
            f.opencl = Some(b.facts_at(f.body.start).cloned().unwrap_or_default());
        }
    }
    Ok(Analyzed { source, model, tree, blanked, cpp_blanked, cuts })
}

/// The model of a file too large to keep its tree ([`KEEP_TREES_UP_TO`]), built from pieces of
/// about `piece` bytes of whole top-level items (see [`crate::top_level`]), with the check's
/// cuts `piece` bytes apart ([`cut_points`]); only one piece's tree is alive at a time. `parsed` is the text the
/// parser sees, `text` the one the model reads. `None` when the file cannot be cut, or its
/// pieces do not give the whole file's model (see [`model::build_in_pieces`]).
fn model_in_pieces(
    lang: Lang,
    parsed: &str,
    text: &str,
    detail: LoopDetail,
    attach: &dyn Fn(&mut FileModel, &Tree),
    piece: usize,
) -> Option<(FileModel, Vec<usize>)> {
    let pieces = crate::timings::time("analyze: top-level scan", || crate::top_level::pieces(parsed, piece));
    if pieces.len() < 2 {
        return None;
    }
    let (mut cuts, mut last) = (Vec::new(), 0);
    let model = model::build_in_pieces(
        text,
        &crate::top_level::byte_ranges(&pieces),
        detail,
        |i| crate::timings::time("analyze: parse piece", || crate::parse::parse_piece(lang, parsed, pieces[i])),
        |tree, model| {
            crate::timings::time("analyze: attach + cuts", || {
                attach(model, tree);
                add_cut_points(tree, piece, &mut cuts, &mut last);
            });
        },
    )?;
    Some((model, cuts))
}

/// Starts of top-level items of `tree` (children of its root), at least `piece` bytes apart:
/// places where a text of whole top-level items can be cut into texts of whole top-level items.
fn cut_points(tree: &Tree, piece: usize) -> Vec<usize> {
    let mut cuts = Vec::new();
    add_cut_points(tree, piece, &mut cuts, &mut 0);
    cuts
}

/// [`cut_points`] of one more tree of a file parsed in pieces, the last cut so far at `last`.
fn add_cut_points(tree: &Tree, piece: usize, cuts: &mut Vec<usize>, last: &mut usize) {
    let root = tree.root_node();
    for child in root.children(&mut root.walk()) {
        let at = child.start_byte();
        if at >= *last + piece {
            cuts.push(at);
            *last = at;
        }
    }
}

/// Whether every piece of `output` parses without errors, the pieces cut at the output offsets
/// of the input offsets `cuts` (made from the input by `changes`, in order). Insertions at a
/// cut go with the piece after it; a cut inside a replaced range is not made. A text of pieces
/// that each parse as a sequence of top-level items is itself such a sequence, so a clean
/// verdict here is the verdict of a parse of the whole; on any error the caller parses the whole.
fn pieces_parse_clean(lang: Lang, cuts: &[usize], output: &str, changes: &[Change]) -> bool {
    let mut starts = vec![0];
    let mut i = 0;
    'cut: for &c in cuts {
        // The output offset of `c`: after every change that ends at or before it.
        let mut at = c;
        let mut j = i;
        while j < changes.len() && changes[j].old.start < c {
            if changes[j].old.end > c {
                continue 'cut;
            }
            j += 1;
        }
        if j > 0 {
            at = c - changes[j - 1].old.end + changes[j - 1].new.end;
        }
        i = j;
        starts.push(at);
    }
    starts.push(output.len());
    starts.windows(2).all(|w| count_errors(parse(lang, &output[w[0]..w[1]], None).root_node()) == 0)
}

/// Take `bytes` from `budget` if that many are left.
fn take(budget: &AtomicUsize, bytes: usize) -> bool {
    budget.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |left| left.checked_sub(bytes)).is_ok()
}

/// The newlines `plan`'s edits insert, as `(offset, count)`: the line map's input (a whole
/// file's, or one piece's of a file rewritten in pieces).
fn inserted_newlines(plan: &crate::plan::FilePlan) -> impl Iterator<Item = (usize, usize)> + '_ {
    plan.edits.iter().filter_map(|e: &Edit| match &e.piece {
        Piece::Raw(t) | Piece::Token(t) if t.contains('\n') => Some((e.range.start, t.matches('\n').count())),
        _ => None,
    })
}

/// Apply a plan and check the result: it must parse no worse than the input, and stripping it
/// must give the input back byte for byte. Either failure is our bug: refuse to write.
/// `tree` is the input's syntax tree, if it was kept. Returns the output and its manifest entry.
fn emit_file(
    a: &Analyzed,
    plan: &crate::plan::FilePlan,
    tree: Option<Tree>,
) -> std::result::Result<(String, ManifestFile), Error> {
    let src = &a.source;
    let internal = |msg: String| {
        Error::new(
            ErrorKind::Internal,
            format!(
                "{msg}; nothing written for this file. Please report it with `hlsinstr rewrite --dump-tree` output"
            ),
        )
        .at(&src.path)
    };
    let (output, changes) = crate::timings::time("emit: apply", || apply_tracked(&src.text, &plan.edits))
        .map_err(|e| internal(format!("planned edits are inconsistent: {e}")))?;
    // OpenCL C: the output is parsed blanked like the input. Our insertions hold no OpenCL
    // words, so blanking commutes with the edits as long as none lands inside a blanked range.
    let (parsed_src, parsed_out) = match (&a.blanked, &a.cpp_blanked) {
        (Some(b), _) => {
            if let Some(r) = plan.edits.iter().find_map(|e| b.inside(e.range.start).or(b.inside(e.range.end))) {
                let (line, col) = model::position(&src.text, r.start);
                return Err(internal(format!(
                    "a probe would land inside `{}` at {line}:{col}",
                    src.text[r.clone()].trim()
                )));
            }
            (std::borrow::Cow::Borrowed(b.text.as_str()), std::borrow::Cow::Owned(opencl::blank(&output).text))
        }
        // C++ with HLS syntax the grammar lacks: judged the way it was read (see cpp_blank).
        (None, Some(b)) => {
            if let Some(r) = plan.edits.iter().find_map(|e| b.inside(e.range.start).or(b.inside(e.range.end))) {
                let (line, col) = model::position(&src.text, r.start);
                return Err(internal(format!(
                    "a probe would land inside `{}` at {line}:{col}",
                    src.text[r.clone()].trim()
                )));
            }
            let out = crate::timings::time("emit: cpp_blank output", || {
                crate::cpp_blank::blank(&output).map_or_else(|| output.clone(), |b| b.text)
            });
            (std::borrow::Cow::Borrowed(b.text.as_str()), std::borrow::Cow::Owned(out))
        }
        (None, None) => (std::borrow::Cow::Borrowed(src.text.as_str()), std::borrow::Cow::Borrowed(output.as_str())),
    };
    if !plan.edits.is_empty() {
        let before = a.model.error_count;
        let lang = Lang::of_path(&src.path);
        // A clean input without its tree: the output is parsed in pieces first (see
        // `pieces_parse_clean`), and as a whole only when a piece shows errors.
        let clean = tree.is_none()
            && before == 0
            && crate::timings::time("emit: check pieces", || pieces_parse_clean(lang, &a.cuts, &parsed_out, &changes));
        if !clean {
            let (tree, after) =
                crate::timings::time("emit: check reparse", || reparse(lang, &parsed_src, tree, &parsed_out, &changes));
            // When the input already has errors (`extern "C" {` opened under `#ifdef __cplusplus`),
            // tree-sitter's recovery around them may change with any edit elsewhere. What must hold
            // then is that every probed body still parses, cleanly, as a function body.
            let functions = plan.probes.iter().filter(|p| p.kind == ProbeKind::Function).count();
            if after > before && (before == 0 || clean_probed_bodies(tree.root_node(), &parsed_out) != functions) {
                return Err(internal(format!("rewritten file has {after} parse errors, the input had {before}")));
            }
        }
        match crate::timings::time("emit: strip round trip", || strip(&output)) {
            Ok(back) if back == src.text => {}
            _ => return Err(internal("stripping the rewritten file does not give the input back".into())),
        }
    }
    let newlines: Vec<(usize, usize)> = inserted_newlines(plan).collect();
    let mfile = crate::timings::time("emit: sha + line map", || ManifestFile {
        path: src.rel.clone(),
        original_sha256: manifest::sha256_hex(src.text.as_bytes()),
        instrumented_sha256: manifest::sha256_hex(output.as_bytes()),
        probes: plan.probes.len(),
        line_map: manifest::line_map(&src.text, &newlines),
    });
    Ok((output, mfile))
}

/// Parse the whole output (made from `src` by `changes`) and count its errors. With the input's
/// tree, the parse is incremental: the tree is edited to match the output and tree-sitter re-uses
/// what the edits left intact, which yields the tree a fresh parse would. Error recovery is where
/// the two may differ, so when errors show, the output is parsed again from scratch and that
/// tree is the one judged. `lang` is the grammar the input was parsed with.
pub fn reparse(lang: Lang, src: &str, input_tree: Option<Tree>, output: &str, changes: &[Change]) -> (Tree, usize) {
    if let Some(mut tree) = input_tree {
        for edit in input_edits(src, output, changes) {
            tree.edit(&edit);
        }
        let tree = parse(lang, output, Some(&tree));
        let errors = count_errors(tree.root_node());
        if errors == 0 {
            return (tree, 0);
        }
    }
    let tree = parse(lang, output, None);
    let errors = count_errors(tree.root_node());
    (tree, errors)
}

/// The changes that made `output` from `src` as tree-sitter edits, in order, each in the
/// coordinates of the text with the ones before it applied (so its start is an output offset).
/// Public for the throughput bench, which counts what the re-parse re-uses.
pub fn input_edits(src: &str, output: &str, changes: &[Change]) -> Vec<InputEdit> {
    let mut points = PointCursor { text: output.as_bytes(), offset: 0, point: Point { row: 0, column: 0 } };
    changes
        .iter()
        .map(|c| {
            let start_position = points.at(c.new.start);
            InputEdit {
                start_byte: c.new.start,
                old_end_byte: c.new.start + c.old.len(),
                new_end_byte: c.new.end,
                start_position,
                old_end_position: advance(start_position, &src.as_bytes()[c.old.clone()]),
                new_end_position: points.at(c.new.end),
            }
        })
        .collect()
}

/// Row and byte column of ascending offsets of one text, in one pass over it.
struct PointCursor<'a> {
    text: &'a [u8],
    offset: usize,
    point: Point,
}

impl PointCursor<'_> {
    fn at(&mut self, offset: usize) -> Point {
        self.point = advance(self.point, &self.text[self.offset..offset]);
        self.offset = offset;
        self.point
    }
}

/// The point after `bytes`, starting at `from`.
fn advance(from: Point, bytes: &[u8]) -> Point {
    match bytes.iter().rposition(|&b| b == b'\n') {
        Some(last) => {
            Point { row: from.row + bytes.iter().filter(|&&b| b == b'\n').count(), column: bytes.len() - last - 1 }
        }
        None => Point { row: from.row, column: from.column + bytes.len() },
    }
}

/// Function definitions whose body starts with a function probe and parses without errors.
pub fn clean_probed_bodies(node: tree_sitter::Node, text: &str) -> usize {
    let mut count = 0;
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        if n.kind() == "function_definition" {
            if let Some(body) = n.child_by_field_name("body") {
                let inner = text[body.byte_range()].get(1..).unwrap_or("").trim_start();
                if inner.starts_with("HLSINSTR_FUNC_BEGIN(") && !body.has_error() {
                    count += 1;
                }
            }
        }
        stack.extend(n.children(&mut n.walk()));
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edit::Rank;
    use crate::parse::parse_cpp;
    use crate::select::Kinds;

    /// (kind, byte range, start and end points) of every node, in order.
    fn nodes(tree: &Tree) -> Vec<(&'static str, std::ops::Range<usize>, Point, Point)> {
        let mut cursor = tree.walk();
        let mut out = Vec::new();
        'walk: loop {
            let n = cursor.node();
            out.push((n.kind(), n.byte_range(), n.start_position(), n.end_position()));
            if cursor.goto_first_child() {
                continue;
            }
            while !cursor.goto_next_sibling() {
                if !cursor.goto_parent() {
                    break 'walk;
                }
            }
        }
        out
    }

    #[test]
    fn incremental_reparse_gives_the_tree_of_a_fresh_parse() {
        // Every golden case with its own kinds and target (the vitis plumbing adds edits of its
        // own to the plan), and every robustness input with the bench's kinds.
        let tests = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests");
        let mut cases: Vec<(std::path::PathBuf, String, Option<String>)> = Vec::new();
        for dir in std::fs::read_dir(format!("{tests}/golden")).unwrap() {
            let dir = dir.unwrap().path();
            if !dir.join("input.cpp").exists() {
                continue; // OpenCL C (`input.cl`): its self-check parses blanked text, see tests/golden.rs
            }
            let kinds = std::fs::read_to_string(dir.join("probes")).unwrap_or_else(|_| "modules,loops".into());
            let target = std::fs::read_to_string(dir.join("target")).unwrap_or_default();
            // A case with `options` (watch specs, not applied here) may probe nothing the vitis
            // plumbing can hang on: its own plan only.
            let top =
                target.strip_prefix("vitis ").map(|t| t.trim().to_string()).filter(|_| !dir.join("options").exists());
            cases.push((dir.join("input.cpp"), kinds.trim().to_string(), top));
        }
        for file in std::fs::read_dir(format!("{tests}/robustness")).unwrap() {
            cases.push((file.unwrap().path(), "modules,loops,timestamps,seq".into(), None));
        }
        cases.sort();
        let (mut incremental, mut vitis) = (0, 0);
        for (path, kinds, top) in cases.iter().filter(|c| c.0.extension().is_some_and(|e| e == "cpp")) {
            let kinds = Kinds::parse(kinds).unwrap();
            let text = std::fs::read_to_string(path).unwrap();
            let src = SourceFile { path: path.clone(), rel: "input.cpp".into(), text };
            let tree = parse_cpp(&src.text, None);
            let mut model = model::build(&tree, &src.text);
            if kinds.maxi {
                model::maxi::attach(&mut model, &tree, &src.text);
            }
            let select_opts = SelectOptions { top: top.clone(), ..SelectOptions::default() };
            let selection = select(std::slice::from_ref(&model), kinds, &select_opts).unwrap();
            let target = PlanTarget { vitis: top.is_some(), top: top.as_deref(), ..PlanTarget::default() };
            let mut plans = vec![plan_file(&src, &model, &selection[0], kinds, target, &mut 0)];
            if let Some(top) = top {
                let planned = plans[0].edits.len();
                vitis::plumb(&[(&src, &model)], &mut plans, kinds, top, &Default::default()).unwrap();
                vitis += usize::from(plans[0].edits.len() > planned);
            }
            let (output, changes) = apply_tracked(&src.text, &plans[0].edits).unwrap();
            let fresh = parse_cpp(&output, None);
            let (judged, errors) = reparse(Lang::Cpp, &src.text, Some(tree), &output, &changes);
            assert_eq!(errors, count_errors(fresh.root_node()), "{}", path.display());
            assert!(nodes(&judged) == nodes(&fresh), "{}: the incremental tree differs", path.display());
            incremental += usize::from(errors == 0 && !changes.is_empty());
        }
        assert!(incremental >= 20, "most inputs parse cleanly, so their check is incremental: {incremental}");
        assert!(vitis >= 1, "the vitis plumbing's own edits are covered");
    }

    /// The same for OpenCL C: blanked text, parsed with the C grammar, edits applied to the
    /// original; the hard OpenCL corpus and the OpenCL golden cases.
    #[test]
    fn incremental_reparse_of_opencl_c_gives_the_tree_of_a_fresh_parse() {
        let tests = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests");
        let mut paths: Vec<std::path::PathBuf> = std::fs::read_dir(format!("{tests}/opencl/hard"))
            .unwrap()
            .map(|f| f.unwrap().path())
            .chain(std::fs::read_dir(format!("{tests}/golden")).unwrap().map(|d| d.unwrap().path().join("input.cl")))
            .filter(|p| p.exists())
            .collect();
        paths.sort();
        let kinds = Kinds::parse("modules,loops,timestamps,seq").unwrap();
        let mut incremental = 0;
        for path in &paths {
            let Ok(text) = std::fs::read_to_string(path) else { continue }; // not UTF-8
            let src = SourceFile { path: path.clone(), rel: "input.cl".into(), text };
            let blanked = opencl::blank(&src.text);
            let tree = parse(Lang::OpenCl, &blanked.text, None);
            let model = model::build(&tree, &blanked.text);
            let selection = select(std::slice::from_ref(&model), kinds, &SelectOptions::default()).unwrap();
            let target = PlanTarget { opencl: true, ..Default::default() };
            let plan = plan_file(&src, &model, &selection[0], kinds, target, &mut 0);
            let (output, changes) = apply_tracked(&src.text, &plan.edits).unwrap();
            let output = opencl::blank(&output).text;
            let fresh = parse(Lang::OpenCl, &output, None);
            let (judged, errors) = reparse(Lang::OpenCl, &blanked.text, Some(tree), &output, &changes);
            assert_eq!(errors, count_errors(fresh.root_node()), "{}", path.display());
            assert!(nodes(&judged) == nodes(&fresh), "{}: the incremental tree differs", path.display());
            incremental += usize::from(errors == 0 && !changes.is_empty());
        }
        assert!(incremental >= 8, "most inputs parse cleanly, so their check is incremental: {incremental}");
    }

    #[test]
    fn a_file_modelled_in_pieces_gets_the_model_of_the_whole() {
        // Every golden input, cut after every top-level item the scan finds, with every kind's
        // facts: the model (functions, skips, warnings, graphs, m_axi facts) and the check's cuts
        // are the whole file's, or the pieces are refused.
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/golden");
        let (mut compared, mut refused) = (0, 0);
        for case in std::fs::read_dir(dir).unwrap() {
            for input in std::fs::read_dir(case.unwrap().path()).unwrap() {
                let path = input.unwrap().path();
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                if !name.starts_with("input") || name.contains("expected") {
                    continue;
                }
                let src = std::fs::read_to_string(&path).unwrap();
                let lang = Lang::of_path(&path);
                let blanked = (lang == Lang::OpenCl).then(|| opencl::blank(&src));
                let text = blanked.as_ref().map_or(src.as_str(), |b| b.text.as_str());
                let cpp = if blanked.is_none() { crate::cpp_blank::blank(&src) } else { None };
                let parsed = cpp.as_ref().map_or(text, |b| b.text.as_str());
                let attach = |model: &mut FileModel, tree: &Tree| {
                    crate::cfg::build::attach(model, tree, text);
                    model::maxi::attach(model, tree, text);
                };
                let tree = parse(lang, parsed, None);
                let mut whole = model::build_with(&tree, text, LoopDetail::All);
                attach(&mut whole, &tree);
                match model_in_pieces(lang, parsed, text, LoopDetail::All, &attach, 1) {
                    Some((pieces, cuts)) => {
                        assert_eq!(format!("{pieces:?}"), format!("{whole:?}"), "{}", path.display());
                        assert_eq!(cuts, cut_points(&tree, 1), "{}", path.display());
                        compared += 1;
                    }
                    None => refused += 1,
                }
            }
        }
        assert!(compared >= 15, "{compared} compared, {refused} refused");
    }

    #[test]
    fn a_file_rewritten_in_pieces_gets_the_outcome_of_the_whole() {
        // Every C++ golden input that streams (with its kinds), every robustness input and
        // every example source (with two sets of kinds), rewritten a piece of one top-level
        // item at a time and as a whole: outputs, manifests, skips, warnings and errors agree.
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut cases: Vec<(std::path::PathBuf, String)> = Vec::new();
        for dir in std::fs::read_dir(root.join("tests/golden")).unwrap() {
            let dir = dir.unwrap().path();
            if dir.join("input.cpp").exists() && !dir.join("options").exists() && !dir.join("target").exists() {
                let kinds = std::fs::read_to_string(dir.join("probes")).unwrap_or_else(|_| "modules,loops".into());
                cases.push((dir.join("input.cpp"), kinds.trim().to_string()));
            }
        }
        let mut others: Vec<std::path::PathBuf> = std::fs::read_dir(root.join("tests/robustness"))
            .unwrap()
            .map(|f| f.unwrap().path())
            .chain(
                ["binary_search", "control_flow", "dataflow_pipeline", "matmul", "quicksort"]
                    .iter()
                    .flat_map(|e| std::fs::read_dir(root.join("examples").join(e)).unwrap().map(|f| f.unwrap().path())),
            )
            .filter(|p| p.extension().is_some_and(|e| e == "cpp" || e == "h"))
            .collect();
        others.sort();
        for path in others {
            cases.push((path.clone(), "modules,loops,timestamps,seq".into()));
            cases.push((path, "modules,branches".into()));
        }
        cases.sort();
        let (mut pieced, mut whole_way) = (0, 0);
        for (path, kinds) in &cases {
            let opts = RewriteOptions {
                kinds: Kinds::parse(kinds).unwrap(),
                select: SelectOptions::default(),
                target: Target::Csim,
            };
            let input = Input { path: path.clone(), rel: "dir/input.cpp".into() };
            let sources = || vec![load(&input)];
            if !streamable(&opts, &sources()) {
                continue;
            }
            let detail = loop_detail(opts.kinds);
            let one_item = Scale { keep_trees_up_to: 0, piece: 1 };
            match in_pieces::rewrite(sources().pop().unwrap().unwrap(), &opts, detail, 0, one_item) {
                in_pieces::Piecewise::Done(..) => pieced += 1,
                in_pieces::Piecewise::Whole(_) => whole_way += 1,
            }
            let whole = rewrite_streamed(sources(), &opts, detail, Scale::default()).unwrap();
            let pieces = rewrite_streamed(sources(), &opts, detail, one_item).unwrap();
            let name = format!("{} ({kinds})", path.display());
            let files = |o: &Outcome| o.files.iter().map(|f| (f.output.clone(), f.probes)).collect::<Vec<_>>();
            assert!(files(&pieces) == files(&whole), "{name}: the outputs differ");
            let json = |o: &Outcome| serde_json::to_string_pretty(&o.manifest).unwrap();
            assert_eq!(json(&pieces), json(&whole), "{name}: the manifests differ");
            assert_eq!(format!("{:?}", pieces.skipped), format!("{:?}", whole.skipped), "{name}");
            assert_eq!(pieces.warnings, whole.warnings, "{name}");
            assert_eq!(format!("{:?}", pieces.errors), format!("{:?}", whole.errors), "{name}");
        }
        assert!(pieced >= 40, "{pieced} rewritten in pieces, {whole_way} the whole-file way");
    }

    #[test]
    fn the_output_is_checked_in_pieces_cut_between_top_level_items() {
        let src = "int a;\nint b(int x) { return x; }\ntemplate <class T>\nT c(T x) { return x; }\nint d;\n";
        let tree = parse_cpp(src, None);
        let cuts = cut_points(&tree, 1);
        let starts: Vec<&str> = cuts.iter().map(|&c| &src[c..c + 5]).collect();
        assert_eq!(starts, ["int b", "templ", "int d"], "every top-level item starts a piece");
        let b = src.find("int b").unwrap();
        let d = src.find("int d").unwrap();
        let checked = |edits: Vec<Edit>| {
            let (out, changes) = apply_tracked(src, &edits).unwrap();
            let whole = count_errors(parse_cpp(&out, None).root_node()) == 0;
            (pieces_parse_clean(Lang::Cpp, &cuts, &out, &changes), whole)
        };
        // Insertions at a cut go with the item after it: this one is only valid before `int d`.
        let prefix = Edit::raw(d, "template <class T>\n", Rank::open(0, 0));
        // A replacement across the cut before `int b` (from `;` of `int a;`): no cut is made there.
        let across = Edit { range: b - 2..b + 3, piece: Piece::Raw(";\n/* x */int".into()), rank: Rank::open(0, 0) };
        let inside = Edit::token(src.find("return x").unwrap(), "HLSINSTR_LOOP_ITER(1);", Rank::open(0, 0));
        assert_eq!(checked(vec![prefix, across, inside]), (true, true));
        let broken = Edit::raw(src.find("{ return x; }\ntemplate").unwrap(), "{", Rank::open(0, 0));
        assert_eq!(checked(vec![broken]), (false, false), "an error in one piece fails the pieces");
    }

    #[test]
    fn input_parse_errors_outside_probed_bodies_do_not_block_the_rewrite() {
        // `extern "C" {` opened under `#ifdef __cplusplus`: the input parses with one error, and
        // tree-sitter recovers from it differently once the bodies are probed (two errors).
        let src = include_str!("../../tests/robustness/extern_c.cpp");
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("k.cpp");
        std::fs::write(&path, src).unwrap();
        let opts = RewriteOptions {
            kinds: Kinds::parse("modules").unwrap(),
            select: SelectOptions::default(),
            target: Target::Csim,
        };
        let out = rewrite(&[Input { path, rel: "k.cpp".into() }], &opts).unwrap();
        assert!(out.errors.is_empty(), "{:?}", out.errors);
        let text = &out.files[0].output;
        let tree = parse_cpp(text, None);
        assert!(count_errors(tree.root_node()) > count_errors(parse_cpp(src, None).root_node()), "still the hard case");
        assert_eq!(clean_probed_bodies(tree.root_node(), text), out.files[0].probes);
        assert_eq!(strip(text).unwrap(), src);
    }
}
