//! Parse: the generated Verilog as tree-sitter-verilog reads it, reduced to what the probe edit
//! needs: each module's header (where its port list closes, ANSI or not), its `endmodule`, the
//! identifiers it uses, and its instances with their named port connections.
//!
//! The grammar misreads a few constructs Vitis writes (`{{x[7:1]}}`, `#(parameter A = 1, B = 2)`).
//! Such errors are kept as data: a module is only refused when an error lies inside a node an
//! edit needs (its header or an instance on a probed path).

use crate::error::{Error, ErrorKind, Result};
use std::collections::BTreeSet;
use std::ops::Range;
use tree_sitter::{Node, Parser, Tree};

/// One Verilog file as read.
#[derive(Debug, Clone)]
pub struct VFile {
    /// Path relative to the RTL directory.
    pub rel: String,
    pub text: String,
    pub modules: Vec<VModule>,
    /// Parse errors (ERROR or MISSING nodes) anywhere in the file: the re-parse of an edited
    /// file must not have more.
    pub errors: usize,
}

#[derive(Debug, Clone)]
pub struct VModule {
    pub name: String,
    pub range: Range<usize>,
    /// `module m (input wire a, ...)` rather than `module m (a, ...); input a;`.
    pub ansi: bool,
    /// Byte of the `)` closing the port list.
    pub ports_close: usize,
    /// The port list is `()`.
    pub ports_empty: bool,
    /// Byte just after the last port of the list (`ports_close` when it is empty): new ports go
    /// here, so the list's closing line stays as written.
    pub ports_last_end: usize,
    /// Byte just after the `;` that ends the header.
    pub header_end: usize,
    /// Byte of `endmodule`.
    pub endmodule: usize,
    /// Where an error lies inside the header, if one does.
    pub header_error: Option<usize>,
    /// Every identifier the module mentions (declared or used).
    pub idents: BTreeSet<String>,
    pub instances: Vec<VInstance>,
    /// Port names in header order.
    pub port_names: Vec<String>,
    /// Non-ANSI: each port declaration as written (`input [P-1:0] a`); ANSI: each
    /// `ansi_port_declaration` as written.
    pub port_decls: Vec<String>,
    /// `(name, declaration)` of every `parameter` (ANSI: of the `#(...)` list, as `parameter
    /// N = V`; non-ANSI: each body `parameter ...;` item).
    pub params: Vec<(String, String)>,
}

#[derive(Debug, Clone)]
pub struct VInstance {
    /// The instantiated module.
    pub module: String,
    pub name: String,
    /// Byte where the instance starts (for line numbers).
    pub start: usize,
    /// Byte of the `)` closing its port connections.
    pub conns_close: usize,
    /// It has no port connection yet.
    pub conns_empty: bool,
    /// Byte just after its last port connection (`conns_close` when it has none).
    pub conns_last_end: usize,
    pub conns: Vec<Conn>,
    /// Where an error lies inside the instance, if one does.
    pub error: Option<usize>,
}

/// A named port connection `.port(expr)`; `expr` is `None` for `.port()`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conn {
    pub port: String,
    pub expr: Option<String>,
}

impl VInstance {
    /// The expression connected to `port`: `None` when the port is not connected by name.
    pub fn conn(&self, port: &str) -> Option<&Conn> {
        self.conns.iter().find(|c| c.port == port)
    }
}

pub fn parser() -> Parser {
    let mut p = Parser::new();
    p.set_language(&tree_sitter_verilog::LANGUAGE.into()).expect("tree-sitter-verilog matches the tree-sitter runtime");
    p
}

/// Parse one file.
pub fn parse(rel: &str, text: String) -> Result<VFile> {
    let tree = parse_tree(&text).ok_or_else(|| Error::new(ErrorKind::Internal, "tree-sitter gave no tree").at(rel))?;
    let root = tree.root_node();
    let errors = count_errors(root);
    let mut modules = Vec::new();
    collect_modules(root, &text, &mut modules);
    Ok(VFile { rel: rel.to_string(), text, modules, errors })
}

fn parse_tree(text: &str) -> Option<Tree> {
    parser().parse(text, None)
}

/// ERROR and MISSING nodes in `text`.
pub fn error_count(text: &str) -> usize {
    parse_tree(text).map_or(usize::MAX, |t| count_errors(t.root_node()))
}

fn count_errors(n: Node) -> usize {
    if n.is_error() || n.is_missing() {
        return 1;
    }
    if !n.has_error() {
        return 0;
    }
    let mut c = n.walk();
    n.children(&mut c).map(count_errors).sum()
}

/// First error position inside `n`.
fn first_error(n: Node) -> Option<usize> {
    if n.is_error() || n.is_missing() {
        return Some(n.start_byte());
    }
    if !n.has_error() {
        return None;
    }
    let mut c = n.walk();
    let found = n.children(&mut c).find_map(first_error);
    found
}

fn text_of<'a>(n: Node, src: &'a str) -> &'a str {
    &src[n.start_byte()..n.end_byte()]
}

fn collect_modules(n: Node, src: &str, out: &mut Vec<VModule>) {
    if n.kind() == "module_declaration" {
        if let Some(m) = module(n, src) {
            out.push(m);
        }
        return;
    }
    let mut c = n.walk();
    for ch in n.children(&mut c) {
        collect_modules(ch, src, out);
    }
}

fn child_of_kind<'t>(n: Node<'t>, kind: &str) -> Option<Node<'t>> {
    let mut c = n.walk();
    let found = n.children(&mut c).find(|ch| ch.kind() == kind);
    found
}

fn module(n: Node, src: &str) -> Option<VModule> {
    let header = child_of_kind(n, "module_header")?;
    let name = text_of(child_of_kind(header, "simple_identifier")?, src).to_string();
    let (ansi, list) = if let Some(h) = child_of_kind(n, "module_ansi_header") {
        (true, child_of_kind(h, "list_of_port_declarations"))
    } else if let Some(h) = child_of_kind(n, "module_nonansi_header") {
        (false, child_of_kind(h, "list_of_ports"))
    } else {
        (true, None)
    };
    let list = list?;
    let close = last_anon(list, ")")?;
    let mut c = n.walk();
    let semi =
        n.children(&mut c).find(|ch| !ch.is_named() && ch.kind() == ";" && ch.start_byte() >= list.end_byte())?;
    let mut c = n.walk();
    let endmodule = n.children(&mut c).find(|ch| ch.kind() == "endmodule")?;
    let header_error = first_error(header)
        .or_else(|| first_error(list))
        .or_else(|| (src[close..semi.start_byte()].trim() != ")").then_some(close));
    let ports_empty = src[list.start_byte() + 1..close].trim().is_empty();
    let mut c = list.walk();
    let ports_last_end = list
        .children(&mut c)
        .filter(|ch| ch.kind() == "port" || ch.kind() == "ansi_port_declaration")
        .last()
        .map_or(close, |p| p.end_byte());
    let mut idents = BTreeSet::new();
    let mut instances = Vec::new();
    walk_body(n, src, &mut idents, &mut instances);
    let (port_names, port_decls, params) = ports_and_params(n, list, ansi, src);
    Some(VModule {
        port_names,
        port_decls,
        params,
        name,
        range: n.start_byte()..n.end_byte(),
        ansi,
        ports_close: close,
        ports_empty,
        ports_last_end,
        header_end: semi.end_byte(),
        endmodule: endmodule.start_byte(),
        header_error,
        idents,
        instances,
    })
}

type PortsAndParams = (Vec<String>, Vec<String>, Vec<(String, String)>);

fn ports_and_params(n: Node, list: Node, ansi: bool, src: &str) -> PortsAndParams {
    let mut names = Vec::new();
    let mut decls = Vec::new();
    let mut params = Vec::new();
    let mut c = list.walk();
    for p in list.children(&mut c) {
        if p.kind() == "port" || p.kind() == "ansi_port_declaration" {
            let mut ids = Vec::new();
            descendants_of_kind(p, if ansi { "port_identifier" } else { "simple_identifier" }, &mut ids);
            if let Some(id) = ids.first() {
                names.push(text_of(*id, src).trim().to_string());
            }
            if ansi {
                decls.push(text_of(p, src).to_string());
            }
        }
    }
    let mut decl_nodes = Vec::new();
    descendants_of_kind(n, "parameter_declaration", &mut decl_nodes);
    for d in decl_nodes {
        let mut assigns = Vec::new();
        descendants_of_kind(d, "param_assignment", &mut assigns);
        for a in assigns {
            let mut ids = Vec::new();
            descendants_of_kind(a, "simple_identifier", &mut ids);
            if let Some(id) = ids.first() {
                let text = if ansi {
                    format!("parameter {}", text_of(a, src))
                } else {
                    format!("{};", text_of(d, src).trim_end_matches(';'))
                };
                params.push((text_of(*id, src).to_string(), text));
            }
        }
    }
    if !ansi {
        let mut c = n.walk();
        for p in n.children(&mut c).filter(|ch| ch.kind() == "port_declaration") {
            decls.push(text_of(p, src).to_string());
        }
    }
    (names, decls, params)
}

fn descendants_of_kind<'t>(n: Node<'t>, kind: &str, out: &mut Vec<Node<'t>>) {
    if n.kind() == kind {
        out.push(n);
        return;
    }
    let mut c = n.walk();
    for ch in n.children(&mut c) {
        descendants_of_kind(ch, kind, out);
    }
}

fn last_anon(n: Node, kind: &str) -> Option<usize> {
    let mut c = n.walk();
    let found = n.children(&mut c).filter(|ch| !ch.is_named() && ch.kind() == kind).last().map(|ch| ch.start_byte());
    found
}

fn walk_body(n: Node, src: &str, idents: &mut BTreeSet<String>, instances: &mut Vec<VInstance>) {
    match n.kind() {
        "simple_identifier" | "escaped_identifier" => {
            idents.insert(text_of(n, src).to_string());
            return;
        }
        "module_instantiation" => instances.extend(instantiation(n, src)),
        _ => {}
    }
    let mut c = n.walk();
    for ch in n.children(&mut c) {
        walk_body(ch, src, idents, instances);
    }
}

/// `mod #(...) a (...), b (...);`: one [`VInstance`] per hierarchical instance.
fn instantiation(n: Node, src: &str) -> Vec<VInstance> {
    let Some(module) = child_of_kind(n, "simple_identifier").map(|m| text_of(m, src).to_string()) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut c = n.walk();
    for inst in n.children(&mut c).filter(|ch| ch.kind() == "hierarchical_instance") {
        let Some(name) = child_of_kind(inst, "name_of_instance") else { continue };
        let Some(close) = last_anon(inst, ")") else { continue };
        let mut conns = Vec::new();
        let list = child_of_kind(inst, "list_of_port_connections");
        let conns_last_end = list.map_or(close, |l| l.end_byte());
        if let Some(list) = list {
            let mut c2 = list.walk();
            for pc in list.children(&mut c2).filter(|ch| ch.kind() == "named_port_connection") {
                let Some(port) = child_of_kind(pc, "port_identifier") else { continue };
                let expr = child_of_kind(pc, "expression").map(|e| text_of(e, src).trim().to_string());
                conns.push(Conn { port: text_of(port, src).to_string(), expr });
            }
        }
        out.push(VInstance {
            module: module.clone(),
            name: text_of(name, src).trim().to_string(),
            start: n.start_byte(),
            conns_close: close,
            conns_empty: list.is_none(),
            conns_last_end,
            conns,
            error: first_error(n),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str = "module top (clk, y);\ninput clk;\noutput [7:0] y;\nwire d;\nwire [7:0] w;\n\
        sub #(.W(8)) u_sub (\n    .clk(clk),\n    .ap_done(d),\n    .q()\n);\nassign y = {{w[7:1]}};\nendmodule\n\
        module sub #(parameter W = 8) (input wire clk, output wire ap_done, output wire [W-1:0] q);\n\
        assign ap_done = clk; assign q = 0;\nendmodule\n";

    #[test]
    fn headers_instances_and_connections() {
        let f = parse("small.v", SMALL.to_string()).unwrap();
        let names: Vec<&str> = f.modules.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["top", "sub"]);
        let top = &f.modules[0];
        assert!(!top.ansi && top.header_error.is_none());
        assert_eq!(&SMALL[top.ports_close..top.header_end], ");");
        assert_eq!(&SMALL[top.endmodule..top.endmodule + 9], "endmodule");
        let i = &top.instances[0];
        assert_eq!((i.module.as_str(), i.name.as_str()), ("sub", "u_sub"));
        assert_eq!(i.conn("ap_done").unwrap().expr.as_deref(), Some("d"));
        assert_eq!(i.conn("q").unwrap().expr, None);
        assert!(i.conn("ap_start").is_none());
        assert_eq!(&SMALL[i.conns_close..i.conns_close + 2], ");");
        let sub = &f.modules[1];
        assert!(sub.ansi);
        assert_eq!(&SMALL[sub.ports_close..sub.header_end], ");");
        // The grammar's `{{d}}` error is outside every node an edit needs.
        assert!(f.errors > 0 && top.instances[0].error.is_none());
    }
}
