//! Vitis HLS / Vivado HLS synthesis reports (`csynth.xml`, or the text `csynth.rpt`): latency,
//! interval, pipelining, loop trip counts and resources per module, as the C-simulation cycle
//! model and the stall report need them.
//!
//! Layouts read (checked on real reports, see the tests):
//! - **2020.1 and older**: `syn/report/csynth.xml` has the top function only; every other
//!   function has its own `<function>_csynth.xml` beside it. [`parse_file`] on `csynth.xml` reads
//!   those siblings too.
//! - **2022.1 and newer**: one `csynth.xml` with a `<ModuleInformation>` entry per module,
//!   the RTL instance hierarchy, and pipelined loops extracted into `<func>_Pipeline_<loop>`
//!   modules. 2023.x adds `<SourceLocation>` for functions and loops.
//!
//! - **Text reports** (`.rpt`): the 2022+ `csynth.rpt` summary (a module/loop tree table, the
//!   top's interfaces) and the per-module `<module>_csynth.rpt` of every version (2020.1's
//!   `csynth.rpt` too). The XML says more (source locations, pragmas, best cases where no
//!   per-module file is beside the summary: see `rpt/mod.rs`); [`find_reports`] prefers it.
//!
//! Unlabeled loops are named `VITIS_LOOP_<line>_<ordinal>`; copies made by inlining or loop
//! transformations get a `.N` suffix and may appear several times under one parent.
//!
//! Values: a number, `undef` (→ `None`), a `min ~ max` text or a `<range><min/><max/></range>`
//! element (→ [`Range`]), times with units (normalized to ns). Elements this module does not
//! know are ignored. Malformed values become `None` with a line in [`Report::warnings`].

mod names;
mod rpt;
pub(crate) mod table;
mod value;
mod xml;

pub use value::{
    is_undefined, parse_count, parse_count_range, parse_number, parse_time_ns, parse_time_range_ns,
    parse_vitis_loop_name, parse_vitis_loop_names, split_copy_suffix, Range,
};

use crate::error::{Error, ErrorKind, Result};
use serde::Serialize;
use std::path::{Path, PathBuf};

/// Oldest report version accepted: 2015.1. Checked on Vitis HLS 2020.1, 2022.1 and 2023.2
/// reports; the Vivado HLS versions accepted here share the per-module layout of 2020.1 but no
/// report of theirs was at hand.
pub const MIN_VERSION_YEAR: u32 = 2015;

/// Reports larger than this are refused (the largest real designs write a few tens of MB).
pub const MAX_REPORT_BYTES: u64 = 512 * 1024 * 1024;

/// One synthesis run: the top function and every module the report describes.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// `Vitis HLS` or `Vivado HLS`, inferred (the XML does not name the tool): Vitis from 2021 on,
    /// and in 2020 when the report has a `<FlowTarget>` (Vitis HLS's `flow_target` setting).
    pub tool: String,
    /// `<ReportVersion><Version>`, e.g. `2022.1`.
    pub version: String,
    /// `<TopModelName>`: the top function.
    pub top: String,
    pub part: Option<String>,
    pub product_family: Option<String>,
    /// `vivado` or `vitis` (Vitis HLS only).
    pub flow_target: Option<String>,
    pub target_clock_ns: Option<f64>,
    pub clock_uncertainty_ns: Option<f64>,
    /// Estimated clock period of the top module.
    pub estimated_clock_ns: Option<f64>,
    /// Resources of the device (`<AvailableResources>`).
    pub available: Resources,
    /// Every module; in 2022+ reports submodules come first and the top last, as in the file.
    pub modules: Vec<Module>,
    /// `<PragmaReport>` (2022+): pragmas with their source location and options (e.g. `II=1`).
    pub pragmas: Vec<Pragma>,
    /// The top's m_axi adapters (`HW Interfaces` → `M_AXI`, 2022+); empty when the report has no
    /// such table (2020.1 lists m_axi ports but not their settings).
    pub maxi: Vec<MaxiInterface>,
    /// The bursts `M_AXI Burst Information` lists (`Inferred Burst Summary`, Vitis 2021.1 on):
    /// `None` when the report has no such section (older tools, per-module layout, XML), an
    /// empty list when it says `No burst in design`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub maxi_bursts: Option<Vec<MaxiBurst>>,
    /// Block-level control protocol of the top: `ap_ctrl_hs`, `ap_ctrl_chain` or `ap_ctrl_none`.
    pub control: Option<String>,
    /// The top has an s_axilite (AXI4-Lite slave) interface.
    pub s_axilite: bool,
    /// When the block control is on an s_axilite bundle (a `CTRL` register in `S_AXILITE
    /// Registers`, 2021+): the arguments written through that bundle, in register order, with
    /// their 32-bit words. `None` when the report has no such table or no `CTRL` register.
    pub axilite_args: Option<Vec<AxiLiteArg>>,
    /// Block control (ap_start, ap_done) sits on an s_axilite bundle: `axilite_args` is known,
    /// or the top has `s_axi` ports and no `ap_start` port (reports before 2021 list no
    /// registers).
    pub control_on_axilite: bool,
    /// The top's arguments as `SW I/O Information` gives them (2021+): direction and the
    /// hardware each maps to. Empty when the report has no such section.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub sw_args: Vec<SwArg>,
    /// The files read: the report itself, then per-module siblings (2020.1 layout; for text
    /// reports also in the 2022+ layout, where they give what the summary table leaves out).
    pub files: Vec<PathBuf>,
    /// Values that were not readable (read as unknown) and sibling files skipped.
    pub warnings: Vec<String>,
}

/// A synthesized module: a function that was not inlined, or a loop pipeline extracted into a
/// module of its own (`<func>_Pipeline_<loop>`, see [`Module::pipeline_of`]).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Module {
    pub name: String,
    /// Best/worst-case latency in cycles; `None` when the report says `undef` (data-dependent).
    pub latency: Option<Range<u64>>,
    /// Best/worst-case latency in ns.
    pub latency_ns: Option<Range<f64>>,
    /// Initiation interval of the module (cycles between starts), min/max.
    pub interval: Option<Range<u64>>,
    /// `<PipelineType>` as written: `no`/`none`, `yes`/`function`, `dataflow`, `loop rewind`, ...
    pub pipeline_type: Option<String>,
    /// The II when the module itself is a pipelined function.
    pub pipeline_ii: Option<u64>,
    pub target_clock_ns: Option<f64>,
    pub estimated_clock_ns: Option<f64>,
    pub resources: Resources,
    /// Loops of the module, outermost first, in report order.
    pub loops: Vec<Loop>,
    /// Submodule instances (2022+: from `<RTLDesignHierarchy>`; 2020.1 reports do not list them).
    pub instances: Vec<Instance>,
    /// For `<func>_Pipeline_<loop>` modules: the function and loop the pipeline came from.
    pub pipeline_of: Option<PipelineOf>,
    /// Where the function (or the extracted loop) is, when the report says (2023+).
    pub source: Option<SourceLoc>,
}

/// A loop and its nested loops.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Loop {
    /// Name as in the report: a label, `VITIS_LOOP_<line>_<n>`, possibly with a `.N` copy suffix.
    pub name: String,
    /// The `N` of a `.N` copy suffix.
    pub copy: Option<u32>,
    pub trip_count: Option<Range<u64>>,
    /// Achieved initiation interval of a pipelined loop (`<PipelineII>`). The XML does not carry
    /// the target II; see [`Report::pragmas`] for `pipeline II=` pragmas.
    pub ii: Option<u64>,
    /// Latency of one iteration: `<IterationLatency>`, or `<PipelineDepth>` for pipelined loops
    /// (the pipeline's iteration latency).
    pub iteration_latency: Option<Range<u64>>,
    /// `<PipelineDepth>` as written.
    pub pipeline_depth: Option<Range<u64>>,
    /// Latency of the whole loop in cycles.
    pub latency: Option<Range<u64>>,
    pub latency_ns: Option<Range<f64>>,
    /// Pipelined: `<PipelineType>` says so, or (older reports without it) a `<PipelineII>` is given.
    pub pipelined: bool,
    /// `<PipelineType>` as written (`yes`, `no`, ...).
    pub pipeline_type: Option<String>,
    pub slack_ns: Option<f64>,
    /// The loop's source line: from the `VITIS_LOOP_<line>_<n>` name (the line of the loop
    /// statement; the outer loop's for a flattened nest), else from `<SourceLocation>`.
    pub source_line: Option<u32>,
    /// `<SourceLocation>` (2023+): the innermost location.
    pub source: Option<SourceLoc>,
    /// The rest of the `<SourceLocation>` chain: call sites the loop was inlined through,
    /// innermost first.
    pub inlined_at: Vec<SourceLoc>,
    /// Submodule instances called in the loop body (`<InstanceList>`).
    pub instances: Vec<Instance>,
    pub children: Vec<Loop>,
}

/// Resource estimates; `None` where the report has no value.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Resources {
    pub lut: Option<u64>,
    pub ff: Option<u64>,
    pub bram_18k: Option<u64>,
    pub dsp: Option<u64>,
    pub uram: Option<u64>,
}

/// An RTL instance of a submodule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Instance {
    /// Instance name, e.g. `grp_topk_sort_Pipeline_VITIS_LOOP_36_3_fu_1904`.
    pub name: String,
    /// The instantiated module, when the report's hierarchy names it.
    pub module: Option<String>,
}

/// The origin of a `<func>_Pipeline_<loop>` module.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PipelineOf {
    pub function: String,
    pub loop_name: String,
}

/// A `file:line` location as the report writes it (the file as given to the tool).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SourceLoc {
    pub file: String,
    pub line: u32,
}

/// A pragma or directive from `<PragmaReport>`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Pragma {
    /// `pipeline`, `unroll`, `interface`, `array_partition`, ...
    pub kind: String,
    pub source: Option<SourceLoc>,
    pub function: Option<String>,
    pub variable: Option<String>,
    /// Options as written, e.g. `II=1`.
    pub options: String,
    /// `valid`, or the tool's verdict on a rejected pragma.
    pub status: Option<String>,
    /// Given as a Tcl/cfg directive rather than a source pragma.
    pub directive: bool,
}

/// An argument of the control bundle: its name and how many 32-bit registers a call writes.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AxiLiteArg {
    pub name: String,
    pub words: u32,
}

/// The control bundle's arguments from the rows of an `S_AXILITE Registers` table, each row
/// (interface, register, access, description): the bundle with a `CTRL` register; an argument
/// is a writable register described as `Data signal of <arg>` (Vitis' wording), one row per
/// 32-bit word; read-only registers (a return value) are not written by the testbench.
pub(crate) fn control_bundle_args(rows: &[[&str; 4]]) -> Option<Vec<AxiLiteArg>> {
    let ctrl = rows.iter().find(|r| r[1].eq_ignore_ascii_case("CTRL")).map(|r| r[0])?;
    let mut args: Vec<AxiLiteArg> = Vec::new();
    for r in rows.iter().filter(|r| r[0] == ctrl && r[2].contains('W')) {
        let Some(name) = r[3].trim().strip_prefix("Data signal of ") else { continue };
        match args.iter_mut().find(|a| a.name == name.trim()) {
            Some(a) => a.words += 1,
            None => args.push(AxiLiteArg { name: name.trim().to_string(), words: 1 }),
        }
    }
    Some(args)
}

/// A top argument in the report's `SW I/O Information`: `Top Function Arguments` (direction
/// `in`, `out` or `inout`) and its rows of `SW-to-HW Mapping` (HW name, HW type), one row per
/// part: an array on an s_axilite bundle that `ARRAY_PARTITION` splits into eight memories has
/// eight `interface` rows on that bundle.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SwArg {
    pub name: String,
    pub direction: String,
    pub hw: Vec<(String, String)>,
}

impl SwArg {
    /// The memories the argument has on an s_axilite bundle (`s_axi_<bundle>` rows of type
    /// `interface`, or `memory` as 2022.1 writes them; a scalar there is a `register`).
    pub fn axilite_memories(&self) -> usize {
        self.hw
            .iter()
            .filter(|(name, ty)| name.starts_with("s_axi") && matches!(ty.as_str(), "interface" | "memory"))
            .count()
    }
}

/// The arguments of `Top Function Arguments` rows (argument, direction) with the `SW-to-HW
/// Mapping` rows (argument, HW name, HW type) that name them.
pub(crate) fn sw_args(args: &[[&str; 2]], mapping: &[[&str; 3]]) -> Vec<SwArg> {
    args.iter()
        .filter(|a| !a[0].is_empty())
        .map(|a| SwArg {
            name: a[0].to_string(),
            direction: a[1].to_ascii_lowercase(),
            hw: mapping.iter().filter(|m| m[0] == a[0]).map(|m| (m[1].to_string(), m[2].to_string())).collect(),
        })
        .collect()
}

/// An m_axi adapter of the top, as the report's `M_AXI` table gives it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MaxiInterface {
    /// The RTL interface, e.g. `m_axi_gmem1`.
    pub name: String,
    /// Data width as written: `32 -> 512` when the tool widened the C type's 32 bits to 512.
    pub data_width: String,
    /// The `latency=` the adapter assumes for memory, in cycles.
    pub latency: Option<u64>,
    pub max_read_burst: Option<u64>,
    pub max_write_burst: Option<u64>,
    pub num_read_outstanding: Option<u64>,
    pub num_write_outstanding: Option<u64>,
}

/// A burst Vitis inferred on an m_axi adapter, a row of `M_AXI Burst Information` →
/// `Inferred Burst Summary`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MaxiBurst {
    /// The RTL interface, e.g. `m_axi_gmem`.
    pub interface: String,
    /// The loop the burst was inferred in (`anonymous` for a `memcpy` or an unnamed loop);
    /// `None` when the table has no `Loop` column (some 2022.2 reports leave it out).
    pub loop_name: Option<String>,
    /// `read` or `write`.
    pub direction: String,
    /// Beats of the burst; `None` when the report says `variable` or gives no number.
    pub length: Option<u64>,
    /// Bits of a beat.
    pub width: Option<u64>,
    /// Where the access is in the source (`file:line:column` in the report; the column is
    /// dropped).
    pub location: Option<SourceLoc>,
}

impl MaxiBurst {
    /// True for a read burst.
    pub fn is_read(&self) -> bool {
        self.direction.eq_ignore_ascii_case("read")
    }
}

/// A loop found by a lookup, with the module it is in and its nesting depth (0: outermost).
#[derive(Debug, Clone, Copy)]
pub struct LoopRef<'a> {
    pub module: &'a Module,
    pub node: &'a Loop,
    pub depth: usize,
}

impl Resources {
    /// True when no value is known.
    pub fn is_empty(&self) -> bool {
        *self == Resources::default()
    }
}

impl SourceLoc {
    /// `file:line:column` (a burst table's location) → location, the column cut; also
    /// `file:line`.
    pub fn parse_with_column(text: &str) -> Option<SourceLoc> {
        text.rsplit_once(':')
            .and_then(|(head, col)| {
                let column = col.trim().chars().all(|c| c.is_ascii_digit()) && head.contains(':');
                column.then(|| SourceLoc::parse(head)).flatten()
            })
            .or_else(|| SourceLoc::parse(text))
    }

    /// `file:line` → location; the last `:` splits, so Windows drive letters survive.
    pub fn parse(text: &str) -> Option<SourceLoc> {
        let (file, line) = text.trim().rsplit_once(':')?;
        let line = u32::try_from(parse_count(line)?).ok()?;
        (!file.is_empty()).then(|| SourceLoc { file: file.to_string(), line })
    }

    /// True when `file` names the same file: equal, or one is a path suffix of the other
    /// (`src/k.cpp` and `proj/src/k.cpp`). Backslashes count as `/`.
    pub fn same_file(&self, file: &str) -> bool {
        let a = self.file.replace('\\', "/");
        let b = file.replace('\\', "/");
        a == b || a.ends_with(&format!("/{b}")) || b.ends_with(&format!("/{a}"))
    }
}

impl Loop {
    /// A loop with a name and nothing else known (a `.N` copy suffix is read off the name).
    pub fn named(name: &str) -> Loop {
        xml::empty_loop(name.to_string())
    }

    /// The name without a `.N` copy suffix.
    pub fn base_name(&self) -> &str {
        split_copy_suffix(&self.name).0
    }

    /// (line, ordinal) of a `VITIS_LOOP_<line>_<n>` name; `None` for labels and `.N` copies.
    pub fn vitis_name(&self) -> Option<(u32, u32)> {
        if self.copy.is_some() {
            return None;
        }
        parse_vitis_loop_name(&self.name)
    }

    /// Source lines named by the loop's `VITIS_LOOP_` name: one, or one per loop of a flattened
    /// nest (`VITIS_LOOP_10_1_VITIS_LOOP_11_2` → [10, 11]). Empty for labels and `.N` copies.
    pub fn vitis_lines(&self) -> Vec<u32> {
        if self.copy.is_some() {
            return Vec::new();
        }
        parse_vitis_loop_names(&self.name).into_iter().map(|(line, _)| line).collect()
    }

    /// This loop and all nested loops, depth-first in report order, with their nesting depth
    /// (0 for this loop).
    pub fn walk(&self) -> Vec<(usize, &Loop)> {
        let mut out = Vec::new();
        walk_into(self, 0, &mut out);
        out
    }
}

fn walk_into<'a>(lp: &'a Loop, depth: usize, out: &mut Vec<(usize, &'a Loop)>) {
    out.push((depth, lp));
    for c in &lp.children {
        walk_into(c, depth + 1, out);
    }
}

impl Module {
    /// Every loop of the module, depth-first in report order.
    pub fn all_loops(&self) -> Vec<LoopRef<'_>> {
        self.loops.iter().flat_map(|l| l.walk()).map(|(depth, node)| LoopRef { module: self, node, depth }).collect()
    }

    /// Names of the submodules this module instantiates (deduplicated, in report order).
    pub fn submodules(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for m in self.instances.iter().filter_map(|i| i.module.as_deref()) {
            if !out.contains(&m) {
                out.push(m);
            }
        }
        out
    }

    /// True for a pipelined function (not a dataflow region, not a module with pipelined loops).
    pub fn is_pipelined(&self) -> bool {
        self.pipeline_type.as_deref().is_some_and(xml::module_type_is_pipelined)
    }

    /// True for a dataflow region.
    pub fn is_dataflow(&self) -> bool {
        self.pipeline_type.as_deref().is_some_and(|t| t.trim().eq_ignore_ascii_case("dataflow"))
    }
}

impl Report {
    /// The module of that name, or the one Vivado HLS cut it to or from (its 20-character
    /// names: [`names::find`]).
    pub fn module(&self, name: &str) -> Option<&Module> {
        names::find(&self.modules, name)
    }

    /// The module of a function: its own name, else, when the report has only numbered copies
    /// of it (`f_1`, `f_2` or `f.1`, with no `f`: Vitis numbered the copies of a function called
    /// from several places, of which only one is in the top's hierarchy), the lowest-numbered.
    pub fn module_of_function(&self, function: &str) -> Option<&Module> {
        self.module(function).or_else(|| {
            let numbered = |m: &&Module| -> Option<u32> {
                let rest = m.name.strip_prefix(function)?;
                rest.strip_prefix('_').or_else(|| rest.strip_prefix('.'))?.parse().ok()
            };
            self.modules.iter().filter_map(|m| numbered(&m).map(|n| (n, m))).min_by_key(|(n, _)| *n).map(|(_, m)| m)
        })
    }

    /// The dataflow processes Vivado HLS / Vitis made of the loops (and the code around them) of
    /// `function`'s dataflow region: the modules its module instantiates that are named
    /// `Loop_<label>_proc<N>` or `<function>_Loop_<label>_proc<N>` (facts, rule 5). An instance
    /// may name the module by its cut name ([`Report::module`]).
    pub fn loop_processes(&self, function: &str) -> Vec<&Module> {
        let Some(owner) = self.module_of_function(function) else { return Vec::new() };
        let own_prefix = format!("{}_Loop_", owner.name);
        let mut out: Vec<&Module> = Vec::new();
        for name in owner.submodules() {
            if !(name.starts_with("Loop_") || name.starts_with(&own_prefix)) {
                continue;
            }
            if let Some(m) = self.module(name).filter(|m| !out.iter().any(|o| o.name == m.name)) {
                out.push(m);
            }
        }
        out
    }

    /// The top module (named [`Report::top`]).
    pub fn top_module(&self) -> Option<&Module> {
        self.module(&self.top)
    }

    /// Every loop of every module, depth-first in report order.
    pub fn all_loops(&self) -> Vec<LoopRef<'_>> {
        self.modules.iter().flat_map(|m| m.all_loops()).collect()
    }

    /// The first loop [`Report::find_loops`] finds.
    pub fn find_loop(&self, function: &str, loop_name: &str) -> Option<LoopRef<'_>> {
        self.find_loops(function, loop_name).into_iter().next()
    }

    /// Loops named `loop_name` in `function`, tried in this order, the first step with a match
    /// winning:
    /// 1. the exact name in the function's module, in its `<function>_Pipeline_<loop>` modules
    ///    (Vitis moves a pipelined loop into such a module) or in its dataflow loop processes
    ///    ([`Report::loop_processes`]);
    /// 2. the same name up to `.N` copy suffixes (all copies);
    /// 3. for a `VITIS_LOOP_<line>_<n>` name: loops there whose `VITIS_LOOP` name has the same
    ///    line (the ordinal can differ when the tool counted loops differently), including
    ///    flattened nests (`VITIS_LOOP_10_1_VITIS_LOOP_11_2` for line 10 or 11);
    /// 4. when the function has no module of its own (it was inlined): the exact name in any
    ///    module.
    ///
    /// A function whose module is only a numbered copy (`f_1`) is looked up in that copy.
    ///
    /// Duplicates are real: an inlined function's loops appear once per call site.
    pub fn find_loops(&self, function: &str, loop_name: &str) -> Vec<LoopRef<'_>> {
        // The function's module may be a numbered copy only ([`Report::module_of_function`]).
        let function = self.module_of_function(function).map_or(function, |m| m.name.as_str());
        let processes = self.loop_processes(function);
        let own: Vec<&Module> = self
            .modules
            .iter()
            .filter(|m| m.name == function || m.pipeline_of.as_ref().is_some_and(|p| p.function == function))
            .chain(processes.iter().copied())
            .collect();
        let in_own = |pred: &dyn Fn(&Loop) -> bool| -> Vec<LoopRef<'_>> {
            own.iter().flat_map(|m| m.all_loops()).filter(|r| pred(r.node)).collect()
        };
        let found = in_own(&|l| l.name == loop_name);
        if !found.is_empty() {
            return found;
        }
        let base = split_copy_suffix(loop_name).0;
        let found = in_own(&|l| l.base_name() == base);
        if !found.is_empty() {
            return found;
        }
        if let Some((line, _)) = parse_vitis_loop_name(base) {
            let found = in_own(&|l| l.vitis_lines().contains(&line));
            if !found.is_empty() {
                return found;
            }
        }
        if self.module(function).is_none() {
            return self.all_loops().into_iter().filter(|r| r.node.name == loop_name).collect();
        }
        Vec::new()
    }

    /// Loops whose [`Loop::source_line`] is `line`, in any module and file, and flattened nests
    /// whose name includes that line ([`Loop::vitis_lines`]).
    pub fn loops_at_line(&self, line: u32) -> Vec<LoopRef<'_>> {
        self.all_loops()
            .into_iter()
            .filter(|r| r.node.source_line == Some(line) || r.node.vitis_lines().contains(&line))
            .collect()
    }

    /// Loops at `line` of `file`: as [`Report::loops_at_line`], keeping loops whose
    /// `<SourceLocation>` names `file` (see [`SourceLoc::same_file`]) and loops whose file the
    /// report does not give (reports before 2023 have no locations).
    pub fn loops_at(&self, file: &str, line: u32) -> Vec<LoopRef<'_>> {
        self.loops_at_line(line)
            .into_iter()
            .filter(|r| r.node.source.as_ref().is_none_or(|s| s.same_file(file)))
            .collect()
    }
}

/// Parse a synthesis report from a file: `csynth.xml` and `<module>_csynth.xml`, or the text
/// `csynth.rpt` and `<module>_csynth.rpt` (by extension; other names by content).
///
/// Siblings: for a `csynth.xml` in the 2020.1 layout (no `<ModuleInformation>`), the
/// `<module>_csynth.xml` files in the same directory are read too and their modules added; one
/// that cannot be read or is from another tool version is skipped with a warning. A `csynth.rpt`
/// reads its `<module>_csynth.rpt` siblings the same way: in the 2020.1 layout for the modules,
/// in the 2022+ layout for what its summary table leaves out (best-case latencies, clocks).
pub fn parse_file(path: impl AsRef<Path>) -> Result<Report> {
    let path = path.as_ref();
    let text = read_report(path)?;
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    if is_text_report(&text, path) {
        let (mut report, layout) = rpt::parse_document(&text, path)?;
        if name == "csynth.rpt" || is_top_own_file(&report, path, "rpt") {
            rpt::add_siblings(&mut report, layout, path);
        }
        return Ok(report);
    }
    let (mut report, has_module_info) = match xml::parse_document(&text, path) {
        Ok(parsed) => parsed,
        Err(e) => {
            // A blank release in the XML: the text report of the same run dates its build. Looked
            // at only when the XML is refused, not parsed twice on every read.
            let beside = path.with_file_name(name.replace("csynth.xml", "csynth.rpt"));
            if !(name.ends_with("csynth.xml") && beside.is_file() && xml::version_is_blank(&text)) {
                return Err(e);
            }
            let mut report = parse_file(&beside)?;
            report.warnings.insert(
                0,
                format!(
                    "{}: its <Version> is blank; the text report of the same run, {}, was read instead",
                    path.display(),
                    beside.display()
                ),
            );
            return Ok(report);
        }
    };
    if !has_module_info && (name == "csynth.xml" || is_top_own_file(&report, path, "xml")) {
        add_sibling_modules(&mut report, path);
    }
    add_sibling_bursts(&mut report, path);
    Ok(report)
}

/// The XML has no burst table: a `csynth.rpt` beside a `csynth.xml` (the same run writes both)
/// gives its `M_AXI Burst Information`. A sibling that cannot be read adds a warning.
fn add_sibling_bursts(report: &mut Report, path: &Path) {
    if report.maxi_bursts.is_some() || path.file_name().and_then(|n| n.to_str()) != Some("csynth.xml") {
        return;
    }
    let rpt = path.with_file_name("csynth.rpt");
    if !rpt.is_file() {
        return;
    }
    match read_report(&rpt) {
        Ok(text) => {
            let (bursts, warnings) = rpt::maxi_bursts_of(&text, &rpt);
            report.maxi_bursts = bursts;
            report.warnings.extend(warnings);
        }
        Err(e) => report.warnings.push(format!("{}: burst table not read: {e}", rpt.display())),
    }
}

/// `<top>_csynth.rpt` / `.xml` of a top that calls other modules: the top's own file, which a
/// Vivado HLS solution is often kept with instead of the summary. It names the top's instances
/// but not their loops, so where the directory has no summary, its `<module>_csynth.*` siblings
/// are read as a summary's are. (A module without instances given on its own is a report of
/// that module only.)
fn is_top_own_file(report: &Report, path: &Path, ext: &str) -> bool {
    let calls_others = report.top_module().is_some_and(|m| !m.instances.is_empty());
    let own = path.file_name().is_some_and(|n| n.to_str() == Some(format!("{}_csynth.{ext}", report.top).as_str()));
    let dir = path.parent().unwrap_or(Path::new("."));
    let no_summary = !dir.join("csynth.xml").is_file() && !dir.join("csynth.rpt").is_file();
    calls_others && own && no_summary
}

/// Parse a synthesis report from text; `origin` names it in errors and in [`Report::files`],
/// and its extension chooses the reader as in [`parse_file`]. No sibling files are read.
pub fn parse_str(text: &str, origin: impl AsRef<Path>) -> Result<Report> {
    let origin = origin.as_ref();
    if is_text_report(text, origin) {
        return rpt::parse_document(text, origin).map(|(report, _)| report);
    }
    xml::parse_document(text, origin).map(|(report, _)| report)
}

/// `.rpt` files, and text that is not XML but carries a report title: both readers then name
/// what they expected when the content is something else.
fn is_text_report(text: &str, path: &Path) -> bool {
    if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("rpt")) {
        return true;
    }
    let t = text.trim_start_matches('\u{feff}').trim_start();
    !t.starts_with('<') && rpt::has_title(text)
}

/// Synthesis reports under an HLS project or solution directory, sorted: `<dir>/csynth.xml`,
/// `<dir>/syn/report/csynth.xml`, `<dir>/*/syn/report/csynth.xml` (solutions of a Vivado/Vitis
/// HLS project) and `<dir>/*/hls/syn/report/csynth.xml` and `<dir>/hls/syn/report/csynth.xml`
/// (Vitis unified components). Where a directory has no `csynth.xml`, its `csynth.rpt` is
/// taken instead (the XML says more). Unreadable directories are skipped.
pub fn find_reports(dir: impl AsRef<Path>) -> Vec<PathBuf> {
    find_top_reports(dir, None)
}

/// [`find_reports`], and where a directory has neither summary, the top's own report
/// `<top>_csynth.xml` (or `.rpt`): Vivado HLS solutions are often kept (and committed) with
/// only those, and the top's file holds the top's latency, loops and instances as the summary
/// does.
pub fn find_top_reports(dir: impl AsRef<Path>, top: Option<&str>) -> Vec<PathBuf> {
    let dir = dir.as_ref();
    let under = |d: &Path| [d.join("syn/report"), d.join("hls/syn/report")];
    let mut places: Vec<PathBuf> = vec![dir.to_path_buf()];
    places.extend(under(dir));
    let mut subdirs: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| rd.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.is_dir()).collect())
        .unwrap_or_default();
    subdirs.sort();
    for d in &subdirs {
        places.extend(under(d));
    }
    let mut found: Vec<PathBuf> = places
        .iter()
        .filter_map(|d| {
            let own = top.map(|t| [d.join(format!("{t}_csynth.xml")), d.join(format!("{t}_csynth.rpt"))]);
            [d.join("csynth.xml"), d.join("csynth.rpt")]
                .into_iter()
                .chain(own.into_iter().flatten())
                .find(|p| p.is_file())
        })
        .collect();
    found.dedup();
    found
}

fn read_report(path: &Path) -> Result<String> {
    read_text(path, "a csynth.xml or csynth.rpt written by Vitis HLS or Vivado HLS")
}

/// A report file as text; `expected` says in errors what the file should have been.
pub(crate) fn read_text(path: &Path, expected: &str) -> Result<String> {
    let meta = std::fs::metadata(path).map_err(|e| Error::io(path, &e))?;
    if meta.len() > MAX_REPORT_BYTES {
        return Err(Error::new(
            ErrorKind::BadInput,
            format!(
                "{} bytes is larger than any HLS report ({} MiB at most); expected {expected}",
                meta.len(),
                MAX_REPORT_BYTES >> 20
            ),
        )
        .at(path));
    }
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, &e))?;
    String::from_utf8(bytes).map_err(|e| {
        Error::new(
            ErrorKind::BadInput,
            format!("not UTF-8 text (invalid byte at offset {}): expected {expected}", e.utf8_error().valid_up_to()),
        )
        .at(path)
    })
}

/// Add the modules of `<module>_csynth.xml` files beside `top_path` (2020.1 layout).
fn add_sibling_modules(report: &mut Report, top_path: &Path) {
    let dir = match top_path.parent() {
        Some(d) if d.as_os_str().is_empty() => Path::new("."),
        Some(d) => d,
        None => return,
    };
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut siblings: Vec<PathBuf> = entries
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.ends_with("_csynth.xml")))
        .collect();
    siblings.sort();
    siblings.retain(|p| p.file_name() != top_path.file_name());
    for sib in siblings {
        let parsed = read_report(&sib).and_then(|text| xml::parse_document(&text, &sib));
        let sub = match parsed {
            Ok((sub, _)) => sub,
            Err(e) => {
                report.warnings.push(format!("skipped {e}"));
                continue;
            }
        };
        if sub.version != report.version {
            report.warnings.push(format!(
                "skipped {}: version {} differs from {} in {} (left over from another run?)",
                sib.display(),
                sub.version,
                report.version,
                top_path.display()
            ));
            continue;
        }
        report.files.push(sib.clone());
        report.warnings.extend(sub.warnings);
        for m in sub.modules {
            // The top's own `<top>_csynth.xml` repeats what csynth.xml already says.
            if report.module(&m.name).is_none() {
                report.modules.push(m);
            }
        }
    }
}
