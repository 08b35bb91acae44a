//! Independent calls side by side: in a straight line of a function body (`model::segments`),
//! Vitis starts a call of a module as soon as what it reads is ready, so calls that share no data
//! run at the same time and cost the longest of them, not their sum.
//!
//! Measured on the public Vitis HLS 2021.2 `Radix2wECC` (its `.autopilot` schedules): `bf_inv`
//! starts both pipelines of `j = vec_degree(u) - vec_degree(v)` in one state and both of
//! `bf_add(u, u, h); h = g << j; bf_add(z, z, h);` in another; `point_add` starts `bf_add(a, x1,
//! x2)` and `bf_add(b, y1, y2)` together, and in the inlined `point_double` `bf_mult(y, x, x)`
//! (line 100) with `bf_inv(lambda, x)` (line 96), ahead of the calls between them: it reads only
//! `x`, and `y`, which `bf_mult(lambda, lambda, y)` reads before it, is a register Vitis renames.
//! A call that needs another's result starts in the state where that one ends.
//! Two calls that read one array or pointer take turns: a memory's ports serve one module at a
//! time (UG1448 "Memory Port Contention"; the public designs' calls side by side share only
//! scalars and values: `Radix2wECC`'s `vec` is an `ap_int<166>`). An array partitioned into
//! registers would not need that; the rule does not tell it apart.
//!
//! The rule: a call depends on an earlier item of its segment that writes what it reads (a
//! variable, an array, the result of a call), and, for memories (arrays, pointers, streams), on one
//! that reads or writes what it stores into; a whole variable assigned again (a non-`const`
//! reference parameter, `x = ...`) is renamed, so reading it earlier does not hold the write back.
//! What a call writes comes from its callee's parameters: by value and `const` ones are read,
//! the others read and written (a reference the callee only reads, by its `scalar_uses`, is
//! read). A callee the manifest does not know (a method, a library function) reads and stores
//! into everything it is passed. Calls passing a `volatile` argument keep their order (C's rule
//! for volatile accesses; the public 2021.2 ASCON decrypt's four `LOADBYTES` of its volatile key
//! and nonce arrays, side by side, gave a mean of 132.8 cycles a call against co-simulation's
//! 147.9, one after the other 152.8). Two runs of one call site's module take turns (one instance
//! runs one call at a time); the model gives each call site its instance, as it gives it a row,
//! which is what the schedules show where calls of one function overlap (`point_add`'s seven
//! `bf_mult` calls share three instances, and the calls of one instance there depend on each
//! other anyway). An inlined function is no instance: its loops are `_Pipeline_` modules of their
//! own per call; one with a loop left in its caller's states (no `_Pipeline_` module) does not
//! run beside anything, as Vitis runs no two loops of one function side by side (UG1399 "Loop
//! Parallelism"). Not known here: globals a callee reads or writes.

use crate::emit::manifest::{Manifest, ModuleInfo};
use crate::model::segments::{SegItem, Segment};
use crate::model::ParamKind;
use std::collections::HashMap;

/// Per calling function, the calls of its segments.
#[derive(Debug, Default)]
pub struct ParCalls {
    by_fn: HashMap<String, FnCalls>,
    /// The lists [`FnCalls::by_name`] points into.
    lists: Vec<Vec<CallFacts>>,
}

#[derive(Debug, Default)]
struct FnCalls {
    /// Its number among the calling functions (what a [`Group`] keeps).
    id: u32,
    /// Per callee name, the calls of it that stand in a segment: an index into `lists`.
    by_name: HashMap<String, u32>,
}

/// The calls of one callee by one caller that stand in a segment, looked up once by name
/// ([`ParCalls::callee`]): the analysis places a call per record of a log that may hold 10^8,
/// where hashing the two names each time was a quarter of its time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Callee {
    caller: u32,
    list: u32,
}

#[derive(Debug, Clone)]
struct CallFacts {
    segment: u32,
    /// Its place among the segment's probed calls (0 the first).
    pos: u32,
    /// The places of the earlier probed calls of the segment it waits for.
    deps: Vec<u32>,
}

/// The calls of one execution of a segment placed so far, in a parent invocation.
#[derive(Debug, Clone, Default)]
pub struct Group {
    caller: u32,
    segment: u32,
    last_pos: u32,
    /// The parent's children's cycles before the group's first call.
    origin: u64,
    /// The parent's children's cycles after the group's last call (anything else in between ends
    /// the group).
    after: u64,
    /// Where the group ends, from its start.
    end: u64,
    members: Vec<Member>,
}

#[derive(Debug, Clone)]
struct Member {
    pos: u32,
    finish: u64,
    /// The module instance it ran on: (probe, numbered copy); `None` for an inlined function.
    instance: Option<(u32, Option<usize>)>,
}

/// Where a call was placed: `add` to its parent's children's cycles, `start` its start among them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placed {
    pub add: u64,
    pub start: u64,
}

/// What an item reads, writes whole (a register) and stores into (a memory).
#[derive(Default)]
struct Effect {
    reads: Vec<String>,
    writes: Vec<String>,
    stores: Vec<String>,
    /// A call: the memories (arrays, pointers) it reads through its callee's ports.
    ports: Vec<String>,
}

impl ParCalls {
    pub fn from_manifest(m: &Manifest) -> Self {
        let modules: HashMap<&str, &ModuleInfo> = m
            .probes
            .iter()
            .filter(|p| p.kind == "function")
            .filter_map(|p| p.module.as_deref().map(|mi| (p.name.as_str(), mi)))
            .collect();
        let mut out = ParCalls::default();
        for p in m.probes.iter().filter(|p| p.kind == "function") {
            let Some(mi) = p.module.as_deref() else { continue };
            if mi.segments.is_empty() {
                continue;
            }
            for (s, seg) in mi.segments.iter().enumerate() {
                for (name, facts) in segment_calls(seg, mi, &modules, s as u32) {
                    out.add(&p.function, name, facts);
                }
            }
        }
        out
    }

    fn add(&mut self, caller: &str, callee: String, facts: CallFacts) {
        let next_fn = self.by_fn.len() as u32;
        let fc = self.by_fn.entry(caller.to_string()).or_insert_with(|| FnCalls { id: next_fn, ..FnCalls::default() });
        let list = *fc.by_name.entry(callee).or_insert_with(|| {
            self.lists.push(Vec::new());
            (self.lists.len() - 1) as u32
        });
        self.lists[list as usize].push(facts);
    }

    /// The calls of `callee` by `caller` that stand in a segment; `None` where there are none.
    pub fn callee(&self, caller: &str, callee: &str) -> Option<Callee> {
        let fc = self.by_fn.get(caller)?;
        fc.by_name.get(callee).map(|&list| Callee { caller: fc.id, list })
    }

    /// Places a call (of [`Self::callee`]'s `callee`, on `instance`) of `cycles` made by a caller
    /// whose children's cycles so far are `sum`: continuing `group` when it is the next call of
    /// the segment the group runs, else starting one. `None` (and no group) when the call stands
    /// in no segment: it follows what came before.
    pub fn place(
        &self,
        group: &mut Option<Group>,
        callee: Option<Callee>,
        instance: Option<(u32, Option<usize>)>,
        sum: u64,
        cycles: u64,
    ) -> Option<Placed> {
        let Some(who) = callee else {
            *group = None;
            return None;
        };
        let (caller, cands) = (who.caller, &self.lists[who.list as usize]);
        // The group goes on or is replaced: taken, not copied, on every call; a replaced one
        // lends the new one its members' memory.
        let old = group.take();
        let next = old
            .as_ref()
            .filter(|g| g.caller == caller && g.after == sum)
            .and_then(|g| cands.iter().find(|c| c.segment == g.segment && c.pos == g.last_pos + 1));
        let (facts, mut g) = match (next, old) {
            (Some(c), Some(g)) => (c, g),
            (_, old) => {
                // Not the first call of a segment: it follows what came before (the group is gone).
                let first = cands.iter().find(|c| c.pos == 0)?;
                let mut members = old.map(|g| g.members).unwrap_or_default();
                members.clear();
                let g = Group { caller, segment: first.segment, last_pos: 0, origin: sum, after: sum, end: 0, members };
                (first, g)
            }
        };
        let start = g
            .members
            .iter()
            .filter(|m| facts.deps.contains(&m.pos) || (instance.is_some() && m.instance == instance))
            .map(|m| m.finish)
            .max()
            .unwrap_or(0);
        let finish = start + cycles;
        let add = finish.saturating_sub(g.end);
        g.end = g.end.max(finish);
        g.last_pos = facts.pos;
        g.after = sum + add;
        g.members.push(Member { pos: facts.pos, finish, instance });
        let placed = Placed { add, start: g.origin + start };
        *group = Some(g);
        Some(placed)
    }
}

/// The probed calls of one segment (callees the manifest has a module for), each with the
/// earlier ones it waits for, directly or through the statements and other calls between.
fn segment_calls(
    seg: &Segment,
    caller: &ModuleInfo,
    modules: &HashMap<&str, &ModuleInfo>,
    segment: u32,
) -> Vec<(String, CallFacts)> {
    let effects: Vec<Effect> = seg.items.iter().map(|i| effect(i, caller, modules)).collect();
    // Per item, the earlier items it waits for, transitively.
    let mut waits: Vec<Vec<usize>> = Vec::with_capacity(effects.len());
    for (b, eb) in effects.iter().enumerate() {
        let mut w: Vec<usize> = Vec::new();
        for (a, ea) in effects[..b].iter().enumerate() {
            if depends(ea, eb) {
                w.push(a);
                w.extend(waits[a].iter().copied());
            }
        }
        w.sort_unstable();
        w.dedup();
        waits.push(w);
    }
    let probed = |i: &SegItem| {
        i.call.and_then(|k| caller.calls.get(k)).filter(|c| modules.contains_key(c.name.as_str())).map(|c| &c.name)
    };
    let mut pos_of: HashMap<usize, u32> = HashMap::new();
    let mut out = Vec::new();
    for (i, item) in seg.items.iter().enumerate() {
        let Some(name) = probed(item) else { continue };
        let pos = pos_of.len() as u32;
        pos_of.insert(i, pos);
        let deps = waits[i].iter().filter_map(|a| pos_of.get(a).copied()).collect();
        out.push((name.clone(), CallFacts { segment, pos, deps }));
    }
    if out.len() < 2 {
        return Vec::new();
    }
    out
}

/// `b` (later) waits for `a`: it reads what `a` writes or stores, stores into a memory `a`
/// reads, writes or stores into, or both calls read one memory (its ports serve one module
/// instance at a time).
fn depends(a: &Effect, b: &Effect) -> bool {
    let meets = |x: &[String], y: &[String]| x.iter().any(|v| y.contains(v));
    meets(&a.ports, &b.ports)
        || meets(&a.writes, &b.reads)
        || meets(&a.stores, &b.reads)
        || meets(&b.stores, &a.reads)
        || meets(&b.stores, &a.writes)
        || meets(&b.stores, &a.stores)
        || meets(&a.stores, &b.writes)
}

/// The memory every volatile argument stands for (not a C name).
const VOLATILE: &str = "(volatile)";

fn effect(item: &SegItem, caller: &ModuleInfo, modules: &HashMap<&str, &ModuleInfo>) -> Effect {
    let Some(k) = item.call else {
        return Effect {
            reads: item.reads.clone(),
            writes: item.writes.clone(),
            stores: item.stores.clone(),
            ports: Vec::new(),
        };
    };
    let mut e = Effect { writes: vec![format!("#{k}")], ..Effect::default() };
    let callee = caller.calls.get(k).and_then(|c| modules.get(c.name.as_str()));
    for (i, vars) in item.args.iter().enumerate() {
        e.reads.extend(vars.iter().cloned());
        let Some(base) = vars.first() else { continue };
        let Some(callee) = callee else {
            e.stores.push(base.clone());
            continue;
        };
        let Some(param) = callee.params.get(i) else { continue };
        let word = |w: &str| param.type_text.split(|c: char| !c.is_alphanumeric() && c != '_').any(|x| x == w);
        let constant = word("const") || callee.const_params.contains(&param.name);
        let only_read = callee.scalar_uses.iter().any(|u| u.param == param.name && !u.write);
        // Volatile accesses keep their order (C's rule, which Vitis keeps): every call passing
        // a volatile memory uses one more, the same for all.
        if word("volatile") || callee.volatile_params.contains(&param.name) {
            e.reads.push(VOLATILE.to_string());
            e.stores.push(VOLATILE.to_string());
        }
        match param.kind {
            ParamKind::Scalar => {}
            ParamKind::Reference if constant || only_read => {}
            ParamKind::Reference => e.writes.push(base.clone()),
            ParamKind::Pointer | ParamKind::Array if constant => e.ports.push(base.clone()),
            ParamKind::Pointer | ParamKind::Array | ParamKind::Stream => e.stores.push(base.clone()),
        }
    }
    e
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eff(reads: &[&str], writes: &[&str], stores: &[&str]) -> Effect {
        let v = |x: &[&str]| x.iter().map(|s| s.to_string()).collect();
        Effect { reads: v(reads), writes: v(writes), stores: v(stores), ports: Vec::new() }
    }

    #[test]
    fn a_read_waits_for_a_write_and_a_store_for_any_use_but_a_register_is_renamed() {
        assert!(depends(&eff(&["x"], &["y"], &[]), &eff(&["y"], &["z"], &[])), "reads what the first wrote");
        assert!(!depends(&eff(&["y"], &["x"], &[]), &eff(&["z"], &["y"], &[])), "writes a register the first read");
        assert!(depends(&eff(&["t"], &[], &[]), &eff(&[], &[], &["t"])), "stores into a memory the first read");
        assert!(depends(&eff(&[], &[], &["t"]), &eff(&["t"], &[], &[])));
        assert!(!depends(&eff(&["t", "a"], &[], &[]), &eff(&["t", "b"], &["c"], &[])), "two reads");
        let port = |m: &str| Effect { ports: vec![m.to_string()], ..eff(&[m], &[], &[]) };
        assert!(depends(&port("t"), &port("t")), "two calls reading one memory take turns on its ports");
        assert!(!depends(&port("t"), &port("u")));
    }

    fn group(
        p: &ParCalls,
        g: &mut Option<Group>,
        sum: &mut u64,
        callee: &str,
        inst: Option<(u32, Option<usize>)>,
        c: u64,
    ) -> u64 {
        let placed = p.place(g, p.callee("f", callee), inst, *sum, c).map_or(c, |x| x.add);
        *sum += placed;
        placed
    }

    #[test]
    fn independent_calls_cost_the_longest_and_a_dependent_one_follows() {
        let facts = |segment, pos, deps: &[u32]| CallFacts { segment, pos, deps: deps.to_vec() };
        let mut p = ParCalls::default();
        p.add("f", "a".into(), facts(0, 0, &[]));
        p.add("f", "b".into(), facts(0, 1, &[]));
        p.add("f", "c".into(), facts(0, 2, &[0]));
        let (mut g, mut sum) = (None, 0);
        assert_eq!(group(&p, &mut g, &mut sum, "a", None, 10), 10);
        assert_eq!(group(&p, &mut g, &mut sum, "b", None, 30), 20, "beside a: 30 in all");
        assert_eq!(group(&p, &mut g, &mut sum, "c", None, 5), 0, "after a (10 + 5), inside b's 30");
        assert_eq!(group(&p, &mut g, &mut sum, "a", None, 10), 10, "the segment again: a new group");
        assert_eq!(group(&p, &mut g, &mut sum, "b", Some((1, None)), 30), 20);
        let (mut g, mut sum) = (None, 0);
        assert_eq!(group(&p, &mut g, &mut sum, "a", Some((1, None)), 10), 10);
        assert_eq!(group(&p, &mut g, &mut sum, "b", Some((1, None)), 30), 30, "one instance: in turn");
        assert_eq!(group(&p, &mut g, &mut sum, "x", None, 7), 7, "not in a segment");
        assert!(g.is_none());
    }
}
