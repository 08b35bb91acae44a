//! The stall analysis of the measured rows, the hardware side of `hlsinstr sim`'s PCP / Stall /
//! Reason columns, from the dump's per-probe totals and the manifest alone.
//!
//! - **Scopes.** A row's scope is its parent row. A parent whose manifest module has
//!   `dataflow` set is a region, and its children that are functions it calls directly are its
//!   processes (another row under a region, such as a loop of its own body, is not placed: no
//!   PCP, no stall); any other parent is serial (its children run one after the other).
//! - **PCP.** Top-level rows are on the critical path. Under a serial scope on it, every child
//!   that took time is (they add up), and it stalls 0 %: it runs only while called and waits for
//!   nobody. Under a region on it, the process(es) with the largest busy time are (ties: all).
//! - **Stall %** of a process: `(T − busy) / T`, `T` the region's time (its own busy when it has
//!   a slot, else its derived span: first start to last end of its processes).
//! - **Reasons.** A process's stall is shared among the other processes of its region that ran,
//!   in proportion to their busy time: `share_j = stall × busy_j / Σ_{k≠i} busy_k`, so the
//!   shares add up to the stall. This is sim's rule (the wait is shared among the processes on
//!   the region's critical chain, in proportion to their time) with the chain taken as every
//!   other process, because a dump keeps totals, not the timeline that would tell which process
//!   held which. `dep` when the two are connected through a chain of streams or buffers among
//!   the region's processes ([`Relations::connected`], the relation sim uses), `sync` when not.
//! - **Several invocations** of a region in one run: busy times are sums over them, a derived
//!   span also covers the gaps between them, so the figures are averages over the invocations
//!   (one invocation per run is exact).

use super::report::HwRow;
use crate::emit::manifest::{Manifest, ProbeEntry};
use crate::sim::relations::Relations;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A module a process waited for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HwReason {
    /// The other process, by name, and its probe.
    pub module: String,
    pub probe: u32,
    /// Share of the region's time, percent; the shares of a row add up to its stall.
    pub share_pct: f64,
    /// `dep` (they exchange data, possibly through other processes) or `sync` (they do not).
    pub kind: String,
}

/// Set `pcp`, `stall_pct` and `reasons` of every row. Rows are in display order: a parent
/// comes before its children.
pub fn analyse(rows: &mut [HwRow], manifest: &Manifest) {
    let probes: BTreeMap<u32, &ProbeEntry> = manifest.probes.iter().map(|p| (p.id, p)).collect();
    let relations = Relations::from_manifest(manifest);
    let index: BTreeMap<u32, usize> = rows.iter().enumerate().map(|(i, r)| (r.probe, i)).collect();
    let region = |id: u32| probes.get(&id).and_then(|p| p.module.as_ref()).filter(|m| m.dataflow);
    // The processes of each region row: its function children that it calls directly.
    let mut processes: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
    for (i, r) in rows.iter().enumerate() {
        let Some(parent) = r.parent else { continue };
        if let Some(m) = region(parent) {
            if r.kind == "function" && m.calls.iter().any(|c| c.name == r.name) {
                processes.entry(parent).or_default().push(i);
            }
        }
    }

    for i in 0..rows.len() {
        let Some(parent) = rows[i].parent else {
            rows[i].pcp = true;
            continue;
        };
        let Some(&pi) = index.get(&parent) else { continue };
        let on_path = rows[pi].pcp;
        if region(parent).is_none() {
            rows[i].pcp = on_path && rows[i].busy > 0;
            rows[i].stall_pct = Some(0.0);
            continue;
        }
        let Some(procs) = processes.get(&parent).filter(|p| p.contains(&i)) else { continue };
        let slowest = procs.iter().map(|&k| rows[k].busy).max().unwrap_or(0);
        rows[i].pcp = on_path && rows[i].busy > 0 && rows[i].busy == slowest;
        let time = rows[pi].busy;
        if time == 0 {
            continue;
        }
        let stall = 100.0 * time.saturating_sub(rows[i].busy) as f64 / time as f64;
        rows[i].stall_pct = Some(stall);
        let others: Vec<usize> = procs.iter().copied().filter(|&k| k != i && rows[k].busy > 0).collect();
        // f64: a damaged dump's counts may not add up in a u64.
        let weight: f64 = others.iter().map(|&k| rows[k].busy as f64).sum();
        if stall == 0.0 || weight == 0.0 {
            continue;
        }
        let caller = probes.get(&parent).map_or("", |p| p.function.as_str());
        let names: Vec<&str> = procs.iter().map(|&k| rows[k].name.as_str()).collect();
        let mut reasons: Vec<HwReason> = others
            .iter()
            .map(|&k| {
                let dep = relations.connected(caller, &names, &rows[i].name, &rows[k].name);
                HwReason {
                    module: rows[k].name.clone(),
                    probe: rows[k].probe,
                    share_pct: stall * rows[k].busy as f64 / weight,
                    kind: if dep { "dep" } else { "sync" }.into(),
                }
            })
            .collect();
        reasons.sort_by(|a, b| b.share_pct.total_cmp(&a.share_pct).then(a.probe.cmp(&b.probe)));
        rows[i].reasons = reasons;
    }
}

#[cfg(test)]
mod tests {
    use crate::decode::dump::tests::manifest as base;
    use crate::decode::dump::{Dump, SlotRecord, STATUS_FINISHED};
    use crate::decode::report::{build, HwReport, Options};
    use crate::emit::manifest::{hw_key, HwDerived, Manifest, ModuleInfo, ProbeEntry};
    use crate::model::{Call, Param, ParamKind};

    /// A function probe: `params` as (name, kind), `calls` as (callee, args).
    fn function(
        id: u32,
        name: &str,
        dataflow: bool,
        params: &[(&str, ParamKind)],
        calls: &[(&str, &[&str])],
    ) -> ProbeEntry {
        let mut p = base().probes[0].clone();
        p.id = id;
        p.name = name.into();
        p.function = name.into();
        p.line = 10 * (id as usize + 1);
        p.module = Some(Box::new(ModuleInfo {
            dataflow,
            returns_void: true,
            params: params
                .iter()
                .map(|&(n, kind)| Param {
                    name: n.into(),
                    type_text: String::new(),
                    kind,
                    interface: None,
                    dims: Vec::new(),
                    elements: None,
                    elem_bits: None,
                })
                .collect(),
            stream_locals: Vec::new(),
            calls: calls
                .iter()
                .map(|&(c, args)| Call {
                    callee: c.into(),
                    callee_span: 0..0,
                    args_span: 0..0,
                    name: c.into(),
                    line: 1,
                    args: args.iter().map(|a| a.to_string()).collect(),
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

    fn looped(id: u32, name: &str, parent: &ProbeEntry) -> ProbeEntry {
        let mut p = base().probes[1].clone();
        p.id = id;
        p.name = name.into();
        p.function = parent.function.clone();
        p.parent = Some(parent.id);
        p
    }

    fn slot(probe: u32, calls: u64, first: u64, last: u64) -> SlotRecord {
        let busy = last - first;
        SlotRecord {
            probe: probe.into(),
            calls,
            busy,
            first_start: first,
            last_end: last,
            max_busy: busy,
            ..Default::default()
        }
    }

    /// The report of a build measuring `slots` (in slot order), deriving `derived` from the rest.
    fn report(probes: Vec<ProbeEntry>, slots: Vec<SlotRecord>, derived: Vec<HwDerived>) -> HwReport {
        let mut m: Manifest = base();
        m.probes = probes;
        let hw = m.hw.as_mut().unwrap();
        hw.slots = slots.iter().map(|s| s.probe as u32).collect();
        hw.derived = derived;
        hw.key = format!("{:016x}", hw_key(&hw.slots, &m.probes));
        let d = Dump { key: u64::from_str_radix(&hw.key, 16).unwrap(), cycles: 5000, status: STATUS_FINISHED, slots };
        build(&d, &m, d.check(&m).unwrap(), None, &Options::default()).unwrap()
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    /// top (serial) calls `region` (dataflow, no slot) whose processes are `prod` → `cons` over
    /// the stream `s` and `other`, which shares nothing with them. The region runs 100..1100.
    fn dataflow() -> HwReport {
        let stream = ParamKind::Stream;
        let probes = vec![
            function(0, "top", false, &[("a", ParamKind::Pointer)], &[("region", &["a"])]),
            function(
                1,
                "region",
                true,
                &[("a", ParamKind::Pointer)],
                &[("prod", &["a", "s"]), ("cons", &["s", "out"]), ("other", &["buf"])],
            ),
            function(2, "prod", false, &[("in", ParamKind::Pointer), ("s", stream)], &[]),
            function(3, "cons", false, &[("s", stream), ("out", ParamKind::Array)], &[]),
            function(4, "other", false, &[("b", ParamKind::Pointer)], &[]),
        ];
        let slots = vec![slot(0, 1, 50, 1150), slot(2, 1, 100, 600), slot(3, 1, 350, 1100), slot(4, 1, 150, 400)];
        let derived = vec![HwDerived { probe: 1, from: vec![2, 3, 4], reason: "dataflow".into() }];
        report(probes, slots, derived)
    }

    #[test]
    fn a_dataflow_region_stalls_its_processes_on_the_others() {
        let rep = dataflow();
        let names: Vec<&str> = rep.rows.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["top", "region", "prod", "cons", "other"]);
        let row = |n: &str| rep.rows.iter().find(|r| r.name == n).unwrap();
        // Region time: the span 100..1100 = 1000 cycles; busy 500, 750, 250.
        assert_eq!(row("region").busy, 1000);
        let got: Vec<(&str, bool, Option<f64>)> =
            rep.rows.iter().map(|r| (r.name.as_str(), r.pcp, r.stall_pct)).collect();
        assert_eq!(
            got,
            [
                ("top", true, None),
                ("region", true, Some(0.0)),
                ("prod", false, Some(50.0)),
                ("cons", true, Some(25.0)),
                ("other", false, Some(75.0)),
            ]
        );
        let reasons = |n: &str| -> Vec<(String, f64, String)> {
            row(n).reasons.iter().map(|r| (r.module.clone(), r.share_pct, r.kind.clone())).collect()
        };
        // prod waits 50 %: cons 750 and other 250 of the others' 1000 busy cycles.
        assert_eq!(reasons("prod"), [("cons".into(), 37.5, "dep".into()), ("other".into(), 12.5, "sync".into())]);
        // other waits 75 %: prod 500 and cons 750 of 1250; it shares nothing with either.
        assert_eq!(reasons("other"), [("cons".into(), 45.0, "sync".into()), ("prod".into(), 30.0, "sync".into())]);
        let cons = reasons("cons");
        assert_eq!(
            (cons[0].0.as_str(), cons[0].2.as_str(), cons[1].0.as_str(), cons[1].2.as_str()),
            ("prod", "dep", "other", "sync")
        );
        assert!(close(cons[0].1, 25.0 * 500.0 / 750.0) && close(cons[1].1, 25.0 * 250.0 / 750.0), "{cons:?}");
        for r in &rep.rows {
            let sum: f64 = r.reasons.iter().map(|x| x.share_pct).sum();
            assert!(r.reasons.is_empty() || close(sum, r.stall_pct.unwrap()), "{}: shares add up to the stall", r.name);
        }
        assert!(row("top").reasons.is_empty() && row("region").reasons.is_empty());
    }

    #[test]
    fn a_chain_of_channels_is_a_dependency_and_ties_are_all_on_the_path() {
        // a → b over s1, b → c over s2: a and c are related through b. The top is the region
        // and has its own slot: its busy time (1000) is the region's time.
        let s = ParamKind::Stream;
        let probes = vec![
            function(0, "top", true, &[], &[("a", &["s1"]), ("b", &["s1", "s2"]), ("c", &["s2"])]),
            function(1, "a", false, &[("o", s)], &[]),
            function(2, "b", false, &[("i", s), ("o", s)], &[]),
            function(3, "c", false, &[("i", s)], &[]),
        ];
        let slots = vec![slot(0, 1, 0, 1000), slot(1, 1, 0, 800), slot(2, 1, 100, 900), slot(3, 1, 200, 600)];
        let rep = report(probes, slots, Vec::new());
        let got: Vec<(&str, bool, Option<f64>)> =
            rep.rows.iter().map(|r| (r.name.as_str(), r.pcp, r.stall_pct)).collect();
        assert_eq!(
            got,
            [("top", true, None), ("a", true, Some(20.0)), ("b", true, Some(20.0)), ("c", false, Some(60.0))]
        );
        assert!(rep.rows.iter().flat_map(|r| &r.reasons).all(|x| x.kind == "dep"), "{:?}", rep.rows);
        let c: Vec<(&str, f64)> = rep.rows[3].reasons.iter().map(|x| (x.module.as_str(), x.share_pct)).collect();
        assert_eq!(c, [("a", 30.0), ("b", 30.0)]);
    }

    #[test]
    fn a_serial_design_is_all_on_the_critical_path_and_never_stalls() {
        let top = function(0, "top", false, &[], &[("f", &[]), ("g", &[]), ("idle", &[])]);
        let f = function(1, "f", false, &[], &[]);
        let probes = vec![
            top,
            f.clone(),
            function(2, "g", false, &[], &[]),
            function(3, "idle", false, &[], &[]),
            looped(4, "fl", &f),
        ];
        let idle = SlotRecord { probe: 3, first_start: u64::MAX, ..Default::default() };
        let slots = vec![slot(0, 1, 0, 1000), slot(1, 2, 10, 300), slot(2, 1, 300, 990), idle, slot(4, 2, 20, 280)];
        let rep = report(probes, slots, Vec::new());
        let got: Vec<(&str, bool, Option<f64>, usize)> =
            rep.rows.iter().map(|r| (r.name.as_str(), r.pcp, r.stall_pct, r.reasons.len())).collect();
        assert_eq!(
            got,
            [
                ("top", true, None, 0),
                ("f", true, Some(0.0), 0),
                ("fl", true, Some(0.0), 0),
                ("g", true, Some(0.0), 0),
                ("idle", false, Some(0.0), 0),
            ],
            "a module that never ran is not on the critical path"
        );
    }
}
