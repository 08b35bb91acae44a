//! hlsinstr::csynth on real Vitis HLS reports (shared/fixtures/vitis-reports, beside the repo).
//! Expected values are read from the XML and cross-checked against the .rpt files next to it.

mod common;
use common::{fixtures, Rng};
use hlsinstr::csynth::{self, find_reports, parse_file, parse_str, Range, Report};
use hlsinstr::ErrorKind;
use std::path::{Path, PathBuf};

fn report_path(rel: &str) -> PathBuf {
    let p = fixtures().join("vitis-reports").join(rel);
    assert!(p.is_file(), "missing fixture {}", p.display());
    p
}

fn parse(rel: &str) -> Report {
    parse_file(report_path(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

fn r(min: u64, max: u64) -> Option<Range<u64>> {
    Some(Range { min, max })
}

fn close(a: Option<f64>, b: f64) -> bool {
    a.is_some_and(|a| (a - b).abs() < 1e-6 * b.abs().max(1.0))
}

/// Every XML file under vitis-reports parses, with no warnings.
#[test]
fn every_fixture_xml_parses() {
    let mut seen = 0;
    for dir in std::fs::read_dir(fixtures().join("vitis-reports")).unwrap() {
        let dir = dir.unwrap().path();
        for f in std::fs::read_dir(&dir).unwrap() {
            let f = f.unwrap().path();
            if f.extension().is_some_and(|e| e == "xml") {
                let rep = parse_file(&f).unwrap_or_else(|e| panic!("{e}"));
                assert!(rep.warnings.is_empty(), "{}: {:?}", f.display(), rep.warnings);
                assert!(rep.top_module().is_some(), "{}: no top module", f.display());
                serde_json::to_string(&rep).unwrap();
                seen += 1;
            }
        }
    }
    assert_eq!(seen, 5, "csynth.xml ×3, Accumulator_csynth.xml, topk_sort_csynth.xml");
}

// --- 2020.1: top csynth.xml + per-module <module>_csynth.xml -------------------------------------

#[test]
fn rlsoc_2020_1_top_and_sibling_modules() {
    let rep = parse("2020.1-rlsoc/csynth.xml");
    assert_eq!((rep.tool.as_str(), rep.version.as_str()), ("Vitis HLS", "2020.1"));
    assert_eq!(rep.top, "VecDotProduct");
    assert_eq!(rep.part.as_deref(), Some("xczu7ev-ffvc1156-2-e"));
    assert!(close(rep.target_clock_ns, 10.0) && close(rep.clock_uncertainty_ns, 2.7));
    assert!(close(rep.estimated_clock_ns, 7.3));
    assert_eq!(rep.available.lut, Some(230400));
    assert_eq!(rep.files.len(), 2, "csynth.xml and Accumulator_csynth.xml: {:?}", rep.files);
    // Interfaces from the top's ports: no M_AXI table in 2020.1, though it has m_axi ports.
    assert_eq!((rep.control.as_deref(), rep.s_axilite, rep.maxi.len()), (Some("ap_ctrl_hs"), true, 0));

    let top = rep.top_module().unwrap();
    assert!(top.is_dataflow() && !top.is_pipelined());
    assert_eq!(top.latency, None, "undef: the dataflow region's latency is data-dependent");
    assert_eq!(top.interval, None);
    assert_eq!((top.resources.bram_18k, top.resources.ff, top.resources.lut), (Some(34), Some(3726), Some(5322)));
    assert_eq!((top.resources.dsp, top.resources.uram), (Some(0), Some(0)));

    // Accumulator_csynth.rpt: 10.00 ns / 3.060 ns, latency ?, VITIS_LOOP_70_1 IL 2, II 1, trip ?.
    let acc = rep.module("Accumulator").expect("read from Accumulator_csynth.xml");
    assert!(close(acc.estimated_clock_ns, 3.06) && close(acc.target_clock_ns, 10.0));
    assert_eq!(acc.pipeline_type.as_deref(), Some("none"));
    assert_eq!((acc.latency, acc.interval, acc.pipeline_ii), (None, None, None));
    let l = &acc.loops[0];
    assert_eq!(acc.loops.len(), 1);
    assert_eq!(l.name, "VITIS_LOOP_70_1");
    assert!(l.pipelined, "a PipelineII without PipelineType (2020.1) means pipelined");
    assert_eq!((l.ii, l.iteration_latency, l.pipeline_depth), (Some(1), r(2, 2), r(2, 2)));
    assert_eq!((l.trip_count, l.latency), (None, None));
    assert_eq!(l.source_line, Some(70));
    assert_eq!(acc.resources.ff, Some(70));
    assert_eq!(acc.resources.lut, Some(188));
    assert_eq!(rep.find_loop("Accumulator", "VITIS_LOOP_70_1").unwrap().module.name, "Accumulator");
    assert_eq!(rep.loops_at_line(70).len(), 1);
}

#[test]
fn rlsoc_2020_1_without_siblings() {
    // parse_str sees one file: only the top module.
    let path = report_path("2020.1-rlsoc/csynth.xml");
    let rep = parse_str(&std::fs::read_to_string(&path).unwrap(), &path).unwrap();
    assert_eq!(rep.modules.len(), 1);
    // A per-module file on its own is a report of that module; siblings are not read for it.
    let acc = parse("2020.1-rlsoc/Accumulator_csynth.xml");
    assert_eq!(acc.top, "Accumulator");
    assert_eq!(acc.modules.len(), 1);
    assert_eq!(acc.files.len(), 1);
}

#[test]
fn sibling_files_that_do_not_fit_are_skipped_with_a_warning() {
    let tmp = tempfile::tempdir().unwrap();
    let src = report_path("2020.1-rlsoc/csynth.xml");
    std::fs::copy(&src, tmp.path().join("csynth.xml")).unwrap();
    let acc = std::fs::read_to_string(report_path("2020.1-rlsoc/Accumulator_csynth.xml")).unwrap();
    std::fs::write(tmp.path().join("Accumulator_csynth.xml"), &acc).unwrap();
    std::fs::write(tmp.path().join("Broken_csynth.xml"), "<profile><ReportVersion>").unwrap();
    let stale = acc.replace("<Version>2020.1</Version>", "<Version>2019.2</Version>").replace("Accumulator", "Stale");
    std::fs::write(tmp.path().join("Stale_csynth.xml"), stale).unwrap();
    // The top's own per-module file repeats csynth.xml and is not added twice.
    let top = std::fs::read_to_string(&src).unwrap();
    std::fs::write(tmp.path().join("VecDotProduct_csynth.xml"), top).unwrap();

    let rep = parse_file(tmp.path().join("csynth.xml")).unwrap();
    let names: Vec<&str> = rep.modules.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, ["VecDotProduct", "Accumulator"]);
    assert_eq!(rep.warnings.len(), 2, "{:?}", rep.warnings);
    assert!(rep.warnings.iter().any(|w| w.contains("Broken_csynth.xml") && w.contains("XML")), "{:?}", rep.warnings);
    assert!(rep.warnings.iter().any(|w| w.contains("Stale_csynth.xml") && w.contains("2019.2")), "{:?}", rep.warnings);
}

// --- 2022.1: single file, VITIS_LOOP names, <func>_Pipeline_<loop> modules ----------------------

#[test]
fn topk_2022_1_modules_and_loops() {
    let rep = parse("2022.1-topk/csynth.xml");
    assert_eq!((rep.tool.as_str(), rep.version.as_str(), rep.top.as_str()), ("Vitis HLS", "2022.1", "topk_sort"));
    assert!(close(rep.target_clock_ns, 10.0) && close(rep.estimated_clock_ns, 2.598));
    assert_eq!(rep.files.len(), 1, "the 2022 layout is one file: topk_sort_csynth.xml beside it is not read");
    let names: Vec<&str> = rep.modules.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "topk_sort_Pipeline_VITIS_LOOP_20_1",
            "topk_sort_Pipeline_VITIS_LOOP_36_3",
            "topk_sort_Pipeline_VITIS_LOOP_58_5",
            "topk_sort_Pipeline_VITIS_LOOP_70_6",
            "topk_sort"
        ]
    );

    // csynth.rpt / topk_sort_csynth.rpt: latency 105704..115406, interval 105705..115407, 1.057 ms.
    let top = rep.top_module().unwrap();
    assert_eq!(top.latency, r(105704, 115406));
    assert_eq!(top.interval, r(105705, 115407));
    let ns = top.latency_ns.unwrap();
    assert!(close(Some(ns.min), 1_057_000.0) && close(Some(ns.max), 1_154_000.0));
    assert_eq!(top.pipeline_type.as_deref(), Some("no"));
    assert_eq!(top.pipeline_ii, None);
    assert_eq!((top.resources.ff, top.resources.lut, top.resources.bram_18k), (Some(13040), Some(11733), Some(0)));
    assert_eq!(top.submodules().len(), 4);

    // Loop table: VITIS_LOOP_30_2 latency 105000, IL 105, trip 1000, not pipelined.
    let l30 = &top.loops[0];
    assert_eq!(l30.name, "VITIS_LOOP_30_2");
    assert_eq!((l30.trip_count, l30.iteration_latency, l30.latency), (r(1000, 1000), r(105, 105), r(105000, 105000)));
    assert!(!l30.pipelined);
    assert_eq!(l30.ii, None);
    assert!(close(l30.latency_ns.map(|r| r.max), 1_050_000.0));
    assert_eq!(l30.instances.len(), 1);
    assert_eq!(l30.instances[0].name, "grp_topk_sort_Pipeline_VITIS_LOOP_36_3_fu_1904");
    assert_eq!(l30.instances[0].module.as_deref(), Some("topk_sort_Pipeline_VITIS_LOOP_36_3"));
    // VITIS_LOOP_57_4: latency 495..10197 (text), IL 5 ~ 103 (<range>), trip 99.
    let l57 = &top.loops[1];
    assert_eq!((l57.trip_count, l57.iteration_latency, l57.latency), (r(99, 99), r(5, 103), r(495, 10197)));
    assert_eq!(l57.pipeline_depth, r(5, 103));
    let ns = l57.latency_ns.unwrap();
    assert!(close(Some(ns.min), 4950.0) && close(Some(ns.max), 102_000.0), "4.950 us ~ 0.102 ms: {ns:?}");

    // The pipelined loops live in their own modules.
    let p58 = rep.module("topk_sort_Pipeline_VITIS_LOOP_58_5").unwrap();
    let po = p58.pipeline_of.as_ref().unwrap();
    assert_eq!((po.function.as_str(), po.loop_name.as_str()), ("topk_sort", "VITIS_LOOP_58_5"));
    assert_eq!((p58.latency, p58.interval), (r(3, 101), r(3, 101)));
    let l58 = &p58.loops[0];
    assert!(l58.pipelined);
    assert_eq!(l58.pipeline_type.as_deref(), Some("yes"));
    assert_eq!((l58.trip_count, l58.ii, l58.iteration_latency, l58.latency), (r(1, 99), Some(1), r(1, 1), r(1, 99)));
    let ns = l58.latency_ns.unwrap();
    assert!(close(Some(ns.min), 10.0) && close(Some(ns.max), 990.0), "10.000 ns ~ 0.990 us: {ns:?}");
    // VITIS_LOOP_70_6: trip 100, II 1, IL 2, latency 100 (csynth.rpt).
    let l70 = rep.find_loop("topk_sort", "VITIS_LOOP_70_6").unwrap();
    assert_eq!(l70.module.name, "topk_sort_Pipeline_VITIS_LOOP_70_6");
    assert_eq!((l70.node.trip_count, l70.node.ii, l70.node.iteration_latency), (r(100, 100), Some(1), r(2, 2)));
    assert_eq!(l70.module.resources.lut, Some(582));
    assert!(close(rep.module("topk_sort_Pipeline_VITIS_LOOP_20_1").unwrap().estimated_clock_ns, 1.244));
}

#[test]
fn topk_2022_1_lookups() {
    let rep = parse("2022.1-topk/csynth.xml");
    // Loop in the function's own module.
    let f = rep.find_loop("topk_sort", "VITIS_LOOP_57_4").unwrap();
    assert_eq!((f.module.name.as_str(), f.depth), ("topk_sort", 0));
    // Pipelined loop: resolved through topk_sort_Pipeline_VITIS_LOOP_20_1.
    let f = rep.find_loop("topk_sort", "VITIS_LOOP_20_1").unwrap();
    assert_eq!(f.module.name, "topk_sort_Pipeline_VITIS_LOOP_20_1");
    assert_eq!(f.node.trip_count, r(100, 100));
    // A VITIS_LOOP name whose ordinal differs: resolved by its line.
    let f = rep.find_loop("topk_sort", "VITIS_LOOP_36_9").unwrap();
    assert_eq!(f.node.name, "VITIS_LOOP_36_3");
    assert!(rep.find_loop("topk_sort", "VITIS_LOOP_99_1").is_none());
    assert!(rep.find_loop("topk_sort", "no_such_label").is_none());
    // A function without a module of its own counts as inlined: its loops are looked for anywhere.
    assert_eq!(
        rep.find_loop("inlined_fn", "VITIS_LOOP_20_1").unwrap().module.name,
        "topk_sort_Pipeline_VITIS_LOOP_20_1"
    );
    assert!(rep.find_loop("inlined_fn", "VITIS_LOOP_21_1").is_none(), "only exact names there");
    // By line.
    let at58 = rep.loops_at_line(58);
    assert_eq!(at58.len(), 1);
    assert_eq!(at58[0].module.name, "topk_sort_Pipeline_VITIS_LOOP_58_5");
    assert_eq!(rep.loops_at("topk_sort/topk_sort.cpp", 30).len(), 1, "no SourceLocation in 2022.1: any file");
    assert!(rep.loops_at_line(21).is_empty());
    // Pragmas: pipeline II=1 at topk_sort.cpp:21 (the body of VITIS_LOOP_20_1).
    assert_eq!(rep.pragmas.len(), 9);
    let p = rep.pragmas.iter().find(|p| p.kind == "pipeline").unwrap();
    assert_eq!(p.source.as_ref().map(|s| (s.file.as_str(), s.line)), Some(("topk_sort/topk_sort.cpp", 21)));
    assert_eq!((p.options.as_str(), p.function.as_deref(), p.directive), ("II=1", Some("topk_sort"), false));
    assert_eq!(p.status.as_deref(), Some("valid"));
    assert_eq!(p.variable, None);
}

#[test]
fn topk_2022_1_per_module_file() {
    // topk_sort_csynth.xml: the old per-module layout; AbsoluteTimeLatency as bare ns numbers.
    let rep = parse("2022.1-topk/topk_sort_csynth.xml");
    assert_eq!(rep.modules.len(), 1);
    let top = rep.top_module().unwrap();
    assert_eq!(top.latency, r(105704, 115406));
    assert_eq!(top.interval, r(105705, 115407));
    let l57 = &top.loops[1];
    assert_eq!((l57.latency, l57.iteration_latency, l57.trip_count), (r(495, 10197), r(5, 103), r(99, 99)));
    let ns = l57.latency_ns.unwrap();
    assert!(close(Some(ns.min), 4950.0) && close(Some(ns.max), 101_970.0));
    assert!(close(top.loops[0].latency_ns.map(|r| r.min), 1_050_000.0));
    assert_eq!(top.loops[0].pipeline_type, None);
    assert!(!top.loops[0].pipelined);
}

// --- 2023.2: nested loops, `.N` copies, SourceLocation ----------------------------------------

#[test]
fn systolic_2023_2_nested_loops_and_locations() {
    let rep = parse("2023.2-systolic/csynth.xml");
    assert_eq!((rep.version.as_str(), rep.top.as_str()), ("2023.2", "systolic_array"));
    assert_eq!(rep.part.as_deref(), Some("xcvu11p-flga2577-1-e"));
    assert!(close(rep.target_clock_ns, 10.0) && close(rep.estimated_clock_ns, 7.674));
    assert_eq!(rep.modules.len(), 3);
    assert_eq!((rep.control.as_deref(), rep.s_axilite, rep.maxi.len()), (Some("ap_ctrl_hs"), true, 0));
    let top = rep.top_module().unwrap();
    assert_eq!((top.latency, top.interval), (None, None), "all undef: the outer loop's trip count is unknown");
    let res = top.resources;
    assert_eq!(
        (res.bram_18k, res.dsp, res.ff, res.lut, res.uram),
        (Some(27), Some(10), Some(6891), Some(9516), Some(0))
    );
    let src = top.source.as_ref().unwrap();
    assert_eq!((src.file.as_str(), src.line), ("final_systolic_array_hls/systolic_array.cpp", 3));
    assert_eq!(
        top.submodules(),
        ["systolic_array_Pipeline_VITIS_LOOP_23_1", "systolic_array_Pipeline_VITIS_LOOP_52_4"]
    );

    assert_eq!(top.loops.len(), 1);
    let outer = &top.loops[0];
    assert_eq!(outer.name, "VITIS_LOOP_35_2");
    assert_eq!((outer.source_line, outer.trip_count, outer.iteration_latency), (Some(35), None, None));
    let names: Vec<&str> = outer.children.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "VITIS_LOOP_126_1",
            "VITIS_LOOP_35_2.2",
            "VITIS_LOOP_93_1",
            "VITIS_LOOP_178_5",
            "VITIS_LOOP_226_7",
            "VITIS_LOOP_56_1",
            "VITIS_LOOP_71_3",
            "VITIS_LOOP_178_5",
            "VITIS_LOOP_226_7",
            "VITIS_LOOP_56_1",
            "VITIS_LOOP_71_3",
            "VITIS_LOOP_126_1",
            "VITIS_LOOP_35_2.13",
            "VITIS_LOOP_93_1"
        ]
    );
    assert_eq!(top.all_loops().len(), 1 + 14 + 12, "outer, 14 children, 12 grandchildren");

    // A `.N` copy: named after loop 35, located at pe_cycle.h:145, two nested loops.
    let copy = &outer.children[1];
    assert_eq!((copy.copy, copy.base_name()), (Some(2), "VITIS_LOOP_35_2"));
    assert_eq!(copy.source.as_ref().map(|s| s.line), Some(145));
    assert_eq!(copy.source_line, Some(145), "a copy's line comes from SourceLocation, not from its name");
    assert_eq!(copy.children[0].name, "VITIS_LOOP_143_2");
    assert_eq!((copy.children[0].iteration_latency, copy.children[0].source_line), (r(3, 3), Some(143)));

    // Duplicate names get their own locations, matched by position: VITIS_LOOP_98_2 at :94 then :99.
    let l93: Vec<_> = outer.children.iter().filter(|c| c.name == "VITIS_LOOP_93_1").collect();
    assert_eq!(l93.len(), 2);
    let first = &l93[0].children[0];
    assert_eq!(
        first.source.as_ref().map(|s| (s.file.as_str(), s.line)),
        Some(("final_systolic_array_hls/pe_cycle.h", 94))
    );
    let chain: Vec<(&str, u32)> = first.inlined_at.iter().map(|s| (s.file.as_str(), s.line)).collect();
    assert_eq!(
        chain,
        [("final_systolic_array_hls/pe_cycle.h", 165), ("final_systolic_array_hls/systolic_array.cpp", 39)]
    );
    assert_eq!(l93[1].children[0].source.as_ref().map(|s| s.line), Some(99));
    assert!(close(first.slack_ns, 7.3));
    assert!(!first.pipelined && first.pipeline_type.as_deref() == Some("no"));

    // Pipelined loops extracted into modules: II 1, depth 2, trip count unknown.
    let p23 = rep.module("systolic_array_Pipeline_VITIS_LOOP_23_1").unwrap();
    assert_eq!(p23.source.as_ref().map(|s| s.line), Some(23));
    assert_eq!(p23.resources.ff, Some(163));
    let l23 = &p23.loops[0];
    assert!(l23.pipelined);
    assert_eq!((l23.ii, l23.pipeline_depth, l23.trip_count, l23.latency), (Some(1), r(2, 2), None, None));
}

#[test]
fn systolic_2023_2_lookups() {
    let rep = parse("2023.2-systolic/csynth.xml");
    assert_eq!(rep.find_loops("systolic_array", "VITIS_LOOP_178_5").len(), 2, "inlined twice");
    // pe_cycle was inlined: no module of its own, its loops are found in the caller.
    let in_pe = rep.find_loops("pe_cycle", "VITIS_LOOP_214_6");
    assert_eq!(in_pe.len(), 2);
    assert!(in_pe.iter().all(|r| r.module.name == "systolic_array" && r.depth == 2));
    // Base name: both copies of loop 35's fragments, when asked for a copy number that is not there.
    assert_eq!(rep.find_loops("systolic_array", "VITIS_LOOP_35_2.7").len(), 3);
    assert_eq!(
        rep.find_loop("systolic_array", "VITIS_LOOP_52_4").unwrap().module.name,
        "systolic_array_Pipeline_VITIS_LOOP_52_4"
    );
    // By line, with and without the file.
    assert_eq!(rep.loops_at_line(35).len(), 1);
    assert_eq!(rep.loops_at("systolic_array.cpp", 35).len(), 1);
    assert_eq!(rep.loops_at("pe_cycle.h", 35).len(), 0);
    assert_eq!(rep.loops_at("final_systolic_array_hls/pe_cycle.h", 56).len(), 2);
    // Pragmas: pipeline II=1 at systolic_array.cpp:36 although VITIS_LOOP_35_2 was not pipelined.
    let p = rep.pragmas.iter().find(|p| p.kind == "pipeline" && p.source.as_ref().is_some_and(|s| s.line == 36));
    assert_eq!(p.map(|p| p.options.as_str()), Some("II=1"));
    assert!(!rep.find_loop("systolic_array", "VITIS_LOOP_35_2").unwrap().node.pipelined);
}

// --- finding reports ----------------------------------------------------------------------------

#[test]
fn find_reports_in_project_layouts() {
    let tmp = tempfile::tempdir().unwrap();
    let proj = tmp.path();
    for rel in [
        "solution1/syn/report/csynth.xml",
        "solution2/syn/report/csynth.xml",
        "component/hls/syn/report/csynth.xml",
        "solution3/syn/report/other.xml",
        "solution1/syn/report/kernel_csynth.xml",
    ] {
        let p = proj.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, "<profile/>").unwrap();
    }
    let found: Vec<String> =
        find_reports(proj).iter().map(|p| p.strip_prefix(proj).unwrap().to_string_lossy().replace('\\', "/")).collect();
    assert_eq!(
        found,
        ["component/hls/syn/report/csynth.xml", "solution1/syn/report/csynth.xml", "solution2/syn/report/csynth.xml"]
    );
    // A solution directory itself, and a report directory.
    assert_eq!(find_reports(proj.join("solution1")), [proj.join("solution1/syn/report/csynth.xml")]);
    assert_eq!(find_reports(proj.join("solution2/syn/report")).len(), 1);
    assert!(find_reports(proj.join("no/such/dir")).is_empty());
}

// --- errors and robustness ----------------------------------------------------------------------

fn err_of(text: &str) -> hlsinstr::Error {
    match parse_str(text, "t/csynth.xml") {
        Ok(r) => panic!("expected an error for {text:?}, got a report of {}", r.top),
        Err(e) => e,
    }
}

#[test]
fn errors_say_what_was_expected() {
    for text in ["", "hello", "{\"not\": \"xml\"}", "<profile>", "<profile><a></b></profile>"] {
        let e = err_of(text);
        assert_eq!(e.kind, ErrorKind::BadInput, "{text:?}");
        assert!(e.message.contains("not well-formed XML") && e.message.contains("csynth.xml"), "{e}");
        assert_eq!(e.path.as_deref(), Some(Path::new("t/csynth.xml")));
    }
    let e = err_of("<profile>\n<a></b></profile>");
    assert_eq!(e.line_col.map(|(l, _)| l), Some(2), "{e}");

    let e = err_of("<?xml version=\"1.0\"?>\n<project><x/></project>");
    assert_eq!(e.kind, ErrorKind::BadInput);
    assert!(e.message.contains("<project>") && e.message.contains("<profile>"), "{e}");

    let ua = "<UserAssignments><TopModelName>k</TopModelName></UserAssignments>";
    let e = err_of(&format!("<profile>{ua}</profile>"));
    assert!(e.message.contains("<ReportVersion><Version>"), "{e}");
    let e = err_of(&format!("<profile><ReportVersion><Version>2013.4</Version></ReportVersion>{ua}</profile>"));
    assert!(e.message.contains("2013.4") && e.message.contains("not supported") && e.message.contains("2015.1"), "{e}");
    let e = err_of(&format!("<profile><ReportVersion><Version>v2</Version></ReportVersion>{ua}</profile>"));
    assert!(e.message.contains("\"v2\""), "{e}");
    let e = err_of("<profile><ReportVersion><Version>2022.1</Version></ReportVersion></profile>");
    assert!(e.message.contains("TopModelName"), "{e}");
}

#[test]
fn other_vendor_files_are_refused() {
    // Real XML of another kind (Intel HDL library spec) and real non-XML files.
    for rel in ["intel-hdl-library/cnt32.xml", "vitis-blackbox/rtl_model.json", "vitis-blackbox/hls_config.cfg"] {
        let e = parse_file(fixtures().join(rel)).unwrap_err();
        assert_eq!(e.kind, ErrorKind::BadInput, "{rel}: {e}");
        assert!(e.to_string().contains("csynth.xml"), "{e}");
    }
    let e = parse_file(fixtures().join("intel-hdl-library/cnt32.xml")).unwrap_err();
    assert!(e.message.contains("<EFI_SPEC>"), "{e}");
    // A co-simulation report is text, but not a synthesis report (csynth.rpt is: tests/csynth_rpt.rs).
    let e = parse_file(report_path("cosim-vivado-style/cosim.rpt")).unwrap_err();
    assert_eq!(e.kind, ErrorKind::BadInput);
    assert!(e.message.contains("csynth.rpt"), "{e}");
}

#[test]
fn io_and_encoding_errors() {
    let e = parse_file("/no/such/dir/csynth.xml").unwrap_err();
    assert_eq!(e.kind, ErrorKind::Io);
    let tmp = tempfile::tempdir().unwrap();
    let p = tmp.path().join("csynth.xml");
    std::fs::write(&p, b"<profile>\xff\xfe</profile>").unwrap();
    let e = parse_file(&p).unwrap_err();
    assert_eq!(e.kind, ErrorKind::BadInput);
    assert!(e.message.contains("UTF-8"), "{e}");
    // A byte order mark is fine.
    let text = std::fs::read_to_string(report_path("2022.1-topk/csynth.xml")).unwrap();
    std::fs::write(&p, format!("\u{feff}{text}")).unwrap();
    assert_eq!(parse_file(&p).unwrap().modules.len(), 5);
}

#[test]
fn unknown_elements_are_ignored_and_bad_values_warned() {
    let path = report_path("2022.1-topk/csynth.xml");
    let text = std::fs::read_to_string(&path).unwrap();
    let base = parse_str(&text, &path).unwrap();
    // Newer versions add children: a field with a <range>, a new section, an attribute.
    let extended = text
        .replace(
            "<TripCount>1000</TripCount>",
            "<TripCount>1000</TripCount><FutureField><range><min>1</min><max>2</max></range></FutureField><Flag/>",
        )
        .replace("<FIFOInformation/>", "<FIFOInformation/><NewSection><Module><Name>x</Name></Module></NewSection>")
        .replace(
            "<Module>\n            <Name>topk_sort</Name>",
            "<Module extra=\"1\">\n            <Name>topk_sort</Name>",
        );
    assert_ne!(extended, text);
    let ext = parse_str(&extended, &path).unwrap();
    assert_eq!(ext.modules, base.modules);
    assert!(ext.warnings.is_empty(), "{:?}", ext.warnings);

    // A value that is not a value: None, and a warning with the line.
    let bad = text.replacen("<TripCount>100</TripCount>", "<TripCount>lots</TripCount>", 1);
    let rep = parse_str(&bad, &path).unwrap();
    assert_eq!(rep.modules[0].loops[0].trip_count, None);
    assert_eq!(rep.warnings.len(), 1, "{:?}", rep.warnings);
    assert!(rep.warnings[0].contains("<TripCount>") && rep.warnings[0].contains("\"lots\""), "{:?}", rep.warnings);
    assert!(rep.warnings[0].contains("csynth.xml:"), "{:?}", rep.warnings);
}

#[test]
fn minimal_and_older_reports() {
    // Only what a Vivado HLS 2019.2 per-module file must have; a labeled, pipelined loop.
    let text = "<profile><ReportVersion><Version>2019.2</Version></ReportVersion>\
        <UserAssignments><unit>ns</unit><TopModelName>k</TopModelName><TargetClockPeriod>4.00</TargetClockPeriod></UserAssignments>\
        <PerformanceEstimates><PipelineType>function</PipelineType>\
        <SummaryOfOverallLatency><Best-caseLatency>10</Best-caseLatency><Worst-caseLatency>12</Worst-caseLatency>\
        <Interval-min>3</Interval-min><Interval-max>3</Interval-max></SummaryOfOverallLatency>\
        <SummaryOfLoopLatency><outer><TripCount>8</TripCount><Latency>16</Latency><PipelineII>2</PipelineII>\
        <PipelineDepth>3</PipelineDepth><inner><TripCount>4</TripCount><IterationLatency>1</IterationLatency></inner>\
        </outer></SummaryOfLoopLatency></PerformanceEstimates></profile>";
    let rep = parse_str(text, "k_csynth.xml").unwrap();
    assert_eq!(rep.tool, "Vivado HLS");
    assert!(close(rep.target_clock_ns, 4.0));
    let m = rep.top_module().unwrap();
    assert!(m.is_pipelined());
    assert_eq!((m.latency, m.interval, m.pipeline_ii), (r(10, 12), r(3, 3), Some(3)));
    assert!(m.resources.is_empty());
    let outer = &m.loops[0];
    assert_eq!(
        (outer.name.as_str(), outer.ii, outer.iteration_latency, outer.source_line),
        ("outer", Some(2), r(3, 3), None)
    );
    assert!(outer.pipelined);
    assert_eq!(outer.children.len(), 1);
    assert_eq!((outer.children[0].trip_count, outer.children[0].pipelined), (r(4, 4), false));
    assert_eq!(rep.find_loop("k", "inner").unwrap().depth, 1);
    // A `<func>_Pipeline_<label>` module: the label is the loop.
    let p = "<profile><ReportVersion><Version>2024.1</Version></ReportVersion><UserAssignments><TopModelName>f</TopModelName>\
        </UserAssignments><ModuleInformation><Module><Name>f_Pipeline_rows</Name><Loops><rows/></Loops></Module>\
        <Module><Name>f</Name></Module></ModuleInformation></profile>";
    let rep = parse_str(p, "csynth.xml").unwrap();
    let po = rep.modules[0].pipeline_of.clone().unwrap();
    assert_eq!((po.function.as_str(), po.loop_name.as_str()), ("f", "rows"));
    assert_eq!(rep.modules[0].loops[0].name, "rows", "from <Loops> when there is no loop summary");
    assert_eq!(rep.find_loop("f", "rows").unwrap().module.name, "f_Pipeline_rows");
    assert_eq!(rep.tool, "Vitis HLS");
}

#[test]
fn flattened_loop_nests() {
    // Vitis names a flattened nest after all its loops, and pipelines it in a module of its own.
    let text = "<profile><ReportVersion><Version>2023.1</Version></ReportVersion><UserAssignments>\
        <TopModelName>f</TopModelName></UserAssignments><ModuleInformation>\
        <Module><Name>f_Pipeline_VITIS_LOOP_10_1_VITIS_LOOP_11_2</Name><PerformanceEstimates><SummaryOfLoopLatency>\
        <VITIS_LOOP_10_1_VITIS_LOOP_11_2><Name>VITIS_LOOP_10_1_VITIS_LOOP_11_2</Name><TripCount>64</TripCount>\
        <Latency>66</Latency><PipelineII>1</PipelineII><PipelineDepth>3</PipelineDepth><PipelineType>yes</PipelineType>\
        </VITIS_LOOP_10_1_VITIS_LOOP_11_2></SummaryOfLoopLatency></PerformanceEstimates></Module>\
        <Module><Name>f</Name></Module></ModuleInformation></profile>";
    let rep = parse_str(text, "csynth.xml").unwrap();
    let m = &rep.modules[0];
    assert_eq!(m.pipeline_of.as_ref().unwrap().loop_name, "VITIS_LOOP_10_1_VITIS_LOOP_11_2");
    let lp = &m.loops[0];
    assert_eq!((lp.source_line, lp.vitis_lines()), (Some(10), vec![10, 11]));
    assert_eq!((lp.trip_count, lp.ii, lp.iteration_latency), (r(64, 64), Some(1), r(3, 3)));
    for name in ["VITIS_LOOP_10_1", "VITIS_LOOP_11_2", "VITIS_LOOP_10_1_VITIS_LOOP_11_2"] {
        assert_eq!(rep.find_loop("f", name).map(|r| r.node.name.as_str()), Some(lp.name.as_str()), "{name}");
    }
    assert_eq!(rep.loops_at_line(11).len(), 1);
    assert_eq!(rep.loops_at_line(10).len(), 1);
}

fn all_fixture_texts() -> Vec<(String, Vec<u8>)> {
    [
        "2020.1-rlsoc/csynth.xml",
        "2020.1-rlsoc/Accumulator_csynth.xml",
        "2022.1-topk/csynth.xml",
        "2022.1-topk/topk_sort_csynth.xml",
        "2023.2-systolic/csynth.xml",
    ]
    .iter()
    .map(|rel| (rel.to_string(), std::fs::read(report_path(rel)).unwrap()))
    .collect()
}

fn must_not_panic(label: &str, bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    let out = std::panic::catch_unwind(|| {
        if let Ok(rep) = csynth::parse_str(&text, "fuzz.xml") {
            // Lookups and serialization on whatever came out must not panic either.
            let _ = rep.find_loop(&rep.top, "VITIS_LOOP_30_2");
            let _ = rep.loops_at_line(35);
            let _ = serde_json::to_string(&rep).unwrap();
        }
    });
    assert!(out.is_ok(), "panicked on {label}");
}

#[test]
fn truncated_reports_never_panic() {
    for (rel, bytes) in all_fixture_texts() {
        let n = bytes.len();
        let mut cuts: Vec<usize> = (0..=64).map(|i| n * i / 64).collect();
        cuts.extend([1, 2, 10, 100, n.saturating_sub(1), n.saturating_sub(12)]);
        let mut errors = 0;
        for cut in cuts {
            must_not_panic(&format!("{rel} cut at {cut}"), &bytes[..cut]);
            errors += usize::from(csynth::parse_str(&String::from_utf8_lossy(&bytes[..cut]), "t.xml").is_err());
        }
        assert!(errors >= 64, "{rel}: a cut XML file is not well-formed ({errors} errors)");
    }
}

#[test]
fn byte_flips_never_panic() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let alphabet = b"<>/~ 0123456789.-_undefrangeminmax\"'&;\n\x00\xff";
    for (rel, bytes) in all_fixture_texts() {
        for round in 0..100 {
            let mut b = bytes.clone();
            for _ in 0..1 + rng.below(8) {
                let at = rng.below(b.len());
                b[at] = match rng.below(3) {
                    0 => alphabet[rng.below(alphabet.len())],
                    1 => b[at] ^ (1 << rng.below(8)),
                    _ => rng.next() as u8,
                };
            }
            must_not_panic(&format!("{rel} flip round {round}"), &b);
        }
        // Flips inside values only: the document stays XML, the values do not.
        let text = String::from_utf8_lossy(&bytes).into_owned();
        for (i, _) in text.match_indices("</TripCount>").take(12) {
            for junk in ["~", "1 ~", "~ 2", "-1", "1e99", "99999999999999999999", "undef ~ undef", "1.5 ms ~"] {
                let mut t = text.clone();
                t.insert_str(i, junk);
                must_not_panic(&format!("{rel} junk {junk:?} at {i}"), t.as_bytes());
            }
        }
    }
}

#[test]
fn deep_nesting_is_cut_off_not_overflowed() {
    let depth = 5000;
    let mut text = String::from(
        "<profile><ReportVersion><Version>2022.1</Version></ReportVersion><UserAssignments><TopModelName>k</TopModelName>\
         </UserAssignments><PerformanceEstimates><SummaryOfLoopLatency>",
    );
    for i in 0..depth {
        text.push_str(&format!("<L{i}><TripCount>2</TripCount>"));
    }
    for i in (0..depth).rev() {
        text.push_str(&format!("</L{i}>"));
    }
    text.push_str("</SummaryOfLoopLatency></PerformanceEstimates></profile>");
    let rep = parse_str(&text, "deep.xml").unwrap();
    let n = rep.top_module().unwrap().all_loops().len();
    assert!(n <= 65, "{n}");
    assert!(rep.warnings.iter().any(|w| w.contains("nested deeper")), "{:?}", rep.warnings);
}

#[test]
fn report_serializes_to_json() {
    let rep = parse("2022.1-topk/csynth.xml");
    let v = serde_json::to_value(&rep).unwrap();
    assert_eq!(v["top"], "topk_sort");
    assert_eq!(v["modules"][4]["latency"]["max"], 115406);
    assert_eq!(v["modules"][4]["loops"][1]["iteration_latency"]["min"], 5);
    assert_eq!(v["modules"][0]["pipeline_of"]["loop_name"], "VITIS_LOOP_20_1");
    assert!(v["modules"][4]["loops"][0]["ii"].is_null());
}
