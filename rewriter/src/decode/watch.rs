//! The watch events among an in-FPGA trace's records (`--probes watch --target vitis`; hls-lib
//! `hw/watch.h`, docs/watch.md#in-fpga): a record whose id is a watch site's is an event (its
//! value `kind | element << 2`), and the records of the manifest's `value_id` right after it are
//! its value. They are taken out of the record stream here; the rest are the branch records the
//! path is replayed from.

use super::trace::Unpacked;
use crate::emit::manifest::{HwTrace, Manifest};
use crate::error::{Error, ErrorKind, Result};
use crate::sim::events::WatchKind;
use crate::sim::watch::{kind_key, site_ref, WatchEvent};
use serde::Serialize;
use std::collections::HashSet;

/// The watch events of one run of the new top (one call of the top), oldest first.
#[derive(Debug, Clone, Serialize)]
pub struct HwWatchReport {
    /// The run of the new top since the bitstream was loaded (from 1): the call of the top, as
    /// `hlsinstr sim` counts them.
    pub call: u64,
    pub events: Vec<HwWatchEvent>,
    /// Value records whose event was overwritten (the oldest kept record of a wrapped ring).
    pub orphan_values: u64,
}

#[derive(Debug, Clone, Serialize)]
pub struct HwWatchEvent {
    #[serde(flatten)]
    pub event: WatchEvent,
    /// With timestamps: cycles from the oldest kept record to this event (a lower bound when a
    /// delta between them saturated).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cycle: Option<u64>,
}

/// Sign-extend the low `bits` of `v`.
fn signed(v: u64, bits: u32) -> i64 {
    if bits == 0 || bits >= 64 {
        return v as i64;
    }
    let shift = 64 - bits;
    ((v << shift) as i64) >> shift
}

/// The records that are not watch records, each with its index among the kept records.
pub type OtherRecords = Vec<(usize, Unpacked)>;

/// Split `recs` into the watch events and the other records (with their index in `recs`).
/// `run` is the header's run number. None when the build has no watchpoints.
pub fn split(
    recs: &[Unpacked],
    hw: &HwTrace,
    manifest: &Manifest,
    run: u64,
) -> Result<(Option<HwWatchReport>, OtherRecords)> {
    let Some(w) = &hw.watch else {
        return Ok((None, recs.iter().copied().enumerate().collect()));
    };
    let sites: HashSet<u32> = manifest.probes.iter().filter(|p| p.kind == "watch").map(|p| p.id).collect();
    let timed = hw.delta_bits > 0;
    let mut rep = HwWatchReport { call: run, events: Vec::new(), orphan_values: 0 };
    let mut rest = Vec::new();
    let mut cycle = 0u64;
    // The cycles of the records taken out since the last one kept in `rest`: a branch record's
    // delta stays the cycles since the previous branch record.
    let (mut carry, mut carry_saturated) = (0u64, false);
    let mut i = 0;
    while i < recs.len() {
        let r = recs[i];
        if i > 0 {
            cycle = cycle.saturating_add(r.delta);
        }
        if r.site == w.value_id {
            rep.orphan_values += 1;
            (carry, carry_saturated) = (carry.saturating_add(r.delta), carry_saturated || r.saturated);
            i += 1;
            continue;
        }
        if !sites.contains(&r.site) {
            let delta = if rest.is_empty() { r.delta } else { r.delta.saturating_add(carry) };
            rest.push((i, Unpacked { delta, saturated: r.saturated || carry_saturated, ..r }));
            (carry, carry_saturated) = (0, false);
            i += 1;
            continue;
        }
        (carry, carry_saturated) = (carry.saturating_add(r.delta), carry_saturated || r.saturated);
        let kind = match r.value & 3 {
            1 => WatchKind::Hit,
            2 => WatchKind::OutOfBounds,
            3 => WatchKind::Invariant,
            _ => {
                return Err(Error::new(
                    ErrorKind::BadInput,
                    format!(
                        "trace record {i}: a watch record of site {} with no event kind: the trace was not written by this build's watch sites; give the manifest of the rewrite that built this kernel",
                        r.site
                    ),
                ))
            }
        };
        let element = signed(r.value >> 2, hw.value_bits.saturating_sub(2));
        let at = cycle;
        // Its value: one record, or two (low half first) for a value wider than the field.
        let mut parts = Vec::new();
        while parts.len() < 2 && recs.get(i + 1 + parts.len()).is_some_and(|v| v.site == w.value_id) {
            let v = recs[i + 1 + parts.len()];
            cycle = cycle.saturating_add(v.delta);
            (carry, carry_saturated) = (carry.saturating_add(v.delta), carry_saturated || v.saturated);
            parts.push(v.value);
        }
        i += 1 + parts.len();
        let value = match parts.as_slice() {
            [] => None,
            [v] => Some(signed(*v, hw.value_bits)),
            [lo, hi] => Some(signed(lo | hi.checked_shl(hw.value_bits).unwrap_or(0), hw.value_bits.saturating_mul(2))),
            _ => unreachable!("at most two parts"),
        };
        rep.events.push(HwWatchEvent {
            event: WatchEvent { call: run, kind: kind_key(kind), site: site_ref(manifest, r.site), element, value },
            cycle: timed.then_some(at),
        });
    }
    Ok((Some(rep), rest))
}

/// The text section: one line per event, as `hlsinstr sim` prints them.
pub fn text(rep: &HwWatchReport) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let _ = writeln!(out, "watch: {} events in call {} of the top", rep.events.len(), rep.call);
    for e in &rep.events {
        let ev = &e.event;
        let s = &ev.site;
        let kind = match ev.kind {
            "out_of_bounds" => "out of bounds",
            k => k,
        };
        let value = ev.value.map_or(String::new(), |v| format!(" value {v}"));
        let cycle = e.cycle.map_or(String::new(), |c| format!(" at cycle {c}"));
        let _ = writeln!(
            out,
            "  call {}: {kind} {}:{} ({} of {} in {}): element {}{value}{cycle}",
            ev.call, s.file, s.line, s.access, s.buffer, s.function, ev.element
        );
    }
    if rep.orphan_values > 0 {
        let _ = writeln!(out, "  {} value records whose event was overwritten (not shown)", rep.orphan_values);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(site: u32, value: u64, delta: u64) -> Unpacked {
        Unpacked { site, value, delta, saturated: false }
    }

    #[test]
    fn events_values_and_the_records_between() {
        let mut m = crate::decode::dump::tests::manifest();
        m.probes[1].kind = "watch".into();
        let hw = HwTrace {
            key: String::new(),
            depth: 8,
            records: 16,
            mode: "wrap".into(),
            id_bits: 2,
            value_bits: 32,
            delta_bits: 8,
            watch: Some(crate::emit::manifest::HwWatch {
                value_id: 2,
                range: [0, 8],
                bound: 8,
                vmin: 0,
                vmax: 100,
                hits: true,
            }),
        };
        let field = |kind: u64, element: i64| kind | ((element as u64) << 2) & 0xffff_ffff;
        let recs = [
            rec(2, 7, 1),            // a value whose event was overwritten
            rec(0, 0, 2),            // a branch record
            rec(1, field(3, -2), 3), // invariant at element -2 ...
            rec(2, 1, 0),            // ... its value, low half
            rec(2, 1, 0),            // ... high half: 2^32 + 1
            rec(1, field(2, 8), 4),  // out of bounds at 8, no value
            rec(1, field(1, 3), 1),  // a hit at 3 ...
            rec(2, 0xffff_fffb, 1),  // ... with the value -5
            rec(0, 0, 5),            // a branch record: its delta takes the cycles between
        ];
        let (rep, rest) = split(&recs, &hw, &m, 3).unwrap();
        let rep = rep.unwrap();
        assert_eq!(rep.orphan_values, 1);
        assert_eq!(rest.iter().map(|(i, r)| (*i, r.delta)).collect::<Vec<_>>(), vec![(1, 2), (8, 14)]);
        let e: Vec<String> = rep
            .events
            .iter()
            .map(|e| format!("{} {} {:?} {} {:?}", e.event.kind, e.event.element, e.event.value, e.event.call, e.cycle))
            .collect();
        assert_eq!(
            e,
            [
                format!("invariant -2 Some({}) 3 Some(5)", (1i64 << 32) + 1),
                "out_of_bounds 8 None 3 Some(9)".to_string(),
                "hit 3 Some(-5) 3 Some(10)".to_string(),
            ]
        );
        assert_eq!(rep.events[0].event.site.line, 2, "the site's line from the manifest");
        let text = text(&rep);
        assert!(text.contains("call 3: invariant k.cpp:2"), "{text}");
        assert!(text.contains("1 value records whose event was overwritten"), "{text}");
        let e = split(&[rec(1, 0, 0)], &hw, &m, 1).unwrap_err();
        assert!(e.message.contains("no event kind"), "{e}");
        let plain = HwTrace { watch: None, ..hw };
        let (none, all) = split(&recs, &plain, &m, 1).unwrap();
        assert!(none.is_none() && all.len() == recs.len());
    }

    #[test]
    fn sign_extension() {
        assert_eq!(signed(0x3fff_fffe, 30), -2);
        assert_eq!(signed(5, 30), 5);
        assert_eq!(signed(0xffff_fffa, 32), -6);
        assert_eq!(signed(u64::MAX, 64), -1);
    }
}
