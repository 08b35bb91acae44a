//! The associative rules and the per-cycle attribution.
//!
//! Per cycle (rising edge of `ap_clk`), per module instance:
//! - **started**: an instance counts only while `ap_start` is high or its FSM is away from its
//!   idle state (state 1 with no pipeline iteration in flight); cycles before the top starts and
//!   after its `ap_done` are outside the run;
//! - **states**: the FSM's encoding (one-hot or binary, from the RTL's `ap_ST_fsm_*`
//!   parameters) gives the state; a pipeline state (`ap_ST_fsm_ppK_stageJ`) stands for the
//!   report's states `J, J+II, J+2·II, ...` of pipeline K, each counted only while its
//!   iteration's `ap_enable_reg_ppK_iterI` is high;
//! - **predicates**: a line whose operations in the state are all predicated counts only when a
//!   predicate holds, read from the RTL signals of the predicate's values (`<v>_fu_N_pM` in the
//!   state that computes `v`, `<v>_reg_N` after it). When a value has no signal in the
//!   waveform the line counts as active and is marked `unresolved`: mutually exclusive arms
//!   then split the cycle evenly (the seed's limitation, said in the output).
//!
//! Each cycle of the run gives one unit of "share": split evenly among the distinct lines of
//! the innermost active instances (those with no active child: a caller waiting in a call
//! state gets none while its callee runs), or, when those have no tagged line in their state,
//! to their module's `(no source line)`. Shares add up to the run's cycles.
//!
//! Dataflow: a module without an FSM of its own (a dataflow region) runs from its ap_start
//! through its ap_done (ap_start falls at ap_ready, before its processes finish); each process
//! instance counts its own cycles from its own ap_start and FSM, so processes overlap and their
//! `active` cycles may add up to more than the run, while a cycle in which several run is one
//! unit of share split among all their lines: the run is never counted twice.

use super::rtl::Bits;
use super::sched::{Lit, Predicate};
use super::wave::{Scope, SigId, Wave};
use super::{Design, LocInfo};
use crate::error::{Error, ErrorKind, Result};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};

/// Options of [`profile`].
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Dot-separated scope of the top instance in the waveform (default: found by its signals
    /// and sub-instances).
    pub scope: Option<String>,
}

/// Receives one slice per stretch of cycles an instance stays in the same states.
pub trait TraceSink {
    /// Called once before any slice: the track names (instance paths), index = track.
    fn tracks(&mut self, names: &[String]) -> Result<()>;
    fn slice(&mut self, track: usize, name: &str, start: u64, cycles: u64, lines: &str) -> Result<()>;
}

/// The profile of one waveform.
#[derive(Debug, Clone, Serialize)]
pub struct Profile {
    pub top: String,
    /// Scope of the top instance in the waveform.
    pub scope: String,
    /// Rising clock edges in the waveform.
    pub edges: u64,
    /// Cycles the top was running (summed over calls): the run.
    pub cycles: u64,
    /// Cycles of the run in which two or more innermost instances ran at once (dataflow
    /// processes, concurrent calls): each is still one cycle of the run, shared among their lines.
    pub concurrent_cycles: u64,
    pub calls: Vec<Call>,
    /// Source positions, indexed by `lines[].loc` and `modules[].lines[].loc`.
    pub locs: Vec<LocInfo>,
    /// Per source line, over all instances: most share first.
    pub lines: Vec<LineStats>,
    pub modules: Vec<ModuleStats>,
    pub instances: Vec<InstanceStats>,
    /// What the profile could not do exactly (missing signals, unresolved predicates).
    pub notes: Vec<String>,
}

/// One call of the top: from the cycle it starts to the cycle of its `ap_done`.
#[derive(Debug, Clone, Serialize)]
pub struct Call {
    /// Cycle numbers count rising edges of the waveform from 0.
    pub start: u64,
    pub end: u64,
    pub cycles: u64,
    /// `true` when the waveform ended before `ap_done`.
    pub unfinished: bool,
    /// The call's own line table (the first [`MAX_CALL_DETAIL`] calls; empty after them).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub lines: Vec<LineStats>,
}

/// Calls after this many keep only their cycles: per-call line tables grow with calls × lines.
pub const MAX_CALL_DETAIL: usize = 100;

#[derive(Debug, Clone, Default, Serialize)]
pub struct LineStats {
    pub loc: usize,
    /// Cycles in which the line ran (in any instance).
    pub active: u64,
    /// Cycles in which it was the only line of the innermost active instances.
    pub alone: u64,
    /// Its share of the run's cycles.
    pub share: f64,
    /// Active cycles counted with a predicate that could not be evaluated.
    pub unresolved: u64,
}

#[derive(Debug, Clone, Serialize)]
pub struct ModuleStats {
    pub module: String,
    pub rtl: String,
    /// Cycles in which an instance of it ran.
    pub active: u64,
    /// Calls of its instances (a call ends at ap_done; back-to-back calls count apart).
    pub starts: u64,
    /// Share of the run's cycles given to its lines and to its `(no source line)`.
    pub share: f64,
    /// Share of cycles in states without a tagged operation.
    pub untagged_share: f64,
    pub lines: Vec<LineStats>,
    pub pipelines: Vec<super::sched::Pipeline>,
}

#[derive(Debug, Clone, Serialize)]
pub struct InstanceStats {
    pub path: String,
    pub module: String,
    pub active: u64,
    pub starts: u64,
}

/// A line of a state with its condition, resolved against an instance's signals.
#[derive(Debug, Clone)]
struct LineCond {
    loc: usize,
    /// `None`: always. `Some(terms)`: DNF over watched slots; a literal without a slot
    /// (`usize::MAX`) makes the line unresolved.
    terms: Option<Dnf>,
}

const NO_SLOT: usize = usize::MAX;

/// A predicate's terms with each literal bound to a watched slot.
type Dnf = Vec<Vec<(Lit, usize)>>;

/// What an FSM encoding stands for.
#[derive(Debug, Clone, Copy)]
enum FsmState {
    Plain(u32),
    Pipe { pipeline: usize, stage: u32 },
}

struct Inst {
    path: String,
    module: usize,
    parent: Option<usize>,
    start: usize,
    done: Option<usize>,
    cs: Option<usize>,
    one_hot: bool,
    /// FSM key (one-hot bit or binary value) → state.
    decode: HashMap<u64, FsmState>,
    /// Per pipeline, per iteration: its enable's slot.
    enables: Vec<Vec<Option<usize>>>,
    /// Per report state id: its lines.
    conds: HashMap<u32, Vec<LineCond>>,
    // Running state.
    active: bool,
    active_states: Vec<u32>,
    label: String,
    /// The source lines of the states of the open trace slice.
    label_lines: String,
    since: u64,
    starts: u64,
    active_cycles: u64,
    /// The previous cycle showed ap_done.
    done_before: bool,
}

/// Profiles one waveform of the design.
pub fn profile(
    design: &Design,
    wave: &mut Wave,
    opts: &Options,
    mut sink: Option<&mut dyn TraceSink>,
) -> Result<Profile> {
    let top = &design.modules[0];
    let (top_path, top_scope) = find_top(&wave.root, design, opts)?;
    let clk = top_scope.var("ap_clk").ok_or_else(|| {
        Error::new(ErrorKind::BadInput, format!("no ap_clk in waveform scope {top_path}: was the top's clock dumped?"))
    })?;
    wave.set_clock(clk.0);
    let mut notes = Vec::new();
    let mut locs: Vec<LocInfo> = Vec::new();
    let mut loc_index: HashMap<super::sched::Loc, usize> = HashMap::new();
    let mut insts: Vec<Inst> = Vec::new();
    // Instances, parents before children.
    let mut todo = vec![(0usize, top_path.clone(), top_scope.clone(), None::<usize>)];
    while let Some((m, path, scope, parent)) = todo.pop() {
        let idx = insts.len();
        if parent.is_some() && scope.var("ap_start").is_none() {
            notes.push(format!(
                "{path} ({}) has no ap_start in the waveform (not dumped, or ap_ctrl_none): its cycles count for its caller's call state",
                design.modules[m].rtl.name
            ));
            continue;
        }
        let inst = build_instance(design, m, &path, &scope, parent, wave, &mut locs, &mut loc_index, &mut notes)?;
        insts.push(inst);
        for (ty, name) in &design.modules[m].rtl.instances {
            if let Some(cm) = design.by_rtl(ty) {
                match scope.child(name) {
                    Some(cs) => todo.push((cm, format!("{path}.{name}"), cs.clone(), Some(idx))),
                    None => notes.push(format!(
                        "instance {path}.{name} ({ty}) is not in the waveform: its cycles count for its caller's call state"
                    )),
                }
            }
        }
    }
    // A child is pushed after its parent is built: parents precede children in `insts`.
    if let Some(s) = sink.as_deref_mut() {
        let mut names = vec!["calls".to_string()];
        names.extend(insts.iter().map(|i| format!("{} ({})", i.path, design.modules[i.module].sched.module)));
        s.tracks(&names)?;
    }
    let state_lines = state_line_labels(design, &locs, &loc_index);

    let n_modules = design.modules.len();
    let mut line_stats: BTreeMap<usize, LineStats> = BTreeMap::new();
    let mut mod_line_stats: BTreeMap<(usize, usize), LineStats> = BTreeMap::new();
    let mut mod_active = vec![0u64; n_modules];
    let mut mod_untagged = vec![0f64; n_modules];
    let mut calls: Vec<Call> = Vec::new();
    let mut in_call = false;
    let mut top_done_before = false;
    let mut call_lines: BTreeMap<usize, LineStats> = BTreeMap::new();
    let mut cycle: u64 = 0; // edge index
    let mut run_cycles = 0u64;
    let mut concurrent_cycles = 0u64;
    let mut has_active_child = vec![false; insts.len()];
    let mut active_pairs: Vec<(usize, usize, bool, bool)> = Vec::new(); // (module, loc, leaf, unresolved)
    while wave.next_cycle()? {
        let now = cycle;
        cycle += 1;
        for i in 0..insts.len() {
            let parent_active = insts[i].parent.is_none_or(|p| insts[p].active);
            let (active, states) =
                if parent_active { instance_states(&insts[i], wave, design) } else { (false, vec![]) };
            let done = insts[i].done.and_then(|d| wave.value(d)).is_some_and(is_nonzero);
            let inst = &mut insts[i];
            // A new call: from idle, or right after the previous one's ap_done (back to back).
            if active && (!inst.active || (inst.done_before && !done)) {
                inst.starts += 1;
            }
            inst.done_before = active && done;
            inst.active = active;
            inst.active_states = states;
        }
        let top_active = insts[0].active;
        if !top_active {
            if in_call {
                close_call(&mut calls, &mut call_lines);
            }
            in_call = false;
            top_done_before = false;
            trace_close(&mut insts, now, &mut sink)?;
            continue;
        }
        // A call ends with its ap_done (high one cycle under ap_ctrl_hs, until ap_continue under
        // ap_ctrl_chain); the next active cycle without it starts the next call.
        let done = insts[0].done.and_then(|d| wave.value(d)).is_some_and(is_nonzero);
        if in_call && top_done_before && !done {
            close_call(&mut calls, &mut call_lines);
            in_call = false;
        }
        if !in_call {
            calls.push(Call { start: now, end: now, cycles: 0, unfinished: true, lines: Vec::new() });
            in_call = true;
        }
        top_done_before = done;
        run_cycles += 1;
        let call = calls.last_mut().expect("a call is open");
        call.end = now;
        call.cycles += 1;
        if done {
            call.unfinished = false;
        }
        has_active_child.iter_mut().for_each(|h| *h = false);
        for inst in insts.iter().filter(|i| i.active) {
            if let Some(p) = inst.parent {
                has_active_child[p] = true;
            }
        }
        active_pairs.clear();
        let leaves = insts.iter().enumerate().filter(|(i, inst)| inst.active && !has_active_child[*i]).count();
        if leaves > 1 {
            concurrent_cycles += 1;
        }
        let mut untagged_leaf_modules: Vec<usize> = Vec::new();
        for (i, inst) in insts.iter_mut().enumerate() {
            if !inst.active {
                continue;
            }
            inst.active_cycles += 1;
            let leaf = !has_active_child[i];
            let before = active_pairs.len();
            for s in &inst.active_states {
                for lc in inst.conds.get(s).map(Vec::as_slice).unwrap_or(&[]) {
                    if let Some(unresolved) = eval(lc, wave) {
                        active_pairs.push((inst.module, lc.loc, leaf, unresolved));
                    }
                }
            }
            if leaf && active_pairs.len() == before {
                untagged_leaf_modules.push(inst.module);
            }
        }
        // Module activity, once per cycle per module.
        let mut mods: Vec<usize> = insts.iter().filter(|i| i.active).map(|i| i.module).collect();
        mods.sort_unstable();
        mods.dedup();
        for m in mods {
            mod_active[m] += 1;
        }
        let detail = (calls.len() <= MAX_CALL_DETAIL).then_some(&mut call_lines);
        account(
            &mut active_pairs,
            &untagged_leaf_modules,
            &mut line_stats,
            detail,
            &mut mod_line_stats,
            &mut mod_untagged,
        );
        trace_update(&mut insts, now, &mut sink, &state_lines)?;
    }
    trace_close(&mut insts, cycle, &mut sink)?;
    if in_call {
        close_call(&mut calls, &mut call_lines);
    }
    if let Some(s) = sink {
        for (n, c) in calls.iter().enumerate() {
            s.slice(0, &format!("call {}", n + 1), c.start, c.cycles, "")?;
        }
    }
    if calls.is_empty() {
        notes.push(format!(
            "the top ({top_path}) never started in the {cycle} cycles of the waveform: was ap_start driven, and does the dump cover the run?"
        ));
    }
    if let Some(c) = calls.last().filter(|c| c.unfinished) {
        notes.push(format!(
            "the waveform ended during call {} (started at cycle {}): it is counted up to there",
            calls.len(),
            c.start
        ));
    }
    let unresolved: u64 = line_stats.values().map(|l| l.unresolved).sum();
    if unresolved > 0 {
        notes.push(format!(
            "{unresolved} line-cycles counted with a predicate whose signals are not in the waveform (marked `unresolved`): \
             mutually exclusive arms scheduled in one state then share those cycles evenly"
        ));
    }
    let mut lines: Vec<LineStats> = line_stats.into_values().collect();
    sort_lines(&mut lines);
    let modules = design
        .modules
        .iter()
        .enumerate()
        .map(|(m, module)| {
            let mut ls: Vec<LineStats> =
                mod_line_stats.iter().filter(|((mm, _), _)| *mm == m).map(|(_, s)| s.clone()).collect();
            sort_lines(&mut ls);
            let share = ls.iter().map(|l| l.share).sum::<f64>() + mod_untagged[m];
            ModuleStats {
                module: module.sched.module.clone(),
                rtl: module.rtl.name.clone(),
                active: mod_active[m],
                starts: insts.iter().filter(|i| i.module == m).map(|i| i.starts).sum(),
                share,
                untagged_share: mod_untagged[m],
                lines: ls,
                pipelines: module.sched.pipelines.clone(),
            }
        })
        .collect();
    let instances = insts
        .iter()
        .map(|i| InstanceStats {
            path: i.path.clone(),
            module: design.modules[i.module].sched.module.clone(),
            active: i.active_cycles,
            starts: i.starts,
        })
        .collect();
    Ok(Profile {
        top: top.sched.module.clone(),
        scope: top_path,
        edges: cycle,
        cycles: run_cycles,
        concurrent_cycles,
        calls,
        locs,
        lines,
        modules,
        instances,
        notes,
    })
}

/// Moves the open call's line table into it.
fn close_call(calls: &mut [Call], call_lines: &mut BTreeMap<usize, LineStats>) {
    if let Some(c) = calls.last_mut() {
        let mut lines: Vec<LineStats> = std::mem::take(call_lines).into_values().collect();
        sort_lines(&mut lines);
        c.lines = lines;
    }
}

fn sort_lines(lines: &mut [LineStats]) {
    lines.sort_by(|a, b| b.share.total_cmp(&a.share).then(b.active.cmp(&a.active)).then(a.loc.cmp(&b.loc)));
}

/// Adds one cycle's activity to the totals.
fn account(
    pairs: &mut Vec<(usize, usize, bool, bool)>,
    untagged_leaf_modules: &[usize],
    lines: &mut BTreeMap<usize, LineStats>,
    call_lines: Option<&mut BTreeMap<usize, LineStats>>,
    mod_lines: &mut BTreeMap<(usize, usize), LineStats>,
    mod_untagged: &mut [f64],
) {
    // Distinct lines of the innermost instances share the cycle.
    let mut leaf_locs: Vec<usize> = pairs.iter().filter(|p| p.2).map(|p| p.1).collect();
    leaf_locs.sort_unstable();
    leaf_locs.dedup();
    let mut all_locs: Vec<(usize, bool)> = pairs.iter().map(|p| (p.1, p.3)).collect();
    all_locs.sort_unstable();
    all_locs.dedup_by_key(|p| p.0); // a line resolved anywhere this cycle counts as resolved
    let n_units = leaf_locs.len() + untagged_leaf_modules.len();
    let unit = if n_units > 0 { 1.0 / n_units as f64 } else { 0.0 };
    let alone = leaf_locs.len() == 1 && untagged_leaf_modules.is_empty();
    for table in [Some(lines), call_lines].into_iter().flatten() {
        for &(loc, unresolved) in &all_locs {
            let s = table.entry(loc).or_insert_with(|| LineStats { loc, ..LineStats::default() });
            s.active += 1;
            if unresolved {
                s.unresolved += 1;
            }
            if leaf_locs.binary_search(&loc).is_ok() {
                s.share += unit;
                if alone {
                    s.alone += 1;
                }
            }
        }
    }
    // Per module: a line's share goes to the leaf modules it ran in this cycle.
    pairs.sort_unstable();
    pairs.dedup_by_key(|p| (p.0, p.1, p.2));
    let mut k = 0;
    while k < pairs.len() {
        let (m, loc) = (pairs[k].0, pairs[k].1);
        let mut leaf = false;
        let mut unresolved = false;
        while k < pairs.len() && (pairs[k].0, pairs[k].1) == (m, loc) {
            leaf |= pairs[k].2;
            unresolved |= pairs[k].3;
            k += 1;
        }
        let s = mod_lines.entry((m, loc)).or_insert_with(|| LineStats { loc, ..LineStats::default() });
        s.active += 1;
        if unresolved {
            s.unresolved += 1;
        }
        if leaf {
            // Split the line's unit among the leaf modules that ran it.
            let owners =
                pairs.iter().filter(|p| p.1 == loc && p.2).map(|p| p.0).collect::<std::collections::BTreeSet<_>>();
            s.share += unit / owners.len().max(1) as f64;
            if alone {
                s.alone += 1;
            }
        }
    }
    for &m in untagged_leaf_modules {
        mod_untagged[m] += unit;
    }
}

fn is_nonzero(b: &Bits) -> bool {
    b.0.iter().any(|&l| l != 0)
}

/// `Some(unresolved)` when the line runs (or may run) this cycle; `None` when it does not.
fn eval(lc: &LineCond, wave: &Wave) -> Option<bool> {
    let Some(terms) = &lc.terms else { return Some(false) };
    let mut unresolved = false;
    for term in terms {
        let mut holds = Some(true);
        for (lit, slot) in term {
            let v = if *slot == NO_SLOT { None } else { wave.value(*slot) };
            let truth = v.map(|b| {
                let t = match lit.equals {
                    None => is_nonzero(b),
                    Some(n) => b.as_u64() == Some(n),
                };
                t != lit.negated
            });
            match truth {
                Some(false) => {
                    holds = Some(false);
                    break;
                }
                None => holds = None,
                Some(true) => {}
            }
        }
        match holds {
            Some(true) => return Some(false),
            None => unresolved = true,
            Some(false) => {}
        }
    }
    unresolved.then_some(true)
}

/// Whether the instance runs this cycle, and its active report states.
fn instance_states(inst: &Inst, wave: &Wave, design: &Design) -> (bool, Vec<u32>) {
    let start = wave.value(inst.start).is_some_and(is_nonzero);
    let sched = &design.modules[inst.module].sched;
    let enabled = |p: usize, it: usize| -> Option<bool> {
        inst.enables.get(p)?.get(it)?.map(|s| wave.value(s).is_some_and(is_nonzero))
    };
    let fsm = inst.cs.and_then(|cs| wave.value(cs)).and_then(|b| {
        if inst.one_hot {
            b.one_hot().map(u64::from)
        } else {
            b.as_u64()
        }
    });
    let Some(state) = fsm.and_then(|k| inst.decode.get(&k)) else {
        // No FSM state to read: a dataflow region (its RTL has no FSM; its processes run under
        // it), an FSM in no known state (x before reset) or one not dumped. Running from the
        // cycle ap_start is high through the cycle of its ap_done: ap_start may fall at
        // ap_ready, long before the processes are done.
        return (start || (inst.active && !inst.done_before), vec![]);
    };
    match *state {
        FsmState::Plain(n) => {
            let idle = n == 1 && !start;
            (!idle, if idle { vec![] } else { vec![n] })
        }
        FsmState::Pipe { pipeline, stage } => {
            let p = &sched.pipelines[pipeline];
            let ii = p.ii.max(1) as usize;
            let mut states = Vec::new();
            let mut in_flight = false;
            for it in 0..p.states.len().div_ceil(ii) {
                let Some(&s) = p.states.get(it * ii + stage as usize) else { continue };
                // Iteration 0 without its own enable runs while the stage runs.
                let on = enabled(pipeline, it).unwrap_or(it == 0 && start);
                if on {
                    states.push(s);
                    in_flight |= it > 0;
                }
            }
            let first_is_idle = p.states.first() == Some(&1) && stage == 0;
            let active = start || in_flight || !first_is_idle;
            (active, if active { states } else { vec![] })
        }
    }
}

fn find_top(root: &Scope, design: &Design, opts: &Options) -> Result<(String, Scope)> {
    if let Some(path) = &opts.scope {
        let mut s = root;
        for part in path.split('.') {
            s = s.child(part).ok_or_else(|| {
                Error::new(ErrorKind::Usage, format!("no scope `{part}` on the way to --scope {path} in the waveform"))
            })?;
        }
        return Ok((path.clone(), s.clone()));
    }
    let top = &design.modules[0];
    let subs: Vec<&str> =
        top.rtl.instances.iter().filter(|(ty, _)| design.by_rtl(ty).is_some()).map(|(_, n)| n.as_str()).collect();
    // Breadth first: the shallowest scope with the top's handshake and sub-instances.
    let mut queue: std::collections::VecDeque<(String, &Scope)> =
        root.children.iter().map(|c| (c.name.clone(), c)).collect();
    while let Some((path, s)) = queue.pop_front() {
        let handshake = s.var("ap_start").is_some() && s.var("ap_clk").is_some();
        let fsm = s.var("ap_CS_fsm").is_some() || top.rtl.fsm_states.is_empty();
        if handshake && fsm && subs.iter().all(|n| s.child(n).is_some()) {
            return Ok((path, s.clone()));
        }
        queue.extend(s.children.iter().map(|c| (format!("{path}.{}", c.name), c)));
    }
    Err(Error::new(
        ErrorKind::BadInput,
        format!(
            "no scope in the waveform looks like the top `{}` (ap_clk, ap_start, ap_CS_fsm and its instances {}): \
             dump the whole design ($dumpvars(0, tb) / Verilator --trace) or give --scope",
            top.rtl.name,
            if subs.is_empty() { "(none)".to_string() } else { subs.join(", ") }
        ),
    ))
}

#[allow(clippy::too_many_arguments)]
fn build_instance(
    design: &Design,
    m: usize,
    path: &str,
    scope: &Scope,
    parent: Option<usize>,
    wave: &mut Wave,
    locs: &mut Vec<LocInfo>,
    loc_index: &mut HashMap<super::sched::Loc, usize>,
    notes: &mut Vec<String>,
) -> Result<Inst> {
    let module = &design.modules[m];
    let sched = &module.sched;
    let start = scope.var("ap_start").map(|(c, _)| wave.watch(c)).ok_or_else(|| {
        Error::new(
            ErrorKind::BadInput,
            format!("{path} ({}) has no ap_start in the waveform: modules without a handshake (ap_ctrl_none) are not profiled yet", module.rtl.name),
        )
    })?;
    let done = scope.var("ap_done").map(|(c, _)| wave.watch(c));
    let cs = scope.var("ap_CS_fsm").map(|(c, _)| wave.watch(c));
    if cs.is_none() && !module.rtl.fsm_states.is_empty() {
        notes.push(format!("{path}: ap_CS_fsm is not in the waveform: only its activity is counted, not its lines"));
    }
    let encs = &module.rtl.fsm_states;
    let one_hot = encs.len() > 1 && encs.iter().all(|(_, b)| b.one_hot().is_some())
        || encs.len() == 1 && encs[0].1.as_u64() == Some(1);
    let mut decode = HashMap::new();
    for (name, bits) in encs {
        let key = if one_hot { bits.one_hot().map(u64::from) } else { bits.as_u64() };
        let state = fsm_state_of(name);
        if let (Some(k), Some(st)) = (key, state) {
            let st = match st {
                (None, n) => FsmState::Plain(n),
                (Some(p), stage) if (p as usize) < sched.pipelines.len() => {
                    FsmState::Pipe { pipeline: p as usize, stage }
                }
                _ => {
                    notes.push(format!(
                        "{}: {name} names a pipeline the schedule report does not have",
                        module.rtl.name
                    ));
                    continue;
                }
            };
            decode.insert(k, st);
        }
    }
    let mut enables = Vec::new();
    for (p, pl) in sched.pipelines.iter().enumerate() {
        let iters = pl.states.len().div_ceil(pl.ii.max(1) as usize);
        enables.push(
            (0..iters)
                .map(|it| scope.var(&format!("ap_enable_reg_pp{p}_iter{it}")).map(|(c, _)| wave.watch(c)))
                .collect(),
        );
    }
    // Lines per state, with each predicate's values bound to signals of this instance.
    let mut conds: HashMap<u32, Vec<LineCond>> = HashMap::new();
    let mut cache: HashMap<(String, u32), usize> = HashMap::new();
    for st in &sched.states {
        let mut by_loc: BTreeMap<usize, Option<Dnf>> = BTreeMap::new();
        for op in &st.ops {
            let Some(loc) = &op.loc else { continue };
            if op.opcode.starts_with("spec") {
                continue; // directives: no hardware runs for them
            }
            let li = *loc_index.entry(loc.clone()).or_insert_with(|| {
                locs.push(design.loc_info(loc));
                locs.len() - 1
            });
            let entry = by_loc.entry(li).or_insert_with(|| Some(Vec::new()));
            let Some(terms) = entry else { continue }; // already unconditional
            match &op.predicate {
                p if p.is_true() => *entry = None,
                Predicate::Dnf(ts) => {
                    for t in ts {
                        let bound = t
                            .iter()
                            .map(|lit| {
                                let slot = *cache.entry((lit.var.clone(), st.id)).or_insert_with(|| {
                                    predicate_signal(scope, sched, &lit.var, st.id).map_or(NO_SLOT, |c| wave.watch(c))
                                });
                                (lit.clone(), slot)
                            })
                            .collect();
                        terms.push(bound);
                    }
                }
                Predicate::Unparsed(_) => {
                    terms.push(vec![(Lit { var: String::new(), equals: None, negated: false }, NO_SLOT)])
                }
            }
        }
        conds.insert(st.id, by_loc.into_iter().map(|(loc, terms)| LineCond { loc, terms }).collect());
    }
    Ok(Inst {
        path: path.to_string(),
        module: m,
        parent,
        start,
        done,
        cs,
        one_hot,
        decode,
        enables,
        conds,
        active: false,
        active_states: vec![],
        label: String::new(),
        label_lines: String::new(),
        since: 0,
        starts: 0,
        active_cycles: 0,
        done_before: false,
    })
}

/// `ap_ST_fsm_state12` → (None, 12); `ap_ST_fsm_pp1_stage3` → (Some(1), 3).
fn fsm_state_of(param: &str) -> Option<(Option<u32>, u32)> {
    let rest = param.strip_prefix("ap_ST_fsm_")?;
    if let Some(n) = rest.strip_prefix("state") {
        return Some((None, n.parse().ok()?));
    }
    let (pp, stage) = rest.strip_prefix("pp")?.split_once("_stage")?;
    Some((Some(pp.parse().ok()?), stage.parse().ok()?))
}

/// The RTL signal holding value `var` while state `state` runs.
fn predicate_signal(scope: &Scope, sched: &super::sched::Schedule, var: &str, state: u32) -> Option<SigId> {
    let def = sched.defining_state(var);
    let same_state = def.is_none_or(|d| d == state);
    let pipe = sched.pipelines.iter().enumerate().find(|(_, p)| p.states.contains(&state));
    let names = |pred: &dyn Fn(&str) -> bool| -> Option<SigId> {
        let mut c: Vec<&(String, SigId, u32)> = scope.vars.iter().filter(|(n, ..)| pred(n)).collect();
        c.sort_by(|a, b| a.0.cmp(&b.0));
        c.first().map(|v| v.1)
    };
    let after =
        |n: &str, prefix: &str| -> Option<String> { n.strip_prefix(var)?.strip_prefix(prefix).map(str::to_string) };
    let fu = || {
        names(&|n| {
            after(n, "_fu_")
                .is_some_and(|r| r.split('_').all(|p| p.starts_with('p') || p.chars().all(|c| c.is_ascii_digit())))
        })
    };
    let reg = |suffix: Option<String>| {
        names(&|n| {
            after(n, "_reg_").is_some_and(|r| match &suffix {
                None => r.chars().all(|c| c.is_ascii_digit()),
                Some(s) => {
                    r.split_once('_').is_some_and(|(d, rest)| d.chars().all(|c| c.is_ascii_digit()) && rest == s)
                }
            })
        })
    };
    if same_state {
        return scope.var(var).map(|v| v.0).or_else(fu);
    }
    match (pipe, def) {
        (Some((k, p)), Some(d)) => {
            let at = |s: u32| p.states.iter().position(|&x| x == s);
            let (cur, dst) = (at(state)?, at(d)?);
            let ii = p.ii.max(1) as usize;
            if cur / ii == dst / ii {
                return scope.var(var).map(|v| v.0).or_else(fu); // the same iteration stage window
            }
            if cur / ii == dst / ii + 1 {
                reg(None)
            } else {
                reg(Some(format!("pp{k}_iter{}_reg", cur / ii - 1)))
            }
        }
        _ => reg(None).or_else(|| scope.var(var).map(|v| v.0)),
    }
}

/// Per module, per state: "file:line file:line" of its tagged operations, for the trace.
fn state_line_labels(
    design: &Design,
    locs: &[LocInfo],
    loc_index: &HashMap<super::sched::Loc, usize>,
) -> Vec<HashMap<u32, String>> {
    design
        .modules
        .iter()
        .map(|m| {
            m.sched
                .states
                .iter()
                .map(|s| {
                    let mut ls: Vec<usize> =
                        s.ops.iter().filter_map(|o| o.loc.as_ref().and_then(|l| loc_index.get(l).copied())).collect();
                    ls.sort_unstable();
                    ls.dedup();
                    let text = ls
                        .iter()
                        .map(|&l| format!("{}:{}", short(&locs[l].file), locs[l].line))
                        .collect::<Vec<_>>()
                        .join(" ");
                    (s.id, text)
                })
                .collect()
        })
        .collect()
}

fn short(file: &str) -> &str {
    file.rsplit(['/', '\\']).next().unwrap_or(file)
}

fn trace_update(
    insts: &mut [Inst],
    now: u64,
    sink: &mut Option<&mut dyn TraceSink>,
    labels: &[HashMap<u32, String>],
) -> Result<()> {
    let Some(sink) = sink.as_deref_mut() else { return Ok(()) };
    for (i, inst) in insts.iter_mut().enumerate() {
        let label = if inst.active {
            let mut l = inst.active_states.iter().map(|s| format!("S{s}")).collect::<Vec<_>>().join("+");
            if l.is_empty() {
                l = "running".into();
            }
            l
        } else {
            String::new()
        };
        if label != inst.label {
            emit(sink, i, inst, now)?;
            inst.label_lines = inst
                .active_states
                .iter()
                .filter_map(|s| labels[inst.module].get(s))
                .filter(|s| !s.is_empty())
                .cloned()
                .collect::<Vec<_>>()
                .join(" ");
            inst.label = label;
            inst.since = now;
        }
    }
    Ok(())
}

fn trace_close(insts: &mut [Inst], now: u64, sink: &mut Option<&mut dyn TraceSink>) -> Result<()> {
    let Some(sink) = sink.as_deref_mut() else { return Ok(()) };
    for (i, inst) in insts.iter_mut().enumerate() {
        emit(sink, i, inst, now)?;
        inst.label.clear();
        inst.since = now;
    }
    Ok(())
}

fn emit(sink: &mut dyn TraceSink, i: usize, inst: &Inst, now: u64) -> Result<()> {
    if inst.label.is_empty() || now <= inst.since {
        return Ok(());
    }
    sink.slice(i + 1, &inst.label, inst.since, now - inst.since, &inst.label_lines)
}
