//! The hardware report's faces: an aligned table for the terminal and JSON.

use super::report::{HwReport, HwRow};
use crate::sim::output::short_count;
use std::fmt::Write as _;

fn label(r: &HwRow) -> String {
    let base = match r.kind.as_str() {
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

fn columns(sim: bool) -> Vec<&'static str> {
    let mut c = vec!["HW_cyc", "calls", "avg", "max", "trips", "trips/x", "%top"];
    if sim {
        c.extend(["Sim_cyc", "err%"]);
    }
    c.push("where");
    c
}

fn cells(r: &HwRow, sim: bool) -> Vec<String> {
    let mut c = vec![
        short_count(r.busy),
        if r.derived_from.is_some() { "?".into() } else { count(r.calls) },
        fraction(r.avg),
        count(r.max),
        count(r.trips),
        fraction(r.trips_avg),
        r.top_pct.map_or_else(|| "-".into(), |p| format!("{p:.1}")),
    ];
    if sim {
        c.push(count(r.sim_cycles));
        c.push(r.sim_err_pct.map_or_else(|| "-".into(), |e| format!("{e:+.1}")));
    }
    c.push(if r.file.is_empty() { String::new() } else { format!("{}:{}", r.file, r.line) });
    c
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
    if let Some(s) = &rep.sim {
        let _ = writeln!(
            out,
            "Sim_cyc: hlsinstr sim's estimate for {} ({} cycles); err% = (sim − hw) / hw",
            s.top, s.total_cycles
        );
    }
    let _ = write!(out, "\n{:lw$}", "probe");
    let last = cols.len() - 1;
    for (k, (c, w)) in cols.iter().zip(&widths).enumerate() {
        if k == last {
            let _ = write!(out, "  {c}");
        } else {
            let _ = write!(out, "  {c:>w$}");
        }
    }
    out.push('\n');
    for (l, row) in labels.iter().zip(&all) {
        let shown: String =
            if l.chars().count() > lw { l.chars().take(lw - 1).chain(['…']).collect() } else { l.clone() };
        let _ = write!(out, "{shown:lw$}");
        for (k, (c, w)) in row.iter().zip(&widths).enumerate() {
            if k == last {
                let _ = write!(out, "  {c}");
            } else {
                let _ = write!(out, "  {c:>w$}");
            }
        }
        out.push('\n');
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
