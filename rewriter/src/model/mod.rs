//! Stage 2, model: what the rewriter knows about a kernel file, as plain data with byte offsets.
//!
//! The model is built once from the syntax tree; planning works on it alone. Every function we
//! cannot read safely is kept out of `functions` and listed in `skipped` with the reason.

mod conditional;
pub mod maxi;
pub mod nest;
pub mod pragma;
mod prune;

use crate::parse::{children, field, kind, named_children};
use crate::source::line_col;
use pragma::{classify, Directive, HlsPragma, LoopFacts, PragmaLine};
use serde::{Deserialize, Serialize};
use std::ops::Range;
use tree_sitter::{Node, Tree, TreeCursor};

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
    pub gotos: Vec<Goto>,
    pub labels: Vec<Label>,
    /// Pointer and array parameters and their uses, for m_axi byte counting; filled by
    /// [`maxi::attach`] only when `maxi` probes are asked for.
    pub maxi: maxi::MaxiFacts,
    /// The declaration as written, for targets that add parameters or declare it elsewhere.
    pub signature: Signature,
    /// In a `.cl` file: what the OpenCL pre-pass blanked before the body (kernel, attributes).
    pub opencl: Option<crate::opencl::OpenClFacts>,
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
            .filter(|p| p.directive == "STREAM" && !p.has_flag("off"))
            .filter_map(|p| p.option("variable").map(str::to_string))
            .collect()
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

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Param {
    pub name: String,
    #[serde(rename = "type")]
    pub type_text: String,
    pub kind: ParamKind,
    /// `m_axi` when an INTERFACE pragma in the body says so.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interface: Option<String>,
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
    /// Vitis' own name for unlabeled loops: `VITIS_LOOP_<line>_<ordinal in function>`.
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
    pub details: Option<LoopDetails>,
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

/// Build the model of a parsed file, with the details of every loop.
pub fn build(tree: &Tree, text: &str) -> FileModel {
    build_with(tree, text, LoopDetail::All)
}

/// Build the model of a parsed file, with the details of the loops `detail` says.
pub fn build_with(tree: &Tree, text: &str, detail: LoopDetail) -> FileModel {
    let _lines = LineIndex::install(text);
    let mut model = FileModel { error_count: crate::parse::count_errors(tree.root_node()), ..Default::default() };
    collect_jump_macros(tree.root_node(), text, &mut model.jump_macros);
    let mut scope = Vec::new();
    collect_functions(tree.root_node(), text, detail, &mut scope, &mut model, false, 0);
    model
}

/// `#define`s anywhere in the file whose replacement text holds `return` or `goto`.
///
/// A definition starts with its `#define` token, so only the nodes around the word `define` in
/// the text are looked at: walking the whole tree would cost more than the rest of the model.
fn collect_jump_macros(root: Node, text: &str, out: &mut Vec<JumpMacro>) {
    let mut cursor = root.walk();
    let mut last = None;
    for (at, _) in text.match_indices("define") {
        cursor.reset(root);
        let Some(node) = definition_around(&mut cursor, at) else { continue };
        if last == Some(node.id()) {
            continue; // `define` twice in one definition
        }
        last = Some(node.id());
        let (Some(name), Some(value)) = (node.child_by_field_name("name"), node.child_by_field_name("value")) else {
            continue;
        };
        // `return` in a string literal of the replacement text (`"... return; ..."`) is data.
        let mut value = node_text(value, text).to_string();
        for r in crate::strip::literal_ranges(&value).into_iter().rev() {
            value.replace_range(r, "\"\"");
        }
        let words = value.split(|c: char| !(c.is_alphanumeric() || c == '_'));
        if let Some(keyword) = words.filter_map(|w| ["return", "goto"].into_iter().find(|k| *k == w)).next() {
            let (line, col) = position(text, name.start_byte());
            out.push(JumpMacro { name: node_text(name, text).to_string(), keyword, line, col });
        }
    }
}

/// The outermost macro definition below the cursor's node that contains byte `at`.
fn definition_around<'t>(cursor: &mut TreeCursor<'t>, at: usize) -> Option<Node<'t>> {
    loop {
        let node = cursor.node();
        if matches!(kind(node), "preproc_def" | "preproc_function_def") {
            return Some(node);
        }
        // The first child ending after `at`; it does not contain `at` when it starts after it.
        cursor.goto_first_child_for_byte(at)?;
        if cursor.node().start_byte() > at {
            return None;
        }
    }
}

fn node_text<'a>(node: Node, text: &'a str) -> &'a str {
    &text[node.byte_range()]
}

/// The words of `s` joined by single spaces.
fn squash(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for word in s.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// 1-based line and character column of a byte offset.
pub fn position(text: &str, offset: usize) -> (usize, usize) {
    if let Some((line, line_start)) = LineIndex::lookup(text, offset) {
        return (line, text[line_start..offset].chars().count() + 1);
    }
    let (line, _) = line_col(text, offset);
    let line_start = text[..offset].rfind('\n').map(|i| i + 1).unwrap_or(0);
    (line, text[line_start..offset].chars().count() + 1)
}

thread_local! {
    /// Line starts of the text `build` is reading: (text address, text length, starts).
    static LINES: std::cell::RefCell<Option<(usize, usize, Vec<usize>)>> = const { std::cell::RefCell::new(None) };
}

/// While alive, [`position`] on the text it was made for finds lines by binary search instead of
/// counting newlines from the start: a model asks for thousands of positions in one file.
struct LineIndex;

impl LineIndex {
    fn install(text: &str) -> LineIndex {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        LINES.with(|l| *l.borrow_mut() = Some((text.as_ptr() as usize, text.len(), starts)));
        LineIndex
    }

    /// (1-based line, byte offset of its start), when `text` is the indexed text.
    fn lookup(text: &str, offset: usize) -> Option<(usize, usize)> {
        LINES.with(|l| match &*l.borrow() {
            Some((ptr, len, starts)) if *ptr == text.as_ptr() as usize && *len == text.len() => {
                let line = starts.partition_point(|&s| s <= offset);
                Some((line, starts[line - 1]))
            }
            _ => None,
        })
    }
}

impl Drop for LineIndex {
    fn drop(&mut self) {
        LINES.with(|l| *l.borrow_mut() = None);
    }
}

/// Walk namespaces, `extern "C"` blocks, templates and class bodies looking for function definitions.
/// `in_error`: `node` is (inside) a syntax error, already reported. `depth`: containers around it.
fn collect_functions(
    node: Node,
    text: &str,
    detail: LoopDetail,
    scope: &mut Vec<String>,
    model: &mut FileModel,
    in_error: bool,
    depth: usize,
) {
    if depth > MAX_SCOPE_DEPTH {
        let (line, col) = position(text, node.start_byte());
        let reason = format!("scopes nested deeper than {MAX_SCOPE_DEPTH}; nothing inside is instrumented");
        model.warnings.push(Skipped { function: String::new(), line, col, reason });
        return;
    }
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        if !in_error {
            report_unreadable(child, text, model);
        }
        match kind(child) {
            "function_definition" => function(child, text, detail, scope, model),
            "declaration" if !in_error => {
                prototype(child, text, model);
                collect_functions(child, text, detail, scope, model, in_error, depth + 1)
            }
            "namespace_definition" => {
                let name = child.child_by_field_name("name").map(|n| node_text(n, text).to_string());
                if let Some(n) = &name {
                    scope.push(n.clone());
                }
                if let Some(body) = child.child_by_field_name("body") {
                    collect_functions(body, text, detail, scope, model, in_error, depth + 1);
                }
                if name.is_some() {
                    scope.pop();
                }
            }
            "class_specifier" | "struct_specifier" | "union_specifier" => {
                // Anonymous classes (`struct { ... } s;`) add no scope but may still hold methods.
                let name = child.child_by_field_name("name").map(|n| node_text(n, text).to_string());
                if let Some(body) = child.child_by_field_name("body") {
                    scope.extend(name.clone());
                    collect_functions(body, text, detail, scope, model, in_error, depth + 1);
                    scope.truncate(scope.len() - usize::from(name.is_some()));
                }
            }
            // A friend defined in its class belongs to the enclosing namespace, not the class.
            "friend_declaration" => {
                let class = scope.pop();
                collect_functions(child, text, detail, scope, model, in_error, depth + 1);
                scope.extend(class);
            }
            // Containers whose children may be definitions.
            "linkage_specification"
            | "declaration_list"
            | "template_declaration"
            | "field_declaration_list"
            | "preproc_if"
            | "preproc_ifdef"
            | "preproc_else"
            | "preproc_elif"
            | "preproc_elifdef"
            | "declaration"
            | "field_declaration"
            | "type_definition"
            | "ERROR" => collect_functions(child, text, detail, scope, model, in_error || child.is_error(), depth + 1),
            _ => {}
        }
    }
}

/// Code tree-sitter could not read may hide a function that does not even look like one: say so
/// instead of leaving it out silently. `node` is a child of a scope (file, namespace, class).
fn report_unreadable(node: Node, text: &str, model: &mut FileModel) {
    let first_error = |n: Node| {
        let (l, c) = position(text, crate::parse::first_error(n).unwrap_or(n).start_byte());
        format!("{l}:{c}")
    };
    // (node, start of the syntax error it is in); an explicit stack, errors can nest deep.
    let mut stack: Vec<(Node, Option<Node>)> = vec![(node, None)];
    // Errors in which a function head was found: their blocks are that function's, reported.
    let mut headed: Vec<usize> = Vec::new();
    while let Some((n, error)) = stack.pop() {
        let reason = match kind(n) {
            "function_definition" => None,
            "ERROR" => {
                let outer = error.unwrap_or(n);
                if unread_function_heads(n, text, outer, model) {
                    headed.push(outer.id());
                }
                stack.extend(n.children(&mut n.walk()).map(|c| (c, Some(outer))).collect::<Vec<_>>().into_iter().rev());
                None
            }
            // `int f(int n) { ... }` read as a declaration with a braced initializer: an error
            // inside the body (a conditional inside a statement) made it so. A skipped function.
            "declaration" if error.is_none() && n.has_error() && misread_body(n, text, model) => None,
            "compound_statement" if error.is_some_and(|e| headed.contains(&e.id())) => None,
            // Blocks left outside any function definition: bodies whose heads were misread.
            "compound_statement" if error.is_some() => Some(format!(
                "syntax error at {}: this block is not read as a function body and is not instrumented (`#if 0` text, unbalanced braces or a macro?)",
                first_error(error.unwrap_or(n))
            )),
            "declaration" | "field_declaration"
                if n.has_error() && n.children(&mut n.walk()).any(|c| c.is_error() || c.is_missing()) =>
            {
                Some(format!(
                    "syntax error at {}: read as a declaration; if this is a function definition (`void f() {{ {{}} }}`?), it is not instrumented",
                    first_error(n)
                ))
            }
            _ if error.is_some() => {
                stack.extend(n.children(&mut n.walk()).map(|c| (c, error)).collect::<Vec<_>>().into_iter().rev());
                None
            }
            _ => None,
        };
        if let Some(reason) = reason {
            let (line, col) = position(text, n.start_byte());
            model.warnings.push(Skipped { function: String::new(), line, col, reason });
        }
    }
}

/// A declaration `f(...) {...}` whose braced initializer is a function body that a conditional
/// split: reported as a skipped function naming the directive, its calls kept. Returns whether
/// it was.
fn misread_body(decl: Node, text: &str, model: &mut FileModel) -> bool {
    let Some(init) = field(decl, "declarator").filter(|d| kind(*d) == "init_declarator") else { return false };
    let (Some(fdecl), Some(value)) = (field(init, "declarator"), field(init, "value")) else { return false };
    if kind(fdecl) != "function_declarator"
        || kind(value) != "initializer_list"
        || text[init.start_byte()..value.start_byte()].contains('=')
    {
        return false;
    }
    let Some(name) = field(fdecl, "declarator").filter(|d| kind(*d) == "identifier") else { return false };
    let open = value.start_byte();
    let end = conditional::matching_brace(text, open).map_or(decl.end_byte(), |c| c + 1);
    let (line, col) = position(text, name.start_byte());
    // Only a conditional gets this reading; other misread bodies stay warnings (report_unreadable).
    let Some(reason) = conditional::split_reason(text, decl.start_byte()..end, crate::parse::Lang::of_node(decl))
    else {
        return false;
    };
    let function = node_text(name, text).to_string();
    model.skipped_calls.push((function.clone(), call_names(&[decl], text)));
    model.skipped.push(Skipped { function, line, col, reason });
    true
}

/// A function head followed by its `{` among the children of a syntax error: a definition whose
/// body could not be read as a block (a file cut off inside it, braces opened in both branches of
/// an `#if`). Each is reported as a skipped function, by name. Returns whether there was one.
fn unread_function_heads(error_node: Node, text: &str, outer: Node, model: &mut FileModel) -> bool {
    let children: Vec<Node> = error_node.children(&mut error_node.walk()).collect();
    let mut found = false;
    for pair in children.windows(2) {
        if kind(pair[0]) != "function_declarator" || kind(pair[1]) != "{" {
            continue;
        }
        let Some(name) = field(pair[0], "declarator").filter(|d| kind(*d) == "identifier") else { continue };
        let (line, col) = position(text, name.start_byte());
        let (bl, bc) = position(text, pair[1].start_byte());
        let range = pair[0].start_byte()..error_node.end_byte();
        let split = conditional::split_reason(text, range, crate::parse::Lang::of_node(error_node));
        let reason = split.unwrap_or_else(|| format!(
            "does not parse cleanly (a syntax error from {}:{} on; the block opened at {bl}:{bc} is not read as its body); fix it or check macros that hide syntax",
            position(text, outer.start_byte()).0,
            position(text, outer.start_byte()).1
        ));
        let after = children.iter().copied().skip_while(|c| c.id() != pair[1].id()).collect::<Vec<_>>();
        model.skipped_calls.push((node_text(name, text).to_string(), call_names(&after, text)));
        model.skipped.push(Skipped { function: node_text(name, text).to_string(), line, col, reason });
        found = true;
    }
    found
}

/// The last name component of each callee below `nodes` (`f` of `ns::f<int>(x)` or `obj.f(x)`),
/// also where a syntax error left a name and its argument list side by side without a call node.
fn call_names(nodes: &[Node], text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut stack: Vec<Node> = nodes.iter().rev().copied().collect();
    let mut add = |callee: Node| {
        let mut n = callee;
        loop {
            match kind(n) {
                "field_expression" => n = field(n, "field").unwrap_or(n),
                "qualified_identifier" => n = field(n, "name").unwrap_or(n),
                "template_function" | "template_method" => n = field(n, "name").unwrap_or(n),
                _ => break,
            }
            if matches!(kind(n), "identifier" | "field_identifier" | "operator_name" | "destructor_name") {
                break;
            }
        }
        let name = node_text(n, text).split('<').next().unwrap_or("").trim().to_string();
        if !name.is_empty() && !out.contains(&name) {
            out.push(name);
        }
    };
    while let Some(n) = stack.pop() {
        if kind(n) == "call_expression" {
            if let Some(f) = field(n, "function") {
                add(f);
            }
        }
        let kids: Vec<Node> = named_children(n).collect();
        for pair in kids.windows(2) {
            if kind(pair[0]) == "identifier" && kind(pair[1]) == "argument_list" && kind(n) != "call_expression" {
                add(pair[0]);
            }
        }
        stack.extend(kids.into_iter().rev());
    }
    out
}

/// The declarator chain down to the function declarator: `void *f()` has a pointer on the way.
fn function_declarator(mut decl: Node) -> (Option<Node>, bool) {
    let mut indirect = false;
    loop {
        match kind(decl) {
            "function_declarator" => return (Some(decl), indirect),
            "pointer_declarator" | "reference_declarator" => indirect = true,
            "parenthesized_declarator" | "attributed_declarator" => {}
            _ => return (None, indirect),
        }
        match decl
            .child_by_field_name("declarator")
            .or_else(|| decl.named_child(decl.named_child_count().saturating_sub(1)))
        {
            Some(d) => decl = d,
            None => return (None, indirect),
        }
    }
}

/// `constexpr`/`consteval` among the specifiers before the declarator.
fn constant_evaluated(node: Node, decl: Node, text: &str) -> Option<&'static str> {
    let specifiers = children(node).take_while(|c| c.id() != decl.id());
    for s in specifiers {
        match node_text(s, text).trim() {
            "constexpr" => return Some("constexpr"),
            "consteval" => return Some("consteval"),
            _ => {}
        }
    }
    None
}

/// A conversion operator's `operator_cast` (`operator int() const`, `S::operator bool()`).
fn operator_cast(decl: Node) -> Option<Node> {
    match kind(decl) {
        "operator_cast" => Some(decl),
        "qualified_identifier" => decl.child_by_field_name("name").and_then(operator_cast),
        _ => None,
    }
}

/// The parameter list holder of a conversion operator, below any `*`/`&` of its target type.
fn cast_declarator(cast: Node) -> (Option<Node>, bool) {
    let mut indirect = false;
    let mut d = cast.child_by_field_name("declarator");
    while let Some(n) = d {
        match kind(n) {
            "abstract_function_declarator" => return (Some(n), indirect),
            "abstract_pointer_declarator" | "abstract_reference_declarator" => indirect = true,
            _ => {}
        }
        d = n.child_by_field_name("declarator").or_else(|| n.named_child(n.named_child_count().saturating_sub(1)));
    }
    (None, indirect)
}

fn function(node: Node, text: &str, detail: LoopDetail, scope: &[String], model: &mut FileModel) {
    let Some(decl) = node.child_by_field_name("declarator") else { return };
    let cast = operator_cast(decl);
    let (fdecl, indirect) = match cast {
        Some(c) => cast_declarator(c),
        None => function_declarator(decl),
    };
    let Some(fdecl) = fdecl else { return };
    // A conversion operator is named by its declarator up to the parameters: `S::operator int`.
    let Some(name_node) = (if cast.is_some() { Some(decl) } else { fdecl.child_by_field_name("declarator") }) else {
        return;
    };
    let Some(body) = node.child_by_field_name("body") else { return };
    let declared = match cast {
        Some(_) => squash(&text[name_node.start_byte()..fdecl.start_byte()]),
        None => squash(node_text(name_node, text)),
    };
    let name = match cast {
        Some(c) => squash(&text[c.start_byte()..fdecl.start_byte()]),
        // `sum<int>` (an explicit specialization) is called as `sum`; `operator<<` keeps its `<`.
        None => {
            let last = declared.rsplit("::").next().unwrap_or(&declared).trim();
            let bare = if last.starts_with("operator") { last } else { last.split('<').next().unwrap_or(last) };
            bare.trim().to_string()
        }
    };
    let qualified = if scope.is_empty() { declared.clone() } else { format!("{}::{}", scope.join("::"), declared) };
    let (line, col) = position(text, name_node.start_byte());
    let skip = |reason: String, model: &mut FileModel| {
        model.skipped.push(Skipped { function: qualified.clone(), line, col, reason });
        model.skipped_calls.push((qualified.clone(), call_names(&[body], text)));
    };

    if kind(body) != "compound_statement" {
        return skip(format!("body is a `{}`, not a block (function-try-block?)", kind(body)), model);
    }
    if let Some(err) = crate::parse::first_error(node) {
        let (l, c) = position(text, err.start_byte());
        if let Some(mut reason) = conditional::split_reason(text, node.byte_range(), crate::parse::Lang::of_node(node))
        {
            // Braces split by a conditional make the parser read on past the function's end:
            // what it swallowed is not instrumented either, and must not go unmentioned.
            if let Some(end) = conditional::end_with_first_branches(text, node.byte_range(), body.start_byte()) {
                let rest = text[end + 1..node.end_byte()].trim_start();
                if !rest.trim().is_empty() {
                    let (fl, fc) = position(text, node.end_byte() - rest.len());
                    let (tl, tc) = position(text, node.end_byte());
                    reason.push_str(&format!(
                        "; the parser reads the code after it, {fl}:{fc} to {tl}:{tc}, as part of it: that code is not instrumented either"
                    ));
                }
            }
            return skip(reason, model);
        }
        let what = if err.is_missing() { format!("missing `{}`", kind(err)) } else { "syntax error".to_string() };
        // Error recovery may have swallowed what follows (`#if 0` text): say where it stops.
        let (el, ec) = position(text, node.end_byte());
        return skip(
            format!(
                "does not parse cleanly ({what} at {l}:{c}; read as one definition up to {el}:{ec}); fix it or check macros that hide syntax"
            ),
            model,
        );
    }
    if let Some(kw) = constant_evaluated(node, decl, text) {
        return skip(format!("`{kw}` function: a probe would stop it being usable in constant expressions"), model);
    }
    let ty = node.child_by_field_name("type");
    if ty.is_none() && !is_special_member(&declared, scope) {
        return skip(
            "no return type: probably a function-like macro invocation misread as a function".to_string(),
            model,
        );
    }
    let returns_void = match (cast, ty) {
        (Some(c), _) => !indirect && c.child_by_field_name("type").is_some_and(|t| node_text(t, text) == "void"),
        (None, None) => true, // constructors and destructors
        (None, Some(t)) => {
            let trailing =
                named_children(fdecl).find(|c| kind(*c) == "trailing_return_type").map(|t| squash(node_text(t, text)));
            match trailing {
                Some(tr) => !indirect && tr.trim_start_matches("->").trim() == "void",
                None => !indirect && node_text(t, text) == "void",
            }
        }
    };

    let mut f = Function {
        name,
        qualified: qualified.clone(),
        line,
        col,
        body: body.byte_range(),
        returns_void,
        params: params(fdecl, text),
        returns: Vec::new(),
        falls_off_at: None,
        loops: Vec::new(),
        calls: Vec::new(),
        pragmas: Vec::new(),
        directive: None,
        stream_locals: Vec::new(),
        gotos: Vec::new(),
        labels: Vec::new(),
        maxi: maxi::MaxiFacts::default(),
        signature: signature(fdecl, ty, text),
        opencl: None,
    };
    let mut walker = BodyWalker {
        text,
        f: &mut f,
        jump_macros: &model.jump_macros,
        path: Vec::new(),
        loop_stack: Vec::new(),
        problem: None,
        warnings: Vec::new(),
        pending: Vec::new(),
        loop_nodes: Vec::new(),
        // With a macro that hides a jump, every identifier counts: nothing is skipped.
        pruning: model.jump_macros.is_empty().then(|| prune::Pruning::new(body, text)),
        pending_pragmas: Vec::new(),
        objects: field(fdecl, "parameters")
            .map(|l| named_children(l).flat_map(|p| class_typed_names(p, text)).collect())
            .unwrap_or_default(),
    };
    walker.block_children(body);
    let problem = walker.problem.take();
    let warnings = std::mem::take(&mut walker.warnings);
    let loop_nodes = std::mem::take(&mut walker.loop_nodes);
    for (offset, msg) in warnings {
        let (l, c) = position(text, offset);
        model.warnings.push(Skipped { function: qualified.clone(), line: l, col: c, reason: msg });
    }
    if let Some((offset, reason)) = problem {
        let (l, c) = position(text, offset);
        return skip(format!("{reason} at {l}:{c}"), model);
    }
    if let Some(reason) = goto_problem(&f) {
        return skip(reason, model);
    }
    if detail == LoopDetail::All || f.loops.iter().any(|l| l.directive == Some(Directive::Probe)) {
        add_loop_details(&mut f, &loop_nodes, text);
    }
    f.falls_off_at = falls_off_end(body);
    mark_interfaces(&mut f);
    model.functions.push(f);
}

fn is_special_member(declared: &str, scope: &[String]) -> bool {
    let parts: Vec<&str> = declared.split("::").map(str::trim).collect();
    let last = parts.last().copied().unwrap_or("");
    let class = if parts.len() >= 2 { Some(parts[parts.len() - 2]) } else { scope.last().map(|s| s.as_str()) };
    let bare = last.trim_start_matches('~').split('<').next().unwrap_or("");
    last.starts_with("operator") || class.is_some_and(|c| c.split('<').next() == Some(bare))
}

fn signature(fdecl: Node, ty: Option<Node>, text: &str) -> Signature {
    let Some(list) = fdecl.child_by_field_name("parameters") else { return Signature::default() };
    let params: Vec<String> =
        named_children(list).filter(|p| kind(*p) != "comment").map(|p| node_text(p, text).to_string()).collect();
    let void_list = params.len() == 1 && params[0].trim() == "void";
    Signature {
        list: list.byte_range(),
        params,
        void_list,
        return_type: ty.map(|t| node_text(t, text).to_string()).unwrap_or_default(),
    }
}

/// `int f(int a);`: a declaration whose declarator is a plain function declarator.
fn prototype(node: Node, text: &str, model: &mut FileModel) {
    let Some(decl) = node.child_by_field_name("declarator") else { return };
    let (Some(fdecl), _) = function_declarator(decl) else { return };
    let Some(name_node) = fdecl.child_by_field_name("declarator") else { return };
    if kind(name_node) != "identifier" {
        return;
    }
    let (line, col) = position(text, name_node.start_byte());
    model.prototypes.push(Prototype {
        name: node_text(name_node, text).to_string(),
        line,
        col,
        signature: signature(fdecl, node.child_by_field_name("type"), text),
    });
}

fn params(fdecl: Node, text: &str) -> Vec<Param> {
    let Some(list) = field(fdecl, "parameters") else { return Vec::new() };
    let mut out = Vec::new();
    for p in named_children(list) {
        if kind(p) != "parameter_declaration" && kind(p) != "optional_parameter_declaration" {
            continue;
        }
        let type_text = field(p, "type").map(|t| squash(node_text(t, text))).unwrap_or_default();
        let mut kind = ParamKind::Scalar;
        let mut name = None;
        let mut d = field(p, "declarator");
        while let Some(n) = d {
            match n.kind() {
                "identifier" => {
                    name = Some(node_text(n, text).to_string());
                    break;
                }
                "pointer_declarator" => kind = ParamKind::Pointer,
                "array_declarator" => kind = ParamKind::Array,
                "reference_declarator" if kind == ParamKind::Scalar => kind = ParamKind::Reference,
                _ => {}
            }
            // reference_declarator has no `declarator` field: its identifier is its first child.
            d = field(n, "declarator").or_else(|| n.named_child(0));
        }
        if type_text.contains("stream") {
            kind = ParamKind::Stream;
        }
        if let Some(name) = name {
            out.push(Param { name, type_text, kind, interface: None });
        }
    }
    out
}

fn mark_interfaces(f: &mut Function) {
    for p in &f.pragmas {
        if p.directive != "INTERFACE" {
            continue;
        }
        let mode = p.option("mode").map(str::to_ascii_lowercase).or_else(|| p.flags.first().cloned());
        if let (Some(mode), Some(port)) = (mode, p.option("port")) {
            if let Some(param) = f.params.iter_mut().find(|q| q.name == port) {
                // `m_axi port=a` plus `s_axilite port=a` (its offset register) is one m_axi port:
                // the data path wins over the control register.
                let keeps_data_path = mode == "s_axilite" && param.interface.is_some();
                if !keeps_data_path {
                    param.interface = Some(mode);
                }
            }
        }
    }
}

/// Can control reach the closing brace? Not when the last statement returns, jumps or throws.
fn falls_off_end(body: Node) -> Option<usize> {
    // From the end: the last statement is usually the last child.
    let last = (0..body.named_child_count())
        .rev()
        .filter_map(|i| body.named_child(i))
        .find(|c| kind(*c) != "comment" && (!kind(*c).starts_with("preproc") || is_conditional(*c)));
    match last {
        None => Some(body.start_byte() + 1),
        // Which branch runs is not known here, and a probe right after `#endif` would be on the
        // directive's line: the end goes before the closing brace, unless every branch (an
        // `#else` included) ends the flow — then an end there would make g++ warn that control
        // reaches the end of a non-void function.
        Some(c) if is_conditional(c) => (!every_branch_ends_flow(c)).then(|| body.end_byte() - 1),
        Some(stmt) => {
            if ends_flow(stmt) {
                None
            } else if ends_with_unbraced_body(stmt) {
                // Right after `if (c) x;` a probe would look guarded by the `if` (and g++ says
                // so with -Wmisleading-indentation): put it before the closing brace instead.
                Some(body.end_byte() - 1)
            } else {
                Some(stmt.end_byte())
            }
        }
    }
}

/// `#if`/`#ifdef` ... `#endif` holding statements.
fn is_conditional(node: Node) -> bool {
    matches!(kind(node), "preproc_if" | "preproc_ifdef")
}

/// The statement (under its labels) returns, jumps or throws.
fn ends_flow(stmt: Node) -> bool {
    let mut inner = stmt;
    while kind(inner) == "labeled_statement" {
        match inner.named_child(inner.named_child_count().saturating_sub(1)) {
            Some(n) => inner = n,
            None => break,
        }
    }
    if is_conditional(inner) {
        return every_branch_ends_flow(inner);
    }
    matches!(kind(inner), "return_statement" | "goto_statement" | "throw_statement")
        || (kind(inner) == "expression_statement"
            && inner.named_child(0).is_some_and(|e| kind(e) == "throw_expression"))
}

/// A conditional (or `#elif`/`#else` branch) whose every branch ends with a statement that ends
/// the flow, and which has an `#else`: no configuration falls through it.
fn every_branch_ends_flow(node: Node) -> bool {
    let skip = [field(node, "condition"), field(node, "name"), field(node, "alternative")].map(|n| n.map(|n| n.id()));
    let last = named_children(node)
        .filter(|c| !skip.contains(&Some(c.id())))
        .rfind(|c| kind(*c) != "comment" && (!kind(*c).starts_with("preproc") || is_conditional(*c)));
    let this_ends = last.is_some_and(ends_flow);
    match field(node, "alternative") {
        Some(alt) => this_ends && every_branch_ends_flow(alt),
        None => this_ends && kind(node) == "preproc_else",
    }
}

/// The statement ends with an unbraced controlled statement: `if (c) x;`, `else x;`, `for (...) x;`.
fn ends_with_unbraced_body(stmt: Node) -> bool {
    let tail = match kind(stmt) {
        "if_statement" => stmt.child_by_field_name("alternative").or_else(|| stmt.child_by_field_name("consequence")),
        "for_statement" | "while_statement" | "for_range_loop" => stmt.child_by_field_name("body"),
        "else_clause" => stmt.named_child(stmt.named_child_count().saturating_sub(1)),
        // A label guards nothing: look at the statement it labels.
        "labeled_statement" => {
            return stmt.named_child(stmt.named_child_count().saturating_sub(1)).is_some_and(ends_with_unbraced_body)
        }
        _ => return false,
    };
    match tail {
        None => false,
        Some(t) if kind(t) == "compound_statement" => false,
        Some(t) if matches!(kind(t), "if_statement" | "for_statement" | "while_statement" | "for_range_loop") => {
            ends_with_unbraced_body(t)
        }
        Some(_) => true,
    }
}

/// A goto that jumps into a loop (or between sibling loops) cannot be balanced by begin/end probes.
fn goto_problem(f: &Function) -> Option<String> {
    for g in &f.gotos {
        let Some(label) = f.labels.iter().find(|l| l.name == g.label) else {
            return Some(format!("goto {} at {}:{} has no label in this function", g.label, g.line, g.col));
        };
        if !g.loops.starts_with(&label.loops) {
            return Some(format!(
                "goto {} at {}:{} jumps into a loop; loop probes could not stay balanced",
                g.label, g.line, g.col
            ));
        }
    }
    None
}

/// Namespaces, classes and `#if` blocks are walked recursively; deeper nests are not instrumented.
const MAX_SCOPE_DEPTH: usize = 1000;

/// Loops are walked recursively; deeper nests (generated code gone wrong) are not instrumented.
const MAX_LOOP_DEPTH: usize = 256;

struct BodyWalker<'a, 't> {
    text: &'a str,
    f: &'a mut Function,
    jump_macros: &'a [JumpMacro],
    /// Ancestors of the node being visited, from the function body down. Kept by hand:
    /// `Node::parent` walks down from the root, which costs as much as the file is long.
    path: Vec<Node<'t>>,
    loop_stack: Vec<usize>,
    /// First reason to leave the function alone: (offset, reason).
    problem: Option<(usize, String)>,
    warnings: Vec<(usize, String)>,
    /// Nodes still to visit, with their depth in `path`; shared by nested visits, each of which
    /// only takes what it put above the entries it found.
    pending: Vec<(Node<'t>, usize)>,
    /// The nodes of each loop in `f.loops`, for its details (see [`add_loop_details`]).
    loop_nodes: Vec<LoopNodes<'t>>,
    /// The expressions whose children hold nothing to record (see [`prune`]).
    pruning: Option<prune::Pruning>,
    /// `#pragma` lines between a loop's header and its unbraced body: (offset, text after
    /// `#pragma`), for the loop being entered.
    pending_pragmas: Vec<(usize, String)>,
    /// Locals and parameters of class type, by name: a call through one is a call of its
    /// `operator()`.
    objects: Vec<String>,
}

/// A loop's nodes: the statement, the unit (with its labels), the unit's parent and the body.
struct LoopNodes<'t> {
    node: Node<'t>,
    unit: Node<'t>,
    container: Option<Node<'t>>,
    body: Node<'t>,
}

/// Work out the details of every loop of `f` from the nodes the body walk kept.
fn add_loop_details(f: &mut Function, nodes: &[LoopNodes], text: &str) {
    for (index, n) in nodes.iter().enumerate() {
        let only_child = only_statement(n.body, text).filter(|s| is_loop_unit(*s)).and_then(|s| {
            let start = s.start_byte();
            let child = f.loops[index + 1..].iter().position(|l| l.parent == Some(index) && l.unit.start == start);
            child.map(|c| index + 1 + c)
        });
        let header = if kind(n.node) == "do_statement" {
            text[n.body.end_byte()..n.node.end_byte()].to_string()
        } else {
            text[n.node.start_byte()..n.body.start_byte()].to_string()
        };
        f.loops[index].details = Some(LoopDetails {
            before: before_offset(n.unit, n.container, text),
            facts: LoopFacts::from_pragmas(&f.loops[index].pragmas),
            header,
            induction: induction_variables(n.node, text),
            only_child,
        });
    }
}

impl<'t> BodyWalker<'_, 't> {
    fn flag(&mut self, offset: usize, reason: impl Into<String>) {
        if self.problem.is_none() {
            self.problem = Some((offset, reason.into()));
        }
    }

    fn block_children(&mut self, block: Node<'t>) {
        self.children(block);
    }

    /// Visit `node` and everything below it, in source order. An explicit stack, not recursion:
    /// expressions nest as deep as the code is long (`a + b + ... + z` is a chain of that many
    /// nodes) and would overflow the stack. Only loops recurse, as deep as they nest.
    fn visit(&mut self, node: Node<'t>) {
        let base = self.path.len();
        let floor = self.pending.len();
        self.pending.push((node, base));
        while self.pending.len() > floor {
            let (n, depth) = self.pending.pop().expect("entries above the floor");
            self.path.truncate(depth);
            if self.visit_one(n) && !self.pruning.as_ref().is_some_and(|p| p.skips(n)) {
                self.path.push(n);
                self.push_named_children(n, depth + 1);
            }
        }
        self.path.truncate(base);
    }

    /// Queue the named children of `node` to be visited next, in order. The others are
    /// punctuation and keywords: leaves with nothing to look at (the grammar has no anonymous
    /// node with children, see the test `anonymous_nodes_are_leaves`).
    fn push_named_children(&mut self, node: Node<'t>, depth: usize) {
        // Last first: the stack pops them in order.
        self.pending.extend(named_children(node).rev().map(|c| (c, depth)));
    }

    /// Handle one node (its ancestors are `self.path`); true when its children are still to be
    /// visited.
    fn visit_one(&mut self, node: Node<'t>) -> bool {
        match kind(node) {
            "for_statement" | "while_statement" | "do_statement" | "for_range_loop" => self.loop_node(node),
            "lambda_expression" => {} // its returns and loops belong to another function
            "class_specifier" | "struct_specifier" | "union_specifier" => {} // local classes too
            "function_definition" => self.flag(
                node.start_byte(),
                "a function definition nested in the body (a function-like macro around a block?)",
            ),
            "preproc_if" | "preproc_ifdef" | "preproc_else" | "preproc_elif" | "preproc_elifdef" => {
                // Branches of whole statements in a block are probed like the code around them
                // (each branch gets the probes of what it holds). Anywhere else (the body of an
                // unbraced `if` or loop) a probe next to the branch would change what it guards.
                if let Some(parent) = self.path.last().copied().filter(|p| !is_statement_list(*p)) {
                    let (l, c) = position(self.text, node.start_byte());
                    let directive = node_text(node, self.text).lines().next().unwrap_or("").trim().to_string();
                    let controls = [
                        "if_statement",
                        "else_clause",
                        "for_statement",
                        "while_statement",
                        "do_statement",
                        "for_range_loop",
                    ];
                    let why = if controls.contains(&kind(parent)) {
                        "is the whole body of an unbraced statement; brace that body to have it probed".to_string()
                    } else {
                        let (pl, pc) = position(self.text, parent.start_byte());
                        format!("is inside the statement at {pl}:{pc}: a conditional that splits a statement cannot be probed (repeat the whole statement in each branch)")
                    };
                    self.flag(node.start_byte(), format!("`{directive}` at {l}:{c} {why}"));
                    return false;
                }
                // The condition is preprocessor arithmetic, not calls of the program.
                let skip = [field(node, "condition"), field(node, "name")].map(|n| n.map(|n| n.id()));
                let depth = self.path.len() + 1;
                let kids: Vec<Node<'t>> = named_children(node).filter(|c| !skip.contains(&Some(c.id()))).collect();
                self.pending.extend(kids.into_iter().rev().map(|c| (c, depth)));
                self.path.push(node);
                return false;
            }
            "preproc_call" => self.pragma(node),
            "identifier" => {
                let name = node_text(node, self.text);
                if let Some(m) = self.jump_macros.iter().find(|m| m.name == name) {
                    let reason = format!(
                        "macro `{name}` (defined at {}:{}) hides a `{}`; that exit would have no probe",
                        m.line, m.col, m.keyword
                    );
                    self.flag(node.start_byte(), reason);
                }
            }
            "return_statement" => self.return_stmt(node),
            "break_statement" => self.break_stmt(),
            "goto_statement" => {
                let label = field(node, "label").map(|l| node_text(l, self.text).to_string());
                let (line, col) = position(self.text, node.start_byte());
                if let Some(label) = label {
                    self.f.gotos.push(Goto { label, loops: self.loop_stack.clone(), line, col });
                }
            }
            "labeled_statement" => {
                self.label(node);
                return true;
            }
            "case_statement" => {
                // Duff's device: a `case` inside a loop of its own `switch` enters the loop
                // behind its begin probe, like a goto into a loop.
                let loops = ["for_statement", "while_statement", "do_statement", "for_range_loop"];
                let path = self.path.iter().rev().take_while(|n| kind(**n) != "switch_statement");
                if path.into_iter().any(|n| loops.contains(&kind(*n))) {
                    self.flag(
                        node.start_byte(),
                        "a `case` jumps into a loop of its `switch` (Duff's device?); loop probes could not stay balanced",
                    );
                }
                return true;
            }
            "call_expression" => {
                self.call(node);
                return true;
            }
            "declaration" if kind(self.path.last().copied().unwrap_or(node)) != "for_statement" => {
                self.declaration(node);
                return true;
            }
            // The type is part of the declaration's text: most declarations need no look at it.
            "declaration" if node_text(node, self.text).contains("stream") => {
                if let Some(t) = field(node, "type") {
                    if node_text(t, self.text).contains("stream") {
                        for d in node.children_by_field_name("declarator", &mut node.walk()) {
                            let name = innermost_identifier(d, self.text);
                            if let Some(n) = name {
                                self.f.stream_locals.push(n);
                            }
                        }
                    }
                }
                return true;
            }
            _ => return true,
        }
        false
    }

    fn children(&mut self, node: Node<'t>) {
        self.path.push(node);
        let floor = self.pending.len();
        self.push_named_children(node, 0);
        while self.pending.len() > floor {
            let (child, _) = self.pending.pop().expect("entries above the floor");
            self.visit(child);
        }
        self.path.pop();
    }

    fn pragma(&mut self, node: Node) {
        let is_pragma = field(node, "directive").is_some_and(|d| node_text(d, self.text) == "#pragma");
        if !is_pragma {
            return;
        }
        let arg = field(node, "argument").map(|a| node_text(a, self.text)).unwrap_or("");
        self.pragma_text(node.start_byte(), arg);
    }

    /// A `#pragma` line at `offset` whose text after `#pragma` is `arg`.
    fn pragma_text(&mut self, offset: usize, arg: &str) {
        let (line, _) = position(self.text, offset);
        match classify(arg, line) {
            PragmaLine::Hls(p) => match self.loop_stack.last() {
                Some(&l) => self.f.loops[l].pragmas.push(p),
                None => self.f.pragmas.push(p),
            },
            PragmaLine::Hlsinstr(d) => match self.loop_stack.last() {
                Some(&l) => self.f.loops[l].directive = Some(d),
                None => self.f.directive = Some(d),
            },
            PragmaLine::BadHlsinstr(word) => self
                .warnings
                .push((offset, format!("unknown `#pragma HLSINSTR {word}` ignored (expected `probe` or `off`)"))),
            PragmaLine::Other => {}
        }
    }

    fn return_stmt(&mut self, node: Node<'t>) {
        let keyword_end = node.child(0).map(|k| k.end_byte()).unwrap_or(node.start_byte());
        let value = named_children(node).find(|c| kind(*c) != "comment");
        if let Some(v) = value {
            if kind(v) == "initializer_list" {
                self.flag(v.start_byte(), "`return {...}` with a braced initializer cannot be wrapped");
            }
            self.children(node);
        }
        let (line, col) = position(self.text, node.start_byte());
        self.f.returns.push(Return {
            keyword_end,
            value: value.map(|v| v.byte_range()),
            loops: self.loop_stack.clone(),
            line,
            col,
        });
    }

    fn label(&mut self, node: Node) {
        let Some(name) = field(node, "label") else { return };
        let colon_end = children(node).find(|c| kind(*c) == ":").map(|c| c.end_byte());
        let Some(colon_end) = colon_end else { return };
        self.f.labels.push(Label {
            name: node_text(name, self.text).to_string(),
            colon_end,
            loops: self.loop_stack.clone(),
            in_list: self.path.last().is_some_and(|p| is_statement_list(*p)),
            unit: node.byte_range(),
        });
    }

    /// A local declaration: its `hls::stream` variables, its objects of class type (callable
    /// through their `operator()`), and the process functions an `hls::task` starts.
    fn declaration(&mut self, node: Node) {
        let Some(ty) = field(node, "type") else { return };
        let type_text = node_text(ty, self.text);
        if type_text.contains("stream") {
            for d in node.children_by_field_name("declarator", &mut node.walk()) {
                if let Some(n) = innermost_identifier(d, self.text) {
                    self.f.stream_locals.push(n);
                }
            }
        }
        self.objects.extend(class_typed_names(node, self.text));
        let squashed: String = type_text.split_whitespace().collect();
        if squashed == "hls::task" || squashed == "task" {
            for d in node.children_by_field_name("declarator", &mut node.walk()) {
                self.task(d);
            }
        }
    }

    /// `hls::task t(body, in, out)` (read as a function declarator: its "parameters" are the
    /// arguments) or `hls::task t{body, ...}`: a call of `body` that runs as a process.
    fn task(&mut self, declarator: Node) {
        let list = match kind(declarator) {
            "function_declarator" => field(declarator, "parameters"),
            "init_declarator" => field(declarator, "value"),
            _ => None,
        };
        let Some(list) = list else { return };
        let args: Vec<Node> = named_children(list).filter(|c| kind(*c) != "comment").collect();
        let Some(first) = args.first() else { return };
        let callee: String = node_text(*first, self.text).split_whitespace().collect();
        let bare = callee.trim_start_matches('&');
        let last = bare.rsplit("::").next().unwrap_or(bare);
        let name = last.split('<').next().unwrap_or(last).to_string();
        if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || c == '_') {
            return;
        }
        let (line, _) = position(self.text, declarator.start_byte());
        let rest = args[1..].iter().map(|a| squash(node_text(*a, self.text))).collect();
        // No argument list of its own to edit: the call is for reachability and the report.
        self.f.calls.push(Call {
            callee: bare.to_string(),
            callee_span: first.byte_range(),
            args_span: 0..0,
            name,
            line,
            args: rest,
        });
    }

    fn call(&mut self, node: Node) {
        let Some(func) = field(node, "function") else { return };
        let callee: String = node_text(func, self.text).split_whitespace().collect();
        let name_node = match kind(func) {
            "field_expression" => field(func, "field"),
            "qualified_identifier" => {
                let mut n = func;
                while let Some(next) = field(n, "name") {
                    n = next;
                }
                Some(n)
            }
            _ => Some(func),
        };
        let mut name = name_node.map(|n| node_text(n, self.text)).unwrap_or("");
        if let Some(i) = name.find('<') {
            name = &name[..i];
        }
        // `acc(x)` with `Acc acc;`: a call of `Acc::operator()`.
        let name = if kind(func) == "identifier" && self.objects.iter().any(|o| o == name.trim()) {
            "operator()".to_string()
        } else {
            name.trim().to_string()
        };
        let arguments = field(node, "arguments");
        let args = arguments
            .map(|a| {
                named_children(a).filter(|c| kind(*c) != "comment").map(|c| squash(node_text(c, self.text))).collect()
            })
            .unwrap_or_default();
        let (line, _) = position(self.text, node.start_byte());
        let args_span = arguments.map(|a| a.byte_range()).unwrap_or_default();
        self.f.calls.push(Call { callee, callee_span: func.byte_range(), args_span, name, line, args });
    }

    fn loop_node(&mut self, node: Node<'t>) {
        if self.loop_stack.len() >= MAX_LOOP_DEPTH {
            return self.flag(node.start_byte(), format!("loops nested deeper than {MAX_LOOP_DEPTH}"));
        }
        let index = self.f.loops.len();
        let mut unit = node;
        let mut label = None;
        let mut above = self.path.len();
        while above > 0 && kind(self.path[above - 1]) == "labeled_statement" {
            above -= 1;
            let parent = self.path[above];
            if label.is_none() {
                label = field(parent, "label").map(|l| node_text(l, self.text).to_string());
            }
            unit = parent;
        }
        let container = above.checked_sub(1).map(|i| self.path[i]);
        let body = field(node, "body");
        let Some(body) = body else {
            return self.flag(node.start_byte(), "loop without a body");
        };
        let (line, col) = position(self.text, node.start_byte());
        // `for (...)` / `#pragma HLS PIPELINE` / `a[i] = i;`: the pragma belongs to the body
        // (cpp_blank hid it from the parser). The body then starts right after the header, so
        // the braces a probe adds hold the pragma as Vitis reads it: inside the loop.
        let mut body_span = body.byte_range();
        if kind(body) != "compound_statement" {
            let header_end = children(node).take_while(|c| c.id() != body.id()).last().map(|c| c.end_byte());
            if let Some(end) = header_end.filter(|&e| self.text[e..body.start_byte()].contains("#pragma")) {
                body_span.start = end;
                self.pending_pragmas = pragma_lines(self.text, end..body.start_byte());
            }
        }
        self.f.loops.push(Loop {
            kind: match kind(node) {
                "for_statement" => LoopKind::For,
                "while_statement" => LoopKind::While,
                "do_statement" => LoopKind::DoWhile,
                _ => LoopKind::RangeFor,
            },
            label,
            vitis_name: format!("VITIS_LOOP_{line}_{}", index + 1),
            line,
            col,
            unit: unit.byte_range(),
            unit_in_list: container.is_some_and(is_statement_list),
            body: body_span,
            body_is_block: kind(body) == "compound_statement",
            parent: self.loop_stack.last().copied(),
            depth: self.loop_stack.len(),
            pragmas: Vec::new(),
            directive: None,
            breaks: false,
            details: None,
        });
        self.loop_nodes.push(LoopNodes { node, unit, container, body });
        // Header parts (init, condition, update) may call functions; they run outside the body.
        // (Its keywords and punctuation are leaves with nothing to look at.)
        self.path.push(node);
        for child in named_children(node) {
            if child.id() != body.id() {
                self.visit(child);
            }
        }
        self.loop_stack.push(index);
        for (offset, arg) in std::mem::take(&mut self.pending_pragmas) {
            self.pragma_text(offset, &arg);
        }
        if kind(body) == "compound_statement" {
            self.block_children(body);
        } else {
            self.visit(body);
        }
        self.loop_stack.pop();
        self.path.pop();
    }

    /// A `break` leaves the innermost loop around it unless a `switch` is closer.
    fn break_stmt(&mut self) {
        let loops = ["for_statement", "while_statement", "do_statement", "for_range_loop"];
        let target = self.path.iter().rev().map(|n| kind(*n)).find(|k| *k == "switch_statement" || loops.contains(k));
        if let (Some(k), Some(&l)) = (target, self.loop_stack.last()) {
            if k != "switch_statement" {
                self.f.loops[l].breaks = true;
            }
        }
    }
}

/// The one statement of a loop body, apart from comments, pragmas and empty statements (a body
/// that is not a block is its own only statement); none when it holds more or nothing.
fn only_statement<'t>(body: Node<'t>, text: &str) -> Option<Node<'t>> {
    if kind(body) != "compound_statement" {
        return Some(body);
    }
    let mut found = None;
    for c in named_children(body) {
        let is_pragma =
            kind(c) == "preproc_call" && field(c, "directive").is_some_and(|d| node_text(d, text) == "#pragma");
        let is_empty = kind(c) == "expression_statement" && c.named_child_count() == 0;
        if kind(c) == "comment" || is_pragma || is_empty {
            continue;
        }
        if found.replace(c).is_some() {
            return None;
        }
    }
    found
}

/// The names a declaration (or parameter declaration) gives objects of class type: a named type
/// (`Acc`, `ns::Acc`, `Acc<int>`), declared as a value or reference, not a pointer, array or
/// function.
fn class_typed_names(node: Node, text: &str) -> Vec<String> {
    let Some(ty) = field(node, "type") else { return Vec::new() };
    if !matches!(kind(ty), "type_identifier" | "qualified_identifier" | "template_type") {
        return Vec::new();
    }
    let mut out = Vec::new();
    for d in node.children_by_field_name("declarator", &mut node.walk()) {
        let mut n = d;
        loop {
            match kind(n) {
                "identifier" => {
                    out.push(node_text(n, text).to_string());
                    break;
                }
                "init_declarator" => match field(n, "declarator") {
                    Some(inner) => n = inner,
                    None => break,
                },
                "reference_declarator" => match n.named_child(0) {
                    Some(inner) => n = inner,
                    None => break,
                },
                // `Acc acc(n);` reads as a function declaration; in a body it is an object.
                "function_declarator" if kind(node) == "declaration" => match field(n, "declarator") {
                    Some(inner) => n = inner,
                    None => break,
                },
                _ => break,
            }
        }
    }
    out
}

/// The `#pragma` lines of `text[range]`: (offset of the line's `#`, text after `#pragma`).
fn pragma_lines(text: &str, range: Range<usize>) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut at = range.start;
    for line in text[range].split_inclusive('\n') {
        let trimmed = line.trim_start();
        let hash = at + (line.len() - trimmed.len());
        if let Some(rest) = trimmed.strip_prefix('#').map(str::trim_start).and_then(|r| r.strip_prefix("pragma")) {
            out.push((hash, rest.trim().to_string()));
        }
        at += line.len();
    }
    out
}

/// A loop statement, possibly under labels.
fn is_loop_unit(mut node: Node) -> bool {
    while kind(node) == "labeled_statement" {
        match node.named_children(&mut node.walk()).last() {
            Some(inner) => node = inner,
            None => return false,
        }
    }
    matches!(kind(node), "for_statement" | "while_statement" | "do_statement" | "for_range_loop")
}

/// The variables a loop header's initializer declares or assigns: `i` and `j` in
/// `for (int i = 0, j = n; ...)` or `for (i = 0; ...)`, `x` in `for (auto &x : v)`.
fn induction_variables(node: Node, text: &str) -> Vec<String> {
    let mut out = Vec::new();
    if kind(node) == "for_range_loop" {
        out.extend(field(node, "declarator").and_then(|d| innermost_identifier(d, text)));
        return out;
    }
    let Some(init) = field(node, "initializer") else { return out };
    let mut todo = vec![init];
    while let Some(n) = todo.pop() {
        match kind(n) {
            "declaration" => {
                for d in n.children_by_field_name("declarator", &mut n.walk()) {
                    out.extend(innermost_identifier(d, text));
                }
            }
            "comma_expression" => todo.extend(n.named_children(&mut n.walk())),
            "assignment_expression" => {
                if let Some(l) = field(n, "left").filter(|l| kind(*l) == "identifier") {
                    out.push(node_text(l, text).to_string());
                }
            }
            _ => {}
        }
    }
    out
}

pub(crate) fn innermost_identifier(mut node: Node, text: &str) -> Option<String> {
    loop {
        if kind(node) == "identifier" {
            return Some(node_text(node, text).to_string());
        }
        node = field(node, "declarator")?;
    }
}

/// A node whose statements are a list (so a statement can be inserted before or after one).
fn is_statement_list(node: Node) -> bool {
    // A conditional's branches are lists too: the walk only goes into those that sit in a list.
    matches!(
        kind(node),
        "compound_statement"
            | "case_statement"
            | "preproc_if"
            | "preproc_ifdef"
            | "preproc_else"
            | "preproc_elif"
            | "preproc_elifdef"
    )
}

/// Offset where "before this statement" is safe: the statement start, unless a pragma that
/// binds to the next statement (`#pragma unroll`, `#pragma GCC ivdep`; not the scope-wide
/// `#pragma HLS`) sits right before it: then the end of the statement (or `{`) before the pragmas.
/// `container` is the unit's parent.
fn before_offset(unit: Node, container: Option<Node>, text: &str) -> usize {
    let Some(container) = container else { return unit.start_byte() };
    // Step back from the unit with a cursor: collecting every sibling costs as much as the block
    // is long, for every loop in it.
    let mut cursor = container.walk();
    if cursor.goto_first_child_for_byte(unit.start_byte()).is_none() || cursor.node().id() != unit.id() {
        return unit.start_byte(); // not a child of `container`: nothing precedes it there
    }
    let mut previous = || cursor.goto_previous_sibling().then(|| cursor.node());
    let mut saw_pragma = false;
    let mut prev = previous();
    while let Some(p) = prev {
        match kind(p) {
            "comment" => {}
            "preproc_call" => {
                let arg = field(p, "argument").map(|a| node_text(a, text)).unwrap_or("");
                if !matches!(classify(arg, 0), PragmaLine::Hls(_) | PragmaLine::Hlsinstr(_)) {
                    saw_pragma = true;
                }
            }
            _ => break,
        }
        prev = previous();
    }
    match (saw_pragma, prev) {
        (true, Some(p)) if !kind(p).starts_with("preproc") && kind(p) != "comment" => p.end_byte(),
        _ => unit.start_byte(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_cpp;

    fn model(src: &str) -> FileModel {
        build(&parse_cpp(src, None), src)
    }

    #[test]
    fn m_axi_port_keeps_its_mode_beside_its_offset_register() {
        let src = "void top(int *a, int n) {\n#pragma HLS INTERFACE m_axi port=a offset=slave\n#pragma HLS INTERFACE s_axilite port=a\n#pragma HLS INTERFACE s_axilite port=n\n  a[0] = n;\n}\n";
        let m = model(src);
        let modes: Vec<Option<&str>> = m.functions[0].params.iter().map(|p| p.interface.as_deref()).collect();
        assert_eq!(modes, [Some("m_axi"), Some("s_axilite")]);
    }

    #[test]
    fn functions_in_namespaces_classes_templates_extern_c() {
        let m = model(
            "namespace a { template <class T> T g(T x) { return x; } struct S { void m() {} }; }\n\
             extern \"C\" { void top(int *p, hls::stream<int> &s, int n, int q[4]) {} }\n\
             int a::S::h() const { return 0; }",
        );
        let names: Vec<_> = m.functions.iter().map(|f| f.qualified.as_str()).collect();
        assert_eq!(names, ["a::g", "a::S::m", "top", "a::S::h"]);
        let top = &m.functions[2];
        let kinds: Vec<_> = top.params.iter().map(|p| p.kind).collect();
        assert_eq!(kinds, [ParamKind::Pointer, ParamKind::Stream, ParamKind::Scalar, ParamKind::Array]);
        assert!(top.returns_void && !m.functions[0].returns_void);
    }

    #[test]
    fn loops_labels_vitis_names_and_pragmas() {
        let src = "void f(int n) {\n  outer: for (int i = 0; i < n; i++) {\n#pragma HLS PIPELINE II=2\n    while (n) { n--; }\n  }\n  do { n++; } while (n < 3);\n}\n";
        let m = model(src);
        let f = &m.functions[0];
        assert_eq!(f.loops.len(), 3);
        assert_eq!(f.loops[0].name(), "outer");
        assert_eq!(f.loops[0].details().facts.pipeline_ii, Some(2));
        assert_eq!(f.loops[1].name(), "VITIS_LOOP_4_2");
        assert_eq!(f.loops[1].parent, Some(0));
        assert_eq!(f.loops[2].name(), "VITIS_LOOP_6_3");
        assert_eq!(f.loops[2].kind, LoopKind::DoWhile);
        assert_eq!(&src[f.loops[0].unit.clone()][..6], "outer:");
    }

    #[test]
    fn returns_skip_lambdas_and_local_classes() {
        let src = "int f(int n) { auto l = [](){ return 1; }; struct L { int g() { return 2; } }; for(;;) { if (n) return 3; } return l(); }";
        let f = &model(src).functions[0];
        assert_eq!(f.returns.len(), 2);
        assert_eq!(f.returns[0].loops, vec![0]);
        assert!(f.falls_off_at.is_none());
    }

    #[test]
    fn misread_macro_is_skipped_with_reason_and_a_statement_level_ifdef_is_not() {
        let m = model("void f(int n) {\n  FOR_EACH(i, n) {\n    x += i;\n  }\n}\nvoid g() {\n#ifdef A\n  x();\n#endif\n}\nMACRO(x) { return 1; }\n");
        let names: Vec<_> = m.functions.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["g"]);
        let reasons: Vec<_> = m.skipped.iter().map(|s| (s.function.as_str(), s.line, s.reason.as_str())).collect();
        assert!(reasons[0].2.contains("nested"), "{reasons:?}");
        assert!(reasons[1].2.contains("macro"), "{reasons:?}");
    }

    #[test]
    fn a_brace_split_says_what_the_parser_swallowed_and_an_initializer_split_is_named() {
        // The golden case with its brace split moved before the statement splits: error recovery
        // then reads them as part of the split function's body.
        let golden = include_str!("../../../tests/golden/preproc_bodies/input.cpp");
        let (head, split_braces) = golden.split_at(golden.find("// Last:").unwrap());
        let at = head.find("int split_statement(").unwrap();
        let src = format!("{}{split_braces}\n{}", &head[..at], &head[at..]);
        let m = model(&src);
        let s = m.skipped.iter().find(|s| s.function == "split_braces").unwrap();
        assert!(s.reason.contains("; the parser reads the code after it, "), "{:?}", m.skipped);
        assert!(!m.skipped.iter().any(|s| s.function == "split_statement"), "{:?}", m.skipped);
        let m = model("int h(int n) {\n  int t[] = {\n#ifdef W\n    1,\n#endif\n    2};\n  return t[0] + n;\n}\n");
        let got: Vec<_> = m.skipped.iter().map(|s| (s.function.as_str(), s.line, s.reason.as_str())).collect();
        assert_eq!(got.len(), 1, "{got:?}");
        assert!(got[0].2.starts_with("`#ifdef W` at 3:1 is inside the statement at 2:3"), "{got:?}");
        assert!(m.warnings.is_empty(), "{:?}", m.warnings);
    }

    #[test]
    fn conditional_branches_of_whole_statements_are_walked() {
        let src = "int f(int n) {\n#if DEBUG(2)\n  for (;;) { if (n) return 1; }\n#elif X\n  while (n) n--;\n#else\n  g(n);\n#endif\n}\n";
        let m = model(src);
        let f = &m.functions[0];
        assert_eq!(f.loops.len(), 2);
        assert!(f.loops.iter().all(|l| l.unit_in_list), "branches are statement lists");
        assert_eq!(f.returns.len(), 1);
        let calls: Vec<_> = f.calls.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(calls, ["g"], "the condition `DEBUG(2)` is no call");
        assert_eq!(&src[f.falls_off_at.unwrap()..], "}\n", "after the conditional: before the closing brace");
        let m = model("void e(int x) {\n  while (x)\n#ifdef A\n    a();\n#else\n    b();\n#endif\n}\n");
        assert!(m.functions.is_empty() && m.skipped[0].reason.contains("`#ifdef A` at 3:1"), "{:?}", m.skipped);
    }

    #[test]
    fn goto_into_loop_is_refused_and_goto_out_is_modelled() {
        let ok = model("void f() { for(;;) { for(;;) { goto done; } } done: ; }");
        let f = &ok.functions[0];
        assert_eq!(f.gotos[0].loops, vec![0, 1]);
        assert!(f.labels[0].loops.is_empty());
        let bad = model("void f() { goto in; for(;;) { in: ; } }");
        assert!(bad.skipped[0].reason.contains("jumps into a loop"));
    }

    #[test]
    fn conversion_operators_are_functions_returning_their_type() {
        let m = model("struct A { explicit operator bool() const { return x; } operator int *() { return 0; } };\nA::operator long() const { return 1; }\nstruct B { operator void() {} };");
        let got: Vec<_> = m.functions.iter().map(|f| (f.qualified.as_str(), f.name.as_str(), f.returns_void)).collect();
        assert_eq!(
            got,
            [
                ("A::operator bool", "operator bool", false),
                ("A::operator int *", "operator int *", false),
                ("A::operator long", "operator long", false),
                ("B::operator void", "operator void", true),
            ]
        );
    }

    #[test]
    fn specializations_are_named_as_they_are_called() {
        let m = model("template <> int sum<int>(int a) { return a; }\nbool operator<(A a, A b) { return 0; }\nint Unroll<3>::run() { return 3; }\n");
        let got: Vec<_> = m.functions.iter().map(|f| (f.qualified.as_str(), f.name.as_str())).collect();
        assert_eq!(got, [("sum<int>", "sum"), ("operator<", "operator<"), ("Unroll<3>::run", "run")]);
    }

    #[test]
    fn macros_hiding_return_or_goto_skip_their_users() {
        let m = model("#define CHECK(x) do { if (!(x)) return; } while (0)\n#define BAIL goto out\n#define SQ(x) ((x) * (x))\nvoid f(int a) { CHECK(a); }\nvoid g() { BAIL; out: ; }\nint h(int a) { return SQ(a); }\n");
        let names: Vec<_> = m.jump_macros.iter().map(|j| (j.name.as_str(), j.keyword)).collect();
        assert_eq!(names, [("CHECK", "return"), ("BAIL", "goto")]);
        let reasons: Vec<_> = m.skipped.iter().map(|s| (s.function.as_str(), s.reason.as_str())).collect();
        assert_eq!(reasons.len(), 2, "{reasons:?}");
        assert!(reasons[0].1.starts_with("macro `CHECK` (defined at 1:9) hides a `return`"), "{reasons:?}");
        assert!(reasons[1].1.starts_with("macro `BAIL` (defined at 2:9) hides a `goto`"), "{reasons:?}");
        assert_eq!(m.functions[0].name, "h");
    }

    #[test]
    fn a_function_whose_body_is_not_read_as_a_block_is_skipped_by_name() {
        // Cut off inside the body: tree-sitter keeps the head and the `{` in an ERROR node.
        let m = model(
            "int whole(int n) { return n; }\nint cut(int *a, int n) {\n  for (int i = 0; i < n; i++) {\n    a[i] = ",
        );
        let names: Vec<&str> = m.functions.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["whole"]);
        let skipped: Vec<(&str, usize, usize)> =
            m.skipped.iter().map(|s| (s.function.as_str(), s.line, s.col)).collect();
        assert_eq!(skipped, [("cut", 2, 5)]);
        assert!(m.skipped[0].reason.contains("the block opened at 2:24 is not read as its body"), "{:?}", m.skipped);
        assert!(m.warnings.is_empty(), "its blocks are not reported again: {:?}", m.warnings);
    }

    #[test]
    fn a_jump_word_in_a_macros_string_literal_hides_no_jump() {
        let src = "#define MSG \"return; goto x;\"\n#define CH 'r'\nint f(void) { puts(MSG); return 1; }\n";
        let m = model(src);
        assert!(m.jump_macros.is_empty(), "{:?}", m.jump_macros);
        let src = "#define BAIL(e) { puts(\"bail\"); return e; }\nint f(void) { BAIL(1); return 0; }\n";
        assert_eq!(model(src).jump_macros.len(), 1);
    }

    #[test]
    fn falling_off_after_an_unbraced_body_ends_at_the_closing_brace() {
        let src = "void f(int n) {\n  if (n) n++;\n  else n--;\n}\nvoid g(int n) {\n  for (;;) { n++; }\n}\nvoid h(int n) {\nl: n++;\n}\n";
        let m = model(src);
        let at: Vec<_> = m.functions.iter().map(|f| &src[f.falls_off_at.unwrap()..]).collect();
        assert!(at[0].starts_with("}\nvoid g"), "{at:?}");
        assert!(at[1].starts_with("\n}\nvoid h"), "{at:?}");
        assert!(at[2].starts_with("\n}"), "labels guard nothing: {at:?}");
    }

    #[test]
    fn deep_expressions_and_nests_do_not_overflow() {
        let sum = vec!["1"; 100_000].join("+");
        let src =
            format!("int f() {{ return {sum}; }}\nvoid g() {{ {} }}\n", "for(;;){".repeat(300) + &"}".repeat(300));
        let m = model(&src);
        assert_eq!(m.functions.len(), 1);
        assert_eq!(m.functions[0].returns.len(), 1);
        assert!(m.skipped[0].reason.starts_with("loops nested deeper than 256"), "{:?}", m.skipped);
    }

    #[test]
    fn unreadable_code_is_reported_not_dropped() {
        // Error recovery depends on the surroundings: each case on its own.
        let warnings = |src: &str| -> Vec<(usize, usize, String)> {
            model(src).warnings.into_iter().map(|w| (w.line, w.col, w.reason)).collect()
        };
        let w = warnings("void misread() { {} }\n");
        assert_eq!((w.len(), w[0].0, w[0].1), (1, 1, 1), "{w:?}");
        assert!(w[0].2.starts_with("syntax error at 1:22: read as a declaration"), "{w:?}");
        let w = warnings("int (\nint lost(int n) { return n; }\n");
        assert_eq!((w.len(), w[0].0, w[0].1), (1, 2, 17), "{w:?}");
        assert!(w[0].2.starts_with("syntax error at 1:1: this block is not read as a function body"), "{w:?}");
        assert!(warnings("int fine() { return 1; }\n").is_empty());
    }

    #[test]
    fn positions_count_characters_with_and_without_the_line_index() {
        let src = "// é\nint café() { return 1; }\n";
        let m = model(src);
        assert_eq!((m.functions[0].line, m.functions[0].col), (2, 5));
        assert_eq!(position(src, src.find('(').unwrap()), (2, 9), "outside `build`: plain scan");
    }

    #[test]
    fn anonymous_nodes_are_leaves() {
        // The body walk skips anonymous children; a grammar bump must not give them children.
        let types: serde_json::Value = serde_json::from_str(tree_sitter_cpp::NODE_TYPES).unwrap();
        let types = types.as_array().unwrap();
        let anonymous: Vec<&serde_json::Value> = types.iter().filter(|t| t["named"] == false).collect();
        assert!(anonymous.len() > 100);
        for t in anonymous {
            assert!(t.get("children").is_none() && t.get("fields").is_none(), "{t}");
        }
    }

    #[test]
    fn pragma_before_loop_moves_insertion_point() {
        let src = "void f() { int a;\n#pragma unroll\n  for(;;) {} }";
        let l = &model(src).functions[0].loops[0];
        assert_eq!(&src[..l.details().before], "void f() { int a;");
    }
}
