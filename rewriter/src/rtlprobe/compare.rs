//! The hardware's figures beside the estimates of the same top: `hlsinstr sim`'s cycles per call
//! of each probed function and loop (`decode --sim`), and the co-simulation's per-call latency of
//! the top (`decode --cosim`), as `decode` of the HLS monitor shows its own.
//!
//! Instances are matched to the sim report's rows by name: a function instance's last path
//! segment is a `module` row's name, an FSM or pipelined loop's is a `loop` row's name in that
//! function (csynth's loop names, which `sim` uses too). Several rows (call sites) are summed.

use super::decode::{ProbeResult, Report};
use super::manifest::RtlBuild;
use crate::decode::SimReport;
use crate::sim::estimate::CosimTruth;
use serde::Serialize;

/// The co-simulation beside the top's calls.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct CosimSide {
    pub files: Vec<String>,
    /// Co-sim latency per call (one figure when its report has only a summary).
    pub per_call: Vec<u64>,
    /// The top's calls as the probe timed them (end − start + 1), in order.
    pub hardware: Vec<u64>,
}

/// Hardware cycles per call of a probe: its kept, closed calls.
pub fn hw_per_call(p: &ProbeResult) -> Option<f64> {
    let closed = p.intervals.iter().filter(|i| i.1.is_some()).count();
    (closed > 0).then(|| p.busy_cycles as f64 / closed as f64)
}

/// Fill each probe's `sim_per_call` from `sim`; a probe without a matching row says so once.
pub fn with_sim(rep: &mut Report, rtl: &RtlBuild, sim: &SimReport) {
    let mut unmatched = Vec::new();
    for p in &mut rep.probes {
        let Some(inst) = rtl.queues.iter().find(|q| q.probe == p.probe).and_then(|q| rtl.instances.get(q.instance))
        else {
            continue;
        };
        let last = |n: &str| n.rsplit('/').next().unwrap_or(n).to_string();
        let name = last(&inst.name);
        let function = inst.parent.and_then(|i| rtl.instances.get(i)).map(|f| last(&f.name));
        let rows: Vec<_> = sim
            .rows
            .iter()
            .filter(|r| r.name.as_deref() == Some(name.as_str()))
            .filter(|r| match inst.kind.as_str() {
                "loop" => r.kind.as_deref() == Some("loop") && r.function.as_deref() == function.as_deref(),
                _ => r.kind.as_deref() == Some("module"),
            })
            .collect();
        let (cycles, runs) = rows.iter().fold((0u64, 0u64), |(c, n), r| (c + r.cycles, n + r.runs));
        if runs > 0 {
            p.sim_per_call = Some(cycles as f64 / runs as f64);
        } else {
            unmatched.push(p.name.clone());
        }
    }
    if !unmatched.is_empty() {
        rep.warnings.push(format!(
            "the sim report has no row for {} (another top, or not probed there): no estimate beside it",
            unmatched.join(", ")
        ));
    }
}

/// The co-simulation's per-call figures beside the top instance's calls.
pub fn with_cosim(rep: &mut Report, rtl: &RtlBuild, truth: &CosimTruth) {
    let top = rtl.instances.iter().position(|i| i.parent.is_none());
    let hardware = rep
        .probes
        .iter()
        .find(|p| rtl.queues.iter().any(|q| q.probe == p.probe && Some(q.instance) == top && q.role == "call"))
        .map(|p| p.intervals.iter().filter_map(|&(s, e)| e.map(|e| e - s + 1)).collect())
        .unwrap_or_default();
    if top.is_none() || rep.probes.is_empty() {
        rep.warnings.push("no probe times the top: the co-simulation is shown alone".into());
    }
    rep.cosim = Some(CosimSide { files: truth.files.clone(), per_call: truth.per_call.clone(), hardware });
}

#[cfg(test)]
mod tests {
    use super::super::manifest::{RtlInstance, RtlQueue};
    use super::*;

    fn build() -> RtlBuild {
        let inst = |path: &str, name: &str, kind: &str, parent: Option<usize>| RtlInstance {
            path: path.into(),
            name: name.into(),
            module: "m".into(),
            hls_module: "m".into(),
            kind: kind.into(),
            parent,
            latency: None,
            expected_calls: None,
            probe: None,
            fsm: None,
        };
        let queue = |probe: u32, instance: usize| RtlQueue {
            probe,
            role: "call".into(),
            instance,
            depth: 8,
            start: "s".into(),
            done: "d".into(),
            cont: None,
        };
        RtlBuild {
            top: "top".into(),
            wrapper: "top_probed".into(),
            key: "0".into(),
            instances: vec![inst("top", "top", "function", None), inst("top/grp_l", "top/rows", "loop", Some(0))],
            queues: vec![queue(0, 0), queue(1, 1)],
            calls_width: 16,
            ts_width: 64,
            offload: false,
            edited: vec![],
            generated: vec![],
        }
    }

    fn probe(probe: u32, name: &str, intervals: Vec<(u64, Option<u64>)>) -> ProbeResult {
        let busy = intervals.iter().filter_map(|&(s, e)| e.map(|e| e - s + 1)).sum();
        ProbeResult {
            probe,
            name: name.into(),
            path: String::new(),
            calls: intervals.len() as u64,
            intervals,
            busy_cycles: busy,
            truncated: false,
            open: false,
            role: "call".into(),
            iterations: None,
            iterations_per_run: None,
            sim_per_call: None,
        }
    }

    /// The top's two calls took 100 and 120 cycles, its loop 40 per run; sim said 104 per call
    /// for the top (two rows of it: 208 over 2 runs) and 45 per run of `rows` in `top` (a loop
    /// `rows` of another function does not count); co-sim 171 and 191.
    #[test]
    fn estimates_beside_the_hardware() {
        let rtl = build();
        let mut rep = Report {
            top: "top".into(),
            probes: vec![
                probe(0, "top", vec![(10, Some(109)), (200, Some(319))]),
                probe(1, "top/rows", vec![(20, Some(59)), (210, Some(249))]),
            ],
            cosim: None,
            warnings: vec![],
        };
        let sim = SimReport::parse(
            r#"{"format": "hlsinstr-sim-report", "version": 2, "top": "top", "total_cycles": 208, "rows": [
              {"probe": 0, "kind": "module", "name": "top", "function": "top", "cycles": 100, "runs": 1},
              {"probe": 0, "kind": "module", "name": "top", "function": "top", "cycles": 108, "runs": 1},
              {"probe": 3, "kind": "loop", "name": "rows", "function": "top", "cycles": 90, "runs": 2},
              {"probe": 4, "kind": "loop", "name": "rows", "function": "other", "cycles": 999, "runs": 1}]}"#,
        )
        .unwrap();
        with_sim(&mut rep, &rtl, &sim);
        assert_eq!(rep.probes[0].sim_per_call, Some(104.0));
        assert_eq!(rep.probes[1].sim_per_call, Some(45.0));
        assert_eq!(hw_per_call(&rep.probes[0]), Some(110.0));
        assert!(rep.warnings.is_empty(), "{:?}", rep.warnings);
        with_cosim(
            &mut rep,
            &rtl,
            &CosimTruth { files: vec!["lat.rpt".into()], per_call: vec![171, 191], spread: None, note: None },
        );
        assert_eq!(rep.cosim.as_ref().unwrap().hardware, [100, 120]);
        let text = super::super::decode::text(&rep);
        assert!(text.contains("110.0") && text.contains("104.0") && text.contains("-5.5"), "{text}");
        assert!(text.contains("co-simulation (lat.rpt): 171 191 per call; the top in hardware: 100 120"), "{text}");

        // A sim report of another top: nothing matches, and the report says so.
        let other = SimReport::parse(
            r#"{"format": "hlsinstr-sim-report", "version": 2, "top": "k", "total_cycles": 1, "rows": [
              {"probe": 0, "kind": "module", "name": "k", "function": "k", "cycles": 1, "runs": 1}]}"#,
        )
        .unwrap();
        rep.probes.iter_mut().for_each(|p| p.sim_per_call = None);
        with_sim(&mut rep, &rtl, &other);
        assert!(rep.probes.iter().all(|p| p.sim_per_call.is_none()));
        assert!(rep.warnings[0].contains("no row for top, top/rows"), "{:?}", rep.warnings);
    }
}
