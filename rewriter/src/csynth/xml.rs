//! From the XML tree of a csynth.xml to a [`Report`].

use super::value::{
    is_undefined, parse_count, parse_count_range, parse_number, parse_time_range_ns, split_copy_suffix, Range,
};
use super::{
    Instance, Loop, MaxiInterface, Module, PipelineOf, Pragma, Report, Resources, SourceLoc, MIN_VERSION_YEAR,
};
use crate::error::{Error, ErrorKind, Result};
use roxmltree::{Document, Node};
use std::collections::HashMap;
use std::path::Path;

/// Loops nested deeper than this are cut off with a warning (guards the recursion).
const MAX_NESTING: usize = 64;

/// At most this many warnings are kept; the rest are counted.
const MAX_WARNINGS: usize = 100;

/// What a csynth.xml is, said in errors.
const EXPECTED: &str = "expected a csynth.xml written by Vitis HLS or Vivado HLS \
    (<solution>/syn/report/csynth.xml after `csynth_design`)";

/// Children of a loop element that are fields, not nested loops.
const LOOP_FIELDS: &[&str] = &[
    "Name",
    "Slack",
    "TripCount",
    "Latency",
    "AbsoluteTimeLatency",
    "IterationLatency",
    "PipelineII",
    "PipelineDepth",
    "PipelineType",
    "InstanceList",
];

/// Children that make an unknown element a loop: a nested loop always has one of these.
const LOOP_MARKERS: &[&str] = &["Name", "TripCount", "Latency", "IterationLatency", "PipelineII", "PipelineDepth"];

struct Ctx<'a, 'i> {
    doc: &'a Document<'i>,
    origin: &'a Path,
    /// `<UserAssignments><unit>`: the unit of bare times.
    unit: String,
    warnings: Vec<String>,
    dropped_warnings: usize,
}

impl Ctx<'_, '_> {
    fn warn(&mut self, node: Node, what: String) {
        if self.warnings.len() >= MAX_WARNINGS {
            self.dropped_warnings += 1;
            return;
        }
        let pos = self.doc.text_pos_at(node.range().start);
        self.warnings.push(format!("{}:{}:{}: {what}", self.origin.display(), pos.row, pos.col));
    }

    /// A count field; garbage → `None` and a warning. A range where one value is expected
    /// gives its worst case (max).
    fn count(&mut self, node: Node) -> Option<u64> {
        let text = text_of(node);
        if let Some(v) = parse_count(&text) {
            return Some(v);
        }
        if is_undefined(&text) && child(node, "range").is_none() {
            return None;
        }
        self.count_range(node).map(|r| r.max)
    }

    /// A count or count range: `n`, `a ~ b` or `<range><min/><max/></range>`.
    fn count_range(&mut self, node: Node) -> Option<Range<u64>> {
        if let Some(r) = child(node, "range") {
            let min = child(r, "min").map(text_of).unwrap_or_default();
            let max = child(r, "max").map(text_of).unwrap_or_default();
            return match (parse_count(&min), parse_count(&max)) {
                (Some(a), Some(b)) => Some(Range::new(a, b)),
                _ => {
                    if !(is_undefined(&min) || is_undefined(&max)) {
                        self.unreadable(node, &format!("{min} ~ {max}"), "a count range");
                    }
                    None
                }
            };
        }
        let text = text_of(node);
        let v = parse_count_range(&text);
        if v.is_none() && !text.split('~').any(is_undefined) {
            self.unreadable(node, &text, "a count or count range");
        }
        v
    }

    /// A time or time range in ns.
    fn time_range(&mut self, node: Node) -> Option<Range<f64>> {
        let unit = self.unit.clone();
        if let Some(r) = child(node, "range") {
            let min = child(r, "min").map(text_of).unwrap_or_default();
            let max = child(r, "max").map(text_of).unwrap_or_default();
            let t = |s: &str| parse_time_range_ns(s, &unit).map(|r| r.min);
            return match (t(&min), t(&max)) {
                (Some(a), Some(b)) => Some(Range::new(a, b)),
                _ => {
                    if !(is_undefined(&min) || is_undefined(&max)) {
                        self.unreadable(node, &format!("{min} ~ {max}"), "a time range");
                    }
                    None
                }
            };
        }
        let text = text_of(node);
        let v = parse_time_range_ns(&text, &unit);
        if v.is_none() && !text.split('~').any(is_undefined) {
            self.unreadable(node, &text, "a time");
        }
        v
    }

    /// A single time in ns (clock periods).
    fn time(&mut self, node: Node) -> Option<f64> {
        self.time_range(node).map(|r| r.max)
    }

    fn number(&mut self, node: Node) -> Option<f64> {
        let text = text_of(node);
        let v = parse_number(&text);
        if v.is_none() && !is_undefined(&text) {
            self.unreadable(node, &text, "a number");
        }
        v
    }

    fn unreadable(&mut self, node: Node, text: &str, what: &str) {
        let shown: String = text.chars().take(40).collect();
        self.warn(node, format!("<{}> has {shown:?}, not {what}; read as unknown", node.tag_name().name()));
    }
}

/// Parse a document; the flag tells whether it had `<ModuleInformation>` (2022+ layout).
pub(super) fn parse_document(text: &str, origin: &Path) -> Result<(Report, bool)> {
    let bad = |msg: String| Error::new(ErrorKind::BadInput, msg).at(origin);
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let doc = Document::parse(text).map_err(|e| {
        let pos = e.pos();
        bad(format!("not well-formed XML ({e}); {EXPECTED}")).at_line(pos.row as usize, pos.col as usize)
    })?;
    let root = doc.root_element();
    if root.tag_name().name() != "profile" {
        let pos = doc.text_pos_at(root.range().start);
        return Err(bad(format!(
            "root element is <{}>, not <profile>: this XML is not an HLS synthesis report; {EXPECTED}",
            root.tag_name().name()
        ))
        .at_line(pos.row as usize, pos.col as usize));
    }

    let version = child_path(root, &["ReportVersion", "Version"]).map(text_of).unwrap_or_default();
    if version.is_empty() {
        return Err(bad(format!(
            "no <ReportVersion><Version>: cannot tell which tool wrote this report; {EXPECTED}, \
             version {MIN_VERSION_YEAR}.1 or later. Re-run synthesis if the file was cut short; some Vitis \
             2025.2 installations leave the version blank: give the csynth.rpt of the same run instead"
        )));
    }
    let year = version_year(&version).ok_or_else(|| {
        bad(format!(
            "report version {version:?} is not a tool version like 2022.1; {EXPECTED}, version {MIN_VERSION_YEAR}.1 or later"
        ))
    })?;
    if year < MIN_VERSION_YEAR {
        return Err(bad(format!(
            "report version {version} is not supported: the oldest supported is {MIN_VERSION_YEAR}.1; \
             re-run synthesis with a newer Vivado HLS or Vitis HLS"
        )));
    }

    let ua = child(root, "UserAssignments");
    let ua_text = |name: &str| ua.and_then(|u| child(u, name)).map(text_of).filter(|t| !is_undefined(t));
    let top = ua_text("TopModelName").ok_or_else(|| {
        bad(format!(
            "no <UserAssignments><TopModelName>: the report does not say which function is the top; {EXPECTED}"
        ))
    })?;
    let flow_target = ua_text("FlowTarget");
    let tool = if year > 2020 || (year == 2020 && flow_target.is_some()) { "Vitis HLS" } else { "Vivado HLS" };

    let mut ctx = Ctx {
        doc: &doc,
        origin,
        unit: ua_text("unit").unwrap_or_else(|| "ns".to_string()),
        warnings: Vec::new(),
        dropped_warnings: 0,
    };
    let target_clock_ns = ua.and_then(|u| child(u, "TargetClockPeriod")).and_then(|n| ctx.time(n));
    let clock_uncertainty_ns = ua.and_then(|u| child(u, "ClockUncertainty")).and_then(|n| ctx.time(n));
    let estimated_clock_ns =
        child_path(root, &["PerformanceEstimates", "SummaryOfTimingAnalysis", "EstimatedClockPeriod"])
            .and_then(|n| ctx.time(n));
    let available =
        child_path(root, &["AreaEstimates", "AvailableResources"]).map(|n| resources(&mut ctx, n)).unwrap_or_default();

    let hierarchy = child(root, "RTLDesignHierarchy").map(|h| design_hierarchy(&mut ctx, h)).unwrap_or_default();

    let module_info: Vec<Node> =
        child(root, "ModuleInformation").map(|mi| children(mi, "Module").collect()).unwrap_or_default();
    let has_module_info = !module_info.is_empty();
    let mut modules: Vec<Module> = module_info.into_iter().map(|m| info_module(&mut ctx, m)).collect();
    if !modules.iter().any(|m| m.name == top) {
        // 2020.1 layout (and per-module files): the top-level sections describe the top module.
        let mut m = legacy_module(&mut ctx, root, &top);
        m.target_clock_ns = target_clock_ns;
        modules.push(m);
    }
    resolve_instances(&mut modules, &hierarchy);

    let pragmas = child(root, "PragmaReport").map(|p| children(p, "Pragma").map(pragma).collect()).unwrap_or_default();

    let (maxi, control, s_axilite, axilite_args) = hw_interfaces(root);
    let start_port = child(root, "InterfaceSummary")
        .is_some_and(|s| children(s, "RtlPorts").filter_map(|p| child(p, "name")).any(|n| text_of(n) == "ap_start"));
    let control_on_axilite = axilite_args.is_some() || (s_axilite && !start_port);

    if ctx.dropped_warnings > 0 {
        ctx.warnings.push(format!("{}: {} more unreadable values", origin.display(), ctx.dropped_warnings));
    }
    let report = Report {
        tool: tool.to_string(),
        version,
        top,
        part: ua_text("Part"),
        product_family: ua_text("ProductFamily"),
        flow_target,
        target_clock_ns,
        clock_uncertainty_ns,
        estimated_clock_ns,
        available,
        modules,
        pragmas,
        maxi,
        maxi_bursts: maxi_bursts(root),
        control,
        s_axilite,
        control_on_axilite,
        axilite_args,
        sw_args: sw_interface(root),
        files: vec![origin.to_path_buf()],
        warnings: ctx.warnings,
    };
    Ok((report, has_module_info))
}

/// Whether a well-formed report's `<ReportVersion><Version>` is there but blank, as some Vitis
/// 2025.2 installations write it (their `csynth.rpt` dates the build, see `rpt::header`).
pub(super) fn version_is_blank(text: &str) -> bool {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    Document::parse(text).ok().is_some_and(|doc| {
        child_path(doc.root_element(), &["ReportVersion", "Version"]).is_some_and(|v| text_of(v).trim().is_empty())
    })
}

/// `2022.1` → 2022; also `2019.2.1`. `None` unless it starts with a 4-digit year and a dot.
pub(super) fn version_year(version: &str) -> Option<u32> {
    let (year, rest) = version.trim().split_once('.')?;
    let minor = rest.split('.').next()?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if year.len() != 4 || !digits(year) || !digits(minor) {
        return None;
    }
    year.parse().ok()
}

/// A module of `<ModuleInformation>` (2022+).
fn info_module(ctx: &mut Ctx, node: Node) -> Module {
    let name = child(node, "Name").map(text_of).unwrap_or_default();
    let perf = child(node, "PerformanceEstimates");
    let timing = perf.and_then(|p| child(p, "SummaryOfTimingAnalysis"));
    let overall = perf.and_then(|p| child(p, "SummaryOfOverallLatency"));
    let mut m = empty_module(name);
    m.target_clock_ns = timing.and_then(|t| child(t, "TargetClockPeriod")).and_then(|n| ctx.time(n));
    m.estimated_clock_ns = timing.and_then(|t| child(t, "EstimatedClockPeriod")).and_then(|n| ctx.time(n));
    if let Some(o) = overall {
        overall_latency(ctx, o, &mut m);
        m.interval = child(o, "PipelineInitiationInterval").and_then(|n| ctx.count_range(n));
        m.pipeline_type = child(o, "PipelineType").map(text_of).filter(|t| !t.is_empty());
    }
    fill_loops_and_more(ctx, node, perf, &mut m);
    m
}

/// The module described by the top-level sections (2020.1 layout, per-module files, and the
/// top's summary in every layout).
fn legacy_module(ctx: &mut Ctx, root: Node, name: &str) -> Module {
    let perf = child(root, "PerformanceEstimates");
    let mut m = empty_module(name.to_string());
    m.estimated_clock_ns = perf
        .and_then(|p| child_path(p, &["SummaryOfTimingAnalysis", "EstimatedClockPeriod"]))
        .and_then(|n| ctx.time(n));
    m.pipeline_type = perf.and_then(|p| child(p, "PipelineType")).map(text_of).filter(|t| !t.is_empty());
    if let Some(o) = perf.and_then(|p| child(p, "SummaryOfOverallLatency")) {
        overall_latency(ctx, o, &mut m);
        let lo = child(o, "Interval-min").and_then(|n| ctx.count(n));
        let hi = child(o, "Interval-max").and_then(|n| ctx.count(n));
        m.interval = lo.zip(hi).map(|(a, b)| Range::new(a, b));
    }
    fill_loops_and_more(ctx, root, perf, &mut m);
    m
}

pub(super) fn empty_module(name: String) -> Module {
    Module {
        name,
        latency: None,
        latency_ns: None,
        interval: None,
        pipeline_type: None,
        pipeline_ii: None,
        target_clock_ns: None,
        estimated_clock_ns: None,
        resources: Resources::default(),
        loops: Vec::new(),
        instances: Vec::new(),
        pipeline_of: None,
        source: None,
    }
}

/// Best/worst-case latency in cycles and ns.
fn overall_latency(ctx: &mut Ctx, o: Node, m: &mut Module) {
    let best = child(o, "Best-caseLatency").and_then(|n| ctx.count(n));
    let worst = child(o, "Worst-caseLatency").and_then(|n| ctx.count(n));
    m.latency = best.zip(worst).map(|(a, b)| Range::new(a, b));
    let best = child(o, "Best-caseRealTimeLatency").and_then(|n| ctx.time_range(n));
    let worst = child(o, "Worst-caseRealTimeLatency").and_then(|n| ctx.time_range(n));
    m.latency_ns = best.zip(worst).map(|(a, b)| Range::new(a.min, b.max));
}

/// Loops, violations (source locations), resources, and what follows from them.
fn fill_loops_and_more(ctx: &mut Ctx, module_node: Node, perf: Option<Node>, m: &mut Module) {
    let summary = perf.and_then(|p| child(p, "SummaryOfLoopLatency"));
    m.loops = match summary {
        Some(s) => loop_children(ctx, s, 0),
        // No latency summary: the `<Loops>` name tree still tells which loops there are.
        None => child(module_node, "Loops").map(|l| name_tree(ctx, l, 0)).unwrap_or_default(),
    };
    if let Some(v) = perf.and_then(|p| child(p, "SummaryOfViolations")) {
        m.source = child(v, "SourceLocation").and_then(|n| source_chain(&text_of(n)).into_iter().next());
        if let Some(lv) = child(v, "SummaryOfLoopViolations") {
            attach_locations(&mut m.loops, lv, 0);
        }
    }
    for lp in &mut m.loops {
        set_source_lines(lp);
    }
    let res = child(module_node, "AreaEstimates").and_then(|a| child(a, "Resources"));
    m.resources = res.map(|r| resources(ctx, r)).unwrap_or_default();
    if m.is_pipelined() {
        m.pipeline_ii = m.interval.map(|i| i.min);
    }
    m.pipeline_of = pipeline_of(&m.name, &m.loops);
}

/// Loop elements under `parent` (a `<SummaryOfLoopLatency>` or a loop).
fn loop_children(ctx: &mut Ctx, parent: Node, depth: usize) -> Vec<Loop> {
    let mut out = Vec::new();
    for c in parent.children().filter(|c| c.is_element()) {
        let tag = c.tag_name().name();
        if LOOP_FIELDS.contains(&tag) || !is_loop_element(c) {
            continue;
        }
        if depth >= MAX_NESTING {
            ctx.warn(c, format!("loops nested deeper than {MAX_NESTING} levels; the inner ones are left out"));
            break;
        }
        out.push(loop_node(ctx, c, depth));
    }
    out
}

/// An element with loop fields: a nested loop, not a field added by a newer version.
fn is_loop_element(node: Node) -> bool {
    node.children().any(|c| c.is_element() && LOOP_MARKERS.contains(&c.tag_name().name()))
}

fn loop_node(ctx: &mut Ctx, node: Node, depth: usize) -> Loop {
    let name =
        child(node, "Name").map(text_of).filter(|n| !n.is_empty()).unwrap_or_else(|| node.tag_name().name().into());
    let mut lp = empty_loop(name);
    let mut depth_ii = None;
    for c in node.children().filter(|c| c.is_element()) {
        match c.tag_name().name() {
            "TripCount" => lp.trip_count = ctx.count_range(c),
            "Latency" => lp.latency = ctx.count_range(c),
            "AbsoluteTimeLatency" => lp.latency_ns = ctx.time_range(c),
            "IterationLatency" => lp.iteration_latency = ctx.count_range(c),
            "PipelineII" => depth_ii = Some(c),
            "PipelineDepth" => lp.pipeline_depth = ctx.count_range(c),
            "PipelineType" => lp.pipeline_type = Some(text_of(c)).filter(|t| !t.is_empty()),
            "Slack" => lp.slack_ns = ctx.number(c),
            "InstanceList" => {
                lp.instances = children(c, "Instance")
                    .map(text_of)
                    .filter(|t| !t.is_empty())
                    .map(|name| Instance { name, module: None })
                    .collect()
            }
            _ => {}
        }
    }
    lp.ii = depth_ii.and_then(|n| ctx.count(n));
    lp.pipelined = match lp.pipeline_type.as_deref() {
        Some(t) => loop_type_is_pipelined(t),
        None => lp.ii.is_some(),
    };
    if lp.iteration_latency.is_none() {
        lp.iteration_latency = lp.pipeline_depth;
    }
    lp.children = loop_children(ctx, node, depth + 1);
    lp
}

pub(super) fn empty_loop(name: String) -> Loop {
    let copy = split_copy_suffix(&name).1;
    Loop {
        name,
        copy,
        trip_count: None,
        ii: None,
        iteration_latency: None,
        pipeline_depth: None,
        latency: None,
        latency_ns: None,
        pipelined: false,
        pipeline_type: None,
        slack_ns: None,
        source_line: None,
        source: None,
        inlined_at: Vec::new(),
        instances: Vec::new(),
        children: Vec::new(),
    }
}

/// The `<Loops>` tree: names only.
fn name_tree(ctx: &mut Ctx, parent: Node, depth: usize) -> Vec<Loop> {
    let mut out = Vec::new();
    for c in parent.children().filter(|c| c.is_element()) {
        if depth >= MAX_NESTING {
            ctx.warn(c, format!("loops nested deeper than {MAX_NESTING} levels; the inner ones are left out"));
            break;
        }
        let mut lp = empty_loop(c.tag_name().name().to_string());
        lp.children = name_tree(ctx, c, depth + 1);
        out.push(lp);
    }
    out
}

/// Copy `<SourceLocation>`s from the `<SummaryOfLoopViolations>` tree, which mirrors the loop
/// tree: matched by position when the names agree, else by the first unused sibling of the
/// same name (names repeat: an inlined function's loops appear once per call site).
fn attach_locations(loops: &mut [Loop], parent: Node, depth: usize) {
    if depth >= MAX_NESTING {
        return;
    }
    let vloops: Vec<Node> = parent.children().filter(|c| c.is_element() && child(*c, "Name").is_some()).collect();
    let mut used = vec![false; vloops.len()];
    for (i, lp) in loops.iter_mut().enumerate() {
        let name_of = |n: &Node| child(*n, "Name").map(text_of).unwrap_or_default();
        let pick = if vloops.get(i).is_some_and(|v| !used[i] && name_of(v) == lp.name) {
            Some(i)
        } else {
            (0..vloops.len()).find(|&j| !used[j] && name_of(&vloops[j]) == lp.name)
        };
        let Some(j) = pick else { continue };
        used[j] = true;
        let v = vloops[j];
        if let Some(loc) = child(v, "SourceLocation") {
            let mut chain = source_chain(&text_of(loc)).into_iter();
            lp.source = chain.next();
            lp.inlined_at = chain.collect();
        }
        attach_locations(&mut lp.children, v, depth + 1);
    }
}

/// `a.h:93~a.h:165~k.cpp:39` → locations, innermost first. Unreadable parts are dropped.
fn source_chain(text: &str) -> Vec<SourceLoc> {
    text.split('~').filter_map(SourceLoc::parse).collect()
}

/// The line from a plain `VITIS_LOOP_<line>_<n>` name, else from `<SourceLocation>`.
pub(super) fn set_source_lines(lp: &mut Loop) {
    lp.source_line = lp.vitis_lines().first().copied().or(lp.source.as_ref().map(|s| s.line));
    for c in &mut lp.children {
        set_source_lines(c);
    }
}

fn resources(ctx: &mut Ctx, node: Node) -> Resources {
    let mut get = |name: &str| child(node, name).and_then(|n| ctx.count(n));
    Resources { lut: get("LUT"), ff: get("FF"), bram_18k: get("BRAM_18K"), dsp: get("DSP"), uram: get("URAM") }
}

/// `<func>_Pipeline_<loop>`: matched against the module's outer loop when it has one, so
/// numbered duplicates (`..._Pipeline_VITIS_LOOP_20_12`) still name the right loop.
pub(super) fn pipeline_of(name: &str, loops: &[Loop]) -> Option<PipelineOf> {
    const SEP: &str = "_Pipeline_";
    if let [only] = loops {
        if let Some(function) = name.strip_suffix(&only.name).and_then(|p| p.strip_suffix(SEP)) {
            if !function.is_empty() {
                return Some(PipelineOf { function: function.to_string(), loop_name: only.name.clone() });
            }
        }
    }
    let i = name.rfind(SEP)?;
    let (function, suffix) = (&name[..i], &name[i + SEP.len()..]);
    if function.is_empty() || suffix.is_empty() {
        return None;
    }
    let loop_name = match loops {
        [only] => only.name.clone(),
        _ => suffix.to_string(),
    };
    Some(PipelineOf { function: function.to_string(), loop_name })
}

/// A loop's `<PipelineType>`: anything but a "no" is a pipeline.
pub(super) fn loop_type_is_pipelined(t: &str) -> bool {
    let t = t.trim().to_ascii_lowercase();
    !matches!(t.as_str(), "" | "no" | "none" | "-" | "undef" | "dataflow")
}

/// A module's `<PipelineType>`: `yes`, `pipeline` or `function` (older versions) for a pipelined
/// function. `no`/`none`, `dataflow` and `loop (auto-)rewind ...` (a module around a pipelined
/// loop) are not.
pub(super) fn module_type_is_pipelined(t: &str) -> bool {
    let t = t.trim().to_ascii_lowercase();
    t == "yes" || t.starts_with("pipeline") || t.starts_with("function")
}

/// `<RTLDesignHierarchy>`: module name → its instances, over all levels.
fn design_hierarchy(ctx: &mut Ctx, node: Node) -> HashMap<String, Vec<Instance>> {
    let mut map: HashMap<String, Vec<Instance>> = HashMap::new();
    for top in node.children().filter(|c| c.is_element()) {
        collect_instances(ctx, top, &mut map, 0);
    }
    map
}

/// `owner` is a `<TopModule>` or an `<Instance>`: its `<ModuleName>` instantiates what its
/// `<InstancesList>` lists.
fn collect_instances(ctx: &mut Ctx, owner: Node, map: &mut HashMap<String, Vec<Instance>>, depth: usize) {
    if depth >= MAX_NESTING {
        ctx.warn(owner, format!("instance hierarchy deeper than {MAX_NESTING} levels; the rest is left out"));
        return;
    }
    let Some(module) = child(owner, "ModuleName").map(text_of).filter(|n| !n.is_empty()) else { return };
    for list in children(owner, "InstancesList") {
        for inst in children(list, "Instance") {
            let name = child(inst, "InstName").map(text_of).unwrap_or_default();
            let sub = child(inst, "ModuleName").map(text_of).filter(|n| !n.is_empty());
            let entry = map.entry(module.clone()).or_default();
            if !name.is_empty() && !entry.iter().any(|i| i.name == name) {
                entry.push(Instance { name, module: sub });
            }
            collect_instances(ctx, inst, map, depth + 1);
        }
    }
}

/// Give modules their instances and loops' instances their module names.
fn resolve_instances(modules: &mut [Module], hierarchy: &HashMap<String, Vec<Instance>>) {
    let global: HashMap<&str, &str> =
        hierarchy.values().flatten().filter_map(|i| i.module.as_deref().map(|m| (i.name.as_str(), m))).collect();
    for m in modules.iter_mut() {
        if let Some(list) = hierarchy.get(&m.name) {
            m.instances = list.clone();
        }
        let own: HashMap<&str, &str> =
            m.instances.iter().filter_map(|i| i.module.as_deref().map(|mm| (i.name.as_str(), mm))).collect();
        for lp in &mut m.loops {
            resolve_loop_instances(lp, &own, &global, 0);
        }
    }
}

fn resolve_loop_instances(lp: &mut Loop, own: &HashMap<&str, &str>, global: &HashMap<&str, &str>, depth: usize) {
    if depth >= MAX_NESTING {
        return;
    }
    for i in &mut lp.instances {
        let name = i.name.as_str();
        i.module = own.get(name).or_else(|| global.get(name)).map(|m| m.to_string());
    }
    for c in &mut lp.children {
        resolve_loop_instances(c, own, global, depth + 1);
    }
}

/// A `<table>` of `<ReportHWInterface>` or `<ReportBurst>`: its `<keys>`, and per `<column>` its
/// name and values.
type KeyedTable = (Vec<String>, Vec<(String, Vec<String>)>);

/// The `<table>` of an `<item>`; `None` when it has none.
fn keyed_table(item: Node) -> Option<KeyedTable> {
    let t = child(item, "table")?;
    let keys = child(t, "keys").map(|k| split_list(&text_of(k))).unwrap_or_default();
    let rows = children(t, "column")
        .map(|c| (c.attribute("name").unwrap_or("").trim().to_string(), split_list(&text_of(c))))
        .collect();
    Some((keys, rows))
}

/// The top's m_axi adapters, control protocol and whether it has an s_axilite interface:
/// from `<ReportHWInterface>` (2022+: the tables of csynth.rpt's `HW Interfaces`), else from
/// the ports of `<InterfaceSummary>` (every version; no m_axi settings there).
fn hw_interfaces(root: Node) -> (Vec<MaxiInterface>, Option<String>, bool, Option<Vec<super::AxiLiteArg>>) {
    let items: Vec<Node> = child(root, "ReportHWInterface")
        .map(|r| r.descendants().filter(|n| n.is_element() && n.tag_name().name() == "item").collect())
        .unwrap_or_default();
    let table = |name: &str| items.iter().find(|i| i.attribute("name") == Some(name)).and_then(|i| keyed_table(*i));
    let mut maxi = Vec::new();
    if let Some((keys, rows)) = table("M_AXI") {
        // `keys` names the row name too; the values start at the second key.
        let col = |pred: &dyn Fn(&str) -> bool| keys.iter().skip(1).position(|k| pred(&k.to_ascii_lowercase()));
        let width = col(&|k| k.starts_with("data width"));
        let latency = col(&|k| k == "latency");
        let rd = col(&|k| k.contains("max read burst"));
        let wr = col(&|k| k.contains("max write burst"));
        let rd_out = col(&|k| k.contains("num read outstanding"));
        let wr_out = col(&|k| k.contains("num write outstanding"));
        for (name, values) in rows {
            let get = |i: Option<usize>| i.and_then(|i| values.get(i)).map_or("", |v| v.as_str());
            maxi.push(MaxiInterface {
                name,
                data_width: get(width).to_string(),
                latency: parse_count(get(latency)),
                max_read_burst: parse_count(get(rd)),
                max_write_burst: parse_count(get(wr)),
                num_read_outstanding: parse_count(get(rd_out)),
                num_write_outstanding: parse_count(get(wr_out)),
            });
        }
    }
    let protocols: Vec<String> = child(root, "InterfaceSummary")
        .map(|s| children(s, "RtlPorts").filter_map(|p| child(p, "IOProtocol")).map(text_of).collect())
        .unwrap_or_default();
    let control = table("TOP LEVEL CONTROL")
        .and_then(|(_, rows)| rows.into_iter().find(|(n, _)| n == "ap_ctrl"))
        .and_then(|(_, v)| v.into_iter().next())
        .filter(|v| !v.is_empty())
        .or_else(|| protocols.iter().find(|p| p.starts_with("ap_ctrl")).cloned());
    let s_axilite = table("S_AXILITE Interfaces").is_some_and(|(_, rows)| !rows.is_empty())
        || protocols.iter().any(|p| p == "s_axi" || p == "s_axilite");
    // Rows name the interface; the values are Register, Offset, Width, Access, Description, ...
    let regs = table("S_AXILITE Registers").map(|(_, rows)| rows).unwrap_or_default();
    let rows: Vec<[&str; 4]> = regs
        .iter()
        .map(|(iface, v)| {
            let at = |i: usize| v.get(i).map_or("", |s| s.as_str());
            [iface.as_str(), at(0), at(3), at(4)]
        })
        .collect();
    (maxi, control, s_axilite, super::control_bundle_args(&rows))
}

/// `<ReportBurst>` (2022+; csynth.rpt's `M_AXI Burst Information`): its `Inferred Burst
/// Summary`, a column per burst named by its interface (`VITIS_LOOP_42_8, write, 128, 32,
/// matmul.cpp:42:22` under the keys `HW Interface, Loop, Direction, Length, Width, Location`).
/// `None` without the section (older XML: the text report beside it may give the table).
fn maxi_bursts(root: Node) -> Option<Vec<super::MaxiBurst>> {
    let section = child(root, "ReportBurst")?;
    let summary = section.descendants().find(|n| {
        n.is_element() && n.tag_name().name() == "item" && n.attribute("name") == Some("Inferred Burst Summary")
    });
    let Some((keys, rows)) = summary.and_then(keyed_table) else { return Some(Vec::new()) };
    // `keys` names the column's name too; the values start at the second key.
    let col = |name: &str| keys.iter().skip(1).position(|k| k.eq_ignore_ascii_case(name));
    let (loop_col, direction, length, width) = (col("loop"), col("direction"), col("length"), col("width"));
    let location = col("location").or(col("loop location"));
    let bursts = rows.into_iter().map(|(interface, values)| {
        let get = |i: Option<usize>| i.and_then(|i| values.get(i)).map_or("", |v| v.as_str());
        super::MaxiBurst {
            interface,
            loop_name: loop_col.map(|_| get(loop_col).to_string()),
            direction: get(direction).to_ascii_lowercase(),
            // `variable`: a run whose length is a run-time value.
            length: parse_count(get(length)),
            width: parse_count(get(width)),
            location: SourceLoc::parse_with_column(get(location)),
        }
    });
    Some(bursts.collect())
}

/// `<ReportSWInterface>` (2022+; csynth.rpt's `SW I/O Information`): per argument a column of
/// `Top Function Arguments` (`in, complex_t*`) and columns of `SW-to-HW Mapping`
/// (`s_axi_control, interface, , `).
fn sw_interface(root: Node) -> Vec<super::SwArg> {
    let Some(sw) = child(root, "ReportSWInterface") else { return Vec::new() };
    let columns = |item: &str| -> Vec<(String, Vec<String>)> {
        sw.descendants()
            .filter(|n| n.is_element() && n.tag_name().name() == "item" && n.attribute("name") == Some(item))
            .filter_map(|i| child(i, "table"))
            .flat_map(|t| children(t, "column").collect::<Vec<_>>())
            .map(|c| (c.attribute("name").unwrap_or("").trim().to_string(), split_list(&text_of(c))))
            .collect()
    };
    let args = columns("Top Function Arguments");
    let mapping = columns("SW-to-HW Mapping");
    let at = |v: &[String], i: usize| v.get(i).map_or("", |s| s.as_str()).to_string();
    let arg_rows: Vec<[String; 2]> = args.iter().map(|(n, v)| [n.clone(), at(v, 0)]).collect();
    let map_rows: Vec<[String; 3]> = mapping.iter().map(|(n, v)| [n.clone(), at(v, 0), at(v, 1)]).collect();
    let arg_refs: Vec<[&str; 2]> = arg_rows.iter().map(|[a, b]| [a.as_str(), b.as_str()]).collect();
    let map_refs: Vec<[&str; 3]> = map_rows.iter().map(|[a, b, c]| [a.as_str(), b.as_str(), c.as_str()]).collect();
    super::sw_args(&arg_refs, &map_refs)
}

/// `a, b, , c` → [a, b, "", c]; trailing empty values (padding in 2022.x) are dropped.
fn split_list(text: &str) -> Vec<String> {
    let mut v: Vec<String> = text.split(',').map(|s| s.trim().to_string()).collect();
    while v.last().is_some_and(|s| s.is_empty()) {
        v.pop();
    }
    v
}

fn pragma(node: Node) -> Pragma {
    let attr = |name: &str| node.attribute(name).map(str::trim).filter(|v| !v.is_empty()).map(str::to_string);
    Pragma {
        kind: attr("type").unwrap_or_default(),
        source: node.attribute("location").and_then(SourceLoc::parse),
        function: attr("parentFunction"),
        variable: attr("variable"),
        options: attr("options").unwrap_or_default(),
        status: attr("status"),
        directive: node.attribute("isDirective").is_some_and(|v| v.trim() == "1"),
    }
}

fn child<'a, 'i>(node: Node<'a, 'i>, name: &str) -> Option<Node<'a, 'i>> {
    node.children().find(|c| c.is_element() && c.tag_name().name() == name)
}

fn children<'a, 'i: 'a>(node: Node<'a, 'i>, name: &'a str) -> impl Iterator<Item = Node<'a, 'i>> + 'a {
    node.children().filter(move |c| c.is_element() && c.tag_name().name() == name)
}

fn child_path<'a, 'i>(node: Node<'a, 'i>, path: &[&str]) -> Option<Node<'a, 'i>> {
    path.iter().try_fold(node, |n, name| child(n, name))
}

/// The element's own text (its text children joined), trimmed.
fn text_of(node: Node) -> String {
    let mut s = String::new();
    for t in node.children().filter(|c| c.is_text()).filter_map(|c| c.text()) {
        s.push_str(t);
    }
    s.trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn named(names: &[&str]) -> Vec<Loop> {
        names.iter().map(|n| empty_loop(n.to_string())).collect()
    }

    #[test]
    fn version_years() {
        assert_eq!(version_year("2022.1"), Some(2022));
        assert_eq!(version_year(" 2019.2.1 "), Some(2019));
        for bad in ["", "2022", "22.1", "v2022.1", "2022.x", "2022.", "20222.1"] {
            assert_eq!(version_year(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn pipeline_module_names() {
        let p = pipeline_of("topk_sort_Pipeline_VITIS_LOOP_20_1", &named(&["VITIS_LOOP_20_1"])).unwrap();
        assert_eq!((p.function.as_str(), p.loop_name.as_str()), ("topk_sort", "VITIS_LOOP_20_1"));
        // A numbered duplicate module: the loop comes from the module's loop list.
        let p = pipeline_of("f_Pipeline_VITIS_LOOP_20_12", &named(&["VITIS_LOOP_20_1"])).unwrap();
        assert_eq!((p.function.as_str(), p.loop_name.as_str()), ("f", "VITIS_LOOP_20_1"));
        // A function name with `_Pipeline_` in it.
        let p = pipeline_of("my_Pipeline_stage_Pipeline_rows", &named(&["rows"])).unwrap();
        assert_eq!((p.function.as_str(), p.loop_name.as_str()), ("my_Pipeline_stage", "rows"));
        // Without loop data: the text after the last `_Pipeline_`.
        let p = pipeline_of("g_Pipeline_L1", &[]).unwrap();
        assert_eq!((p.function.as_str(), p.loop_name.as_str()), ("g", "L1"));
        assert_eq!(pipeline_of("topk_sort", &[]), None);
        assert_eq!(pipeline_of("_Pipeline_x", &[]), None);
        assert_eq!(pipeline_of("f_Pipeline_", &[]), None);
    }

    #[test]
    fn pipeline_types() {
        for yes in ["yes", "pipeline", "function", "Yes"] {
            assert!(module_type_is_pipelined(yes), "{yes}");
        }
        for no in ["no", "none", "dataflow", "loop auto-rewind stp (delay=1 cycles)", "loop rewind", ""] {
            assert!(!module_type_is_pipelined(no), "{no}");
        }
        for yes in ["yes", "rewind", "flushable"] {
            assert!(loop_type_is_pipelined(yes), "{yes}");
        }
        for no in ["no", "none", "-", "", "dataflow"] {
            assert!(!loop_type_is_pipelined(no), "{no}");
        }
    }

    #[test]
    fn source_chains() {
        let c = source_chain("a/pe.h:93~a/pe.h:165~a/k.cpp:39");
        let got: Vec<(&str, u32)> = c.iter().map(|s| (s.file.as_str(), s.line)).collect();
        assert_eq!(got, [("a/pe.h", 93), ("a/pe.h", 165), ("a/k.cpp", 39)]);
        assert_eq!(source_chain("C:/w/k.cpp:7")[0].file, "C:/w/k.cpp");
        assert_eq!(source_chain("k.cpp:x~:3~k.cpp").len(), 0);
        assert!(source_chain("").is_empty());
    }

    #[test]
    fn same_file() {
        let s = SourceLoc { file: "proj/src/k.cpp".into(), line: 1 };
        assert!(s.same_file("k.cpp") && s.same_file("src/k.cpp") && s.same_file("/home/u/proj/src/k.cpp"));
        assert!(s.same_file("proj\\src\\k.cpp"));
        assert!(!s.same_file("xk.cpp") && !s.same_file("other/k.cpp"));
    }
}
