//! The probe manifest: every probe mapped to its source, plus per-file hashes and line maps.
//! Every later tool (sim, decode) turns runtime data into source-level answers through it.

use crate::model::maxi::{Dir, UseKind};
use crate::model::pragma::LoopFacts;
use crate::model::{Call, FileModel, LoopKind, Param, Skipped};
use crate::plan::{element_size, FilePlan, NestPlan, ProbeKind, WatchSite};
use crate::select::ports::{PortOrigin, Uncounted};
use crate::select::WatchSpec;
use serde::{Deserialize, Serialize};

pub const FORMAT: &str = "hlsinstr-manifest";
/// Bump on any incompatible change; readers refuse other versions.
pub const VERSION: u32 = 1;
pub const FILE_NAME: &str = "hlsinstr-manifest.json";

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Manifest {
    pub format: String,
    pub version: u32,
    pub tool: String,
    /// Probe kinds of the run (`modules`, `loops`, `timestamps`, `seq`, `maxi`, `watch`).
    pub kinds: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub top: Option<String>,
    pub files: Vec<ManifestFile>,
    pub probes: Vec<ProbeEntry>,
    pub skipped: Vec<SkipEntry>,
    /// The in-FPGA build (`--target vitis`): how the monitor's dump maps to probes.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub hw: Option<HwBuild>,
    /// Files a rewrite of OpenCL C kernels added below the output directory
    /// (`hlsinstr_ocl_host.h`); `strip` leaves them out. The in-FPGA build lists its own in `hw`.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub generated: Vec<String>,
    /// `branches` probes: the record sites and the graphs the decoder replays (docs/branches.md).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub branches: Option<BranchTrace>,
    /// `hlsinstr rtl-probe`: probes on the RTL Vitis generated (docs/rtl-probe.md).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub rtl: Option<crate::rtlprobe::manifest::RtlBuild>,
}

/// The control-flow trace of a run: every record site, and per traced function its graph.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct BranchTrace {
    /// Bits a site id needs in a hardware record: enough for the largest id.
    pub id_bits: u32,
    pub sites: Vec<SiteEntry>,
    pub functions: Vec<crate::cfg::replay::TracedFunction>,
    /// `?:`, `&&`, `||` operands without calls or side effects: flagged, not probed.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub unprobed: Vec<SiteEntry>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct SiteEntry {
    /// The probe id (0 for an unprobed operand).
    pub id: u32,
    /// `entry`, `return`, `then`, `else`, `case`, `iteration`, `loop_exit`, `label`,
    /// `ternary_true`, `ternary_false`, `and_right`, `or_right`.
    pub kind: String,
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub function: String,
    /// The site this one sits in (none for a function's entry).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub parent: Option<u32>,
    /// OpenCL C: the iBuffer unit (`trace` probe) the site records into; its ids count from 0
    /// per unit.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub unit: Option<u32>,
}

impl BranchTrace {
    /// Add the sites and graphs of one file's plan.
    /// The sites and functions of `other` after these (a file rewritten in pieces traces each
    /// piece into a trace of its own).
    pub fn append(&mut self, other: BranchTrace) {
        self.id_bits = self.id_bits.max(other.id_bits);
        self.sites.extend(other.sites);
        self.functions.extend(other.functions);
        self.unprobed.extend(other.unprobed);
    }

    pub fn add(&mut self, file: &str, model: &FileModel, plan: &FilePlan) {
        let unit_of = |fi: usize| plan.traced.iter().find(|t| t.function == fi).and_then(|t| t.unit);
        for s in &plan.sites {
            self.sites.push(SiteEntry {
                id: s.id,
                kind: s.kind.name().into(),
                file: file.into(),
                line: s.line,
                column: s.col,
                function: model.functions[s.function].qualified.clone(),
                parent: s.parent,
                unit: unit_of(s.function),
            });
            self.id_bits = self.id_bits.max(32 - s.id.leading_zeros()).max(1);
        }
        for t in &plan.traced {
            let function = model.functions[t.function].qualified.clone();
            for (kind, line, column) in &t.pure {
                self.unprobed.push(SiteEntry {
                    id: 0,
                    kind: kind.name().into(),
                    file: file.into(),
                    line: *line,
                    column: *column,
                    function: function.clone(),
                    parent: None,
                    unit: t.unit,
                });
            }
            self.functions.push(crate::cfg::replay::TracedFunction {
                function,
                file: file.into(),
                entry: t.entry,
                ret: t.ret,
                graph: t.graph.clone(),
                unit: t.unit,
            });
        }
    }

    /// Ids of the sites inside expressions (they decide nothing in a replay).
    pub fn inline_ids(&self) -> Vec<u32> {
        let inline = ["ternary_true", "ternary_false", "and_right", "or_right"];
        self.sites.iter().filter(|s| inline.contains(&s.kind.as_str())).map(|s| s.id).collect()
    }
}

/// The in-FPGA build of a `--target vitis` rewrite. The monitor keeps one slot per measured probe
/// and writes them, in slot order, to the debug buffer (docs/dump-format.md).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct HwBuild {
    /// `vitis`.
    pub target: String,
    /// The original top, now called by the new one.
    pub top: String,
    /// The new synthesis top: the original top and the monitor, concurrently.
    pub instr_top: String,
    /// [`hw_key`] of the slots as 16 hex digits; the monitor writes it into the dump header, so a
    /// dump is never decoded against the manifest of another build.
    pub key: String,
    /// Depth of every probe FIFO.
    pub fifo_depth: u32,
    /// Events carry a timestamp read from the free-running counter at the probe site; otherwise
    /// the time of an event is the monitor cycle that reads it.
    pub timestamps: bool,
    /// Slot `i` of the dump holds probe `slots[i]`.
    pub slots: Vec<u32>,
    /// Probes with no slot of their own: measured as the span of other probes.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub derived: Vec<HwDerived>,
    /// Files the build added below the output directory (`strip` leaves them out).
    #[serde(default)]
    pub generated: Vec<String>,
    /// The trace buffer (`branches`): where the records go and how they are packed.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub trace: Option<HwTrace>,
}

/// The in-FPGA trace buffer of a build (hls-lib `hw/trace.h`, docs/branches.md#in-fpga).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct HwTrace {
    /// [`trace_key`] as 16 hex digits: the tracer writes it into the trace header.
    pub key: String,
    /// Records the BRAM buffer holds (flushed half by half).
    pub depth: u32,
    /// Records the DRAM region holds.
    pub records: u64,
    /// `wrap` (keep the newest) or `linear` (keep the first, count the rest as lost).
    pub mode: String,
    /// Record layout, low bits first: site id, value (trip count), cycles since the previous record.
    pub id_bits: u32,
    pub value_bits: u32,
    pub delta_bits: u32,
    /// `watch`: the watch records among the trace's records (docs/watch.md#in-fpga).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub watch: Option<HwWatch>,
}

/// The watchpoints of an in-FPGA build. A watch event is a record whose id is its site's probe
/// id and whose value is `kind | element << 2` (kind 1 hit, 2 out of bounds, 3 invariant; the
/// element's index from the watched buffer's first, two's complement in the value's other bits),
/// followed, for an event with a value, by one record of id `value_id` holding the value (when
/// it fits the value field as a signed number) or two (low half first).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct HwWatch {
    pub value_id: u32,
    /// Elements `[a, b)` of the watched buffer are watched.
    pub range: [u64; 2],
    /// Elements `[0, bound)` are in bounds (0: no bound check).
    pub bound: u64,
    /// The invariant's allowed values.
    pub vmin: i64,
    pub vmax: i64,
    /// Plain hits are recorded (else violations only).
    pub hits: bool,
}

/// The key of a trace: the record sites (id, kind, file, line, column) and the layout, hashed.
pub fn trace_key(trace: &BranchTrace, layout: (u32, u32, u32)) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |line: String| {
        for b in line.bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    eat(format!("{layout:?}\n"));
    for s in &trace.sites {
        eat(format!("{}:{}:{}:{}:{}\n", s.id, s.kind, s.file, s.line, s.column));
    }
    h
}

/// [`trace_key`] of a build whose records include watch events: the watch sites and the value
/// record's id go into the hash too.
pub fn trace_key_with_watch(
    trace: &BranchTrace,
    layout: (u32, u32, u32),
    watch_sites: &[&ProbeEntry],
    value_id: u32,
) -> u64 {
    let mut h = trace_key(trace, layout);
    let mut eat = |line: String| {
        for b in line.bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    eat(format!("watch value {value_id}\n"));
    for p in watch_sites {
        eat(format!("{}:watch:{}:{}:{}\n", p.id, p.file, p.line, p.column));
    }
    h
}

/// A probe the monitor cannot see directly (a `#pragma HLS dataflow` function: a stream write in
/// its body would not be a dataflow process). Its time is first start to last end of `from`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct HwDerived {
    pub probe: u32,
    pub from: Vec<u32>,
    pub reason: String,
}

/// FNV-1a (64-bit) over one line per slot, `slot:id:kind:file:line:function:name`: changes
/// whenever the probes, their order or their sources change.
pub fn hw_key(slots: &[u32], probes: &[ProbeEntry]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for (slot, id) in slots.iter().enumerate() {
        let line = match probes.iter().find(|p| p.id == *id) {
            Some(p) => format!("{slot}:{id}:{}:{}:{}:{}:{}\n", p.kind, p.file, p.line, p.function, p.name),
            None => format!("{slot}:{id}:?\n"),
        };
        for b in line.bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    h
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct ManifestFile {
    /// Path relative to the input root, `/`-separated; the same below the output directory.
    pub path: String,
    pub original_sha256: String,
    pub instrumented_sha256: String,
    pub probes: usize,
    /// `[instrumented_first_line, original_first_line, line_count]` runs, 1-based. Lines not
    /// covered (the include line) have no original.
    pub line_map: Vec<[usize; 3]>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct ProbeEntry {
    pub id: u32,
    /// `function`, `loop`, `port`, `watch`, `snapshot` or `trace` (an OpenCL C function's branch records).
    pub kind: String,
    pub file: String,
    /// Original 1-based line and column (characters) of the function name, loop keyword or
    /// port parameter name.
    pub line: usize,
    pub column: usize,
    /// Qualified name of the function the probe is in (or is).
    pub function: String,
    /// Function name, loop label, Vitis' generated loop name, or port parameter name.
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub label: Option<String>,
    /// A loop's name in Vitis' reports when it has no label (`VITIS_LOOP_<line>_<n>`); a
    /// function's when its name is a macro for another identifier (the expansion, which Vitis
    /// sees: [`record_vitis_names`]).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub vitis_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub parent: Option<u32>,
    /// A function probe present only as the frame of probed loops (`modules` not selected).
    #[serde(skip_serializing_if = "std::ops::Not::not", default)]
    pub implied: bool,
    // The kinds' details are boxed: an entry has one or two of them, and inline they made every
    // entry 1.2 KB in memory (half a gigabyte for a 40 MB file's 540 000 probes).
    #[serde(skip_serializing_if = "Option::is_none", default, rename = "loop")]
    pub loop_info: Option<Box<LoopInfo>>,
    /// The loop heads a perfect nest: what its probe measures.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub nest: Option<Box<NestInfo>>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub module: Option<Box<ModuleInfo>>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub port: Option<Box<PortInfo>>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub watch: Option<Box<WatchInfo>>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub snapshot: Option<Box<SnapshotInfo>>,
}

/// A `watch` probe: one access (line and column of the pointer's name there) that may touch the
/// watched elements. Its unit (configured as in its read-out's CONFIG_WATCH and CONFIG_BOUNDS
/// records) watches elements `range` of `watched_buffer`, i.e. the bytes `[&buf[range[0]],
/// &buf[range[1]])`, and records: OUT_OF_BOUNDS (kind 2) for an access through the watched
/// buffer outside elements `[0, bound)`; INVARIANT (3) for an access in the range whose value
/// breaks the invariant; HIT (1) for another access in the range when `hits`. `addr` is the
/// element's address; `value` is the element's value after the statement (`value: element`)
/// or its index from the accessed pointer (`value: index`, see `index_reason`).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct WatchInfo {
    /// The `--watch`/`--watch-range` expression (`--invariant` alone: the invariant's).
    pub watched: String,
    /// The buffer named by the options (`buffer` may be another parameter that may alias it).
    pub watched_buffer: String,
    /// The pointer parameter accessed.
    pub buffer: String,
    /// `read`, `write` or `read-write`.
    pub access: String,
    /// The access is through another `__global` pointer parameter of the watched buffer's
    /// element type, watched because it may alias the buffer (no bound check there).
    #[serde(skip_serializing_if = "std::ops::Not::not", default)]
    pub may_alias: bool,
    /// `--bounds`: elements `[0, bound)` of the watched buffer are in bounds (only on sites of
    /// the watched buffer itself).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub bound: Option<u64>,
    /// Elements `[a, b)` of the watched buffer the unit watches: `--watch buf[k]` gives
    /// `[k, k + 1]`, `--watch-range buf[a:b]` `[a, b]`, `--invariant` alone its element or the
    /// bounds.
    pub range: [u64; 2],
    /// Plain hits are recorded (`--watch`/`--watch-range`); false: violations only.
    pub hits: bool,
    /// `element`: a record's value is the element's value after the access's statement (the
    /// value stored or loaded, converted to a 64-bit integer); `index`: the element's index.
    pub value: String,
    /// Why this site sends the index (the invariant is not checked at such a site).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub index_reason: Option<String>,
    /// The in-FPGA build (`--target vitis`): the accessed pointer is the watched buffer plus this
    /// many elements at every call (worked out from the call arguments, docs/watch.md#in-fpga).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub offset: Option<i64>,
    /// Bytes of one element: OpenCL C scalars and vectors (3-element vectors take 4 lanes);
    /// null for other types.
    pub elem_size: Option<u32>,
    /// `--invariant`, checked at this site (`value: element` only).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub invariant: Option<InvariantInfo>,
}

/// `--invariant 'buf[i] OP C'`: allowed values `[vmin, vmax]`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct InvariantInfo {
    pub expr: String,
    /// `<`, `<=`, `>`, `>=` or `==`.
    pub op: String,
    pub value: i64,
    pub vmin: i64,
    pub vmax: i64,
}

/// A `snapshot` probe: one side of a stall monitor (`--probes stall --at LINE`). Its unit records
/// one SNAPSHOT (kind 0) per execution of the statement; the k-th `after` record's time minus
/// the k-th `before` record's time is the statement's latency, loads included.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct SnapshotInfo {
    /// `before` or `after` the statement.
    pub role: String,
    /// The probe id of the other side.
    pub pair: u32,
    /// The statement's loads from `__global` pointers, as written, joined by `, `.
    pub access: String,
    /// The variable the `after` record's value is (the statement declares or assigns it, so the
    /// snapshot depends on the loads); null: the value is 0.
    pub dep: Option<String>,
}

/// An m_axi port of a module (`maxi`). Its `R` and `W` records carry the bytes one invocation of
/// the module (the probe's `parent`) read and wrote through it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct PortInfo {
    /// The element type as declared (`const int`); each counted access moves `sizeof` of it.
    pub element_type: String,
    /// The top-level m_axi ports this parameter is bound to (the INTERFACE pragmas it comes from).
    pub bound_to: Vec<PortOrigin>,
    /// Accesses and `memcpy` calls counted in this function.
    pub sites: usize,
    /// Of those, `memcpy` calls: when they are all of its sites, the port's bytes move in bulk
    /// (the cycle model times each as the copy module Vitis generates).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub memcpys: usize,
    /// Uses that may move data but are not counted, with the reason.
    pub uncounted: Vec<Uncounted>,
    /// Its element reads: the loops around each and whether it may be a burst (the cycle
    /// model's single-read waits, `sim::maxi_wait::single_read_stall`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reads: Vec<ReadSite>,
}

/// One element read of an m_axi port ([`crate::model::maxi::ReadRun`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReadSite {
    /// Lines of the loops around it, innermost first.
    pub loops: Vec<usize>,
    /// It may be a burst of its innermost loop (false: clearly not one forward run).
    pub may_burst: bool,
}

impl PortInfo {
    /// The m_axi bundle of the top-level port it is bound to; ports given none share Vitis'
    /// default one, `gmem`.
    pub fn bundle(&self) -> &str {
        self.bound_to.first().and_then(|o| o.bundle.as_deref()).unwrap_or("gmem")
    }
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl ProbeEntry {
    /// A probe of `kind` at `file:line:column` in `function`, named `name`, with nothing else
    /// known: each kind's entry sets its own fields over this.
    pub fn new(id: u32, kind: &str, file: &str, (line, column): (usize, usize), function: &str, name: &str) -> Self {
        ProbeEntry {
            id,
            kind: kind.into(),
            file: file.into(),
            line,
            column,
            function: function.into(),
            name: name.into(),
            label: None,
            vitis_name: None,
            parent: None,
            implied: false,
            loop_info: None,
            nest: None,
            module: None,
            port: None,
            watch: None,
            snapshot: None,
        }
    }

    /// The members of the perfect nest this loop probe measures as one flattened loop (names,
    /// outermost first); empty for any other probe.
    pub fn nest_unit(&self) -> Vec<String> {
        match &self.nest {
            Some(n) if n.probed == "unit" => n.members.iter().map(|m| m.name.clone()).collect(),
            _ => Vec::new(),
        }
    }
}

/// A perfect loop nest (each loop's body holds only the next loop), on the probe of its outermost
/// loop. Vitis flattens such a nest into one loop named [`NestInfo::flattened_name`].
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct NestInfo {
    /// `unit`: this one probe measures the whole nest (in-FPGA build, OpenCL C), begin before the
    /// outermost loop, end after it, its trips counted in the innermost body: the flattened trip
    /// count (the product of the members' trips when none exits early). `per_loop`: every member
    /// has its own probe (C simulation); this one measures the outermost loop.
    pub probed: String,
    /// The name Vitis gives the flattened loop: the members' names joined by `_`.
    pub flattened_name: String,
    /// The members, outermost first.
    pub members: Vec<NestMember>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct NestMember {
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub label: Option<String>,
    pub vitis_name: String,
    pub line: usize,
    pub column: usize,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct LoopInfo {
    pub kind: LoopKind,
    pub depth: usize,
    #[serde(flatten)]
    pub facts: LoopFacts,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct ModuleInfo {
    /// The body holds `#pragma HLS dataflow`: its callees run as concurrent processes.
    pub dataflow: bool,
    pub returns_void: bool,
    pub params: Vec<Param>,
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub stream_locals: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub calls: Vec<Call>,
    /// Exit sites: returns plus falling off the end.
    pub exits: usize,
    /// OpenCL C functions (`.cl` files): kernel or helper, autorun, attributes.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub opencl: Option<crate::opencl::OpenClFacts>,
    /// The function is pipelined with this II (`#pragma HLS PIPELINE` in its body, or a
    /// `pipeline` directive on the function): its latency is fixed, whatever its loops (they are
    /// unrolled into the pipeline).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub pipeline_ii: Option<u32>,
    /// `Some(false)`: `#pragma HLS INLINE off` (or an `inline off` directive) keeps the function a
    /// module of its own; `Some(true)`: `#pragma HLS INLINE` (or an `inline` directive) dissolves
    /// it into its callers.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub inline: Option<bool>,
    /// The facts a project directive set, each as `<fact>: <origin>` (`dataflow: hls_config.cfg:12`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub from_directive: Vec<String>,
    /// Local variables `#pragma HLS STREAM variable=` (or a `stream` directive) makes FIFOs.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub streamed: Vec<String>,
    /// Local arrays whose rows `ARRAY_PARTITION complete dim=1` (or `dim=0`) makes separate
    /// memories: each constant row is a channel of its own.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub row_partitioned: Vec<String>,
    /// Local arrays with an aggregate initialiser the function writes later: Vitis fills each
    /// with a module of `elements` trips, elements + 2 cycles (facts, rule 1), on every call.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub initialisers: Vec<InitInfo>,
    /// The chain of the whole body, its loops unrolled (`model::fnbody`): without a report, the
    /// depth of the function when it is (or runs inside) a pipeline.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub chain: Vec<crate::model::pragma::ChainStep>,
    /// The accesses of its array parameters, which two memory ports a bank serialise in a pipeline.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub port_uses: Vec<crate::model::fnbody::PortUse>,
    /// Reads and writes of its pointer and reference parameters that stand for one scalar:
    /// which arguments the s_axilite co-sim testbench writes and which it polls.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scalar_uses: Vec<crate::model::fnbody::ScalarUse>,
    /// The streams the body reads or writes outside its loops (`model::stream_use`): in a
    /// dataflow region their traffic spans the whole call.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub direct_streams: Vec<String>,
    /// Straight-line segments of the body with two calls or more (`model::segments`): which
    /// calls may start together (`sim::parcalls`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub segments: Vec<crate::model::segments::Segment>,
    /// Parameters declared `const` / `volatile` on their type: a callee's reads and the calls that
    /// keep their order (`sim::parcalls`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub const_params: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub volatile_params: Vec<String>,
    /// The body is combinational logic on scalar arguments (`model::registers`): without a
    /// report, a top of latency 0.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub combinational: bool,
    /// `#pragma HLS INTERFACE <mode> port=return`: the block control's protocol (`s_axilite`:
    /// ap_start and ap_done are registers of that bundle).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub control: Option<String>,
}

impl ModuleInfo {
    /// Whether a parameter is on an AXI interface (`m_axi`, `s_axilite` or `axis`): a top with
    /// such ports has Vitis' adapters around it (facts rule 11).
    pub fn has_axi_params(&self) -> bool {
        self.params.iter().any(|q| matches!(q.interface.as_deref(), Some("m_axi" | "s_axilite" | "axis")))
    }
}

/// One initialised local array of a function (see [`ModuleInfo::initialisers`]).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct InitInfo {
    pub array: String,
    pub line: usize,
    /// The dimensions as written, outermost first.
    pub dims: Vec<String>,
    /// The product of the dimensions, when every one evaluates.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub elements: Option<u64>,
    /// Why `elements` is missing: a dimension that does not evaluate.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub unknown: Option<String>,
}

/// Records on the probe of every function whose name is a macro for another identifier
/// ([`crate::model::aliases`]) the name Vitis knows it by, as its `vitis_name`.
pub fn record_vitis_names(manifest: &mut Manifest, aliases: &crate::model::aliases::Aliases) {
    if aliases.is_empty() {
        return;
    }
    for p in manifest.probes.iter_mut().filter(|p| p.kind == "function") {
        if let Some(to) = aliases.expand(&p.name) {
            p.vitis_name = Some(to.to_string());
        }
    }
}

/// Works out the element count of every initialiser of the manifest with the constants of the
/// source set; an initialiser already counted keeps its count.
pub fn resolve_initialisers(manifest: &mut Manifest, consts: &crate::model::consts::Constants) {
    let inits = manifest.probes.iter_mut().filter_map(|p| p.module.as_mut()).flat_map(|m| m.initialisers.iter_mut());
    for i in inits.filter(|i| i.elements.is_none()) {
        let mut product: u64 = 1;
        let mut why = None;
        for d in &i.dims {
            match consts.eval(d) {
                Ok(v) => match u64::try_from(v).ok().and_then(|v| product.checked_mul(v)) {
                    Some(p) => product = p,
                    None => why = Some(format!("dimension `{d}` = {v} is not a size")),
                },
                Err(e) => why = Some(format!("dimension `{d}`: {e}")),
            }
            if why.is_some() {
                break;
            }
        }
        i.elements = why.is_none().then_some(product);
        i.unknown = why;
    }
}

/// The elements and element width of every array parameter of the top function `top` (what
/// Vitis' co-sim testbench moves through an s_axilite bundle), from the constants and the
/// types of `texts` (sources and headers). Left unknown where a dimension or the type does not
/// resolve.
pub fn resolve_param_sizes(
    manifest: &mut Manifest,
    top: &str,
    texts: &[&str],
    consts: &crate::model::consts::Constants,
) {
    // `top` may be the name Vitis knows the function by (`set_top`), not the one it is defined with.
    let is_top = |p: &ProbeEntry| p.name == top || p.vitis_name.as_deref() == Some(top);
    let Some(m) =
        manifest.probes.iter_mut().find(|p| p.kind == "function" && is_top(p)).and_then(|p| p.module.as_mut())
    else {
        return;
    };
    if !m.params.iter().any(|p| !p.dims.is_empty()) {
        return;
    }
    let widths = crate::model::cbits::TypeWidths::scan(texts, consts);
    for p in m.params.iter_mut().filter(|p| !p.dims.is_empty()) {
        p.elements = p.dims.iter().try_fold(1u64, |acc, d| {
            consts.eval(d).ok().and_then(|v| u64::try_from(v).ok()).and_then(|v| acc.checked_mul(v))
        });
        p.elem_bits = widths.bits(&p.type_text);
    }
}

/// Evaluates every loop's memory accesses (`model::ports`) with the constants of the source set:
/// index ranges, dimensions, the loops inside unrolled.
pub fn resolve_loop_memories(manifest: &mut Manifest, consts: &crate::model::consts::Constants) {
    let memories = manifest.probes.iter_mut().filter_map(|p| p.loop_info.as_mut()?.facts.memory.as_mut());
    for m in memories {
        crate::model::ports::resolve(m, consts);
    }
}

/// Every op-chain step of the manifest (`model::opchain`): each loop's chain and recurrences,
/// each function's chain.
fn chain_steps_mut(manifest: &mut Manifest) -> impl Iterator<Item = &mut crate::model::pragma::ChainStep> {
    manifest.probes.iter_mut().flat_map(|p| {
        let loops = p.loop_info.as_mut().map(|l| l.facts.chain.iter_mut().chain(l.facts.recurrence.iter_mut()));
        let module = p.module.as_mut().map(|m| m.chain.iter_mut());
        loops.into_iter().flatten().chain(module.into_iter().flatten())
    })
}

/// An integer division by a constant of the sources or headers (`div=<divisor>` in an op chain,
/// `model::opchain`) is a shift or a multiply once the compiler has the value, as by a literal:
/// `divc`, no divider. A divisor no constant resolves (or zero) is a divider: `div`.
pub fn resolve_constant_divisors(manifest: &mut Manifest, consts: &crate::model::consts::Constants) {
    for s in chain_steps_mut(manifest) {
        for o in s.ops.iter_mut() {
            if let Some(divisor) = o.strip_prefix("div=") {
                let constant = consts.eval(divisor).is_ok_and(|v| v != 0);
                *o = if constant { "divc" } else { "div" }.to_string();
            }
        }
    }
}

/// Resolves the type names of every loop's and function's op chain (`model::opchain`) to
/// `float`, `double` or `int`, with the typedefs of `texts` (sources and headers).
pub fn resolve_chain_types(manifest: &mut Manifest, texts: &[&str]) {
    // A port whose reads the cycle model counts by element takes its element's size from the
    // type a typedef names (`typedef float Dtype_w;`).
    let typedef_ports = manifest.probes.iter().any(|p| p.port.as_ref().is_some_and(|i| !i.reads.is_empty()));
    let steps: Vec<_> = chain_steps_mut(manifest).collect();
    if steps.is_empty() && !typedef_ports {
        return; // no need to read the texts (a weights header can be tens of MB)
    }
    let aliases = crate::model::opchain::Aliases::scan(texts);
    for s in steps {
        aliases.resolve_step(s);
    }
    for info in manifest.probes.iter_mut().filter_map(|p| p.port.as_deref_mut()).filter(|i| !i.reads.is_empty()) {
        let (qualifier, name) = match info.element_type.strip_prefix("const ") {
            Some(rest) => ("const ", rest),
            None => ("", info.element_type.as_str()),
        };
        // `resolve` names every integer `int`: only a floating type is taken from it; an
        // integer's width from the type as its typedef writes it (`typedef ap_uint<8>
        // input_type;`, the public 2022.2 `mult_hw`: its reads are counted by element).
        let resolved = aliases.resolve(name);
        if resolved != name && matches!(resolved, "float" | "double") {
            info.element_type = format!("{qualifier}{resolved}");
        } else if let Some(written) = aliases.written(name) {
            info.element_type = format!("{qualifier}{written}");
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct SkipEntry {
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub function: String,
    pub reason: String,
}

impl SkipEntry {
    pub fn new(file: &str, s: &Skipped) -> Self {
        SkipEntry {
            file: file.to_string(),
            line: s.line,
            column: s.col,
            function: s.function.clone(),
            reason: s.reason.clone(),
        }
    }
}

/// Manifest entries for the probes planned in one file.
pub fn describe(
    file: &str,
    model: &FileModel,
    plan: &FilePlan,
    watch: Option<&crate::select::WatchSpec>,
) -> Vec<ProbeEntry> {
    plan.probes
        .iter()
        .map(|p| {
            let f = &model.functions[p.function];
            if let (Some(site), Some(w)) = (&p.watch, watch) {
                return watch_entry(file, f, p.id, site, w);
            }
            if let Some(snap) = &p.snap {
                return ProbeEntry {
                    snapshot: Some(Box::new(SnapshotInfo {
                        role: if snap.before { "before" } else { "after" }.into(),
                        pair: snap.pair,
                        access: snap.access.clone(),
                        dep: snap.dep.clone(),
                    })),
                    ..ProbeEntry::new(p.id, "snapshot", file, (snap.line, snap.col), &f.qualified, &snap.buffer)
                };
            }
            match (p.kind, p.loop_index, &p.port) {
                (ProbeKind::Trace, _, _) => {
                    ProbeEntry::new(p.id, "trace", file, (f.line, f.col), &f.qualified, &f.name)
                }
                (ProbeKind::Loop, Some(li), _) => {
                    let l = &f.loops[li];
                    let nest = p.nest.as_ref().map(|n| nest_info(f, n));
                    // A unit is the flattened loop: Vitis' name for it, the innermost loop's
                    // pragmas (its pipeline is the flattened loop's).
                    let (name, label, vitis_name, facts) = match (&nest, &p.nest) {
                        (Some(info), Some(n)) if n.unit => {
                            let innermost = &f.loops[*n.members.last().expect("members")];
                            (info.flattened_name.clone(), None, info.flattened_name.clone(), &innermost.details().facts)
                        }
                        _ => (l.name().to_string(), l.label.clone(), l.vitis_name.clone(), &l.details().facts),
                    };
                    ProbeEntry {
                        label,
                        vitis_name: Some(vitis_name),
                        parent: p.parent,
                        loop_info: Some(Box::new(LoopInfo { kind: l.kind, depth: l.depth, facts: facts.clone() })),
                        nest: nest.map(Box::new),
                        ..ProbeEntry::new(p.id, "loop", file, (l.line, l.col), &f.qualified, &name)
                    }
                }
                (ProbeKind::Port, _, Some(bound)) => {
                    let param = &f.maxi.params[bound.param];
                    let sites = param
                        .uses
                        .iter()
                        .filter(|u| matches!(u.kind, UseKind::Access { .. } | UseKind::Memcpy { .. }))
                        .count();
                    let memcpys = param.uses.iter().filter(|u| matches!(u.kind, UseKind::Memcpy { .. })).count();
                    ProbeEntry {
                        parent: p.parent,
                        port: Some(Box::new(PortInfo {
                            element_type: param.element_type.clone(),
                            bound_to: bound.origins.clone(),
                            sites,
                            memcpys,
                            uncounted: bound.uncounted.clone(),
                            reads: param
                                .uses
                                .iter()
                                .filter_map(|u| u.run.as_ref())
                                .map(|r| ReadSite { loops: r.loops.clone(), may_burst: r.may_burst })
                                .collect(),
                        })),
                        ..ProbeEntry::new(p.id, "port", file, (param.line, param.col), &f.qualified, &param.name)
                    }
                }
                _ => ProbeEntry {
                    parent: p.parent,
                    implied: p.implied,
                    module: Some(Box::new(ModuleInfo {
                        dataflow: f.dataflow(),
                        returns_void: f.returns_void,
                        params: f.params.clone(),
                        stream_locals: f.stream_locals.clone(),
                        calls: f.calls.clone(),
                        exits: f.returns.len() + usize::from(f.falls_off_at.is_some()),
                        opencl: f.opencl.clone(),
                        pipeline_ii: f.pipeline_ii(),
                        inline: f.inline_pragma(),
                        from_directive: Vec::new(),
                        streamed: f.streamed_vars(),
                        row_partitioned: f.row_partitioned_vars(),
                        initialisers: f
                            .initialisers
                            .iter()
                            .map(|i| InitInfo {
                                array: i.array.clone(),
                                line: i.line,
                                dims: i.dims.clone(),
                                elements: None,
                                unknown: None,
                            })
                            .collect(),
                        chain: f.body_chain.clone(),
                        port_uses: f.port_uses.clone(),
                        scalar_uses: f.scalar_uses.clone(),
                        direct_streams: f.direct_streams.clone(),
                        segments: f.segments.clone(),
                        const_params: f.const_params.clone(),
                        volatile_params: f.volatile_params.clone(),
                        combinational: f.combinational,
                        control: f.control.clone(),
                    })),
                    ..ProbeEntry::new(p.id, "function", file, (f.line, f.col), &f.qualified, &f.name)
                },
            }
        })
        .collect()
}

fn nest_info(f: &crate::model::Function, n: &NestPlan) -> NestInfo {
    NestInfo {
        probed: if n.unit { "unit" } else { "per_loop" }.into(),
        flattened_name: crate::model::nest::flattened_name(f, &n.members),
        members: n
            .members
            .iter()
            .map(|&m| {
                let l = &f.loops[m];
                NestMember {
                    name: l.name().to_string(),
                    label: l.label.clone(),
                    vitis_name: l.vitis_name.clone(),
                    line: l.line,
                    column: l.col,
                }
            })
            .collect(),
    }
}

/// The manifest entry of one watch site.
fn watch_entry(file: &str, f: &crate::model::Function, id: u32, site: &WatchSite, w: &WatchSpec) -> ProbeEntry {
    let param = &f.maxi.params[site.param];
    let u = &param.uses[site.use_index];
    let access = match u.kind {
        UseKind::Access { dir: Dir::Read, .. } => "read",
        UseKind::Access { dir: Dir::Write, .. } => "write",
        _ => "read-write",
    };
    let (a, b) = w.covered();
    let element = site.index_reason.is_none();
    let watched = match (&w.expr, &w.invariant) {
        (Some(e), _) => e.clone(),
        (None, Some(i)) => i.expr.clone(),
        (None, None) => String::new(),
    };
    ProbeEntry {
        watch: Some(Box::new(WatchInfo {
            watched,
            watched_buffer: w.buffer.clone(),
            buffer: param.name.clone(),
            access: access.into(),
            may_alias: site.alias,
            bound: if site.alias && !site.by_address { None } else { w.bound },
            range: [a, b],
            hits: w.hits(),
            value: if element { "element" } else { "index" }.into(),
            index_reason: site.index_reason.clone(),
            offset: site.offset,
            elem_size: element_size(&param.element_type),
            invariant: w.invariant.as_ref().filter(|_| element).map(|i| InvariantInfo {
                expr: i.expr.clone(),
                op: i.op.clone(),
                value: i.value,
                vmin: i.vmin,
                vmax: i.vmax,
            }),
        })),
        ..ProbeEntry::new(id, "watch", file, (u.line, u.col), &f.qualified, &param.name)
    }
}

/// Line runs `[instrumented, original, count]` for an output that inserted `inserted_newlines`
/// (offset in the original, newline count) and otherwise kept every line. An insertion at
/// offset `o` moves down every line that starts at or after `o`, so the runs change only at the
/// insertions: the text is only counted through, not walked line by line.
pub fn line_map(original: &str, inserted_newlines: &[(usize, usize)]) -> Vec<[usize; 3]> {
    let bytes = original.as_bytes();
    // Line n (from 0) starts at 0, or after the n-th newline when that is not the last byte.
    let lines = 1 + count_newlines(&bytes[..bytes.len().saturating_sub(1)]);
    let mut sorted = inserted_newlines.to_vec();
    sorted.sort();
    let mut runs: Vec<[usize; 3]> = Vec::new();
    let mut push = |first: usize, end: usize, shift: usize| {
        if first >= end {
            return;
        }
        let (instr, orig, count) = (first + 1 + shift, first + 1, end - first);
        match runs.last_mut() {
            Some(r) if r[0] + r[2] == instr && r[1] + r[2] == orig => r[2] += count,
            _ => runs.push([instr, orig, count]),
        }
    };
    let (mut line, mut shift) = (0, 0);
    // Newlines of `bytes[..counted_to]` are in `counted`; the offsets ascend, so each stretch of
    // the text is counted once.
    let (mut counted_to, mut counted) = (0, 0);
    for &(offset, added) in &sorted {
        // The first line starting at or after `offset`: the lines starting before it are the
        // first one (when `offset` > 0) and one per newline before `offset - 1`.
        let first_moved = if offset == 0 {
            0
        } else {
            let upto = (offset - 1).min(bytes.len());
            counted += count_newlines(&bytes[counted_to..upto]);
            counted_to = upto;
            1 + counted
        };
        let first_moved = first_moved.min(lines);
        push(line, first_moved, shift);
        line = first_moved;
        shift += added;
    }
    push(line, lines, shift);
    runs
}

/// Newlines in `bytes`, counted in a loop the compiler vectorises.
fn count_newlines(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| b == b'\n').count()
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    let d = Sha256::digest(bytes);
    d.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The map line by line, as it was computed before `line_map` counted through the text.
    fn line_map_line_by_line(original: &str, inserted_newlines: &[(usize, usize)]) -> Vec<[usize; 3]> {
        let starts =
            std::iter::once(0).chain(original.match_indices('\n').map(|(i, _)| i + 1).filter(|&i| i < original.len()));
        let mut runs: Vec<[usize; 3]> = Vec::new();
        let (mut shift, mut k) = (0, 0);
        let mut sorted = inserted_newlines.to_vec();
        sorted.sort();
        for (n, s) in starts.enumerate() {
            while k < sorted.len() && sorted[k].0 <= s {
                shift += sorted[k].1;
                k += 1;
            }
            let (instr, orig) = (n + 1 + shift, n + 1);
            match runs.last_mut() {
                Some(r) if r[0] + r[2] == instr && r[1] + r[2] == orig => r[2] += 1,
                _ => runs.push([instr, orig, 1]),
            }
        }
        runs
    }

    #[test]
    fn line_map_agrees_with_the_line_by_line_map() {
        // A small deterministic generator: texts of newlines and letters, insertions anywhere
        // (start, end, on newlines, right after them, several at one offset, zero newlines).
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n) as usize
        };
        for _ in 0..5000 {
            let len = next(24);
            let text: String = (0..len).map(|_| if next(3) == 0 { '\n' } else { 'a' }).collect();
            let inserts: Vec<(usize, usize)> = (0..next(5)).map(|_| (next(len as u64 + 1), next(3))).collect();
            assert_eq!(line_map(&text, &inserts), line_map_line_by_line(&text, &inserts), "{text:?} {inserts:?}");
        }
    }

    #[test]
    fn line_map_after_include() {
        assert_eq!(line_map("a\nb\nc\n", &[(0, 1)]), vec![[2, 1, 3]]);
        assert_eq!(line_map("a\nb", &[]), vec![[1, 1, 2]]);
        assert_eq!(line_map("a\nb\nc", &[(2, 2)]), vec![[1, 1, 1], [4, 2, 2]]);
    }
}
