//! Vivado HLS' names for loops without a label. Vitis names such a loop `VITIS_LOOP_<line>_<n>`,
//! which the probes carry; Vivado HLS (2015 to 2019) names it `Loop <k>` by its place among its
//! module's loops, and a loop nested in it `Loop <k>.<j>`, names no probe carries. Unmatched,
//! such a loop would count as unrolled (0 cycles), which is wrong wherever the module's latency
//! is left open (a data-dependent trip count) and the model adds up its children.
//!
//! The pairing is positional and only where it cannot be ambiguous: at each level (a module's
//! outermost loops, the loops directly inside a paired loop), the probed loops without a label
//! that no name matched, in source order, are paired with the report's `Loop …` entries of that
//! level, in number order, when there are as many of each. Fully unrolled loops and constant
//! tables (which Vivado HLS does not list) are left out of the count.
//!
//! A function without a module of its own was inlined: its loops are loops of the module it was
//! inlined into, numbered with that module's. At each level, the loops of an inlined function
//! the run called there (directly in the function, or directly in a loop: `RunShape::inner`)
//! stand at the line of that call, in their own order (a public SHA3-256 top, Vivado HLS
//! 2018.3: the squeeze function's loop is its top's `Loop 1`). A function called from more than
//! one line of a level, or whose call line the manifest does not give, leaves that level
//! unpaired. Inlining can make a loop's trip count a constant 1 (`while (nblocks > 0)` called
//! with 1), and Vivado HLS then removes the loop and lists what was inside it one level up: when
//! the counts disagree, a loop of an inlined function that ran exactly one trip on every entry
//! is replaced by its own candidates, and the level is paired if the counts then agree.
//! Anything else (another count) is left unpaired, as before.

use super::timing::RunShape;
use crate::csynth::{Loop, LoopRef, Report};
use crate::emit::manifest::{Manifest, ProbeEntry};
use std::collections::HashMap;

/// A loop probe's place in the report: the module that holds the loop and the loop's name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Paired {
    pub module: String,
    /// `Loop 2`, `Loop 2.1`.
    pub name: String,
}

impl Paired {
    /// The report's loop.
    pub fn find<'r>(&self, report: &'r Report) -> Option<LoopRef<'r>> {
        report.module(&self.module)?.all_loops().into_iter().find(|l| l.node.name == self.name)
    }
}

/// Probe id → the report loop it is paired with. Only modules that have numbered loops (Vivado
/// HLS reports) are looked at.
pub fn positional_names(manifest: &Manifest, report: &Report, shape: &RunShape) -> HashMap<u32, Paired> {
    let mut out = HashMap::new();
    let mut loops_in: HashMap<u32, Vec<&ProbeEntry>> = HashMap::new();
    for p in manifest.probes.iter().filter(|p| p.kind == "loop") {
        if let Some(parent) = p.parent {
            loops_in.entry(parent).or_default().push(p);
        }
    }
    let functions: HashMap<&str, &ProbeEntry> =
        manifest.probes.iter().filter(|p| p.kind == "function").map(|p| (p.function.as_str(), p)).collect();
    let by_id: HashMap<u32, &ProbeEntry> = manifest.probes.iter().map(|p| (p.id, p)).collect();
    for f in manifest.probes.iter().filter(|p| p.kind == "function") {
        let Some(module) = report.module(&f.function) else { continue };
        let entries = numbered(&module.loops, "Loop ");
        if !entries.is_empty() {
            let level = Level {
                report,
                module: &module.name,
                loops_in: &loops_in,
                functions: &functions,
                by_id: &by_id,
                shape,
            };
            level.pair(f.id, &entries, &mut out);
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

/// What pairing looks at: the report and the module paired in, the loop probes by the probe
/// they sit in, the function probes by function, and the run's nesting.
struct Level<'a> {
    report: &'a Report,
    module: &'a str,
    loops_in: &'a HashMap<u32, Vec<&'a ProbeEntry>>,
    functions: &'a HashMap<&'a str, &'a ProbeEntry>,
    by_id: &'a HashMap<u32, &'a ProbeEntry>,
    shape: &'a RunShape,
}

/// A loop probe that may stand for a `Loop …` entry, and whether it is an inlined function's.
#[derive(Clone, Copy)]
struct Candidate<'a> {
    probe: &'a ProbeEntry,
    inlined: bool,
}

impl<'a> Level<'a> {
    /// The loop probes directly inside `parent` (a function or loop probe) that could stand for a
    /// `Loop …` entry, in source order: its own (no label, no name the report knows, not fully
    /// unrolled, not a constant table) and, at the line of each call the run made directly in
    /// it, those of an inlined function. `None` when a call's place is ambiguous.
    fn candidates(&self, parent: &ProbeEntry, inlined: bool) -> Option<Vec<Candidate<'a>>> {
        let function = parent.function.as_str();
        let mut groups: Vec<((usize, usize), Vec<Candidate<'a>>)> = self
            .loops_in
            .get(&parent.id)
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
            .map(|p| ((p.line, p.column), vec![Candidate { probe: p, inlined }]))
            .collect();
        for g in self.inlined_calls(parent) {
            let loops = self.candidates(g, true)?;
            if loops.is_empty() {
                continue;
            }
            let within = (parent.kind == "loop").then_some(parent.line);
            let line = self.call_line(function, &g.name, within)?;
            groups.push(((line, 0), loops));
        }
        groups.sort_by_key(|(at, _)| *at);
        Some(groups.into_iter().flat_map(|(_, c)| c).collect())
    }

    /// The function probes the run entered directly inside `parent` whose functions have no
    /// module of their own (inlined), in id order.
    fn inlined_calls(&self, parent: &ProbeEntry) -> Vec<&'a ProbeEntry> {
        let mut v: Vec<&ProbeEntry> = self
            .shape
            .inner
            .get(&parent.id)
            .into_iter()
            .flatten()
            .filter_map(|id| self.by_id.get(id).copied())
            .filter(|g| g.kind == "function" && g.function != parent.function)
            .filter(|g| self.report.module_of_function(&g.function).is_none())
            .collect();
        v.sort_by_key(|g| g.id);
        v
    }

    /// The one line at which `caller` calls `callee` directly at a level (its module facts'
    /// calls): in the body of the loop at line `within`, or outside every loop (`None`); else
    /// `None`. A function called inside a loop and again after it (`aes_subBytes` in each round
    /// and once after the rounds) has one call at each of the two levels.
    fn call_line(&self, caller: &str, callee: &str, within: Option<usize>) -> Option<usize> {
        let calls = &self.functions.get(caller)?.module.as_ref()?.calls;
        let mut lines: Vec<usize> =
            calls.iter().filter(|c| c.name == callee && c.in_loop == within).map(|c| c.line).collect();
        lines.dedup();
        match lines[..] {
            [line] => Some(line),
            _ => None,
        }
    }

    /// `cands` with each inlined loop that ran exactly one trip on every entry replaced by its
    /// own candidates (Vivado HLS removes a loop whose trip count inlining made a constant 1).
    fn without_single_trips(&self, cands: &[Candidate<'a>]) -> Option<Vec<Candidate<'a>>> {
        let mut out = Vec::new();
        for c in cands {
            let id = c.probe.id;
            let once = self.shape.min_trips.get(&id) == Some(&1) && self.shape.max_trips.get(&id) == Some(&1);
            if c.inlined && once {
                out.extend(self.without_single_trips(&self.candidates(c.probe, true)?)?);
            } else {
                out.push(*c);
            }
        }
        Some(out)
    }

    /// Every candidate ran as many trips on each entry as its entry's trip count allows (where
    /// the report gives one and the candidate ran).
    fn trips_agree(&self, cands: &[Candidate<'a>], entries: &[&Loop]) -> bool {
        cands.iter().zip(entries).all(|(c, l)| {
            let id = c.probe.id;
            match (&l.trip_count, self.shape.min_trips.get(&id), self.shape.max_trips.get(&id)) {
                (Some(r), Some(&lo), Some(&hi)) => r.min <= lo && hi <= r.max,
                _ => true,
            }
        })
    }

    /// Pairs the candidates inside `parent` with `entries`, one level, then the levels below.
    fn pair(&self, parent: u32, entries: &[&Loop], out: &mut HashMap<u32, Paired>) {
        let Some(parent) = self.by_id.get(&parent) else { return };
        let inlined = parent.kind == "loop" && self.report.module_of_function(&parent.function).is_none();
        let Some(plain) = self.candidates(parent, inlined) else { return };
        let fewer = self.without_single_trips(&plain).filter(|f| !same(f, &plain));
        let probes = match fewer {
            None if plain.len() == entries.len() => plain,
            None => return,
            // Which of the two Vivado HLS built, the trip counts tell: the report's against the run's.
            Some(fewer) => {
                match [plain, fewer].into_iter().find(|c| c.len() == entries.len() && self.trips_agree(c, entries)) {
                    Some(c) => c,
                    None => return,
                }
            }
        };
        if probes.is_empty() {
            return;
        }
        for (c, l) in probes.iter().zip(entries) {
            // An inlined function called at two levels (in a loop and after it) has its loop at
            // both, one probe for two entries: kept when they time it alike, else left unpaired.
            let paired = Paired { module: self.module.to_string(), name: l.name.clone() };
            match out.get(&c.probe.id).and_then(|p| p.find(self.report)) {
                Some(before) if !alike(before.node, l) => {
                    out.remove(&c.probe.id);
                    continue;
                }
                Some(_) => continue,
                None => {
                    out.insert(c.probe.id, paired);
                }
            }
            let nested = numbered(&l.children, &format!("{}.", l.name));
            if !nested.is_empty() {
                self.pair(c.probe.id, &nested, out);
            }
        }
    }
}

/// Two report loops with the same trip count, latency and iteration latency.
fn alike(a: &Loop, b: &Loop) -> bool {
    a.trip_count == b.trip_count && a.latency == b.latency && a.iteration_latency == b.iteration_latency
}

/// The two lists hold the same probes.
fn same(a: &[Candidate<'_>], b: &[Candidate<'_>]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.probe.id == y.probe.id)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A Vivado HLS 2018.3 report of `top` with two numbered loops and no module for `g`.
    const TOP: &str = "\n\n================================================================\n\
        == Vivado HLS Report for 'top'\n================================================================\n\
        * Date:           Sun Apr 18 23:59:07 2021\n\n\
        * Version:        2018.3 (Build 2405991 on Thu Dec 06 23:56:15 MST 2018)\n* Project:        p\n\
        * Solution:       s\n* Product family: artix7l\n* Target device:  xc7a75tlftg256-2l\n\n\n\
        ================================================================\n== Performance Estimates\n\
        ================================================================\n+ Latency (clock cycles): \n    * Summary: \n\
        \x20   +-----+-----+-----+-----+---------+\n    |  Latency  |  Interval | Pipeline|\n\
        \x20   | min | max | min | max |   Type  |\n    +-----+-----+-----+-----+---------+\n\
        \x20   |    ?|    ?|    ?|    ?|   none  |\n    +-----+-----+-----+-----+---------+\n\n\
        \x20   + Detail: \n        * Instance: \n        N/A\n\n        * Loop: \n\
        \x20       +----------+-----+-----+----------+-----------+-----------+------+----------+\n\
        \x20       |          |  Latency  | Iteration|  Initiation Interval  | Trip |          |\n\
        \x20       | Loop Name| min | max |  Latency |  achieved |   target  | Count| Pipelined|\n\
        \x20       +----------+-----+-----+----------+-----------+-----------+------+----------+\n\
        \x20       |- Loop 1  |   16|   16|         2|          -|          -|     8|    no    |\n\
        \x20       |- Loop 2  |    ?|    ?|         1|          -|          -|     ?|    no    |\n\
        \x20       +----------+-----+-----+----------+-----------+-----------+------+----------+\n\n\n";

    /// `top` (its own loop at line 8) calls `g` (one loop) at `calls`' lines.
    fn manifest(calls: &[usize]) -> Manifest {
        let calls: Vec<String> =
            calls.iter().map(|l| format!(r#"{{"callee": "g", "name": "g", "line": {l}, "args": []}}"#)).collect();
        manifest_with(&calls.join(", "))
    }

    /// The manifest of [`manifest`] with `calls` (JSON objects, comma-separated) as `top`'s calls.
    fn manifest_with(calls: &str) -> Manifest {
        let text = format!(
            r#"{{"format": "hlsinstr-manifest", "version": 1, "tool": "t", "kinds": [], "files": [], "skipped": [],
            "probes": [
              {{"id": 0, "kind": "function", "file": "k.c", "line": 3, "column": 6, "function": "top", "name": "top",
                "module": {{"dataflow": false, "returns_void": true, "params": [], "exits": 1, "calls": [{}]}}}},
              {{"id": 1, "kind": "loop", "file": "k.c", "line": 8, "column": 3, "function": "top", "name": "VITIS_LOOP_8_1",
                "vitis_name": "VITIS_LOOP_8_1", "parent": 0}},
              {{"id": 2, "kind": "function", "file": "k.c", "line": 1, "column": 6, "function": "g", "name": "g"}},
              {{"id": 3, "kind": "loop", "file": "k.c", "line": 2, "column": 3, "function": "g", "name": "VITIS_LOOP_2_1",
                "vitis_name": "VITIS_LOOP_2_1", "parent": 2}}]}}"#,
            calls
        );
        serde_json::from_str(&text).unwrap()
    }

    fn shape() -> RunShape {
        let mut s = RunShape::default();
        s.inner.insert(0, [1, 2].into_iter().collect());
        s.inner.insert(2, [3].into_iter().collect());
        s.min_trips.extend([(1, 3), (3, 8)]);
        s.max_trips.extend([(1, 5), (3, 8)]);
        s
    }

    fn names(calls: &[usize]) -> Vec<(u32, String)> {
        let r = crate::csynth::parse_str(TOP, "top_csynth.rpt").unwrap();
        let mut v: Vec<(u32, String)> =
            positional_names(&manifest(calls), &r, &shape()).into_iter().map(|(id, p)| (id, p.name)).collect();
        v.sort();
        v
    }

    #[test]
    fn an_inlined_functions_loops_stand_at_its_call_among_the_callers() {
        // Called at line 5, before the top's own loop: its loop is `Loop 1`.
        assert_eq!(names(&[5]), [(1, "Loop 2".to_string()), (3, "Loop 1".to_string())]);
        // Called at line 10, after it: `Loop 2`.
        assert_eq!(names(&[10]), [(1, "Loop 1".to_string()), (3, "Loop 2".to_string())]);
        // Called from two lines (two copies of its loop in Vivado HLS' numbering), or from a
        // line the manifest does not give: left unpaired.
        assert_eq!(names(&[5, 10]), []);
        assert_eq!(names(&[]), []);
    }

    /// `top`'s report with its loop `Loop 1` holding `Loop 1.1` (8 trips of 2) and, after it,
    /// `Loop 2` of `loop2` (trips, latency).
    fn nested_top(loop2: &str) -> String {
        let head = &TOP[..TOP.find("        * Loop:").unwrap()];
        format!(
            "{head}        * Loop: \n\
             \x20       +-------------+-----+-----+----------+-----------+-----------+------+----------+\n\
             \x20       |             |  Latency  | Iteration|  Initiation Interval  | Trip |          |\n\
             \x20       |  Loop Name  | min | max |  Latency |  achieved |   target  | Count| Pipelined|\n\
             \x20       +-------------+-----+-----+----------+-----------+-----------+------+----------+\n\
             \x20       |- Loop 1     |    ?|    ?|        17|          -|          -|     ?|    no    |\n\
             \x20       | + Loop 1.1  |   16|   16|         2|          -|          -|     8|    no    |\n\
             \x20       |- Loop 2     |{loop2}|    no    |\n\
             \x20       +-------------+-----+-----+----------+-----------+-----------+------+----------+\n\n\n"
        )
    }

    #[test]
    fn a_function_called_in_a_loop_and_after_it_pairs_at_both_levels() {
        // `g` is called at line 9 inside the top's loop (line 8) and at line 12 after it.
        let calls = r#"{"callee": "g", "name": "g", "line": 9, "args": [], "in_loop": 8},
                       {"callee": "g", "name": "g", "line": 12, "args": []}"#;
        let m = manifest_with(calls);
        let mut shape = shape();
        shape.inner.insert(1, [2].into_iter().collect());
        let pairs = |loop2: &str| {
            let r = crate::csynth::parse_str(&nested_top(loop2), "top_csynth.rpt").unwrap();
            let mut v: Vec<(u32, String)> =
                positional_names(&m, &r, &shape).into_iter().map(|(id, p)| (id, p.name)).collect();
            v.sort();
            v
        };
        // Its loop is `Loop 1.1` and `Loop 2`: one probe for both, alike.
        let alike = "   16|   16|         2|          -|          -|     8";
        assert_eq!(pairs(alike), [(1, "Loop 1".to_string()), (3, "Loop 1.1".to_string())]);
        // Entries that differ cannot both be its loop: left unpaired.
        let other = "   24|   24|         3|          -|          -|     8";
        assert_eq!(pairs(other), [(1, "Loop 1".to_string())]);
        // Without `in_loop` (both calls at the top's level) the level is unpaired, as before.
        let flat = manifest_with(&calls.replace(r#", "in_loop": 8"#, ""));
        let r = crate::csynth::parse_str(&nested_top(alike), "top_csynth.rpt").unwrap();
        assert!(positional_names(&flat, &r, &shape).is_empty());
    }
}
