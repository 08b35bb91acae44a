//! The hardware report's faces: an aligned table for the terminal and JSON.

use super::report::{HwReport, HwRow};
use crate::sim::output::short_count;
use std::fmt::Write as _;

fn label(r: &HwRow) -> String {
    let base = match r.kind.as_str() {
        "loop" if !r.nest.is_empty() => format!("loop nest {}", r.name),
        "loop" => format!("loop {}", r.name),
        "function" => format!("{}()", r.name),
        _ => r.name.clone(),
    };
    format!("{}{}{}", "  ".repeat(r.depth), base, if r.derived_from.is_some() { " *" } else { "" })
}

fn fraction(v: Option<f64>) -> String {
    match v {
        Some(x) if x >= 1e4 => short_count(x.round() as u64),
        Some(x) => format!("{x:.1}"),
        None => "-".into(),
    }
}

fn count(v: Option<u64>) -> String {
    v.map_or_else(|| "-".into(), short_count)
}

fn pcp(v: bool) -> String {
    if v { "Yes" } else { "No" }.into()
}

fn pct(v: Option<f64>) -> String {
    v.map_or_else(|| "-".into(), |p| format!("{p:.1}"))
}

/// `compute(96.5, dep), write(1.0, sync)`, as sim prints its reasons.
fn reasons(r: &HwRow) -> String {
    r.reasons.iter().map(|x| format!("{}({:.1}, {})", x.module, x.share_pct, x.kind)).collect::<Vec<_>>().join(", ")
}

/// The column names; the last `LEFT` are left-aligned text.
fn columns(sim: bool) -> Vec<&'static str> {
    let mut c = vec!["HW_cyc", "calls", "avg", "max", "trips", "trips/x", "%top", "PCP", "Stall%"];
    if sim {
        c.extend(["Sim_cyc", "err%", "Sim_PCP", "Sim_stall%"]);
    }
    c.extend(["where", "Reason"]);
    c
}

const LEFT: usize = 2;

fn cells(r: &HwRow, sim: bool) -> Vec<String> {
    let mut c = vec![
        short_count(r.busy),
        if r.derived_from.is_some() { "?".into() } else { count(r.calls) },
        fraction(r.avg),
        count(r.max),
        count(r.trips),
        fraction(r.trips_avg),
        pct(r.top_pct),
        pcp(r.pcp),
        pct(r.stall_pct),
    ];
    if sim {
        c.push(count(r.sim_cycles));
        c.push(r.sim_err_pct.map_or_else(|| "-".into(), |e| format!("{e:+.1}")));
        c.push(r.sim_pcp.map_or_else(|| "-".into(), pcp));
        c.push(pct(r.sim_stall_pct));
    }
    c.push(if r.file.is_empty() { String::new() } else { format!("{}:{}", r.file, r.line) });
    c.push(reasons(r));
    c
}

/// One line of the table: right-aligned numbers, left-aligned text, no trailing blanks.
fn line(out: &mut String, first: &str, lw: usize, row: &[String], widths: &[usize]) {
    let mut l = format!("{first:lw$}");
    for (k, (c, &w)) in row.iter().zip(widths).enumerate() {
        if k + LEFT >= row.len() {
            let _ = write!(l, "  {c:w$}");
        } else {
            let _ = write!(l, "  {c:>w$}");
        }
    }
    out.push_str(l.trim_end());
    out.push('\n');
}

/// The terminal table: one row per measured probe, indented by its depth in the probe tree.
pub fn text(rep: &HwReport) -> String {
    let sim = rep.sim.is_some();
    let cols = columns(sim);
    let labels: Vec<String> = rep.rows.iter().map(label).collect();
    let all: Vec<Vec<String>> = rep.rows.iter().map(|r| cells(r, sim)).collect();
    let lw = labels.iter().map(|l| l.chars().count()).chain([5]).max().unwrap_or(5).min(60);
    let mut widths: Vec<usize> = cols.iter().map(|c| c.len()).collect();
    for row in &all {
        for (w, c) in widths.iter_mut().zip(row) {
            *w = (*w).max(c.chars().count());
        }
    }
    let mut out = String::new();
    let time = match (rep.total_us, rep.clock_ns) {
        (Some(us), Some(ns)) => format!("{us:.1} us at {ns} ns"),
        _ => "give --clock for microseconds".into(),
    };
    let _ = writeln!(out, "hlsinstr decode: {} in {} — {} monitor cycles ({time})", rep.top, rep.instr_top, rep.cycles);
    let _ = writeln!(
        out,
        "status: {}; times from {}; %top of {} cycles",
        if rep.finished { "finished" } else { "DID NOT FINISH (partial counts)" },
        if rep.timestamps { "probe timestamps" } else { "the cycle the monitor read each event" },
        rep.top_cycles
    );
    let _ = writeln!(
        out,
        "Stall%: share of its dataflow region's time a process is not busy (0 under a serial scope); Reason: the \
         region's other processes, shares in proportion to their busy time"
    );
    if let Some(s) = &rep.sim {
        let _ = writeln!(
            out,
            "Sim_cyc: hlsinstr sim's estimate for {} ({} cycles); err% = (sim − hw) / hw; Sim_PCP, Sim_stall%: sim's",
            s.top, s.total_cycles
        );
    }
    out.push('\n');
    let header: Vec<String> = cols.iter().map(|c| c.to_string()).collect();
    line(&mut out, "probe", lw, &header, &widths);
    for (l, row) in labels.iter().zip(&all) {
        let shown: String =
            if l.chars().count() > lw { l.chars().take(lw - 1).chain(['…']).collect() } else { l.clone() };
        line(&mut out, &shown, lw, row, &widths);
    }
    for r in rep.rows.iter().filter(|r| r.derived_from.is_some()) {
        if let Some(n) = &r.note {
            let _ = writeln!(out, "* {}: {n}", r.name);
        }
    }
    if !rep.warnings.is_empty() {
        out.push('\n');
    }
    for w in &rep.warnings {
        let _ = writeln!(out, "warning: {w}");
    }
    out
}

pub fn json(rep: &HwReport) -> String {
    serde_json::to_string_pretty(rep).unwrap_or_default() + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::dump::tests::{dump, manifest};
    use crate::decode::report::{build, Options};

    #[test]
    fn table_rows_are_indented_and_aligned() {
        let m = manifest();
        let d = dump(&m);
        let rep = build(&d, &m, d.check(&m).unwrap(), None, &Options::default()).unwrap();
        let t = text(&rep);
        assert!(t.contains("1000 monitor cycles (give --clock"), "{t}");
        let lines: Vec<&str> = t.lines().collect();
        let head = lines.iter().position(|l| l.starts_with("probe")).unwrap();
        assert!(lines[head + 1].starts_with("top()  "), "{t}");
        assert!(lines[head + 2].starts_with("  loop L"), "{t}");
        assert!(lines[head + 2].contains("  20  ") && lines[head + 2].contains("10.0"), "{t}");
        // Right-aligned: the header and the value end in the same column.
        assert_eq!(lines[head].find("%top").map(|i| i + 4), lines[head + 1].find("100.0").map(|i| i + 5), "{t}");
        assert!(!t.contains("Sim_cyc"));
        let back: crate::decode::report::HwReport = serde_json::from_str(&json(&rep)).unwrap();
        assert_eq!(back, rep);
    }
}
