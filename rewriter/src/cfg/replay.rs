//! The decoder of a branch trace: walk each traced function's graph, letting the recorded site
//! ids decide every decision, and count what was executed.
//!
//! Records of one thread form nested calls: a function's entry record opens a call and its
//! return record closes it. When a walk needs its next record it first replays any call that
//! starts there (the call happened in the straight-line code just walked) and counts inline
//! records (`?:`, `&&`, `||` operands), which decide nothing.

use super::{Graph, Op, Tok};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeSet, HashMap};

/// One traced function as the manifest holds it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TracedFunction {
    pub function: String,
    pub file: String,
    /// The site recorded when it is called, and the one recorded when it returns.
    pub entry: u32,
    #[serde(rename = "return")]
    pub ret: u32,
    pub graph: Graph,
    /// OpenCL C: the iBuffer unit its records go to (its site ids count from 0 there).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub unit: Option<u32>,
}

/// One record of the trace: a site id and, for a loop's exit, its trip count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SiteRecord {
    pub site: u32,
    pub value: Option<u64>,
}

/// What the walks counted.
#[derive(Debug, Clone, Default)]
pub struct Counts {
    /// Per function, per node: visits.
    pub visits: Vec<Vec<u64>>,
    /// Per function, per node, per successor: how often that outcome was taken.
    pub taken: Vec<Vec<Vec<u64>>>,
    /// Records per site id.
    pub site_hits: HashMap<u32, u64>,
    /// Calls per function.
    pub calls: Vec<u64>,
    /// Per function: the distinct paths (sequences of its own site records per call), by hash:
    /// (count, the path, cut at [`PATH_SHOWN`] sites, its full length).
    pub paths: Vec<HashMap<u64, PathSeen>>,
    /// With `keep_path`: every statement walked, as (function, line), in order, up to the
    /// decoder's `path_limit`.
    pub path: Vec<(usize, usize)>,
    /// With `keep_path`: statements walked, `path` or not.
    pub path_len: u64,
}

/// A distinct path: how many calls took it, its first [`PATH_SHOWN`] sites, its length.
pub type PathSeen = (u64, Vec<u32>, usize);

/// Sites of a path kept for showing it.
pub const PATH_SHOWN: usize = 48;
/// Distinct paths remembered per function (the rest are counted as `other`).
pub const PATHS_KEPT: usize = 1024;

/// Why a trace does not fit its graphs.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("record {index} (site {site:?}): {message}")]
pub struct ReplayError {
    pub index: usize,
    pub site: Option<u32>,
    pub message: String,
}

pub struct Decoder<'a> {
    functions: &'a [TracedFunction],
    by_entry: HashMap<u32, usize>,
    inline: BTreeSet<u32>,
    /// Per function, per decision node: the first records of each successor.
    firsts: Vec<HashMap<usize, Vec<BTreeSet<Tok>>>>,
    keep_path: bool,
    /// Statements `counts.path` keeps at most (the rest are only counted in `path_len`).
    pub path_limit: usize,
    pub counts: Counts,
}

impl<'a> Decoder<'a> {
    /// `inline`: the ids of the sites inside expressions.
    pub fn new(functions: &'a [TracedFunction], inline: &[u32], keep_path: bool) -> Decoder<'a> {
        let firsts = functions
            .iter()
            .map(|f| {
                let g = &f.graph;
                (0..g.nodes.len())
                    .filter(|&i| matches!(g.nodes[i].op, Op::Branch | Op::LoopTest) && g.nodes[i].next.len() > 1)
                    .map(|i| (i, g.nodes[i].next.iter().map(|&s| g.first(s)).collect()))
                    .collect()
            })
            .collect();
        let counts = Counts {
            visits: functions.iter().map(|f| vec![0; f.graph.nodes.len()]).collect(),
            taken: functions.iter().map(|f| f.graph.nodes.iter().map(|n| vec![0; n.next.len()]).collect()).collect(),
            calls: vec![0; functions.len()],
            paths: vec![HashMap::new(); functions.len()],
            ..Default::default()
        };
        Decoder {
            functions,
            by_entry: functions.iter().enumerate().map(|(i, f)| (f.entry, i)).collect(),
            inline: inline.iter().copied().collect(),
            firsts,
            keep_path,
            path_limit: usize::MAX,
            counts,
        }
    }

    /// Replay the records of one thread.
    pub fn thread(&mut self, records: &[SiteRecord]) -> Result<(), ReplayError> {
        let mut pos = 0;
        while pos < records.len() {
            let r = records[pos];
            if self.inline.contains(&r.site) {
                *self.counts.site_hits.entry(r.site).or_default() += 1;
                pos += 1;
                continue;
            }
            match self.by_entry.get(&r.site) {
                Some(&f) => self.call(f, records, &mut pos, 0)?,
                None => {
                    return Err(ReplayError {
                        index: pos,
                        site: Some(r.site),
                        message: "a record outside any traced call (records lost at the start?)".into(),
                    })
                }
            }
        }
        Ok(())
    }

    /// The next record that is not a nested call or an inline site, after replaying those.
    fn peek(&mut self, records: &[SiteRecord], pos: &mut usize, depth: usize) -> Result<Tok, ReplayError> {
        loop {
            let Some(r) = records.get(*pos).copied() else { return Ok(Tok::End) };
            if self.inline.contains(&r.site) {
                *self.counts.site_hits.entry(r.site).or_default() += 1;
                *pos += 1;
            } else if let Some(&f) = self.by_entry.get(&r.site) {
                self.call(f, records, pos, depth + 1)?;
            } else {
                return Ok(Tok::Site(r.site));
            }
        }
    }

    /// Replay one call of function `fi`, its entry record at `pos`.
    fn call(&mut self, fi: usize, records: &[SiteRecord], pos: &mut usize, depth: usize) -> Result<(), ReplayError> {
        let err = |index: usize, site: Option<u32>, message: String| ReplayError { index, site, message };
        if depth > 100_000 {
            return Err(err(*pos, None, "calls nested deeper than 100000".into()));
        }
        let f = &self.functions[fi];
        self.counts.calls[fi] += 1;
        let mut trips: HashMap<usize, u64> = HashMap::new();
        let mut own: Vec<u32> = Vec::new();
        let mut own_len = 0usize;
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        let mut node = Graph::ENTRY;
        let mut consumed_entry = false;
        loop {
            self.counts.visits[fi][node] += 1;
            let n = &f.graph.nodes[node];
            let next = match n.op {
                Op::Exit => break,
                Op::Site => {
                    let site = n.site.expect("a kept site");
                    let r = if !consumed_entry {
                        consumed_entry = true;
                        Tok::Site(records[*pos].site)
                    } else {
                        self.peek(records, pos, depth)?
                    };
                    if r != Tok::Site(site) {
                        return Err(err(
                            *pos,
                            records.get(*pos).map(|r| r.site),
                            format!("{} line {}: expected the record of site {site}", f.function, n.line),
                        ));
                    }
                    *self.counts.site_hits.entry(site).or_default() += 1;
                    own_len += 1;
                    if own.len() < PATH_SHOWN {
                        own.push(site);
                    }
                    hash = (hash ^ u64::from(site)).wrapping_mul(0x0000_0100_0000_01b3);
                    if let Some(l) = n.loop_ {
                        trips.insert(l, u64::MAX); // a loop exit: its counter is done
                    }
                    *pos += 1;
                    0
                }
                Op::LoopEnter => {
                    trips.insert(n.loop_.unwrap_or(0), 0);
                    0
                }
                Op::LoopBody => {
                    *trips.entry(n.loop_.unwrap_or(0)).or_default() += 1;
                    0
                }
                Op::Branch | Op::LoopTest if n.next.len() > 1 => {
                    let tok = self.peek(records, pos, depth)?;
                    let counted = (n.op == Op::LoopTest).then(|| f.graph.counted_exit(node)).flatten();
                    match (counted, tok) {
                        (Some(x), Tok::Site(s)) if s == x => {
                            let value = records[*pos].value.unwrap_or(0);
                            let done = trips.get(&n.loop_.unwrap_or(0)).copied().unwrap_or(0);
                            usize::from(done >= value)
                        }
                        (Some(_), _) => 0,
                        (None, tok) => {
                            let sets = &self.firsts[fi][&node];
                            sets.iter().position(|s| s.contains(&tok)).ok_or_else(|| {
                                err(
                                    *pos,
                                    records.get(*pos).map(|r| r.site),
                                    format!(
                                        "{} line {}: no outcome of this decision starts with it",
                                        f.function, n.line
                                    ),
                                )
                            })?
                        }
                    }
                }
                _ => 0,
            };
            let n = &f.graph.nodes[node];
            let Some(&to) = n.next.get(next) else {
                return Err(err(
                    *pos,
                    None,
                    format!("{} line {}: the walk ends inside the function", f.function, n.line),
                ));
            };
            if n.next.len() > 1 {
                self.counts.taken[fi][node][next] += 1;
            }
            if self.keep_path && n.op == Op::Stmt {
                self.counts.path_len += 1;
                if self.counts.path.len() < self.path_limit {
                    self.counts.path.push((fi, n.line));
                }
            }
            node = to;
        }
        let paths = &mut self.counts.paths[fi];
        if let Some(p) = paths.get_mut(&hash) {
            p.0 += 1;
        } else if paths.len() < PATHS_KEPT {
            paths.insert(hash, (1, own, own_len));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cfg::build;

    fn graph_of(src: &str) -> (TracedFunction, Vec<u32>) {
        let tree = crate::parse::parse_cpp(src, None);
        let root = tree.root_node();
        let f = root.named_child(0).unwrap();
        let body = f.child_by_field_name("body").unwrap();
        let mut cfg = build::function(body, src).unwrap();
        assert!(cfg.graph.undecidable().is_empty());
        let order = build::prune_order(&cfg.candidates);
        crate::cfg::prune(&mut cfg.graph, &order);
        let inline: Vec<u32> =
            cfg.candidates.iter().enumerate().filter(|(_, c)| c.kind.inline()).map(|(i, _)| i as u32).collect();
        (
            TracedFunction {
                function: "f".into(),
                file: "k.cpp".into(),
                entry: 0,
                ret: 1,
                graph: cfg.graph,
                unit: None,
            },
            inline,
        )
    }

    #[test]
    fn a_straight_loop_is_decoded_from_its_trip_count() {
        let (f, inline) = graph_of("void f(int n) {\n int s = 0;\n for (int i = 0; i < n; i++)\n  s += i;\n}\n");
        let exit = f.graph.nodes.iter().find(|n| n.loop_.is_some() && n.op == Op::Site).unwrap().site.unwrap();
        let recs = [
            SiteRecord { site: 0, value: None },
            SiteRecord { site: exit, value: Some(3) },
            SiteRecord { site: 1, value: None },
        ];
        let mut d = Decoder::new(std::slice::from_ref(&f), &inline, true);
        d.thread(&recs).unwrap();
        let lines: Vec<usize> = d.counts.path.iter().map(|p| p.1).collect();
        assert_eq!(lines, vec![2, 3, 4, 3, 4, 3, 4, 3]);
    }
}
