//! The report's faces: an annotated table for the terminal, JSON, CSV, Markdown, and the
//! timeline as VCD (GTKWave) and Chrome trace-event JSON (Perfetto).

use super::replay::Replay;
use super::report::{Reason, Report, Row};
use super::timing::Source;
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
        // Inside a pipeline a row has no time of its own (its cycles, what it would take
        // alone, are counted nowhere): a figure there read as more than its pipeline's.
        if r.in_pipeline { "-".into() } else { short_count(r.cycles) },
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
    out.push_str(&headline(rep));
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

/// Per call: the estimate, the report's top latency beside it, the co-simulation when given.
fn headline(rep: &Report) -> String {
    let e = &rep.estimate;
    let mut out = String::new();
    if e.calls == 0 {
        return out;
    }
    let span = |v: &[u64]| {
        let (lo, hi) = (v.iter().min().copied().unwrap_or(0), v.iter().max().copied().unwrap_or(0));
        if lo == hi {
            lo.to_string()
        } else {
            format!("{lo} ~ {hi}")
        }
    };
    let mean = if e.per_call.iter().min() == e.per_call.iter().max() {
        String::new()
    } else {
        format!(" (mean {:.1})", e.mean_cycles)
    };
    let _ = write!(out, "per call: {}{mean} cycles ap_start→ap_done over {} call(s)", span(&e.per_call), e.calls);
    match e.report_latency {
        Some(r) if r.is_exact() => {
            let _ = write!(out, "; the report says {}", r.min);
        }
        Some(r) => {
            let _ = write!(out, "; the report says {} ~ {}", r.min, r.max);
        }
        None if rep.csynth.is_some() => out.push_str("; the report gives no latency for the top"),
        None => {}
    }
    if rep.csynth.is_some() {
        let _ = write!(out, " (run agreed with the schedule on {} of {} calls)", e.schedule_exact_calls, e.calls);
    }
    out.push('\n');
    if e.pipeline_rtl_saving > 0.0 {
        let _ = writeln!(
            out,
            "RTL below the schedule: −{} per call, in the figure above: each `_Pipeline_` module run ends with its loop, \
             2 cycles before the report's module latency (docs/cycle-model.md, \"Pipeline modules in the RTL\")",
            if e.pipeline_rtl_saving.fract() == 0.0 {
                format!("{}", e.pipeline_rtl_saving)
            } else {
                format!("{:.1}", e.pipeline_rtl_saving)
            }
        );
    }
    if !e.maxi_waits.is_empty() {
        let parts: Vec<String> = e
            .maxi_waits
            .iter()
            .map(|w| {
                let at = w.line.map(|l| format!(" (line {l})")).unwrap_or_default();
                let lp = w.loop_name.as_deref().map(|l| format!(" in {l}")).unwrap_or_default();
                format!("{} {} burst{lp}{at} +{}", w.interface, w.direction, w.cycles)
            })
            .collect();
        let total: u64 = e.maxi_waits.iter().map(|w| w.cycles).sum();
        let _ = writeln!(
            out,
            "m_axi waits the schedule (interface latency {}) does not hold: +{total} per call, in the figure above: {} (report's M_AXI Burst Information; the 2022.2 adapter's round trip, docs/cycle-model.md)",
            e.maxi_waits[0].latency,
            parts.join(", ")
        );
    }
    if let Some(n) = &e.maxi_wait_note {
        let _ = writeln!(out, "note: {n}");
    }
    if !e.single_read_waits.is_empty() {
        let parts: Vec<String> = e
            .single_read_waits
            .iter()
            .map(|w| match w.ii {
                Some(ii) => format!("{} (line {}) {} reads at II {ii} +{}", w.name, w.line, w.reads, w.cycles),
                None => format!("{} (line {}) {} reads +{}", w.name, w.line, w.reads, w.cycles),
            })
            .collect();
        let total: u64 = e.single_read_waits.iter().map(|w| w.cycles).sum();
        let _ = writeln!(
            out,
            "m_axi single reads (a bundle takes one request a cycle; a read waits for the adapter): +{total} over the run, in the figures above: {} (docs/cycle-model.md, \"m_axi single reads in a pipeline\")",
            parts.join(", ")
        );
    }
    // The extra comes from the report when its registers and version chose Vitis' s_axilite
    // testbench ([`super::estimate`]); else the window is the schedule itself, not worth a line.
    if e.cosim_extra.source == super::timing::Source::Report {
        let _ = writeln!(out, "in co-simulation's window: {} per call ({})", span(&e.cosim_per_call), e.cosim_window);
    }
    if let Some(c) = &e.cosim {
        let truth: Vec<u64> = c.calls.iter().map(|c| c.cosim).collect();
        let window = match e.cosim_extra.value {
            0 => "ap_start→ap_done".to_string(),
            v => format!("+{v} on the first call, {}", e.cosim_extra.source),
        };
        let _ = write!(
            out,
            "co-simulation ({}): {} per call; estimate in its window ({window}): mean abs error {:.1} %",
            c.files.join(", "),
            span(&truth),
            c.mean_abs_error_pct
        );
        if let Some(r) = c.report_mean_abs_error_pct {
            // A range is compared by its worst case: say so, or a data-dependent design's
            // report reads as far off when its range holds every call.
            match e.report_latency.filter(|l| l.min != l.max) {
                Some(l) => {
                    let _ = write!(out, " (the report's top latency, its worst case {}: {r:.1} %)", l.max);
                }
                None => {
                    let _ = write!(out, " (the report's top latency: {r:.1} %)");
                }
            }
        }
        out.push('\n');
        if let Some(n) = &c.note {
            let _ = writeln!(out, "note: {n}");
        }
    }
    out
}

/// Text view of where every row's cycles come from: the rule applied and the source of each
/// number (`--explain`).
pub fn explain(rep: &Report) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "hlsinstr sim --explain: {}", rep.top);
    match &rep.csynth {
        Some(c) => {
            let _ = writeln!(out, "report: {} ({} {})", c.path, c.tool, c.version);
        }
        // Loops that exit in states of their own are Vivado HLS' (a project it wrote).
        None if rep.defaults.loop_exit_states => {
            out.push_str("report: none (pragmas, directives and Vivado HLS' defaults)\n")
        }
        None => out.push_str("report: none (pragmas, directives and Vitis' defaults)\n"),
    }
    out.push_str(&headline(rep));
    out.push('\n');
    for r in &rep.rows {
        let indent = "  ".repeat(r.depth);
        let name = match &r.instance {
            Some(i) => format!("{} [{}]", r.name, i),
            None => r.name.clone(),
        };
        let per_run = if r.runs > 0 { r.cycles as f64 / r.runs as f64 } else { 0.0 };
        let _ =
            write!(out, "{indent}{} {name} (line {}): {} run(s), {:.1} cycles/run", r.kind, r.line, r.runs, per_run);
        if let Some(t) = r.trips {
            let _ = write!(out, ", {t} trips (run)");
        }
        out.push('\n');
        let t = &r.timing;
        let why = if r.in_pipeline {
            "inside a pipeline: part of its schedule, no time of its own".to_string()
        } else if let Some(table) = &t.constant_table {
            format!("fills the constant table `{table}`: Vitis folds it into a ROM (rule 7), no time of its own")
        } else if let Some(arrays) = &t.removed {
            format!("only stores into `{arrays}`, which nothing reads: code Vitis removes, no time of its own")
        } else if t.absent {
            "not in the report: unrolled or a ROM, no time of its own".to_string()
        } else if t.inlined && rep.csynth.is_none() && t.overhead.is_some_and(|o| o.source == Source::Default) {
            "inlined by Vitis' default (a small function): no module of its own, its children count in the caller"
                .to_string()
        } else if t.inlined && rep.csynth.is_none() {
            "INLINE: no module of its own, its children count in the caller".to_string()
        } else if t.inlined {
            "no module in the report: inlined, its children count in the caller".to_string()
        } else if r.schedule_runs == r.runs && r.runs > 0 && rep.csynth.is_some() && r.rtl_saving > 0 {
            format!(
                "the report's latency (the run agreed with the schedule) less {} over its runs that its \
                 `_Pipeline_` modules' RTL does not spend",
                r.rtl_saving
            )
        } else if r.schedule_runs == r.runs && r.runs > 0 && rep.csynth.is_some() {
            "the report's latency (the run agreed with the schedule)".to_string()
        } else if let Some(b) = t.body {
            format!("a function pipeline: its body's {} cycles (op chain, memory ports), then its callees'", b.value)
        } else if let Some(l) = t.report_latency.or(t.report.and_then(|x| x.latency)) {
            format!(
                "the report's latency {} ~ {} corrected by the run ({} of {} runs exact)",
                l.min, l.max, r.schedule_runs, r.runs
            )
        } else {
            "computed from the run's trip counts".to_string()
        };
        let _ = writeln!(out, "{indent}  = {why}");
        let mut facts: Vec<String> = Vec::new();
        if let Some(p) = t.pipelined {
            facts.push(format!("pipelined {} ({})", if p.value { "yes" } else { "no" }, p.source));
        }
        if let Some(v) = t.ii {
            facts.push(format!("II {} ({})", v.value, v.source));
        }
        if let Some(v) = t.il {
            facts.push(format!("tail {} ({})", v.value, v.source));
        }
        if let Some(v) = t.iteration_latency {
            facts.push(format!("iteration {} ({})", v.value, v.source));
        }
        if let Some(v) = t.exit {
            facts.push(format!("exit {} ({})", v.value, v.source));
        }
        if let Some(l) = t.report_latency {
            facts.push(format!("report latency {} ~ {}", l.min, l.max));
        } else if let Some(v) = t.overhead {
            facts.push(format!("handshake {} ({})", v.value, v.source));
        }
        if let Some(v) = t.body {
            facts.push(format!("body {} ({})", v.value, v.source));
        }
        if let Some(v) = t.initialisers {
            facts.push(format!("initialisers {} ({})", v.value, v.source));
        }
        if let Some(rl) = t.report {
            if let Some(tc) = rl.trips {
                facts.push(format!("report trips {} ~ {}", tc.min, tc.max));
            }
        }
        if let Some(n) = &t.report_name {
            facts.push(format!("report entry {n}"));
        }
        if let Some(m) = &t.process {
            facts.push(format!("dataflow process {m} (timed as one with the loops it holds)"));
        }
        if !facts.is_empty() {
            let _ = writeln!(out, "{indent}  {}", facts.join(", "));
        }
        for n in &t.initialiser_notes {
            let _ = writeln!(out, "{indent}  {n}");
        }
    }
    if let Some(a) = &rep.accounting {
        let unprobed: Vec<String> = a
            .modules
            .iter()
            .chain(&a.loops)
            .filter(|m| m.counted != "probed")
            .map(|m| format!("  {}: {}", m.name, m.counted))
            .collect();
        if !unprobed.is_empty() {
            let _ = writeln!(out, "\nreport entries no probe stands for:\n{}", unprobed.join("\n"));
        }
        if !a.probes_without_entry.is_empty() {
            out.push_str("\nprobes the report has no entry for:\n");
            for p in &a.probes_without_entry {
                let _ = writeln!(out, "  {} {} ({}:{}): {}", p.kind, p.name, p.function, p.line, p.reason);
            }
        }
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
    if let Some(w) = &rep.watch {
        out.push('\n');
        out.push_str(&watch_csv(w));
    }
    out
}

/// The watch table of the CSV report, after a blank line: one `event` line per listed event
/// (the first [`super::watch::MAX_SHOWN`]), one `count` line per site and kind over the whole
/// run, and an `unlisted` line with the number of events past the cap.
fn watch_csv(w: &super::watch::WatchSummary) -> String {
    let mut out = String::from("watch,call,kind,site,file,line,function,buffer,access,element,value,count\n");
    let mut line = |fields: [String; 12]| {
        let f: Vec<String> = fields.iter().map(|f| csv_field(f)).collect();
        out.push_str(&f.join(","));
        out.push('\n');
    };
    let site = |s: &super::watch::WatchSiteRef| {
        [s.site.to_string(), s.file.clone(), s.line.to_string(), s.function.clone(), s.buffer.clone(), s.access.clone()]
    };
    for e in &w.shown {
        let [id, file, l, function, buffer, access] = site(&e.site);
        let value = e.value.map_or_else(String::new, |v| v.to_string());
        line([
            "event".into(),
            e.call.to_string(),
            e.kind.into(),
            id,
            file,
            l,
            function,
            buffer,
            access,
            e.element.to_string(),
            value,
            String::new(),
        ]);
    }
    for s in &w.sites {
        for (kind, n) in [("hit", s.hit), ("out_of_bounds", s.out_of_bounds), ("invariant", s.invariant)] {
            if n > 0 {
                let [id, file, l, function, buffer, access] = site(&s.site);
                line([
                    "count".into(),
                    String::new(),
                    kind.into(),
                    id,
                    file,
                    l,
                    function,
                    buffer,
                    access,
                    String::new(),
                    String::new(),
                    n.to_string(),
                ]);
            }
        }
    }
    let e = String::new;
    line(["unlisted".into(), e(), e(), e(), e(), e(), e(), e(), e(), e(), e(), w.unlisted().to_string()]);
    out
}

/// The watch section of the Markdown report: counts per site, then the events listed.
fn watch_markdown(w: &super::watch::WatchSummary) -> String {
    let esc = |s: &str| s.replace('|', "\\|");
    let mut out = format!("\n### Watch: {} events in {} calls of the top\n\n", w.events, w.calls);
    out.push_str("| site | access | hit | out of bounds | invariant |\n|---|---|---:|---:|---:|\n");
    for s in &w.sites {
        let _ = writeln!(
            out,
            "| `{}:{}` ({} in {}) | {} | {} | {} | {} |",
            esc(&s.site.file),
            s.site.line,
            esc(&s.site.buffer),
            esc(&s.site.function),
            s.site.access,
            s.hit,
            s.out_of_bounds,
            s.invariant
        );
    }
    if !w.shown.is_empty() {
        out.push_str("\n| call | event | site | element | value |\n|---:|---|---|---:|---:|\n");
        for e in &w.shown {
            let value = e.value.map_or_else(String::new, |v| v.to_string());
            let _ = writeln!(
                out,
                "| {} | {} | `{}:{}` ({}) | {} | {value} |",
                e.call,
                e.kind.replace('_', " "),
                esc(&e.site.file),
                e.site.line,
                esc(&e.site.buffer),
                e.element
            );
        }
    }
    if w.unlisted() > 0 {
        let _ = writeln!(
            out,
            "\n{} more events are counted above but not listed (the first {} are).",
            w.unlisted(),
            w.shown_cap
        );
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
    if let Some(w) = &rep.watch {
        out.push_str(&watch_markdown(w));
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
    // Built event by event into the text (a `Value` per event took ~0.5 KB each).
    let mut events = String::new();
    let mut push = |v: serde_json::Value| {
        events.push(if events.is_empty() { '[' } else { ',' });
        events.push_str(&serde_json::to_string(&v).unwrap_or_default());
    };
    for lane in 0..rp.lanes {
        push(serde_json::json!({"ph": "M", "name": "thread_name", "pid": 0, "tid": lane,
            "args": {"name": if lane == 0 { rep.top.clone() } else { format!("process {lane}") }}}));
    }
    // In time order (the log's order of threads' invocations changes from run to run).
    let mut spans = intervals(rp, rep);
    spans.sort_by_key(|&(row, s, e)| (s, row, e));
    for (row, s, e) in spans {
        let r = &rep.rows[row];
        push(serde_json::json!({
            "name": timeline_name(r), "cat": r.kind, "ph": "X", "pid": 0, "tid": rp.sites[row_site[row]].lane,
            "ts": s as f64 * us, "dur": (e - s) as f64 * us,
            "args": {"row": row, "cycles": e - s, "file": r.file, "line": r.line}
        }));
    }
    events.push_str(if events.is_empty() { "[]" } else { "]" });
    // serde_json sorts an object's keys: traceEvents comes last.
    let doc = serde_json::json!({"traceEvents": [], "displayTimeUnit": "ns",
        "otherData": {"tool": "hlsinstr sim", "top": rep.top, "clock_ns": rep.clock_ns.value}});
    let text = serde_json::to_string(&doc).unwrap_or_default();
    let head = text.strip_suffix("[]}").unwrap_or(&text);
    format!("{head}{events}}}\n")
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
