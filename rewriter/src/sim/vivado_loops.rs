//! Vivado HLS' names for loops without a label. Vitis names such a loop `VITIS_LOOP_<line>_<n>`,
//! which the probes carry; Vivado HLS (2015 to 2019) names it `Loop <k>` by its place among its
//! function's loops, and a loop nested in it `Loop <k>.<j>`, names no probe carries. Unmatched,
//! such a loop would count as unrolled (0 cycles), which is wrong wherever the module's latency
//! is left open (a data-dependent trip count) and the model adds up its children.
//!
//! The pairing is positional and only where it cannot be ambiguous: at each level (a function's
//! outermost loops, the loops directly inside a paired loop), the probed loops without a label
//! that no name matched, in source order, are paired with the report's `Loop …` entries of that
//! level, in number order, when there are as many of each. Fully unrolled loops and constant
//! tables (which Vivado HLS does not list) are left out of the count. Anything else (another
//! count, a function without a module of its own) is left unpaired, as before.

use crate::csynth::{Loop, Report};
use crate::emit::manifest::{Manifest, ProbeEntry};
use std::collections::HashMap;

/// Probe id → the report loop name (`Loop 2`, `Loop 2.1`) it is paired with. Only modules that
/// have numbered loops (Vivado HLS reports) are looked at.
pub fn positional_names(manifest: &Manifest, report: &Report) -> HashMap<u32, String> {
    let mut out = HashMap::new();
    let mut loops_in: HashMap<u32, Vec<&ProbeEntry>> = HashMap::new();
    for p in manifest.probes.iter().filter(|p| p.kind == "loop") {
        if let Some(parent) = p.parent {
            loops_in.entry(parent).or_default().push(p);
        }
    }
    let level = Level { report, loops_in: &loops_in };
    for f in manifest.probes.iter().filter(|p| p.kind == "function") {
        let Some(module) = report.module(&f.function) else { continue };
        let entries = numbered(&module.loops, "Loop ");
        if !entries.is_empty() {
            level.pair(f.id, &f.function, &entries, &mut out);
        }
    }
    out
}

/// The loops of `level` named `<prefix><k>` (`Loop 3`, or `Loop 3.<k>` under `Loop 3`), by k.
fn numbered<'r>(level: &'r [Loop], prefix: &str) -> Vec<&'r Loop> {
    let mut found: Vec<(u32, &Loop)> =
        level.iter().filter_map(|l| Some((l.name.strip_prefix(prefix)?.parse::<u32>().ok()?, l))).collect();
    found.sort_by_key(|(k, _)| *k);
    found.into_iter().map(|(_, l)| l).collect()
}

/// What pairing looks at: the report, and the loop probes by the probe they sit in.
struct Level<'a> {
    report: &'a Report,
    loops_in: &'a HashMap<u32, Vec<&'a ProbeEntry>>,
}

impl Level<'_> {
    /// The loop probes directly inside `parent` that could stand for a `Loop …` entry: no label,
    /// no name the report knows, not fully unrolled, not a constant table; in source order.
    fn candidates(&self, parent: u32, function: &str) -> Vec<&ProbeEntry> {
        let mut v: Vec<&ProbeEntry> = self
            .loops_in
            .get(&parent)
            .into_iter()
            .flatten()
            .copied()
            .filter(|p| p.function == function && p.label.is_none())
            .filter(|p| {
                let facts = p.loop_info.as_ref().map(|l| &l.facts);
                facts.is_none_or(|f| f.unroll != Some(0) && f.constant_table.is_none())
            })
            .filter(|p| {
                [Some(p.name.as_str()), p.vitis_name.as_deref()]
                    .into_iter()
                    .flatten()
                    .all(|n| self.report.find_loop(function, n).is_none())
            })
            .collect();
        v.sort_by_key(|p| (p.line, p.column));
        v
    }

    /// Pairs the candidates inside `parent` with `entries`, one level, then the levels below.
    fn pair(&self, parent: u32, function: &str, entries: &[&Loop], out: &mut HashMap<u32, String>) {
        let probes = self.candidates(parent, function);
        if probes.is_empty() || probes.len() != entries.len() {
            return;
        }
        for (p, l) in probes.iter().zip(entries) {
            out.insert(p.id, l.name.clone());
            let nested = numbered(&l.children, &format!("{}.", l.name));
            if !nested.is_empty() {
                self.pair(p.id, function, &nested, out);
            }
        }
    }
}
