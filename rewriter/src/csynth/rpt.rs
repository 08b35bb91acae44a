//! From the text synthesis reports to a [`Report`]: the 2022+ summary `csynth.rpt` and the
//! per-module `<module>_csynth.rpt` (every version; in 2020.1 `csynth.rpt` itself has this
//! layout, for the top).
//!
//! What the text gives less than the XML (the XML reader fills these, this one leaves them out):
//! - the summary's tree table has one number per cell, the worst case: a module's best-case
//!   latency and a loop's range of trip counts are only in `<module>_csynth.rpt` (read as
//!   siblings by [`add_siblings`]) or in the caller's instance table. Without them a range
//!   reads as `max ~ max`;
//! - no source locations, no pragma report, no loop latency in ns beyond the summary's worst
//!   case; the target II of a loop is not kept (the model has the achieved one).

use super::table::{table_after, Row, Table};
use super::value::{is_undefined, parse_count, parse_count_range, parse_time_range_ns, Range};
use super::xml::{empty_loop, empty_module, loop_type_is_pipelined, pipeline_of, set_source_lines, version_year};
use super::{read_report, Instance, Loop, MaxiInterface, Module, Report, Resources, MIN_VERSION_YEAR};
use crate::error::{Error, ErrorKind, Result};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Loops and modules nested deeper than this are left out with a warning (as in the XML).
const MAX_NESTING: usize = 64;

/// At most this many warnings are kept; the rest are counted.
const MAX_WARNINGS: usize = 100;

/// What a text synthesis report is, said in errors.
const EXPECTED: &str = "expected a synthesis report written by Vitis HLS or Vivado HLS \
    (csynth.rpt or <module>_csynth.rpt in <solution>/syn/report after `csynth_design`)";

/// The title of the 2022+ summary: `== Synthesis Summary Report of 'top'`.
const SUMMARY_TITLE: &str = "== Synthesis Summary Report of '";
/// The titles of a per-module report: `== Vitis HLS Report for 'module'`.
const MODULE_TITLES: [(&str, &str); 2] =
    [("== Vitis HLS Report for '", "Vitis HLS"), ("== Vivado HLS Report for '", "Vivado HLS")];

/// Which of the two text layouts a file has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Layout {
    /// 2022+ `csynth.rpt`: a tree table of all modules and loops, and the top's interfaces.
    Summary,
    /// `<module>_csynth.rpt` (and 2020.1's `csynth.rpt`): one module in detail.
    PerModule,
}

/// True when one of the first lines is a report title.
pub(super) fn has_title(text: &str) -> bool {
    text.lines().take(50).any(|l| title_of(l).is_some())
}

/// `(layout, tool, module)` from a title line.
fn title_of(line: &str) -> Option<(Layout, &'static str, String)> {
    let t = line.trim();
    let name = |rest: &str| rest.strip_suffix('\'').map(str::to_string);
    if let Some(rest) = t.strip_prefix(SUMMARY_TITLE) {
        return Some((Layout::Summary, "Vitis HLS", name(rest)?));
    }
    MODULE_TITLES.iter().find_map(|(prefix, tool)| Some((Layout::PerModule, *tool, name(t.strip_prefix(prefix)?)?)))
}

struct Ctx<'a> {
    origin: &'a Path,
    warnings: Vec<String>,
    dropped: usize,
}

impl Ctx<'_> {
    fn warn(&mut self, line: usize, what: String) {
        if self.warnings.len() >= MAX_WARNINGS {
            self.dropped += 1;
            return;
        }
        self.warnings.push(format!("{}:{line}: {what}", self.origin.display()));
    }

    fn unreadable(&mut self, row: &Row, text: &str, column: &str, what: &str) {
        let shown: String = text.chars().take(40).collect();
        self.warn(row.line, format!("{column} is {shown:?}, not {what}; read as unknown"));
    }

    /// A count or `min ~ max`; the report's unknowns (`?`, `-`, `undef`) → `None` silently.
    fn count_range(&mut self, row: &Row, col: Option<usize>, column: &str) -> Option<Range<u64>> {
        let text = row.cell(col);
        let v = parse_count_range(text);
        if v.is_none() && !text.split('~').any(is_undefined) {
            self.unreadable(row, text, column, "a count or count range");
        }
        v
    }

    fn count(&mut self, row: &Row, col: Option<usize>, column: &str) -> Option<u64> {
        self.count_range(row, col, column).map(|r| r.max)
    }

    /// A time (`10.00 ns`, `2.600e+03` in ns, `1.057 ms`) or time range, in ns.
    fn time_range(&mut self, row: &Row, col: Option<usize>, column: &str) -> Option<Range<f64>> {
        let text = row.cell(col);
        let v = parse_time_range_ns(text, "ns");
        if v.is_none() && !text.split('~').any(is_undefined) {
            self.unreadable(row, text, column, "a time");
        }
        v
    }

    /// `192 (15%)` → 192. In the summary table `-` is a module using none of the resource.
    fn resource(&mut self, row: &Row, col: Option<usize>, column: &str, dash_is_zero: bool) -> Option<u64> {
        let text = row.cell(col);
        let number = text.split_once('(').map_or(text, |(n, _)| n).trim();
        if dash_is_zero && number == "-" {
            return Some(0);
        }
        let v = parse_count(number);
        if v.is_none() && !is_undefined(number) {
            self.unreadable(row, text, column, "a resource count");
        }
        v
    }

    /// Tables cut short, rows that do not fit the header: warned, the rows left out.
    fn checked_rows<'t>(&mut self, table: &'t Table, what: &str) -> Vec<&'t Row> {
        if table.unclosed {
            self.warn(table.end, format!("the {what} table ends without its border: the file may be cut short"));
        }
        let n = table.columns.len();
        let mut out = Vec::new();
        for row in &table.rows {
            if row.cells.len() == n {
                out.push(row);
            } else {
                self.warn(row.line, format!("{what} row has {} cells, the header {n}; row left out", row.cells.len()));
            }
        }
        out
    }
}

/// The file header: title, version, device.
struct Header {
    layout: Layout,
    tool: &'static str,
    name: String,
    version: String,
    part: Option<String>,
    product_family: Option<String>,
    flow_target: Option<String>,
}

/// A row of a per-module report's instance table: a submodule and its latency as called here.
#[derive(Debug, Clone)]
struct InstanceRow {
    instance: Instance,
    latency: Option<Range<u64>>,
    latency_ns: Option<Range<f64>>,
    interval: Option<Range<u64>>,
}

/// A parsed file before it becomes a [`Report`]: what sibling merging needs besides.
struct Parsed {
    report: Report,
    layout: Layout,
    instance_rows: Vec<InstanceRow>,
}

/// Parse a text report; the layout tells the caller which siblings to read.
pub(super) fn parse_document(text: &str, origin: &Path) -> Result<(Report, Layout)> {
    parse(text, origin).map(|p| (p.report, p.layout))
}

fn parse(text: &str, origin: &Path) -> Result<Parsed> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let lines: Vec<&str> = text.lines().collect();
    let header = header(&lines, origin)?;
    let mut ctx = Ctx { origin, warnings: Vec::new(), dropped: 0 };
    let mut report = Report {
        tool: header.tool.to_string(),
        version: header.version.clone(),
        top: header.name.clone(),
        part: header.part.clone(),
        product_family: header.product_family.clone(),
        flow_target: header.flow_target.clone(),
        target_clock_ns: None,
        clock_uncertainty_ns: None,
        estimated_clock_ns: None,
        available: Resources::default(),
        modules: Vec::new(),
        pragmas: Vec::new(),
        maxi: Vec::new(),
        control: None,
        s_axilite: false,
        files: vec![origin.to_path_buf()],
        warnings: Vec::new(),
    };
    let mut instance_rows = Vec::new();
    match header.layout {
        Layout::Summary => {
            report.modules = summary_modules(&lines, &mut ctx, &header.name)?;
            hw_interfaces(&lines, &mut ctx, &mut report);
        }
        Layout::PerModule => instance_rows = per_module(&lines, &mut ctx, &mut report)?,
    }
    if ctx.dropped > 0 {
        ctx.warnings.push(format!("{}: {} more unreadable values", origin.display(), ctx.dropped));
    }
    report.warnings = ctx.warnings;
    Ok(Parsed { report, layout: header.layout, instance_rows })
}

fn header(lines: &[&str], origin: &Path) -> Result<Header> {
    let bad = |msg: String| Error::new(ErrorKind::BadInput, msg).at(origin);
    let Some((at, (layout, tool, name))) = lines.iter().take(50).enumerate().find_map(|(i, l)| Some((i, title_of(l)?)))
    else {
        return Err(bad(format!(
            "no report title ('== Synthesis Summary Report of' or '== Vitis HLS Report for') in the first 50 lines; {EXPECTED}"
        )));
    };
    // The header runs to the next section title (`== Performance Estimates`, ...).
    let end = (at + 1..lines.len()).find(|&i| lines[i].trim_start().starts_with("== ")).unwrap_or(lines.len());
    let field = |key: &str| -> Option<String> {
        lines[at + 1..end]
            .iter()
            .find_map(|l| {
                l.trim().strip_prefix("* ")?.strip_prefix(key)?.strip_prefix(':').map(|v| v.trim().to_string())
            })
            .filter(|v| !v.is_empty())
    };
    let line = at + 1;
    let version_text = field("Version").ok_or_else(|| {
        bad(format!(
            "no '* Version:' line after the title: cannot tell which tool wrote this report; {EXPECTED}, version \
             {MIN_VERSION_YEAR}.1 or later. Re-run synthesis if the file was cut short"
        ))
        .at_line(line, 1)
    })?;
    // `2022.1 (Build 3526262 on ...)`.
    let version = version_text.split_whitespace().next().unwrap_or("").to_string();
    let year = version_year(&version).ok_or_else(|| {
        bad(format!("report version {version:?} is not a tool version like 2022.1; {EXPECTED}")).at_line(line, 1)
    })?;
    if year < MIN_VERSION_YEAR {
        return Err(bad(format!(
            "report version {version} is not supported: the oldest supported is {MIN_VERSION_YEAR}.1; \
             re-run synthesis with a newer Vivado HLS or Vitis HLS"
        )));
    }
    // `solution1 (Vivado IP Flow Target)` → vivado; `(Vitis Kernel Flow Target)` → vitis.
    let flow_target = field("Solution").and_then(|s| {
        let inner = s.rsplit_once('(')?.1.strip_suffix(')')?;
        inner.contains("Flow Target").then(|| inner.split_whitespace().next().unwrap_or("").to_ascii_lowercase())
    });
    Ok(Header {
        layout,
        tool,
        name,
        version,
        part: field("Target device"),
        product_family: field("Product family"),
        flow_target,
    })
}

/// `(start, end)` of the section titled `== title` (to the next section title).
fn section(lines: &[&str], title: &str) -> Option<(usize, usize)> {
    let start = lines.iter().position(|l| l.trim().strip_prefix("== ").is_some_and(|t| t.trim() == title))?;
    let end = (start + 1..lines.len()).find(|&i| lines[i].trim_start().starts_with("== ")).unwrap_or(lines.len());
    Some((start, end))
}

/// The first line in `from..to` whose trimmed text starts with `prefix`.
fn heading(lines: &[&str], from: usize, to: usize, prefix: &str) -> Option<usize> {
    (from..to.min(lines.len())).find(|&i| lines[i].trim_start().starts_with(prefix))
}

/// The table under `* <item>` below the heading `parent` (`+ Latency`, ...) of a section.
fn table_under(lines: &[&str], sec: (usize, usize), parent: Option<&str>, item: &str) -> Option<Table> {
    let from = match parent {
        Some(p) => heading(lines, sec.0, sec.1, p)?,
        None => sec.0,
    };
    let at = heading(lines, from, sec.1, item)?;
    table_after(lines, at, sec.1)
}

// --- per-module layout --------------------------------------------------------------------------

/// Fill `report` with the one module of a per-module report; returns its instance table.
fn per_module(lines: &[&str], ctx: &mut Ctx, report: &mut Report) -> Result<Vec<InstanceRow>> {
    let mut m = empty_module(report.top.clone());
    let Some(perf) = section(lines, "Performance Estimates") else {
        return Err(Error::new(
            ErrorKind::BadInput,
            format!(
                "no '== Performance Estimates' section: the report was cut short or is of another kind; {EXPECTED}"
            ),
        )
        .at(ctx.origin));
    };
    if let Some(t) = table_under(lines, perf, Some("+ Timing"), "* Summary") {
        if let Some(row) = ctx.checked_rows(&t, "timing").first() {
            let target = ctx.time_range(row, t.col(|c| c == "target"), "Target").map(|r| r.max);
            let estimated = ctx.time_range(row, t.col(|c| c == "estimated"), "Estimated").map(|r| r.max);
            let uncertainty = ctx.time_range(row, t.col(|c| c == "uncertainty"), "Uncertainty").map(|r| r.max);
            (m.target_clock_ns, m.estimated_clock_ns) = (target, estimated);
            (report.target_clock_ns, report.estimated_clock_ns, report.clock_uncertainty_ns) =
                (target, estimated, uncertainty);
        }
    }
    if let Some(t) = table_under(lines, perf, Some("+ Latency"), "* Summary") {
        if let Some(row) = ctx.checked_rows(&t, "latency summary").first() {
            let l = LatencyCols::of(&t);
            (m.latency, m.latency_ns, m.interval) = l.read(ctx, row);
            m.pipeline_type = Some(row.cell(l.kind).to_string()).filter(|t| !t.is_empty());
        }
    }
    let mut instance_rows = Vec::new();
    if let Some(t) = table_under(lines, perf, Some("+ Latency"), "* Instance") {
        let l = LatencyCols::of(&t);
        let (inst, module) = (t.col(|c| c == "instance"), t.col(|c| c == "module"));
        for row in ctx.checked_rows(&t, "instance") {
            let (latency, latency_ns, interval) = l.read(ctx, row);
            let name = row.cell(inst).to_string();
            if name.is_empty() {
                continue;
            }
            let module = Some(row.cell(module).to_string()).filter(|m| !m.is_empty());
            instance_rows.push(InstanceRow { instance: Instance { name, module }, latency, latency_ns, interval });
        }
    }
    m.instances = instance_rows.iter().map(|r| r.instance.clone()).collect();
    if let Some(t) = table_under(lines, perf, Some("+ Latency"), "* Loop") {
        m.loops = loop_table(ctx, &t);
    }
    if let Some(sec) = section(lines, "Utilization Estimates") {
        if let Some(t) = table_under(lines, sec, None, "* Summary") {
            let cols = ResourceCols::of(&t);
            for row in ctx.checked_rows(&t, "utilization") {
                match row.cells.first().map(|c| c.trim()) {
                    Some("Total") => m.resources = cols.read(ctx, row, false),
                    Some("Available") => report.available = cols.read(ctx, row, false),
                    _ => {}
                }
            }
        }
    }
    if let Some(sec) = section(lines, "Interface") {
        if let Some(t) = table_under(lines, sec, None, "* Summary") {
            let protocol = t.col(|c| c == "protocol");
            let protocols: Vec<&str> = t.rows.iter().map(|r| r.cell(protocol)).collect();
            report.control = protocols.iter().find(|p| p.starts_with("ap_ctrl")).map(|p| p.to_string());
            report.s_axilite = protocols.iter().any(|p| *p == "s_axi" || *p == "s_axilite");
        }
    }
    if m.is_pipelined() {
        m.pipeline_ii = m.interval.map(|i| i.min);
    }
    for lp in &mut m.loops {
        set_source_lines(lp);
    }
    m.pipeline_of = pipeline_of(&m.name, &m.loops);
    report.modules.push(m);
    Ok(instance_rows)
}

/// Latency in cycles, in ns, and interval.
type Latencies = (Option<Range<u64>>, Option<Range<f64>>, Option<Range<u64>>);

/// The latency columns of a summary or instance table: cycles, absolute time, interval
/// (min and max each) and the pipeline type.
struct LatencyCols {
    min: Option<usize>,
    max: Option<usize>,
    ns_min: Option<usize>,
    ns_max: Option<usize>,
    int_min: Option<usize>,
    int_max: Option<usize>,
    kind: Option<usize>,
}

impl LatencyCols {
    fn of(t: &Table) -> LatencyCols {
        // Labels: `Latency (cycles) min`, `Latency (absolute) max`, `Interval min`, `Pipeline Type`
        // (older: `Latency min`).
        let cycles =
            |end: &'static str| move |c: &str| c.starts_with("latency") && !c.contains("absolute") && c.ends_with(end);
        let abs = |end: &'static str| move |c: &str| c.contains("absolute") && c.ends_with(end);
        let int = |end: &'static str| move |c: &str| c.starts_with("interval") && c.ends_with(end);
        LatencyCols {
            min: t.col(cycles("min")),
            max: t.col(cycles("max")),
            ns_min: t.col(abs("min")),
            ns_max: t.col(abs("max")),
            int_min: t.col(int("min")),
            int_max: t.col(int("max")),
            kind: t.col(|c| c.ends_with("type")),
        }
    }

    fn read(&self, ctx: &mut Ctx, row: &Row) -> Latencies {
        let pair = |a: Option<u64>, b: Option<u64>| a.zip(b).map(|(a, b)| Range::new(a, b));
        let latency = pair(ctx.count(row, self.min, "latency min"), ctx.count(row, self.max, "latency max"));
        let ns_min = ctx.time_range(row, self.ns_min, "absolute latency min");
        let ns_max = ctx.time_range(row, self.ns_max, "absolute latency max");
        let latency_ns = ns_min.zip(ns_max).map(|(a, b)| Range::new(a.min, b.max));
        let interval = pair(ctx.count(row, self.int_min, "interval min"), ctx.count(row, self.int_max, "interval max"));
        (latency, latency_ns, interval)
    }
}

/// BRAM/DSP/FF/LUT/URAM columns.
struct ResourceCols {
    bram: Option<usize>,
    dsp: Option<usize>,
    ff: Option<usize>,
    lut: Option<usize>,
    uram: Option<usize>,
}

impl ResourceCols {
    fn of(t: &Table) -> ResourceCols {
        ResourceCols {
            bram: t.col(|c| c.starts_with("bram")),
            // `DSP48E` in older versions.
            dsp: t.col(|c| c.starts_with("dsp")),
            ff: t.col(|c| c == "ff"),
            lut: t.col(|c| c == "lut"),
            uram: t.col(|c| c == "uram"),
        }
    }

    fn read(&self, ctx: &mut Ctx, row: &Row, dash_is_zero: bool) -> Resources {
        Resources {
            bram_18k: ctx.resource(row, self.bram, "BRAM", dash_is_zero),
            dsp: ctx.resource(row, self.dsp, "DSP", dash_is_zero),
            ff: ctx.resource(row, self.ff, "FF", dash_is_zero),
            lut: ctx.resource(row, self.lut, "LUT", dash_is_zero),
            uram: ctx.resource(row, self.uram, "URAM", dash_is_zero),
        }
    }
}

/// The per-module loop table; nesting from the name's marker: `- outer`, ` + inner`, `  ++ deeper`.
fn loop_table(ctx: &mut Ctx, t: &Table) -> Vec<Loop> {
    let name = t.col(|c| c.contains("loop name"));
    let l = LatencyCols::of(t);
    let il = t.col(|c| c.starts_with("iteration"));
    let ii = t.col(|c| c.contains("achieved"));
    let tc = t.col(|c| c.starts_with("trip"));
    let piped = t.col(|c| c.starts_with("pipelined"));
    let mut flat = Vec::new();
    for row in ctx.checked_rows(t, "loop") {
        let raw = name.and_then(|i| row.cells.get(i)).map_or("", |c| c.trim_end());
        let text = raw.trim_start();
        let indent = raw.len() - text.len();
        let (depth, text) = match text.strip_prefix('-') {
            Some(rest) => (0, rest),
            None => {
                let plus = text.len() - text.trim_start_matches('+').len();
                (indent.max(plus), text.trim_start_matches('+'))
            }
        };
        let text = text.trim();
        if text.is_empty() {
            continue;
        }
        let mut lp = empty_loop(text.to_string());
        (lp.latency, _, _) = l.read(ctx, row);
        lp.iteration_latency = ctx.count_range(row, il, "Iteration Latency");
        lp.ii = ctx.count(row, ii, "Initiation Interval achieved");
        lp.trip_count = ctx.count_range(row, tc, "Trip Count");
        let p = row.cell(piped);
        lp.pipeline_type = Some(p.to_string()).filter(|p| !p.is_empty());
        lp.pipelined = loop_type_is_pipelined(p);
        if lp.pipelined {
            lp.pipeline_depth = lp.iteration_latency;
        }
        flat.push((row.line, depth, lp));
    }
    nest(ctx, flat)
}

/// Loops with their depth, in table order → a tree. Depth jumps nest under the last loop.
fn nest(ctx: &mut Ctx, flat: Vec<(usize, usize, Loop)>) -> Vec<Loop> {
    let mut roots: Vec<Loop> = Vec::new();
    let mut stack: Vec<(usize, Loop)> = Vec::new();
    fn close(stack: &mut Vec<(usize, Loop)>, roots: &mut Vec<Loop>) {
        if let Some((_, done)) = stack.pop() {
            match stack.last_mut() {
                Some((_, parent)) => parent.children.push(done),
                None => roots.push(done),
            }
        }
    }
    for (line, depth, lp) in flat {
        if depth >= MAX_NESTING {
            ctx.warn(line, format!("loops nested deeper than {MAX_NESTING} levels; the inner ones are left out"));
            continue;
        }
        while stack.last().is_some_and(|(d, _)| *d >= depth) {
            close(&mut stack, &mut roots);
        }
        stack.push((depth, lp));
    }
    while !stack.is_empty() {
        close(&mut stack, &mut roots);
    }
    roots
}

// --- 2022+ summary layout -----------------------------------------------------------------------

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Module,
    Loop,
}

/// A row of the tree table, with its parent row.
struct Node<'t> {
    kind: Kind,
    /// A `*` row: a dataflow region.
    dataflow: bool,
    name: String,
    row: &'t Row,
    parent: Option<usize>,
}

/// The columns of the tree table.
struct TreeCols {
    slack: Option<usize>,
    latency: Option<usize>,
    latency_ns: Option<usize>,
    iteration: Option<usize>,
    interval: Option<usize>,
    trip: Option<usize>,
    pipelined: Option<usize>,
    resources: ResourceCols,
}

/// The modules of the `Performance & Resource Estimates` tree (`+` module, `o` loop,
/// `*` dataflow region; indentation is nesting), submodules before their callers.
fn summary_modules(lines: &[&str], ctx: &mut Ctx, top: &str) -> Result<Vec<Module>> {
    let sec_end = (0..lines.len())
        .find(|&i| lines[i].trim_start().starts_with("== ") && i > 0 && title_of(lines[i]).is_none())
        .unwrap_or(lines.len());
    let table =
        heading(lines, 0, sec_end, "+ Performance & Resource Estimates").and_then(|h| table_after(lines, h, sec_end));
    let origin = ctx.origin;
    let no_table = || {
        Error::new(
            ErrorKind::BadInput,
            format!(
                "no 'Performance & Resource Estimates' table with a row for the top '{top}': the report was cut \
                 short; re-run synthesis, or use csynth.xml"
            ),
        )
        .at(origin)
    };
    let Some(t) = table else { return Err(no_table()) };
    let name_col = t.col(|c| c.starts_with("modules"));
    let cols = TreeCols {
        slack: t.col(|c| c == "slack"),
        latency: t.col(|c| c == "latency (cycles)"),
        latency_ns: t.col(|c| c == "latency (ns)"),
        iteration: t.col(|c| c == "iteration latency"),
        interval: t.col(|c| c == "interval"),
        trip: t.col(|c| c == "trip count"),
        pipelined: t.col(|c| c == "pipelined"),
        resources: ResourceCols::of(&t),
    };
    let rows = ctx.checked_rows(&t, "performance & resource");
    let mut nodes: Vec<Node> = Vec::new();
    let mut stack: Vec<(usize, usize)> = Vec::new(); // (depth, node index)
    for row in rows {
        let raw = name_col.and_then(|i| row.cells.get(i)).map_or("", |c| c.as_str());
        let text = raw.trim_start();
        let depth = raw.len() - text.len();
        let (kind, name) = match text.chars().next() {
            Some('+') | Some('*') => (Kind::Module, text[1..].trim()),
            Some('o') if text[1..].starts_with(' ') => (Kind::Loop, text[1..].trim()),
            _ => {
                ctx.warn(
                    row.line,
                    format!("{:?} is not a module (+), loop (o) or dataflow (*) row; left out", text.trim()),
                );
                continue;
            }
        };
        if depth >= MAX_NESTING {
            ctx.warn(row.line, format!("rows nested deeper than {MAX_NESTING} levels; the inner ones are left out"));
            continue;
        }
        while stack.last().is_some_and(|(d, _)| *d >= depth) {
            stack.pop();
        }
        let parent = stack.last().map(|(_, i)| *i);
        stack.push((depth, nodes.len()));
        let dataflow = text.starts_with('*');
        nodes.push(Node { kind, dataflow, name: name.to_string(), row, parent });
    }
    if !nodes.iter().any(|n| n.kind == Kind::Module && n.name == top) {
        return Err(no_table());
    }
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); nodes.len()];
    let mut roots = Vec::new();
    for (i, n) in nodes.iter().enumerate() {
        match n.parent {
            Some(p) => children[p].push(i),
            None => roots.push(i),
        }
    }
    let tree = Tree { nodes: &nodes, children: &children, cols: &cols };
    let mut out: Vec<Module> = Vec::new();
    for r in roots {
        tree.collect_modules(ctx, r, &mut out);
    }
    Ok(out)
}

struct Tree<'a, 't> {
    nodes: &'a [Node<'t>],
    children: &'a [Vec<usize>],
    cols: &'a TreeCols,
}

impl Tree<'_, '_> {
    /// Modules at and below node `i`, callees first; a module seen before is not added again
    /// (each row is a call site; the module is the same).
    fn collect_modules(&self, ctx: &mut Ctx, i: usize, out: &mut Vec<Module>) {
        for &c in &self.children[i] {
            self.collect_modules(ctx, c, out);
        }
        let n = &self.nodes[i];
        if n.kind == Kind::Module && !out.iter().any(|m| m.name == n.name) {
            let m = self.module(ctx, i);
            out.push(m);
        }
    }

    fn module(&self, ctx: &mut Ctx, i: usize) -> Module {
        let (n, c) = (&self.nodes[i], self.cols);
        let mut m = empty_module(n.name.clone());
        m.latency = ctx.count_range(n.row, c.latency, "Latency (cycles)");
        m.latency_ns = ctx.time_range(n.row, c.latency_ns, "Latency (ns)");
        m.interval = ctx.count_range(n.row, c.interval, "Interval");
        m.pipeline_type = Some(n.row.cell(c.pipelined).to_string()).filter(|t| !is_undefined(t));
        if n.dataflow && m.pipeline_type.is_none() {
            m.pipeline_type = Some("dataflow".to_string());
        }
        m.resources = c.resources.read(ctx, n.row, true);
        m.loops =
            self.children[i].iter().filter(|&&k| self.nodes[k].kind == Kind::Loop).map(|&k| self.lp(ctx, k)).collect();
        m.instances = self.instances_below(i);
        if m.is_pipelined() {
            m.pipeline_ii = m.interval.map(|r| r.min);
        }
        for lp in &mut m.loops {
            set_source_lines(lp);
        }
        m.pipeline_of = pipeline_of(&m.name, &m.loops);
        m
    }

    fn lp(&self, ctx: &mut Ctx, i: usize) -> Loop {
        let (n, c) = (&self.nodes[i], self.cols);
        let mut lp = empty_loop(n.name.clone());
        lp.slack_ns = ctx.time_range(n.row, c.slack, "Slack").map(|r| r.max);
        lp.latency = ctx.count_range(n.row, c.latency, "Latency (cycles)");
        lp.latency_ns = ctx.time_range(n.row, c.latency_ns, "Latency (ns)");
        lp.iteration_latency = ctx.count_range(n.row, c.iteration, "Iteration Latency");
        lp.trip_count = ctx.count_range(n.row, c.trip, "Trip Count");
        let p = n.row.cell(c.pipelined);
        lp.pipeline_type = Some(p.to_string()).filter(|p| !p.is_empty());
        lp.pipelined = loop_type_is_pipelined(p);
        if lp.pipelined {
            // The interval of a pipelined loop is its II.
            lp.ii = ctx.count(n.row, c.interval, "Interval");
            lp.pipeline_depth = lp.iteration_latency;
        }
        for &k in &self.children[i] {
            match self.nodes[k].kind {
                Kind::Loop => lp.children.push(self.lp(ctx, k)),
                Kind::Module => lp.instances.push(self.instance(k)),
            }
        }
        lp
    }

    /// Module rows below module `i` through loops only: the instances it makes.
    fn instances_below(&self, i: usize) -> Vec<Instance> {
        let mut out = Vec::new();
        let mut todo: Vec<usize> = self.children[i].iter().rev().copied().collect();
        while let Some(k) = todo.pop() {
            match self.nodes[k].kind {
                Kind::Module => out.push(self.instance(k)),
                Kind::Loop => todo.extend(self.children[k].iter().rev()),
            }
        }
        out
    }

    /// The tree names modules, not RTL instances: the instance is called after its module
    /// until a `<module>_csynth.rpt` names it (see [`add_siblings`]).
    fn instance(&self, k: usize) -> Instance {
        let name = self.nodes[k].name.clone();
        Instance { module: Some(name.clone()), name }
    }
}

/// `HW Interfaces`: the M_AXI table, S_AXILITE interfaces and the top-level control protocol.
fn hw_interfaces(lines: &[&str], ctx: &mut Ctx, report: &mut Report) {
    let Some(sec) = section(lines, "HW Interfaces") else { return };
    if let Some(t) = table_under(lines, sec, None, "* M_AXI") {
        let name = t.col(|c| c == "interface");
        let width = t.col(|c| c.starts_with("data width"));
        let latency = t.col(|c| c == "latency");
        let rd = t.col(|c| c.starts_with("max read burst"));
        let wr = t.col(|c| c.starts_with("max write burst"));
        let rd_out = t.col(|c| c.starts_with("num read outstanding"));
        let wr_out = t.col(|c| c.starts_with("num write outstanding"));
        for row in ctx.checked_rows(&t, "M_AXI") {
            report.maxi.push(MaxiInterface {
                name: row.cell(name).to_string(),
                data_width: row.cell(width).to_string(),
                latency: ctx.count(row, latency, "Latency"),
                max_read_burst: ctx.count(row, rd, "Max Read Burst Length"),
                max_write_burst: ctx.count(row, wr, "Max Write Burst Length"),
                num_read_outstanding: ctx.count(row, rd_out, "Num Read Outstanding"),
                num_write_outstanding: ctx.count(row, wr_out, "Num Write Outstanding"),
            });
        }
    }
    if let Some(t) = table_under(lines, sec, None, "* S_AXILITE Interfaces") {
        report.s_axilite = !t.rows.is_empty();
    }
    if let Some(t) = table_under(lines, sec, None, "* TOP LEVEL CONTROL") {
        let (name, kind) = (t.col(|c| c == "interface"), t.col(|c| c == "type"));
        report.control = t
            .rows
            .iter()
            .find(|r| r.cell(name) == "ap_ctrl")
            .map(|r| r.cell(kind).to_string())
            .filter(|k| !k.is_empty());
    }
}

// --- sibling files ------------------------------------------------------------------------------

/// Read the `<module>_csynth.rpt` files beside a `csynth.rpt`. Per-module layout (2020.1): add
/// their modules. Summary layout: refine each module of the tree from its own file (best-case
/// latencies, loop ranges, instance names, clocks), and submodules without a file from their
/// caller's instance table. A sibling that cannot be read or is from another version is
/// skipped with a warning.
pub(super) fn add_siblings(report: &mut Report, layout: Layout, top_path: &Path) {
    let dir = match top_path.parent() {
        Some(d) if d.as_os_str().is_empty() => Path::new("."),
        Some(d) => d,
        None => return,
    };
    let candidates: Vec<PathBuf> = match layout {
        Layout::PerModule => {
            let Ok(entries) = std::fs::read_dir(dir) else { return };
            let mut v: Vec<PathBuf> = entries
                .filter_map(|e| e.ok())
                .map(|e| e.path())
                .filter(|p| {
                    p.is_file() && p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.ends_with("_csynth.rpt"))
                })
                .collect();
            v.sort();
            v
        }
        Layout::Summary => {
            report.modules.iter().map(|m| dir.join(format!("{}_csynth.rpt", m.name))).filter(|p| p.is_file()).collect()
        }
    };
    let mut siblings: Vec<Parsed> = Vec::new();
    for sib in candidates {
        match read_report(&sib).and_then(|text| parse(&text, &sib)) {
            Ok(p) if p.layout != Layout::PerModule => {
                report.warnings.push(format!("skipped {}: not a per-module report", sib.display()))
            }
            Ok(p) if p.report.version != report.version => report.warnings.push(format!(
                "skipped {}: version {} differs from {} in {} (left over from another run?)",
                sib.display(),
                p.report.version,
                report.version,
                top_path.display()
            )),
            Ok(p) => siblings.push(p),
            Err(e) => report.warnings.push(format!("skipped {e}")),
        }
    }
    for sib in siblings {
        report.files.extend(sib.report.files.iter().cloned());
        report.warnings.extend(sib.report.warnings.iter().cloned());
        match layout {
            Layout::PerModule => {
                for m in sib.report.modules {
                    // The top's own `<top>_csynth.rpt` repeats what csynth.rpt already says.
                    if report.module(&m.name).is_none() {
                        report.modules.push(m);
                    }
                }
            }
            Layout::Summary => refine(report, sib),
        }
    }
}

/// Merge a module's own report into the summary's view of it.
fn refine(report: &mut Report, sib: Parsed) {
    let Some(own) = sib.report.modules.into_iter().next() else { return };
    if own.name == report.top {
        (report.target_clock_ns, report.estimated_clock_ns, report.clock_uncertainty_ns) =
            (sib.report.target_clock_ns, sib.report.estimated_clock_ns, sib.report.clock_uncertainty_ns);
        report.available = sib.report.available;
    }
    // Callees without a file of their own: their latency as this caller's instance table gives it.
    let has_file: Vec<String> = report.files.iter().filter_map(|f| module_of_file(f)).collect();
    for row in &sib.instance_rows {
        let Some(callee) = row.instance.module.as_deref() else { continue };
        if has_file.iter().any(|n| n == callee) {
            continue;
        }
        if let Some(m) = report.modules.iter_mut().find(|m| m.name == callee) {
            m.latency = row.latency.or(m.latency);
            m.latency_ns = row.latency_ns.or(m.latency_ns);
            m.interval = row.interval.or(m.interval);
        }
    }
    let Some(m) = report.modules.iter_mut().find(|m| m.name == own.name) else { return };
    m.latency = own.latency.or(m.latency);
    m.latency_ns = own.latency_ns.or(m.latency_ns);
    m.interval = own.interval.or(m.interval);
    m.target_clock_ns = own.target_clock_ns;
    m.estimated_clock_ns = own.estimated_clock_ns;
    if !own.resources.is_empty() {
        m.resources = own.resources;
    }
    m.pipeline_ii = if m.is_pipelined() { m.interval.map(|i| i.min) } else { None };
    refine_loops(&mut m.loops, &own.loops, 0);
    name_instances(m, &own.instances);
}

/// `dir/<module>_csynth.rpt` → module.
fn module_of_file(path: &Path) -> Option<String> {
    path.file_name()?.to_str()?.strip_suffix("_csynth.rpt").map(str::to_string)
}

/// Take ranges from the per-module loop table, matched by name in order (the same loop tree).
fn refine_loops(loops: &mut [Loop], own: &[Loop], depth: usize) {
    if depth >= MAX_NESTING {
        return;
    }
    let mut used = vec![false; own.len()];
    for (i, lp) in loops.iter_mut().enumerate() {
        let pick = if own.get(i).is_some_and(|o| !used[i] && o.name == lp.name) {
            Some(i)
        } else {
            (0..own.len()).find(|&j| !used[j] && own[j].name == lp.name)
        };
        let Some(j) = pick else { continue };
        used[j] = true;
        let o = &own[j];
        lp.latency = o.latency.or(lp.latency);
        lp.iteration_latency = o.iteration_latency.or(lp.iteration_latency);
        lp.trip_count = o.trip_count.or(lp.trip_count);
        lp.ii = o.ii.or(lp.ii);
        if lp.pipelined {
            lp.pipeline_depth = lp.iteration_latency;
        }
        refine_loops(&mut lp.children, &o.children, depth + 1);
    }
}

/// Give the tree's instances (named after their module) the RTL names of the module's instance
/// table: one instance of a module takes every call of it (one RTL instance serves them all);
/// several are handed out in order.
fn name_instances(m: &mut Module, table: &[Instance]) {
    let mut by_module: HashMap<&str, Vec<&str>> = HashMap::new();
    for i in table {
        if let Some(module) = i.module.as_deref() {
            by_module.entry(module).or_default().push(&i.name);
        }
    }
    let mut next: HashMap<String, usize> = HashMap::new();
    let mut rename = |inst: &mut Instance| {
        let Some(module) = inst.module.clone() else { return };
        if inst.name != module {
            return;
        }
        let Some(names) = by_module.get(module.as_str()) else { return };
        let k = next.entry(module).or_default();
        if let Some(name) = names.get((*k).min(names.len() - 1)) {
            inst.name = name.to_string();
        }
        *k += 1;
    };
    for inst in &mut m.instances {
        rename(inst);
    }
    let mut seen: Vec<String> = Vec::new();
    m.instances.retain(|i| {
        let dup = seen.contains(&i.name);
        seen.push(i.name.clone());
        !dup
    });
    // Loop instances are the same calls: name them by the same rule, counted afresh.
    let mut next: HashMap<String, usize> = HashMap::new();
    let mut todo: Vec<&mut Loop> = m.loops.iter_mut().rev().collect();
    while let Some(lp) = todo.pop() {
        for inst in &mut lp.instances {
            let Some(module) = inst.module.clone() else { continue };
            let Some(names) = by_module.get(module.as_str()) else { continue };
            if inst.name != module {
                continue;
            }
            let k = next.entry(module).or_default();
            if let Some(name) = names.get((*k).min(names.len() - 1)) {
                inst.name = name.to_string();
            }
            *k += 1;
        }
        todo.extend(lp.children.iter_mut().rev());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles() {
        assert!(
            matches!(title_of("== Synthesis Summary Report of 'k'"), Some((Layout::Summary, "Vitis HLS", n)) if n == "k")
        );
        assert!(
            matches!(title_of(" == Vivado HLS Report for 'a b'"), Some((Layout::PerModule, "Vivado HLS", n)) if n == "a b")
        );
        assert!(title_of("== Vitis HLS Report for 'cut").is_none());
        assert!(title_of("== Performance Estimates").is_none());
    }

    /// A summary row with the widths of [`summary_text`]'s table.
    fn row(cells: [&str; 7]) -> String {
        let w = [14, 6, 9, 9, 6, 10, 5];
        let mut s = String::from("    |");
        for (c, w) in cells.iter().zip(w) {
            s.push_str(&format!("{c:>w$}|"));
        }
        s + "\n"
    }

    fn summary_text(rows: &[[&str; 7]]) -> String {
        let border = "    +--------------+------+---------+---------+------+----------+-----+\n";
        let mut s = String::from("== Synthesis Summary Report of 'top'\n+ General Information:\n");
        s += "    * Version:        2023.1 (Build 1 on today)\n\n+ Performance & Resource Estimates:\n\n";
        s += "    PS: '+' for module; 'o' for loop; '*' for dataflow\n";
        s += border;
        s += &row(["   Modules    ", "      ", " Latency ", "         ", " Trip ", "          ", "     "]);
        s += &row(["   & Loops    ", " Slack", " (cycles)", " Interval", " Count", " Pipelined", " LUT "]);
        s += border;
        for r in rows {
            s += &row(*r);
        }
        s + border
    }

    #[test]
    fn summary_tree_instances_dataflow_and_repeated_modules() {
        let text = summary_text(&[
            ["+ top         ", "1.00", "10 ~ 20", "21", "-", "no", "5"],
            [" * df         ", "1.00", "8", "9", "-", "-", "-"],
            ["  + leaf      ", "1.00", "2", "2", "-", "no", "1"],
            ["  + leaf      ", "1.00", "2", "2", "-", "no", "1"],
            [" o outer      ", "1.00", "10", "-", "2", "no", "-"],
            ["  o inner     ", "1.00", "4", "1", "4", "yes", "-"],
            ["   + leaf     ", "1.00", "2", "2", "-", "no", "1"],
        ]);
        let (rep, layout) = parse_document(&text, Path::new("csynth.rpt")).unwrap();
        assert_eq!(layout, Layout::Summary);
        assert!(rep.warnings.is_empty(), "{:?}", rep.warnings);
        let names: Vec<&str> = rep.modules.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["leaf", "df", "top"], "each module once, callees first");
        let top = rep.top_module().unwrap();
        assert_eq!((top.latency, top.interval), (Some(Range::new(10, 20)), Some(Range::single(21))));
        assert_eq!(top.resources.lut, Some(5));
        assert_eq!(top.submodules(), ["df", "leaf"], "leaf is called in a loop of top");
        let df = rep.module("df").unwrap();
        assert!(df.is_dataflow());
        assert_eq!(df.instances.len(), 2, "two calls, two instances");
        assert_eq!(df.resources.lut, Some(0), "`-` in the summary is none used");
        let inner = &top.loops[0].children[0];
        assert_eq!((inner.name.as_str(), inner.ii, inner.pipelined), ("inner", Some(1), true));
        assert_eq!(inner.instances.len(), 1);
        assert_eq!(inner.instances[0].module.as_deref(), Some("leaf"));
        assert!(top.loops[0].instances.is_empty(), "the call is in the inner loop");
        assert_eq!((top.loops[0].ii, top.loops[0].trip_count), (None, Some(Range::single(2))));
        // A row that is neither module nor loop: warned and left out.
        let text = summary_text(&[
            ["+ top         ", "1.00", "1", "2", "-", "no", "5"],
            ["  ? odd       ", "", "", "", "", "", ""],
        ]);
        let rep = parse_document(&text, Path::new("csynth.rpt")).unwrap().0;
        assert_eq!(rep.warnings.len(), 1, "{:?}", rep.warnings);
    }

    #[test]
    fn loop_table_nesting() {
        let text = "\
+--------------+-----+-----+----------+-----------+-----------+------+----------+
|              |  Latency  | Iteration|  Initiation Interval  | Trip |          |
|  Loop Name   | min | max |  Latency |  achieved |   target  | Count| Pipelined|
+--------------+-----+-----+----------+-----------+-----------+------+----------+
|- outer       |  560|  560|  5 ~ 103 |          -|          -|     8|        no|
| + inner      |   67|   67|         5|          1|          1|    64|       yes|
|  ++ deepest  |    ?|    ?|         1|          1|          1|     ?|       yes|
|- second      |    1|    2|         1|          -|          -|     2|        no|
+--------------+-----+-----+----------+-----------+-----------+------+----------+";
        let lines: Vec<&str> = text.lines().collect();
        let t = super::super::table::read_table(&lines, 0).unwrap();
        let mut ctx = Ctx { origin: Path::new("k_csynth.rpt"), warnings: Vec::new(), dropped: 0 };
        let loops = loop_table(&mut ctx, &t);
        assert!(ctx.warnings.is_empty(), "{:?}", ctx.warnings);
        assert_eq!(loops.len(), 2);
        let outer = &loops[0];
        assert_eq!((outer.iteration_latency, outer.ii, outer.pipelined), (Some(Range::new(5, 103)), None, false));
        let inner = &outer.children[0];
        assert_eq!((inner.name.as_str(), inner.ii, inner.pipeline_depth), ("inner", Some(1), Some(Range::single(5))));
        assert_eq!((inner.children[0].name.as_str(), inner.children[0].latency), ("deepest", None));
        assert_eq!(loops[1].latency, Some(Range::new(1, 2)));
    }
}
