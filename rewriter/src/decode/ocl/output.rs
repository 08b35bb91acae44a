//! The OpenCL report's faces: sections of aligned tables for the terminal, and JSON.

use super::report::{Bucket, Event, LatencyRow, OclReport, Stats, WatchEvent};
use std::fmt::Write as _;

/// Columns of a table: the header and whether the column is right-aligned (numbers).
struct Table {
    head: Vec<(&'static str, bool)>,
    rows: Vec<Vec<String>>,
}

impl Table {
    fn new(head: &[(&'static str, bool)]) -> Table {
        Table { head: head.to_vec(), rows: Vec::new() }
    }

    fn render(&self, out: &mut String) {
        let mut widths: Vec<usize> = self.head.iter().map(|(h, _)| h.chars().count()).collect();
        for r in &self.rows {
            for (w, c) in widths.iter_mut().zip(r) {
                *w = (*w).max(c.chars().count());
            }
        }
        let header: Vec<String> = self.head.iter().map(|(h, _)| h.to_string()).collect();
        for row in std::iter::once(&header).chain(&self.rows) {
            let mut l = String::from(" ");
            for ((c, &w), (_, right)) in row.iter().zip(&widths).zip(&self.head) {
                let pad = w.saturating_sub(c.chars().count());
                if *right {
                    let _ = write!(l, " {}{c}", " ".repeat(pad));
                } else {
                    let _ = write!(l, " {c}{}", " ".repeat(pad));
                }
            }
            out.push_str(l.trim_end());
            out.push('\n');
        }
    }
}

/// `2/2.5/3` (min/mean/max), `-` when there is nothing.
fn min_mean_max(s: &Option<Stats>) -> String {
    s.as_ref().map_or_else(|| "-".to_string(), |s| format!("{}/{:.1}/{}", s.min, s.mean, s.max))
}

fn place(file: &str, line: usize, column: usize) -> String {
    format!("{file}:{line}:{column}")
}

/// `data[8]`, `data[0]+6 bytes`, or the address when nothing better is known.
fn element(e: &WatchEvent) -> String {
    match (&e.element, e.byte_offset) {
        (Some(x), _) => x.clone(),
        (None, Some(o)) => format!("{}{o:+} bytes", e.watched),
        _ => format!("{:#x}", e.addr),
    }
}

fn event_line(e: &Event) -> Vec<String> {
    let what = match e.trips {
        Some(t) => format!("{} {} (trips {t})", e.event, e.label),
        None => format!("{} {}", e.event, e.label),
    };
    vec![
        e.seq.map_or_else(|| "-".to_string(), |s| s.to_string()),
        e.time.to_string(),
        e.unit.to_string(),
        what,
        place(&e.source.file, e.source.line, e.source.column),
    ]
}

fn bar_label(b: &Bucket) -> String {
    match (b.lo, b.hi) {
        (i64::MIN, -1) => "< 0".to_string(),
        (l, h) if l == h => l.to_string(),
        (l, h) => format!("{l}-{h}"),
    }
}

/// Bars scaled to 40 characters for the fullest bucket.
fn histogram(out: &mut String, h: &[Bucket]) {
    let most = h.iter().map(|b| b.count).max().unwrap_or(0).max(1);
    let lw = h.iter().map(|b| bar_label(b).len()).max().unwrap_or(1);
    for b in h {
        let len = (b.count * 40).div_ceil(most);
        let line = format!("    {:>lw$} | {:<40} {}", bar_label(b), "#".repeat(len), b.count);
        let _ = writeln!(out, "{}", line.trim_end());
    }
}

fn latency(out: &mut String, l: &LatencyRow) {
    let (b, a) = (&l.before_source, &l.after_source);
    let access = l.access.as_deref().map(|x| format!("`{x}` ")).unwrap_or_default();
    let _ = writeln!(
        out,
        "  {access}in {}: snapshot {} at {} → snapshot {} at {}",
        b.function,
        l.before,
        place(&b.file, b.line, b.column),
        l.after,
        place(&a.file, a.line, a.column)
    );
    match &l.stats {
        Some(s) => {
            let _ = writeln!(
                out,
                "    {} pairs: min {}, median {:.1}, mean {:.1}, max {} cycles",
                s.count, s.min, s.median, s.mean, s.max
            );
        }
        None => out.push_str("    no pairs\n"),
    }
    if l.unpaired_before + l.unpaired_after > 0 {
        let _ = writeln!(out, "    unpaired: {} before, {} after", l.unpaired_before, l.unpaired_after);
    }
    histogram(out, &l.histogram);
}

fn watch_table(out: &mut String, title: &str, events: &[WatchEvent]) {
    let _ = writeln!(out, "\n{title} ({}):", events.len());
    if events.is_empty() {
        return;
    }
    let mut t = Table::new(&[
        ("time", true),
        ("unit", true),
        ("what", false),
        ("element", false),
        ("value", true),
        ("address", false),
        ("where", false),
        ("access", false),
    ]);
    for e in events {
        let what = match e.kind.as_str() {
            "out_of_bounds" => match e.bound {
                Some(b) => format!("OUT_OF_BOUNDS (bound {b})"),
                None => "OUT_OF_BOUNDS".to_string(),
            },
            "invariant" => match &e.invariant {
                Some(i) => format!("INVARIANT `{i}`"),
                None => "INVARIANT".to_string(),
            },
            _ => "HIT".to_string(),
        };
        t.rows.push(vec![
            e.time.to_string(),
            e.unit.to_string(),
            what,
            element(e),
            e.value.map_or_else(|| "-".to_string(), |v| v.to_string()),
            format!("{:#x}", e.addr),
            format!("{} in {}", place(&e.source.file, e.source.line, e.source.column), e.source.function),
            format!("{} {}", e.access, e.buffer).trim().to_string(),
        ]);
    }
    t.render(out);
}

/// The terminal report.
pub fn text(rep: &OclReport) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "hlsinstr decode: OpenCL dump, {} iBuffer units, key {}", rep.units.len(), rep.key);
    out.push('\n');
    let mut t = Table::new(&[
        ("unit", true),
        ("probe", false),
        ("where", false),
        ("mode", false),
        ("records", true),
        ("dropped", true),
    ]);
    for u in &rep.units {
        t.rows.push(vec![
            u.unit.to_string(),
            u.label.clone(),
            place(&u.source.file, u.source.line, u.source.column),
            u.mode.clone(),
            u.records.to_string(),
            u.dropped.to_string(),
        ]);
    }
    t.render(&mut out);

    if !rep.spans.is_empty() {
        out.push_str(
            "\nfunctions and loops (cycles: end − begin per invocation, min/mean/max; trips per execution):\n",
        );
        let mut t = Table::new(&[
            ("unit", true),
            ("probe", false),
            ("begins", true),
            ("ends", true),
            ("open", true),
            ("trips", false),
            ("cycles", false),
            ("where", false),
        ]);
        for s in &rep.spans {
            let label = if s.kind == "loop" {
                let nest = if s.nest.is_empty() { "" } else { "nest " };
                format!("loop {nest}{} in {}", s.name, s.source.function)
            } else {
                format!("function {}", s.name)
            };
            t.rows.push(vec![
                s.unit.to_string(),
                label,
                s.begins.to_string(),
                s.ends.to_string(),
                s.open.to_string(),
                if s.kind == "loop" { min_mean_max(&s.trips_stats) } else { String::new() },
                min_mean_max(&s.cycles_stats),
                place(&s.source.file, s.source.line, s.source.column),
            ]);
        }
        t.render(&mut out);
        let order = if rep.order == "seq" {
            "by sequence number".to_string()
        } else {
            "by unit time: the probes carry no sequence numbers (rewrite with --probes ...,seq for the execution order)"
                .to_string()
        };
        let _ = writeln!(out, "\nevents {order} ({}):", rep.events.len());
        let mut t = Table::new(&[("seq", true), ("time", true), ("unit", true), ("event", false), ("where", false)]);
        t.rows = rep.events.iter().map(event_line).collect();
        t.render(&mut out);
    }

    if rep.units.iter().any(|u| u.kind == "watch") {
        watch_table(&mut out, "watch hits", &rep.hits);
        watch_table(&mut out, "violations", &rep.violations);
    }

    if !rep.latencies.is_empty() {
        out.push_str("\nlatencies (time of the k-th `after` record − time of the k-th `before` record):\n");
        for l in &rep.latencies {
            latency(&mut out, l);
        }
    }

    if let Some(b) = &rep.branches {
        branches(&mut out, b);
    }

    if !rep.warnings.is_empty() {
        out.push('\n');
    }
    for w in &rep.warnings {
        let _ = writeln!(out, "warning: {w}");
    }
    out
}

pub fn json(rep: &OclReport) -> String {
    serde_json::to_string_pretty(rep).unwrap_or_default() + "\n"
}

/// The branch trace: decisions and hot paths as `sim` shows them, then each call's path.
fn branches(out: &mut String, b: &super::branches::OclBranches) {
    out.push('\n');
    out.push_str(&crate::sim::coverage::text(&b.coverage));
    let _ = writeln!(out, "paths per work-item and call (unit function work-item/call: the lines it ran):");
    for p in &b.paths {
        let lines: Vec<String> = p.lines.iter().map(|l| l.to_string()).collect();
        let more =
            if p.length > p.lines.len() as u64 { format!(" ... ({} statements)", p.length) } else { String::new() };
        let _ = writeln!(out, "  {} {} {}/{}: {}{more}", p.unit, p.function, p.work_item, p.call, lines.join(" "));
    }
    if b.calls > b.paths.len() as u64 {
        let _ = writeln!(
            out,
            "  ... {} more calls (counted above; the first {} are listed)",
            b.calls - b.paths.len() as u64,
            b.calls_shown_cap
        );
    }
}
