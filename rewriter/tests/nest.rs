//! Perfect loop nests and the source directives: `#pragma HLSINSTR probe` and `off` select loops
//! as before, and a nest is formed only from probed loops (`--target vitis`); C simulation keeps
//! a probe per loop. Every output strips back to its input.

use hlsinstr::fpga::Target;
use hlsinstr::rewrite::{rewrite, Outcome, RewriteOptions};
use hlsinstr::select::{Kinds, SelectOptions};
use hlsinstr::walk::Input;

fn run(src: &str, vitis: bool) -> Outcome {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("k.cpp");
    std::fs::write(&path, src).unwrap();
    let opts = RewriteOptions {
        kinds: Kinds::parse("modules,loops").unwrap(),
        select: SelectOptions { top: Some("k".into()), ..SelectOptions::default() },
        target: if vitis { Target::Vitis(Default::default()) } else { Target::Csim },
    };
    let out = rewrite(&[Input { path, rel: "k.cpp".into() }], &opts).unwrap();
    assert!(out.errors.is_empty(), "{:?}", out.errors);
    assert_eq!(hlsinstr::strip::strip(&out.files[0].output).unwrap(), src, "strip(rewrite(x)) == x");
    out
}

/// `(name, nest members)` of every loop probe.
fn loops(out: &Outcome) -> Vec<(String, Vec<String>)> {
    out.manifest
        .probes
        .iter()
        .filter(|p| p.kind == "loop")
        .map(|p| (p.name.clone(), p.nest.iter().flat_map(|n| n.members.iter().map(|m| m.name.clone())).collect()))
        .collect()
}

const NEST: &str = "void k(int a[4][3]) {\n  Row: for (int i = 0; i < 4; i++) {\n    OUTER\n    Col: for (int j = 0; j < 3; j++) {\n      INNER\n      a[i][j] = 0;\n    }\n  }\n}\n";

fn nest(outer: &str, inner: &str) -> String {
    NEST.replace("OUTER", outer).replace("INNER", inner)
}

#[test]
fn probe_in_the_outer_loop_selects_the_whole_nest_as_one_unit() {
    let src = nest("#pragma HLSINSTR probe", "");
    let out = run(&src, true);
    assert_eq!(loops(&out), [("Row_Col".to_string(), vec!["Row".to_string(), "Col".to_string()])]);
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    // The directive is a pragma, no logic: nothing else between the loops.
    assert!(
        out.files[0]
            .output
            .contains("#pragma HLSINSTR probe\n    Col: for (int j = 0; j < 3; j++) { HLSINSTR_LOOP_ITER("),
        "{}",
        out.files[0].output
    );
}

#[test]
fn probe_in_the_inner_loop_only_probes_it_and_warns_that_the_nest_breaks() {
    let out = run(&nest("", "#pragma HLSINSTR probe"), true);
    assert_eq!(loops(&out), [("Col".to_string(), vec![])]);
    assert_eq!(out.warnings.len(), 1, "{:?}", out.warnings);
    assert!(
        out.warnings[0].contains("the probe of loop Col sits in the body of Row, which is not probed")
            && out.warnings[0].contains("Row_Col becomes imperfect"),
        "{}",
        out.warnings[0]
    );
}

#[test]
fn off_in_the_outer_loop_removes_the_nest_and_off_in_the_inner_loop_warns() {
    let out = run(&nest("#pragma HLSINSTR off", ""), true);
    assert!(loops(&out).is_empty());
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    let out = run(&nest("", "#pragma HLSINSTR off"), true);
    assert_eq!(loops(&out), [("Row".to_string(), vec![])]);
    assert!(out.warnings[0].contains("the probe of loop Row sits around Col, which is excluded"), "{:?}", out.warnings);
}

#[test]
fn c_simulation_probes_every_loop_and_records_the_nest() {
    let out = run(&nest("", ""), false);
    assert_eq!(
        loops(&out),
        [("Row".to_string(), vec!["Row".to_string(), "Col".to_string()]), ("Col".to_string(), vec![])]
    );
    let row = out.manifest.probes.iter().find(|p| p.name == "Row").unwrap();
    let n = row.nest.as_ref().unwrap();
    assert_eq!((n.probed.as_str(), n.flattened_name.as_str()), ("per_loop", "Row_Col"));
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
}

/// A goto from the innermost body to a label after the nest leaves the inner loop: no unit, and
/// the label closes both loops (`HLSINSTR_UNWIND`; in the hardware build the probe objects'
/// scopes end there anyway), in the hardware build as in C simulation. A goto that stays in the
/// innermost body keeps the unit.
#[test]
fn gotos_out_of_the_nest_keep_per_loop_probes_and_unwind_both() {
    let src = "void g(int a[4][3]) {\n  for (int i = 0; i < 4; i++)\n    for (int j = 0; j < 3; j++) {\n      if (a[i][j] < 0) goto done;\n      a[i][j] = 1;\n    }\ndone:\n  a[0][0] = 2;\n}\nvoid k(int a[4][3]) { g(a); }\n";
    for vitis in [true, false] {
        let out = run(src, vitis);
        assert_eq!(loops(&out).len(), 2, "vitis {vitis}: {:?}", loops(&out));
        assert!(out.files[0].output.contains("done: HLSINSTR_UNWIND(0, 0);"), "{}", out.files[0].output);
    }
    let src = "void k(int a[4][3]) {\n  for (int i = 0; i < 4; i++)\n    for (int j = 0; j < 3; j++) {\n      if (a[i][j] < 0) goto skip;\n      a[i][j] = 1;\n    skip:;\n    }\n}\n";
    let out = run(src, true);
    assert_eq!(
        loops(&out),
        [("VITIS_LOOP_2_1_VITIS_LOOP_3_2".to_string(), vec!["VITIS_LOOP_2_1".into(), "VITIS_LOOP_3_2".into()])]
    );
    assert!(!out.files[0].output.contains("HLSINSTR_UNWIND"), "{}", out.files[0].output);
}
