//! hlsinstr::csynth on the text reports (`csynth.rpt`, `<module>_csynth.rpt`) of real Vitis HLS
//! runs (shared/fixtures, beside the repo): each is checked against the csynth.xml of the same run.

mod common;
use common::fixtures;

use hlsinstr::csynth::{find_reports, find_top_reports, parse_file, parse_str, Loop, Module, Range, Report};
use hlsinstr::ErrorKind;
use std::path::{Path, PathBuf};

fn fixture(rel: &str) -> PathBuf {
    let p = fixtures().join(rel);
    assert!(p.is_file(), "missing fixture {}", p.display());
    p
}

const SYSTOLIC: &str = "vitis-solution/2022.2-systolic-mm/solution/syn/report";

fn parse(rel: &str) -> Report {
    parse_file(fixture(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

fn r(min: u64, max: u64) -> Option<Range<u64>> {
    Some(Range { min, max })
}

/// Every synthesis .rpt among the fixtures (not the schedules or co-simulation reports).
fn fixture_rpts() -> Vec<PathBuf> {
    let mut out = vec![
        fixture("vitis-reports/2020.1-rlsoc/Accumulator_csynth.rpt"),
        fixture("vitis-reports/2022.1-topk/csynth.rpt"),
        fixture("vitis-reports/2022.1-topk/topk_sort_csynth.rpt"),
    ];
    let mut sys: Vec<PathBuf> = std::fs::read_dir(fixtures().join(SYSTOLIC))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "rpt"))
        .collect();
    sys.sort();
    out.extend(sys);
    out
}

#[test]
fn every_fixture_rpt_parses_without_warnings() {
    let all = fixture_rpts();
    assert_eq!(all.len(), 3 + 10, "systolic: csynth.rpt and 9 per-module reports");
    for f in all {
        let rep = parse_file(&f).unwrap_or_else(|e| panic!("{e}"));
        assert!(rep.warnings.is_empty(), "{}: {:?}", f.display(), rep.warnings);
        let top = rep.top_module().unwrap_or_else(|| panic!("{}: no top module", f.display()));
        assert!(top.latency.is_some() || top.name == "Accumulator", "{}", f.display());
        assert_eq!(rep.tool, "Vitis HLS");
        serde_json::to_string(&rep).unwrap();
    }
}

// --- agreement with csynth.xml ------------------------------------------------------------------

/// How a text report may differ from the XML of the same run.
#[derive(Clone, Copy, PartialEq)]
enum Detail {
    /// Per-module report, or a summary whose modules all have their own file: the same values.
    Full,
    /// A summary table value with no file to refine it: the worst case only (`max ~ max`).
    WorstCase,
}

struct Cmp {
    what: String,
    worst_case_only: usize,
}

impl Cmp {
    fn range(&mut self, at: &str, rpt: Option<Range<u64>>, xml: Option<Range<u64>>, detail: Detail) {
        if rpt == xml {
            return;
        }
        let worst = matches!((rpt, xml), (Some(a), Some(b)) if a.is_exact() && a.max == b.max);
        assert!(detail == Detail::WorstCase && worst, "{}: {at}: rpt {rpt:?}, xml {xml:?}", self.what);
        self.worst_case_only += 1;
    }

    fn modules(&mut self, rpt: &Module, xml: &Module, detail: Detail) {
        let at = format!("module {}", xml.name);
        self.range(&format!("{at} latency"), rpt.latency, xml.latency, detail);
        self.range(&format!("{at} interval"), rpt.interval, xml.interval, detail);
        assert_eq!(rpt.is_pipelined(), xml.is_pipelined(), "{}: {at}", self.what);
        assert_eq!(rpt.pipeline_ii, xml.pipeline_ii, "{}: {at}", self.what);
        let po = |m: &Module| m.pipeline_of.as_ref().map(|p| (p.function.clone(), unspaced(&p.loop_name)));
        assert_eq!(po(rpt), po(xml), "{}: {at}", self.what);
        if !xml.instances.is_empty() {
            let mut a = rpt.instances.clone();
            let mut b = xml.instances.clone();
            a.sort_by(|x, y| x.name.cmp(&y.name));
            b.sort_by(|x, y| x.name.cmp(&y.name));
            assert_eq!(a, b, "{}: {at} instances", self.what);
        }
        self.loops(&at, &rpt.loops, &xml.loops, detail);
    }

    fn loops(&mut self, at: &str, rpt: &[Loop], xml: &[Loop], detail: Detail) {
        let names = |l: &[Loop]| l.iter().map(|l| unspaced(&l.name)).collect::<Vec<_>>();
        assert_eq!(names(rpt), names(xml), "{}: {at} loops", self.what);
        for (a, b) in rpt.iter().zip(xml) {
            let at = format!("{at} loop {}", b.name);
            self.range(&format!("{at} trip count"), a.trip_count, b.trip_count, detail);
            self.range(&format!("{at} latency"), a.latency, b.latency, detail);
            self.range(&format!("{at} iteration latency"), a.iteration_latency, b.iteration_latency, detail);
            assert_eq!((a.ii, a.pipelined, a.copy, a.source_line), (b.ii, b.pipelined, b.copy, b.source_line), "{at}");
            if !b.instances.is_empty() {
                assert_eq!(a.instances, b.instances, "{}: {at} instances", self.what);
            }
            self.loops(&at, &a.children, &b.children, detail);
        }
    }
}

/// Per-module XML files name loops by element (`<Loop1>`: no spaces in a tag); the text and
/// the 2022+ csynth.xml say `Loop 1`.
fn unspaced(name: &str) -> String {
    name.replace(' ', "")
}

/// Compare every module the XML has; returns how many values were worst-case only.
fn agree(rpt_rel: &str, xml_rel: &str, detail: Detail) -> usize {
    let rpt = parse(rpt_rel);
    let xml = parse(xml_rel);
    let mut cmp = Cmp { what: rpt_rel.to_string(), worst_case_only: 0 };
    assert_eq!(
        (&rpt.tool, &rpt.version, &rpt.top, &rpt.part, &rpt.product_family, &rpt.flow_target),
        (&xml.tool, &xml.version, &xml.top, &xml.part, &xml.product_family, &xml.flow_target),
        "{rpt_rel}"
    );
    assert_eq!((&rpt.control, rpt.s_axilite, &rpt.maxi), (&xml.control, xml.s_axilite, &xml.maxi), "{rpt_rel}");
    // The arguments' hardware (which memories sit on the s_axilite bundle) times the co-sim window.
    assert_eq!(rpt.sw_args, xml.sw_args, "{rpt_rel}");
    let close = |a: Option<f64>, b: Option<f64>| match (a, b) {
        (Some(a), Some(b)) => (a - b).abs() < 1e-9,
        _ => true,
    };
    assert!(close(rpt.target_clock_ns, xml.target_clock_ns) && close(rpt.estimated_clock_ns, xml.estimated_clock_ns));
    assert!(close(rpt.clock_uncertainty_ns, xml.clock_uncertainty_ns), "{rpt_rel}");
    let mut names: Vec<&str> = rpt.modules.iter().map(|m| m.name.as_str()).collect();
    let mut xml_names: Vec<&str> = xml.modules.iter().map(|m| m.name.as_str()).collect();
    names.sort();
    xml_names.sort();
    assert_eq!(names, xml_names, "{rpt_rel}");
    for xm in &xml.modules {
        cmp.modules(rpt.module(&xm.name).unwrap(), xm, detail);
        let rm = rpt.module(&xm.name).unwrap();
        if detail == Detail::Full || xm.name == xml.top {
            assert_eq!(rm.resources, xm.resources, "{rpt_rel}: {} resources", xm.name);
        }
    }
    cmp.worst_case_only
}

#[test]
fn per_module_reports_agree_with_their_xml() {
    let mut pairs = vec![
        (
            "vitis-reports/2020.1-rlsoc/Accumulator_csynth.rpt".to_string(),
            "vitis-reports/2020.1-rlsoc/Accumulator_csynth.xml".to_string(),
        ),
        (
            "vitis-reports/2022.1-topk/topk_sort_csynth.rpt".into(),
            "vitis-reports/2022.1-topk/topk_sort_csynth.xml".into(),
        ),
    ];
    for f in fixture_rpts().iter().filter(|f| f.parent().unwrap().ends_with("syn/report")) {
        let name = f.file_name().unwrap().to_str().unwrap();
        if name != "csynth.rpt" {
            pairs.push((format!("{SYSTOLIC}/{name}"), format!("{SYSTOLIC}/{}", name.replace(".rpt", ".xml"))));
        }
    }
    assert_eq!(pairs.len(), 2 + 9);
    for (rpt, xml) in &pairs {
        assert_eq!(agree(rpt, xml, Detail::Full), 0, "{rpt}");
    }
}

#[test]
fn summary_reports_agree_with_csynth_xml() {
    // Systolic: every module has its own report beside csynth.rpt.
    assert_eq!(agree(&format!("{SYSTOLIC}/csynth.rpt"), &format!("{SYSTOLIC}/csynth.xml"), Detail::Full), 0);
    // Topk: only the top has one; topk_sort_Pipeline_VITIS_LOOP_58_5's loop has a trip count of
    // 1 ~ 99 and a latency of 1 ~ 99 in the XML, and 99 (the worst case) in the summary table.
    let worst =
        agree("vitis-reports/2022.1-topk/csynth.rpt", "vitis-reports/2022.1-topk/csynth.xml", Detail::WorstCase);
    assert_eq!(worst, 2);
}

// --- values -------------------------------------------------------------------------------------

#[test]
fn systolic_2022_2_summary() {
    let rep = parse(&format!("{SYSTOLIC}/csynth.rpt"));
    assert_eq!(
        (rep.version.as_str(), rep.top.as_str(), rep.flow_target.as_deref()),
        ("2022.2", "multiplier", Some("vitis"))
    );
    assert_eq!(rep.files.len(), 1 + 9, "csynth.rpt and the per-module report of each of its 9 modules");
    let top = rep.top_module().unwrap();
    assert_eq!((top.latency, top.interval), (r(260, 260), r(261, 261)));
    assert_eq!(top.submodules().len(), 8);
    assert_eq!(top.instances.len(), 8);
    assert_eq!(top.resources.dsp, Some(192));
    assert_eq!(rep.modules.last().unwrap().name, "multiplier", "callees first, the top last");

    let f = rep.find_loop("multiplier", "systolic1").unwrap();
    assert_eq!(f.module.name, "multiplier_Pipeline_systolic1");
    let l = f.node;
    assert_eq!((l.trip_count, l.ii, l.iteration_latency, l.latency), (r(23, 23), Some(1), r(2, 2), r(23, 23)));
    assert!(l.pipelined);
    assert_eq!(l.slack_ns, Some(7.3));
    let po = f.module.pipeline_of.as_ref().unwrap();
    assert_eq!((po.function.as_str(), po.loop_name.as_str()), ("multiplier", "systolic1"));
    // `Loop 1` of the memcpy-like pipelines: a name with a space.
    assert_eq!(rep.module("multiplier_Pipeline_1").unwrap().loops[0].name, "Loop 1");

    assert_eq!(rep.maxi.len(), 3);
    for (i, m) in rep.maxi.iter().enumerate() {
        assert_eq!(m.name, format!("m_axi_gmem{}", i + 1));
        assert_eq!(m.data_width, "32 -> 512");
        assert_eq!((m.latency, m.max_read_burst, m.max_write_burst), (Some(64), Some(16), Some(16)));
        assert_eq!((m.num_read_outstanding, m.num_write_outstanding), (Some(16), Some(16)));
    }
    assert_eq!(rep.control.as_deref(), Some("ap_ctrl_chain"));
    assert!(rep.s_axilite);
    // The control bundle's arguments, words per argument (the co-sim testbench writes each).
    let args = |rep: &Report| rep.axilite_args.iter().flatten().map(|a| (a.name.clone(), a.words)).collect::<Vec<_>>();
    let want: Vec<(String, u32)> = [("vec_a", 2), ("vec_b", 2), ("result", 2), ("vector_len", 1)]
        .iter()
        .map(|(n, w)| (n.to_string(), *w))
        .collect();
    assert_eq!(args(&rep), want);
    assert_eq!(args(&parse(&format!("{SYSTOLIC}/csynth.xml"))), want);
    // topk (2022.1): the control bundle has no argument registers.
    assert_eq!(parse("vitis-reports/2022.1-topk/csynth.rpt").axilite_args, Some(vec![]));
    assert_eq!(parse("vitis-reports/2022.1-topk/csynth.xml").axilite_args, Some(vec![]));
    // From multiplier_csynth.rpt: clocks and the device.
    assert_eq!(
        (rep.target_clock_ns, rep.estimated_clock_ns, rep.clock_uncertainty_ns),
        (Some(10.0), Some(7.3), Some(2.7))
    );
    assert_eq!(rep.available.lut, Some(117120));
}

#[test]
fn topk_2022_1_summary_tree() {
    let rep = parse("vitis-reports/2022.1-topk/csynth.rpt");
    assert_eq!(rep.files.len(), 2, "csynth.rpt and topk_sort_csynth.rpt");
    assert_eq!((rep.control.as_deref(), rep.s_axilite, rep.maxi.len()), (Some("ap_ctrl_hs"), true, 0));
    let top = rep.top_module().unwrap();
    assert_eq!(top.latency, r(105704, 115406), "from topk_sort_csynth.rpt");
    let l30 = &top.loops[0];
    assert_eq!(l30.name, "VITIS_LOOP_30_2");
    assert_eq!(l30.instances.len(), 1);
    assert_eq!(l30.instances[0].name, "grp_topk_sort_Pipeline_VITIS_LOOP_36_3_fu_1904");
    assert_eq!(l30.instances[0].module.as_deref(), Some("topk_sort_Pipeline_VITIS_LOOP_36_3"));
    // topk_sort_Pipeline_VITIS_LOOP_58_5 has no report of its own: its latency range comes from
    // the caller's instance table, its loop's values are the summary's worst case.
    let p58 = rep.module("topk_sort_Pipeline_VITIS_LOOP_58_5").unwrap();
    assert_eq!((p58.latency, p58.interval), (r(3, 101), r(3, 101)));
    assert_eq!(p58.loops[0].trip_count, r(99, 99));

    // The summary alone (no siblings read): worst cases, instances named after their modules.
    let path = fixture("vitis-reports/2022.1-topk/csynth.rpt");
    let alone = parse_str(&std::fs::read_to_string(&path).unwrap(), &path).unwrap();
    assert!(alone.warnings.is_empty(), "{:?}", alone.warnings);
    let top = alone.top_module().unwrap();
    assert_eq!((top.latency, top.interval), (r(115406, 115406), r(115407, 115407)));
    assert_eq!(top.loops[1].latency, r(10197, 10197));
    assert_eq!(top.loops[1].instances[0].name, "topk_sort_Pipeline_VITIS_LOOP_58_5");
    assert_eq!(alone.target_clock_ns, None, "the summary has no timing table");
    let names: Vec<&str> = top.instances.iter().map(|i| i.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "topk_sort_Pipeline_VITIS_LOOP_20_1",
            "topk_sort_Pipeline_VITIS_LOOP_70_6",
            "topk_sort_Pipeline_VITIS_LOOP_36_3",
            "topk_sort_Pipeline_VITIS_LOOP_58_5"
        ],
        "in table order"
    );
}

#[test]
fn rlsoc_2020_1_per_module_report() {
    let rep = parse("vitis-reports/2020.1-rlsoc/Accumulator_csynth.rpt");
    assert_eq!((rep.version.as_str(), rep.top.as_str()), ("2020.1", "Accumulator"));
    assert_eq!((rep.target_clock_ns, rep.estimated_clock_ns), (Some(10.0), Some(3.06)));
    assert_eq!((rep.control.as_deref(), rep.s_axilite), (Some("ap_ctrl_hs"), false));
    let m = rep.top_module().unwrap();
    assert_eq!((m.latency, m.interval, m.pipeline_type.as_deref()), (None, None, Some("none")));
    let l = &m.loops[0];
    assert_eq!((l.name.as_str(), l.ii, l.iteration_latency, l.trip_count), ("VITIS_LOOP_70_1", Some(1), r(2, 2), None));
    assert!(l.pipelined);
    assert_eq!((m.resources.ff, m.resources.lut), (Some(70), Some(188)));
    assert_eq!(rep.available.dsp, Some(1728));
}

/// 2020.1 writes `csynth.rpt` in the per-module layout, for the top; the other modules are in
/// `<module>_csynth.rpt` beside it.
#[test]
fn per_module_layout_csynth_rpt_reads_its_siblings() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let acc = std::fs::read_to_string(fixture("vitis-reports/2020.1-rlsoc/Accumulator_csynth.rpt")).unwrap();
    let top = acc.replace("'Accumulator'", "'Top'");
    std::fs::write(dir.join("csynth.rpt"), &top).unwrap();
    std::fs::write(dir.join("Top_csynth.rpt"), &top).unwrap();
    std::fs::write(dir.join("Accumulator_csynth.rpt"), &acc).unwrap();
    std::fs::write(dir.join("Broken_csynth.rpt"), "not a report").unwrap();
    std::fs::write(
        dir.join("Stale_csynth.rpt"),
        acc.replace("2020.1 (Build", "2019.2 (Build").replace("'Accumulator'", "'Stale'"),
    )
    .unwrap();
    let rep = parse_file(dir.join("csynth.rpt")).unwrap();
    let names: Vec<&str> = rep.modules.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, ["Top", "Accumulator"]);
    assert_eq!(rep.warnings.len(), 2, "{:?}", rep.warnings);
    assert!(rep.warnings.iter().any(|w| w.contains("Broken_csynth.rpt") && w.contains("title")), "{:?}", rep.warnings);
    assert!(rep.warnings.iter().any(|w| w.contains("Stale_csynth.rpt") && w.contains("2019.2")), "{:?}", rep.warnings);
    // find_reports takes the rpt where there is no XML, and the XML where both are.
    assert_eq!(find_reports(dir), [dir.join("csynth.rpt")]);
    std::fs::write(dir.join("csynth.xml"), "<profile/>").unwrap();
    assert_eq!(find_reports(dir), [dir.join("csynth.xml")]);
}

/// A Vivado HLS solution kept with only per-module files: the top's own `<top>_csynth.rpt`,
/// given or found, reads the modules it calls from their files beside it (their loops are only
/// there); a module that calls nothing, given on its own, stays a report of that module.
#[test]
fn the_tops_own_per_module_rpt_reads_the_modules_it_calls() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let acc = std::fs::read_to_string(fixture("vitis-reports/2020.1-rlsoc/Accumulator_csynth.rpt")).unwrap();
    let table = "        * Instance: \n\
        +-----------------+-------------+-----+-----+-----+-----+---------+\n\
        |                 |             |  Latency  |  Interval | Pipeline|\n\
        |     Instance    |    Module   | min | max | min | max |   Type  |\n\
        +-----------------+-------------+-----+-----+-----+-----+---------+\n\
        |Accumulator_U0   |Accumulator  |    ?|    ?|    ?|    ?|   none  |\n\
        +-----------------+-------------+-----+-----+-----+-----+---------+\n";
    let top = acc.replacen("        * Instance: \n        N/A\n", table, 1).replace("'Accumulator'", "'Top'");
    assert_ne!(top, acc.replace("'Accumulator'", "'Top'"), "the instance table went in");
    std::fs::write(dir.join("Top_csynth.rpt"), &top).unwrap();
    std::fs::write(dir.join("Accumulator_csynth.rpt"), &acc).unwrap();
    let rep = parse_file(dir.join("Top_csynth.rpt")).unwrap();
    let names: Vec<&str> = rep.modules.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, ["Top", "Accumulator"], "{:?}", rep.warnings);
    assert_eq!(rep.module("Accumulator").unwrap().loops[0].name, "VITIS_LOOP_70_1");
    assert_eq!(rep.files.len(), 2, "the top's file is read once: {:?}", rep.files);
    let alone = parse_file(dir.join("Accumulator_csynth.rpt")).unwrap();
    assert_eq!(alone.modules.len(), 1);
}

#[test]
fn find_reports_takes_rpt_where_there_is_no_xml() {
    let tmp = tempfile::tempdir().unwrap();
    let proj = tmp.path();
    for rel in [
        "solution1/syn/report/csynth.xml",
        "solution1/syn/report/csynth.rpt",
        "solution2/syn/report/csynth.rpt",
        "component/hls/syn/report/csynth.rpt",
        "solution3/syn/report/kernel_csynth.rpt",
    ] {
        let p = proj.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, "").unwrap();
    }
    let found: Vec<String> =
        find_reports(proj).iter().map(|p| p.strip_prefix(proj).unwrap().to_string_lossy().replace('\\', "/")).collect();
    assert_eq!(
        found,
        ["component/hls/syn/report/csynth.rpt", "solution1/syn/report/csynth.xml", "solution2/syn/report/csynth.rpt"]
    );
    // Given the top, a solution kept with only the top's own report (as Vivado HLS projects
    // often are) is found too, the XML before the text; another module's report is not taken.
    let solution4 = proj.join("solution4/syn/report");
    std::fs::create_dir_all(&solution4).unwrap();
    std::fs::write(solution4.join("helper_csynth.xml"), "").unwrap();
    assert!(find_top_reports(proj.join("solution4"), Some("kernel")).is_empty());
    for file in ["kernel_csynth.rpt", "kernel_csynth.xml"] {
        std::fs::write(solution4.join(file), "").unwrap();
        assert_eq!(find_top_reports(proj.join("solution4"), Some("kernel")), [solution4.join(file)]);
    }
    assert_eq!(
        find_top_reports(proj.join("solution3"), Some("kernel")),
        [proj.join("solution3/syn/report/kernel_csynth.rpt")]
    );
    assert_eq!(
        find_top_reports(proj.join("solution1"), Some("kernel")),
        [proj.join("solution1/syn/report/csynth.xml")]
    );
}

// --- errors and robustness ----------------------------------------------------------------------

#[test]
fn text_that_is_not_a_synthesis_report_is_refused() {
    for rel in [
        "vitis-reports/cosim-vivado-style/cosim.rpt",
        "vitis-reports/2020.1-rlsoc/lat.rpt",
        "vitis-solution/2022.2-systolic-mm/solution/sim/report/multiplier_cosim.rpt",
    ] {
        let e = parse_file(fixture(rel)).unwrap_err();
        assert_eq!(e.kind, ErrorKind::BadInput, "{rel}: {e}");
        assert!(e.message.contains("csynth.rpt") && e.message.contains("title"), "{e}");
    }
    for text in ["", "hello", "<profile/>"] {
        let e = parse_str(text, "x/csynth.rpt").unwrap_err();
        assert_eq!(e.kind, ErrorKind::BadInput);
        assert_eq!(e.path.as_deref(), Some(Path::new("x/csynth.rpt")));
    }
    // A title and nothing else.
    let e = parse_str("== Synthesis Summary Report of 'k'\n* Version: 2022.1\n", "csynth.rpt").unwrap_err();
    assert!(e.message.contains("Performance & Resource Estimates"), "{e}");
    let e = parse_str("== Vitis HLS Report for 'k'\n* Version: 2013.4 (Build 1)\n", "k_csynth.rpt").unwrap_err();
    assert!(e.message.contains("2013.4") && e.message.contains("not supported"), "{e}");
    let e = parse_str("== Vitis HLS Report for 'k'\n* Date: today\n", "k_csynth.rpt").unwrap_err();
    assert!(e.message.contains("Version"), "{e}");
    // A text report given as text with another name is still recognised by its title.
    let text = std::fs::read_to_string(fixture("vitis-reports/2022.1-topk/topk_sort_csynth.rpt")).unwrap();
    assert_eq!(parse_str(&text, "report.txt").unwrap().top, "topk_sort");
}

#[test]
fn bad_values_are_warned_with_their_line() {
    let path = fixture("vitis-reports/2022.1-topk/topk_sort_csynth.rpt");
    let text = std::fs::read_to_string(&path).unwrap();
    let bad = text.replacen("|  1000|        no|", "|  lots|        no|", 1);
    assert_ne!(bad, text);
    let rep = parse_str(&bad, &path).unwrap();
    assert_eq!(rep.top_module().unwrap().loops[0].trip_count, None);
    assert_eq!(rep.warnings.len(), 1, "{:?}", rep.warnings);
    assert!(
        rep.warnings[0].contains("topk_sort_csynth.rpt:52:") && rep.warnings[0].contains("\"lots\""),
        "{:?}",
        rep.warnings
    );
}

#[test]
fn truncated_reports_give_errors_or_warnings_never_panics() {
    for f in fixture_rpts() {
        let text = std::fs::read_to_string(&f).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        // The line ranges of the tables read: a cut inside one must be noticed.
        let n = text.len();
        let mut cuts: Vec<usize> = (0..=64).map(|i| n * i / 64).collect();
        // Cuts at every line of the first 80 (the header and performance tables).
        let mut at = 0;
        for l in lines.iter().take(80) {
            at += l.len() + 1;
            cuts.push(at.min(n));
            cuts.push((at + l.len() / 2).min(n));
        }
        for cut in cuts {
            let Some(part) = text.get(..cut) else { continue };
            let out = std::panic::catch_unwind(|| parse_str(part, &f));
            let Ok(res) = out else { panic!("{} cut at {cut} panicked", f.display()) };
            if let Ok(rep) = &res {
                serde_json::to_string(rep).unwrap();
                let _ = rep.find_loop(&rep.top, "VITIS_LOOP_30_2");
            }
        }
    }
    // A cut inside the tree table: a warning, the rows before it kept.
    let path = fixture(&format!("{SYSTOLIC}/csynth.rpt"));
    let text = std::fs::read_to_string(&path).unwrap();
    let cut = text.find("| + multiplier_Pipeline_VITIS_LOOP_31_1").unwrap();
    let rep = parse_str(&text[..cut + 20], &path).unwrap();
    assert!(rep.warnings.iter().any(|w| w.contains("cut short")), "{:?}", rep.warnings);
    assert!(rep.warnings.iter().any(|w| w.contains("cells")), "the half row: {:?}", rep.warnings);
    assert_eq!(rep.modules.len(), 6);
    // Cut before the top's row: an error.
    let cut = text.find("|+ multiplier").unwrap();
    assert!(parse_str(&text[..cut], &path).is_err());
}

#[test]
fn crlf_line_ends_read_the_same() {
    for rel in ["vitis-reports/2022.1-topk/csynth.rpt", "vitis-reports/2022.1-topk/topk_sort_csynth.rpt"] {
        let path = fixture(rel);
        let text = std::fs::read_to_string(&path).unwrap();
        let lf = parse_str(&text, &path).unwrap();
        let crlf = parse_str(&text.replace('\n', "\r\n"), &path).unwrap();
        assert_eq!(crlf, lf, "{rel}");
    }
}

/// `M_AXI Burst Information` on real text: the 2022.2 systolic report's table has no `Loop`
/// column; its copies burst 4 beats of 512 bits on two read bundles and one write bundle.
#[test]
fn burst_summary_of_the_systolic_report() {
    let rep = parse(&format!("{SYSTOLIC}/csynth.rpt"));
    let bursts = rep.maxi_bursts.expect("the 2022.2 report has the section");
    let rows: Vec<String> = bursts
        .iter()
        .map(|b| {
            format!(
                "{} {} {:?} {:?} {}",
                b.interface,
                b.direction,
                b.length,
                b.width,
                b.location.as_ref().unwrap().line
            )
        })
        .collect();
    assert_eq!(
        rows,
        vec![
            "m_axi_gmem1 read Some(4) Some(512) 31",
            "m_axi_gmem2 read Some(4) Some(512) 31",
            "m_axi_gmem3 write Some(4) Some(512) 142",
        ]
    );
    assert!(bursts.iter().all(|b| b.loop_name.is_none()));
    let loc = bursts[2].location.as_ref().unwrap();
    assert_eq!(loc.file, "Systolic-Matrix-Multiplier/design.cpp", "the column is cut, not the file");
    // The XML of the same run has the same table (its `<ReportBurst>`), read on its own.
    let alone = tempfile::tempdir().unwrap();
    let xml_path = alone.path().join("csynth.xml");
    std::fs::copy(fixtures().join(format!("{SYSTOLIC}/csynth.xml")), &xml_path).unwrap();
    let xml = hlsinstr::csynth::parse_file(&xml_path).unwrap();
    assert_eq!(xml.maxi_bursts.as_ref(), Some(&bursts));
}

/// `No burst in design` (2022.1 topk) is an empty list, not an absent section; a report without
/// the section (2020.1 per-module layout) gives none.
#[test]
fn no_burst_in_design_is_an_empty_list() {
    assert_eq!(parse("vitis-reports/2022.1-topk/csynth.rpt").maxi_bursts, Some(Vec::new()));
    assert_eq!(parse("vitis-reports/2020.1-rlsoc/Accumulator_csynth.rpt").maxi_bursts, None);
}

/// The layout with a `Loop` column (Vitis 2022.2 and later when a loop is named), a `variable`
/// length, and a row cut short: the row is left out with a warning, not a panic.
#[test]
fn burst_summary_with_loop_column_and_variable_length() {
    let text = "\
================================================================
== Synthesis Summary Report of 'k'
================================================================
+ General Information: 
    * Version:        2022.2 (Build 3670227 on Oct 13 2022)
    * Solution:       solution1 (Vivado IP Flow Target)

+ Performance & Resource Estimates: 
    
    PS: '+' for module; 'o' for loop; '*' for dataflow
    +--------+------+------+---------+-----------+----------+---------+------+----------+------+-----+-----+-----+-----+
    | Modules| Issue|      | Latency |  Latency  | Iteration|         | Trip |          |      |     |     |     |     |
    | & Loops| Type | Slack| (cycles)|    (ns)   |  Latency | Interval| Count| Pipelined| BRAM | DSP |  FF | LUT | URAM|
    +--------+------+------+---------+-----------+----------+---------+------+----------+------+-----+-----+-----+-----+
    |+ k     |     -|  0.00|      120|  1.200e+03|         -|      121|     -|        no|     -|    -|    -|    -|    -|
    +--------+------+------+---------+-----------+----------+---------+------+----------+------+-----+-----+-----+-----+

================================================================
== M_AXI Burst Information
================================================================
* Inferred Burst Summary
+--------------+-----------+-----------+----------+-------+-------------+
| HW Interface | Loop      | Direction | Length   | Width | Location    |
+--------------+-----------+-----------+----------+-------+-------------+
| m_axi_gmem   | anonymous | read      | 50       | 32    | k.cpp:37:5  |
| m_axi_gmem   | L_copy    | write     | variable | 64    | d:/k.cpp:9:3|
| m_axi_gmem   | cut       |
+--------------+-----------+-----------+----------+-------+-------------+

================================================================
== Bind Op Report
================================================================
";
    let rep = parse_str(text, "k/csynth.rpt").unwrap();
    let b = rep.maxi_bursts.unwrap();
    assert_eq!(b.len(), 2);
    assert_eq!(b[0].loop_name.as_deref(), Some("anonymous"));
    assert!(b[0].is_read() && !b[1].is_read());
    assert_eq!((b[0].length, b[0].width), (Some(50), Some(32)));
    assert_eq!((b[0].location.as_ref().unwrap().file.as_str(), b[0].location.as_ref().unwrap().line), ("k.cpp", 37));
    assert_eq!(b[1].length, None, "variable");
    assert_eq!(b[1].loop_name.as_deref(), Some("L_copy"));
    assert_eq!((b[1].location.as_ref().unwrap().file.as_str(), b[1].location.as_ref().unwrap().line), ("d:/k.cpp", 9));
    assert!(rep.warnings.iter().any(|w| w.contains("Inferred Burst Summary row has 2 cells")), "{:?}", rep.warnings);
}

/// Some Vitis 2025.2 installations write no release into either report of a run: `csynth.rpt`
/// says `* Version:         (Build 6295257 on Nov 12 2025)` and `csynth.xml` `<Version/>`. The
/// XML alone cannot be dated and is refused, saying what to give instead; beside its
/// `csynth.rpt`, that is read (the release from its build date), and warnings say both.
#[test]
fn a_2025_2_run_without_its_release_is_read_from_the_text_reports_build_date() {
    let dir = tempfile::tempdir().unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/cycle/01_memcpy_local");
    let xml =
        std::fs::read_to_string(src.join("csynth.xml")).unwrap().replace("<Version>2022.2</Version>", "<Version/>");
    let rpt = std::fs::read_to_string(src.join("csynth.rpt")).unwrap();
    let line = rpt.lines().find(|l| l.trim_start().starts_with("* Version:")).expect("a version line").to_string();
    let rpt = rpt.replace(&line, "    * Version:         (Build 6295257 on Nov 12 2025)");
    std::fs::write(dir.path().join("csynth.xml"), &xml).unwrap();
    let err = parse_file(dir.path().join("csynth.xml")).unwrap_err();
    assert!(err.to_string().contains("give the csynth.rpt of the same run"), "{err}");
    std::fs::write(dir.path().join("csynth.rpt"), &rpt).unwrap();
    let rep = parse_file(dir.path().join("csynth.xml")).unwrap();
    assert_eq!(rep.version, "2025.2");
    assert!(rep.files[0].ends_with("csynth.rpt"), "{:?}", rep.files);
    assert!(rep.warnings[0].contains("<Version> is blank"), "{:?}", rep.warnings);
    assert!(rep.warnings.iter().any(|w| w.contains("build date")), "{:?}", rep.warnings);
    assert!(rep.top_module().and_then(|m| m.latency).is_some());
}
