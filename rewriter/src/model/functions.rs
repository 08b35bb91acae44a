//! Functions: finding each definition (and the ones we cannot read safely, with the reason), its
//! signature, parameters and interfaces; the shared text helpers.

use super::*;

/// Build the model of a parsed file, with the details of every loop.
pub fn build(tree: &Tree, text: &str) -> FileModel {
    build_with(tree, text, LoopDetail::All)
}

/// Build the model of a parsed file, with the details of the loops `detail` says.
pub fn build_with(tree: &Tree, text: &str, detail: LoopDetail) -> FileModel {
    let _lines = LineIndex::install(text);
    let mut model = FileModel { error_count: crate::parse::count_errors(tree.root_node()), ..Default::default() };
    collect_jump_macros(tree.root_node(), text, 0..text.len(), &mut model.jump_macros);
    let mut scope = Vec::new();
    collect_functions(tree.root_node(), text, detail, &mut scope, &mut model, false, 0);
    model
}

/// The model of `text` built a piece at a time: `parse(i)` gives the tree of piece `i` of
/// `pieces` (whole top-level items, see [`crate::top_level`]), `each` sees it with the model of
/// that piece before it is dropped, and the models are joined in order. The walk reads each
/// top-level item on its own, so the result is the one of [`build_with`] on the whole file's
/// tree, as long as that tree has the pieces' items: `None` (parse the whole file) when a piece
/// is refused (see [`PieceModels::model`]).
pub fn build_in_pieces(
    text: &str,
    pieces: &[Range<usize>],
    detail: LoopDetail,
    mut parse: impl FnMut(usize) -> Tree,
    mut each: impl FnMut(&Tree, &mut FileModel),
) -> Option<FileModel> {
    let modeller = PieceModels::new(text, detail);
    let mut model = FileModel::default();
    for (i, range) in pieces.iter().enumerate() {
        let tree = parse(i);
        let mut part = modeller.model(&tree, range.clone())?;
        each(&tree, &mut part);
        let FileModel { functions, skipped, warnings, error_count, jump_macros, prototypes, skipped_calls, cfgs } =
            part;
        debug_assert!(error_count == 0 && jump_macros.is_empty());
        model.functions.extend(functions);
        model.skipped.extend(skipped);
        model.warnings.extend(warnings);
        model.prototypes.extend(prototypes);
        model.skipped_calls.extend(skipped_calls);
        model.cfgs.extend(cfgs);
    }
    Some(model)
}

/// Models of the pieces of one text, one piece at a time: [`build_in_pieces`] joins them; the
/// rewrite of a large file plans and emits each before the next is built
/// (`rewrite::in_pieces`), so only one piece's model is alive. Holds the text's line index for
/// as long as it lives (positions are looked up in it, not counted from the start per piece).
pub struct PieceModels<'t> {
    text: &'t str,
    detail: LoopDetail,
    _lines: LineIndex,
}

impl<'t> PieceModels<'t> {
    pub fn new(text: &'t str, detail: LoopDetail) -> Self {
        PieceModels { text, detail, _lines: LineIndex::install(text) }
    }

    /// The model of the piece `range` of the text, parsed alone as `tree`. `None` when the piece
    /// has a syntax error (the whole file's tree may differ there), or defines a macro hiding a
    /// `return` or `goto`, which every function of the file, before it too, must know.
    pub fn model(&self, tree: &Tree, range: Range<usize>) -> Option<FileModel> {
        let root = tree.root_node();
        if crate::parse::count_errors(root) > 0 {
            return None;
        }
        let mut part = FileModel::default();
        collect_jump_macros(root, self.text, range, &mut part.jump_macros);
        if !part.jump_macros.is_empty() {
            return None;
        }
        crate::timings::time("analyze: model", || {
            collect_functions(root, self.text, self.detail, &mut Vec::new(), &mut part, false, 0)
        });
        Some(part)
    }
}

/// `#define`s anywhere in the file whose replacement text holds `return` or `goto`.
///
/// A definition starts with its `#define` token, so only the nodes around the word `define` in
/// the text are looked at: walking the whole tree would cost more than the rest of the model.
pub(super) fn collect_jump_macros(root: Node, text: &str, within: Range<usize>, out: &mut Vec<JumpMacro>) {
    let mut cursor = root.walk();
    let mut last = None;
    for (at, _) in text[within.clone()].match_indices("define") {
        let at = at + within.start;
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
        for r in crate::source::literal_ranges(&value).into_iter().rev() {
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
pub(super) fn definition_around<'t>(cursor: &mut TreeCursor<'t>, at: usize) -> Option<Node<'t>> {
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

pub(super) fn node_text<'a>(node: Node, text: &'a str) -> &'a str {
    &text[node.byte_range()]
}

/// The words of `s` joined by single spaces.
pub(super) fn squash(s: &str) -> String {
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
pub(super) struct LineIndex;

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
pub(super) fn collect_functions(
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
pub(super) fn report_unreadable(node: Node, text: &str, model: &mut FileModel) {
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
pub(super) fn misread_body(decl: Node, text: &str, model: &mut FileModel) -> bool {
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
pub(super) fn unread_function_heads(error_node: Node, text: &str, outer: Node, model: &mut FileModel) -> bool {
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
pub(super) fn call_names(nodes: &[Node], text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut stack: Vec<Node> = nodes.iter().rev().copied().collect();
    let mut add = |callee: Node| {
        let n = callee_name_node(callee);
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

/// The node naming a call's function: its last name component (`f` of `ns::f<int>`, `obj.f`,
/// `obj.template f<T>`), or the callee itself when it is no name (`(*fp)`).
pub(super) fn callee_name_node(callee: Node) -> Node {
    let mut n = callee;
    loop {
        let next = match kind(n) {
            "field_expression" => field(n, "field"),
            "qualified_identifier" | "template_function" | "template_method" => field(n, "name"),
            _ => None,
        };
        // A part a syntax error left out ends the walk where it is.
        let Some(next) = next else { return n };
        n = next;
        if matches!(kind(n), "identifier" | "field_identifier" | "operator_name" | "destructor_name") {
            return n;
        }
    }
}

/// The declarator chain down to the function declarator: `void *f()` has a pointer on the way.
pub(super) fn function_declarator(mut decl: Node) -> (Option<Node>, bool) {
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
pub(super) fn constant_evaluated(node: Node, decl: Node, text: &str) -> Option<&'static str> {
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
pub(super) fn operator_cast(decl: Node) -> Option<Node> {
    match kind(decl) {
        "operator_cast" => Some(decl),
        "qualified_identifier" => decl.child_by_field_name("name").and_then(operator_cast),
        _ => None,
    }
}

/// The parameter list holder of a conversion operator, below any `*`/`&` of its target type.
pub(super) fn cast_declarator(cast: Node) -> (Option<Node>, bool) {
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

pub(super) fn function(node: Node, text: &str, detail: LoopDetail, scope: &[String], model: &mut FileModel) {
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
        stream_decls: Vec::new(),
        gotos: Vec::new(),
        labels: Vec::new(),
        maxi: maxi::MaxiFacts::default(),
        signature: signature(fdecl, ty, text),
        opencl: None,
        initialisers: Vec::new(),
        body_chain: Vec::new(),
        port_uses: Vec::new(),
        scalar_uses: Vec::new(),
        direct_streams: Vec::new(),
        segments: Vec::new(),
        const_params: Vec::new(),
        volatile_params: Vec::new(),
        combinational: false,
        control: None,
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
        idle_tasks: Vec::new(),
        file_consts: None,
    };
    walker.block_children(body);
    let pruning = walker.pruning.take();
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
    // The declarations of the body, worked out once for the loops' details and the body's chain
    // (the parameters as they are now: a copy, since the loops are written meanwhile).
    let params = f.params.clone();
    let decls = super::decls::Decls::new(body, &params, text);
    if detail == LoopDetail::All || f.loops.iter().any(|l| l.directive == Some(Directive::Probe)) {
        add_loop_details(&mut f, &loop_nodes, &decls, text);
    }
    if detail == LoopDetail::All {
        f.body_chain = super::fnbody::body_chain(&decls);
        f.port_uses = super::fnbody::port_uses(body, &f.params, text);
        // A pointer also used with subscripts is an array (its port uses), not one scalar.
        f.scalar_uses = super::fnbody::scalar_uses(body, &f.params, text);
        f.scalar_uses.retain(|s| !f.port_uses.iter().any(|u| u.param == s.param));
        let starts: Vec<usize> = f.calls.iter().map(|c| c.callee_span.start).collect();
        let call_at = |at: usize| starts.iter().position(|&s| s == at);
        f.segments = super::segments::segments(body, text, &call_at);
        f.const_params = super::segments::qualified_params(fdecl, text, "const");
        f.volatile_params = super::segments::qualified_params(fdecl, text, "volatile");
    }
    // Whatever the detail asked for: the manifest must not depend on it. A function with a loop
    // is not combinational: its body is not walked (every function of every rewrite gets here).
    f.combinational = f.loops.is_empty() && super::registers::combinational(body, &f.params, text);
    // Only a function with streams is walked for them.
    if !f.stream_locals.is_empty() || f.params.iter().any(|p| p.kind == super::ParamKind::Stream) {
        f.direct_streams = super::stream_use::direct_streams(body, &decls);
    }
    f.falls_off_at = falls_off_end(body);
    f.initialisers = super::init::written_initialisers(body, text, pruning.as_ref());
    mark_interfaces(&mut f);
    shrink(&mut f);
    model.functions.push(f);
}

/// Gives back what `f`'s vectors reserved beyond their length. A file's models are all alive
/// until it is planned, and a vector filled a push at a time holds room for 4 after its first:
/// in a file of many small functions that spare room was a third of the model.
fn shrink(f: &mut Function) {
    f.params.shrink_to_fit();
    f.returns.shrink_to_fit();
    f.loops.shrink_to_fit();
    for l in &mut f.loops {
        l.pragmas.shrink_to_fit();
        if let Some(d) = &mut l.details {
            d.induction.shrink_to_fit();
        }
    }
    f.calls.shrink_to_fit();
    f.pragmas.shrink_to_fit();
    f.stream_locals.shrink_to_fit();
    f.stream_decls.shrink_to_fit();
    f.gotos.shrink_to_fit();
    f.labels.shrink_to_fit();
    f.initialisers.shrink_to_fit();
    f.signature.params.shrink_to_fit();
}

pub(super) fn is_special_member(declared: &str, scope: &[String]) -> bool {
    let parts: Vec<&str> = declared.split("::").map(str::trim).collect();
    let last = parts.last().copied().unwrap_or("");
    let class = if parts.len() >= 2 { Some(parts[parts.len() - 2]) } else { scope.last().map(|s| s.as_str()) };
    let bare = last.trim_start_matches('~').split('<').next().unwrap_or("");
    last.starts_with("operator") || class.is_some_and(|c| c.split('<').next() == Some(bare))
}

pub(super) fn signature(fdecl: Node, ty: Option<Node>, text: &str) -> Signature {
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
pub(super) fn prototype(node: Node, text: &str, model: &mut FileModel) {
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

pub(super) fn params(fdecl: Node, text: &str) -> Vec<Param> {
    let Some(list) = field(fdecl, "parameters") else { return Vec::new() };
    let mut out = Vec::new();
    for p in named_children(list) {
        if kind(p) != "parameter_declaration" && kind(p) != "optional_parameter_declaration" {
            continue;
        }
        let type_text = field(p, "type").map(|t| squash(node_text(t, text))).unwrap_or_default();
        let mut kind = ParamKind::Scalar;
        let mut name = None;
        let mut dims = Vec::new();
        let mut d = field(p, "declarator");
        while let Some(n) = d {
            match n.kind() {
                "identifier" => {
                    name = Some(node_text(n, text).to_string());
                    break;
                }
                "pointer_declarator" => kind = ParamKind::Pointer,
                "array_declarator" => {
                    kind = ParamKind::Array;
                    // Nested declarators hold the inner dimensions: `a[N][4]` is `(a[N])[4]`.
                    dims.insert(0, field(n, "size").map(|s| squash(node_text(s, text))).unwrap_or_default());
                }
                "reference_declarator" if kind == ParamKind::Scalar => kind = ParamKind::Reference,
                _ => {}
            }
            // reference_declarator has no `declarator` field: its identifier is its first child.
            d = field(n, "declarator").or_else(|| n.named_child(0));
        }
        // `hls::stream`, and the stream classes of wrapper libraries (hlslib's `hlslib::Stream`,
        // a class around an `hls::stream` that Vitis inlines): a FIFO either way.
        if type_text.to_ascii_lowercase().contains("stream") {
            kind = ParamKind::Stream;
        }
        if let Some(name) = name {
            out.push(Param { name, type_text, kind, interface: None, dims, elements: None, elem_bits: None });
        }
    }
    out
}

pub(super) fn mark_interfaces(f: &mut Function) {
    for p in &f.pragmas {
        if p.directive != "INTERFACE" {
            continue;
        }
        let mode = p.option("mode").map(str::to_ascii_lowercase).or_else(|| p.flags.first().cloned());
        let (Some(mode), Some(ports)) = (mode, p.option("port")) else { continue };
        // `port=X,W` names several ports (the public 2023.1 `EntryConv`: its report puts both
        // on the m_axi bundle).
        for port in ports.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            if port == "return" {
                f.control = Some(mode.clone());
            }
            if let Some(param) = f.params.iter_mut().find(|q| q.name == port) {
                // `m_axi port=a` plus `s_axilite port=a` (its offset register) is one m_axi port:
                // the data path wins over the control register.
                let keeps_data_path = mode == "s_axilite" && param.interface.is_some();
                if !keeps_data_path && !super::types::ignored_interface(&mode, param.kind) {
                    param.interface = Some(mode.clone());
                }
            }
        }
    }
}
