//! When in a call a function's streams carry data: the streams each loop names (its parameters'
//! and its own), and the ones the body reads or writes outside its loops. In a dataflow region
//! a consumer cannot read a token before its producer wrote it: a process whose first loop reads
//! a stream that its producer writes only in its second loop waits for that loop (the public
//! 2022.1 `example` of the Xilinx deadlock tutorial: four loop phases of 12 in a row, co-sim 53,
//! where its report's 34 has them overlap). Knowing which loop touches which stream places each
//! stream's traffic in the process's time (`sim::replay`'s dataflow regions).

use super::decls::Decls;
use super::ParamKind;
use crate::parse::{kind, named_children};
use tree_sitter::Node;

/// The streams (parameters and locals) a loop's body names, sorted: every access of them in the
/// loop happens while the loop runs.
pub(super) fn loop_streams(body: Node, decls: &Decls) -> Vec<String> {
    named_streams(body, decls, |_| Walk::Into)
}

/// The streams the function body reads or writes outside its loops (`x = in.read()` before a
/// loop, `out << y` after it), sorted: where in the call that happens the model does not place,
/// so such a stream's traffic spans the whole call. Not counted: a stream passed to a call (the
/// callee says when it uses it), declarations, and lambdas and classes (not this body's code).
pub(super) fn direct_streams(body: Node, decls: &Decls) -> Vec<String> {
    named_streams(body, decls, |n| match kind(n) {
        "for_statement" | "for_range_loop" | "while_statement" | "do_statement" | "lambda_expression"
        | "class_specifier" | "struct_specifier" => Walk::Past(Vec::new()),
        // A declaration's initialiser may read a stream (`int x = in.read();`).
        "declaration" => {
            let mut cursor = n.walk();
            let values = n.children_by_field_name("declarator", &mut cursor);
            Walk::Past(values.filter_map(|d| d.child_by_field_name("value")).collect())
        }
        // Arguments of a method (`out.write(in.read())`) are this body's accesses; a stream
        // passed whole to a function is the callee's.
        "argument_list" => Walk::Past(named_children(n).filter(|a| kind(*a) != "identifier").collect()),
        _ => Walk::Into,
    })
}

/// What a walk does at a node: look into it, or only into some nodes of it.
enum Walk<'t> {
    Into,
    Past(Vec<Node<'t>>),
}

/// The streams of the function (its stream parameters and local streams) named by an identifier
/// that the walk from `body` reaches, sorted.
fn named_streams<'t>(body: Node<'t>, decls: &Decls, at: impl Fn(Node<'t>) -> Walk<'t>) -> Vec<String> {
    let params = decls.params.iter().filter(|p| p.kind == ParamKind::Stream).map(|p| p.name.as_str());
    let all: Vec<&str> = params.chain(decls.streams().iter().map(String::as_str)).collect();
    if all.is_empty() {
        return Vec::new();
    }
    let mut out: Vec<String> = Vec::new();
    let mut todo = vec![body];
    while let Some(n) = todo.pop() {
        if let Walk::Past(inside) = at(n) {
            todo.extend(inside);
            continue;
        }
        if kind(n) == "identifier" {
            let name = &decls.text[n.byte_range()];
            if all.contains(&name) && !out.iter().any(|o| o == name) {
                out.push(name.to_string());
            }
        }
        todo.extend(named_children(n));
    }
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use crate::parse::parse_cpp;

    const SRC: &str = "#include \"hls_stream.h\"\n\
        void sink(hls::stream<int> &s);\n\
        void p(hls::stream<int> &in, hls::stream<int> &out, hls::stream<int> &side, int *m, int n) {\n\
        \x20 hls::stream<int> mid(\"mid\");\n\
        \x20 int head = in.read();\n\
        \x20 for (int i = 0; i < n; i++) mid.write(in.read() + m[i]);\n\
        \x20 for (int i = 0; i < n; i++) { int x = mid.read(); out.write(x + head); }\n\
        \x20 sink(side);\n\
        \x20 out << head;\n\
        }\n";

    #[test]
    fn each_loop_names_its_streams_parameters_and_locals() {
        let tree = parse_cpp(SRC, None);
        let model = crate::model::build(&tree, SRC);
        let streams: Vec<Vec<String>> =
            model.functions[0].loops.iter().map(|l| l.details.as_ref().unwrap().facts.streams.clone()).collect();
        assert_eq!(streams, [vec!["in", "mid"], vec!["mid", "out"]]);
    }

    #[test]
    fn direct_streams_are_the_accesses_outside_loops_not_a_stream_passed_to_a_call() {
        let tree = parse_cpp(SRC, None);
        let model = crate::model::build(&tree, SRC);
        // `in.read()` in a declaration's initialiser and `out << head` after the loops; `side`
        // only passed to `sink`, `mid` only declared outside the loops.
        assert_eq!(model.functions[0].direct_streams, ["in", "out"]);
    }
}
