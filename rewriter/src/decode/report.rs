//! The hardware report: per measured probe, calls, busy cycles, averages, trips, share of the
//! top, critical path, stall and its reasons ([`stall`](super::stall)), and, given a sim report,
//! the C-simulation estimate beside them. Serialised as JSON (`hlsinstr-hw-report`, versioned).

use super::dump::{Dump, SlotRecord, STATUS_LATE, STATUS_UNMATCHED};
use super::model::{self, Origin};
use super::simreport::SimReport;
use super::stall::{self, HwReason};
use crate::emit::manifest::{HwBuild, Manifest, ProbeEntry};
use crate::error::{Error, ErrorKind, Result};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

pub const FORMAT: &str = "hlsinstr-hw-report";
/// Bump on any incompatible change of the JSON. Fields added since version 1 was first
/// written (`pcp`, `stall_pct`, `reasons`, `sim_pcp`, `sim_stall_pct`) only add information:
/// a reader of the first version ignores them, and they read back with defaults when absent.
pub const VERSION: u32 = 1;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HwReport {
    pub format: String,
    pub version: u32,
    /// The original top and the synthesis top that wraps it with the monitor.
    pub top: String,
    pub instr_top: String,
    /// `hw.key`, the build the dump came from.
    pub key: String,
    /// Event times are the probes' timestamps (else the cycle the monitor read them).
    pub timestamps: bool,
    /// Monitor cycles from its start to its termination.
    pub cycles: u64,
    /// Clock period given with `--clock`; without it there are no microseconds.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub clock_ns: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub total_us: Option<f64>,
    /// The dump's status word; bit 0 = the kernel finished and every FIFO was drained.
    pub status: u64,
    pub finished: bool,
    /// The 100 % of `top_pct`: busy cycles of the top's probe, else the monitor's cycles.
    pub top_cycles: u64,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub sim: Option<SimInfo>,
    pub rows: Vec<HwRow>,
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub warnings: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SimInfo {
    pub top: String,
    pub total_cycles: u64,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub clock_ns: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HwRow {
    pub probe: u32,
    /// `function`, `loop` or `port` (as in the manifest).
    pub kind: String,
    pub function: String,
    /// Function name, loop label or Vitis' loop name.
    pub name: String,
    pub file: String,
    pub line: usize,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub parent: Option<u32>,
    pub depth: usize,
    /// The dump slot; absent for a derived probe.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub slot: Option<usize>,
    /// Measured as first start to last end of other probes (`hw.derived`).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub derived_from: Option<Vec<u32>>,
    /// Invocations (modules) or executions (loops); unknown for a derived probe.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub calls: Option<u64>,
    /// Busy cycles: the sum over invocations (a derived probe: its span).
    pub busy: u64,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub avg: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub max: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub first_start: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub last_end: Option<u64>,
    /// `last_end − first_start`.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub span: Option<u64>,
    /// Loops: total trips, and trips per execution.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub trips: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub trips_avg: Option<f64>,
    /// `busy` as a share of `top_cycles`, percent.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub top_pct: Option<f64>,
    pub unmatched: u64,
    /// On the critical path (measured): see [`stall`](super::stall).
    #[serde(default)]
    pub pcp: bool,
    /// Share of the enclosing scope's time this row is not busy, percent: a dataflow process's
    /// region, 0 under a serial scope; absent for top-level rows and when unknown.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub stall_pct: Option<f64>,
    /// The processes of its region this row waited for, with their shares of the region's time.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub reasons: Vec<HwReason>,
    /// Summed over the sim report's sites of this probe.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub sim_cycles: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub sim_runs: Option<u64>,
    /// `(sim − hw) / hw`, percent: positive when the estimate is too high.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub sim_err_pct: Option<f64>,
    /// The sim report's PCP (any site of this probe on its critical path) and stall (over its
    /// sites, weighted by their scopes' time).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub sim_pcp: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub sim_stall_pct: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub note: Option<String>,
    /// A loop probe of a perfect nest measured as one flattened loop: the nest's loops,
    /// outermost first (`trips` are the flattened trips).
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub nest: Vec<String>,
}

/// What decode needs besides the dump and the manifest.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The kernel clock period, ns (from `--clock`).
    pub clock_ns: Option<f64>,
}

fn ratio(a: u64, b: u64) -> Option<f64> {
    (b > 0).then(|| a as f64 / b as f64)
}

fn describe(id: u32, p: Option<&ProbeEntry>) -> String {
    match p {
        Some(p) => format!("probe {id} `{}` ({}:{})", p.name, p.file, p.line),
        None => format!("probe {id}"),
    }
}

fn ids(v: &[u32]) -> String {
    v.iter().map(u32::to_string).collect::<Vec<_>>().join(", ")
}

/// A checked dump (see [`Dump::check`]) → the report.
pub fn build(
    dump: &Dump,
    manifest: &Manifest,
    hw: &HwBuild,
    sim: Option<&SimReport>,
    opts: &Options,
) -> Result<HwReport> {
    if let Some(s) = sim {
        if s.top != hw.top {
            return Err(Error::new(
                ErrorKind::BadInput,
                format!(
                    "the sim report is of top `{}`, this build's top is `{}`: give the report of `hlsinstr sim --top {} \
                     --format json`",
                    s.top, hw.top, hw.top
                ),
            ));
        }
    }
    let probes: BTreeMap<u32, &ProbeEntry> = manifest.probes.iter().map(|p| (p.id, p)).collect();
    let slot_of: BTreeMap<u32, &SlotRecord> = hw.slots.iter().zip(&dump.slots).map(|(&id, r)| (id, r)).collect();
    let mut warnings = Vec::new();
    if !dump.finished() {
        warnings.push(
            "the kernel did not finish (status bit 0 clear: the monitor never saw the run-done token, or a probe FIFO \
             still held events): counts are partial; check that the host waited for the kernel"
                .to_string(),
        );
    }

    let mut rows = Vec::new();
    for node in model::tree(manifest, hw) {
        let p = probes.get(&node.probe).copied();
        if p.is_none() {
            warnings.push(format!(
                "probe {} has a slot but is not in the manifest's probe list: the manifest is damaged; rewrite again",
                node.probe
            ));
        }
        let mut row = HwRow {
            probe: node.probe,
            kind: p.map_or_else(|| "?".into(), |p| p.kind.clone()),
            function: p.map_or_else(String::new, |p| p.function.clone()),
            name: p.map_or_else(|| format!("probe {}", node.probe), |p| p.name.clone()),
            file: p.map_or_else(String::new, |p| p.file.clone()),
            line: p.map_or(0, |p| p.line),
            parent: node.parent,
            depth: node.depth,
            slot: None,
            derived_from: None,
            calls: None,
            busy: 0,
            avg: None,
            max: None,
            first_start: None,
            last_end: None,
            span: None,
            trips: None,
            trips_avg: None,
            top_pct: None,
            unmatched: 0,
            pcp: false,
            stall_pct: None,
            reasons: Vec::new(),
            sim_cycles: None,
            sim_runs: None,
            sim_err_pct: None,
            sim_pcp: None,
            sim_stall_pct: None,
            note: None,
            nest: p.map(|p| p.nest_unit()).unwrap_or_default(),
        };
        match node.origin {
            Origin::Slot(i) => {
                let Some(r) = dump.slots.get(i) else { continue };
                row.slot = Some(i);
                row.calls = Some(r.calls);
                row.busy = r.busy;
                row.unmatched = r.unmatched;
                if r.calls > 0 {
                    row.avg = ratio(r.busy, r.calls);
                    row.max = (dump.status & super::dump::STATUS_NO_LONGEST == 0).then_some(r.max_busy);
                    row.first_start = (r.first_start != u64::MAX).then_some(r.first_start);
                }
                row.last_end = (r.last_end != 0).then_some(r.last_end);
                row.span = row.last_end.zip(row.first_start).and_then(|(e, s)| e.checked_sub(s));
                if row.kind == "loop" {
                    row.trips = Some(r.trips);
                    row.trips_avg = ratio(r.trips, r.calls);
                }
                let odd = (r.calls == 0 && (r.busy > 0 || r.trips > 0))
                    || (r.calls > 0 && r.max_busy > r.busy)
                    || (row.first_start.is_some() && row.last_end.is_some() && row.span.is_none());
                if odd {
                    warnings.push(format!(
                        "{} (slot {i}): its counts do not fit together (calls {}, busy {}, max {}, first start {}, \
                         last end {}): the dump may be damaged",
                        describe(node.probe, p),
                        r.calls,
                        r.busy,
                        r.max_busy,
                        r.first_start,
                        r.last_end
                    ));
                }
                if r.unmatched > 0 {
                    warnings.push(format!(
                        "{}: {} unmatched events (a begin while open or an end while not open): an event was lost or \
                         a probe skipped, so its counts may be off",
                        describe(node.probe, p),
                        r.unmatched
                    ));
                }
            }
            Origin::Derived(i) => {
                let Some(d) = hw.derived.get(i) else { continue };
                let from: Vec<&SlotRecord> = d.from.iter().filter_map(|f| slot_of.get(f).copied()).collect();
                let missing: Vec<u32> = d.from.iter().copied().filter(|f| !slot_of.contains_key(f)).collect();
                if !missing.is_empty() {
                    warnings.push(format!(
                        "{} is derived from probes {} that have no slot: the manifest is damaged; rewrite again",
                        describe(node.probe, p),
                        ids(&missing)
                    ));
                }
                let ran: Vec<&&SlotRecord> = from.iter().filter(|r| r.calls > 0).collect();
                row.first_start = ran.iter().map(|r| r.first_start).filter(|&s| s != u64::MAX).min();
                row.last_end = ran.iter().map(|r| r.last_end).filter(|&e| e != 0).max();
                row.span = row.last_end.zip(row.first_start).and_then(|(e, s)| e.checked_sub(s));
                row.busy = row.span.unwrap_or(0);
                row.derived_from = Some(d.from.clone());
                row.note =
                    Some(format!("first start to last end of probes {} ({}); calls unknown", ids(&d.from), d.reason));
            }
        }
        rows.push(row);
    }

    let top_row = rows.iter().find(|r| r.kind == "function" && r.name == hw.top && r.busy > 0);
    let top_cycles = match top_row {
        Some(r) => r.busy,
        None => {
            warnings.push(format!(
                "the top `{}` has no measured time of its own: %top is relative to the monitor's {} cycles",
                hw.top, dump.cycles
            ));
            dump.cycles
        }
    };
    for r in &mut rows {
        r.top_pct = ratio(r.busy, top_cycles).map(|x| 100.0 * x);
    }
    stall::analyse(&mut rows, manifest);
    if dump.status & STATUS_LATE != 0 {
        warnings.push(
            "some events were read from their FIFO after they arrived (several probes posted back to back at once): their times and busy sums are late by those cycles; build with --probes ...,timestamps for exact times".into(),
        );
    }
    if dump.status & STATUS_UNMATCHED != 0 && rows.iter().all(|r| r.unmatched == 0) {
        warnings.push("the monitor flags unmatched events but no slot counts any: the dump may be damaged".into());
    }

    let sim_info = sim.map(|s| {
        let per = s.per_probe();
        let pairing = pair_with_sim(s, &probes);
        for r in &mut rows {
            if let Some(t) = pairing.sim_of.get(&r.probe).and_then(|id| per.get(id)) {
                r.sim_cycles = Some(t.cycles);
                r.sim_runs = Some(t.runs);
                r.sim_err_pct = ratio(t.cycles, r.busy).map(|x| 100.0 * (x - 1.0));
                r.sim_pcp = Some(t.pcp);
                r.sim_stall_pct = t.stall_pct;
            }
        }
        let hw_of = |id: &u32| pairing.sim_of.iter().find(|(_, s)| *s == id).map(|(h, _)| *h);
        let unknown: Vec<u32> =
            per.keys().copied().filter(|id| hw_of(id).is_none() && !pairing.in_nest.contains(id)).collect();
        let unmeasured: Vec<u32> =
            per.keys().copied().filter(|id| hw_of(id).is_some_and(|h| !rows.iter().any(|r| r.probe == h))).collect();
        if !pairing.in_nest.is_empty() {
            warnings.push(format!(
                "the sim report's loop probes {} are inner loops of perfect nests this build measures as one loop \
                 (compared on the nest's row with the sim figures of its outermost loop)",
                ids(&pairing.in_nest)
            ));
        }
        if !unknown.is_empty() {
            warnings.push(format!(
                "the sim report has probes {} that are not in this build's manifest: ignored (was it made from \
                 the same sources?)",
                ids(&unknown)
            ));
        }
        if !unmeasured.is_empty() {
            warnings.push(format!(
                "the sim report has probes {} that this build does not measure in hardware: not compared",
                ids(&unmeasured)
            ));
        }
        let sim_clock = s.clock_ns.map(|c| c.value);
        if let (Some(a), Some(b)) = (sim_clock, opts.clock_ns) {
            if (a - b).abs() > 1e-9 * a.abs().max(b.abs()) {
                warnings.push(format!(
                    "the sim report estimates cycles of a {a} ns clock, the hardware ran at {b} ns: cycle counts \
                     differ by the clock ratio too"
                ));
            }
        }
        SimInfo { top: s.top.clone(), total_cycles: s.total_cycles, clock_ns: sim_clock }
    });

    Ok(HwReport {
        format: FORMAT.into(),
        version: VERSION,
        top: hw.top.clone(),
        instr_top: hw.instr_top.clone(),
        key: hw.key.clone(),
        timestamps: hw.timestamps,
        cycles: dump.cycles,
        clock_ns: opts.clock_ns,
        total_us: opts.clock_ns.map(|c| dump.cycles as f64 * c / 1000.0),
        status: dump.status,
        finished: dump.finished(),
        top_cycles,
        sim: sim_info,
        rows,
        warnings,
    })
}

/// Which sim report probe each probe of this build is.
struct SimPairing {
    /// Probe id of this build → probe id of the sim report.
    sim_of: BTreeMap<u32, u32>,
    /// Sim probes of inner loops of a perfect nest that this build measures as one loop.
    in_nest: Vec<u32>,
}

/// Pair this build's probes with the sim report's by source (kind, function, file, line) when
/// the report says where its probes are, else by id (hand-written reports). A perfect nest
/// measured as one loop pairs with its outermost loop, whose sim figures cover the whole nest.
fn pair_with_sim(s: &SimReport, probes: &BTreeMap<u32, &ProbeEntry>) -> SimPairing {
    let sources = s.sources();
    if sources.is_empty() {
        return SimPairing { sim_of: probes.keys().map(|&id| (id, id)).collect(), in_nest: Vec::new() };
    }
    let key = |p: &ProbeEntry, line: usize| {
        let kind = if p.kind == "function" { "module" } else { p.kind.as_str() };
        (kind.to_string(), p.function.clone(), p.file.clone(), line)
    };
    let find = |k: &super::simreport::SourceKey| sources.iter().find(|(_, s)| *s == k).map(|(id, _)| *id);
    let mut sim_of = BTreeMap::new();
    let mut in_nest = Vec::new();
    for (&id, p) in probes {
        if let Some(sim) = find(&key(p, p.line)) {
            sim_of.insert(id, sim);
        }
        if p.nest_unit().is_empty() {
            continue;
        }
        let inner = p.nest.iter().flat_map(|n| n.members.iter().skip(1));
        in_nest.extend(inner.filter_map(|m| find(&key(p, m.line))));
    }
    in_nest.sort_unstable();
    SimPairing { sim_of, in_nest }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::dump::tests::{dump, manifest};
    use crate::emit::manifest::HwDerived;

    fn report(d: &Dump, m: &Manifest, sim: Option<&SimReport>) -> HwReport {
        let hw = d.check(m).unwrap();
        build(d, m, hw, sim, &Options { clock_ns: Some(4.0) }).unwrap()
    }

    #[test]
    fn numbers_per_row() {
        let m = manifest();
        let r = report(&dump(&m), &m, None);
        assert_eq!((r.cycles, r.top_cycles, r.total_us), (1000, 900, Some(4.0)));
        assert!(r.warnings.is_empty(), "{:?}", r.warnings);
        let top = &r.rows[0];
        assert_eq!((top.name.as_str(), top.depth, top.calls, top.busy), ("top", 0, Some(2), 900));
        assert_eq!((top.avg, top.max, top.span, top.trips), (Some(450.0), Some(500), Some(980), None));
        assert_eq!(top.top_pct, Some(100.0));
        let l = &r.rows[1];
        assert_eq!((l.name.as_str(), l.depth, l.parent, l.busy), ("L", 1, Some(0), 800));
        assert_eq!((l.trips, l.trips_avg, l.avg), (Some(20), Some(10.0), Some(400.0)));
        assert_eq!(l.top_pct, Some(100.0 * 800.0 / 900.0));
    }

    #[test]
    fn unfinished_unmatched_and_idle_slots() {
        let m = manifest();
        let mut d = dump(&m);
        d.status = STATUS_UNMATCHED;
        d.slots[1] = SlotRecord { probe: 1, first_start: u64::MAX, unmatched: 3, ..Default::default() };
        let r = report(&d, &m, None);
        assert!(!r.finished);
        assert!(r.warnings[0].contains("did not finish"), "{:?}", r.warnings);
        assert!(r.warnings.iter().any(|w| w.contains("3 unmatched")), "{:?}", r.warnings);
        let l = &r.rows[1];
        assert_eq!((l.calls, l.avg, l.first_start, l.span, l.trips_avg), (Some(0), None, None, None, None));
    }

    #[test]
    fn late_events_are_warned_about() {
        let m = manifest();
        let mut d = dump(&m);
        assert!(!report(&d, &m, None).warnings.iter().any(|w| w.contains("after they arrived")));
        d.status |= super::super::dump::STATUS_LATE;
        let r = report(&d, &m, None);
        assert!(
            r.warnings.iter().any(|w| w.contains("after they arrived") && w.contains("timestamps")),
            "{:?}",
            r.warnings
        );
    }

    #[test]
    fn derived_top_is_the_span_of_its_processes() {
        let mut m = manifest();
        let hw = m.hw.as_mut().unwrap();
        hw.slots = vec![1];
        hw.derived = vec![HwDerived { probe: 0, from: vec![1], reason: "dataflow region".into() }];
        hw.key = format!("{:016x}", crate::emit::manifest::hw_key(&hw.slots, &m.probes));
        let mut d = dump(&m);
        d.key = u64::from_str_radix(&m.hw.as_ref().unwrap().key, 16).unwrap();
        d.slots.remove(0);
        let r = report(&d, &m, None);
        let top = &r.rows[0];
        assert_eq!((top.calls, top.busy, top.derived_from.as_deref()), (None, 968, Some(&[1u32][..])));
        assert!(top.note.as_deref().unwrap().contains("calls unknown"));
        assert_eq!(r.top_cycles, 968);
    }

    #[test]
    fn sim_side_by_side() {
        let m = manifest();
        let sim = SimReport::parse(
            r#"{"format":"hlsinstr-sim-report","version":1,"top":"top","total_cycles":990,"clock_ns":{"value":4.0},
                "rows":[{"probe":0,"cycles":990,"runs":2},{"probe":1,"cycles":400,"runs":1},
                        {"probe":1,"cycles":400,"runs":1},{"probe":42,"cycles":1}]}"#,
        )
        .unwrap();
        let r = report(&dump(&m), &m, Some(&sim));
        assert_eq!((r.rows[0].sim_cycles, r.rows[0].sim_err_pct.map(|e| (e * 1e6).round())), (Some(990), Some(10e6)));
        assert_eq!((r.rows[1].sim_cycles, r.rows[1].sim_runs, r.rows[1].sim_err_pct), (Some(800), Some(2), Some(0.0)));
        assert!(r.warnings.iter().any(|w| w.contains("probes 42")), "{:?}", r.warnings);
        // A report that says where its probes are is paired by source, whatever its ids.
        let sim = SimReport::parse(
            r#"{"format":"hlsinstr-sim-report","version":1,"top":"top","total_cycles":990,
                "rows":[{"probe":5,"cycles":990,"runs":2,"kind":"module","function":"top","file":"k.cpp","line":1},
                        {"probe":9,"cycles":700,"runs":2,"kind":"loop","function":"top","file":"k.cpp","line":2},
                        {"probe":0,"cycles":3,"kind":"loop","function":"top","file":"k.cpp","line":7}]}"#,
        )
        .unwrap();
        let r = report(&dump(&m), &m, Some(&sim));
        assert_eq!((r.rows[0].sim_cycles, r.rows[1].sim_cycles), (Some(990), Some(700)));
        assert!(r.warnings.iter().any(|w| w.contains("probes 0 that are not in this build")), "{:?}", r.warnings);
        // Loop L measured as the perfect nest L (line 2) / M (line 7): paired with L's sim row,
        // M's is named as an inner loop of the nest, not as unknown.
        let mut nested = m.clone();
        nested.probes[1].nest = Some(Box::new(crate::emit::manifest::NestInfo {
            probed: "unit".into(),
            flattened_name: "L_M".into(),
            members: [("L", 2), ("M", 7)]
                .iter()
                .map(|&(name, line)| crate::emit::manifest::NestMember {
                    name: name.into(),
                    label: None,
                    vitis_name: name.into(),
                    line,
                    column: 1,
                })
                .collect(),
        }));
        let r = report(&dump(&nested), &nested, Some(&sim));
        assert_eq!((r.rows[1].sim_cycles, r.rows[1].nest.clone()), (Some(700), vec!["L".to_string(), "M".to_string()]));
        assert!(!r.warnings.iter().any(|w| w.contains("not in this build")), "{:?}", r.warnings);
        assert!(
            r.warnings.iter().any(|w| w.contains("loop probes 0 are inner loops of perfect nests")),
            "{:?}",
            r.warnings
        );
        let mut other = sim.clone();
        other.top = "else".into();
        let d = dump(&m);
        let e = build(&d, &m, d.check(&m).unwrap(), Some(&other), &Options::default()).unwrap_err();
        assert!(e.message.contains("--top top"), "{e}");
    }
}
