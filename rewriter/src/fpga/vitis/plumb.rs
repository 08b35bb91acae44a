//! Stage 3c for `--target vitis`: which FIFOs each function needs, and the edits that pass them.

use crate::edit::{Edit, Rank};
use crate::emit::manifest::HwDerived;
use crate::error::{Error, ErrorKind, Result};
use crate::model::{FileModel, Function, Param, Signature};
use crate::plan::{FilePlan, ProbeKind, TB_INCLUDE_LINE, VITIS_INCLUDE_LINE};
use crate::select::{FunctionIndex, Kinds};
use crate::source::SourceFile;
use std::collections::{BTreeSet, HashMap};

use super::VitisOptions;

/// What the generated build needs to know about the original top.
#[derive(Debug, Clone)]
pub struct TopInfo {
    pub name: String,
    /// The file defining it (relative path); the generated files go beside it.
    pub file: String,
    pub return_type: String,
    pub returns_void: bool,
    /// Parameter declarations as written, and as the model reads them (name, type, kind).
    pub params: Vec<String>,
    pub model_params: Vec<Param>,
    /// A scalar parameter: the timestamp dependence of the top's begin event.
    pub dep: Option<String>,
    /// The `#include "..."` lines of its file: what its parameter types need.
    pub includes: Vec<String>,
    /// Its `#pragma HLS INTERFACE` lines, copied onto the new top.
    pub interface_pragmas: Vec<String>,
    /// Its function probe (none in a build with the trace only).
    pub probe: Option<u32>,
}

/// The in-FPGA design the generated files wrap.
#[derive(Debug, Clone)]
pub struct HwDesign {
    pub top: TopInfo,
    pub instr_top: String,
    /// FIFOs the original top takes (its added parameters, in order).
    pub top_streams: Vec<u32>,
    /// Probes the monitor watches, ascending: the top's, then every probe posted in a body.
    pub slots: Vec<u32>,
    pub derived: Vec<HwDerived>,
    pub fifo_depth: u32,
    pub timestamps: bool,
    /// Record sites post into the trace FIFO ([`TRACE_STREAM`]; `branches`, `watch`).
    pub trace: bool,
    /// Files of the design (with a definition reached from the top) and testbench files.
    pub kernel_files: Vec<String>,
    pub tb_files: Vec<String>,
}

type Key = (usize, usize);

/// The trace FIFO among the FIFO ids of a function: the one FIFO every record site posts into
/// (`HLSINSTR_TRACE& hlsinstr_tr`, passed on as `HLSINSTR_TR()`), ordered after every probe's.
pub const TRACE_STREAM: u32 = u32::MAX;
pub use crate::strip::{TRACE_ARG, TRACE_PARAM};

fn param_text(id: u32) -> String {
    if id == TRACE_STREAM {
        TRACE_PARAM.to_string()
    } else {
        format!("{}{id}", crate::strip::PARAM_PREFIX)
    }
}

fn arg_text(id: u32) -> String {
    if id == TRACE_STREAM {
        TRACE_ARG.to_string()
    } else {
        format!("HLSINSTR_P({id})")
    }
}

/// Add the FIFO parameters, arguments, testbench redirections and include lines to `plans`.
pub fn plumb(
    files: &[(&SourceFile, &FileModel)],
    plans: &mut [FilePlan],
    kinds: Kinds,
    top: &str,
    opts: &VitisOptions,
) -> Result<HwDesign> {
    if kinds.seq || kinds.maxi {
        return Err(Error::new(
            ErrorKind::Usage,
            "--target vitis measures modules and loops (with timestamps); seq and maxi are C-simulation kinds: drop them",
        ));
    }
    let func = |k: Key| -> &Function { &files[k.0].1.functions[k.1] };
    let index = FunctionIndex::new(files.iter().map(|(_, m)| *m));
    let key = |i: usize| -> Key { (index.all[i].0, index.all[i].1) };
    // Functions a call of `name` may reach (resolved by name, as `select` does).
    let named = |name: &str| -> Vec<Key> { index.named(name).iter().map(|&i| key(i)).collect() };
    let tops = named(top);
    let top_key = match tops.as_slice() {
        [k] => *k,
        [] => {
            // The in-FPGA build wraps the top itself: a skipped top cannot be worked around.
            let skipped = files.iter().flat_map(|(_, m)| &m.skipped).find(|s| s.function == top);
            let why = match skipped {
                Some(s) => format!("it is left untouched ({}:{}: {}); fix that first", s.line, s.col, s.reason),
                None => "no such function defined in the inputs".to_string(),
            };
            return Err(Error::new(ErrorKind::Usage, format!("--top {top}: {why}")));
        }
        _ => {
            return Err(Error::new(
                ErrorKind::Usage,
                format!("--top {top}: defined {} times; the in-FPGA build needs one top", tops.len()),
            ))
        }
    };
    let callees = |k: Key| -> Vec<Key> { func(k).calls.iter().flat_map(|c| named(&c.name)).collect() };
    let design: BTreeSet<Key> = index.reach(index.named(top).to_vec()).into_iter().map(key).collect();

    // Probes each function posts itself, and the top's (posted by the generated wrapper).
    let mut own: HashMap<Key, Vec<u32>> = HashMap::new();
    let mut top_probe = None;
    let mut dataflow_probes: Vec<(Key, u32)> = Vec::new();
    for (fi, plan) in plans.iter().enumerate() {
        for p in &plan.probes {
            let k = (fi, p.function);
            match p.kind {
                ProbeKind::Function if k == top_key => top_probe = Some(p.id),
                ProbeKind::Function if func(k).dataflow() => dataflow_probes.push((k, p.id)),
                ProbeKind::Function | ProbeKind::Loop => own.entry(k).or_default().push(p.id),
                // A watch site's events are records of the trace.
                ProbeKind::Watch => own.entry(k).or_default().push(TRACE_STREAM),
                ProbeKind::Port | ProbeKind::Snapshot | ProbeKind::Trace => {}
            }
        }
        // Record sites: the function posts into the trace FIFO.
        for t in &plan.traced {
            own.entry((fi, t.function)).or_default().push(TRACE_STREAM);
        }
    }
    let trace = own.iter().any(|(k, v)| design.contains(k) && v.contains(&TRACE_STREAM));
    // The monitor needs the top's probe (its begin and end frame the run); a trace-only build has none.
    let other_probes = own.iter().any(|(k, v)| design.contains(k) && v.iter().any(|&id| id != TRACE_STREAM));
    if top_probe.is_none() && (!trace || other_probes) {
        return Err(Error::new(
            ErrorKind::Usage,
            format!("--top {top} is not probed (`#pragma HLSINSTR off`, or --only leaves it out)"),
        ));
    }

    let streams = streams_needed(&design, &own, &callees, func)?;
    let needs = |k: &Key| -> &BTreeSet<u32> { &streams[k] };
    check_dataflow_writers(&design, &callees, &streams, func, files)?;
    check_overloads(&design, &streams, func)?;

    let mut edited: BTreeSet<usize> = BTreeSet::new();
    let mut tb: BTreeSet<usize> = BTreeSet::new();
    for &k in &design {
        let f = func(k);
        let s = needs(&k);
        if !s.is_empty() {
            let params = param_edit(&f.signature, s)
                .map_err(|m| Error::new(ErrorKind::BadInput, m).at(&files[k.0].0.path).at_line(f.line, f.col))?;
            plans[k.0].edits.push(params);
            edited.insert(k.0);
        }
        for c in &f.calls {
            let Some(g) = &named(&c.name).into_iter().find(|t| design.contains(t)) else { continue };
            let s = needs(g);
            if s.is_empty() || c.args_span.is_empty() {
                continue;
            }
            let text: Vec<String> = s.iter().map(|&id| arg_text(id)).collect();
            let sep = if c.args.is_empty() { "" } else { ", " };
            plans[k.0].edits.push(list_item(c.args_span.end - 1, format!("{sep}{}", text.join(", "))));
            edited.insert(k.0);
        }
    }
    // Callers outside the design: the testbench.
    for (fi, (src, m)) in files.iter().enumerate() {
        for (ni, f) in m.functions.iter().enumerate() {
            if design.contains(&(fi, ni)) {
                continue;
            }
            for c in &f.calls {
                let Some(g) = &named(&c.name).into_iter().find(|t| design.contains(t)) else {
                    continue;
                };
                if *g == top_key && c.callee == top {
                    plans[fi].edits.push(Edit::raw(
                        c.callee_span.start,
                        "HLSINSTR_TB_CALL(",
                        Rank::open(LIST_LEVEL, 0),
                    ));
                    plans[fi].edits.push(Edit::raw(c.callee_span.end, ")", Rank::close(LIST_LEVEL, 0)));
                    tb.insert(fi);
                } else if !needs(g).is_empty() {
                    return Err(Error::new(
                        ErrorKind::Usage,
                        format!(
                            "{} calls `{}`, which is part of the design below --top {top} and now takes probe FIFOs; call only the top from outside the design, or exclude `{}` with `#pragma HLSINSTR off`",
                            f.qualified, c.callee, c.name
                        ),
                    )
                    .at(&src.path)
                    .at_line(c.line, 1));
                }
            }
        }
    }
    // Declarations without a body get the same parameters as the definition (not the top's: the
    // testbench's declaration of it stays; the generated top declares what it calls).
    for (fi, (src, m)) in files.iter().enumerate() {
        for p in &m.prototypes {
            let Some(g) = &named(&p.name).into_iter().find(|t| design.contains(t)) else {
                continue;
            };
            let s = needs(g);
            if *g == top_key || s.is_empty() {
                continue;
            }
            let e = param_edit(&p.signature, s)
                .map_err(|msg| Error::new(ErrorKind::BadInput, msg).at(&src.path).at_line(p.line, p.col))?;
            plans[fi].edits.push(e);
            edited.insert(fi);
        }
    }
    for (fi, plan) in plans.iter_mut().enumerate() {
        let kernel = edited.contains(&fi) || !plan.probes.is_empty();
        let eol = files[fi].0.eol();
        let bom = files[fi].0.bom_len();
        if kernel {
            plan.edits.push(Edit::raw(bom, format!("{VITIS_INCLUDE_LINE}{eol}"), Rank::open(i32::MIN, 0)));
        }
        if tb.contains(&fi) {
            plan.edits.push(Edit::raw(bom, format!("{TB_INCLUDE_LINE}{eol}"), Rank::open(i32::MIN, 1)));
        }
    }

    let top_fn = func(top_key);
    let top_src = files[top_key.0].0;
    let info = top_info(top_fn, top_src, top_probe)?;
    let mut slots: Vec<u32> = own
        .iter()
        .filter(|(k, _)| design.contains(k))
        .flat_map(|(_, v)| v.iter().copied().filter(|&id| id != TRACE_STREAM))
        .collect();
    slots.extend(top_probe);
    slots.sort_unstable();
    let derived = dataflow_probes
        .iter()
        .filter(|(k, _)| design.contains(k))
        .map(|(k, id)| HwDerived {
            probe: *id,
            from: needs(k).iter().copied().collect(),
            reason: "dataflow region: measured from the first start to the last end of its processes".into(),
        })
        .collect();
    let kernel_files: BTreeSet<usize> = design.iter().map(|k| k.0).collect();
    Ok(HwDesign {
        instr_top: opts.instr_top.clone().unwrap_or_else(|| format!("{top}_instr")),
        top_streams: needs(&top_key).iter().copied().collect(),
        top: info,
        slots,
        derived,
        fifo_depth: opts.fifo_depth,
        timestamps: kinds.timestamps,
        trace,
        kernel_files: kernel_files.iter().map(|&i| files[i].0.rel.clone()).collect(),
        tb_files: tb.iter().filter(|i| !kernel_files.contains(i)).map(|&i| files[i].0.rel.clone()).collect(),
    })
}

/// Added parameters and arguments sit inside a list, below every statement-level edit.
const LIST_LEVEL: i32 = 1 << 24;

fn list_item(at: usize, text: String) -> Edit {
    Edit::raw(at, text, Rank::close(LIST_LEVEL, 0))
}

fn param_edit(sig: &Signature, streams: &BTreeSet<u32>) -> std::result::Result<Edit, String> {
    if sig.list.is_empty() {
        return Err("cannot find the parameter list to add probe FIFOs to".into());
    }
    if sig.void_list {
        return Err("parameter list `(void)`: write `()` so probe FIFOs can be added".into());
    }
    let text: Vec<String> = streams.iter().map(|&id| param_text(id)).collect();
    let sep = if sig.params.is_empty() { "" } else { ", " };
    Ok(list_item(sig.list.end - 1, format!("{sep}{}", text.join(", "))))
}

/// The FIFOs each function of the design needs: its own probes' and its callees'.
fn streams_needed<'a>(
    design: &BTreeSet<Key>,
    own: &HashMap<Key, Vec<u32>>,
    callees: &dyn Fn(Key) -> Vec<Key>,
    func: impl Fn(Key) -> &'a Function,
) -> Result<HashMap<Key, BTreeSet<u32>>> {
    // Post-order over the call graph, with an explicit stack; a cycle is recursion, which HLS
    // cannot synthesize either.
    let recursive = |k: Key| {
        Error::new(
            ErrorKind::Usage,
            format!(
                "`{}` is recursive: HLS cannot synthesize it, and FIFOs cannot be passed down a cycle",
                func(k).qualified
            ),
        )
    };
    let mut done: HashMap<Key, BTreeSet<u32>> = HashMap::new();
    let mut on_path: BTreeSet<Key> = BTreeSet::new();
    for &start in design {
        let mut stack = vec![(start, false)];
        while let Some((k, expanded)) = stack.pop() {
            if done.contains_key(&k) {
                continue;
            }
            if expanded {
                let mut s: BTreeSet<u32> = own.get(&k).into_iter().flatten().copied().collect();
                for c in callees(k) {
                    s.extend(done.get(&c).into_iter().flatten().copied());
                }
                on_path.remove(&k);
                done.insert(k, s);
                continue;
            }
            if !on_path.insert(k) {
                return Err(recursive(k));
            }
            stack.push((k, true));
            for c in callees(k) {
                if !done.contains_key(&c) {
                    if on_path.contains(&c) {
                        return Err(recursive(c));
                    }
                    stack.push((c, false));
                }
            }
        }
    }
    Ok(done)
}

/// In a dataflow region each FIFO may have one writer: two processes reaching the same probe
/// (the same function called twice, say) cannot both post into its FIFO.
fn check_dataflow_writers<'a>(
    design: &BTreeSet<Key>,
    callees: &dyn Fn(Key) -> Vec<Key>,
    streams: &HashMap<Key, BTreeSet<u32>>,
    func: impl Fn(Key) -> &'a Function,
    files: &[(&SourceFile, &FileModel)],
) -> Result<()> {
    for &k in design.iter().filter(|k| func(**k).dataflow()) {
        let mut writer: HashMap<u32, usize> = HashMap::new();
        let f = func(k);
        for (ci, c) in f.calls.iter().enumerate() {
            let targets: Vec<Key> = callees(k).into_iter().filter(|t| func(*t).name == c.name).collect();
            for t in targets {
                for id in &streams[&t] {
                    if let Some(prev) = writer.insert(*id, ci) {
                        if prev != ci {
                            let id = if *id == TRACE_STREAM {
                                "the trace FIFO (record sites)".to_string()
                            } else {
                                format!("probe {id}")
                            };
                            return Err(Error::new(
                                ErrorKind::Usage,
                                format!(
                                    "dataflow region `{}`: the processes at lines {} and {} both reach {id}, and a FIFO has one writer in a dataflow region; exclude the shared function with `#pragma HLSINSTR off`",
                                    f.qualified, f.calls[prev].line, c.line
                                ),
                            )
                            .at(&files[k.0].0.path)
                            .at_line(c.line, 1));
                        }
                    }
                }
            }
        }
    }
    Ok(())
}

/// Calls are resolved by name: overloads in the design must need the same FIFOs.
fn check_overloads<'a>(
    design: &BTreeSet<Key>,
    streams: &'a HashMap<Key, BTreeSet<u32>>,
    func: impl Fn(Key) -> &'a Function,
) -> Result<()> {
    let mut seen: HashMap<&str, &BTreeSet<u32>> = HashMap::new();
    for k in design {
        let name = func(*k).name.as_str();
        if let Some(prev) = seen.insert(name, &streams[k]) {
            if prev != &streams[k] {
                return Err(Error::new(
                    ErrorKind::Usage,
                    format!("`{name}` is overloaded in the design and its overloads reach different probes; calls are matched by name, so exclude one with `#pragma HLSINSTR off`"),
                ));
            }
        }
    }
    Ok(())
}

fn top_info(f: &Function, src: &SourceFile, probe: Option<u32>) -> Result<TopInfo> {
    let at = |m: String| Error::new(ErrorKind::Usage, m).at(&src.path).at_line(f.line, f.col);
    if f.qualified != f.name {
        return Err(at(format!(
            "the top `{}` is inside a namespace or class; the in-FPGA build needs a top at file scope",
            f.qualified
        )));
    }
    if f.params.len() != f.signature.params.len() {
        return Err(at("every parameter of the top needs a name: the new top passes them on".into()));
    }
    let body = &src.text[f.body.clone()];
    let interface_pragmas = body
        .lines()
        .map(str::trim)
        .filter(|l| {
            let words: Vec<String> = l.split_whitespace().take(3).map(str::to_ascii_lowercase).collect();
            words.len() == 3 && words[0] == "#pragma" && words[1] == "hls" && words[2] == "interface"
        })
        .map(str::to_string)
        .collect();
    let includes = src
        .text
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("#include \"") && !l.contains("hlsinstr"))
        .map(str::to_string)
        .collect();
    Ok(TopInfo {
        name: f.name.clone(),
        file: src.rel.clone(),
        return_type: f.signature.return_type.clone(),
        returns_void: f.returns_void,
        params: f.signature.params.clone(),
        model_params: f.params.clone(),
        dep: f.params.iter().find(|p| p.kind == crate::model::ParamKind::Scalar).map(|p| p.name.clone()),
        includes,
        interface_pragmas,
        probe,
    })
}
