//! Model: loops that live in their module's FSM (every loop Vitis did not pipeline into a module
//! of its own), each as the set of `ap_CS_fsm` states it spans.
//!
//! The schedule report's `* FSM state transitions` give the state graph; a loop is a natural
//! loop of it (the states that reach a back edge's source without passing its target, the
//! header). States map to the RTL's `ap_ST_fsm_*` parameters (`state<N>`, or `pp<k>_stage<s>`
//! for a pipeline inlined in the FSM); csynth.xml names the loops (same count and nesting, in
//! order), else they are named by their header state. The probe is a decoder of `ap_CS_fsm`:
//! one-hot FSMs (Vitis' default) need an OR of bits, binary ones a compare per state.

use crate::csynth::{Loop, SourceLoc};
use crate::profile::rtl::Bits;
use crate::profile::sched::Schedule;
use std::collections::{BTreeMap, BTreeSet};

/// The FSM register Vitis writes.
pub const STATE_REG: &str = "ap_CS_fsm";

/// One loop of a module's FSM.
#[derive(Debug, Clone, PartialEq)]
pub struct FsmLoop {
    /// csynth.xml's name, or `loop_s<header>` when csynth.xml does not name it.
    pub name: String,
    /// The enclosing FSM loop (index into the same list).
    pub parent: Option<usize>,
    /// Schedule states, ascending.
    pub states: Vec<u32>,
    pub header: u32,
    /// RTL state parameters of `states`, in order, without repeats.
    pub rtl_states: Vec<String>,
    /// Verilog expression, true while `ap_CS_fsm` is in one of the loop's states.
    pub active: String,
    /// Verilog expression, true in the header state; `None` when header entries do not count
    /// iterations (the header state loops to itself, shares its RTL state, or exits are both
    /// at the header and elsewhere).
    pub header_expr: Option<String>,
    /// Every exit leaves from the header (a top-tested loop): its last header visit runs no
    /// iteration, so iterations = header entries - loop entries; else iterations = entries.
    pub exits_at_header: bool,
    pub source: Option<SourceLoc>,
    /// csynth.xml's maximum trip count.
    pub trip: Option<u64>,
}

/// The loops of one module's FSM, outer loops before the loops they hold, by header state.
/// `fsm` is the module's `ap_ST_fsm_*` parameters; `named` csynth.xml's loops of the module.
/// Loops that cannot be decoded are left out with a warning.
pub fn loops(module: &str, sched: &Schedule, fsm: &[(String, Bits)], named: &[Loop]) -> (Vec<FsmLoop>, Vec<String>) {
    let mut warnings = Vec::new();
    let regions = natural_loops(sched);
    if regions.is_empty() {
        return (Vec::new(), warnings);
    }
    // csynth.xml's loops in the same order (preorder) with their nesting.
    let mut flat: Vec<(Option<usize>, &Loop)> = Vec::new();
    fn walk<'a>(l: &'a Loop, parent: Option<usize>, out: &mut Vec<(Option<usize>, &'a Loop)>) {
        out.push((parent, l));
        let me = out.len() - 1;
        for c in &l.children {
            walk(c, Some(me), out);
        }
    }
    for l in named {
        walk(l, None, &mut flat);
    }
    let shape: Vec<Option<usize>> = regions.iter().map(|r| r.1).collect();
    let names_match = flat.len() == regions.len() && flat.iter().map(|f| f.0).eq(shape.iter().copied());
    if !names_match && !flat.is_empty() {
        warnings.push(format!(
            "{module}: its FSM has {} loops, csynth.xml lists {}: FSM loops are named by their header state",
            regions.len(),
            flat.len()
        ));
    }
    let one_hot = one_hot(fsm);
    let succ = successors(sched);
    let mut out: Vec<FsmLoop> = Vec::new();
    let mut kept: BTreeMap<usize, usize> = BTreeMap::new();
    for (i, (states, parent)) in regions.iter().enumerate() {
        let header = states[0];
        let name = if names_match { flat[i].1.name.clone() } else { format!("loop_s{header}") };
        let mut rtl: Vec<&(String, Bits)> = Vec::new();
        let mut missing = None;
        for &s in states {
            match rtl_state(sched, fsm, s) {
                Some(p) => {
                    if !rtl.iter().any(|q| q.0 == p.0) {
                        rtl.push(p);
                    }
                }
                None => missing = Some(s),
            }
        }
        if let Some(s) = missing {
            warnings.push(format!(
                "{module}: loop {name} is not probed: schedule state {s} has no ap_ST_fsm_ parameter in the RTL"
            ));
            continue;
        }
        let set: BTreeSet<u32> = states.iter().copied().collect();
        let exits: Vec<u32> = states
            .iter()
            .copied()
            .filter(|s| succ.get(s).is_some_and(|n| n.iter().any(|t| !set.contains(t))))
            .collect();
        let exits_at_header = exits == [header];
        let header_rtl = rtl_state(sched, fsm, header).expect("checked above");
        let shared = states.iter().filter(|&&s| rtl_state(sched, fsm, s).is_some_and(|p| p.0 == header_rtl.0)).count();
        let self_loop = succ.get(&header).is_some_and(|n| n.contains(&header));
        let countable = shared == 1 && !self_loop && (exits_at_header || !exits.contains(&header));
        let source =
            if names_match { flat[i].1.source.clone() } else { None }.or_else(|| own_loop_line(sched, i, &regions));
        let source = source.or_else(|| {
            let line = if names_match { flat[i].1.source_line } else { None }?;
            Some(SourceLoc { file: String::new(), line })
        });
        out.push(FsmLoop {
            name,
            parent: parent.and_then(|p| kept.get(&p).copied()),
            states: states.clone(),
            header,
            rtl_states: rtl.iter().map(|p| p.0.clone()).collect(),
            active: decode(&rtl, one_hot),
            header_expr: countable.then(|| decode(&[header_rtl], one_hot)),
            exits_at_header,
            source,
            trip: if names_match { flat[i].1.trip_count.as_ref().map(|t| t.max) } else { None },
        });
        kept.insert(i, out.len() - 1);
    }
    (out, warnings)
}

fn successors(sched: &Schedule) -> BTreeMap<u32, Vec<u32>> {
    sched.transitions.iter().cloned().collect()
}

/// Natural loops, one per header (back edges to one header merge): `(states ascending, the
/// index of the smallest enclosing loop)`, ordered by header, outer first.
fn natural_loops(sched: &Schedule) -> Vec<(Vec<u32>, Option<usize>)> {
    let succ = successors(sched);
    let Some(&entry) = succ.keys().next() else { return Vec::new() };
    // Iterative DFS; an edge to a state on the stack is a back edge.
    let mut back: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    let mut on_stack = BTreeSet::new();
    let mut seen = BTreeSet::from([entry]);
    let mut stack: Vec<(u32, usize)> = vec![(entry, 0)];
    on_stack.insert(entry);
    while let Some(&mut (s, ref mut k)) = stack.last_mut() {
        let next = succ.get(&s).and_then(|n| n.get(*k)).copied();
        *k += 1;
        match next {
            Some(t) if on_stack.contains(&t) => back.entry(t).or_default().push(s),
            Some(t) if seen.insert(t) => {
                on_stack.insert(t);
                stack.push((t, 0));
            }
            Some(_) => {}
            None => {
                on_stack.remove(&s);
                stack.pop();
            }
        }
    }
    let mut pred: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    for (s, ns) in &succ {
        for t in ns {
            pred.entry(*t).or_default().push(*s);
        }
    }
    let mut loops: Vec<Vec<u32>> = Vec::new();
    for (h, latches) in &back {
        let mut body = BTreeSet::from([*h]);
        let mut work: Vec<u32> = latches.clone();
        while let Some(s) = work.pop() {
            if body.insert(s) {
                work.extend(pred.get(&s).into_iter().flatten().copied());
            }
        }
        // The header first, then the rest ascending.
        let mut v = vec![*h];
        v.extend(body.into_iter().filter(|s| s != h));
        loops.push(v);
    }
    loops.sort_by_key(|l| (l[0], std::cmp::Reverse(l.len())));
    let sets: Vec<BTreeSet<u32>> = loops.iter().map(|l| l.iter().copied().collect()).collect();
    (0..loops.len())
        .map(|i| {
            let parent = (0..loops.len())
                .filter(|&j| j != i && sets[j].len() > sets[i].len() && sets[i].is_subset(&sets[j]))
                .min_by_key(|&j| sets[j].len());
            let mut states = loops[i].clone();
            states.sort();
            // Keep the header first for callers: it is `states[0]` only if lowest, so store it so.
            states.retain(|s| *s != loops[i][0]);
            states.insert(0, loops[i][0]);
            (states, parent)
        })
        .collect()
}

/// The `[file:line]` of a `specloopname` in the loop's own states (not in a loop it holds).
fn own_loop_line(sched: &Schedule, i: usize, regions: &[(Vec<u32>, Option<usize>)]) -> Option<SourceLoc> {
    let inner: BTreeSet<u32> = regions.iter().filter(|r| r.1 == Some(i)).flat_map(|r| r.0.iter().copied()).collect();
    regions[i].0.iter().filter(|s| !inner.contains(s)).find_map(|&s| {
        let op = sched.state(s)?.ops.iter().find(|o| o.opcode == "specloopname")?;
        op.loc.as_ref().map(|l| SourceLoc { file: l.file.clone(), line: l.line })
    })
}

/// The RTL parameter of schedule state `n`: `ap_ST_fsm_state<n>`, or for a state of pipeline `k`
/// at position `p`, `ap_ST_fsm_pp<k>_stage<p mod II>`.
fn rtl_state<'a>(sched: &Schedule, fsm: &'a [(String, Bits)], n: u32) -> Option<&'a (String, Bits)> {
    let by = |name: String| fsm.iter().find(|(p, _)| *p == name);
    by(format!("ap_ST_fsm_state{n}")).or_else(|| {
        let (k, pl) = sched.pipelines.iter().enumerate().find(|(_, p)| p.states.contains(&n))?;
        let pos = pl.states.iter().position(|&s| s == n)? as u32;
        by(format!("ap_ST_fsm_pp{k}_stage{}", pos % pl.ii.max(1)))
    })
}

/// Every state parameter has one bit set, each a different bit.
fn one_hot(fsm: &[(String, Bits)]) -> bool {
    let bits: Option<BTreeSet<u32>> = fsm.iter().map(|(_, b)| b.one_hot()).collect();
    fsm.len() > 1 && bits.is_some_and(|b| b.len() == fsm.len())
}

/// The decoder: an OR of the states' bits (one-hot; a part-select when they are contiguous) or
/// of compares with their parameters (binary).
fn decode(states: &[&(String, Bits)], one_hot: bool) -> String {
    if !one_hot {
        let terms: Vec<String> = states.iter().map(|(p, _)| format!("({STATE_REG} == {p})")).collect();
        return terms.join(" | ");
    }
    let mut bits: Vec<u32> = states.iter().filter_map(|(_, b)| b.one_hot()).collect();
    bits.sort();
    match bits.as_slice() {
        [b] => format!("{STATE_REG}[{b}]"),
        [lo, .., hi] if (hi - lo) as usize + 1 == bits.len() => format!("(|{STATE_REG}[{hi}:{lo}])"),
        _ => {
            let list: Vec<String> = bits.iter().map(|b| format!("{STATE_REG}[{b}]")).collect();
            format!("(|{{{}}})", list.join(", "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sched(transitions: &[(u32, &[u32])]) -> Schedule {
        sched_with(transitions, "")
    }

    fn sched_with(transitions: &[(u32, &[u32])], extra: &str) -> Schedule {
        let mut text = format!("== Vitis HLS Report for 'k'\n{extra}* FSM state transitions: \n");
        for (s, ns) in transitions {
            let list: Vec<String> = ns.iter().map(u32::to_string).collect();
            text.push_str(&format!("{s} --> {} \n", list.join(" ")));
        }
        for (s, _) in transitions {
            text.push_str(&format!("State {s} <SV = 0> <Delay = 1.00>\n"));
        }
        Schedule::parse(&text).unwrap()
    }

    fn named(name: &str) -> Loop {
        Loop::named(name)
    }

    fn params(n: u32, one_hot: bool) -> Vec<(String, Bits)> {
        (1..=n)
            .map(|s| {
                let v = if one_hot { 1u64 << (s - 1) } else { u64::from(s - 1) };
                (format!("ap_ST_fsm_state{s}"), Bits(vec![v]))
            })
            .collect()
    }

    #[test]
    fn nested_loops_are_natural_loops_named_by_csynth_in_order() {
        // 1 → outer header 2 (exit to 6) → inner header 3 (exit to 5) → 4 → 3; 5 → 2.
        let s = sched(&[(1, &[2]), (2, &[6, 3]), (3, &[5, 4]), (4, &[3]), (5, &[2]), (6, &[])]);
        let inner = named("inner");
        let mut outer = named("outer");
        outer.children.push(inner);
        let (l, w) = loops("k", &s, &params(6, true), &[outer]);
        assert!(w.is_empty(), "{w:?}");
        assert_eq!(l.len(), 2);
        assert_eq!((l[0].name.as_str(), l[0].states.as_slice(), l[0].parent), ("outer", &[2, 3, 4, 5][..], None));
        assert_eq!((l[1].name.as_str(), l[1].states.as_slice(), l[1].parent), ("inner", &[3, 4][..], Some(0)));
        assert_eq!(l[0].active, "(|ap_CS_fsm[4:1])");
        assert_eq!(l[1].header_expr.as_deref(), Some("ap_CS_fsm[2]"));
        assert!(l[0].exits_at_header && l[1].exits_at_header);
    }

    #[test]
    fn a_pipeline_inlined_in_the_fsm_maps_to_its_stage_states() {
        // Vivado/Vitis 2020 style: states 2 and 3 are one pipeline of II 1, one RTL state.
        let s = sched_with(
            &[(1, &[2]), (2, &[4, 3]), (3, &[2]), (4, &[])],
            "  Pipeline-0 : II = 1, D = 2, States = { 2 3 }\n",
        );
        let fsm: Vec<(String, Bits)> = ["ap_ST_fsm_state1", "ap_ST_fsm_pp0_stage0", "ap_ST_fsm_state4"]
            .iter()
            .enumerate()
            .map(|(i, n)| (n.to_string(), Bits(vec![1 << i])))
            .collect();
        let (l, w) = loops("k", &s, &fsm, &[]);
        assert!(w.is_empty(), "{w:?}");
        assert_eq!(l[0].rtl_states, ["ap_ST_fsm_pp0_stage0"]);
        assert_eq!(l[0].active, "ap_CS_fsm[1]");
        assert_eq!(l[0].header_expr, None, "the header shares its RTL state: iterations not counted");
    }

    #[test]
    fn binary_encoding_self_loops_and_unnamed_loops() {
        // A one-state loop (2 → 2): active decodes, iterations cannot be counted; csynth.xml
        // names no loop, so it is named by its header, with a warning only when csynth lists some.
        let s = sched(&[(1, &[2]), (2, &[3, 2]), (3, &[])]);
        let (l, w) = loops("k", &s, &params(3, false), &[]);
        assert!(w.is_empty());
        assert_eq!(l[0].name, "loop_s2");
        assert_eq!(l[0].active, "(ap_CS_fsm == ap_ST_fsm_state2)");
        assert_eq!(l[0].header_expr, None);
        let (_, w) = loops("k", &s, &params(3, false), &[named("a"), named("b")]);
        assert!(w[0].contains("has 1 loops, csynth.xml lists 2"), "{w:?}");
        // A linear FSM has none; a state without a parameter leaves its loop out, with a warning.
        assert!(loops("k", &sched(&[(1, &[2]), (2, &[])]), &params(2, true), &[]).0.is_empty());
        let (l, w) = loops("k", &s, &params(1, true), &[]);
        assert!(l.is_empty() && w[0].contains("schedule state 2"), "{w:?}");
        // A bottom-tested loop (exit from the latch): iterations are header entries.
        let s = sched(&[(1, &[2]), (2, &[3]), (3, &[2, 4]), (4, &[])]);
        let (l, _) = loops("k", &s, &params(4, true), &[]);
        assert!(!l[0].exits_at_header && l[0].header_expr.is_some());
        assert_eq!(l[0].active, "(|ap_CS_fsm[2:1])");
    }
}
