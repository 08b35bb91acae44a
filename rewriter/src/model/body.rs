//! The walk of a function body: loops (with their pragmas, labels and details), calls, returns,
//! gotos and labels, in one pass.

use super::*;

/// Namespaces, classes and `#if` blocks are walked recursively; deeper nests are not instrumented.
pub(super) const MAX_SCOPE_DEPTH: usize = 1000;

/// Loops are walked recursively; deeper nests (generated code gone wrong) are not instrumented.
pub(super) const MAX_LOOP_DEPTH: usize = 256;

pub(super) struct BodyWalker<'a, 't> {
    pub(super) text: &'a str,
    pub(super) f: &'a mut Function,
    pub(super) jump_macros: &'a [JumpMacro],
    /// Ancestors of the node being visited, from the function body down. Kept by hand:
    /// `Node::parent` walks down from the root, which costs as much as the file is long.
    pub(super) path: Vec<Node<'t>>,
    pub(super) loop_stack: Vec<usize>,
    /// First reason to leave the function alone: (offset, reason).
    pub(super) problem: Option<(usize, String)>,
    pub(super) warnings: Vec<(usize, String)>,
    /// Nodes still to visit, with their depth in `path`; shared by nested visits, each of which
    /// only takes what it put above the entries it found.
    pub(super) pending: Vec<(Node<'t>, usize)>,
    /// The nodes of each loop in `f.loops`, for its details (see [`add_loop_details`]).
    pub(super) loop_nodes: Vec<LoopNodes<'t>>,
    /// The expressions whose children hold nothing to record (see [`prune`]).
    pub(super) pruning: Option<prune::Pruning>,
    /// `#pragma` lines between a loop's header and its unbraced body: (offset, text after
    /// `#pragma`), for the loop being entered.
    pub(super) pending_pragmas: Vec<(usize, String)>,
    /// Locals and parameters of class type, by name: a call through one is a call of its
    /// `operator()`.
    pub(super) objects: Vec<String>,
    /// `hls::task` objects declared without a body (`hls::task t[NP];`): a call through one
    /// (`t[i](worker, in, out)`) starts `worker` as a task.
    pub(super) idle_tasks: Vec<String>,
    /// The file's integer `#define`s and the names it defines only when undefined (`#ifndef`),
    /// read at the first `#if` of the body (see `branch_taken`).
    pub(super) file_consts: Option<(consts::Constants, Vec<String>)>,
}

/// A loop's nodes: the statement, the unit (with its labels), the unit's parent and the body.
pub(super) struct LoopNodes<'t> {
    pub(super) node: Node<'t>,
    pub(super) unit: Node<'t>,
    pub(super) container: Option<Node<'t>>,
    pub(super) body: Node<'t>,
}

/// Work out the details of every loop of `f` from the nodes the body walk kept.
/// `decls` are the function body's, with its parameters as they are now (see [`super::decls`]).
pub(super) fn add_loop_details(f: &mut Function, nodes: &[LoopNodes], decls: &super::decls::Decls, text: &str) {
    // `None`: no INLINE pragma, so a project directive may still inline it.
    let inline = f.inline_pragma();
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
        let mut facts = LoopFacts::from_pragmas(&f.loops[index].pragmas);
        let outer = f.loop_chain(index)[..].split_last().map(|(_, up)| up.to_vec()).unwrap_or_default();
        let outer: Vec<String> =
            outer.iter().filter_map(|&l| f.loops[l].details.as_ref()).flat_map(|d| d.induction.clone()).collect();
        facts.constant_table = table::constant_table(n.node, decls, inline, outer);
        if facts.constant_table.is_none() {
            facts.unread_store = super::unread::unread_store_loop(n.node, decls);
        }
        facts.chain = super::opchain::chain_steps(n.body, decls);
        let induction = induction_variables(n.node, text);
        facts.recurrence = super::recurrence::recurrences(n.body, decls, &induction);
        facts.registers_only = super::registers::registers_only(n.body, &f.params, text);
        facts.memory = super::ports::loop_memory(n.node, n.body, decls).map(Box::new);
        facts.best_path_calls = super::best_path::fewest_calls(n.body, text);
        let (arrays, streams) = super::ports::local_channels(n.body, decls);
        facts.local_channels = (!arrays.is_empty() || !streams.is_empty())
            .then(|| Box::new(super::pragma::LocalChannels { arrays, streams }));
        facts.streams = super::stream_use::loop_streams(n.body, decls);
        facts.param_bound = super::ports::bound_params(n.node, &f.params, text);
        f.loops[index].details = Some(Box::new(LoopDetails {
            before: before_offset(n.unit, n.container, text),
            facts,
            header,
            induction,
            only_child,
        }));
    }
}

impl<'t> BodyWalker<'_, 't> {
    fn flag(&mut self, offset: usize, reason: impl Into<String>) {
        if self.problem.is_none() {
            self.problem = Some((offset, reason.into()));
        }
    }

    pub(super) fn block_children(&mut self, block: Node<'t>) {
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
            // Its returns and loops belong to another function; its loops go unprobed, say so.
            "lambda_expression" => self.lambda(node),
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
                // A branch the file's own `#define`s rule out is not compiled: its jumps and
                // loops are not the program's (`#if STATE_CHECK == 0` with `#define STATE_CHECK
                // -1`). A condition it cannot evaluate keeps every branch, as before.
                let alternative = field(node, "alternative").map(|a| a.id());
                let taken = self.branch_taken(node);
                let kids: Vec<Node<'t>> = named_children(node)
                    .filter(|c| !skip.contains(&Some(c.id())))
                    .filter(|c| match taken {
                        Some(true) => Some(c.id()) != alternative,
                        Some(false) => Some(c.id()) == alternative,
                        None => true,
                    })
                    .collect();
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
            // Only a statement of a block: after one in an unbraced body the name is out of scope.
            let in_block = node.parent().is_some_and(|p| kind(p) == "compound_statement")
                && self.text[..node.end_byte()].ends_with(';');
            for d in node.children_by_field_name("declarator", &mut node.walk()) {
                if let Some(n) = innermost_identifier(d, self.text) {
                    if in_block {
                        self.f.stream_decls.push((n.clone(), node.end_byte()));
                    }
                    self.f.stream_locals.push(n);
                }
            }
        }
        self.objects.extend(class_typed_names(node, self.text));
        let squashed: String = type_text.split_whitespace().collect();
        if squashed == "hls::task" || squashed == "task" {
            for d in node.children_by_field_name("declarator", &mut node.walk()) {
                match kind(d) {
                    "function_declarator" | "init_declarator" => self.task(d),
                    _ => self.idle_tasks.extend(innermost_identifier(d, self.text)),
                }
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
        self.task_start(list, declarator);
    }

    /// A task's body and arguments, from the argument list `list` of its declaration or of a
    /// start through `operator()`; `at` gives the line.
    fn task_start(&mut self, list: Node, at: Node) {
        let declarator = at;
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
            task: true,
            in_loop: self.innermost_loop_line(),
        });
    }

    /// A lambda is a function of its own the rewrite does not probe: a loop in it would have
    /// its time counted as the enclosing function's own, silently (a lambda per dataflow
    /// stage reports the whole region as a few cycles). One warning for its first loop.
    fn lambda(&mut self, node: Node) {
        let mut stack = vec![node];
        while let Some(n) = stack.pop() {
            if is_loop_kind(kind(n)) {
                let (line, col) = position(self.text, n.start_byte());
                let reason = format!(
                    "this lambda holds a loop (at {line}:{col}): lambdas are not probed, so its loops count as the \
                     enclosing function's own time and what it calls is not followed from --top (make it a function \
                     to have it probed)"
                );
                self.warnings.push((node.start_byte(), reason));
                return;
            }
            // Last first: the stack pops them in source order, so the first loop is named.
            stack.extend(named_children(n).rev());
        }
    }

    fn call(&mut self, node: Node) {
        let Some(func) = field(node, "function") else { return };
        // `t[i](worker, in, out)` with `hls::task t[NP];`: starts `worker` as a task (UG1399).
        let base = match kind(func) {
            "subscript_expression" => field(func, "argument"),
            "identifier" => Some(func),
            _ => None,
        };
        if base.is_some_and(|b| kind(b) == "identifier" && self.idle_tasks.iter().any(|t| t == node_text(b, self.text)))
        {
            if let Some(list) = field(node, "arguments") {
                self.task_start(list, node);
            }
            return;
        }
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
        let in_loop = self.innermost_loop_line();
        self.f.calls.push(Call {
            callee,
            callee_span: func.byte_range(),
            args_span,
            name,
            line,
            args,
            task: false,
            in_loop,
        });
    }

    /// The line of the innermost loop whose body is being walked.
    fn innermost_loop_line(&self) -> Option<usize> {
        self.loop_stack.last().map(|&i| self.f.loops[i].line)
    }

    /// Vitis numbers only the loops it names: a labeled loop keeps its label and takes no
    /// number (`l: for` between `VITIS_LOOP_22_3` and the next loop leaves it `_4`). Out of
    /// line: `loop_node` recurses as deep as loops nest, and its frame must stay small.
    #[inline(never)]
    fn next_vitis_ordinal(&self) -> usize {
        self.f.loops.iter().filter(|l| l.label.is_none()).count() + 1
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
        let ordinal = self.next_vitis_ordinal();
        // `for (...)` / `#pragma HLS PIPELINE` / `a[i] = i;`: the pragma belongs to the body
        // (cpp_blank hid it from the parser). The body then starts right after the header, so
        // the braces a probe adds hold the pragma as Vitis reads it: inside the loop.
        let mut body_span = body.byte_range();
        if kind(body) != "compound_statement" {
            // The header's `)`: a comment after the pragma lines is a child of the loop too.
            let header_end = children(node)
                .take_while(|c| c.id() != body.id())
                .filter(|c| kind(*c) != "comment")
                .last()
                .map(|c| c.end_byte());
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
            vitis_name: format!("VITIS_LOOP_{line}_{ordinal}"),
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
pub(super) fn only_statement<'t>(body: Node<'t>, text: &str) -> Option<Node<'t>> {
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
pub(super) fn class_typed_names(node: Node, text: &str) -> Vec<String> {
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
pub(super) fn pragma_lines(text: &str, range: Range<usize>) -> Vec<(usize, String)> {
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
pub(super) fn is_loop_unit(mut node: Node) -> bool {
    while kind(node) == "labeled_statement" {
        match node.named_children(&mut node.walk()).last() {
            Some(inner) => node = inner,
            None => return false,
        }
    }
    is_loop_kind(kind(node))
}

/// The syntax kinds of a loop statement.
pub(super) fn is_loop_kind(k: &str) -> bool {
    matches!(k, "for_statement" | "while_statement" | "do_statement" | "for_range_loop")
}

/// The variables a loop header's initializer declares or assigns: `i` and `j` in
/// `for (int i = 0, j = n; ...)` or `for (i = 0; ...)`, `x` in `for (auto &x : v)`.
pub(super) fn induction_variables(node: Node, text: &str) -> Vec<String> {
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
pub(super) fn is_statement_list(node: Node) -> bool {
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
pub(super) fn before_offset(unit: Node, container: Option<Node>, text: &str) -> usize {
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

impl BodyWalker<'_, '_> {
    /// Whether the branch of an `#if`/`#elif` is compiled, from its condition and the integer
    /// `#define`s of this file (`None` when the condition has a name they do not define, or
    /// `defined`, or anything else the evaluator does not know).
    ///
    /// A name the file defines under `#ifndef NAME` (or `#if !defined(NAME)`) is left unknown: a
    /// `-D` of the project may give it another value.
    fn branch_taken(&mut self, node: Node) -> Option<bool> {
        if !matches!(kind(node), "preproc_if" | "preproc_elif") {
            return None;
        }
        let condition = node_text(field(node, "condition")?, self.text);
        let text = self.text;
        let (consts, overridable) = self.file_consts.get_or_insert_with(|| {
            let guarded = text
                .lines()
                .filter_map(|l| {
                    let d = l.trim_start().strip_prefix('#')?.trim_start();
                    let name = d.strip_prefix("ifndef").or_else(|| d.strip_prefix("if !defined"))?;
                    let name = name.trim_start_matches([' ', '\t', '(']);
                    let end = name.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(name.len());
                    Some(name[..end].to_string())
                })
                .filter(|n| !n.is_empty())
                .collect();
            (consts::Constants::scan([text]), guarded)
        });
        let words = condition.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'));
        if words.into_iter().any(|w| overridable.iter().any(|g| g == w)) {
            return None;
        }
        consts.eval(condition).ok().map(|v| v != 0)
    }
}
