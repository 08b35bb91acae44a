//! m_axi waits a schedule does not hold (docs/cycle-model.md, "m_axi bursts on a short
//! schedule"): Vitis schedules a burst for the m_axi latency `L` of the report's HW Interfaces
//! table, the m_axi adapter takes longer when `L` is small (`-flow_target vivado`: 0).
//!
//! The figures were measured by simulating the Vitis 2022.2 adapter (`<top>_<bundle>_m_axi.v`
//! of the systolic fixture, `CONSERVATIVE` 1 as Vitis instantiates it) with Icarus against a
//! memory that answers in the cycle after each handshake (`scripts/maxi-adapter-tb.v`):
//! - a read request reaches the kernel's side of the adapter as data [`READ_ROUND_TRIP`]
//!   cycles after the adapter takes it; the schedule gives the request `L + 6` states
//!   ([`READREQ_STATES`], the fixture's schedule: `readreq` 70 states at `L` = 64) and the read
//!   its state after them, so a burst's first beat comes `12 − (L + 7)` cycles late;
//! - a write burst's response comes [`WRITE_RESPONSE_TAIL`] cycles after the adapter took its
//!   last beat (conservative mode buffers each sub-burst before its address goes out); the
//!   schedule gives the response `L + 4` states ([`WRITERESP_STATES`]: `writeresp` 68 at 64)
//!   after the state of the last beat: `33 − (L + 5)` cycles late.
//!
//! Only the bursts the report lists (`M_AXI Burst Information`) are charged, once per run of
//! their loop; a burst whose loop may run more than once per call of the top is not charged
//! (said in the note).

use crate::csynth::{MaxiBurst, Report};
use crate::emit::manifest::Manifest;
use serde::Serialize;
use std::collections::VecDeque;

/// Request taken → first beat at the kernel's side of the 2022.2 adapter (cycles).
pub const READ_ROUND_TRIP: u64 = 12;
/// Last write beat taken → write response at the kernel's side, conservative mode (cycles).
pub const WRITE_RESPONSE_TAIL: u64 = 33;
/// States of a `readreq` beyond the interface latency in Vitis' schedule.
pub const READREQ_STATES: u64 = 6;
/// States of a `writeresp` beyond the interface latency in Vitis' schedule.
pub const WRITERESP_STATES: u64 = 4;

/// Request taken → data the kernel can use, for a single-beat read through the adapter Vitis
/// generated before 2022.1 (its 2021.1 read path with the co-sim memory model's read process,
/// simulated in Icarus: docs/cycle-model.md, "m_axi single reads in a pipeline"). From 2022.1
/// it is [`READ_ROUND_TRIP`].
pub const READ_ROUND_TRIP_BEFORE_2022: u64 = 13;

/// A pipeline's single-beat m_axi reads (no burst): each is due `distance` steps after its
/// request, and its data come `round_trip` cycles after the request was taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SingleReads {
    pub distance: u64,
    pub round_trip: u64,
}

impl SingleReads {
    /// For a Vitis HLS release (2020.1 on; Vivado HLS's adapters were not measured) and the
    /// interface latency `latency` its schedule assumed.
    pub fn for_release(year: u32, minor: u32, latency: u64) -> Option<SingleReads> {
        let round_trip = match (year, minor) {
            (y, _) if y < 2020 => return None,
            (y, m) if (y, m) < (2022, 1) => READ_ROUND_TRIP_BEFORE_2022,
            _ => READ_ROUND_TRIP,
        };
        Some(SingleReads { distance: latency + READREQ_STATES + 1, round_trip })
    }
}

/// Cycles a pipeline of `iterations` iterations of `ii` steps loses to `reads` single-beat reads
/// an iteration (spread evenly over its steps, at most one a step: one request a cycle on a
/// bundle). The whole pipeline stalls while a read that is due has no data (Vitis' `ap_block`
/// logic), so only the reads requested in the last `distance` steps are in flight: each waits
/// for what is left of its round trip when it falls due. Matches the Icarus runs of
/// docs/cycle-model.md to the cycle per read (one read a step: +0.86 at distance 7, round trip
/// 13; one every 2 steps: +1.50). Long runs are simulated in part and scaled: the waits repeat
/// with a period of a few windows.
pub fn single_read_stall(iterations: u64, reads: u64, ii: u64, sr: SingleReads) -> u64 {
    const SIMULATED: u64 = 1 << 16;
    if reads == 0 || ii == 0 || reads > ii || sr.distance >= sr.round_trip || iterations == 0 {
        return 0;
    }
    let total = iterations.saturating_mul(reads);
    let n = total.min(SIMULATED);
    let step = |r: u64| (r / reads) * ii + (r % reads) * ii / reads;
    // Requests still waiting to fall due: (step, time the request went out).
    let mut pending: VecDeque<(u64, u64)> = VecDeque::new();
    let mut stall = 0u64;
    let due = |pending: &mut VecDeque<(u64, u64)>, stall: &mut u64, upto: Option<u64>| {
        while let Some(&(s, issued)) = pending.front() {
            if upto.is_some_and(|u| s + sr.distance > u) {
                break;
            }
            let now = s + sr.distance + *stall;
            *stall += (issued + sr.round_trip).saturating_sub(now);
            pending.pop_front();
        }
    };
    for r in 0..n {
        let s = step(r);
        // A read falling due in this step stalls it before its request goes out.
        due(&mut pending, &mut stall, Some(s));
        pending.push_back((s, s + stall));
    }
    due(&mut pending, &mut stall, None);
    if n == total {
        stall
    } else {
        (stall as u128 * total as u128 / n as u128) as u64
    }
}

/// One burst's wait per call of the top.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MaxiWait {
    /// The RTL interface, e.g. `m_axi_gmem`.
    pub interface: String,
    /// `read` or `write`.
    pub direction: String,
    /// The loop the report names for the burst (`anonymous` for a `memcpy`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub loop_name: Option<String>,
    /// Source line of the access the report gives.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    /// The interface latency the schedule assumed (HW Interfaces).
    pub latency: u64,
    /// Cycles added to each call.
    pub cycles: u64,
}

/// The wait of a read burst on a schedule of interface latency `latency`.
pub fn read_wait(latency: u64) -> u64 {
    READ_ROUND_TRIP.saturating_sub(latency + READREQ_STATES + 1)
}

/// The wait of a write burst's response on a schedule of interface latency `latency`.
pub fn write_wait(latency: u64) -> u64 {
    WRITE_RESPONSE_TAIL.saturating_sub(latency + WRITERESP_STATES + 1)
}

/// The waits of the report's bursts per call of `top`, and a note for bursts left out.
/// Empty when the report lists no bursts or schedules for a latency the adapter meets.
pub fn burst_waits(report: &Report, top: &str) -> (Vec<MaxiWait>, Option<String>) {
    let Some(bursts) = report.maxi_bursts.as_deref() else { return (Vec::new(), None) };
    let mut waits = Vec::new();
    let mut left = Vec::new();
    for b in bursts {
        let Some(latency) = report.maxi.iter().find(|m| m.name == b.interface).and_then(|m| m.latency) else {
            left.push(format!("{} {}: no latency for the interface", b.interface, b.direction));
            continue;
        };
        let cycles = if b.is_read() { read_wait(latency) } else { write_wait(latency) };
        if cycles == 0 {
            continue;
        }
        if !runs_once_per_call(report, top, b) {
            left.push(format!(
                "{} {} in {}: its loop may run more than once per call",
                b.interface,
                b.direction,
                b.loop_name.as_deref().unwrap_or("?")
            ));
            continue;
        }
        waits.push(MaxiWait {
            interface: b.interface.clone(),
            direction: b.direction.clone(),
            loop_name: b.loop_name.clone(),
            line: b.location.as_ref().map(|l| l.line),
            latency,
            cycles,
        });
    }
    let note = (!left.is_empty()).then(|| format!("m_axi bursts not charged: {}", left.join("; ")));
    (waits, note)
}

/// The manifest with the reads the report's burst table does not list as bursts marked single:
/// a read that might have been a burst of its loop (`may_burst`, from the source alone) was
/// not one where the table has no read burst on its bundle at one of its loops' lines (the
/// public 2022.2 `mult_hw` lists only its write burst: its 96 reads of `in1` and `in2` are
/// single reads, each waiting on the adapter). `None` without a table or nothing to change.
pub fn reads_the_report_did_not_burst(manifest: &Manifest, report: &Report) -> Option<Manifest> {
    let bursts = report.maxi_bursts.as_deref()?;
    // Per port probe (by its place in the manifest), the reads to mark single.
    let mut marks: Vec<(usize, Vec<usize>)> = Vec::new();
    for (at, p) in manifest.probes.iter().enumerate() {
        let Some(info) = p.port.as_deref() else { continue };
        let interface = format!("m_axi_{}", info.bundle());
        let burst_at = |loops: &[usize]| {
            bursts.iter().any(|b| {
                let at =
                    b.location.as_ref().is_some_and(|l| loops.contains(&(l.line as usize)) && l.same_file(&p.file));
                b.is_read() && b.interface == interface && (at || b.location.is_none())
            })
        };
        let single: Vec<usize> =
            info.reads.iter().enumerate().filter(|(_, s)| s.may_burst && !burst_at(&s.loops)).map(|(i, _)| i).collect();
        if !single.is_empty() {
            marks.push((at, single));
        }
    }
    marked_single(manifest, marks)
}

/// The manifest with the reads marked single that share their innermost loop with a read of
/// another port of the same bundle: Vitis does not burst "different burst accesses with the
/// same bundle name" (its message 214-224, "Burst Inference Failure 2"; a public 2025.2 report's
/// burst table says of two such ports "Could not burst due to multiple potential reads to the
/// same bundle in the same region"). For a report without a burst table (the per-module layout)
/// or none; a table says itself ([`reads_the_report_did_not_burst`]). Ports given no bundle share
/// Vitis' default one. `None` when nothing changes.
pub fn reads_sharing_a_bundle_are_single(manifest: &Manifest) -> Option<Manifest> {
    use std::collections::HashMap;
    // (file, bundle, innermost loop line) → the ports (by place in the manifest) read there.
    let mut readers: HashMap<(&str, &str, usize), Vec<usize>> = HashMap::new();
    for (at, p) in manifest.probes.iter().enumerate() {
        let Some(info) = p.port.as_deref() else { continue };
        for s in &info.reads {
            let Some(&inner) = s.loops.first() else { continue };
            let ports = readers.entry((p.file.as_str(), info.bundle(), inner)).or_default();
            if !ports.contains(&at) {
                ports.push(at);
            }
        }
    }
    let shared = |at: usize, inner: usize| {
        let p = &manifest.probes[at];
        let info = p.port.as_deref().expect("a port probe");
        readers.get(&(p.file.as_str(), info.bundle(), inner)).is_some_and(|ports| ports.len() > 1)
    };
    let mut marks: Vec<(usize, Vec<usize>)> = Vec::new();
    for (at, p) in manifest.probes.iter().enumerate() {
        let Some(info) = p.port.as_deref() else { continue };
        let single: Vec<usize> = info
            .reads
            .iter()
            .enumerate()
            .filter(|(_, s)| s.may_burst && s.loops.first().is_some_and(|&l| shared(at, l)))
            .map(|(i, _)| i)
            .collect();
        if !single.is_empty() {
            marks.push((at, single));
        }
    }
    marked_single(manifest, marks)
}

/// The manifest with the reads `marks` names (per port probe, by place: its read sites) no
/// longer a possible burst; `None` when there are none.
fn marked_single(manifest: &Manifest, marks: Vec<(usize, Vec<usize>)>) -> Option<Manifest> {
    if marks.is_empty() {
        return None;
    }
    let mut m = manifest.clone();
    for (at, single) in marks {
        if let Some(info) = m.probes[at].port.as_deref_mut() {
            for i in single {
                info.reads[i].may_burst = false;
            }
        }
    }
    Some(m)
}

/// The burst's loop runs once per call of the top: an outermost loop of the top, or of a module
/// the top calls outside its loops, where no loop of the report calls a module. A `memcpy`'s
/// burst (`anonymous`, or no loop named) counts once when no loop of the report calls a module
/// and the top has no loop that could hold it.
fn runs_once_per_call(report: &Report, top: &str, b: &MaxiBurst) -> bool {
    let Some(top_module) = report.module(top).or_else(|| report.top_module()) else { return false };
    let loops_call_modules = report.all_loops().iter().any(|l| !l.node.instances.is_empty());
    if loops_call_modules {
        return false;
    }
    let called_by_top = |name: &str| {
        name == top_module.name || top_module.instances.iter().any(|i| i.module.as_deref().unwrap_or(&i.name) == name)
    };
    match b.loop_name.as_deref() {
        None | Some("anonymous") => top_module.loops.is_empty(),
        Some(name) => {
            // A flattened nest is named for its loops in order (`VITIS_LOOP_42_8_VITIS_LOOP_43_9`),
            // where the burst table names the outer one (the public 2022.2 `mult_hw`).
            let flattened = format!("{name}_");
            let named = |l: &str| l == name || l.starts_with(&flattened);
            let found: Vec<_> = report.all_loops().into_iter().filter(|l| named(l.node.base_name())).collect();
            found.len() == 1 && found[0].depth == 0 && called_by_top(&found[0].module.name)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The systolic fixture's report (2022.2) bursts reads of `gmem1` and `gmem2` at line 31:
    /// a read there that might burst stays so; one at another line, or on a bundle without a
    /// read burst, was a single read.
    #[test]
    fn reads_the_burst_table_does_not_list_are_single() {
        let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/fixtures");
        let xml = fixtures.join("vitis-solution/2022.2-systolic-mm/solution/syn/report/csynth.xml");
        let report = crate::csynth::parse_file(&xml).unwrap();
        let port = |id: u32, bundle: &str, line: usize| {
            format!(
                r#"{{"id":{id},"kind":"port","file":"Systolic-Matrix-Multiplier/design.cpp","line":1,"column":1,"function":"multiplier","name":"p{id}","parent":0,
                  "port":{{"element_type":"int","bound_to":[{{"function":"multiplier","port":"p{id}","bundle":"{bundle}"}}],"sites":1,"uncounted":[],
                  "reads":[{{"loops":[{line}],"may_burst":true}}]}}}}"#
            )
        };
        let text = format!(
            r#"{{"format":"hlsinstr-manifest","version":1,"tool":"t","kinds":["modules","loops","maxi"],"files":[],"skipped":[],"probes":[
              {{"id":0,"kind":"function","file":"design.cpp","line":1,"column":1,"function":"multiplier","name":"multiplier"}},{},{},{}]}}"#,
            port(1, "gmem1", 31),
            port(2, "gmem1", 40),
            port(3, "gmem4", 31)
        );
        let manifest: Manifest = serde_json::from_str(&text).unwrap();
        let marked = reads_the_report_did_not_burst(&manifest, &report).expect("two reads change");
        let may_burst: Vec<bool> =
            marked.probes.iter().filter_map(|p| p.port.as_deref()).map(|i| i.reads[0].may_burst).collect();
        assert_eq!(may_burst, [true, false, false]);
    }

    #[test]
    fn single_reads_wait_for_what_the_window_leaves_of_the_round_trip() {
        let sr = SingleReads { distance: 7, round_trip: 13 };
        // One read a step: a window of 7 reads waits 6 (the Icarus run: 1866 cycles for 1007).
        assert_eq!(single_read_stall(1000, 1, 1, sr), 858);
        assert_eq!(single_read_stall(1000, 1, 1, SingleReads { distance: 6, ..sr }), 1169);
        // One every 2 steps: 4 reads a window of 8 steps, each window 6 (Icarus: +1.501 a read).
        assert_eq!(single_read_stall(1000, 1, 2, sr), 1500);
        // 51 reads in an iteration of 51 steps is one a step again.
        assert_eq!(single_read_stall(100, 51, 51, sr), single_read_stall(5100, 1, 1, sr));
        // A schedule that holds the round trip waits for nothing; nor do no reads.
        assert_eq!(single_read_stall(1000, 1, 1, SingleReads { distance: 13, ..sr }), 0);
        assert_eq!(single_read_stall(1000, 0, 1, sr), 0);
        // Scaled past the simulated part, still about 6/7 a read.
        let long = single_read_stall(10_000_000, 1, 1, sr);
        assert!((8_570_000..8_580_000).contains(&long), "{long}");
    }

    #[test]
    fn the_round_trip_follows_the_adapter_family() {
        assert_eq!(SingleReads::for_release(2019, 2, 0), None, "Vivado HLS: not measured");
        assert_eq!(SingleReads::for_release(2020, 2, 0), Some(SingleReads { distance: 7, round_trip: 13 }));
        assert_eq!(SingleReads::for_release(2022, 2, 64), Some(SingleReads { distance: 71, round_trip: 12 }));
    }

    #[test]
    fn waits_shrink_with_the_scheduled_latency() {
        assert_eq!((read_wait(0), write_wait(0)), (5, 28));
        assert_eq!((read_wait(3), write_wait(3)), (2, 25));
        assert_eq!((read_wait(64), write_wait(64)), (0, 0), "the Vitis flow's 64 covers the adapter");
    }
}
