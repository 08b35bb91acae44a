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
