//! The report's faces: an annotated table for the terminal, JSON, CSV, Markdown, and the
//! timeline as VCD (GTKWave) and Chrome trace-event JSON (Perfetto).

use super::replay::Replay;
use super::report::{Reason, Report, Row};
use std::fmt::Write as _;

/// Cycles in HLScope's style: `145k`, `7.75M`.
pub fn short_count(v: u64) -> String {
    let f = v as f64;
    let (x, unit) = if f >= 1e9 {
        (f / 1e9, "G")
    } else if f >= 1e6 {
        (f / 1e6, "M")
    } else if f >= 1e4 {
        (f / 1e3, "k")
    } else {
        return v.to_string();
    };
    let digits = if x >= 100.0 {
        0
    } else if x >= 10.0 {
        1
    } else {
        2
    };
    format!("{x:.digits$}{unit}")
}

/// Bytes per second as `724M` (bytes, decimal prefixes), `0` for none.
pub fn short_rate(v: f64) -> String {
    if v <= 0.0 {
        return "0".into();
    }
    short_count(v.round() as u64)
}

fn reasons_text(reasons: &[Reason]) -> String {
    reasons.iter().map(|r| format!("{}({:.1}, {})", r.on, r.pct, r.kind)).collect::<Vec<_>>().join(", ")
}

fn opt_u64(v: Option<u64>) -> String {
    v.map_or_else(|| "-".into(), |v| v.to_string())
}

/// The label of a row: the source text when known, else `name()` / `loop name`. The head of a
/// nest the report flattened is the flattened loop (`loop nest Row_Col (flattened in the
/// report)`); its inner loops say they are in it (`in nest: for (...)`).
fn label(r: &Row) -> String {
    match &r.nest {
        Some(n) if n.role == "head" => return format!("loop nest {} (flattened in the report)", n.flattened_name),
        // The head's row, just above, names the nest (joined VITIS_LOOP names are long).
        Some(_) => return format!("in nest: {}", plain_label(r)),
        None => {}
    }
    plain_label(r)
}

fn plain_label(r: &Row) -> String {
    match &r.source {
        Some(s) if !s.is_empty() => s.clone(),
        _ if r.kind == "loop" => format!("loop {}", r.name),
        _ => format!("{}()", r.name),
    }
}

const COLUMNS: [&str; 12] =
    ["SW_cyc", "runs", "trips", "PCP", "LUT", "FF", "BRAM", "DSP", "Stall", "DBW", "ADBW", "Reason for stall"];

fn cells(r: &Row) -> Vec<String> {
    let res = r.resources.as_ref();
    vec![
        short_count(r.cycles),
        r.runs.to_string(),
        r.trips.map_or_else(String::new, short_count),
        if r.in_pipeline {
            "(pipe)".into()
        } else if r.nest.as_ref().is_some_and(|n| n.role == "member") {
            "(nest)".into()
        } else if r.pcp {
            "Yes".into()
        } else {
            "No".into()
        },
        opt_u64(res.and_then(|x| x.lut)),
        opt_u64(res.and_then(|x| x.ff)),
        opt_u64(res.and_then(|x| x.bram_18k)),
        opt_u64(res.and_then(|x| x.dsp)),
        r.stall_pct.map_or_else(|| "-".into(), |s| format!("{s:.1}")),
        short_rate(r.dbw),
        short_rate(r.adbw),
        reasons_text(&r.reasons),
    ]
}

/// The terminal table: each row's source line, indented by depth, then the columns.
pub fn text(rep: &Report) -> String {
    let labels: Vec<String> = rep.rows.iter().map(|r| format!("{}{}", "  ".repeat(r.depth), label(r))).collect();
    let all: Vec<Vec<String>> = rep.rows.iter().map(cells).collect();
    let lw = labels.iter().map(|l| l.chars().count()).chain([6]).max().unwrap_or(6).min(60);
    let mut widths: Vec<usize> = COLUMNS.iter().map(|c| c.len()).collect();
    for row in &all {
        for (w, c) in widths.iter_mut().zip(row) {
            *w = (*w).max(c.chars().count());
        }
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "hlsinstr sim: {} — {} cycles ({:.1} us at {} ns, clock from the {})",
        rep.top, rep.total_cycles, rep.total_us, rep.clock_ns.value, rep.clock_ns.source
    );
    if let Some(c) = &rep.csynth {
        let _ = writeln!(out, "II/IL/latencies from {} ({} {}), else pragmas and defaults", c.path, c.tool, c.version);
    } else {
        let _ = writeln!(
            out,
            "no csynth report: II and latencies from pragmas and defaults (see the JSON for each source)"
        );
    }
    let _ = write!(out, "\n{:lw$}", "source");
    for (c, w) in COLUMNS.iter().zip(&widths) {
        let _ = write!(out, "  {c:>w$}");
    }
    out.push('\n');
    for (l, row) in labels.iter().zip(&all) {
        let shown: String =
            if l.chars().count() > lw { l.chars().take(lw - 1).chain(['…']).collect() } else { l.clone() };
        let _ = write!(out, "{shown:lw$}");
        let last = row.len() - 1;
        for (k, (c, w)) in row.iter().zip(&widths).enumerate() {
            if k == last {
                if !c.is_empty() {
                    let _ = write!(out, "  {c}");
                }
            } else {
                let _ = write!(out, "  {c:>w$}");
            }
        }
        out.push('\n');
    }
    if let Some(msg) = &rep.recommendation {
        let _ = writeln!(out, "\nrecommendation: {msg}");
    }
    for w in &rep.warnings {
        let _ = writeln!(out, "warning: {w}");
    }
    out
}

pub fn json(rep: &Report) -> String {
    serde_json::to_string_pretty(rep).unwrap_or_default() + "\n"
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

pub fn csv(rep: &Report) -> String {
    let mut out = String::from(
        "row,parent,depth,kind,name,function,file,line,runs,trips,cycles,pcp,lut,ff,bram,dsp,stall_pct,bytes_read,\
         bytes_written,dbw,adbw,reasons,nest\n",
    );
    for r in &rep.rows {
        let res = r.resources.as_ref();
        let fields = [
            r.index.to_string(),
            r.parent.map_or_else(String::new, |p| p.to_string()),
            r.depth.to_string(),
            r.kind.clone(),
            r.name.clone(),
            r.function.clone(),
            r.file.clone(),
            r.line.to_string(),
            r.runs.to_string(),
            r.trips.map_or_else(String::new, |t| t.to_string()),
            r.cycles.to_string(),
            if r.pcp { "yes" } else { "no" }.to_string(),
            res.and_then(|x| x.lut).map_or_else(String::new, |v| v.to_string()),
            res.and_then(|x| x.ff).map_or_else(String::new, |v| v.to_string()),
            res.and_then(|x| x.bram_18k).map_or_else(String::new, |v| v.to_string()),
            res.and_then(|x| x.dsp).map_or_else(String::new, |v| v.to_string()),
            r.stall_pct.map_or_else(String::new, |s| format!("{s:.2}")),
            r.bytes_read.to_string(),
            r.bytes_written.to_string(),
            format!("{:.0}", r.dbw),
            format!("{:.0}", r.adbw),
            reasons_text(&r.reasons),
            nest_text(r),
        ];
        let line: Vec<String> = fields.iter().map(|f| csv_field(f)).collect();
        out.push_str(&line.join(","));
        out.push('\n');
    }
    out
}

/// CSV `nest`: `Row_Col` on the head of a nest the report flattened, `in Row_Col` on its
/// inner loops.
fn nest_text(r: &Row) -> String {
    match &r.nest {
        Some(n) if n.role == "head" => n.flattened_name.clone(),
        Some(n) => format!("in {}", n.flattened_name),
        None => String::new(),
    }
}

pub fn markdown(rep: &Report) -> String {
    let mut out = format!("**{}**: {} cycles ({:.1} us)\n\n| source |", rep.top, rep.total_cycles, rep.total_us);
    for c in COLUMNS {
        let _ = write!(out, " {c} |");
    }
    out.push_str("\n|---|");
    out.push_str(&"---:|".repeat(COLUMNS.len() - 1));
    out.push_str("---|\n");
    for r in &rep.rows {
        let l = format!("{}`{}`", "&nbsp;&nbsp;".repeat(r.depth), label(r).replace('|', "\\|").replace('`', "'"));
        let _ = write!(out, "| {l} |");
        for c in cells(r) {
            let _ = write!(out, " {} |", c.replace('|', "\\|"));
        }
        out.push('\n');
    }
    if let Some(msg) = &rep.recommendation {
        let _ = writeln!(out, "\n> {msg}");
    }
    out
}

/// Absolute start cycle of every timeline node (parents come before their children).
fn absolute_starts(rp: &Replay) -> Vec<u64> {
    let mut abs = vec![0u64; rp.nodes.len()];
    for (k, n) in rp.nodes.iter().enumerate() {
        abs[k] = n.offset + n.parent.map_or(0, |p| abs[p]);
    }
    abs
}

/// Visible timeline intervals: (row index, start cycle, end cycle).
fn intervals(rp: &Replay, rep: &Report) -> Vec<(usize, u64, u64)> {
    let abs = absolute_starts(rp);
    let row_of_site = site_rows(rp, rep);
    let mut hidden = vec![false; rp.nodes.len()];
    let mut out = Vec::new();
    for (k, n) in rp.nodes.iter().enumerate() {
        hidden[k] = n.hidden || n.parent.is_some_and(|p| hidden[p]);
        if !hidden[k] && n.cycles > 0 {
            out.push((row_of_site[n.site], abs[k], abs[k] + n.cycles));
        }
    }
    out
}

/// Row index of every site (rows are the sites in depth-first order).
fn site_rows(rp: &Replay, rep: &Report) -> Vec<usize> {
    let mut rows = vec![0usize; rp.sites.len()];
    let mut order = Vec::new();
    let mut stack: Vec<usize> = rp.roots.iter().rev().copied().collect();
    while let Some(s) = stack.pop() {
        order.push(s);
        stack.extend(rp.sites[s].children.iter().rev());
    }
    for (row, s) in order.into_iter().enumerate() {
        rows[s] = row.min(rep.rows.len().saturating_sub(1));
    }
    rows
}

fn vcd_id(mut k: usize) -> String {
    let mut s = String::new();
    loop {
        s.push((b'!' + (k % 94) as u8) as char);
        k /= 94;
        if k == 0 {
            return s;
        }
    }
}

/// The name of a row on a timeline: the flattened loop's for the head of a flattened nest.
fn timeline_name(r: &Row) -> &str {
    match &r.nest {
        Some(n) if n.role == "head" => &n.flattened_name,
        _ => &r.name,
    }
}

fn vcd_name(r: &Row) -> String {
    let base: String = format!("{}_{}", r.index, timeline_name(r))
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' })
        .collect();
    base
}

/// VCD: one `busy` wire per row, in scopes following the row tree; time unit 1 ps, one cycle =
/// the clock period.
pub fn vcd(rp: &Replay, rep: &Report) -> String {
    let ps = (rep.clock_ns.value * 1000.0).round().max(1.0) as u64;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "$date hlsinstr sim $end\n$version hlsinstr {} $end\n$timescale 1ps $end",
        env!("CARGO_PKG_VERSION")
    );
    let _ = writeln!(out, "$scope module {} $end", vcd_name_plain(&rep.top));
    let mut depth_open = 0usize;
    for (k, r) in rep.rows.iter().enumerate() {
        while depth_open > r.depth {
            out.push_str("$upscope $end\n");
            depth_open -= 1;
        }
        let _ = writeln!(out, "$scope module {} $end", vcd_name(r));
        let _ = writeln!(out, "$var wire 1 {} busy $end", vcd_id(k));
        depth_open += 1;
        let next_depth = rep.rows.get(k + 1).map_or(0, |n| n.depth);
        if next_depth <= r.depth {
            out.push_str("$upscope $end\n");
            depth_open -= 1;
        }
    }
    while depth_open > 0 {
        out.push_str("$upscope $end\n");
        depth_open -= 1;
    }
    out.push_str("$upscope $end\n$enddefinitions $end\n");
    // Changes: +1 at a start, -1 at an end, per row; a row is busy while its count is positive.
    let mut changes: Vec<(u64, usize, i64)> = Vec::new();
    for (row, s, e) in intervals(rp, rep) {
        changes.push((s, row, 1));
        changes.push((e, row, -1));
    }
    changes.sort_by_key(|&(t, row, d)| (t, d, row));
    let mut level = vec![0i64; rep.rows.len()];
    out.push_str("#0\n$dumpvars\n");
    for k in 0..rep.rows.len() {
        let _ = writeln!(out, "0{}", vcd_id(k));
    }
    out.push_str("$end\n");
    let mut now = 0u64;
    let mut pending: Vec<(usize, bool)> = Vec::new();
    let flush = |out: &mut String, now: u64, pending: &mut Vec<(usize, bool)>, level: &[i64]| {
        let mut emitted = Vec::new();
        for &(row, was) in pending.iter() {
            let is = level[row] > 0;
            if is != was && !emitted.contains(&row) {
                emitted.push(row);
            }
        }
        if !emitted.is_empty() {
            let _ = writeln!(out, "#{}", now * ps);
            for row in emitted {
                let _ = writeln!(out, "{}{}", if level[row] > 0 { 1 } else { 0 }, vcd_id(row));
            }
        }
        pending.clear();
    };
    for (t, row, d) in changes {
        if t != now {
            flush(&mut out, now, &mut pending, &level);
            now = t;
        }
        if !pending.iter().any(|&(r, _)| r == row) {
            pending.push((row, level[row] > 0));
        }
        level[row] += d;
    }
    flush(&mut out, now, &mut pending, &level);
    let end = rep.total_cycles.max(now);
    let _ = writeln!(out, "#{}", end * ps);
    out
}

fn vcd_name_plain(s: &str) -> String {
    s.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect()
}

/// Chrome trace-event JSON: one complete (`X`) event per invocation, microseconds, one track per
/// lane (a dataflow process gets its own track).
pub fn chrome_trace(rp: &Replay, rep: &Report) -> String {
    let us = rep.clock_ns.value / 1000.0;
    let row_site: Vec<usize> = {
        let rows = site_rows(rp, rep);
        let mut v = vec![0usize; rep.rows.len()];
        for (s, &r) in rows.iter().enumerate() {
            if r < v.len() {
                v[r] = s;
            }
        }
        v
    };
    let mut events: Vec<serde_json::Value> = Vec::new();
    for lane in 0..rp.lanes {
        events.push(serde_json::json!({"ph": "M", "name": "thread_name", "pid": 0, "tid": lane,
            "args": {"name": if lane == 0 { rep.top.clone() } else { format!("process {lane}") }}}));
    }
    for (row, s, e) in intervals(rp, rep) {
        let r = &rep.rows[row];
        events.push(serde_json::json!({
            "name": timeline_name(r), "cat": r.kind, "ph": "X", "pid": 0, "tid": rp.sites[row_site[row]].lane,
            "ts": s as f64 * us, "dur": (e - s) as f64 * us,
            "args": {"row": row, "cycles": e - s, "file": r.file, "line": r.line}
        }));
    }
    let doc = serde_json::json!({"traceEvents": events, "displayTimeUnit": "ns",
        "otherData": {"tool": "hlsinstr sim", "top": rep.top, "clock_ns": rep.clock_ns.value}});
    serde_json::to_string(&doc).unwrap_or_default() + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_counts_like_hlscope() {
        assert_eq!(short_count(950), "950");
        assert_eq!(short_count(145_000), "145k");
        assert_eq!(short_count(7_750_000), "7.75M");
        assert_eq!(short_count(12_345), "12.3k");
        assert_eq!(short_rate(724e6), "724M");
        assert_eq!(short_rate(0.0), "0");
    }

    #[test]
    fn vcd_ids_are_unique() {
        let ids: std::collections::HashSet<String> = (0..10_000).map(vcd_id).collect();
        assert_eq!(ids.len(), 10_000);
    }
}
