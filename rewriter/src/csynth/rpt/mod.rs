//! From the text synthesis reports to a [`Report`]: the 2022+ summary `csynth.rpt` and the
//! per-module `<module>_csynth.rpt` (every version; in 2020.1 `csynth.rpt` itself has this
//! layout, for the top).
//!
//! What the text gives less than the XML (the XML reader fills these, this one leaves them out):
//! - the summary's tree table has one number per cell, the worst case: a module's best-case
//!   latency and a loop's range of trip counts are only in `<module>_csynth.rpt` (read as
//!   siblings by `add_siblings`) or in the caller's instance table. Without them a range
//!   reads as `max ~ max`;
//! - no source locations, no pragma report, no loop latency in ns beyond the summary's worst
//!   case; the target II of a loop is not kept (the model has the achieved one).

mod module;
mod siblings;
mod summary;

pub(super) use siblings::add_siblings;

use super::table::{table_after, Row, Table};
use super::value::{is_undefined, parse_count, parse_count_range, parse_time_range_ns, Range};
use super::xml::version_year;
use super::{Instance, Report, Resources, MIN_VERSION_YEAR};
use crate::error::{Error, ErrorKind, Result};
use std::path::Path;

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
    /// The release was not written and was taken from the build date: the warning saying so.
    inferred: Option<String>,
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

/// The `M_AXI Burst Information` of a text report (see [`summary::maxi_bursts`]), with the
/// warnings of its rows; `None` when the text has no such section.
pub(super) fn maxi_bursts_of(text: &str, origin: &Path) -> (Option<Vec<crate::csynth::MaxiBurst>>, Vec<String>) {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let lines: Vec<&str> = text.lines().collect();
    let mut ctx = Ctx { origin, warnings: Vec::new(), dropped: 0 };
    let bursts = summary::maxi_bursts(&lines, &mut ctx);
    (bursts, ctx.warnings)
}

fn parse(text: &str, origin: &Path) -> Result<Parsed> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let lines: Vec<&str> = text.lines().collect();
    let header = header(&lines, origin)?;
    let mut ctx = Ctx { origin, warnings: header.inferred.iter().cloned().collect(), dropped: 0 };
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
        maxi_bursts: None,
        control: None,
        s_axilite: false,
        axilite_args: None,
        control_on_axilite: false,
        sw_args: Vec::new(),
        files: vec![origin.to_path_buf()],
        warnings: Vec::new(),
    };
    let mut instance_rows = Vec::new();
    match header.layout {
        Layout::Summary => {
            report.modules = summary::summary_modules(&lines, &mut ctx, &header.name)?;
            summary::hw_interfaces(&lines, &mut ctx, &mut report);
            report.maxi_bursts = summary::maxi_bursts(&lines, &mut ctx);
            summary::sw_interface(&lines, &mut report);
        }
        Layout::PerModule => instance_rows = module::per_module(&lines, &mut ctx, &mut report)?,
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
    // The version line's number (1-based), else the title's.
    let line = (at + 1..end)
        .find(|&i| lines[i].trim().strip_prefix("* ").is_some_and(|l| l.starts_with("Version")))
        .map_or(at + 1, |i| i + 1);
    let version_text = field("Version").ok_or_else(|| {
        bad(format!(
            "no '* Version:' line after the title: cannot tell which tool wrote this report; {EXPECTED}, version \
             {MIN_VERSION_YEAR}.1 or later. Re-run synthesis if the file was cut short"
        ))
        .at_line(line, 1)
    })?;
    // `2022.1 (Build 3526262 on ...)`.
    let mut version = version_text.split_whitespace().next().unwrap_or("").to_string();
    let mut inferred = None;
    if version.starts_with("(Build") && tool == "Vitis HLS" {
        // Some 2025.2 installations leave the release out: `* Version: (Build 6295257 on Nov 12 2025)`.
        if let Some(v) = release_of_build_date(&version_text) {
            // Said once for the run's reports (siblings say the same of their directory).
            let dir = origin.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
            inferred = Some(format!(
                "{}: the reports' '* Version:' lines name no release, `{version_text}`; Vitis HLS {v} is taken from \
                 the build date",
                dir.display()
            ));
            version = v;
        }
    }
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
        inferred,
        part: field("Target device"),
        product_family: field("Product family"),
        flow_target,
    })
}

/// The Vitis HLS release a build of `text`'s date belongs to (`(Build 6295257 on Nov 12 2025)`,
/// `(Build 3526262 on Mon Apr 18 15:48:16 MDT 2022)`): AMD builds the `.1` release in spring
/// (builds of March to August: 2022.1 in April, 2023.1 and 2024.1 in May) and the `.2` in
/// autumn (September to December: 2022.2 and 2023.2 in October, 2024.2 and 2025.2 in November);
/// builds of January and February are updates of the previous year's `.2`. Vitis HLS only
/// (2020 on): Vivado HLS had `.3` and `.4` releases in winter.
fn release_of_build_date(text: &str) -> Option<String> {
    const MONTHS: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
    let date = text.split_once(" on ")?.1;
    let words: Vec<&str> =
        date.split(|c: char| c.is_whitespace() || c == ')' || c == ',').filter(|w| !w.is_empty()).collect();
    let month = words.iter().find_map(|w| MONTHS.iter().position(|m| w.eq_ignore_ascii_case(m)))? + 1;
    let year: u32 = words.iter().rev().find(|w| w.len() == 4 && w.bytes().all(|b| b.is_ascii_digit()))?.parse().ok()?;
    let (year, minor) = match month {
        1 | 2 => (year - 1, 2),
        3..=8 => (year, 1),
        _ => (year, 2),
    };
    (year >= 2020).then(|| format!("{year}.{minor}"))
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
}
