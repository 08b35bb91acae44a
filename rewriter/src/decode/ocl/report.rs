//! The OpenCL report: per unit its mode, records and drops; per function and loop probe its
//! begins, ends, trips per execution and cycles per invocation; every probe event in execution
//! order; every watch hit and violation at its source line; latencies between snapshot pairs
//! with a histogram. Serialised as JSON (`hlsinstr-ocl-report`, versioned, docs/opencl-dump.md).

use super::dump::{self, Mode, OclDump, Record, Unit};
use super::sites::Site;
use crate::error::{Error, ErrorKind, Result};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

pub const FORMAT: &str = "hlsinstr-ocl-report";
/// Bump on any incompatible change of the JSON.
pub const VERSION: u32 = 1;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OclReport {
    pub format: String,
    pub version: u32,
    /// The dump's key (16 hex digits), equal to the manifest's.
    pub key: String,
    pub units: Vec<UnitRow>,
    /// Function and loop probes.
    pub spans: Vec<SpanRow>,
    /// How `events` are ordered: `seq` (the probes' sequence numbers) or `time` (unit time, then
    /// unit: the rewrite had no `seq` probes, so events of different units at one time are in
    /// unit order, not necessarily in execution order).
    pub order: String,
    pub events: Vec<Event>,
    pub hits: Vec<WatchEvent>,
    /// OUT_OF_BOUNDS and INVARIANT records; both lists by time, ties in unit order.
    pub violations: Vec<WatchEvent>,
    pub latencies: Vec<LatencyRow>,
    /// `trace` units (`--probes branches`): the decoded control flow.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub branches: Option<super::branches::OclBranches>,
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub warnings: Vec<String>,
}

/// Where a probe is in the source.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Source {
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub function: String,
}

impl Source {
    fn of(site: &Site) -> Source {
        let p = &site.probe;
        Source { file: p.file.clone(), line: p.line, column: p.column, function: p.function.clone() }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UnitRow {
    pub unit: u32,
    /// The probe's kind in the manifest (`function`, `loop`, `watch`, `snapshot`).
    pub kind: String,
    pub label: String,
    pub source: Source,
    /// `linear` or `cyclic`.
    pub mode: String,
    /// Trace records read out (CONFIG records not counted).
    pub records: usize,
    pub dropped: u64,
    /// CONFIG_WATCH: watched addresses `[lo, hi)`, plain hits recorded.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub watch: Option<[u64; 2]>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub records_hits: Option<bool>,
    /// CONFIG_BOUNDS: `[lo, hi)`; absent when unbounded.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub bounds: Option<[u64; 2]>,
}

/// count, min, median, mean, max of a list of numbers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Stats {
    pub count: usize,
    pub min: i64,
    pub median: f64,
    pub mean: f64,
    pub max: i64,
}

impl Stats {
    pub fn of(v: &[i64]) -> Option<Stats> {
        if v.is_empty() {
            return None;
        }
        let mut s = v.to_vec();
        s.sort_unstable();
        let n = s.len();
        let median = if n % 2 == 1 { s[n / 2] as f64 } else { (s[n / 2 - 1] as f64 + s[n / 2] as f64) / 2.0 };
        let sum: i128 = s.iter().map(|&x| i128::from(x)).sum();
        Some(Stats { count: n, min: s[0], median, mean: sum as f64 / n as f64, max: s[n - 1] })
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SpanRow {
    pub unit: u32,
    /// `function` or `loop`.
    pub kind: String,
    pub name: String,
    pub source: Source,
    pub begins: usize,
    pub ends: usize,
    /// Ends with no begin before them (in cyclic mode, the begin may have been overwritten).
    pub unmatched_ends: usize,
    /// Begins with no end after them (still running at the read-out, or left by `return`,
    /// `break` or `goto`, which record no loop end).
    pub open: usize,
    /// Loops: trips of every execution that ended, in order, and their summary.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub trips: Vec<i64>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub trips_stats: Option<Stats>,
    /// end − begin in unit time (cycles), per invocation (function) or execution (loop).
    pub cycles: Vec<i64>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub cycles_stats: Option<Stats>,
    /// A loop probe of a perfect nest measured as one coalesced loop: the nest's loops,
    /// outermost first (`trips` are the coalesced trips).
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub nest: Vec<String>,
}

/// A function or loop probe's begin or end.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Event {
    /// The sequence number (mod 2^30), when the probes carry one.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub seq: Option<u64>,
    pub time: u64,
    pub unit: u32,
    /// `begin` or `end`.
    pub event: String,
    pub label: String,
    pub source: Source,
    /// Loop ends: the trip count.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub trips: Option<u64>,
}

/// A HIT, OUT_OF_BOUNDS or INVARIANT record at its site.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WatchEvent {
    /// `hit`, `out_of_bounds` or `invariant`.
    pub kind: String,
    pub unit: u32,
    pub time: u64,
    pub addr: u64,
    /// The watched expression (`data[0]`).
    pub watched: String,
    /// The pointer accessed at the site, and how (`read`, `write`, `read-write`).
    pub buffer: String,
    pub access: String,
    pub source: Source,
    /// The element, `data[8]`: in the watched buffer when its index comes from the address (the
    /// unit's CONFIG_WATCH, the manifest's watched range and element size) or, for a HIT, from
    /// the one watched element; else in the accessed buffer, from the record's value when that
    /// is the index (manifest `watch.value` absent or `index`).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub element: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub index: Option<i64>,
    /// Bytes from the start of the watched range when no index can be computed.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub byte_offset: Option<i64>,
    /// The element's value (when the records carry values, manifest `watch.value: element`).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub value: Option<i64>,
    /// INVARIANT: the condition the value broke.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub invariant: Option<String>,
    /// OUT_OF_BOUNDS: the buffer's bound in elements (`--bounds`).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub bound: Option<u64>,
}

/// One histogram bar: latencies in `[lo, hi]`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bucket {
    pub lo: i64,
    pub hi: i64,
    pub count: usize,
}

/// Latencies between a `before` and an `after` snapshot site: the k-th record of one with the
/// k-th of the other.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LatencyRow {
    pub before: u32,
    pub after: u32,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub access: Option<String>,
    pub before_source: Source,
    pub after_source: Source,
    /// time(after k) − time(before k), cycles.
    pub latencies: Vec<i64>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub stats: Option<Stats>,
    /// Power-of-two buckets from the smallest to the largest latency (empty ones between).
    pub histogram: Vec<Bucket>,
    /// Records of one side with no k-th record on the other.
    pub unpaired_before: usize,
    pub unpaired_after: usize,
}

/// A probe record's value: trips | end << 32 | (seq mod 2^30) << 33 (hlsinstr_probe.cl).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProbeValue {
    pub trips: u64,
    pub end: bool,
    pub seq: u64,
}

pub const SEQ_BITS: u32 = 30;

impl ProbeValue {
    pub fn unpack(v: i64) -> ProbeValue {
        let v = v as u64;
        ProbeValue { trips: v & 0xffff_ffff, end: (v >> 32) & 1 == 1, seq: (v >> 33) & ((1 << SEQ_BITS) - 1) }
    }
}

fn diff(a: u64, b: u64) -> i64 {
    (i128::from(a) - i128::from(b)).clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64
}

/// Dump + its sites (checked to belong together) → the report.
pub fn build(dump: &OclDump, sites: &[Site], seq: bool) -> Result<OclReport> {
    let mut warnings = Vec::new();
    for (u, (unit, site)) in dump.units.iter().zip(sites).enumerate() {
        check_kinds(u as u32, unit, site)?;
        if unit.dropped > 0 {
            warnings.push(format!(
                "unit {u} dropped {} records: raise HLSINSTR_IBUFFER_DEPTH or use cyclic mode ({} at {}; its \
                 numbers below are partial)",
                unit.dropped,
                site.label(),
                site.location()
            ));
        }
    }
    let units =
        dump.units.iter().zip(sites).enumerate().map(|(u, (unit, site))| unit_row(u as u32, unit, site)).collect();
    let mut spans = Vec::new();
    let mut events = Vec::new();
    let mut hits = Vec::new();
    let mut violations = Vec::new();
    for (u, (unit, site)) in dump.units.iter().zip(sites).enumerate() {
        let u = u as u32;
        match site.probe.kind.as_str() {
            "function" | "loop" => {
                let row = span_row(u, unit, site);
                if row.unmatched_ends > 0 {
                    let why = if unit.mode == Mode::Cyclic {
                        "the unit is cyclic, so their begins were probably overwritten"
                    } else {
                        "the records are damaged or a begin was lost"
                    };
                    warnings.push(format!(
                        "unit {u} ({} at {}): {} ends without a begin: {why}",
                        site.label(),
                        site.location(),
                        row.unmatched_ends
                    ));
                }
                spans.push(row);
                events.extend(unit.records.iter().map(|r| event(u, r, site, seq)));
            }
            "watch" => {
                for r in &unit.records {
                    let e = watch_event(u, r, unit, site);
                    if r.kind == dump::REC_HIT {
                        hits.push(e);
                    } else {
                        violations.push(e);
                    }
                }
            }
            "snapshot" | "trace" => {} // latencies below; branch traces in `branches`
            k if !unit.records.is_empty() => warnings.push(format!(
                "unit {u} ({} at {}) has {} records, but this hlsinstr does not know probes of kind `{k}`: decode \
                 with a newer hlsinstr",
                site.label(),
                site.location(),
                unit.records.len()
            )),
            _ => {}
        }
    }
    order_events(&mut events, seq);
    hits.sort_by_key(|e| e.time);
    violations.sort_by_key(|e| e.time);
    let latencies = latency_rows(dump, sites, &mut warnings);
    Ok(OclReport {
        format: FORMAT.to_string(),
        version: VERSION,
        key: format!("{:016x}", dump.key),
        units,
        spans,
        order: if seq { "seq" } else { "time" }.to_string(),
        events,
        hits,
        violations,
        latencies,
        branches: None,
        warnings,
    })
}

/// A record kind the probe's kind cannot produce means the dump and the manifest do not belong
/// together (or the dump is damaged).
fn check_kinds(u: u32, unit: &Unit, site: &Site) -> Result<()> {
    let watch = site.probe.kind == "watch";
    let known = matches!(site.probe.kind.as_str(), "function" | "loop" | "snapshot" | "watch" | "trace");
    let bad = |what: &str| {
        Error::new(
            ErrorKind::BadInput,
            format!(
                "unit {u} holds {what}, which a {} probe cannot record ({} at {}): the dump is not from this \
                 manifest's rewrite or is damaged; pass the matching manifest",
                site.probe.kind,
                site.label(),
                site.location()
            ),
        )
    };
    if unit.watch.is_some() && !watch && known {
        return Err(bad("a watch configuration (CONFIG_WATCH)"));
    }
    for r in &unit.records {
        let ok = match r.kind {
            dump::REC_SNAPSHOT => !watch,
            _ => watch || !known,
        };
        if !ok {
            return Err(bad(&format!("a {} record", dump::kind_name(r.kind))));
        }
    }
    Ok(())
}

fn unit_row(u: u32, unit: &Unit, site: &Site) -> UnitRow {
    UnitRow {
        unit: u,
        kind: site.probe.kind.clone(),
        label: site.label(),
        source: Source::of(site),
        mode: unit.mode.name().to_string(),
        records: unit.records.len(),
        dropped: unit.dropped,
        watch: unit.watch.map(|w| [w.lo, w.hi]),
        records_hits: unit.watch.map(|w| w.hits),
        bounds: unit.bounds.filter(|b| b.hi != u64::MAX).map(|b| [b.lo, b.hi]),
    }
}

/// Begins and ends paired in order: an end closes the oldest open begin (a unit has one site;
/// OpenCL C has no recursion, and work-items of a pipelined NDRange kernel leave in order).
fn span_row(u: u32, unit: &Unit, site: &Site) -> SpanRow {
    let is_loop = site.probe.kind == "loop";
    let (mut begins, mut ends, mut unmatched) = (0, 0, 0);
    let mut open: VecDeque<u64> = VecDeque::new();
    let (mut trips, mut cycles) = (Vec::new(), Vec::new());
    for r in &unit.records {
        let v = ProbeValue::unpack(r.value);
        if !v.end {
            begins += 1;
            open.push_back(r.time);
            continue;
        }
        ends += 1;
        if is_loop {
            trips.push(v.trips as i64);
        }
        match open.pop_front() {
            Some(t) => cycles.push(diff(r.time, t)),
            None => unmatched += 1,
        }
    }
    SpanRow {
        unit: u,
        kind: site.probe.kind.clone(),
        name: site.probe.name.clone(),
        source: Source::of(site),
        begins,
        ends,
        unmatched_ends: unmatched,
        open: open.len(),
        trips_stats: Stats::of(&trips),
        trips,
        cycles_stats: Stats::of(&cycles),
        cycles,
        nest: site.probe.nest_unit(),
    }
}

fn event(u: u32, r: &Record, site: &Site, seq: bool) -> Event {
    let v = ProbeValue::unpack(r.value);
    Event {
        seq: seq.then_some(v.seq),
        time: r.time,
        unit: u,
        event: if v.end { "end" } else { "begin" }.to_string(),
        label: site.label(),
        source: Source::of(site),
        trips: (v.end && site.probe.kind == "loop").then_some(v.trips),
    }
}

/// By sequence number, taking the wrap at 2^30 into account (the order starts after the largest
/// gap between consecutive numbers, so a run that wrapped reads in order), else by unit time.
/// Ties: time, then unit, then the unit's own order (the sort is stable).
fn order_events(events: &mut [Event], seq: bool) {
    if !seq {
        events.sort_by_key(|e| (e.time, e.unit));
        return;
    }
    events.sort_by_key(|e| (e.seq.unwrap_or(0), e.time, e.unit));
    if events.len() < 2 {
        return;
    }
    let modulus = 1u64 << SEQ_BITS;
    let s = |i: usize| events[i].seq.unwrap_or(0);
    let n = events.len();
    // The gap after i (from the last back round to the first, across the wrap).
    let gap = |i: usize| if i + 1 < n { s(i + 1) - s(i) } else { s(0) + modulus - s(n - 1) };
    let widest = (0..n).max_by_key(|&i| (gap(i), i == n - 1)).unwrap_or(n - 1);
    events.rotate_left((widest + 1) % n);
}

/// The element at `addr` and the value, as far as the unit's configuration and the manifest
/// tell (see [`WatchEvent::index`]).
fn watch_event(u: u32, r: &Record, unit: &Unit, site: &Site) -> WatchEvent {
    let extra = site.watch.clone().unwrap_or_default();
    let info = site.probe.watch.as_ref();
    let watched = info.map(|w| w.watched.clone()).unwrap_or_default();
    let watched_buffer = watched.split('[').next().unwrap_or_default().trim().to_string();
    let buffer = info.map_or_else(|| site.probe.name.clone(), |w| w.buffer.clone());
    let value_is_index = extra.value.as_deref().is_none_or(|v| v == "index");
    let constant = constant_index(&watched);
    let start = extra.range.map(|r| r[0]).or(constant);
    let (mut index, mut index_in, mut byte_offset) = (None, watched_buffer.clone(), None);
    if let Some(w) = unit.watch {
        // The unit's watched range starts at element `start` of the watched buffer.
        let off = diff(r.addr, w.lo);
        match (extra.elem_size.filter(|&s| s > 0 && s <= i64::MAX as u64), start) {
            (Some(size), Some(start)) if off % size as i64 == 0 => {
                index = Some(start.saturating_add(off / size as i64))
            }
            _ => byte_offset = Some(off),
        }
    } else if r.kind != dump::REC_OUT_OF_BOUNDS && extra.range.is_none() && constant.is_some() {
        // A HIT or INVARIANT record is an access to the one watched element.
        index = constant;
    } else if value_is_index {
        // The record's value: the index from the pointer accessed at the site.
        index = Some(r.value);
        index_in = buffer.clone();
    }
    WatchEvent {
        kind: match r.kind {
            dump::REC_HIT => "hit",
            dump::REC_OUT_OF_BOUNDS => "out_of_bounds",
            _ => "invariant",
        }
        .to_string(),
        unit: u,
        time: r.time,
        addr: r.addr,
        watched,
        buffer,
        access: info.map(|w| w.access.clone()).unwrap_or_default(),
        source: Source::of(site),
        element: index.map(|i| format!("{index_in}[{i}]")),
        index,
        byte_offset,
        value: (!value_is_index).then_some(r.value),
        invariant: (r.kind == dump::REC_INVARIANT).then(|| extra.invariant.as_ref().map(|i| i.text())).flatten(),
        bound: (r.kind == dump::REC_OUT_OF_BOUNDS).then(|| info.and_then(|w| w.bound)).flatten(),
    }
}

/// `data[3]` → 3.
fn constant_index(watched: &str) -> Option<i64> {
    let inner = watched.trim().strip_suffix(']')?;
    inner[inner.find('[')? + 1..].trim().parse().ok()
}

fn latency_rows(dump: &OclDump, sites: &[Site], warnings: &mut Vec<String>) -> Vec<LatencyRow> {
    let mut rows = Vec::new();
    for (b, site) in sites.iter().enumerate() {
        let Some(snap) = site.snapshot.as_ref().filter(|s| s.role == "before") else { continue };
        let a = snap.pair as usize;
        let Some(after) = sites.get(a).filter(|s| s.snapshot.as_ref().is_some_and(|x| x.role == "after")) else {
            warnings.push(format!(
                "snapshot probe {b} ({}) names probe {a} as its `after` side, which is no `after` snapshot: no \
                 latencies for it; rewrite again",
                site.location()
            ));
            continue;
        };
        let (rb, ra) = (&dump.units[b].records, &dump.units[a].records);
        let latencies: Vec<i64> = rb.iter().zip(ra).map(|(x, y)| diff(y.time, x.time)).collect();
        let row = LatencyRow {
            before: b as u32,
            after: a as u32,
            access: snap.access.clone(),
            before_source: Source::of(site),
            after_source: Source::of(after),
            stats: Stats::of(&latencies),
            histogram: histogram(&latencies),
            unpaired_before: rb.len().saturating_sub(ra.len()),
            unpaired_after: ra.len().saturating_sub(rb.len()),
            latencies,
        };
        if row.unpaired_before + row.unpaired_after > 0 {
            warnings.push(format!(
                "snapshot pair {b} → {a} ({}): {} `before` records and {} `after`, so {} unpaired (a record was \
                 dropped, or the access was still in flight at the read-out)",
                site.location(),
                rb.len(),
                ra.len(),
                row.unpaired_before + row.unpaired_after
            ));
        }
        rows.push(row);
    }
    rows
}

/// Bucket of a latency: 0 → 0, 1 → 1, 2..3 → 2, 4..7 → 3, ...; negative ones share bucket −1.
fn bucket_of(x: i64) -> i32 {
    if x < 0 {
        -1
    } else {
        (64 - (x as u64).leading_zeros()) as i32
    }
}

fn bucket_range(b: i32) -> (i64, i64) {
    match b {
        -1 => (i64::MIN, -1),
        0 => (0, 0),
        63 => (1 << 62, i64::MAX),
        _ => (1i64 << (b - 1), (1i64 << b) - 1),
    }
}

/// Power-of-two buckets from the smallest latency's to the largest's.
pub fn histogram(v: &[i64]) -> Vec<Bucket> {
    let (Some(lo), Some(hi)) = (v.iter().map(|&x| bucket_of(x)).min(), v.iter().map(|&x| bucket_of(x)).max()) else {
        return Vec::new();
    };
    (lo..=hi)
        .map(|b| {
            let (l, h) = bucket_range(b);
            Bucket { lo: l, hi: h, count: v.iter().filter(|&&x| bucket_of(x) == b).count() }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stats_and_histogram() {
        let s = Stats::of(&[3, 40, 3, 17, 0, 3]).unwrap();
        assert_eq!((s.count, s.min, s.median, s.max), (6, 0, 3.0, 40));
        assert!((s.mean - 11.0).abs() < 1e-9);
        assert_eq!(Stats::of(&[]), None);
        let h: Vec<(i64, i64, usize)> =
            histogram(&[3, 40, 3, 17, 0, 3]).iter().map(|b| (b.lo, b.hi, b.count)).collect();
        assert_eq!(h, [(0, 0, 1), (1, 1, 0), (2, 3, 3), (4, 7, 0), (8, 15, 0), (16, 31, 1), (32, 63, 1)]);
        let h = histogram(&[-5, i64::MAX]);
        assert_eq!((h[0].lo, h[0].hi, h[0].count), (i64::MIN, -1, 1));
        assert_eq!(h.last().map(|b| (b.hi, b.count)), Some((i64::MAX, 1)));
    }

    #[test]
    fn probe_values_unpack() {
        let v = ProbeValue::unpack((3u64 | 1 << 32 | 77 << 33) as i64);
        assert_eq!(v, ProbeValue { trips: 3, end: true, seq: 77 });
        assert_eq!(ProbeValue::unpack(-1).seq, (1 << 30) - 1);
    }

    #[test]
    fn constant_indices() {
        assert_eq!(constant_index("data[0]"), Some(0));
        assert_eq!(constant_index(" buf [ 12 ] "), Some(12));
        assert_eq!(constant_index("data"), None);
        assert_eq!(constant_index("data[i]"), None);
    }
}
