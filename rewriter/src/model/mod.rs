//! Stage 2, model: what the rewriter knows about a kernel file, as plain data with byte offsets.
//!
//! The model is built once from the syntax tree; planning works on it alone. Every function we
//! cannot read safely is kept out of `functions` and listed in `skipped` with the reason. By
//! concept: `types` (the data), `functions` (definitions, signatures, parameters), `body`
//! (loops, calls, returns, gotos in a body), `flow` (how control leaves a function).

pub mod aliases;
mod best_path;
mod body;
pub mod cbits;
mod conditional;
pub mod consts;
mod decls;
mod flow;
pub mod fnbody;
mod functions;
mod init;
pub mod maxi;
pub mod nest;
pub mod opchain;
pub mod ports;
pub mod pragma;
mod prune;
pub mod recurrence;
mod registers;
pub mod segments;
mod stream_use;
mod table;
mod types;
mod unread;

pub use functions::{build, build_in_pieces, build_with, position, PieceModels};
pub use types::*;

use crate::parse::{children, field, kind, named_children};
use crate::source::line_col;
use body::*;
use flow::*;
use functions::*;
use pragma::{classify, Directive, LoopFacts, PragmaLine};
use std::ops::Range;
use tree_sitter::{Node, Tree, TreeCursor};

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
        // One pragma may name several ports.
        let src = "void top(const float X[8], const float W[3], float Z[6]) {\n#pragma HLS INTERFACE m_axi port=X,W\n\
                   #pragma HLS INTERFACE m_axi port=Z\n#pragma HLS INTERFACE s_axilite port=X,W\n  Z[0] = X[0] * W[0];\n}\n";
        let m = model(src);
        let modes: Vec<Option<&str>> = m.functions[0].params.iter().map(|p| p.interface.as_deref()).collect();
        assert_eq!(modes, [Some("m_axi"); 3]);
        // Vitis does not put a scalar passed by value on m_axi.
        let m = model(
            "unsigned k(unsigned x) {\n#pragma HLS INTERFACE m_axi port = x bundle = gmem0\n  return x + 1;\n}\n",
        );
        assert_eq!(m.functions[0].params[0].interface, None);
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
        assert_eq!(f.loops[1].name(), "VITIS_LOOP_4_1");
        assert_eq!(f.loops[1].parent, Some(0));
        assert_eq!(f.loops[2].name(), "VITIS_LOOP_6_2");
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
    fn a_lambda_holding_a_loop_is_a_warning_and_one_without_is_not() {
        // A dataflow stage written as a lambda: its loop would count as the top's own time.
        let src = "void top(int *a) {\n  auto stage = [&](int n) {\n    for (int i = 0; i < n; i++) a[i] = i;\n  };\n  auto one = [](int x) { return x + 1; };\n  stage(one(3));\n}\n";
        let m = model(src);
        let w: Vec<_> = m.warnings.iter().map(|w| (w.function.as_str(), w.line, w.col, w.reason.as_str())).collect();
        assert_eq!(w.len(), 1, "{w:?}");
        assert_eq!((w[0].0, w[0].1, w[0].2), ("top", 2, 16), "{w:?}");
        assert!(w[0].3.starts_with("this lambda holds a loop (at 3:5): lambdas are not probed"), "{w:?}");
        // The function itself is still probed (its loops outside lambdas too).
        assert_eq!(m.functions.len(), 1);
        assert!(m.functions[0].loops.is_empty());
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

    /// A debug exit in a branch the file's own `#define`s rule out is not compiled: the function
    /// is probed (and the loop in that branch is not the program's). With the branch taken, or
    /// a condition on a name the file does not define, the macro still skips the function.
    #[test]
    fn a_jump_macro_in_a_branch_that_is_not_compiled_does_not_skip_the_function() {
        let src = |check: &str, cond: &str| {
            format!(
                "#define CHECK_AT {check}\n#define QUIT do {{ return 0; }} while (0)\n\
                 int f(int *a, int n) {{\n  int s = 0;\n#if {cond}\n  QUIT;\n  for (int i = 0; i < n; i++) s += a[i];\n#else\n  for (int i = 0; i < n; i++) s -= a[i];\n#endif\n  return s;\n}}\n"
            )
        };
        let off = model(&src("-1", "CHECK_AT == 2"));
        assert!(off.skipped.is_empty(), "{:?}", off.skipped.iter().map(|s| &s.reason).collect::<Vec<_>>());
        assert_eq!(off.functions[0].name, "f");
        assert_eq!(off.functions[0].loops.len(), 1, "only the `#else` loop is compiled");
        let on = model(&src("2", "CHECK_AT == 2"));
        assert!(on.skipped[0].reason.starts_with("macro `QUIT`"), "{:?}", on.skipped[0].reason);
        let unknown = model(&src("-1", "OTHER == 2"));
        assert!(unknown.skipped[0].reason.starts_with("macro `QUIT`"), "{:?}", unknown.skipped[0].reason);
        // A default a `-D` may override: not taken as the value.
        let guarded = model(
            &src("-1", "CHECK_AT == 2")
                .replace("#define CHECK_AT -1\n", "#ifndef CHECK_AT\n#define CHECK_AT -1\n#endif\n"),
        );
        assert!(guarded.skipped[0].reason.starts_with("macro `QUIT`"), "{:?}", guarded.skipped[0].reason);
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
