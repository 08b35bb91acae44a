//! The measured probes of a build as a tree: which probe each row is, where its numbers come
//! from (a slot of the dump or a derived span) and where it hangs.
//!
//! A probe hangs under its manifest `parent` (a loop under its function or enclosing loop); a
//! function with none hangs under the first measured function that calls it, so the tree reads
//! like the call tree of the kernel. Probes the build does not measure are left out; their
//! measured descendants move up.

use crate::emit::manifest::{HwBuild, Manifest, ProbeEntry};
use std::collections::{BTreeMap, BTreeSet};

/// Where a row's numbers come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// Slot `i` of the dump.
    Slot(usize),
    /// `hw.derived[i]`: first start to last end of other probes.
    Derived(usize),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    pub probe: u32,
    pub origin: Origin,
    pub parent: Option<u32>,
    pub depth: usize,
}

/// The rows in display order: depth first, children by probe id (a function's own loops before
/// the functions it calls).
pub fn tree(manifest: &Manifest, hw: &HwBuild) -> Vec<Node> {
    let mut origin: BTreeMap<u32, Origin> = BTreeMap::new();
    for (i, d) in hw.derived.iter().enumerate() {
        origin.insert(d.probe, Origin::Derived(i));
    }
    // A probe with a slot is measured directly, whatever `derived` says.
    for (i, &id) in hw.slots.iter().enumerate() {
        origin.entry(id).or_insert(Origin::Slot(i));
    }
    let probes: BTreeMap<u32, &ProbeEntry> = manifest.probes.iter().map(|p| (p.id, p)).collect();
    let shown: BTreeSet<u32> = origin.keys().copied().collect();

    let mut parent: BTreeMap<u32, u32> = BTreeMap::new();
    let mut by_call: BTreeSet<u32> = BTreeSet::new();
    for &id in &shown {
        // Up the manifest's parent links to the nearest measured probe; a bound on the walk
        // keeps a damaged manifest with a parent cycle from hanging.
        let mut up = probes.get(&id).and_then(|p| p.parent);
        let mut steps = 0;
        while let Some(u) = up {
            if shown.contains(&u) || steps > probes.len() {
                break;
            }
            up = probes.get(&u).and_then(|p| p.parent);
            steps += 1;
        }
        if let Some(u) = up.filter(|u| shown.contains(u) && *u != id) {
            parent.insert(id, u);
        }
    }
    for &id in &shown {
        let Some(p) = probes.get(&id) else { continue };
        if parent.contains_key(&id) || p.kind != "function" || p.name == hw.top {
            continue;
        }
        let caller = shown.iter().copied().find(|c| {
            *c != id
                && probes.get(c).is_some_and(|q| {
                    q.kind == "function" && q.module.as_ref().is_some_and(|m| m.calls.iter().any(|k| k.name == p.name))
                })
                && !is_ancestor(&parent, id, *c)
        });
        if let Some(c) = caller {
            parent.insert(id, c);
            by_call.insert(id);
        }
    }

    // A damaged manifest can link probes in a circle: cut it so every probe is shown once.
    for &id in &shown {
        if parent.get(&id).is_some_and(|&p| is_ancestor(&parent, id, p)) {
            parent.remove(&id);
            by_call.remove(&id);
        }
    }
    let mut children: BTreeMap<Option<u32>, Vec<u32>> = BTreeMap::new();
    for &id in &shown {
        children.entry(parent.get(&id).copied()).or_default().push(id);
    }
    for kids in children.values_mut() {
        kids.sort_by_key(|k| (by_call.contains(k), *k));
    }
    let mut out = Vec::with_capacity(shown.len());
    let mut stack: Vec<(u32, usize)> =
        children.get(&None).map(|r| r.iter().rev().map(|&id| (id, 0)).collect()).unwrap_or_default();
    while let Some((id, depth)) = stack.pop() {
        out.push(Node { probe: id, origin: origin[&id], parent: parent.get(&id).copied(), depth });
        if let Some(kids) = children.get(&Some(id)) {
            stack.extend(kids.iter().rev().map(|&k| (k, depth + 1)));
        }
    }
    out
}

/// Is `a` an ancestor of (or equal to) `b` under `parent`?
fn is_ancestor(parent: &BTreeMap<u32, u32>, a: u32, b: u32) -> bool {
    let mut x = Some(b);
    let mut steps = 0;
    while let Some(y) = x {
        if y == a {
            return true;
        }
        if steps > parent.len() {
            return true;
        }
        x = parent.get(&y).copied();
        steps += 1;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::dump::tests::manifest;
    use crate::emit::manifest::{HwDerived, ModuleInfo};
    use crate::model::Call;

    fn function(id: u32, name: &str, calls: &[&str]) -> ProbeEntry {
        let mut p = manifest().probes[0].clone();
        p.id = id;
        p.name = name.into();
        p.function = name.into();
        p.module = Some(Box::new(ModuleInfo {
            dataflow: false,
            returns_void: true,
            params: Vec::new(),
            stream_locals: Vec::new(),
            calls: calls
                .iter()
                .map(|c| Call {
                    callee: c.to_string(),
                    callee_span: 0..0,
                    args_span: 0..0,
                    name: c.to_string(),
                    line: 1,
                    args: Vec::new(),
                    task: false,
                    in_loop: None,
                })
                .collect(),
            exits: 1,
            opencl: None,
            pipeline_ii: None,
            inline: None,
            from_directive: Vec::new(),
            streamed: Vec::new(),
            row_partitioned: Vec::new(),
            initialisers: Vec::new(),
            chain: Vec::new(),
            port_uses: Vec::new(),
            scalar_uses: Vec::new(),
            direct_streams: Vec::new(),
            segments: Vec::new(),
            const_params: Vec::new(),
            volatile_params: Vec::new(),
            combinational: false,
            control: None,
        }));
        p
    }

    #[test]
    fn loops_under_functions_callees_under_callers() {
        let mut m = manifest();
        // top(0) calls a(2) and b(3); a calls b; loop 1 in top; probe 4 unmeasured loop of a, 5 in it.
        m.probes = vec![function(0, "top", &["a", "b"]), m.probes[1].clone(), function(2, "a", &["b"])];
        m.probes.push(function(3, "b", &[]));
        let mut l4 = m.probes[1].clone();
        l4.id = 4;
        l4.parent = Some(2);
        let mut l5 = l4.clone();
        l5.id = 5;
        l5.parent = Some(4);
        m.probes.extend([l4, l5]);
        let hw = m.hw.as_mut().unwrap();
        hw.slots = vec![3, 1, 5, 2];
        hw.derived = vec![HwDerived { probe: 0, from: vec![2, 3], reason: "dataflow".into() }];
        let hw = m.hw.clone().unwrap();
        let t: Vec<(u32, usize, Option<u32>)> = tree(&m, &hw).iter().map(|n| (n.probe, n.depth, n.parent)).collect();
        assert_eq!(t, vec![(0, 0, None), (1, 1, Some(0)), (2, 1, Some(0)), (5, 2, Some(2)), (3, 1, Some(0))]);
        let n = tree(&m, &hw);
        assert_eq!(n[0].origin, Origin::Derived(0));
        assert_eq!(n[1].origin, Origin::Slot(1));
    }

    #[test]
    fn mutual_calls_and_parent_cycles_do_not_hang() {
        let mut m = manifest();
        m.probes = vec![function(0, "x", &["y"]), function(1, "y", &["x"])];
        let hw = m.hw.clone().unwrap();
        assert_eq!(tree(&m, &hw).len(), 2);
        m.probes[0].parent = Some(1);
        m.probes[1].parent = Some(0);
        let t = tree(&m, &hw);
        assert_eq!(t.len(), 2);
    }
}
