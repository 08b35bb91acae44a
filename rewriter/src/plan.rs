//! Stage 3b, plan: turn the model and the selection into probe records and edits.
//!
//! Every probe site is one short call; all calls are macros of `hls-lib/include/hlsinstr/probe.h`
//! (in `.cl` files the same names from `opencl-lib/hlsinstr_probe.cl`):
//!
//! | site | inserted |
//! |---|---|
//! | after a function's `{` | `HLSINSTR_FUNC_BEGIN(id, O, dep);` |
//! | C simulation: after the `;` of a stream declaration in a block | `HLSINSTR_STREAM_NAME(var);` per variable |
//! | C simulation: after `HLSINSTR_FUNC_BEGIN` (and the m_axi ports) of a function with `hls::stream` parameters | `HLSINSTR_STREAM_NAME(param);` per parameter |
//! | where control falls off its end | `HLSINSTR_FUNC_END(id, O, 0);` |
//! | `return e;` / `return;` | `return HLSINSTR_RETURN(id, O, e);` / `return HLSINSTR_RETURN_VOID(id, O);` (`HLSINSTR_RETURN_V` for `return e;` in a void function; `return(e);` gives `return HLSINSTR_RETURN(id, O,(e));`) |
//! | before a loop (and its label) | `HLSINSTR_LOOP_BEGIN(id, O, 0);` |
//! | first thing in the loop body (of a perfect nest probed as one unit: the innermost body) | `HLSINSTR_LOOP_ITER(id);` |
//! | after the loop | `HLSINSTR_LOOP_END(id, O, 0);` |
//! | after a label that a `goto` reaches from inside probed loops | `HLSINSTR_UNWIND(fid, depth);` |
//! | with `maxi`: after `HLSINSTR_FUNC_BEGIN` of a function with m_axi ports `first..first+count` | `HLSINSTR_MAXI_PORTS(first, count);` |
//! | element of port `p` (id `k`) read: `p[i]`, `*e`, `p->x` | `p[HLSINSTR_MAXI_R(k, p, i)]`, `*HLSINSTR_MAXI_R(k, p, e)`, `HLSINSTR_MAXI_R(k, p, p)->x` (`_W` when assigned with `=`, `_RW` for `+=`, `++`, ...) |
//! | `memcpy(d, s, n)` with `d` (`s`) a port | `memcpy(d, s, HLSINSTR_MAXI_WN(k, d, n))` (`_RN` for the source; both nest) |
//! | the same in a `.c` file, port `int m[R][C]` | `HLSINSTR_MAXI_R(k, *m, i)`: one row deref per dimension beyond the first (C counts `sizeof *p`) |
//!
//! | with `watch` (`.cl`; `--watch`, `--watch-range`, `--invariant` on `buf`): element of `buf`, or of another `__global` pointer parameter of the same element type (it may alias `buf`), accessed as `p[i]`, `*e`, in a statement of a `{}` block (or `case`), scalar element | `p[HLSINSTR_WATCH_V(k, p, i)]`, `*HLSINSTR_WATCH_PV(k, p, e)`, and `HLSINSTR_WATCH_POST(k);` right after the statement (the element's value is sent); one id per site |
//! | with `watch`: any other such access (`p->x`, in a header, condition, `return` or unbraced body, or a non-scalar element) | `p[HLSINSTR_WATCH_R(k, p, i)]`, `*HLSINSTR_WATCH_PR(k, p, e)`, `HLSINSTR_WATCH_PR(k, p, p)->x` (`_W`/`_PW` when assigned with `=`, `_RW`/`_PRW` for `+=`, `++`, ...): the index is sent |
//! | with `watch`: after `HLSINSTR_FUNC_BEGIN` (or the `{`) of a function with such sites | per site `HLSINSTR_WATCH_CFG(k, buf, a, b, vmin, vmax, hits);` (`HLSINSTR_WATCH_CFG_BOUNDS(k, buf, a, b, n, vmin, vmax, hits);` for sites of `buf` with `--bounds buf:n`), then `HLSINSTR_WATCH_DECL(k, p);` for a site that sends the value |
//! | with `watch` on C++ (C simulation, `crate::watch::plan_cpp`): the same wrappers at the accesses of the top and every function it reaches; first in the top | `HLSINSTR_WATCH_TOP(buf, a, b, n, vmin, vmax, hits);` and `HLSINSTR_WATCH_DECL(k, p);` per value site (hls-lib `watch.h`) |
//! | with `watch` on C++ and `--target vitis`: the same wrappers, `HLSINSTR_WATCH_POST(k, p);` after a value site's statement; first in the function | `HLSINSTR_WATCH_SITE(k, O, offset);` per site whose pointer's offset in the watched buffer is known (hls-lib `hw/watch.h`), no `HLSINSTR_WATCH_TOP` |
//! | with `stall` (`.cl`, `--at LINE`): around a statement of a `{}` block on that line that loads from a `__global` pointer parameter | `HLSINSTR_SNAP(k, 0);` before it, `HLSINSTR_SNAP(k + 1, v);` after it (`v`: the scalar local it declares or assigns, else `0`) |
//!
//! Where probes become hardware (`--target vitis`, `.cl` files) a perfect nest of probed loops
//! ([`crate::model::nest`]) is one loop probe: nothing may sit between its loops, or Vitis would
//! not flatten it (nor aoc coalesce it). C simulation probes each of its loops.
//!
//! `O` is `P`, `T`, `S` or `TS` (timestamp and/or sequence number). Returns close the loops left
//! open in their function through the function frame, so early returns need no extra calls.
//! Braces `{/*hlsinstr*/ ... }/*hlsinstr*/` are added only where a statement must become a block.
//! The m_axi wrappers pass their last argument through unchanged (value category and type kept)
//! and take the element size from the port's declared type; a port's ids follow its function's.

use crate::edit::{Edit, Rank};
use crate::model::maxi::{Dir, StmtSlot, UseKind};
use crate::model::{nest, FileModel, Function, Loop};
use crate::select::ports::BoundPort;
use crate::select::{FnSelection, Kinds, WatchSpec};
use crate::source::SourceFile;

/// The include line added at the top of every file that gets probes.
pub const INCLUDE_LINE: &str = "#include \"hlsinstr/probe.h\" // hlsinstr";
/// The include line of kernel files of the in-FPGA build (`--target vitis`).
pub const VITIS_INCLUDE_LINE: &str = "#include \"hlsinstr/vitis.h\" // hlsinstr";
/// The include line of testbench files of the in-FPGA build: the new top and its shim.
pub const TB_INCLUDE_LINE: &str = "#include \"hlsinstr_top.h\" // hlsinstr";
/// The include line of OpenCL C files (`.cl`): the same macros from `opencl-lib/hlsinstr_probe.cl`.
pub const CL_INCLUDE_LINE: &str = "#include \"hlsinstr_probe.cl\" // hlsinstr";
/// Every include line a rewrite may put at the top of a file, in the order it puts them.
pub const INCLUDE_LINES: &[&str] = &[INCLUDE_LINE, VITIS_INCLUDE_LINE, TB_INCLUDE_LINE, CL_INCLUDE_LINE];
pub const OPEN_BRACE: &str = "{/*hlsinstr*/";
pub const CLOSE_BRACE: &str = "}/*hlsinstr*/";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProbeKind {
    Function,
    Loop,
    /// An m_axi port of a function (`maxi`): bytes read and written per invocation.
    Port,
    /// One access that may touch the watched element (`watch`): an iBuffer unit of its own.
    Watch,
    /// One side of a stall monitor (`stall`): a snapshot before or after a statement that loads.
    Snapshot,
    /// The iBuffer unit of a traced OpenCL C function (`branches`): its branch records.
    Trace,
}

/// One access site of a `watch` probe.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WatchSite {
    /// The pointer parameter accessed (index in `Function::maxi.params`).
    pub param: usize,
    /// The use of that parameter (index in its `uses`).
    pub use_index: usize,
    /// The parameter is not the watched buffer but may alias it.
    pub alias: bool,
    /// Why the record's value is the element's index instead of its value; none: the value.
    pub index_reason: Option<String>,
    /// Vitis C++ (C simulation): the bound is checked by address at every site whose pointer
    /// points into the watched buffer, aliases and callees included (hls-lib `watch.h`).
    pub by_address: bool,
    /// The in-FPGA build: the accessed pointer is the watched buffer plus this many elements.
    pub offset: Option<i64>,
}

/// One side of a stall monitor pair.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SnapSite {
    /// Before the statement (`false`: after it).
    pub before: bool,
    /// The other side's probe id.
    pub pair: u32,
    /// The loads of the statement, as written, joined by `, `.
    pub access: String,
    /// The variable the after snapshot sends (a data dependence on the loads); none: 0.
    pub dep: Option<String>,
    /// Position of the first load's pointer.
    pub line: usize,
    pub col: usize,
    pub buffer: String,
}

/// One planned probe, before it is described in the manifest.
#[derive(Debug, Clone)]
pub struct PlannedProbe {
    pub id: u32,
    pub kind: ProbeKind,
    /// Index of the function in the file model.
    pub function: usize,
    /// Index of the loop in the function, for loop probes.
    pub loop_index: Option<usize>,
    pub parent: Option<u32>,
    /// A function probe added only because its loops are probed.
    pub implied: bool,
    /// For port probes: the port.
    pub port: Option<BoundPort>,
    /// For watch probes: the access.
    pub watch: Option<WatchSite>,
    /// For snapshot probes: the stall monitor side.
    pub snap: Option<SnapSite>,
    /// For the loop probe of the outermost loop of a perfect nest: the nest.
    pub nest: Option<NestPlan>,
}

impl PlannedProbe {
    /// A probe of `kind` in `function` with nothing else set: each kind sets its own fields over
    /// this.
    fn new(id: u32, kind: ProbeKind, function: usize) -> Self {
        PlannedProbe {
            id,
            kind,
            function,
            loop_index: None,
            parent: None,
            implied: false,
            port: None,
            watch: None,
            snap: None,
            nest: None,
        }
    }

    /// The probe of one watch site (`rewrite --probes watch`, C++ or OpenCL C) in `function`.
    pub(crate) fn watch(id: u32, function: usize, site: WatchSite) -> Self {
        PlannedProbe { watch: Some(site), ..PlannedProbe::new(id, ProbeKind::Watch, function) }
    }
}

/// A perfect loop nest (see [`crate::model::nest`]) and how it was probed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NestPlan {
    /// The nest's loops (indices in `Function::loops`), outermost first.
    pub members: Vec<usize>,
    /// Probed as one unit: begin and end around the outermost loop, the trip count in the
    /// innermost body (the flattened trips); false: every member has its own probe.
    pub unit: bool,
}

#[derive(Debug, Clone, Default)]
pub struct FilePlan {
    pub probes: Vec<PlannedProbe>,
    pub edits: Vec<Edit>,
    /// Functions dropped at planning time: (function index, reason).
    pub dropped: Vec<(usize, String)>,
    /// Warnings: (line, column, message).
    pub warnings: Vec<(usize, usize, String)>,
    /// `branches`: the record sites kept, and the traced functions.
    pub sites: Vec<crate::cfg::plan::PlannedSite>,
    pub traced: Vec<crate::cfg::plan::TracedPlan>,
}

/// What the probes are for: C simulation (the default) or the in-FPGA Vitis build.
#[derive(Debug, Clone, Copy, Default)]
pub struct PlanTarget<'a> {
    /// `--target vitis`: probes post into FIFOs (hls-lib `hlsinstr/vitis.h`). Loops are always
    /// braced (their probe object lives in the loop's scope); the top's probe is posted by the
    /// generated new top; a dataflow function gets no probes in its body (a FIFO write there is
    /// not a dataflow process) and is measured from its processes. Include lines are added by
    /// the target's plumbing, which knows every file that needs one.
    pub vitis: bool,
    pub top: Option<&'a str>,
    /// An OpenCL C file: its include line is [`CL_INCLUDE_LINE`].
    pub opencl: bool,
    /// `watch` probes: the watched element (OpenCL C files only).
    pub watch: Option<&'a WatchSpec>,
    /// `stall` probes: the lines of this file whose loads get a stall monitor (OpenCL C only).
    pub stall: &'a [usize],
    /// `watch` probes on Vitis C++ (C simulation): the watched buffer resolved on the top.
    pub cpp_watch: Option<&'a crate::watch::CppWatch>,
    /// A piece of a large file planned on its own (`rewrite::in_pieces`): no include line, since
    /// only the whole file knows whether it has probes; the caller adds it.
    pub piece: bool,
}

/// Plan one file. Ids are taken from `next_id` in source order, so they are deterministic.
pub fn plan_file(
    src: &SourceFile,
    model: &FileModel,
    selection: &[FnSelection],
    kinds: Kinds,
    target: PlanTarget,
    next_id: &mut u32,
) -> FilePlan {
    let mut plan = FilePlan::default();
    for (fi, (f, sel)) in model.functions.iter().zip(selection).enumerate() {
        if let (true, Some(w)) = (target.opencl, target.watch) {
            plan_watch(src, f, fi, w, next_id, &mut plan);
        }
        if let (false, true, Some(w)) = (target.opencl, sel.watch, target.cpp_watch) {
            if src.path.extension().is_some_and(|e| e == "c") {
                // hls-lib's watch.h is C++ (templates); a C callee keeps its other probes.
                let why = format!("{}: not watched: watchpoints need C++ and this is a C file", f.qualified);
                plan.warnings.push((f.line, f.col, why));
            } else {
                crate::watch::plan_cpp(src, f, fi, w, opts(kinds), next_id, &mut plan);
            }
        }
        if target.opencl && !target.stall.is_empty() {
            plan_stall(src, f, fi, target.stall, next_id, &mut plan);
        }
        if sel.branches {
            plan_trace(f, fi, kinds, model, target.opencl, next_id, &mut plan);
        }
        if !sel.any() {
            continue;
        }
        let hw_top = target.vitis && target.top == Some(f.name.as_str());
        let hw_dataflow = target.vitis && f.dataflow() && !hw_top;
        if let Some(reason) = goto_to_loop_label(f, sel) {
            plan.dropped.push((fi, reason));
            continue;
        }
        let fid = *next_id;
        *next_id += 1;
        plan.probes.push(PlannedProbe {
            // Probed loops need their function's frame: returns close them through it.
            implied: !sel.function,
            ..PlannedProbe::new(fid, ProbeKind::Function, fi)
        });
        if kinds.maxi && !sel.ports.is_empty() {
            let c_file = src.path.extension().is_some_and(|e| e == "c");
            plan_ports(f, fi, fid, &sel.ports, c_file, next_id, &mut plan);
        }
        // Where probes become hardware a perfect nest is one unit, so it stays perfect (and
        // flattens as without probes); in C simulation every loop keeps its own probe.
        let hardware = target.vitis || target.opencl;
        let probed = |li: usize| sel.loops[li] && !hw_dataflow;
        let nests = loop_nests(f, probed);
        if hardware {
            plan.warnings.extend(split_nest_warnings(f, probed));
            plan.warnings.extend(unmerged_nest_warnings(src, f, probed));
        }
        // C simulation of C++, with records that are not moments (no timestamps or seq) and no
        // records inside loop bodies of other kinds (branches, watch): a loop with no loop inside
        // and no call in its text is a leaf, whose runs the runtime stores inline and writes as
        // one record (crate::leaf_loop).
        let leaves_allowed = !hardware
            && !kinds.timestamps
            && !kinds.seq
            && !kinds.branches
            && !kinds.watch
            && src.path.extension().is_none_or(|e| e != "c");
        let mut has_inner = vec![false; f.loops.len()];
        for l in &f.loops {
            let mut p = l.parent;
            while let Some(k) = p {
                has_inner[k] = true;
                p = f.loops[k].parent;
            }
        }
        let text_is_leaf =
            |li: usize| crate::leaf_loop::is_leaf(&src.text[f.loops[li].unit.start..f.loops[li].unit.end]);
        let leaf: Vec<bool> =
            (0..f.loops.len()).map(|li| leaves_allowed && probed(li) && !has_inner[li] && text_is_leaf(li)).collect();
        // A loop whose every inner loop is a probed leaf directly in it, with no call in its own
        // text either, is a leaf parent: its begin and end are stored beside its leaves' runs.
        let mut parent_of_others = vec![false; f.loops.len()];
        for (k, l) in f.loops.iter().enumerate() {
            if let Some(p) = l.parent {
                parent_of_others[p] |= !leaf[k];
                let mut up = f.loops[p].parent;
                while let Some(a) = up {
                    parent_of_others[a] = true; // a grandchild: not a leaf parent
                    up = f.loops[a].parent;
                }
            }
        }
        let leaf_parent =
            |li: usize| leaves_allowed && probed(li) && has_inner[li] && !parent_of_others[li] && text_is_leaf(li);
        // The frames (one per loop probe) and, per loop, the probe that counts its trips.
        let mut loop_ids: Vec<Option<u32>> = vec![None; f.loops.len()];
        let mut counted_by: Vec<Option<u32>> = vec![None; f.loops.len()];
        for (li, l) in f.loops.iter().enumerate() {
            if !probed(li) || counted_by[li].is_some() {
                continue;
            }
            let nest = nests.iter().find(|n| n[0] == li);
            let members = match nest {
                Some(n) if hardware => n.as_slice(),
                _ => std::slice::from_ref(&li),
            };
            let id = *next_id;
            *next_id += 1;
            loop_ids[li] = Some(id);
            let parent = f.loop_chain(li).iter().rev().skip(1).find_map(|&a| counted_by[a]).unwrap_or(fid);
            for &m in members {
                counted_by[m] = Some(id);
            }
            plan.probes.push(PlannedProbe {
                loop_index: Some(li),
                parent: Some(parent),
                nest: nest.map(|n| NestPlan { members: n.clone(), unit: hardware }),
                ..PlannedProbe::new(id, ProbeKind::Loop, fi)
            });
            // The unbraced body of a probed loop is braced by that loop's plan already.
            let braced_by_parent =
                l.parent.is_some_and(|p| sel.loops[p] && !f.loops[p].body_is_block && f.loops[p].body == l.unit);
            let braces = target.vitis || (!l.unit_in_list && !braced_by_parent);
            let innermost = &f.loops[*members.last().expect("a loop")];
            let kind = match members.len() {
                1 if leaf[li] => "LEAF",
                1 if leaf_parent(li) => "LEAF_PARENT",
                _ => "LOOP",
            };
            plan_loop(l, innermost, id, opts(kinds), braces, kind, &mut plan.edits);
        }
        if !hw_top && !hw_dataflow {
            plan_function(f, fid, &loop_ids, kinds, &mut plan.edits);
        }
        if !hardware {
            // C simulation: an unnamed stream takes its variable's name, so a deadlock report
            // says `s3`, not `hls::stream<int>.5`; after a declaration, before anything else
            // inserted there. A stream parameter names the caller's stream when nothing did (the top's ports
            // name the testbench's streams); an empty body is left alone. The statements at one
            // offset are one token run (as separate tokens they would have no defined order).
            let open_at = f.body.start + 1;
            let params: Vec<&str> = f
                .params
                .iter()
                .filter(|p| p.kind == crate::model::ParamKind::Stream && !p.name.is_empty())
                .map(|p| p.name.as_str())
                .collect();
            if f.falls_off_at != Some(open_at) && !params.is_empty() {
                plan.edits.push(Edit::token(open_at, stream_names(params), Rank::open(FUNCTION_LEVEL, 3)));
            }
            let mut decls = f.stream_decls.iter().peekable();
            while let Some((name, at)) = decls.next() {
                let mut names = vec![name.as_str()];
                while let Some((n, _)) = decls.next_if(|(_, a)| a == at) {
                    names.push(n.as_str());
                }
                plan.edits.push(Edit::token(*at, stream_names(names), Rank::close(i32::MAX, 0)));
            }
        }
    }
    let probed = !plan.probes.is_empty() || !plan.sites.is_empty();
    if probed && !target.vitis && !target.piece {
        plan.edits.push(include_edit(src, target));
    }
    plan
}

/// The include line of the probes' header, first in the file (after a byte order mark).
pub fn include_edit(src: &SourceFile, target: PlanTarget) -> Edit {
    let include = if target.opencl { CL_INCLUDE_LINE } else { INCLUDE_LINE };
    Edit::raw(src.bom_len(), format!("{include}{}", src.eol()), Rank::open(i32::MIN, 0))
}

/// `HLSINSTR_STREAM_NAME(a); HLSINSTR_STREAM_NAME(b);`
fn stream_names(names: Vec<&str>) -> String {
    names.iter().map(|n| format!("HLSINSTR_STREAM_NAME({n});")).collect::<Vec<_>>().join(" ")
}

/// The branch trace of function `fi` (see [`crate::cfg`]), or the reason it has none. In OpenCL
/// C the function's records go to an iBuffer unit of its own (a `trace` probe, the next id) and
/// its site ids count from 0 in that unit.
fn plan_trace(
    f: &Function,
    fi: usize,
    kinds: Kinds,
    model: &FileModel,
    opencl: bool,
    next_id: &mut u32,
    plan: &mut FilePlan,
) {
    let cl = opencl.then_some(crate::cfg::plan::NoDestructor {
        unit: *next_id,
        open_at: f.body.start + 1,
        falls_off_at: f.falls_off_at,
    });
    let planned = match model.cfgs.get(fi) {
        Some(Ok(cfg)) => {
            let mut edits = Vec::new();
            let mut sites = Vec::new();
            let mut id = if opencl { 0 } else { *next_id };
            crate::cfg::plan::plan_function(fi, cfg, opts(kinds), cl, &mut id, &mut edits, &mut sites)
                .map(|t| (t, edits, sites, id))
        }
        Some(Err(why)) => Err(why.clone()),
        None => Err("its body was not found in the syntax tree".into()),
    };
    match planned {
        Ok((traced, edits, sites, id)) => {
            if let Some(cl) = cl {
                *next_id += 1;
                plan.probes.push(PlannedProbe::new(cl.unit, ProbeKind::Trace, fi));
            } else {
                *next_id = id;
            }
            plan.edits.extend(edits);
            plan.sites.extend(sites);
            plan.traced.push(traced);
        }
        Err(why) => plan.warnings.push((f.line, f.col, format!("{}: not traced: {why}", f.qualified))),
    }
}

fn opts(kinds: Kinds) -> &'static str {
    match (kinds.timestamps, kinds.seq) {
        (false, false) => "P",
        (true, false) => "T",
        (false, true) => "S",
        (true, true) => "TS",
    }
}

/// Function-level nesting for edit ordering: below every loop.
pub(crate) const FUNCTION_LEVEL: i32 = -1;

fn plan_function(f: &Function, fid: u32, loop_ids: &[Option<u32>], kinds: Kinds, edits: &mut Vec<Edit>) {
    let o = opts(kinds);
    let dep = if kinds.timestamps {
        f.params.iter().find(|p| p.kind == crate::model::ParamKind::Scalar).map(|p| p.name.as_str()).unwrap_or("0")
    } else {
        "0"
    };
    let open_at = f.body.start + 1;
    edits.push(Edit::token(open_at, format!("HLSINSTR_FUNC_BEGIN({fid}, {o}, {dep});"), Rank::open(FUNCTION_LEVEL, 1)));
    if let Some(at) = f.falls_off_at {
        // In an empty body the end shares the begin's offset and must follow it (and the ports).
        let rank = if at == open_at { Rank::open(FUNCTION_LEVEL, 3) } else { Rank::close(FUNCTION_LEVEL, 0) };
        edits.push(Edit::token(at, format!("HLSINSTR_FUNC_END({fid}, {o}, 0);"), rank));
    }
    for r in &f.returns {
        match &r.value {
            None => {
                edits.push(Edit::token(r.keyword_end, format!("HLSINSTR_RETURN_VOID({fid}, {o})"), Rank::open(0, 0)))
            }
            Some(v) => {
                let mac = if f.returns_void { "HLSINSTR_RETURN_V" } else { "HLSINSTR_RETURN" };
                // `return(x);` / `return-x;`: the macro name must not glue to the keyword. The space
                // then goes before the name instead of after the comma, so `strip` knows which is ours.
                let open = if v.start == r.keyword_end {
                    format!(" {mac}({fid}, {o},")
                } else {
                    format!("{mac}({fid}, {o}, ")
                };
                edits.push(Edit::raw(v.start, open, Rank::open(0, 0)));
                edits.push(Edit::raw(v.end, ")", Rank::close(0, 0)));
            }
        }
    }
    // Labels reached by a goto from inside probed loops close those loops when control lands.
    let probed = |loops: &[usize]| loops.iter().filter(|&&l| loop_ids[l].is_some()).count();
    for label in &f.labels {
        let depth = probed(&label.loops);
        let leaves = f.gotos.iter().any(|g| g.label == label.name && probed(&g.loops) > depth);
        if !leaves {
            continue;
        }
        let level = 2 * label.loops.len() as i32;
        if !label.in_list {
            edits.push(Edit::token(label.unit.start, OPEN_BRACE, Rank::open(level, 0)));
            edits.push(Edit::token(label.unit.end, CLOSE_BRACE, Rank::close(level, 1)));
        }
        edits.push(Edit::token(label.colon_end, format!("HLSINSTR_UNWIND({fid}, {depth});"), Rank::open(level, 1)));
    }
}

/// Nesting level of the m_axi wrappers: inside every statement-level construct. Wrappers that
/// share an offset nest by the depth of the expression they wrap.
pub(crate) const EXPRESSION_LEVEL: i32 = 1 << 20;

/// Port probes of function `f` (ids right after `fid`, in parameter order), their registration
/// with the frame, and a counting wrapper at every access. In a C file the wrappers count an
/// element as `sizeof *p` (C has no decltype, probe_c.h), so a port of more than one dimension
/// is named down to one row (`*m` for `int m[R][C]`).
fn plan_ports(
    f: &Function,
    fi: usize,
    fid: u32,
    ports: &[BoundPort],
    c_file: bool,
    next_id: &mut u32,
    plan: &mut FilePlan,
) {
    let first = *next_id;
    for port in ports {
        let id = *next_id;
        *next_id += 1;
        plan.probes.push(PlannedProbe {
            parent: Some(fid),
            port: Some(port.clone()),
            ..PlannedProbe::new(id, ProbeKind::Port, fi)
        });
        let param = &f.maxi.params[port.param];
        let named = if c_file {
            format!("{}{}", "*".repeat(param.rank.saturating_sub(1)), param.name)
        } else {
            param.name.clone()
        };
        for u in &param.uses {
            let (mac, span, level) = match &u.kind {
                UseKind::Access { dir, wrap, depth, .. } => {
                    let mac = match dir {
                        Dir::Read => "HLSINSTR_MAXI_R",
                        Dir::Write => "HLSINSTR_MAXI_W",
                        Dir::ReadWrite => "HLSINSTR_MAXI_RW",
                    };
                    (mac, wrap, 2 * *depth as i32)
                }
                // Destination outside, source inside, when one size counts for two ports.
                UseKind::Memcpy { dir: Dir::Write, size, depth } => ("HLSINSTR_MAXI_WN", size, 2 * *depth as i32),
                UseKind::Memcpy { size, depth, .. } => ("HLSINSTR_MAXI_RN", size, 2 * *depth as i32 + 1),
                UseKind::Passed { .. } | UseKind::Uncounted(_) => continue,
            };
            let level = EXPRESSION_LEVEL + level;
            plan.edits.push(Edit::raw(span.start, format!("{mac}({id}, {named}, "), Rank::open(level, 0)));
            plan.edits.push(Edit::raw(span.end, ")", Rank::close(level, 0)));
        }
    }
    let count = *next_id - first;
    plan.edits.push(Edit::token(
        f.body.start + 1,
        format!("HLSINSTR_MAXI_PORTS({first}, {count});"),
        Rank::open(FUNCTION_LEVEL, 2),
    ));
}

/// Watch probes of function `f`: one id per access through the watched buffer or through a
/// `__global` pointer parameter of the same element type (it may alias the buffer), and their
/// configuration at the start of the body. A site whose statement can be followed by a probe
/// (see [`StmtSlot`]) and whose element is a scalar reports the element's value after the
/// statement (`HLSINSTR_WATCH_V`, `HLSINSTR_WATCH_POST`); any other reports the index.
fn plan_watch(src: &SourceFile, f: &Function, fi: usize, w: &WatchSpec, next_id: &mut u32, plan: &mut FilePlan) {
    let params = &f.maxi.params;
    let Some(named) = params.iter().position(|p| p.name == w.buffer) else {
        return;
    };
    let elem = element_type(&params[named].element_type);
    let sites: Vec<_> = crate::watch::may_touch(params, Some(named), &elem, |p| is_global(&src.text, p.line, p.col))
        .into_iter()
        .map(|c| (c.param, c.use_index, c.alias, c.dir, c.wrap, c.depth, c.stmt))
        .collect();
    // Each configuration is one statement at the start of the body, ordered by its rank's `sub`.
    if sites.len() > MAX_WATCH_SITES {
        plan.dropped.push((
            fi,
            format!(
                "{} accesses may touch `{}`: watch probes take at most {MAX_WATCH_SITES} per function",
                sites.len(),
                w.buffer
            ),
        ));
        return;
    }
    let (a, b) = w.covered();
    for (k, (pi, ui, alias, dir, wrap, depth, stmt)) in sites.into_iter().enumerate() {
        let p = &params[pi];
        let id = *next_id;
        *next_id += 1;
        // `p[i]` wraps the index, `*e` and `p->x` the pointer.
        let index =
            src.text[..wrap.start].trim_end().ends_with('[') && src.text[wrap.end..].trim_start().starts_with(']');
        let value_at = match (stmt, scalar_size(&elem)) {
            (_, None) => {
                Err(format!("the element type `{elem}` is not a scalar: its value cannot be sent as a number"))
            }
            (StmtSlot::Not(why), _) => Err(format!("the access is {why}: no probe can follow its statement")),
            (StmtSlot::Block { span, .. }, Some(_)) => Ok(span.end),
        };
        let mac = match (&value_at, index, dir) {
            (Ok(_), true, _) => "HLSINSTR_WATCH_V",
            (Ok(_), false, _) => "HLSINSTR_WATCH_PV",
            (Err(_), true, Dir::Read) => "HLSINSTR_WATCH_R",
            (Err(_), true, Dir::Write) => "HLSINSTR_WATCH_W",
            (Err(_), true, Dir::ReadWrite) => "HLSINSTR_WATCH_RW",
            (Err(_), false, Dir::Read) => "HLSINSTR_WATCH_PR",
            (Err(_), false, Dir::Write) => "HLSINSTR_WATCH_PW",
            (Err(_), false, Dir::ReadWrite) => "HLSINSTR_WATCH_PRW",
        };
        let level = EXPRESSION_LEVEL + 2 * depth as i32;
        plan.edits.push(Edit::raw(wrap.start, format!("{mac}({id}, {}, ", p.name), Rank::open(level, 0)));
        plan.edits.push(Edit::raw(wrap.end, ")", Rank::close(level, 0)));
        if let Ok(end) = value_at {
            plan.edits.push(Edit::token(
                end,
                format!("HLSINSTR_WATCH_POST({id});"),
                Rank::close(STATEMENT_LEVEL, k as u8),
            ));
        }
        plan.probes.push(PlannedProbe::watch(
            id,
            fi,
            WatchSite {
                param: pi,
                use_index: ui,
                alias,
                index_reason: value_at.clone().err(),
                by_address: false,
                offset: None,
            },
        ));
        // An index is no value: an invariant cannot be checked on it.
        let (vmin, vmax) = match (&w.invariant, &value_at) {
            (Some(inv), Ok(_)) => (inv.vmin, inv.vmax),
            _ => (i64::MIN, i64::MAX),
        };
        let (vmin, vmax, hits) = (long_literal(vmin), long_literal(vmax), u8::from(w.hits()));
        let mut config = match w.bound {
            Some(n) if !alias => {
                format!("HLSINSTR_WATCH_CFG_BOUNDS({id}, {}, {a}, {b}, {n}, {vmin}, {vmax}, {hits});", w.buffer)
            }
            _ => format!("HLSINSTR_WATCH_CFG({id}, {}, {a}, {b}, {vmin}, {vmax}, {hits});", w.buffer),
        };
        if value_at.is_ok() {
            config.push_str(&format!(" HLSINSTR_WATCH_DECL({id}, {});", p.name));
        }
        // After HLSINSTR_FUNC_BEGIN (sub 1) and the m_axi ports (2); an empty body has no sites.
        plan.edits.push(Edit::token(f.body.start + 1, config, Rank::open(FUNCTION_LEVEL, 4 + k as u8)));
    }
}

/// Probes that follow or precede a whole statement (`HLSINSTR_WATCH_POST`, `HLSINSTR_SNAP`):
/// inside every loop and label construct, outside every expression wrapper.
pub(crate) const STATEMENT_LEVEL: i32 = 1 << 19;

/// A `long` bound as OpenCL C source.
fn long_literal(v: i64) -> String {
    match v {
        i64::MIN => "LONG_MIN".into(),
        i64::MAX => "LONG_MAX".into(),
        v => v.to_string(),
    }
}

/// A declared element type without `const`/`volatile`.
pub(crate) fn element_type(t: &str) -> String {
    t.split_whitespace().filter(|w| !matches!(*w, "const" | "volatile")).collect::<Vec<_>>().join(" ")
}

/// Bytes of an OpenCL C scalar type (`int`, `unsigned char`, `ulong`, ...); none for anything
/// else (vectors, structs, typedefs we cannot see through).
pub fn scalar_size(t: &str) -> Option<u32> {
    let t = element_type(t);
    Some(match t.as_str() {
        "char" | "uchar" | "signed char" | "unsigned char" | "bool" => 1,
        "short" | "ushort" | "unsigned short" | "half" => 2,
        "int" | "uint" | "unsigned" | "unsigned int" | "float" => 4,
        "long" | "ulong" | "unsigned long" | "double" => 8,
        _ => return None,
    })
}

/// Bytes of an OpenCL C scalar or vector type (`float4`: 16; 3-element vectors take 4).
pub fn element_size(t: &str) -> Option<u32> {
    let t = element_type(t);
    if let Some(n) = scalar_size(&t) {
        return Some(n);
    }
    let digits = t.len() - t.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    let (base, lanes) = t.split_at(t.len() - digits);
    let lanes: u32 = match lanes.parse().ok()? {
        3 => 4,
        n @ (2 | 4 | 8 | 16) => n,
        _ => return None,
    };
    if base.contains(' ') || base == "bool" {
        return None;
    }
    Some(scalar_size(base)? * lanes)
}

/// Stall monitors of function `f`: for every statement on one of `lines` that loads from a
/// `__global` pointer parameter (a read `p[i]`/`*e`, not a target), two probes: a snapshot
/// right before the statement and one right after it, which sends the variable the statement
/// declares or assigns (when it is a scalar local) so that it depends on the loads.
fn plan_stall(src: &SourceFile, f: &Function, fi: usize, lines: &[usize], next_id: &mut u32, plan: &mut FilePlan) {
    for (span, loads) in stall_statements(src, f, lines) {
        let (before, after) = (*next_id, *next_id + 1);
        *next_id += 2;
        let access = loads.iter().map(|l| l.text.as_str()).collect::<Vec<_>>().join(", ");
        let dep = stall_dependence(f, &span, loads[0].assigns.as_deref());
        let first = &loads[0];
        for (id, pair, is_before) in [(before, after, true), (after, before, false)] {
            plan.probes.push(PlannedProbe {
                snap: Some(SnapSite {
                    before: is_before,
                    pair,
                    access: access.clone(),
                    dep: if is_before { None } else { dep.clone() },
                    line: first.line,
                    col: first.col,
                    buffer: first.buffer.clone(),
                }),
                ..PlannedProbe::new(id, ProbeKind::Snapshot, fi)
            });
        }
        let v = dep.as_deref().unwrap_or("0");
        plan.edits.push(Edit::token(
            span.start,
            format!("HLSINSTR_SNAP({before}, 0);"),
            Rank::open(STATEMENT_LEVEL - 1, 0),
        ));
        plan.edits.push(Edit::token(
            span.end,
            format!("HLSINSTR_SNAP({after}, {v});"),
            Rank::close(STATEMENT_LEVEL - 1, 0),
        ));
    }
}

/// One load a stall monitor covers.
#[derive(Debug, Clone)]
pub struct Load {
    pub text: String,
    pub line: usize,
    pub col: usize,
    pub buffer: String,
    pub assigns: Option<String>,
}

/// The loads from `__global` pointer parameters of `f` on `lines`, grouped by statement in
/// source order: `(statement span, loads)`; a load whose statement cannot take probes around it
/// is under an empty span with its reason as text (see [`stall_problems`]).
pub fn stall_statements(src: &SourceFile, f: &Function, lines: &[usize]) -> Vec<(crate::model::Span, Vec<Load>)> {
    let mut out: Vec<(crate::model::Span, Vec<Load>)> = Vec::new();
    let mut all = Vec::new();
    for p in f.maxi.params.iter().filter(|p| p.rank == 1 && is_global(&src.text, p.line, p.col)) {
        for u in p.uses.iter().filter(|u| lines.contains(&u.line)) {
            if let UseKind::Access { dir: Dir::Read, element, stmt: StmtSlot::Block { span, assigns }, .. } = &u.kind {
                let text = src.text[element.clone()].split_whitespace().collect::<Vec<_>>().join(" ");
                let load = Load { text, line: u.line, col: u.col, buffer: p.name.clone(), assigns: assigns.clone() };
                all.push((span.clone(), element.start, load));
            }
        }
    }
    all.sort_by_key(|(span, at, _)| (span.start, *at));
    for (span, _, load) in all {
        match out.last_mut() {
            Some((s, loads)) if *s == span => loads.push(load),
            _ => out.push((span, vec![load])),
        }
    }
    out
}

/// Loads from `__global` pointer parameters of `f` on `line` that no stall monitor can go
/// around: `(load text, why)`.
pub fn stall_problems(src: &SourceFile, f: &Function, line: usize) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for p in f.maxi.params.iter().filter(|p| p.rank == 1 && is_global(&src.text, p.line, p.col)) {
        for u in p.uses.iter().filter(|u| u.line == line) {
            if let UseKind::Access { dir: Dir::Read, element, stmt: StmtSlot::Not(why), .. } = &u.kind {
                out.push((src.text[element.clone()].split_whitespace().collect::<Vec<_>>().join(" "), why.clone()));
            }
        }
    }
    out
}

/// The variable the after snapshot of a statement sends: the one it declares or assigns, when
/// that is a local declared at or before the statement and every local of that name in the
/// function is a scalar (scopes are not tracked: a same-named vector elsewhere could be the one).
fn stall_dependence(f: &Function, stmt: &crate::model::Span, assigns: Option<&str>) -> Option<String> {
    let name = assigns?;
    let mut same = f.maxi.locals.iter().filter(|l| l.name == name).peekable();
    let declared_before = same.peek().is_some_and(|l| l.at <= stmt.start);
    let scalars = same.all(|l| l.plain && scalar_size(&l.type_text).is_some());
    (declared_before && scalars).then(|| name.to_string())
}

/// Watched accesses per function: each configuration needs its own rank at the body's start.
pub(crate) const MAX_WATCH_SITES: usize = 250;

/// The parameter whose name is at `line:col` (1-based, characters) is declared `__global` or
/// `global` (looked for between the name and the `(` or `,` before it, on the same line).
fn is_global(text: &str, line: usize, col: usize) -> bool {
    let Some(l) = text.split('\n').nth(line - 1) else {
        return false;
    };
    let before: String = l.chars().take(col - 1).collect();
    let decl = before.rsplit([',', '(']).next().unwrap_or("");
    decl.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).any(|w| w == "__global" || w == "global")
}

/// The perfect nests of `f` among the loops `probed` accepts, each outermost first (two or more
/// loops; see [`crate::model::nest`]).
fn loop_nests(f: &Function, probed: impl Fn(usize) -> bool + Copy) -> Vec<Vec<usize>> {
    let mut nests: Vec<Vec<usize>> = Vec::new();
    for li in (0..f.loops.len()).filter(|&li| probed(li)) {
        if nests.iter().any(|n| n.contains(&li)) {
            continue;
        }
        let members = nest::chain(f, li, probed);
        if members.len() > 1 {
            nests.push(members);
        }
    }
    nests
}

/// Perfectly nested loops of which only one is probed: the probe lands between them and makes
/// the nest imperfect, which changes what Vitis or aoc builds from it.
fn split_nest_warnings(f: &Function, probed: impl Fn(usize) -> bool) -> Vec<(usize, usize, String)> {
    let mut out = Vec::new();
    // Without a probed loop there is nothing to warn about (and the loops may have no details).
    if !(0..f.loops.len()).any(&probed) {
        return out;
    }
    for (outer, l) in f.loops.iter().enumerate() {
        let Ok(inner) = nest::link(f, outer, &[]) else { continue };
        let c = &f.loops[inner];
        let (what, at) = match (probed(outer), probed(inner)) {
            (true, false) => (format!("the probe of loop {} sits around {}, which is excluded", l.name(), c.name()), l),
            (false, true) => {
                (format!("the probe of loop {} sits in the body of {}, which is not probed", c.name(), l.name()), c)
            }
            _ => continue,
        };
        out.push((
            at.line,
            at.col,
            format!(
                "{what}: the perfect nest {} becomes imperfect, so Vitis will not flatten it (aoc will not coalesce it); probe both loops (then they are one unit) or neither",
                nest::flattened_name(f, &[outer, inner])
            ),
        ));
    }
    out
}

/// Loops that ask to be merged with their only inner loop (`#pragma HLS loop_flatten` in either
/// body, `#pragma loop_coalesce` before the outer one) but are probed one by one, because the
/// inner loop cannot be merged (see [`nest::link`]): the probes between them may stop the merge.
fn unmerged_nest_warnings(
    src: &SourceFile,
    f: &Function,
    probed: impl Fn(usize) -> bool,
) -> Vec<(usize, usize, String)> {
    let flatten = |li: usize| f.loops[li].pragmas.iter().any(|p| p.directive == "LOOP_FLATTEN" && !p.has_flag("off"));
    let coalesce = |li: usize| {
        let l = &f.loops[li];
        let before = l.details().before;
        src.text[before.min(l.unit.start)..l.unit.start].contains("loop_coalesce")
    };
    let mut out = Vec::new();
    for (li, l) in f.loops.iter().enumerate() {
        if !probed(li) {
            continue;
        }
        let Some(inner) = l.details().only_child else { continue };
        let Err(why) = nest::link(f, li, &[]) else { continue };
        let asked = if coalesce(li) {
            "#pragma loop_coalesce"
        } else if flatten(li) || flatten(inner) {
            "#pragma HLS loop_flatten"
        } else {
            continue;
        };
        out.push((
            l.line,
            l.col,
            format!(
                "loop {} asks to be merged with {} ({asked}), but {why}: the nest is probed loop by loop, and the probes between the loops may keep it from being merged",
                l.name(),
                f.loops[inner].name()
            ),
        ));
    }
    out
}

/// Probes of loop `l`: begin before it, end after it, and the trip count first in the body of
/// `innermost` (`l` itself, or the innermost loop of the perfect nest `l` heads).
/// `kind` is `LOOP`, or for a leaf and a leaf parent (see [`crate::leaf_loop`]) `LEAF` and
/// `LEAF_PARENT`: `HLSINSTR_{kind}_BEGIN`/`HLSINSTR_{kind}_END`.
fn plan_loop(l: &Loop, innermost: &Loop, id: u32, o: &str, needs_braces: bool, kind: &str, edits: &mut Vec<Edit>) {
    let level = 2 * l.depth as i32;
    if needs_braces {
        edits.push(Edit::token(l.unit.start, OPEN_BRACE, Rank::open(level, 0)));
        edits.push(Edit::token(l.unit.end, CLOSE_BRACE, Rank::close(level, 1)));
    }
    edits.push(Edit::token(l.details().before, format!("HLSINSTR_{kind}_BEGIN({id}, {o}, 0);"), Rank::open(level, 1)));
    edits.push(Edit::token(l.unit.end, format!("HLSINSTR_{kind}_END({id}, {o}, 0);"), Rank::close(level, 0)));
    let iter = format!("HLSINSTR_LOOP_ITER({id});");
    let (body, level) = (&innermost.body, 2 * innermost.depth as i32);
    if innermost.body_is_block {
        edits.push(Edit::token(body.start + 1, iter, Rank::open(level + 1, 1)));
    } else {
        edits.push(Edit::token(body.start, OPEN_BRACE, Rank::open(level + 1, 0)));
        edits.push(Edit::token(body.start, iter, Rank::open(level + 1, 1)));
        edits.push(Edit::token(body.end, CLOSE_BRACE, Rank::close(level + 1, 1)));
    }
}

/// A goto to a probed loop's own label would enter the loop behind its begin probe.
fn goto_to_loop_label(f: &Function, sel: &FnSelection) -> Option<String> {
    for g in &f.gotos {
        for (li, l) in f.loops.iter().enumerate() {
            if sel.loops[li]
                && f.labels
                    .iter()
                    .any(|lab| lab.name == g.label && l.unit.start <= lab.unit.start && lab.colon_end <= l.body.start)
            {
                return Some(format!(
                    "goto {} at {}:{} targets the label of a probed loop; exclude the loop with `#pragma HLSINSTR off`",
                    g.label, g.line, g.col
                ));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opencl_element_sizes() {
        let sizes: Vec<Option<u32>> = [
            "const int",
            "uchar",
            "unsigned int",
            "double",
            "half",
            "float4",
            "int3",
            "char16",
            "long8",
            "pair_t",
            "float5",
            "bool2",
        ]
        .iter()
        .map(|t| element_size(t))
        .collect();
        assert_eq!(
            sizes,
            [Some(4), Some(1), Some(4), Some(8), Some(2), Some(16), Some(16), Some(16), Some(64), None, None, None]
        );
        assert_eq!((scalar_size("volatile ulong"), scalar_size("float4")), (Some(8), None));
        assert_eq!(
            (long_literal(i64::MIN), long_literal(-5), long_literal(i64::MAX)),
            ("LONG_MIN".into(), "-5".into(), "LONG_MAX".into())
        );
    }
}
