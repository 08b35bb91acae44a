//! The per-module layout (`<module>_csynth.rpt`, and 2020.1's `csynth.rpt`): one module's
//! timing, latency, instance and loop tables, utilization and interface.

/// Fill `report` with the one module of a per-module report; returns its instance table.
use super::{section, table_under, Ctx, InstanceRow, EXPECTED, MAX_NESTING};
use crate::csynth::table::{Row, Table};
use crate::csynth::value::Range;
use crate::csynth::xml::{empty_loop, empty_module, loop_type_is_pipelined, pipeline_of, set_source_lines};
use crate::csynth::{Instance, Loop, Report, Resources};
use crate::error::{Error, ErrorKind, Result};

pub(super) fn per_module(lines: &[&str], ctx: &mut Ctx, report: &mut Report) -> Result<Vec<InstanceRow>> {
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
            let port = t.col(|c| c == "rtl ports");
            let start_port = t.rows.iter().any(|r| r.cell(port).trim() == "ap_start");
            report.control_on_axilite |= report.s_axilite && !start_port;
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
pub(super) struct LatencyCols {
    min: Option<usize>,
    max: Option<usize>,
    ns_min: Option<usize>,
    ns_max: Option<usize>,
    int_min: Option<usize>,
    int_max: Option<usize>,
    kind: Option<usize>,
}

impl LatencyCols {
    pub(super) fn of(t: &Table) -> LatencyCols {
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
pub(super) struct ResourceCols {
    bram: Option<usize>,
    dsp: Option<usize>,
    ff: Option<usize>,
    lut: Option<usize>,
    uram: Option<usize>,
}

impl ResourceCols {
    pub(super) fn of(t: &Table) -> ResourceCols {
        ResourceCols {
            bram: t.col(|c| c.starts_with("bram")),
            // `DSP48E` in older versions.
            dsp: t.col(|c| c.starts_with("dsp")),
            ff: t.col(|c| c == "ff"),
            lut: t.col(|c| c == "lut"),
            uram: t.col(|c| c == "uram"),
        }
    }

    pub(super) fn read(&self, ctx: &mut Ctx, row: &Row, dash_is_zero: bool) -> Resources {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::csynth::table::read_table;
    use std::path::Path;

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
        let t = read_table(&lines, 0).unwrap();
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
