//! The model's data: files, functions, loops, calls, returns, gotos, labels, with byte offsets.

use super::maxi;
use super::pragma::{Directive, HlsPragma, LoopFacts};
use serde::{Deserialize, Serialize};
use std::ops::Range;

pub type Span = Range<usize>;

/// Everything the rewriter knows about one file.
#[derive(Debug, Clone, Default)]
pub struct FileModel {
    pub functions: Vec<Function>,
    pub skipped: Vec<Skipped>,
    /// `#pragma HLSINSTR` lines we did not understand, and similar non-fatal notes.
    pub warnings: Vec<Skipped>,
    /// ERROR and MISSING nodes in the whole file.
    pub error_count: usize,
    /// Macros defined in this file whose expansion leaves the function: a body using one has an
    /// exit the rewriter cannot see, so it is skipped.
    pub jump_macros: Vec<JumpMacro>,
    /// Declarations of functions without a body, at namespace scope.
    pub prototypes: Vec<Prototype>,
    /// The names each skipped function calls, as far as its syntax tree shows them, by its
    /// qualified name: a skipped `--top` still leads to what it calls.
    pub skipped_calls: Vec<(String, Vec<String>)>,
    /// With `branches` probes: per function, its control-flow graph or why it has none
    /// ([`crate::cfg::build::attach`]).
    pub cfgs: Vec<Result<crate::cfg::build::FunctionCfg, String>>,
}

/// `#define CHECK(x) do { if (!(x)) return; } while (0)` and the like.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JumpMacro {
    pub name: String,
    /// `return` or `goto`.
    pub keyword: &'static str,
    pub line: usize,
    pub col: usize,
}

/// A function left untouched, with the reason (reported as `file:line:col: skipped f: reason`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Skipped {
    pub function: String,
    pub line: usize,
    pub col: usize,
    pub reason: String,
}

#[derive(Debug, Clone)]
pub struct Function {
    /// Last component of the name (`f` for `ns::S::f`): what call sites use.
    pub name: String,
    /// Name as declared, with enclosing namespaces and classes.
    pub qualified: String,
    pub line: usize,
    pub col: usize,
    /// The compound statement of the body.
    pub body: Span,
    pub returns_void: bool,
    pub params: Vec<Param>,
    pub returns: Vec<Return>,
    /// Where control falls off the end of the body, if it can.
    pub falls_off_at: Option<usize>,
    /// Loops in source (pre-)order; `Loop::parent` indexes this vector.
    pub loops: Vec<Loop>,
    pub calls: Vec<Call>,
    /// HLS pragmas written in the function body itself (not in its loops).
    pub pragmas: Vec<HlsPragma>,
    pub directive: Option<Directive>,
    /// `hls::stream` locals declared in the body.
    pub stream_locals: Vec<String>,
    /// Of those, the ones declared as a statement of a block: (name, offset just after the
    /// declaration's `;`), where C simulation gives an unnamed stream its variable's name.
    pub stream_decls: Vec<(String, usize)>,
    pub gotos: Vec<Goto>,
    pub labels: Vec<Label>,
    /// Pointer and array parameters and their uses, for m_axi byte counting; filled by
    /// [`maxi::attach`] only when `maxi` probes are asked for.
    pub maxi: maxi::MaxiFacts,
    /// The declaration as written, for targets that add parameters or declare it elsewhere.
    pub signature: Signature,
    /// In a `.cl` file: what the OpenCL pre-pass blanked before the body (kernel, attributes).
    pub opencl: Option<crate::opencl::OpenClFacts>,
    /// Local arrays with an aggregate initialiser that the function writes later (see
    /// [`super::init`]): Vitis fills each with a module of its own (facts, rule 1).
    pub initialisers: Vec<LocalInit>,
    /// The chain of the whole body, loops unrolled (`model::fnbody`): a pipelined function's depth.
    pub body_chain: Vec<super::pragma::ChainStep>,
    /// The accesses of its array parameters, which memory ports serialise in a pipeline.
    pub port_uses: Vec<super::fnbody::PortUse>,
    /// Reads and writes of its pointer and reference parameters that stand for one scalar.
    pub scalar_uses: Vec<super::fnbody::ScalarUse>,
    /// The streams the body reads or writes outside its loops (`model::stream_use`).
    pub direct_streams: Vec<String>,
    /// Straight-line segments of the body with two calls or more (`model::segments`): which
    /// calls Vitis may start together.
    pub segments: Vec<super::segments::Segment>,
    /// Parameters declared `const` / `volatile` on their type (what they point to or hold).
    pub const_params: Vec<String>,
    pub volatile_params: Vec<String>,
    /// The body is combinational logic on scalar arguments (`model::registers`): latency 0.
    pub combinational: bool,
    /// The mode of `#pragma HLS INTERFACE ... port=return` (`s_axilite`, `ap_ctrl_hs`, ...): where
    /// the block control is, when the source says.
    pub control: Option<String>,
}

/// `int t[N][4] = {...};` in a function body, not `static` or `const`, written later.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LocalInit {
    pub array: String,
    pub line: usize,
    /// The dimensions as written, outermost first (a `[]` is the initialiser's element count).
    pub dims: Vec<String>,
}

/// A function's parameter list as written.
#[derive(Debug, Clone, Default)]
pub struct Signature {
    /// The `( ... )` of the declarator.
    pub list: Span,
    /// Each parameter declaration's source text.
    pub params: Vec<String>,
    /// The list is `(void)`.
    pub void_list: bool,
    /// The return type as written (empty for constructors).
    pub return_type: String,
}

/// A function declaration without a body (`int f(int a);`) at namespace scope.
#[derive(Debug, Clone)]
pub struct Prototype {
    pub name: String,
    pub line: usize,
    pub col: usize,
    pub signature: Signature,
}

impl Function {
    pub fn dataflow(&self) -> bool {
        self.pragmas.iter().any(|p| p.directive == "DATAFLOW")
    }

    /// Variables a `#pragma HLS STREAM variable=...` in the body makes FIFOs (not `off`): as
    /// dataflow channels they let the consumer overlap the producer.
    pub fn streamed_vars(&self) -> Vec<String> {
        self.pragmas
            .iter()
            .filter(|p| p.directive == "STREAM" && !p.has_flag("off") && !ping_pong_stream(p.option("type")))
            .filter_map(|p| p.option("variable").map(str::to_string))
            .collect()
    }

    /// Arrays whose first dimension `#pragma HLS ARRAY_PARTITION ... complete` splits (`dim=1`,
    /// or `dim=0`: every dimension): each row is a memory of its own, so processes passing
    /// different constant rows (`buf[0]`, `buf[1]`) share no channel.
    pub fn row_partitioned_vars(&self) -> Vec<String> {
        self.pragmas
            .iter()
            .filter(|p| p.directive == "ARRAY_PARTITION")
            .filter(|p| p.has_flag("complete") || p.option("type") == Some("complete"))
            .filter(|p| matches!(p.option("dim").map(str::trim), Some("1" | "0")))
            .filter_map(|p| p.option("variable").map(str::to_string))
            .collect()
    }

    /// `#pragma HLS INLINE` on the function: `Some(true)`, or `Some(false)` with `off`.
    pub fn inline_pragma(&self) -> Option<bool> {
        let p = self.pragmas.iter().rev().find(|p| p.directive == "INLINE")?;
        Some(!(p.has_flag("off") || p.option("off").is_some_and(|v| v.eq_ignore_ascii_case("true"))))
    }

    /// `#pragma HLS PIPELINE` on the function itself (not `off`): its II (1 when bare).
    pub fn pipeline_ii(&self) -> Option<u32> {
        let facts = crate::model::pragma::LoopFacts::from_pragmas(&self.pragmas);
        facts.pipeline_ii.filter(|_| !facts.pipeline_off)
    }

    /// Loops enclosing loop `i`, outermost first, `i` included.
    pub fn loop_chain(&self, i: usize) -> Vec<usize> {
        let mut chain = vec![i];
        let mut cur = i;
        while let Some(p) = self.loops[cur].parent {
            chain.push(p);
            cur = p;
        }
        chain.reverse();
        chain
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ParamKind {
    Scalar,
    Pointer,
    Array,
    Reference,
    Stream,
}

/// An interface Vitis does not apply to a parameter of this kind: `m_axi` on a scalar passed
/// by value (the public 2023.2 `kernel` of gbmanske/INOVAME: its report's pragma table says
/// "Unsupported interface port data type" and the top keeps its ap_ctrl_hs handshake).
pub fn ignored_interface(mode: &str, kind: ParamKind) -> bool {
    mode == "m_axi" && kind == ParamKind::Scalar
}

/// A `STREAM` pragma's or directive's `type`: `pipo` keeps the array a ping-pong buffer, as
/// arrays between dataflow processes are by default (UG1399 "pragma HLS stream"); `fifo` (the
/// default), `shared` and `unsync` make it a channel the processes share as they run.
pub fn ping_pong_stream(stream_type: Option<&str>) -> bool {
    stream_type.is_some_and(|t| t.trim().eq_ignore_ascii_case("pipo"))
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Param {
    pub name: String,
    #[serde(rename = "type")]
    pub type_text: String,
    pub kind: ParamKind,
    /// `m_axi` when an INTERFACE pragma in the body says so.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interface: Option<String>,
    /// An array parameter's dimensions as written, outermost first (`a[N][4]` → `N`, `4`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dims: Vec<String>,
    /// Its elements and their width in bits, once the sources' constants and types are known
    /// (`emit::manifest::resolve_param_sizes`); what the co-sim testbench moves over an
    /// s_axilite bundle.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elements: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elem_bits: Option<u32>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LoopKind {
    For,
    While,
    DoWhile,
    RangeFor,
}

#[derive(Debug, Clone)]
pub struct Loop {
    pub kind: LoopKind,
    /// The label written directly on the loop (`outer:` in `outer: for ...`).
    pub label: Option<String>,
    /// Vitis' own name for unlabeled loops: `VITIS_LOOP_<line>_<n>`, n counting the function's
    /// unlabeled loops in source order (a labeled loop takes no number).
    pub vitis_name: String,
    /// Position of the loop keyword.
    pub line: usize,
    pub col: usize,
    /// The loop statement with its labels: what a begin/end probe surrounds.
    pub unit: Span,
    /// Whether `unit` sits in a statement list (block or case); otherwise probes need braces.
    pub unit_in_list: bool,
    pub body: Span,
    pub body_is_block: bool,
    pub parent: Option<usize>,
    /// Nesting depth among all loops of the function (0 = outermost).
    pub depth: usize,
    pub pragmas: Vec<HlsPragma>,
    pub directive: Option<Directive>,
    /// A `break` in the body leaves this loop (not one inside a nested loop or `switch`).
    pub breaks: bool,
    /// What probing the loop takes; built for every loop that can get a probe (see
    /// [`LoopDetail`]), none for the others.
    /// Boxed: `model::body`'s walk holds a `Loop` in each frame of its recursion, one a level
    /// of nesting (a debug build's 2 MiB test thread took 256 levels only just).
    pub details: Option<Box<LoopDetails>>,
}

/// The facts about a loop that only its own probe and the perfect-nest analysis ([`nest`]) use.
#[derive(Debug, Clone)]
pub struct LoopDetails {
    /// Where "before the loop" is: `unit.start`, or the end of the previous statement when
    /// pragmas sit between (inserting after a `#pragma unroll` would detach it from its loop).
    pub before: usize,
    pub facts: LoopFacts,
    /// The loop's header as written: `for (...)`, `while (...)`, the `while (...);` of a do-while.
    pub header: String,
    /// Variables the header's initializer declares or assigns (`i` in `for (int i = 0; ...)`;
    /// the range variable of a range-for): what an inner loop's bounds may depend on.
    pub induction: Vec<String>,
    /// The body holds this loop (index in `Function::loops`) and nothing else but comments,
    /// pragmas and empty statements: one level of a perfect nest (see [`nest`]).
    pub only_child: Option<usize>,
}

/// Which loops get their [`LoopDetails`]. Working them out costs about a quarter of the model,
/// and without the `loops` probe kind only loops marked `#pragma HLSINSTR probe` (and the loops
/// inside them) can be probed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoopDetail {
    /// Every loop.
    All,
    /// The loops of functions that have a loop marked `#pragma HLSINSTR probe`.
    Marked,
}

impl Loop {
    /// The name reports use: the label, else Vitis' generated name.
    pub fn name(&self) -> &str {
        self.label.as_deref().unwrap_or(&self.vitis_name)
    }

    /// The loop's details; only asked for loops that can be probed, which always have them.
    pub fn details(&self) -> &LoopDetails {
        self.details.as_ref().expect("loops that can be probed have their details (model::LoopDetail)")
    }
}

#[derive(Debug, Clone)]
pub struct Return {
    /// Offset just after the `return` keyword.
    pub keyword_end: usize,
    /// The returned expression, if any.
    pub value: Option<Span>,
    /// Loops (indices) enclosing the return, outermost first.
    pub loops: Vec<usize>,
    pub line: usize,
    pub col: usize,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Call {
    /// Callee as written (`ns::f`, `obj.f`, `f<int>`), normalised to no whitespace.
    pub callee: String,
    /// The callee expression and the `( ... )` of the arguments, as written.
    #[serde(skip)]
    pub callee_span: Span,
    #[serde(skip)]
    pub args_span: Span,
    /// Last name component, used to resolve the call graph.
    pub name: String,
    pub line: usize,
    /// Argument texts, whitespace-normalised.
    pub args: Vec<String>,
    /// The call is an `hls::task` declaration: the callee runs as a free-running process.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub task: bool,
    /// The line of the innermost loop around the call (`None`: directly in the function's
    /// body), for telling a call inside a loop from one of the same function after it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub in_loop: Option<usize>,
}

#[derive(Debug, Clone)]
pub struct Goto {
    pub label: String,
    pub loops: Vec<usize>,
    pub line: usize,
    pub col: usize,
}

#[derive(Debug, Clone)]
pub struct Label {
    pub name: String,
    /// Offset just after the label's colon.
    pub colon_end: usize,
    pub loops: Vec<usize>,
    /// The labeled statement sits in a statement list (so a statement can follow the colon).
    pub in_list: bool,
    pub unit: Span,
}
