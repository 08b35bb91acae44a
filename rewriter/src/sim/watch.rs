//! The watch events of a C-simulation run (`--probes watch` on Vitis C++, docs/watch.md) as
//! `sim` reports them: each event with the site's original file:line, its value and the call of
//! the top, the first [`MAX_SHOWN`] of them kept (memory bounded by the report, not the run), and
//! a count per site and kind over the whole run.

use super::events::{Event, Record, WatchKind};
use crate::emit::manifest::Manifest;
use std::collections::BTreeMap;
use std::fmt::Write;

/// Events listed one by one; the rest are only counted.
pub const MAX_SHOWN: usize = 200;

#[derive(Debug, Clone, Default)]
pub struct WatchLog {
    /// Calls of the top seen (`C` records).
    pub calls: u64,
    /// The first events: (site, kind, index, value, call).
    pub shown: Vec<(u32, WatchKind, i64, Option<i64>, u64)>,
    /// Every event, per (site, kind).
    pub counts: BTreeMap<(u32, WatchKind), u64>,
}

impl WatchLog {
    pub fn push(&mut self, r: &Record) {
        let Event::Watch { kind, index } = r.event else {
            return;
        };
        if kind == WatchKind::Call {
            self.calls += 1;
            return;
        }
        *self.counts.entry((r.probe, kind)).or_default() += 1;
        if self.shown.len() < MAX_SHOWN {
            self.shown.push((r.probe, kind, index, r.value.map(|v| v as i64), self.calls));
        }
    }

    pub fn is_empty(&self) -> bool {
        self.calls == 0 && self.counts.is_empty()
    }

    /// The text section: one line per event shown, then the totals.
    pub fn text(&self, manifest: &Manifest) -> String {
        let site = |id: u32| {
            manifest.probes.iter().find(|p| p.id == id).map_or_else(
                || format!("site {id}"),
                |p| {
                    let access = p.watch.as_ref().map_or("", |w| w.access.as_str());
                    format!("{}:{} ({access} of {} in {})", p.file, p.line, p.name, p.function)
                },
            )
        };
        let mut out = String::new();
        let total: u64 = self.counts.values().sum();
        let _ = writeln!(out, "\nWatch: {total} events in {} calls of the top", self.calls);
        for &(id, kind, index, value, call) in &self.shown {
            let value = value.map_or(String::new(), |v| format!(" value {v}"));
            let _ = writeln!(out, "  call {call}: {} {}: element {index}{value}", kind.name(), site(id));
        }
        if (total as usize) > self.shown.len() {
            let _ = writeln!(out, "  ... {} more (counted below)", total as usize - self.shown.len());
        }
        for (&(id, kind), n) in &self.counts {
            let _ = writeln!(out, "  {n:>6} {:<13} {}", kind.name(), site(id));
        }
        out
    }
}

/// The watch events as the JSON, CSV and Markdown reports carry them: counts per site and kind
/// over the whole run, the first [`MAX_SHOWN`] events one by one (the cap is said).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct WatchSummary {
    /// Calls of the top seen.
    pub calls: u64,
    /// Every event of the run.
    pub events: u64,
    /// Events listed in `shown`, at most.
    pub shown_cap: usize,
    /// The first events, in the order they happened.
    pub shown: Vec<WatchEvent>,
    /// Per site (in id order) its events by kind.
    pub sites: Vec<WatchSiteCounts>,
}

/// One event: where (the original source line of the access), what and in which call.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct WatchEvent {
    /// The call of the top (from 1; 0: before the first).
    pub call: u64,
    /// `hit`, `out_of_bounds` or `invariant`.
    pub kind: &'static str,
    #[serde(flatten)]
    pub site: WatchSiteRef,
    /// The element's index from the watched buffer's first element.
    pub element: i64,
    /// The element's value (value sites), else null.
    pub value: Option<i64>,
}

/// A watch site as the manifest names it.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct WatchSiteRef {
    pub site: u32,
    pub file: String,
    pub line: usize,
    /// The parameter accessed there.
    pub buffer: String,
    pub function: String,
    /// `read`, `write` or `read-write`.
    pub access: String,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct WatchSiteCounts {
    #[serde(flatten)]
    pub site: WatchSiteRef,
    pub hit: u64,
    pub out_of_bounds: u64,
    pub invariant: u64,
}

/// The JSON key of an event kind.
pub fn kind_key(k: WatchKind) -> &'static str {
    match k {
        WatchKind::Call => "call",
        WatchKind::Hit => "hit",
        WatchKind::OutOfBounds => "out_of_bounds",
        WatchKind::Invariant => "invariant",
    }
}

/// Watch site `id` as the manifest names it (empty names when it has no such probe).
pub fn site_ref(manifest: &Manifest, id: u32) -> WatchSiteRef {
    match manifest.probes.iter().find(|p| p.id == id) {
        Some(p) => WatchSiteRef {
            site: id,
            file: p.file.clone(),
            line: p.line,
            buffer: p.name.clone(),
            function: p.function.clone(),
            access: p.watch.as_ref().map_or_else(String::new, |w| w.access.clone()),
        },
        None => WatchSiteRef {
            site: id,
            file: String::new(),
            line: 0,
            buffer: String::new(),
            function: String::new(),
            access: String::new(),
        },
    }
}

impl WatchLog {
    /// The report form; none when the run recorded no watch event and no call.
    pub fn summary(&self, manifest: &Manifest) -> Option<WatchSummary> {
        if self.is_empty() {
            return None;
        }
        let site = |id: u32| site_ref(manifest, id);
        let shown = self
            .shown
            .iter()
            .map(|&(id, kind, element, value, call)| WatchEvent {
                call,
                kind: kind_key(kind),
                site: site(id),
                element,
                value,
            })
            .collect();
        let mut sites: Vec<WatchSiteCounts> = Vec::new();
        for (&(id, kind), &n) in &self.counts {
            if sites.last().is_none_or(|s| s.site.site != id) {
                sites.push(WatchSiteCounts { site: site(id), hit: 0, out_of_bounds: 0, invariant: 0 });
            }
            let s = sites.last_mut().expect("pushed");
            match kind {
                WatchKind::Hit => s.hit += n,
                WatchKind::OutOfBounds => s.out_of_bounds += n,
                WatchKind::Invariant => s.invariant += n,
                WatchKind::Call => {}
            }
        }
        Some(WatchSummary { calls: self.calls, events: self.counts.values().sum(), shown_cap: MAX_SHOWN, shown, sites })
    }
}

impl WatchSummary {
    /// Events not listed one by one (beyond the cap).
    pub fn unlisted(&self) -> u64 {
        self.events - self.shown.len() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::events::{Event, Record};

    fn watch(probe: u32, kind: WatchKind, index: i64, value: Option<u64>) -> Record {
        Record { order: 0, probe, event: Event::Watch { kind, index }, thread: 0, seq: None, timestamp_ns: None, value }
    }

    #[test]
    fn counts_cover_every_event_and_details_stop_at_the_cap() {
        let mut log = WatchLog::default();
        log.push(&watch(0, WatchKind::Call, 0, Some(1)));
        for i in 0..(MAX_SHOWN as i64 + 50) {
            log.push(&watch(3, WatchKind::Hit, i, Some(7)));
        }
        log.push(&watch(3, WatchKind::OutOfBounds, 9, None));
        log.push(&watch(0, WatchKind::Call, 0, Some(2)));
        log.push(&watch(5, WatchKind::Invariant, 2, Some((-3i64) as u64)));
        let manifest: Manifest = serde_json::from_str(
            r#"{"format":"hlsinstr-manifest","version":1,"tool":"t","kinds":[],"files":[],"skipped":[],
            "probes":[{"id":3,"kind":"watch","file":"a.cpp","line":7,"column":1,"function":"f","name":"acc"}]}"#,
        )
        .unwrap();
        let s = log.summary(&manifest).unwrap();
        assert_eq!((s.calls, s.events, s.shown.len(), s.unlisted()), (2, MAX_SHOWN as u64 + 52, MAX_SHOWN, 52));
        assert_eq!(s.shown[0].site.file, "a.cpp");
        assert_eq!((s.shown[0].call, s.shown[0].kind, s.shown[0].element), (1, "hit", 0));
        assert_eq!(s.sites.len(), 2);
        assert_eq!((s.sites[0].hit, s.sites[0].out_of_bounds, s.sites[0].invariant), (MAX_SHOWN as u64 + 50, 1, 0));
        assert_eq!((s.sites[1].site.site, s.sites[1].invariant), (5, 1));
        assert!(WatchLog::default().summary(&manifest).is_none());
    }
}
