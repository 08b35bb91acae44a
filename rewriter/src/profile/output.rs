//! The profile's views: a text report (tables and, when the source is found, the annotated
//! source), JSON (schema in docs/profile.md) and a Perfetto / Chrome trace.

use super::rules::{LineStats, Profile, TraceSink};
use super::LocKind;
use crate::error::{Error, Result};
use std::fmt::Write as _;
use std::io::Write;

/// Version of the JSON layout (docs/profile.md).
pub const SCHEMA_VERSION: u32 = 1;

/// The JSON report.
pub fn json(p: &Profile) -> String {
    #[derive(serde::Serialize)]
    struct Doc<'a> {
        schema_version: u32,
        #[serde(flatten)]
        profile: &'a Profile,
    }
    let mut s =
        serde_json::to_string_pretty(&Doc { schema_version: SCHEMA_VERSION, profile: p }).expect("serializable");
    s.push('\n');
    s
}

fn pct(x: f64, total: u64) -> f64 {
    if total == 0 {
        0.0
    } else {
        100.0 * x / total as f64
    }
}

fn loc_name(p: &Profile, l: &LineStats) -> String {
    let loc = &p.locs[l.loc];
    let mut s = format!("{}:{}", loc.file, loc.line);
    match loc.kind {
        LocKind::Library => s.push_str(" (library)"),
        LocKind::Missing | LocKind::Source => {}
    }
    s
}

/// The text report: summary, calls, modules, lines, then the annotated sources found.
pub fn text(p: &Profile) -> String {
    let mut o = String::new();
    let _ = writeln!(
        o,
        "hlsinstr profile: {} at {} — {} cycles in {} call(s) (ap_start..ap_done), {} clock edges in the waveform",
        p.top,
        p.scope,
        p.cycles,
        p.calls.len(),
        p.edges
    );
    if p.concurrent_cycles > 0 {
        let _ = writeln!(
            o,
            "concurrent: {} of these cycles ran several instances at once (dataflow processes); each counts once, \
             shared among their lines",
            p.concurrent_cycles
        );
    }
    for n in &p.notes {
        let _ = writeln!(o, "note: {n}");
    }
    if p.calls.len() > 1 {
        let min = p.calls.iter().map(|c| c.cycles).min().unwrap_or(0);
        let max = p.calls.iter().map(|c| c.cycles).max().unwrap_or(0);
        let _ = writeln!(o, "per call: {min} ~ {max} cycles");
    }
    for (i, c) in p.calls.iter().enumerate().take(20) {
        let _ = writeln!(
            o,
            "  call {}: cycles {}..{} = {}{}",
            i + 1,
            c.start,
            c.end,
            c.cycles,
            if c.unfinished { " (unfinished)" } else { "" }
        );
    }
    if p.calls.len() > 20 {
        let _ = writeln!(o, "  ... {} more calls in the JSON", p.calls.len() - 20);
    }
    let _ = writeln!(o, "\nmodule                                          active  starts    share   share%  untagged");
    for m in &p.modules {
        let _ = writeln!(
            o,
            "{:<46} {:>7} {:>7} {:>8.1} {:>7.1}% {:>9.1}",
            m.module,
            m.active,
            m.starts,
            m.share,
            pct(m.share, p.cycles),
            m.untagged_share
        );
    }
    let _ =
        writeln!(o, "\nsource line                                     active   alone    share   share%  unresolved");
    for l in &p.lines {
        let _ = writeln!(
            o,
            "{:<46} {:>7} {:>7} {:>8.1} {:>7.1}% {:>11}",
            loc_name(p, l),
            l.active,
            l.alone,
            l.share,
            pct(l.share, p.cycles),
            if l.unresolved > 0 { l.unresolved.to_string() } else { "-".into() }
        );
    }
    let untagged: f64 = p.modules.iter().map(|m| m.untagged_share).sum();
    let total: f64 = p.lines.iter().map(|l| l.share).sum::<f64>() + untagged;
    let _ = writeln!(
        o,
        "{:<46} {:>7} {:>7} {:>8.1} {:>7.1}%\n{:<46} {:>7} {:>7} {:>8.1}",
        "(no source line)",
        "",
        "",
        untagged,
        pct(untagged, p.cycles),
        "total share",
        "",
        "",
        total
    );
    annotate(p, &mut o);
    o
}

/// Each found source file with the columns active / share% in front of its lines.
fn annotate(p: &Profile, o: &mut String) {
    let mut files: Vec<&std::path::Path> = p.locs.iter().filter_map(|l| l.path.as_deref()).collect();
    files.sort();
    files.dedup();
    for f in files {
        let Ok(text) = std::fs::read_to_string(f) else { continue };
        let _ = writeln!(o, "\n{}\n  active   share%  | source", f.display());
        let stats: std::collections::HashMap<u32, &LineStats> = p
            .lines
            .iter()
            .filter(|l| p.locs[l.loc].path.as_deref() == Some(f))
            .map(|l| (p.locs[l.loc].line, l))
            .collect();
        for (n, line) in text.lines().enumerate() {
            match stats.get(&(n as u32 + 1)) {
                Some(l) => {
                    let _ = writeln!(o, "{:>8} {:>7.1}%  | {line}", l.active, pct(l.share, p.cycles));
                }
                None => {
                    let _ = writeln!(o, "{:>8} {:>8}  | {line}", "", "");
                }
            }
        }
    }
}

/// Writes a Chrome trace-event JSON (opens in Perfetto / chrome://tracing): one track (thread)
/// per module instance plus one for the calls; one slice per stretch of cycles in the same
/// states. `ts` and `dur` are cycles (shown as microseconds). Streamed: memory does not grow
/// with the run.
pub struct PerfettoWriter<W: Write> {
    out: W,
    first: bool,
    path: std::path::PathBuf,
}

impl<W: Write> PerfettoWriter<W> {
    pub fn new(mut out: W, path: &std::path::Path) -> Result<Self> {
        out.write_all(
            b"{\"displayTimeUnit\":\"ns\",\"otherData\":{\"time_unit\":\"1 us = 1 clock cycle\"},\"traceEvents\":[\n",
        )
        .map_err(|e| Error::io(path, &e))?;
        Ok(PerfettoWriter { out, first: true, path: path.to_path_buf() })
    }

    fn event(&mut self, v: serde_json::Value) -> Result<()> {
        if !self.first {
            self.out.write_all(b",\n").map_err(|e| Error::io(&self.path, &e))?;
        }
        self.first = false;
        serde_json::to_writer(&mut self.out, &v).map_err(|e| Error::io(&self.path, &e.into()))
    }

    /// Closes the JSON; returns the writer.
    pub fn finish(mut self) -> Result<W> {
        self.out.write_all(b"\n]}\n").map_err(|e| Error::io(&self.path, &e))?;
        Ok(self.out)
    }
}

impl<W: Write> TraceSink for PerfettoWriter<W> {
    fn tracks(&mut self, names: &[String]) -> Result<()> {
        self.event(
            serde_json::json!({"ph": "M", "pid": 1, "name": "process_name", "args": {"name": "hlsinstr profile"}}),
        )?;
        for (i, n) in names.iter().enumerate() {
            self.event(serde_json::json!({"ph": "M", "pid": 1, "tid": i, "name": "thread_name", "args": {"name": n}}))?;
            self.event(serde_json::json!({"ph": "M", "pid": 1, "tid": i, "name": "thread_sort_index", "args": {"sort_index": i}}))?;
        }
        Ok(())
    }

    fn slice(&mut self, track: usize, name: &str, start: u64, cycles: u64, lines: &str) -> Result<()> {
        self.event(serde_json::json!({
            "ph": "X", "pid": 1, "tid": track, "name": name, "ts": start, "dur": cycles,
            "args": {"lines": lines}
        }))
    }
}
