//! The branch trace of a C simulation (`branches` probes), decoded: per-line execution counts,
//! how often each decision went which way, and the most frequent paths through each function.
//! Rendered as text, as JSON, and as gcov's own `.gcov` text files.

use crate::cfg::replay::{Counts, Decoder, SiteRecord, TracedFunction};
use crate::cfg::Op;
use crate::emit::manifest::BranchTrace;
use crate::error::{Error, ErrorKind, Result};
use crate::sim::events::{Event, Record};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Coverage {
    /// Trace records decoded.
    pub records: u64,
    /// Decisions the walks took (each `if`, `switch` and loop test met).
    pub decisions_taken: u64,
    pub files: Vec<FileCoverage>,
    pub decisions: Vec<Decision>,
    pub hot_paths: Vec<HotPath>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FileCoverage {
    pub path: String,
    /// Line → times executed, for every line that starts a statement or a test of a traced
    /// function (0: never).
    pub lines: BTreeMap<usize, u64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Decision {
    pub function: String,
    pub file: String,
    pub line: usize,
    /// `branch` (`if`, `switch`) or `loop` (a loop's test).
    pub kind: String,
    pub outcomes: Vec<Outcome>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    /// The first line the outcome leads to (0: the function's end).
    pub to_line: usize,
    pub count: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HotPath {
    pub function: String,
    pub calls: u64,
    /// Calls that took this path.
    pub count: u64,
    /// The lines of the function's own records along it (cut after 48).
    pub lines: Vec<usize>,
    pub length: usize,
}

/// Hot paths shown per function.
const HOT_PATHS: usize = 5;

/// Decode the `T` records of `records` with the graphs of `trace`.
pub fn decode(records: &[Record], trace: &BranchTrace) -> Result<Coverage> {
    let inline = trace.inline_ids();
    let mut decoder = Decoder::new(&trace.functions, &inline, false);
    let mut by_thread: BTreeMap<u32, Vec<SiteRecord>> = BTreeMap::new();
    let mut n = 0u64;
    for r in records.iter().filter(|r| r.event == Event::Trace) {
        by_thread.entry(r.thread).or_default().push(SiteRecord { site: r.probe, value: r.value });
        n += 1;
    }
    for (thread, recs) in &by_thread {
        decoder.thread(recs).map_err(|e| {
            Error::new(
                ErrorKind::BadInput,
                format!("the branch trace of thread {thread} does not fit the manifest's graphs: {e}; was the log cut short, or made by another rewrite?"),
            )
        })?;
    }
    let mut cov = Coverage { records: n, ..Default::default() };
    let site_line: HashMap<u32, usize> = trace.sites.iter().map(|s| (s.id, s.line)).collect();
    let mut files = BTreeMap::new();
    add_counts(&mut cov, &mut files, &decoder.counts, &trace.functions, &site_line);
    cov.files = files_of(files);
    Ok(cov)
}

/// Line counts per file, as [`Coverage::files`] holds them.
pub type LineCounts = BTreeMap<String, BTreeMap<usize, u64>>;

/// Add what a decoder counted over `functions` (its graphs; `site_line`: a site id's line) to
/// `cov` (decisions, decisions taken, hot paths) and `files` (line counts: a line's count is the
/// most any of its statements or tests ran).
pub fn add_counts(
    cov: &mut Coverage,
    files: &mut LineCounts,
    counts: &Counts,
    functions: &[TracedFunction],
    site_line: &HashMap<u32, usize>,
) {
    for (fi, f) in functions.iter().enumerate() {
        let g = &f.graph;
        let lines = files.entry(f.file.clone()).or_default();
        for (ni, node) in g.nodes.iter().enumerate() {
            if node.line > 0 && matches!(node.op, Op::Stmt | Op::Branch | Op::LoopTest) {
                let c = lines.entry(node.line).or_default();
                *c = (*c).max(counts.visits[fi][ni]);
            }
            if matches!(node.op, Op::Branch | Op::LoopTest) && node.next.len() > 1 {
                let outcomes: Vec<Outcome> = node
                    .next
                    .iter()
                    .zip(&counts.taken[fi][ni])
                    .map(|(&to, &count)| Outcome { to_line: first_line(g, to), count })
                    .collect();
                cov.decisions_taken += outcomes.iter().map(|o| o.count).sum::<u64>();
                cov.decisions.push(Decision {
                    function: f.function.clone(),
                    file: f.file.clone(),
                    line: node.line,
                    kind: if node.op == Op::Branch { "branch" } else { "loop" }.into(),
                    outcomes,
                });
            }
        }
        let mut paths: Vec<_> = counts.paths[fi].values().collect();
        paths.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
        for (count, sites, length) in paths.into_iter().take(HOT_PATHS) {
            cov.hot_paths.push(HotPath {
                function: f.function.clone(),
                calls: counts.calls[fi],
                count: *count,
                lines: sites.iter().map(|s| site_line.get(s).copied().unwrap_or(0)).collect(),
                length: *length,
            });
        }
    }
}

/// [`LineCounts`] as [`Coverage::files`].
pub fn files_of(files: LineCounts) -> Vec<FileCoverage> {
    files.into_iter().map(|(path, lines)| FileCoverage { path, lines }).collect()
}

/// The first source line a walk from `n` meets (0: none before the function ends).
fn first_line(g: &crate::cfg::Graph, mut n: usize) -> usize {
    for _ in 0..g.nodes.len() {
        let node = &g.nodes[n];
        if node.line > 0 && node.op != Op::Site {
            return node.line;
        }
        match node.next.first() {
            Some(&next) => n = next,
            None => return 0,
        }
    }
    0
}

/// One file's counts in gcov's text format (`gcov -t`): `count:line:source`, `-` for lines
/// without code, `#####` for code never run.
pub fn gcov_text(path: &str, source: &[String], lines: &BTreeMap<usize, u64>) -> String {
    let mut out = format!("{:>9}:{:>5}:Source:{path}\n{:>9}:{:>5}:Runs:1\n", "-", 0, "-", 0);
    for (i, text) in source.iter().enumerate() {
        let count = match lines.get(&(i + 1)) {
            None => "-".to_string(),
            Some(0) => "#####".to_string(),
            Some(c) => c.to_string(),
        };
        out.push_str(&format!("{count:>9}:{:>5}:{text}\n", i + 1));
    }
    out
}

/// The name gcov gives the `.gcov` file of `path` with `--preserve-paths`: `/` becomes `#`.
pub fn gcov_name(path: &str) -> String {
    format!("{}.gcov", path.replace('/', "#"))
}

/// The text report: decisions with their ratios, then the hot paths.
pub fn text(cov: &Coverage) -> String {
    let mut out = format!(
        "branch trace: {} records for {} decisions taken ({:.2} records per decision)\n",
        cov.records,
        cov.decisions_taken,
        cov.records as f64 / cov.decisions_taken.max(1) as f64
    );
    out.push_str("decisions (file:line  kind  outcome -> first line: count (share)):\n");
    for d in &cov.decisions {
        let total: u64 = d.outcomes.iter().map(|o| o.count).sum();
        let parts: Vec<String> = d
            .outcomes
            .iter()
            .map(|o| {
                let to = if o.to_line == 0 { "end".to_string() } else { o.to_line.to_string() };
                format!("->{to}: {} ({:.0}%)", o.count, 100.0 * o.count as f64 / total.max(1) as f64)
            })
            .collect();
        out.push_str(&format!("  {}:{}  {}  {}  [{}]\n", d.file, d.line, d.kind, parts.join("  "), d.function));
    }
    out.push_str("hot paths (calls taking it / calls; lines of its records):\n");
    for p in &cov.hot_paths {
        let lines: Vec<String> = p.lines.iter().map(|l| l.to_string()).collect();
        let more = if p.length > p.lines.len() { format!(" ... ({} records)", p.length) } else { String::new() };
        out.push_str(&format!("  {} {}/{}: {}{more}\n", p.function, p.count, p.calls, lines.join(" ")));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gcov_lines_say_dash_hashes_or_the_count() {
        let src = vec!["int f() {".to_string(), "  return 1;".into(), "}".into()];
        let lines = BTreeMap::from([(2, 3u64), (3, 0)]);
        let t = gcov_text("k.cpp", &src, &lines);
        assert_eq!(
            t,
            "        -:    0:Source:k.cpp\n        -:    0:Runs:1\n        -:    1:int f() {\n        3:    2:  return 1;\n    #####:    3:}\n"
        );
        assert_eq!(gcov_name("src/k.cpp"), "src#k.cpp.gcov");
    }
}
