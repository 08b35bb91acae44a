//! Decode `rtlprobe.bin` (docs/rtl-probe.md#dump-format) against the manifest's `rtl` section:
//! per probed instance its calls, start and end cycles and busy cycles.

use super::ip::{ROLE_CALL, ROLE_HEADER};
use super::manifest::RtlBuild;
use crate::error::{Error, ErrorKind, Result};
use serde::Serialize;

pub const MAGIC: u32 = 0x484C_5250;
/// Version 2 appends the DRAM offload's records (version 1: the queues alone).
pub const DUMP_VERSION: u32 = 2;
/// A DRAM record (hlsinstr_rtlprobe_offload.v): bit 63 set, the queue in 62:48, the timestamp
/// in 47:0.
const RECORD_VALID: u64 = 1 << 63;

/// True when `bytes` starts like an rtl-probe dump.
pub fn is_rtlprobe(bytes: &[u8]) -> bool {
    bytes.len() >= 4 && u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]) == MAGIC
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Report {
    pub top: String,
    pub probes: Vec<ProbeResult>,
    /// The co-simulation beside the top's calls (`decode --cosim`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cosim: Option<super::compare::CosimSide>,
    pub warnings: Vec<String>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ProbeResult {
    pub probe: u32,
    /// Source path (`top/loop`).
    pub name: String,
    /// RTL instance path.
    pub path: String,
    /// Starts counted by the IP (its counter's low 16 bits: exact below 65536 calls); built
    /// without counters (`--calls-width 0`), the starts the queue kept (a lower bound when
    /// `truncated`).
    pub calls: u64,
    /// `[start, end]` cycle of each call the queue kept; an open call has no end.
    pub intervals: Vec<(u64, Option<u64>)>,
    /// Sum of end - start + 1 over the kept calls.
    pub busy_cycles: u64,
    /// Events came after the queue was full: only the first calls are kept.
    pub truncated: bool,
    /// A call was running when the dump was read.
    pub open: bool,
    /// `call`, or `loop` for a loop of its function's FSM: its intervals are `[entry, exit]`,
    /// exit the first cycle out of the loop's states, and busy cycles sum exit - entry.
    pub role: String,
    /// An FSM loop's iterations over all its runs: its header entries (less one per run when
    /// the loop exits from its header); `None` when not counted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub iterations: Option<u64>,
    /// An FSM loop's iterations per run (entry to exit), from the header queue's timestamps: the
    /// header entries within each run. Only runs whose header entries the header queue (and
    /// its DRAM records) kept all of count; `None` when no run does or iterations are not counted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub iterations_per_run: Option<RunIterations>,
    /// `hlsinstr sim`'s cycles per call (per run, for a loop) of the same function or loop
    /// (`decode --sim`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sim_per_call: Option<f64>,
}

/// Iterations per run of an FSM loop, over the runs whose header entries were all kept.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct RunIterations {
    /// Runs counted (the first ones: a full header queue keeps the earliest events).
    pub runs: u64,
    /// Runs of the loop the dump holds an exit of (the counted ones and the rest).
    pub of: u64,
    pub min: u64,
    pub mean: f64,
    pub max: u64,
    /// Each counted run's iterations, in run order.
    pub each: Vec<u64>,
}

/// Per run `[entry, exit)` of a loop, its header entries (the even events of the header queue,
/// `visits`), less one when the loop exits from its header; counted while the header queue
/// holds every entry up to the run's exit: it kept them all (`complete`) or an event at or
/// after the exit's cycle - 1 (a full queue keeps the earliest events).
pub fn iterations_per_run(
    runs: &[(u64, Option<u64>)],
    visits: &[u64],
    complete: bool,
    exits_at_header: bool,
) -> Option<RunIterations> {
    let last_kept = visits.last().copied();
    let entries: Vec<u64> = visits.iter().step_by(2).copied().collect();
    let closed: Vec<(u64, u64)> = runs.iter().filter_map(|&(a, b)| b.map(|b| (a, b))).collect();
    let each: Vec<u64> = closed
        .iter()
        .take_while(|&&(_, exit)| complete || last_kept.is_some_and(|l| l + 1 >= exit))
        .map(|&(entry, exit)| {
            let n = entries.iter().filter(|&&t| t >= entry && t < exit).count() as u64;
            n.saturating_sub(u64::from(exits_at_header))
        })
        .collect();
    if each.is_empty() {
        return None;
    }
    let sum: u64 = each.iter().sum();
    Some(RunIterations {
        runs: each.len() as u64,
        of: closed.len() as u64,
        min: *each.iter().min().expect("not empty"),
        mean: sum as f64 / each.len() as f64,
        max: *each.iter().max().expect("not empty"),
        each,
    })
}

struct Words<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Words<'_> {
    fn next(&mut self, what: &str) -> Result<u32> {
        let b = self.bytes.get(self.at..self.at + 4).ok_or_else(|| {
            Error::new(
                ErrorKind::BadInput,
                format!("rtlprobe dump ends inside {what} (byte {}): it was cut short", self.at),
            )
        })?;
        self.at += 4;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
}

pub fn decode(bytes: &[u8], rtl: &RtlBuild) -> Result<Report> {
    let mut w = Words { bytes, at: 0 };
    if w.next("the header")? != MAGIC {
        return Err(Error::new(ErrorKind::BadInput, "not an rtlprobe dump (magic HLRP missing)"));
    }
    let version = w.next("the header")?;
    if version == 0 || version > DUMP_VERSION {
        return Err(Error::new(
            ErrorKind::BadInput,
            format!("rtlprobe dump version {version}; this hlsinstr reads versions 1 to {DUMP_VERSION}"),
        ));
    }
    let n = w.next("the header")? as usize;
    // The IP's INFO register (dumps before it: 0): bits 22:16 the stored timestamp width, bit 23
    // set when the counter had passed what that width holds.
    let info = w.next("the header")?;
    let key = u64::from(w.next("the header")?) | (u64::from(w.next("the header")?) << 32);
    if format!("{key:016x}") != rtl.key || n != rtl.queues.len() {
        return Err(Error::new(
            ErrorKind::BadInput,
            format!(
                "the dump is of another build (key {key:016x}, {n} queues; the manifest says {} and {}): give the manifest of the rtl-probe run that made this bitstream",
                rtl.key,
                rtl.queues.len()
            ),
        ));
    }
    let mut probes = Vec::new();
    let mut warnings = Vec::new();
    if info != 0 {
        let ts_width = (info >> 16) & 0x7f;
        if ts_width != rtl.ts_width || info & 0xffff != n as u32 {
            return Err(Error::new(
                ErrorKind::BadInput,
                format!(
                    "the dump's IP stores {ts_width}-bit timestamps for {} queues, the manifest says {} bits and {n}: give the manifest of the rtl-probe run that made this bitstream",
                    info & 0xffff,
                    rtl.ts_width
                ),
            ));
        }
        if info & (1 << 23) != 0 {
            warnings.push(format!(
                "the cycle counter passed 2^{ts_width} before the dump was read: timestamps are its low {ts_width} bits and may have wrapped (read out sooner after a clear, or build with --ts-width 64)"
            ));
        }
    }
    // The queues as read: status and kept timestamps, oldest first.
    let mut read = Vec::with_capacity(rtl.queues.len());
    for q in &rtl.queues {
        let status = w.next("a probe's status")?;
        let count = w.next("a probe's count")? as usize;
        if count > q.depth as usize {
            return Err(Error::new(
                ErrorKind::BadInput,
                format!("probe {} holds {count} entries, more than its depth {}", q.probe, q.depth),
            ));
        }
        let mut ts = Vec::with_capacity(count);
        for _ in 0..count {
            let lo = w.next("a timestamp")?;
            let hi = w.next("a timestamp")?;
            ts.push(u64::from(lo) | (u64::from(hi) << 32));
        }
        read.push((status, ts));
    }
    // Version 2: the records the offload wrote to DRAM, in address order. Each queue's records
    // are its oldest events (a drain pops the queue's head), so they go before what it still holds.
    let mut offloaded: Vec<Vec<u64>> = vec![Vec::new(); rtl.queues.len()];
    if version >= 2 {
        let records = w.next("the DRAM record count")? as usize;
        if records > (bytes.len() - w.at) / 8 {
            return Err(Error::new(
                ErrorKind::BadInput,
                format!("the dump announces {records} DRAM records but holds fewer: it was cut short"),
            ));
        }
        for k in 0..records {
            let lo = w.next("a DRAM record")?;
            let hi = w.next("a DRAM record")?;
            let r = u64::from(lo) | (u64::from(hi) << 32);
            if r & RECORD_VALID == 0 {
                continue;
            }
            let queue = ((r >> 48) & 0x7fff) as usize;
            let list = offloaded.get_mut(queue).ok_or_else(|| {
                Error::new(
                    ErrorKind::BadInput,
                    format!(
                        "DRAM record {k} names queue {queue}, the build has {}: read OFF_WPTR records from OFF_BASE of this IP",
                        rtl.queues.len()
                    ),
                )
            })?;
            list.push(r & ((1 << 48) - 1));
        }
    }
    for ((q, (status, kept)), mut ts) in rtl.queues.iter().zip(read).zip(offloaded) {
        let in_dram = ts.len();
        ts.extend(kept);
        if ts.windows(2).any(|p| p[1] < p[0]) {
            warnings.push(format!("probe {}: timestamps out of order; the dump is damaged", q.probe));
        }
        let intervals: Vec<(u64, Option<u64>)> = ts.chunks(2).map(|c| (c[0], c.get(1).copied())).collect();
        // A call's end is its last cycle (ap_done); a loop's exit is the first cycle after it.
        let last = u64::from(q.role == ROLE_CALL);
        let busy_cycles = intervals.iter().filter_map(|&(s, e)| e.map(|e| e.saturating_sub(s) + last)).sum();
        let inst = rtl.instances.get(q.instance);
        let truncated = status & 4 != 0;
        let calls = if rtl.calls_width == 0 { ts.len().div_ceil(2) as u64 } else { u64::from(status >> 16) };
        if q.role == ROLE_HEADER {
            // Header visits of the loop probed just before (same instance).
            let Some(lp) = probes.last_mut().filter(|p: &&mut ProbeResult| p.probe == q.probe) else {
                return Err(Error::new(
                    ErrorKind::BadInput,
                    format!("manifest queue of probe {}: a header queue without its loop queue before it", q.probe),
                ));
            };
            let exits_at_header = inst.and_then(|i| i.fsm.as_ref()).is_some_and(|f| f.exits_at_header);
            let counted = rtl.calls_width > 0 || !truncated;
            lp.iterations = counted.then(|| calls.saturating_sub(if exits_at_header { lp.calls } else { 0 }));
            lp.iterations_per_run = iterations_per_run(&lp.intervals, &ts, !truncated, exits_at_header);
            continue;
        }
        if truncated {
            warnings.push(format!(
                "{}: its queue of {} filled up; later calls are counted but not timed (give --depth{})",
                inst.map_or("?", |i| i.name.as_str()),
                q.depth,
                if in_dram > 0 { ", or a larger DRAM region" } else { "" }
            ));
        }
        probes.push(ProbeResult {
            probe: q.probe,
            name: inst.map_or_else(String::new, |i| i.name.clone()),
            path: inst.map_or_else(String::new, |i| i.path.clone()),
            calls,
            intervals,
            busy_cycles,
            truncated,
            open: status & 8 != 0,
            role: q.role.clone(),
            iterations: None,
            iterations_per_run: None,
            sim_per_call: None,
        });
    }
    if w.at != bytes.len() {
        warnings.push(format!("{} bytes after the last probe ignored", bytes.len() - w.at));
    }
    Ok(Report { top: rtl.top.clone(), probes, cosim: None, warnings })
}

/// The table `hlsinstr decode` prints.
pub fn text(r: &Report) -> String {
    let mut s = format!("rtl-probe of {}: cycles from reset (or CTRL clear)\n", r.top);
    if r.probes.iter().any(|p| p.role != ROLE_CALL) {
        s.push_str("(FSM loops: calls are runs, end is the first cycle after a run, iters its iterations)\n");
    }
    s.push_str(&format!(
        "{:<40} {:>6} {:>10} {:>10} {:>10} {:>6}  calls kept [start, end]\n",
        "instance", "calls", "first", "last end", "busy", "iters"
    ));
    for p in &r.probes {
        let first = p.intervals.first().map_or("-".into(), |i| i.0.to_string());
        let last = p.intervals.iter().rev().find_map(|i| i.1).map_or("-".into(), |e| e.to_string());
        let kept: Vec<String> =
            p.intervals.iter().map(|(a, b)| format!("[{a}, {}]", b.map_or("open".into(), |b| b.to_string()))).collect();
        let mark = if p.truncated { " (queue full)" } else { "" };
        let iters = p.iterations.map_or("-".into(), |i| i.to_string());
        s.push_str(&format!(
            "{:<40} {:>6} {:>10} {:>10} {:>10} {:>6}  {}{mark}\n",
            p.name,
            p.calls,
            first,
            last,
            p.busy_cycles,
            iters,
            kept.join(" ")
        ));
    }
    if r.probes.iter().any(|p| p.iterations_per_run.is_some()) {
        s.push_str(&format!(
            "\n{:<40} {:>12} {:>6} {:>8} {:>6}\n",
            "iterations per run (FSM loops)", "runs counted", "min", "avg", "max"
        ));
        for p in &r.probes {
            if let Some(it) = &p.iterations_per_run {
                s.push_str(&format!(
                    "{:<40} {:>12} {:>6} {:>8.1} {:>6}\n",
                    p.name,
                    format!("{} of {}", it.runs, it.of),
                    it.min,
                    it.mean,
                    it.max
                ));
            }
        }
    }
    if r.probes.iter().any(|p| p.sim_per_call.is_some()) {
        s.push_str(&format!(
            "\n{:<40} {:>12} {:>12} {:>8}\n",
            "beside the C-sim estimate", "hw/call", "sim/call", "diff %"
        ));
        for p in &r.probes {
            let hw = super::compare::hw_per_call(p);
            let cell = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{v:.1}"));
            let diff = hw.zip(p.sim_per_call).filter(|(h, _)| *h > 0.0).map(|(h, e)| 100.0 * (e - h) / h);
            s.push_str(&format!(
                "{:<40} {:>12} {:>12} {:>8}\n",
                p.name,
                cell(hw),
                cell(p.sim_per_call),
                diff.map_or("-".to_string(), |d| format!("{d:+.1}"))
            ));
        }
    }
    if let Some(c) = &r.cosim {
        let list = |v: &[u64]| v.iter().map(u64::to_string).collect::<Vec<_>>().join(" ");
        s.push_str(&format!(
            "\nco-simulation ({}): {} per call; the top in hardware: {}\n",
            c.files.join(", "),
            list(&c.per_call),
            if c.hardware.is_empty() { "not timed".to_string() } else { list(&c.hardware) }
        ));
    }
    for w in &r.warnings {
        s.push_str(&format!("warning: {w}\n"));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rtlprobe::manifest::{RtlInstance, RtlQueue};

    fn build() -> RtlBuild {
        let inst = |name: &str| RtlInstance {
            path: format!("top/{name}"),
            name: name.into(),
            module: name.into(),
            hls_module: name.into(),
            kind: "function".into(),
            parent: None,
            latency: None,
            expected_calls: None,
            probe: None,
            fsm: None,
        };
        let queue = |probe: u32, instance: usize| RtlQueue {
            role: ROLE_CALL.into(),
            probe,
            instance,
            depth: 4,
            start: String::new(),
            done: String::new(),
            cont: None,
        };
        RtlBuild {
            top: "top".into(),
            wrapper: "top_rtlprobe".into(),
            key: "00000000000000ab".into(),
            instances: vec![inst("a"), inst("b")],
            queues: vec![queue(0, 0), queue(1, 1)],
            calls_width: 16,
            ts_width: 48,
            offload: false,
            edited: vec![],
            generated: vec![],
        }
    }

    fn words(version: u32, queues: &[(u32, &[u64])], records: Option<&[u64]>) -> Vec<u8> {
        let mut w = vec![MAGIC, version, queues.len() as u32, 2 | 48 << 16, 0xab, 0];
        for (status, ts) in queues {
            w.push(*status);
            w.push(ts.len() as u32);
            for t in *ts {
                w.extend([*t as u32, (*t >> 32) as u32]);
            }
        }
        if let Some(r) = records {
            w.push(r.len() as u32);
            for x in r {
                w.extend([*x as u32, (*x >> 32) as u32]);
            }
        }
        w.iter().flat_map(|x| x.to_le_bytes()).collect()
    }

    fn rec(queue: u64, ts: u64) -> u64 {
        RECORD_VALID | queue << 48 | ts
    }

    #[test]
    fn dram_records_go_before_the_queues_per_queue_in_order() {
        // Queue 0: 5 events (3 in DRAM, 2 still queued, the last call open); queue 1: 4 in DRAM,
        // interleaved with queue 0's, and nothing queued. A word without bit 63 is skipped.
        let dram = [rec(0, 10), rec(1, 11), rec(0, 12), rec(1, 13), 0, rec(0, 20), rec(1, 30), rec(1, 31)];
        let bytes = words(2, &[(3 << 16 | 8 | 1, &[21, 40]), (2 << 16, &[])], Some(&dram));
        let r = decode(&bytes, &build()).unwrap();
        assert_eq!(r.probes[0].intervals, vec![(10, Some(12)), (20, Some(21)), (40, None)]);
        assert_eq!((r.probes[0].calls, r.probes[0].busy_cycles, r.probes[0].open), (3, 3 + 2, true));
        assert_eq!(r.probes[1].intervals, vec![(11, Some(13)), (30, Some(31))]);
        assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    }

    #[test]
    fn version_1_dumps_still_decode_and_bad_records_are_refused() {
        let r = decode(&words(1, &[(1 << 16, &[5, 9]), (0, &[])], None), &build()).unwrap();
        assert_eq!(r.probes[0].intervals, vec![(5, Some(9))]);
        let e = decode(&words(2, &[(0, &[]), (0, &[])], Some(&[rec(7, 1)])), &build()).unwrap_err();
        assert!(e.to_string().contains("names queue 7"), "{e}");
        let mut cut = words(2, &[(0, &[]), (0, &[])], Some(&[rec(0, 1), rec(0, 2)]));
        cut.truncate(cut.len() - 8);
        assert!(decode(&cut, &build()).unwrap_err().to_string().contains("cut short"));
        let e = decode(&words(3, &[(0, &[]), (0, &[])], None), &build()).unwrap_err();
        assert!(e.to_string().contains("version 3"), "{e}");
    }

    #[test]
    fn iterations_per_run_count_the_header_entries_of_each_run_the_queue_kept() {
        // Three runs [10, 20), [30, 36), [40, 50); a top-tested loop: a run's last header visit
        // runs no iteration. Visits (entry, leave): 3 in run 1, 2 in run 2, 4 in run 3.
        let runs = [(10, Some(20)), (30, Some(36)), (40, Some(50)), (60, None)];
        let visits = [10, 11, 14, 15, 19, 20, 30, 31, 35, 36, 40, 41, 43, 44, 46, 47, 49, 50];
        let it = iterations_per_run(&runs, &visits, true, true).unwrap();
        assert_eq!((it.runs, it.of, it.each.clone(), it.min, it.max), (3, 3, vec![2, 1, 3], 1, 3));
        assert!((it.mean - 2.0).abs() < 1e-9);
        // Exits elsewhere: every header entry is an iteration.
        assert_eq!(iterations_per_run(&runs, &visits, true, false).unwrap().each, vec![3, 2, 4]);
        // A full header queue that kept the first 12 events (up to 41): runs 1 and 2 only.
        let it = iterations_per_run(&runs, &visits[..12], false, true).unwrap();
        assert_eq!((it.runs, it.of, it.each), (2, 3, vec![2, 1]));
        // ... and one that kept only the first 4: no run is complete.
        assert_eq!(iterations_per_run(&runs, &visits[..4], false, true), None);
    }
}
