//! Perfect loop nests: loops whose bodies hold only the next loop.
//!
//! Vitis HLS flattens such a nest into one loop (automatically, and on `#pragma HLS
//! loop_flatten`) and names it by joining its loops' names with `_` (`Outer_Inner`,
//! `VITIS_LOOP_10_1_VITIS_LOOP_11_2`); Intel's `#pragma loop_coalesce` merges it the same way.
//! A statement between the loops (a probe too) makes the nest imperfect and stops that, so where
//! probes become hardware the rewriter probes such a nest as one unit (see `plan`).
//!
//! A link from a loop to its only child counts when the child can be merged into it:
//! - the child's body is not left early: no `break` out of it, no `return` in it, no `goto` from
//!   it to a label outside it (an early exit gives the inner loop a data-dependent trip count,
//!   which UG1399 calls an imperfect nest);
//! - the child's header names no variable that the headers of the loops above it in the nest
//!   set (`for (j = 0; j < i; ...)` under `for (i ...)`: a triangular nest, imperfect too);
//! - neither body holds `#pragma HLS loop_flatten off` (the user keeps the loops apart, so
//!   probes between them change nothing and count each loop).
//!
//! Other variable bounds are accepted: UG1399 (2021.1 to 2023.2) and UG1702 2025.1 list constant
//! inner bounds as a condition (only the outermost bound may be a variable); UG1702 2026.1 defines
//! a perfect nest by its bodies alone.

use super::Function;

/// Why `f.loops[outer]`'s only child cannot be merged into it, or the child's index.
pub fn link(f: &Function, outer: usize, above: &[usize]) -> Result<usize, String> {
    let Some(inner) = f.loops[outer].details().only_child else {
        return Err("its body holds more than one loop".into());
    };
    let l = &f.loops[inner];
    let flatten_off =
        |li: usize| f.loops[li].pragmas.iter().any(|p| p.directive == "LOOP_FLATTEN" && p.has_flag("off"));
    if let Some(at) = [outer, inner].into_iter().find(|&li| flatten_off(li)) {
        return Err(format!("`#pragma HLS loop_flatten off` in {} keeps the loops apart", f.loops[at].name()));
    }
    if l.breaks {
        return Err(format!("a `break` leaves {}", l.name()));
    }
    if let Some(r) = f.returns.iter().find(|r| r.loops.contains(&inner)) {
        return Err(format!("a `return` at line {} leaves {}", r.line, l.name()));
    }
    let label_inside = |name: &str| f.labels.iter().any(|lab| lab.name == name && lab.loops.contains(&inner));
    if let Some(g) = f.gotos.iter().find(|g| g.loops.contains(&inner) && !label_inside(&g.label)) {
        return Err(format!("`goto {}` at line {} leaves {}", g.label, g.line, l.name()));
    }
    let header = &l.details().header;
    for &a in above.iter().chain(std::iter::once(&outer)) {
        if let Some(v) = f.loops[a].details().induction.iter().find(|v| mentions(header, v)) {
            return Err(format!("the bounds of {} depend on `{v}` of {}", l.name(), f.loops[a].name()));
        }
    }
    Ok(inner)
}

/// The nest starting at `head`: `head` and each loop merged into the one before, as long as
/// `take` accepts it (the caller's selection). One element when nothing can be merged.
pub fn chain(f: &Function, head: usize, take: impl Fn(usize) -> bool) -> Vec<usize> {
    let mut members = vec![head];
    while let Ok(inner) = link(f, *members.last().expect("head"), &members[..members.len() - 1]) {
        if !take(inner) {
            break;
        }
        members.push(inner);
    }
    members
}

/// The name Vitis gives the flattened loop: the members' names joined by `_`.
pub fn flattened_name(f: &Function, members: &[usize]) -> String {
    members.iter().map(|&m| f.loops[m].name()).collect::<Vec<_>>().join("_")
}

/// `text` uses the identifier `name` (a whole word, not part of a longer one or a member `.name`).
fn mentions(text: &str, name: &str) -> bool {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices(name).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + name.len()..].chars().next();
        !before.is_some_and(|c| word(c) || c == '.') && !after.is_some_and(word) && !text[..i].ends_with("->")
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_cpp;

    fn function(src: &str) -> Function {
        let tree = parse_cpp(src, None);
        crate::model::build(&tree, src).functions.remove(0)
    }

    fn nest(src: &str) -> (Vec<usize>, Vec<Result<usize, String>>) {
        let f = function(src);
        let links = (0..f.loops.len()).map(|i| link(&f, i, &[])).collect();
        (chain(&f, 0, |_| true), links)
    }

    #[test]
    fn perfect_nests_with_labels_pragmas_comments_and_unbraced_bodies() {
        let (c, _) = nest(
            "void f(int a[8][8][8], int n) {\n  Outer: for (int i = 0; i < n; i++) {\n    // rows\n    #pragma HLS loop_flatten\n    ;\n    Mid: for (int j = 0; j < 8; j++)\n      for (int k = 0; k < 8; k++) {\n#pragma HLS pipeline II=1\n        a[i][j][k] = 0;\n      }\n  }\n}\n",
        );
        assert_eq!(c, [0, 1, 2]);
        let f = function("void f(int *a) { for (int i = 0; i < 4; i++) while (*a) do { a[i]--; } while (a[1] > 2); }");
        assert_eq!(chain(&f, 0, |_| true), [0, 1, 2]);
        assert_eq!(flattened_name(&f, &[0, 1]), "VITIS_LOOP_1_1_VITIS_LOOP_1_2");
    }

    #[test]
    fn statements_between_loops_exits_and_triangles_end_the_nest() {
        let (c, links) =
            nest("void f(int a[8][8]) { for (int i = 0; i < 8; i++) { int s = 0; for (int j = 0; j < 8; j++) s += a[i][j]; } }");
        assert_eq!(c, [0]);
        assert!(links[0].as_ref().unwrap_err().contains("more than one"));
        let (c, links) = nest(
            "void f(int a[8][8]) { for (int i = 0; i < 8; i++) { for (int j = 0; j < 8; j++) { if (a[i][j]) break; } } }",
        );
        assert_eq!((c, links[0].clone().unwrap_err()), (vec![0], "a `break` leaves VITIS_LOOP_1_2".to_string()));
        // A break of a switch or of a deeper loop leaves nothing of the nest.
        let (c, _) = nest(
            "void f(int a[8][8]) { for (int i = 0; i < 8; i++) for (int j = 0; j < 8; j++) { switch (a[i][j]) { case 1: break; } while (1) break; } }",
        );
        assert_eq!(c, [0, 1]);
        let (c, links) = nest("int f(int a[8][8]) { for (int i = 0; i < 8; i++) for (int j = 0; j < 8; j++) if (a[i][j]) return j; return 0; }");
        assert_eq!(c, [0]);
        assert!(links[0].as_ref().unwrap_err().contains("`return` at line 1"));
        let (c, _) = nest(
            "void f(int a[8][8]) { for (int i = 0; i < 8; i++) for (int j = 0; j < 8; j++) { if (a[i][j]) goto out; } out: ; }",
        );
        assert_eq!(c, [0]);
        let (c, _) = nest(
            "void f(int a[8][8]) { for (int i = 0; i < 8; i++) for (int j = 0; j < 8; j++) { if (a[i][j]) goto next; a[i][j] = 1; next: ; } }",
        );
        assert_eq!(c, [0, 1]);
        let (c, links) =
            nest("void f(int a[8][8]) { for (int i = 0; i < 8; i++) for (int j = 0; j < i; j++) a[i][j] = 0; }");
        assert_eq!(c, [0]);
        assert!(links[0].as_ref().unwrap_err().contains("depend on `i`"));
        // `s.i` and `ii` are other names; a variable outer-invariant bound is accepted.
        let (c, _) =
            nest("void f(int a[8][8], int ii, int m) { for (int i = 0; i < 8; i++) for (int j = 0; j < m + ii; j++) a[i][j] = 0; }");
        assert_eq!(c, [0, 1]);
    }

    #[test]
    fn loop_flatten_off_keeps_the_loops_apart() {
        let (c, links) = nest(
            "void f(int a[8][8]) { for (int i = 0; i < 8; i++) for (int j = 0; j < 8; j++) {\n#pragma HLS loop_flatten off\n a[i][j] = 0; } }",
        );
        assert_eq!(c, [0]);
        assert!(links[0].as_ref().unwrap_err().contains("loop_flatten off` in VITIS_LOOP_1_2"), "{links:?}");
        let (c, _) = nest(
            "void f(int a[8][8]) { for (int i = 0; i < 8; i++) {\n#pragma HLS loop_flatten\n for (int j = 0; j < 8; j++) a[i][j] = 0; } }",
        );
        assert_eq!(c, [0, 1]);
    }

    #[test]
    fn mentions_whole_words() {
        assert!(mentions("for (j = 0; j < i; j++)", "i"));
        assert!(!mentions("for (j = 0; j < ii + s.i + p->i; j++)", "i"));
    }
}
