//! The 2022+ summary layout (`csynth.rpt`): the `Performance & Resource Estimates` tree of
//! every module and loop, and the top's `HW Interfaces`.

use super::module::ResourceCols;
use super::{heading, section, table_under, title_of, Ctx, MAX_NESTING};
use crate::csynth::table::{table_after, Row};
use crate::csynth::value::is_undefined;
use crate::csynth::xml::{empty_loop, empty_module, loop_type_is_pipelined, pipeline_of, set_source_lines};
use crate::csynth::{Instance, Loop, MaxiBurst, MaxiInterface, Module, Report, SourceLoc};
use crate::error::{Error, ErrorKind, Result};

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
pub(super) fn summary_modules(lines: &[&str], ctx: &mut Ctx, top: &str) -> Result<Vec<Module>> {
    let sec_end = (0..lines.len())
        .find(|&i| lines[i].trim_start().starts_with("== ") && i > 0 && title_of(lines[i]).is_none())
        .unwrap_or(lines.len());
    // 2022–2025.1 head it `+ Performance & Resource Estimates:`, 2025.2 `* Performance ...`.
    let table = heading(lines, 0, sec_end, "+ Performance & Resource Estimates")
        .or_else(|| heading(lines, 0, sec_end, "* Performance & Resource Estimates"))
        .and_then(|h| table_after(lines, h, sec_end));
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
        // Vitis 2022+ marks a dataflow module by a `*` after its name (`+ top*`); a `*` in
        // front (`* top`) is read the same.
        let (name, starred) = match name.strip_suffix('*') {
            Some(n) => (n.trim_end(), true),
            None => (name, false),
        };
        let dataflow = text.starts_with('*') || (starred && kind == Kind::Module);
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

/// `M_AXI Burst Information` (Vitis 2021.1 on): the rows of `Inferred Burst Summary`. `None`
/// without the section; an empty list when it holds no summary table (`No burst in design`).
pub(super) fn maxi_bursts(lines: &[&str], ctx: &mut Ctx) -> Option<Vec<MaxiBurst>> {
    let sec = section(lines, "M_AXI Burst Information")?;
    let Some(t) = table_under(lines, sec, None, "* Inferred Burst Summary") else { return Some(Vec::new()) };
    let interface = t.col(|c| c == "hw interface");
    let loop_col = t.col(|c| c == "loop");
    let direction = t.col(|c| c == "direction");
    let length = t.col(|c| c == "length");
    let width = t.col(|c| c == "width");
    let location = t.col(|c| c == "location" || c == "loop location");
    let mut out = Vec::new();
    for row in ctx.checked_rows(&t, "Inferred Burst Summary") {
        let len_text = row.cell(length);
        // `variable`: a run whose length is a run-time value.
        let length = if len_text.eq_ignore_ascii_case("variable") { None } else { ctx.count(row, length, "Length") };
        let location = SourceLoc::parse_with_column(row.cell(location));
        out.push(MaxiBurst {
            interface: row.cell(interface).to_string(),
            loop_name: loop_col.map(|_| row.cell(loop_col).to_string()),
            direction: row.cell(direction).to_ascii_lowercase(),
            length,
            width: ctx.count(row, width, "Width"),
            location,
        });
    }
    Some(out)
}

/// `HW Interfaces`: the M_AXI table, S_AXILITE interfaces and the top-level control protocol.
pub(super) fn hw_interfaces(lines: &[&str], ctx: &mut Ctx, report: &mut Report) {
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
    if let Some(t) = table_under(lines, sec, None, "* S_AXILITE Registers") {
        let (i, r, a, d) = (
            t.col(|c| c == "interface"),
            t.col(|c| c == "register"),
            t.col(|c| c == "access"),
            t.col(|c| c == "description"),
        );
        let rows: Vec<[&str; 4]> =
            t.rows.iter().map(|row| [row.cell(i), row.cell(r), row.cell(a), row.cell(d)]).collect();
        report.axilite_args = crate::csynth::control_bundle_args(&rows);
        report.control_on_axilite |= report.axilite_args.is_some();
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

/// `SW I/O Information` (2021+): the top's arguments, their direction and the hardware each
/// maps to.
pub(super) fn sw_interface(lines: &[&str], report: &mut Report) {
    let Some(sec) = section(lines, "SW I/O Information") else { return };
    let Some(args) = table_under(lines, sec, None, "* Top Function Arguments") else { return };
    let (a, d) = (args.col(|c| c == "argument"), args.col(|c| c == "direction"));
    let arg_rows: Vec<[&str; 2]> = args.rows.iter().map(|r| [r.cell(a), r.cell(d)]).collect();
    let mapping = table_under(lines, sec, None, "* SW-to-HW Mapping");
    let map_rows: Vec<[&str; 3]> = mapping
        .as_ref()
        .map(|t| {
            // 2021–2022 head the column `HW Interface`, later releases `HW Name`.
            let n = t.col(|c| c == "hw name" || c == "hw interface");
            let (a, ty) = (t.col(|c| c == "argument"), t.col(|c| c == "hw type"));
            t.rows.iter().map(|r| [r.cell(a), r.cell(n), r.cell(ty)]).collect()
        })
        .unwrap_or_default();
    report.sw_args = crate::csynth::sw_args(&arg_rows, &map_rows);
}

#[cfg(test)]
mod tests {
    use super::super::{parse_document, Layout};
    use crate::csynth::value::Range;
    use std::path::Path;

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

    /// Vitis 2025.2 heads the tree `* Performance & Resource Estimates:` and moves the latency
    /// columns to the right of `Pipelined`, after a `Violation Type` column.
    #[test]
    fn the_2025_2_heading_and_column_order() {
        let border =
            "+------------------+------+-------------+----------+---------+------+----------+---------+----------+\n";
        let mut text = String::from("== Synthesis Summary Report of 'top'\n+ General Information: \n");
        text += "    * Version:        2025.2 (Build 1 on today)\n\n* Performance & Resource Estimates: \n";
        text += border;
        text +=
            "|     Modules      | Issue|             | Iteration|         | Trip |          |      Latency       |\n";
        text +=
            "|     & Loops      | Type |Violation Type|  Latency | Interval| Count| Pipelined| (cycles)|   (ns)   |\n";
        text += border;
        text +=
            "|+ top             |     -|            -|         -|     1366|     -|        no|     1365| 1.365e+04|\n";
        text +=
            "| o L1             |    II|  Resource Li|        63|        9|   150|       yes|     1363| 1.363e+04|\n";
        text += border;
        text += "    Name Prefix: '+' for module, 'o' for loop, '*' for dataflow\n";
        let (rep, layout) = parse_document(&text, Path::new("csynth.rpt")).unwrap();
        assert_eq!(layout, Layout::Summary);
        let top = rep.top_module().expect("the top's row");
        assert_eq!((top.latency, top.interval), (Some(Range::single(1365)), Some(Range::single(1366))));
        let l = &top.loops[0];
        assert_eq!((l.name.as_str(), l.ii, l.trip_count), ("L1", Some(9), Some(Range::single(150))));
        assert_eq!(l.iteration_latency, Some(Range::single(63)));
    }

    /// Some Vitis 2025.2 reports leave the release out of the version line (a public one:
    /// `* Version:         (Build 6295257 on Nov 12 2025)`): it is taken from the build date,
    /// and a warning says so. Release months: spring `.1`, autumn `.2`, winter an update of the
    /// `.2` before.
    #[test]
    fn a_version_line_without_its_release_is_read_from_the_build_date() {
        let text = summary_text(&[["+ top         ", "1.00", "31", "32", "-", "no", "5"]])
            .replace("2023.1 (Build 1 on today)", " (Build 6295257 on Nov 12 2025)");
        let (rep, _) = parse_document(&text, Path::new("csynth.rpt")).unwrap();
        assert_eq!(rep.version, "2025.2");
        assert!(rep.warnings.iter().any(|w| w.contains("build date") && w.contains("2025.2")), "{:?}", rep.warnings);
        for (date, release) in [
            ("(Build 3526262 on Mon Apr 18 15:48:16 MDT 2022)", Some("2022.1")),
            ("(Build 3670227 on Oct 13 2022)", Some("2022.2")),
            ("(Build 5069499 on May 21 2024)", Some("2024.1")),
            ("(Build 1 on Feb 2 2024)", Some("2023.2")),
            ("(Build 1 on Dec 2 2018)", None),
            ("(Build 1 on today)", None),
        ] {
            assert_eq!(super::super::release_of_build_date(date).as_deref(), release, "{date}");
        }
    }

    /// `SW I/O Information` as Vitis 2021.1 writes it: an array split into two memories on the
    /// control bundle, an output scalar there (a register and its `_ctrl`), an m_axi pointer.
    #[test]
    fn sw_io_directions_and_memories_on_the_bundle() {
        let mut text = summary_text(&[["+ top         ", "1.00", "31", "32", "-", "no", "5"]]);
        text += "\n\n================================================================\n== SW I/O Information\n\
                 ================================================================\n* Top Function Arguments\n\
                 +----------+-----------+----------------+\n| Argument | Direction | Datatype       |\n\
                 +----------+-----------+----------------+\n| A        | in        | unsigned char* |\n\
                 | C        | out       | int*           |\n| P        | inout     | int*           |\n\
                 +----------+-----------+----------------+\n\n* SW-to-HW Mapping\n\
                 +----------+----------------------+-----------+------------------------+\n\
                 | Argument | HW Name              | HW Type   | HW Info                |\n\
                 +----------+----------------------+-----------+------------------------+\n\
                 | A        | s_axi_control        | interface |                        |\n\
                 | A        | s_axi_control        | interface |                        |\n\
                 | C        | s_axi_control C      | register  | offset=0x110, range=32 |\n\
                 | C        | s_axi_control C_ctrl | register  | offset=0x114, range=32 |\n\
                 | P        | m_axi_gmem           | interface |                        |\n\
                 +----------+----------------------+-----------+------------------------+\n";
        let (rep, _) = parse_document(&text, Path::new("csynth.rpt")).unwrap();
        let dirs: Vec<(&str, &str, usize)> =
            rep.sw_args.iter().map(|a| (a.name.as_str(), a.direction.as_str(), a.axilite_memories())).collect();
        assert_eq!(dirs, [("A", "in", 2), ("C", "out", 0), ("P", "inout", 0)]);
        assert_eq!(rep.sw_args[1].hw[0], ("s_axi_control C".to_string(), "register".to_string()));
        // Vitis 2022.1 calls such a row's type `memory` (the public `fir_n11_strm`'s `an32Coef`).
        let older = text.replace(
            "| A        | s_axi_control        | interface |",
            "| A        | s_axi_control        | memory    |",
        );
        let (rep, _) = parse_document(&older, Path::new("csynth.rpt")).unwrap();
        assert_eq!(rep.sw_args[0].axilite_memories(), 2);
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
        // Vitis 2022+ writes the `*` after a dataflow module's name (`|+ vadd*  |`).
        let text = summary_text(&[
            ["+ top*        ", "1.00", "30", "31", "-", "dataflow", "5"],
            [" + a_proc1    ", "1.00", "20", "20", "-", "no", "1"],
            [" + b*         ", "1.00", "12", "12", "-", "dataflow", "1"],
        ]);
        let (rep, _) = parse_document(&text, Path::new("csynth.rpt")).unwrap();
        assert!(rep.warnings.is_empty(), "{:?}", rep.warnings);
        let top = rep.top_module().expect("the top, its name without the star");
        assert_eq!((top.name.as_str(), top.is_dataflow(), top.latency), ("top", true, Some(Range::single(30))));
        assert_eq!(top.submodules(), ["a_proc1", "b"]);
        assert!(rep.module("b").unwrap().is_dataflow() && !rep.module("a_proc1").unwrap().is_dataflow());
        // A row that is neither module nor loop: warned and left out.
        let text = summary_text(&[
            ["+ top         ", "1.00", "1", "2", "-", "no", "5"],
            ["  ? odd       ", "", "", "", "", "", ""],
        ]);
        let rep = parse_document(&text, Path::new("csynth.rpt")).unwrap().0;
        assert_eq!(rep.warnings.len(), 1, "{:?}", rep.warnings);
    }
}
