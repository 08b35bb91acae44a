//! hlsinstr::project: reading the user's Vitis HLS project (hls_config.cfg or a Tcl script) on the
//! shared fixture, the repository's examples, and scripts written into temp dirs.

use hlsinstr::project::{self, parse_cfg_str, parse_tcl_str, Project, ProjectKind};
use hlsinstr::ErrorKind;
use std::path::{Path, PathBuf};

mod common;
use common::{fixtures, repo};

/// A temp tree from `(relative path, contents)` pairs.
fn tree(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (rel, text) in files {
        let p = dir.path().join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    dir
}

/// The temp dir as the library sees it (absolute, as `std::path::absolute` gives it).
fn root(t: &tempfile::TempDir) -> PathBuf {
    std::path::absolute(t.path()).unwrap()
}

fn strings(s: &[&str]) -> Vec<String> {
    s.iter().map(|s| s.to_string()).collect()
}

fn warnings(p: &Project) -> String {
    p.warnings.iter().map(|w| w.to_string()).collect::<Vec<_>>().join("\n")
}

const KERNEL: &str = "void k(int *a) { a[0] = 1; }\n";
const TB: &str = "int main() { return 0; }\n";

// ---------------------------------------------------------------------------------------------
// Config files
// ---------------------------------------------------------------------------------------------

#[test]
fn fixture_cfg_with_blackbox_and_data_files() {
    let path = fixtures().join("vitis-blackbox/hls_config.cfg");
    let p = project::load(&path).unwrap();
    let root = std::path::absolute(path.parent().unwrap()).unwrap();
    assert_eq!(p.kind, ProjectKind::Cfg);
    assert_eq!(p.root, root);
    assert_eq!(p.part.as_deref(), Some("xcvu9p-flga2104-2-i"));
    assert_eq!(p.clock_ns, Some(5.0), "200MHz is 5 ns");
    assert_eq!(p.flow_target.as_deref(), Some("vivado"));
    assert_eq!(p.top.as_deref(), Some("example"));
    assert_eq!(p.blackbox, vec![root.join("rtl_model.json")]);
    assert!(p.blackbox[0].is_file());
    assert_eq!(p.sources.len(), 1);
    assert_eq!(p.sources[0].path, root.join("example.cpp"));
    assert!(p.sources[0].is_source && p.sources[0].is_compiled());
    let tb: Vec<_> = p.testbench.iter().map(|f| (f.path.clone(), f.is_source)).collect();
    assert_eq!(tb, vec![(root.join("example_test.cpp"), true), (root.join("result.golden.dat"), false)]);
    assert!(p.other.contains(&("package.output.format".into(), "ip_catalog".into())));
    assert!(p.other.contains(&("package.output.syn".into(), "false".into())));
    assert_eq!(p.solution, None);
    assert_eq!(p.name, None);
    // The fixture holds only the config and the JSON: the C++ files are reported, not fatal.
    let w = warnings(&p);
    assert!(w.contains("file not found") && w.contains("example.cpp"), "{w}");
    assert!(w.contains("hls_config.cfg:7:10: warning: file not found"), "line and column of the value: {w}");
    let e = p.check().unwrap_err();
    assert!(e.message.contains("do not exist") && e.message.contains("example.cpp"), "{e}");
}

#[test]
fn every_example_cfg_is_ready_to_simulate() {
    let mut seen = 0;
    for entry in std::fs::read_dir(repo().join("examples")).unwrap() {
        let cfg = entry.unwrap().path().join("hls_config.cfg");
        if !cfg.is_file() {
            continue;
        }
        seen += 1;
        let p = project::load(&cfg).unwrap();
        assert!(p.warnings.is_empty(), "{}: {}", cfg.display(), warnings(&p));
        p.check().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(p.part.as_deref(), Some("xcu250-figd2104-2L-e"));
        assert_eq!(p.flow_target.as_deref(), Some("vitis"));
        assert_eq!(p.clock_ns, Some(4.0));
        let top = p.require_top().unwrap();
        assert_eq!(p.sources.len(), 1);
        assert_eq!(p.testbench.len(), 1);
        assert!(p.testbench[0].is_compiled());
        let text = std::fs::read_to_string(&p.sources[0].path).unwrap();
        assert!(text.contains(&format!("{top}(")), "{}: top `{top}` is defined in the source", cfg.display());
        assert!(p.other.is_empty() && p.cflags.is_empty() && p.tb_cflags.is_empty());
        let dirs = p.solution_dirs();
        let name = p.root.file_name().unwrap();
        assert_eq!(dirs[0], p.root.join(name).join("hls/syn/report"), "IDE layout first");
        assert!(dirs.contains(&p.root.join("hls/syn/report")));
    }
    assert_eq!(seen, 5, "the five examples");
}

#[test]
fn cfg_syntax_comments_sections_and_accumulation() {
    let t = tree(&[
        ("src/k.cpp", KERNEL),
        ("src/util.cpp", KERNEL),
        ("src/k.h", ""),
        ("tb/tb.cpp", TB),
        ("tb/in.dat", "1 2 3"),
    ]);
    let cfg = "\u{feff}# a comment\r\n\
        part = xcvu9p-flga2104-2-i   # trailing comment\r\n\
        \r\n\
        [HLS]\r\n\
        \tsyn.top   =  k_top\r\n\
        syn.file=src/k.cpp\r\n\
        syn.file = ./src/util.cpp\r\n\
        syn.file=src/k.h\r\n\
        syn.file=src/k.cpp\r\n\
        syn.cflags=-I../common -DN=8\r\n\
        syn.cflags = -O2\r\n\
        syn.csimflags=-DCSIM\r\n\
        syn.file_cflags=src/util.cpp,-DUTIL \"-DSTR=\\\"x y\\\"\"\r\n\
        syn.file_csimflags = src/k.cpp , -DONLY_CSIM\r\n\
        tb.file=tb/tb.cpp\r\n\
        tb.file=tb/in.dat\r\n\
        tb.cflags=-Itb\r\n\
        tb.file_cflags=tb/tb.cpp,-Wno-unknown-pragmas\r\n\
        clock=0.25GHz\r\n\
        clock_uncertainty=15%\r\n\
        flow_target=vitis\r\n\
        csim.argv=in.dat out.dat\r\n\
        cosim.argv=small.dat\r\n\
        csim.ldflags=-lm -lpthread\r\n\
        syn.directive.pipeline=k_top II=1\r\n\
        package.output.format=xo\r\n\
        [vivado]\r\n\
        prop=run.impl_1.STRATEGY=Performance_Explore\r\n";
    std::fs::write(t.path().join("hls_config.cfg"), cfg).unwrap();
    let p = project::load(&t.path().join("hls_config.cfg")).unwrap();
    let r = root(&t);
    assert_eq!(p.part.as_deref(), Some("xcvu9p-flga2104-2-i"));
    assert_eq!(p.top.as_deref(), Some("k_top"));
    let paths: Vec<_> = p.sources.iter().map(|f| f.path.clone()).collect();
    assert_eq!(paths, vec![r.join("src/k.cpp"), r.join("src/util.cpp"), r.join("src/k.h")]);
    assert!(p.sources[2].is_source && !p.sources[2].is_compiled(), "a header is source but not compiled");
    assert_eq!(p.cflags, strings(&["-I../common", "-DN=8", "-O2"]));
    assert_eq!(p.csimflags, strings(&["-DCSIM"]));
    assert_eq!(p.sources[1].cflags, strings(&["-DUTIL", "-DSTR=\"x y\""]));
    assert_eq!(p.sources[0].csimflags, strings(&["-DONLY_CSIM"]));
    assert!(p.sources[0].cflags.is_empty());
    assert_eq!(p.tb_cflags, strings(&["-Itb"]));
    assert_eq!(p.testbench[0].cflags, strings(&["-Wno-unknown-pragmas"]));
    assert!(!p.testbench[1].is_source);
    assert_eq!(p.clock_ns, Some(4.0));
    assert_eq!(p.clock_uncertainty.as_deref(), Some("15%"));
    assert_eq!(p.flow_target.as_deref(), Some("vitis"));
    assert_eq!(p.csim_argv.as_deref(), Some("in.dat out.dat"));
    assert_eq!(p.cosim_argv.as_deref(), Some("small.dat"));
    assert_eq!(p.csim_ldflags, strings(&["-lm", "-lpthread"]));
    assert_eq!(p.directives.len(), 1);
    assert_eq!((p.directives[0].location(), p.directives[0].option("ii")), ("k_top".to_string(), Some("1")));
    assert_eq!(p.directives[0].origin, "hls_config.cfg:25");
    assert_eq!(
        p.other,
        vec![
            ("package.output.format".to_string(), "xo".to_string()),
            ("vivado.prop".to_string(), "run.impl_1.STRATEGY=Performance_Explore".to_string()),
        ]
    );
    // The file added twice is kept once, with a warning on its line.
    let w = warnings(&p);
    assert_eq!(p.warnings.len(), 1, "{w}");
    assert!(w.contains(":9:10: warning") && w.contains("added twice"), "{w}");
    p.check().unwrap();
    // Flags for compiling, with include paths made absolute.
    let flags = p.source_flags(&p.sources[0]);
    assert_eq!(flags[0], format!("-I{}", r.join("../common").display()));
    assert_eq!(flags.last().unwrap(), "-DONLY_CSIM");
    assert_eq!(
        p.testbench_flags(&p.testbench[0]),
        vec![format!("-I{}", r.join("tb").display()), "-Wno-unknown-pragmas".into()]
    );
}

#[test]
fn cfg_clock_forms() {
    for (clock, ns) in [("4ns", 4.0), ("4", 4.0), ("200MHz", 5.0), ("0.25GHz", 4.0), ("3.33 ns", 3.33), ("250mhz", 4.0)]
    {
        let p = parse_cfg_str(Path::new("/x/hls_config.cfg"), &format!("[hls]\nclock={clock}\n")).unwrap();
        assert_eq!(p.clock_ns, Some(ns), "{clock}");
    }
    let p = parse_cfg_str(Path::new("/x/hls_config.cfg"), "[hls]\nclock=fast\n").unwrap();
    assert_eq!(p.clock_ns, None);
    assert_eq!(p.clock_ns_or_default(), 10.0);
    assert!(warnings(&p).contains("hls_config.cfg:2:7: warning: cannot read clock `fast`"), "{}", warnings(&p));
    let p = parse_cfg_str(Path::new("/x/c.cfg"), "platform=xilinx_u250\nfreqhz=300000000\n").unwrap();
    assert!((p.clock_ns.unwrap() - 3.333).abs() < 0.01);
    assert_eq!(p.platform.as_deref(), Some("xilinx_u250"));
}

#[test]
fn cfg_questionable_lines_are_warned_about() {
    let text = "syn.top=outside\n[hls]\nsyn.top=inside\nsyn.file_cflags=nowhere.cpp,-DX\nsyn.file_cflags=nocomma\nflow_target=fpga\nrelative_roots=file:\n";
    let p = parse_cfg_str(Path::new("/x/hls_config.cfg"), text).unwrap();
    assert_eq!(p.top.as_deref(), Some("inside"), "the last value wins");
    let w = warnings(&p);
    for needle in [
        ":1:9: warning: `syn.top` belongs under the [hls] section",
        ":3:9: warning: `syn.top` is set more than once",
        ":4:17: warning: `syn.file_cflags` names `nowhere.cpp`, which is not a `syn.file`",
        ":5:17: warning: `syn.file_cflags` needs `<file>,<flags>`",
        ":6:13: warning: unknown flow_target `fpga`",
        ":7:16: warning: `relative_roots` is not interpreted",
        "warning: no synthesis source files: add `syn.file=<path>` lines under [hls]",
    ] {
        assert!(w.contains(needle), "missing `{needle}` in\n{w}");
    }
}

#[test]
fn cfg_syntax_errors_have_line_and_column() {
    let cases = [
        ("[hls]\nsyn.top=a\n  [hls\n", (3, 3), "missing its `]`"),
        ("[hls]\nsyn.top a\n", (2, 1), "expected `key=value`"),
        ("[hls]\n   = value\n", (2, 4), "without a key"),
        ("[]\n", (1, 1), "empty section"),
    ];
    for (text, at, msg) in cases {
        let e = parse_cfg_str(Path::new("/x/hls_config.cfg"), text).unwrap_err();
        assert_eq!(e.kind, ErrorKind::BadInput);
        assert_eq!(e.line_col, Some(at), "{text:?}: {e}");
        assert!(e.message.contains(msg), "{e}");
        assert!(e.to_string().starts_with(&format!("/x/hls_config.cfg:{}:{}: ", at.0, at.1)), "{e}");
    }
}

#[test]
fn cfg_solution_dirs_follow_the_ide_layout_and_find_work_dirs() {
    let t = tree(&[("comp/hls_config.cfg", "[hls]\nsyn.top=k\n"), ("comp/build/hls/syn/report/csynth.xml", "<x/>")]);
    let p = project::load(&t.path().join("comp")).unwrap();
    let c = root(&t).join("comp");
    assert_eq!(
        p.solution_dirs(),
        vec![
            c.join("comp/hls/syn/report"),
            c.join("hls/syn/report"),
            c.join("k/hls/syn/report"),
            c.join("build/hls/syn/report"),
        ]
    );
}

/// Where Vitis runs the testbench (UG1399, "Output of C Simulation"): the IDE's component layout
/// for a config file; the solution's csim/build for a script, also for the `script.tcl` Vitis
/// writes into the solution (its paths are the workspace's); `solution1`'s without a solution.
#[test]
fn csim_build_dir_is_where_vitis_runs_the_testbench() {
    let t = tree(&[
        ("comp/hls_config.cfg", "[hls]\nsyn.top=k\n"),
        ("run_hls.tcl", "open_project proj\nset_top k\nopen_solution fast\n"),
        ("bare.tcl", "open_project ./p2\nset_top k\n"),
        ("ws/prj/sol/script.tcl", "open_project prj\nset_top k\nopen_solution sol\n"),
        ("none.tcl", "set_top k\n"),
    ]);
    let r = root(&t);
    let dir = |f: &str| project::load(&t.path().join(f)).unwrap().csim_build_dir();
    assert_eq!(dir("comp/hls_config.cfg"), Some(r.join("comp/comp/hls/csim/build")));
    assert_eq!(dir("run_hls.tcl"), Some(r.join("proj/fast/csim/build")));
    assert_eq!(dir("bare.tcl"), Some(r.join("p2/solution1/csim/build")));
    assert_eq!(dir("ws/prj/sol/script.tcl"), Some(r.join("ws/prj/sol/csim/build")));
    assert_eq!(dir("none.tcl"), None);
}

// ---------------------------------------------------------------------------------------------
// Tcl scripts
// ---------------------------------------------------------------------------------------------

const FULL_TCL: &str = r#"############################################################
## A run_hls.tcl in the style Vitis HLS writes, plus what people add by hand.
############################################################
set proj    kern_prj
set src_dir src
set CFLAGS  "-I${src_dir}/include -DN=16"
open_project -reset $proj
set_top kern_top
# Two files in one call, one quoted list, per-file flags with escaped quotes.
add_files "$src_dir/k.cpp $src_dir/util.cpp" -cflags "$CFLAGS -DSTR='\"a b\"'"
add_files {src/extra.cpp} -cflags {-std=c++14 -DX=1}
add_files -tb tb/tb.cpp \
    -cflags "-Itb -Wno-unknown-pragmas" \
    -csimflags "-DCSIM"
add_files -tb tb/golden.dat; add_files -blackbox rtl/model.json
open_solution -reset "solution1" -flow_target vitis
set_part {xcvu9p-flga2104-2-i}
create_clock -period 250MHz -name default
set_clock_uncertainty 12.5%
config_compile -pipeline_loops 64
config_interface -m_axi_alignment_byte_size 64 -m_axi_latency 64
set_directive_pipeline "kern_top/loop"
#source "./kern_prj/solution1/directives.tcl"
csim_design -argv {in.dat out.dat} -ldflags {-lm -lrt}
csynth_design
cosim_design -trace_level all -argv {small.dat out.dat}
export_design -format ip_catalog
exit
add_files never.cpp
"#;

fn full_tree() -> tempfile::TempDir {
    tree(&[
        ("run_hls.tcl", FULL_TCL),
        ("src/k.cpp", KERNEL),
        ("src/util.cpp", KERNEL),
        ("src/extra.cpp", KERNEL),
        ("tb/tb.cpp", TB),
        ("tb/golden.dat", "42\n"),
        ("rtl/model.json", "{}"),
    ])
}

#[test]
fn tcl_full_script() {
    let t = full_tree();
    let p = project::load(&t.path().join("run_hls.tcl")).unwrap();
    let r = root(&t);
    assert_eq!(p.kind, ProjectKind::Tcl);
    assert!(p.warnings.is_empty(), "{}", warnings(&p));
    assert_eq!(p.name.as_deref(), Some("kern_prj"));
    assert_eq!(p.top.as_deref(), Some("kern_top"));
    let paths: Vec<_> = p.sources.iter().map(|f| f.path.clone()).collect();
    assert_eq!(paths, vec![r.join("src/k.cpp"), r.join("src/util.cpp"), r.join("src/extra.cpp")]);
    let shared = strings(&["-Isrc/include", "-DN=16", "-DSTR=\"a b\""]);
    assert_eq!(p.sources[0].cflags, shared);
    assert_eq!(p.sources[1].cflags, shared);
    assert_eq!(p.sources[2].cflags, strings(&["-std=c++14", "-DX=1"]));
    assert_eq!(p.testbench.len(), 2);
    assert_eq!(p.testbench[0].path, r.join("tb/tb.cpp"));
    assert_eq!(p.testbench[0].cflags, strings(&["-Itb", "-Wno-unknown-pragmas"]));
    assert_eq!(p.testbench[0].csimflags, strings(&["-DCSIM"]));
    assert!(p.testbench[0].is_compiled());
    assert!(!p.testbench[1].is_source, "golden.dat is data");
    assert_eq!(p.blackbox, vec![r.join("rtl/model.json")]);
    assert_eq!(p.solution.as_deref(), Some("solution1"));
    assert_eq!(p.flow_target.as_deref(), Some("vitis"));
    assert_eq!(p.part.as_deref(), Some("xcvu9p-flga2104-2-i"));
    assert_eq!(p.clock_ns, Some(4.0));
    assert_eq!(p.clock_uncertainty.as_deref(), Some("12.5%"));
    assert_eq!(p.csim_argv.as_deref(), Some("in.dat out.dat"));
    assert_eq!(p.cosim_argv.as_deref(), Some("small.dat out.dat"));
    assert_eq!(p.csim_ldflags, strings(&["-lm", "-lrt"]));
    assert_eq!(
        p.other,
        vec![("config_interface".to_string(), "-m_axi_alignment_byte_size 64".to_string())],
        "-m_axi_latency is read"
    );
    assert_eq!(p.m_axi_latency, Some(64));
    assert_eq!(p.pipeline_loops, Some(64));
    let d: Vec<_> = p.directives.iter().map(|d| (d.describe(), d.options.len(), d.flags.len())).collect();
    assert_eq!(d, [("set_directive_pipeline kern_top/loop (run_hls.tcl:22)".to_string(), 0, 0)]);
    assert!(p.cflags.is_empty() && p.tb_cflags.is_empty(), "Tcl flags are per file");
    assert_eq!(p.solution_dirs(), vec![r.join("kern_prj/solution1/syn/report")]);
    assert_eq!(p.source_flags(&p.sources[0])[0], format!("-I{}", r.join("src/include").display()));
    p.check().unwrap();
}

#[test]
fn tcl_variables_brackets_loops_and_source() {
    let script = r#"
set here [file dirname [info script]]
source settings.tcl
open_solution $proj/sol2 ;# project and solution in one
set_top [set top_name]
add_files [file join $here src a.cpp]
set more [list b.cpp c.cpp]
foreach f $more {
    add_files src/$f -cflags "-DFILE=[file rootname $f]"
}
lappend tbs tb/t1.cpp
lappend tbs tb/t2.cpp
add_files -tb {*}$tbs
add_file src/e.cpp
add_files {{src/s p.cpp}}
create_clock -period 3.33ns
catch {::common::set_param -quiet hls.xocc.mode csynth}
add_files $undefined_var/x.cpp
add_files [exec ls src]
add_files $::env(HLSINSTR_TEST_SURELY_UNSET)/y.cpp
if {$mode} { add_files never.cpp }
frobnicate --hard
"#;
    let t = tree(&[
        ("run_hls.tcl", script),
        ("settings.tcl", "set proj my_prj\nset top_name dut # not a comment, 3 args\nset top_name dut\n"),
        ("src/a.cpp", KERNEL),
        ("src/b.cpp", KERNEL),
        ("src/c.cpp", KERNEL),
        ("src/s p.cpp", KERNEL),
        ("src/e.cpp", KERNEL),
        ("tb/t1.cpp", TB),
        ("tb/t2.cpp", TB),
    ]);
    let p = project::load(&t.path().join("run_hls.tcl")).unwrap();
    let r = root(&t);
    assert_eq!(p.name.as_deref(), Some("my_prj"));
    assert_eq!(p.solution.as_deref(), Some("sol2"));
    assert_eq!(p.top.as_deref(), Some("dut"));
    assert_eq!(p.clock_ns, Some(3.33));
    let srcs: Vec<_> = p.sources.iter().map(|f| f.path.strip_prefix(&r).unwrap_or(&f.path).to_path_buf()).collect();
    assert_eq!(
        srcs,
        [
            "src/a.cpp",
            "src/b.cpp",
            "src/c.cpp",
            "src/e.cpp",
            "src/s p.cpp",
            "$undefined_var/x.cpp",
            "[exec ls src]",
            "$::env(HLSINSTR_TEST_SURELY_UNSET)/y.cpp"
        ]
        .map(PathBuf::from)
    );
    assert_eq!(p.sources[1].cflags, strings(&["-DFILE=b"]));
    assert_eq!(p.sources[2].cflags, strings(&["-DFILE=c"]));
    assert!(p.sources[4].cflags.is_empty());
    let tbs: Vec<_> = p.testbench.iter().map(|f| f.path.clone()).collect();
    assert_eq!(tbs, vec![r.join("tb/t1.cpp"), r.join("tb/t2.cpp")]);
    let w = warnings(&p);
    for needle in [
        "settings.tcl:2:1: warning: `set top_name dut # not a comment, 3 args` is not interpreted",
        "run_hls.tcl:18:11: warning: `$undefined_var` is not set by a plain `set`",
        "run_hls.tcl:19:11: warning: `[exec ...]` is not evaluated",
        "run_hls.tcl:20:11: warning: environment variable `HLSINSTR_TEST_SURELY_UNSET` is not set",
        "run_hls.tcl:21:1: warning: `if` is not interpreted",
        "run_hls.tcl:22:1: warning: unknown command `frobnicate` ignored",
        "run_hls.tcl:18:11: warning: file not found",
    ] {
        assert!(w.contains(needle), "missing `{needle}` in\n{w}");
    }
    assert!(!w.contains("never.cpp"));
    assert_eq!(p.solution_dirs(), vec![r.join("my_prj/sol2/syn/report")]);
}

#[test]
fn tcl_cd_and_open_component() {
    let script = "set root [file normalize [file dirname [info script]]]\n\
                  cd build\n\
                  open_component -reset comp -flow_target vivado\n\
                  add_files ../src/a.cpp\n\
                  add_files $root/src/b.cpp\n\
                  set_top a\n\
                  source ../extra.tcl\n";
    let t = tree(&[
        ("proj/run.tcl", script),
        ("proj/extra.tcl", "add_files -tb ../tb.cpp\n"),
        ("proj/src/a.cpp", KERNEL),
        ("proj/src/b.cpp", KERNEL),
        ("proj/tb.cpp", TB),
    ]);
    std::fs::create_dir_all(t.path().join("proj/build")).unwrap();
    let p = project::load(&t.path().join("proj/run.tcl")).unwrap();
    let r = root(&t).join("proj");
    assert!(p.warnings.is_empty(), "{}", warnings(&p));
    assert_eq!(p.flow_target.as_deref(), Some("vivado"));
    let build = r.join("build");
    assert_eq!(p.name, Some(build.join("comp").display().to_string()), "after `cd`, the project dir is absolute");
    assert_eq!(p.sources[0].path, build.join("../src/a.cpp"));
    assert_eq!(p.sources[1].path, r.join("src/b.cpp"));
    assert_eq!(p.testbench[0].path, build.join("../tb.cpp"), "relative to the cwd after `cd`, not to extra.tcl");
    assert_eq!(p.solution_dirs()[0], build.join("comp/hls/syn/report"));
    p.check().unwrap();
}

#[test]
fn tcl_clock_forms() {
    for (period, ns) in
        [("4", 4.0), ("10", 10.0), ("5.0", 5.0), ("250MHz", 4.0), ("{200 MHz}", 5.0), ("\"75MHz\"", 1000.0 / 75.0)]
    {
        let p =
            parse_tcl_str(Path::new("/x/run.tcl"), &format!("create_clock -period {period} -name default\n")).unwrap();
        assert_eq!(p.clock_ns, Some(ns), "{period}");
    }
    let p = parse_tcl_str(Path::new("/x/run.tcl"), "create_clock -name default\ncreate_clock -period soon\n").unwrap();
    assert_eq!(p.clock_ns, None);
    let w = warnings(&p);
    assert!(w.contains("run.tcl:1:1: warning: `create_clock` without `-period`"), "{w}");
    assert!(w.contains("run.tcl:2:22: warning: cannot read clock period `soon`"), "{w}");
}

#[test]
fn tcl_without_solution_looks_on_disk() {
    let t = tree(&[("run.tcl", "open_project p\nset_top k\nadd_files k.cpp\n"), ("p/solA/syn/report/csynth.xml", "")]);
    let p = project::load(&t.path().join("run.tcl")).unwrap();
    let r = root(&t);
    assert_eq!(
        p.solution_dirs(),
        vec![r.join("p/hls/syn/report"), r.join("p/solA/syn/report"), r.join("p/solution1/syn/report")]
    );
}

/// The `script.tcl` Vitis writes into a solution (`<workspace>/<project>/<solution>/`) names its
/// files from the workspace it ran in (`add_files proj/k.cpp`, `source
/// "./proj/solution1/directives.tcl"`): read where a user finds it, it resolves from there.
#[test]
fn tcl_a_solutions_own_script_resolves_from_the_workspace() {
    let script = "open_project proj\nset_top k\nadd_files proj/k.cpp\nadd_files -tb proj/tb.cpp\n\
                  open_solution \"solution1\" -flow_target vivado\nsource \"./proj/solution1/directives.tcl\"\n";
    let t = tree(&[
        ("proj/solution1/script.tcl", script),
        ("proj/solution1/directives.tcl", "set_directive_pipeline k/L\n"),
        ("proj/k.cpp", KERNEL),
        ("proj/tb.cpp", TB),
    ]);
    let p = project::load(&t.path().join("proj/solution1/script.tcl")).unwrap();
    let r = root(&t);
    assert_eq!(p.root, r);
    assert_eq!(p.sources[0].path, r.join("proj/k.cpp"));
    assert_eq!(p.testbench[0].path, r.join("proj/tb.cpp"));
    assert_eq!(p.directives.len(), 1, "{}", warnings(&p));
    p.check().unwrap();
    assert_eq!(p.solution_dirs(), vec![r.join("proj/solution1/syn/report")]);
    // A script that only sits in a directory of that name keeps its own directory.
    let t = tree(&[
        ("proj/solution1/run.tcl", "open_project other\nset_top k\nadd_files k.cpp\n"),
        ("proj/solution1/k.cpp", KERNEL),
    ]);
    let p = project::load(&t.path().join("proj/solution1/run.tcl")).unwrap();
    assert_eq!(p.sources[0].path, root(&t).join("proj/solution1/k.cpp"));
}

/// Vivado HLS 2018.3 writes a file that lives in the project's directory by its bare name
/// (`open_project SHA`, `add_files fips202.c`: the public SHA_native_datatype design, whose
/// sources sit beside its solutions) and finds it there when it is not in the workspace.
#[test]
fn tcl_a_bare_file_name_not_in_the_workspace_is_found_in_the_project_directory() {
    let script = "open_project SHA\nset_top k\nadd_files k.c\nadd_files -tb tb.c\nadd_files -tb SHA/data.txt\n\
                  open_solution \"NDT_a\"\n";
    let t = tree(&[("SHA/NDT_a/script.tcl", script), ("SHA/k.c", KERNEL), ("SHA/tb.c", TB), ("SHA/data.txt", "1\n")]);
    let p = project::load(&t.path().join("SHA/NDT_a/script.tcl")).unwrap();
    let r = root(&t);
    assert_eq!(p.sources[0].path, r.join("SHA/k.c"), "{}", warnings(&p));
    assert_eq!(p.testbench[0].path, r.join("SHA/tb.c"));
    assert_eq!(p.testbench[1].path, r.join("SHA/data.txt"), "a path from the workspace still resolves there");
    assert!(p.warnings.is_empty(), "{}", warnings(&p));
    p.check().unwrap();
    // A file in both places is the workspace's, as before.
    let t = tree(&[("SHA/NDT_a/script.tcl", script), ("SHA/k.c", KERNEL), ("k.c", KERNEL), ("SHA/tb.c", TB)]);
    let p = project::load(&t.path().join("SHA/NDT_a/script.tcl")).unwrap();
    assert_eq!(p.sources[0].path, root(&t).join("k.c"));
}

/// Vivado HLS and Vitis before 2021 keep a pipelined loop in its function's state machine: no
/// `_Pipeline_` module around it, no 2 cycles for one (rule 3 holds from 2021 on).
#[test]
fn a_pipelined_loop_has_no_module_of_its_own_before_vitis_2021() {
    let script = |tool: &str, year: u32| {
        let body = "open_project proj\nset_top k\nadd_files proj/k.cpp\nopen_solution \"solution1\"\n";
        common::generated_script(tool, year, body)
    };
    for (tool, year, wrapper) in
        [("Vivado", 2019, Some(0)), ("Vitis", 2020, Some(0)), ("Vitis", 2021, None), ("Vitis", 2022, None)]
    {
        let s = script(tool, year);
        let t = tree(&[("proj/solution1/script.tcl", s.as_str()), ("proj/k.cpp", KERNEL)]);
        let p = project::load(&t.path().join("proj/solution1/script.tcl")).unwrap();
        assert_eq!(p.pipeline_wrapper(), wrapper, "{tool} {year}");
    }
    // The release the solution's log names decides over the script's copyright year.
    let s = script("Vitis", 2020);
    let log = "****** Vitis HLS - High-Level Synthesis from C, C++ and OpenCL v2021.2 (64-bit)\n";
    let t = tree(&[
        ("proj/solution1/script.tcl", s.as_str()),
        ("proj/k.cpp", KERNEL),
        ("proj/solution1/solution1.log", log),
    ]);
    let p = project::load(&t.path().join("proj/solution1/script.tcl")).unwrap();
    assert_eq!(p.pipeline_wrapper(), None);
}

/// A Vivado HLS top with AXI interfaces costs a module's 2 cycles over its children, a Vitis
/// one rule 11's (the default, `None`).
#[test]
fn an_axi_top_costs_no_more_than_a_module_before_vitis() {
    let body = "open_project proj\nset_top k\nadd_files proj/k.cpp\nopen_solution \"solution1\"\n";
    for (tool, year, overhead) in [("Vivado", 2018, Some(2)), ("Vivado", 2019, Some(2)), ("Vitis", 2021, None)] {
        let s = common::generated_script(tool, year, body);
        let t = tree(&[("proj/solution1/script.tcl", s.as_str()), ("proj/k.cpp", KERNEL)]);
        let p = project::load(&t.path().join("proj/solution1/script.tcl")).unwrap();
        assert_eq!(p.axi_top_overhead(), overhead, "{tool} {year}");
    }
}

#[test]
fn a_vivado_hls_project_pipelines_no_loop_by_default() {
    let vivado = "############################################################\n\
                  ## This file is generated automatically by Vivado HLS.\n\
                  ## Please DO NOT edit it.\n\
                  ############################################################\n\
                  open_project proj\nset_top k\nadd_files proj/k.cpp\nopen_solution \"solution1\"\n";
    let vitis = vivado.replace("by Vivado HLS.", "by Vitis HLS.");
    for (script, app, vivado_hls) in [
        (vivado.to_string(), None, true),
        (vitis.clone(), None, false),
        // A hand-written script says nothing; the project directory Vivado HLS made does.
        (vitis.lines().skip(4).collect::<Vec<_>>().join("\n"), Some("proj/vivado_hls.app"), true),
        (vitis.lines().skip(4).collect::<Vec<_>>().join("\n"), Some("proj/hls.app"), false),
    ] {
        let mut files = vec![("proj/solution1/script.tcl", script.as_str()), ("proj/k.cpp", KERNEL)];
        if let Some(app) = app {
            files.push((app, "<project/>\n"));
        }
        let t = tree(&files);
        let p = project::load(&t.path().join("proj/solution1/script.tcl")).unwrap();
        assert_eq!(p.vivado_hls, vivado_hls, "{script}\n{app:?}");
        assert_eq!(p.pipeline_threshold(), vivado_hls.then_some(0));
    }
    // The project's own setting wins.
    let t = tree(&[
        ("proj/solution1/script.tcl", &format!("{vivado}config_compile -pipeline_loops 16\n")),
        ("proj/k.cpp", KERNEL),
    ]);
    let p = project::load(&t.path().join("proj/solution1/script.tcl")).unwrap();
    assert_eq!(p.pipeline_threshold(), Some(16));
}

#[test]
fn tcl_syntax_errors_have_line_and_column() {
    let cases = [
        ("open_project p\nadd_files {a.cpp\nset_top k\n", (2, 11), "unbalanced braces"),
        ("open_project p\nadd_files -cflags \"-DX a.cpp\n", (2, 19), "unterminated string"),
        ("set x [file join a b\n", (1, 7), "unterminated command substitution"),
        ("set_part {xc}x\n", (1, 14), "extra characters after close-brace"),
        ("set_top \"k\"x\n", (1, 12), "extra characters after close-quote"),
        ("  set a ${b\n", (1, 9), "variable name"),
        ("foreach f {a b} {\n  add_files \"$f\n}\n", (2, 13), "unterminated string"),
    ];
    for (text, at, msg) in cases {
        let e = parse_tcl_str(Path::new("/x/run_hls.tcl"), text).unwrap_err();
        assert_eq!(e.kind, ErrorKind::BadInput);
        assert_eq!(e.line_col, Some(at), "{text:?}: {e}");
        assert!(e.message.contains(msg), "{e}");
        assert!(e.to_string().starts_with(&format!("/x/run_hls.tcl:{}:{}: ", at.0, at.1)), "{e}");
    }
    // An error in a sourced script points into that script.
    let t = tree(&[("run.tcl", "\nsource bad.tcl\n"), ("bad.tcl", "set a 1\nset b {\n")]);
    let e = project::load(&t.path().join("run.tcl")).unwrap_err();
    assert_eq!(e.path.as_deref(), Some(root(&t).join("bad.tcl").as_path()));
    assert_eq!(e.line_col, Some((2, 7)));
}

// ---------------------------------------------------------------------------------------------
// Loading, missing pieces, robustness
// ---------------------------------------------------------------------------------------------

#[test]
fn load_dispatches_by_extension_and_explains_refusals() {
    let t = full_tree();
    std::fs::write(t.path().join("notes.txt"), "x").unwrap();
    assert_eq!(project::load(&t.path().join("run_hls.tcl")).unwrap().kind, ProjectKind::Tcl);
    assert_eq!(project::load(t.path()).unwrap().kind, ProjectKind::Tcl, "a directory: run_hls.tcl found");

    let e = project::load(&t.path().join("notes.txt")).unwrap_err();
    assert_eq!(e.kind, ErrorKind::BadInput);
    assert!(e.message.contains("`.cfg`") && e.message.contains("`.tcl`"), "{e}");

    let e = project::load(&t.path().join("missing.cfg")).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Io);
    assert!(e.message.contains("cannot read the project file"), "{e}");

    let empty = tempfile::tempdir().unwrap();
    let e = project::load(empty.path()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::BadInput);
    assert!(e.message.contains("hls_config.cfg"), "{e}");

    std::fs::write(t.path().join("bin.cfg"), b"[hls]\nsyn.top=\0k").unwrap();
    let e = project::load(&t.path().join("bin.cfg")).unwrap_err();
    assert_eq!((e.kind.clone(), e.line_col), (ErrorKind::BadInput, Some((2, 9))), "{e}");
    std::fs::write(t.path().join("latin1.tcl"), b"set_top k\nset_part caf\xe9\n").unwrap();
    let e = project::load(&t.path().join("latin1.tcl")).unwrap_err();
    assert_eq!((e.kind.clone(), e.line_col), (ErrorKind::BadInput, Some((2, 13))), "{e}");
}

#[test]
fn missing_top_sources_and_testbench_say_what_to_add() {
    let p = parse_tcl_str(Path::new("/x/run.tcl"), "open_project p\nopen_solution s\n").unwrap();
    let w = warnings(&p);
    assert!(w.contains("/x/run.tcl: warning: no top function: add `set_top <function>`"), "{w}");
    let e = p.require_top().unwrap_err();
    assert_eq!(e.kind, ErrorKind::BadInput);
    assert!(e.message.contains("no top function") && e.message.contains("set_top"), "{e}");
    assert!(p.check().is_err());

    let p = parse_cfg_str(Path::new("/x/hls_config.cfg"), "[hls]\nsyn.file=k.cpp\n").unwrap();
    assert!(p.require_top().unwrap_err().message.contains("syn.top=<function>"));

    let t = tree(&[("k.cpp", KERNEL), ("golden.dat", "")]);
    let cfg = t.path().join("hls_config.cfg");
    std::fs::write(&cfg, "[hls]\nsyn.top=k\nsyn.file=k.cpp\ntb.file=golden.dat\n").unwrap();
    let e = project::load(&cfg).unwrap().check().unwrap_err();
    assert!(e.message.contains("no testbench source") && e.message.contains("tb.file=<path>"), "{e}");
}

/// A small deterministic generator: garbage without a dependency.
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> usize {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) as usize
    }
}

#[test]
fn garbage_and_truncated_input_never_panics() {
    let t = full_tree();
    let tcl_path = t.path().join("run_hls.tcl");
    let cfg_path = t.path().join("hls_config.cfg");
    let cfg_text = std::fs::read_to_string(fixtures().join("vitis-blackbox/hls_config.cfg")).unwrap()
        + "syn.file_cflags=example.cpp,-DX \"-DY=\\\"z\"\ntb.file_cflags=,\n[x\n";
    // Every prefix of real inputs: truncated files.
    for (text, is_tcl) in [(FULL_TCL, true), (cfg_text.as_str(), false)] {
        for end in (0..=text.len()).filter(|&i| text.is_char_boundary(i)) {
            let cut = &text[..end];
            let _ = if is_tcl { parse_tcl_str(&tcl_path, cut) } else { parse_cfg_str(&cfg_path, cut) };
        }
    }
    // Random soup of the characters both syntaxes care about.
    let alphabet: Vec<char> = "{}[]\"'$\\;#=\n\r\t ,*()-:/.aéx0".chars().collect();
    let words = [
        "add_files ",
        "-tb ",
        "-cflags ",
        "set ",
        "foreach ",
        "source ",
        "{*}",
        "[hls]",
        "syn.file=",
        "create_clock -period ",
        "set_directive_pipeline ",
        "syn.directive.unroll=",
        "config_compile -pipeline_loops ",
    ];
    let mut rng = Lcg(7);
    for _ in 0..3000 {
        let len = rng.next() % 80;
        let mut s = String::new();
        for _ in 0..len {
            if rng.next().is_multiple_of(6) {
                s.push_str(words[rng.next() % words.len()]);
            } else {
                s.push(alphabet[rng.next() % alphabet.len()]);
            }
        }
        let _ = parse_tcl_str(&tcl_path, &s);
        let _ = parse_cfg_str(&cfg_path, &s);
    }
    // Hostile shapes: deep nesting, runaway loops, exponential strings, self-sourcing.
    let deep = format!("set x {}1{}", "[".repeat(100_000), "]".repeat(100_000));
    assert!(parse_tcl_str(&tcl_path, &deep).unwrap_err().message.contains("nested"));
    let braces = format!("set x {}", "{".repeat(100_000));
    assert!(parse_tcl_str(&tcl_path, &braces).unwrap_err().message.contains("unbalanced braces"));
    let nums: Vec<String> = (0..200).map(|i| i.to_string()).collect();
    let list = nums.join(" ");
    let loops = format!("foreach a {{{list}}} {{ foreach b {{{list}}} {{ foreach c {{{list}}} {{ set x 1 }} }} }}");
    assert!(parse_tcl_str(&tcl_path, &loops).unwrap_err().message.contains("more than"));
    let doubling = format!("set a x\nforeach i {{{list}}} {{ append a $a }}");
    assert!(parse_tcl_str(&tcl_path, &doubling).unwrap_err().message.contains("16 MiB"));
    let nested_foreach = "foreach a {1} {".repeat(200) + &"}".repeat(200);
    assert!(parse_tcl_str(&tcl_path, &nested_foreach).is_err());
    std::fs::write(t.path().join("self.tcl"), "source self.tcl\n").unwrap();
    let e = project::load(&t.path().join("self.tcl")).unwrap_err();
    assert!(e.message.contains("source itself"), "{e}");
}

// ---------------------------------------------------------------------------------------------
// Directives and the compile settings the cycle model reads
// ---------------------------------------------------------------------------------------------

/// A Tcl project whose directives sit in a `directives.tcl` it sources, as the Vitis HLS IDE
/// writes them (plus the forms people write by hand).
const DIRECTIVES_TCL: &str = r#"############################################################
## This file is generated automatically by Vitis HLS.
############################################################
set_directive_pipeline -II 2 "top/loop1"
set_directive_unroll -factor 4 top/inner
set_directive_pipeline -off top/slow
set_directive_loop_tripcount -min 1 -max 64 -avg 32 "top/loop1"
set_directive_dataflow "top"
set_directive_inline -off "ns::helper"
set_directive_stream -depth 16 -dim 1 "top" s_in
set_directive_interface -mode s_axilite "top" n
set_directive_pipeline -II
set_directive_pipeline $nowhere/L
"#;

#[test]
fn tcl_directives_from_a_sourced_script() {
    let script = "open_project p\nset_top top\nadd_files src/k.cpp\nadd_files -tb tb/tb.cpp\n\
                  open_solution s1\n\
                  config_compile -name_max_length 80 -pipeline_loops 0\n\
                  config_dataflow -default_channel pingpong -fifo_depth 4\n\
                  source ./directives.tcl\n\
                  set_directive_loop_flatten -off top/outer\n";
    let t =
        tree(&[("run_hls.tcl", script), ("directives.tcl", DIRECTIVES_TCL), ("src/k.cpp", KERNEL), ("tb/tb.cpp", TB)]);
    let p = project::load(&t.path().join("run_hls.tcl")).unwrap();
    assert_eq!(p.pipeline_loops, Some(0));
    assert_eq!(p.dataflow_default_channel.as_deref(), Some("pingpong"));
    assert_eq!(
        p.other,
        vec![
            ("config_compile".to_string(), "-name_max_length 80".to_string()),
            ("config_dataflow".to_string(), "-fifo_depth 4".to_string()),
        ],
        "what is not interpreted stays in `other`"
    );
    let got: Vec<String> = p
        .directives
        .iter()
        .map(|d| format!("{} {:?} {:?} ({})", d.command(), d.location(), (&d.options, &d.flags), d.origin))
        .collect();
    let expected = [
        r#"set_directive_pipeline "top/loop1" ([("ii", "2")], []) (directives.tcl:4)"#,
        r#"set_directive_unroll "top/inner" ([("factor", "4")], []) (directives.tcl:5)"#,
        r#"set_directive_pipeline "top/slow" ([], ["off"]) (directives.tcl:6)"#,
        r#"set_directive_loop_tripcount "top/loop1" ([("min", "1"), ("max", "64"), ("avg", "32")], []) (directives.tcl:7)"#,
        r#"set_directive_dataflow "top" ([], []) (directives.tcl:8)"#,
        r#"set_directive_inline "ns::helper" ([], ["off"]) (directives.tcl:9)"#,
        r#"set_directive_stream "top" ([("depth", "16"), ("dim", "1"), ("variable", "s_in")], []) (directives.tcl:10)"#,
        r#"set_directive_interface "top" ([("mode", "s_axilite"), ("variable", "n")], []) (directives.tcl:11)"#,
        r#"set_directive_loop_flatten "top/outer" ([], ["off"]) (run_hls.tcl:9)"#,
    ];
    assert_eq!(got, expected);
    let w = warnings(&p);
    for needle in [
        "directives.tcl:12:1: warning: `set_directive_pipeline` is ignored: `-II` needs a value",
        "directives.tcl:13:24: warning: `$nowhere` is not set",
        "directives.tcl:13:24: warning: `set_directive_pipeline` is ignored: `$nowhere/L` holds a variable",
    ] {
        assert!(w.contains(needle), "missing `{needle}` in\n{w}");
    }
    assert_eq!(p.warnings.len(), 3, "{w}");
}

#[test]
fn a_sourced_script_left_out_of_the_repository_is_a_warning_that_says_what_is_lost() {
    // Vitis writes `source "./<proj>/<solution>/directives.tcl"` into every script.
    let script = "open_project p\nset_top k\nadd_files k.cpp\nadd_files -tb tb.cpp\nopen_solution s1\n\
                  source \"./p/s1/directives.tcl\"\n";
    let t = tree(&[("run_hls.tcl", script), ("k.cpp", KERNEL), ("tb.cpp", TB)]);
    let p = project::load(&t.path().join("run_hls.tcl")).unwrap();
    assert!(p.directives.is_empty());
    let w = warnings(&p);
    assert_eq!(p.warnings.len(), 1, "{w}");
    assert!(w.contains("run_hls.tcl:6:8: warning: cannot source "), "{w}");
    assert!(w.contains("directives.tcl: no such file; its commands (directives"), "{w}");
    assert!(!w.contains("hls_config.cfg"), "no advice about naming the project file: {w}");
}

#[test]
fn cfg_directives_and_compile_settings() {
    let cfg = "[hls]\nsyn.top=top\nsyn.file=k.cpp\ntb.file=tb.cpp\n\
               syn.compile.pipeline_loops=16\n\
               syn.dataflow.default_channel=fifo\n\
               syn.directive.pipeline=top/loop1 II=2\n\
               syn.directive.unroll=skip_exit_check factor=4 top/inner\n\
               syn.directive.loop_tripcount=top/loop1 min=1 max=64 avg=32\n\
               syn.directive.dataflow=top\n\
               syn.directive.inline=ns::helper off\n\
               syn.directive.loop_flatten=top/outer off\n\
               syn.directive.stream=top s_in depth=16\n\
               syn.directive.pipeline=II=2\n\
               syn.compile.pipeline_loops=many\n\
               syn.dataflow.default_channel=shared\n\
               syn.compile.name_max_length=80\n";
    let t = tree(&[("hls_config.cfg", cfg), ("k.cpp", KERNEL), ("tb.cpp", TB)]);
    let p = project::load(&t.path().join("hls_config.cfg")).unwrap();
    assert_eq!(p.pipeline_loops, Some(16), "an unreadable later value is ignored");
    assert_eq!(p.dataflow_default_channel.as_deref(), Some("fifo"));
    assert_eq!(p.other, vec![("syn.compile.name_max_length".to_string(), "80".to_string())]);
    let got: Vec<String> = p.directives.iter().map(|d| format!("{} {}", d.describe(), d.flags.join(","))).collect();
    assert_eq!(
        got,
        [
            "syn.directive.pipeline top/loop1 (hls_config.cfg:7) ",
            "syn.directive.unroll top/inner (hls_config.cfg:8) skip_exit_check",
            "syn.directive.loop_tripcount top/loop1 (hls_config.cfg:9) ",
            "syn.directive.dataflow top (hls_config.cfg:10) ",
            "syn.directive.inline ns::helper (hls_config.cfg:11) off",
            "syn.directive.loop_flatten top/outer (hls_config.cfg:12) off",
            "syn.directive.stream top (hls_config.cfg:13) ",
        ]
    );
    assert_eq!(p.directives[2].option("avg"), Some("32"));
    assert_eq!(p.directives[6].option("variable"), Some("s_in"));
    let w = warnings(&p);
    for needle in [
        "hls_config.cfg:14:24: warning: `syn.directive.pipeline=II=2` is ignored: no location",
        "hls_config.cfg:15:28: warning: `syn.compile.pipeline_loops` is set more than once",
        "hls_config.cfg:15:28: warning: cannot read `syn.compile.pipeline_loops=many`",
        "hls_config.cfg:16:30: warning: unknown `syn.dataflow.default_channel=shared`",
    ] {
        assert!(w.contains(needle), "missing `{needle}` in\n{w}");
    }
    assert_eq!(p.warnings.len(), 5, "{w}");
}

#[test]
fn fixture_directives_tcl_parses() {
    // Vitis writes the file even when it holds no directive: only its comment header.
    let file = fixtures().join("vitis-solution/2022.2-systolic-mm/solution/directives.tcl");
    let p = project::load(&file).unwrap();
    assert!(p.directives.is_empty() && p.other.is_empty());
    let w = warnings(&p);
    assert!(p.warnings.iter().all(|w| w.message.starts_with("no ")), "only the missing top and sources:\n{w}");
    // Sourced from a script, as its commented-out `source` line would.
    let script = format!("set_top multiplier\nsource {{{}}}\nset_directive_pipeline multiplier\n", file.display());
    let t = tree(&[("run_hls.tcl", &script)]);
    let p = project::load(&t.path().join("run_hls.tcl")).unwrap();
    assert_eq!(p.directives.len(), 1);
    assert_eq!(p.directives[0].origin, "run_hls.tcl:3");
}

/// A manifest as `hlsinstr rewrite` writes it: the top `top` with three labelled loops, a
/// nested one without a label, and a helper in a namespace.
const MANIFEST: &str = r#"{"format":"hlsinstr-manifest","version":1,"tool":"t","kinds":["modules","loops"],
  "files":[],"skipped":[],"probes":[
  {"id":0,"kind":"function","file":"k.cpp","line":1,"column":6,"function":"top","name":"top",
   "module":{"dataflow":false,"returns_void":true,"params":[],"exits":1}},
  {"id":1,"kind":"loop","file":"k.cpp","line":3,"column":3,"function":"top","name":"loop1","label":"loop1",
   "vitis_name":"loop1","parent":0,"loop":{"kind":"for","depth":0,"pipeline_ii":1}},
  {"id":2,"kind":"loop","file":"k.cpp","line":8,"column":3,"function":"top","name":"inner","label":"inner",
   "vitis_name":"inner","parent":0,"loop":{"kind":"for","depth":0,"unroll":2}},
  {"id":3,"kind":"loop","file":"k.cpp","line":12,"column":3,"function":"top","name":"slow","label":"slow",
   "vitis_name":"slow","parent":0,"loop":{"kind":"while","depth":0}},
  {"id":4,"kind":"loop","file":"k.cpp","line":13,"column":5,"function":"top","name":"VITIS_LOOP_13_1",
   "vitis_name":"VITIS_LOOP_13_1","parent":3,"loop":{"kind":"for","depth":1}},
  {"id":5,"kind":"function","file":"k.cpp","line":20,"column":6,"function":"ns::helper","name":"helper",
   "parent":0,"module":{"dataflow":false,"returns_void":true,"params":[],"exits":1}}]}"#;

#[test]
fn directives_set_the_facts_of_a_manifest() {
    use hlsinstr::emit::manifest::Manifest;
    use hlsinstr::model::pragma::Tripcount;
    let extra = "set_directive_unroll top/VITIS_LOOP_13_1\n\
                 set_directive_pipeline -II 3 top/nope\n\
                 set_directive_unroll -factor 4 other/inner\n\
                 set_directive_pipeline -II 0 top/slow\n\
                 set_directive_unroll top\n\
                 set_directive_array_partition -type complete top buf\n\
                 set_directive_latency -min 3 top\n";
    let t = tree(&[
        ("run_hls.tcl", "set_top top\nsource directives.tcl\n"),
        ("directives.tcl", &format!("{DIRECTIVES_TCL}{extra}")),
    ]);
    let p = project::load(&t.path().join("run_hls.tcl")).unwrap();
    let mut m: Manifest = serde_json::from_str(MANIFEST).unwrap();
    let w = hlsinstr::sim::directives::apply(&mut m, &p.directives);

    let facts = |id: usize| m.probes[id].loop_info.as_ref().unwrap().facts.clone();
    let loop1 = facts(1);
    assert_eq!((loop1.pipeline_ii, loop1.pipeline_off), (Some(2), false), "the directive's II, not the pragma's 1");
    assert_eq!(loop1.tripcount, Some(Tripcount { min: Some(1), max: Some(64), avg: Some(32) }));
    assert_eq!(loop1.from_directive, ["pipeline_ii: directives.tcl:4", "tripcount: directives.tcl:7"]);
    let inner = facts(2);
    assert_eq!(inner.unroll, Some(4));
    assert_eq!(inner.from_directive, ["unroll: directives.tcl:5"]);
    let slow = facts(3);
    assert!(slow.pipeline_off && slow.pipeline_ii.is_none());
    assert_eq!(slow.from_directive, ["pipeline_off: directives.tcl:6"]);
    let unnamed = facts(4);
    assert_eq!(unnamed.unroll, Some(0), "matched by its Vitis name; no factor is a full unroll");
    let top = m.probes[0].module.as_ref().unwrap();
    assert!(top.dataflow);
    // The stream directive makes `s_in` a FIFO between the dataflow processes; the partition
    // of `buf` is kept for the memory ports of its loops (docs/cycle-model.md).
    assert_eq!(
        top.from_directive,
        ["dataflow: directives.tcl:8", "stream s_in: directives.tcl:10", "array_partition buf: directives.tcl:19"]
    );
    assert_eq!(top.streamed, ["s_in"]);
    let helper = m.probes[5].module.as_ref().unwrap();
    assert_eq!(helper.inline, Some(false), "`ns::helper` is the probe's qualified name");
    assert_eq!(helper.from_directive, ["inline: directives.tcl:9"]);

    // The provenance survives a round trip, and facts without it serialize as before.
    let json = serde_json::to_string(&m).unwrap();
    assert!(json.contains(r#""from_directive":["pipeline_ii: directives.tcl:4","tripcount: directives.tcl:7"]"#));
    let back: Manifest = serde_json::from_str(&json).unwrap();
    assert_eq!(back, m);
    let untouched: Manifest = serde_json::from_str(MANIFEST).unwrap();
    assert!(!serde_json::to_string(&untouched).unwrap().contains("from_directive"));

    let expected = [
        "set_directive_pipeline top/loop1 (directives.tcl:4): replaces what the source pragmas say (II 1 → 2); \
         directives are taken over pragmas (docs/directives.md)",
        "set_directive_unroll top/inner (directives.tcl:5): replaces what the source pragmas say \
         (unroll factor 2 → factor 4); directives are taken over pragmas (docs/directives.md)",
        // The manifest's `top` has no parameter `n` (a run's manifest has the source's).
        "set_directive_interface top (directives.tcl:11): `n` is not a parameter of the function; not used",
        "set_directive_pipeline top/nope (directives.tcl:15): no loop labelled `nope` in `top`; not used",
        "set_directive_unroll other/inner (directives.tcl:16): no function `other` among the probes; not used",
        "set_directive_pipeline top/slow (directives.tcl:17): II `0` is not a positive whole number; not used",
        "set_directive_unroll top (directives.tcl:18): names no loop (write `top/<label>`); not used",
        "set_directive_latency (directives.tcl:20): not used by the cycle model",
    ];
    assert_eq!(w, expected);
}

/// The fenced block of `lang` in docs/directives.md.
fn doc_block(lang: &str) -> String {
    let doc = std::fs::read_to_string(repo().join("docs/directives.md")).unwrap();
    let start = doc.find(&format!("```{lang}\n")).unwrap_or_else(|| panic!("no ```{lang} block")) + lang.len() + 4;
    doc[start..start + doc[start..].find("```").unwrap()].to_string()
}

#[test]
fn the_documented_examples_parse_alike_in_both_syntaxes() {
    let t = tree(&[("hls_config.cfg", &doc_block("ini")), ("run_hls.tcl", &doc_block("tcl"))]);
    let cfg = project::load(&t.path().join("hls_config.cfg")).unwrap();
    let tcl = project::load(&t.path().join("run_hls.tcl")).unwrap();
    for p in [&cfg, &tcl] {
        assert!(p.warnings.iter().all(|w| w.message.starts_with("no ")), "{}", warnings(p));
        assert_eq!((p.pipeline_loops, p.dataflow_default_channel.as_deref()), (Some(0), Some("fifo")));
        assert!(p.other.is_empty(), "{:?}", p.other);
    }
    let same = |p: &Project| -> Vec<_> {
        p.directives.iter().map(|d| (d.kind.clone(), d.location(), d.options.clone(), d.flags.clone())).collect()
    };
    assert_eq!(same(&cfg).len(), 8);
    assert_eq!(same(&cfg), same(&tcl));
}

// ---------------------------------------------------------------------------------------------
// Whole project files (issue 17, item 7)
// ---------------------------------------------------------------------------------------------

/// Two components in one script, each with its own files, top and clock; the second has two
/// solutions.
const TWO_COMPONENTS: &str = "open_component -reset first -flow_target vivado\n\
                              add_files a.cpp\nadd_files -tb tb.cpp\nset_top a\ncreate_clock -period 4\n\
                              close_component\n\
                              open_component second\n\
                              add_files b.cpp\nadd_files -tb tb.cpp\nset_top b\n\
                              open_solution s1\ncreate_clock -period 5\nset_directive_pipeline b/L\n\
                              open_solution s2\ncreate_clock -period 6\ncsim_design -O\n";

#[test]
fn several_components_and_solutions_default_to_the_first_with_a_note() {
    let t = tree(&[("run.tcl", TWO_COMPONENTS), ("a.cpp", KERNEL), ("b.cpp", KERNEL), ("tb.cpp", TB)]);
    let path = t.path().join("run.tcl");
    let p = project::load(&path).unwrap();
    assert_eq!((p.name.as_deref(), p.top.as_deref(), p.clock_ns), (Some("first"), Some("a"), Some(4.0)));
    assert_eq!(p.sources.len(), 1, "only the first component's files");
    assert_eq!(p.components, strings(&["first", "second"]));
    assert!(p.solutions.is_empty(), "the first component opens no solution");
    assert_eq!(
        p.notes,
        ["the script opens 2 projects or components; `first` is read (the others: second; choose one with --component NAME)"]
    );
    assert!(!p.csim_optimize);

    let sel = |c: Option<&str>, s: Option<&str>| project::Select {
        component: c.map(String::from),
        solution: s.map(String::from),
    };
    let p = project::load_selected(&path, &sel(Some("second"), None)).unwrap();
    assert_eq!((p.top.as_deref(), p.clock_ns, p.solution.as_deref()), (Some("b"), Some(5.0), Some("s1")));
    assert_eq!(p.sources[0].path, root(&t).join("b.cpp"));
    assert_eq!(p.flow_target, None, "the first component's flow target is not read");
    assert_eq!(p.directives.len(), 1);
    assert!(!p.csim_optimize, "csim_design -O belongs to s2");
    assert!(p.notes[1].contains("`s1` is read (the others: s2; choose one with --solution NAME)"), "{:?}", p.notes);

    let p = project::load_selected(&path, &sel(Some("second"), Some("s2"))).unwrap();
    assert_eq!((p.clock_ns, p.solution.as_deref()), (Some(6.0), Some("s2")));
    assert!(p.directives.is_empty(), "s1's directive is not read");
    assert!(p.csim_optimize, "csim_design -O");

    let e = project::load_selected(&path, &sel(Some("third"), None)).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Usage);
    assert!(
        e.message.contains(
            "--component third: the script opens no project or component of that name (it opens: first, second)"
        ),
        "{e}"
    );
    let cfg = tree(&[("hls_config.cfg", "[hls]\nsyn.top=a\n")]);
    let e = project::load_selected(&cfg.path().join("hls_config.cfg"), &sel(Some("x"), None)).unwrap_err();
    assert!(e.message.contains("a config file describes one component"), "{e}");
}

#[test]
fn solutions_of_one_project_share_its_files() {
    let script = "open_project p\nset_top k\nadd_files k.cpp\nopen_solution a\nset_part xc7z020\n\
                  add_files -tb tb.cpp\nopen_solution b\nset_part xcvu9p\n";
    let t = tree(&[("run.tcl", script), ("k.cpp", KERNEL), ("tb.cpp", TB)]);
    let sel = project::Select { component: None, solution: Some("b".into()) };
    let p = project::load_selected(&t.path().join("run.tcl"), &sel).unwrap();
    assert_eq!((p.part.as_deref(), p.solution.as_deref()), (Some("xcvu9p"), Some("b")));
    assert_eq!(p.testbench.len(), 1, "files added in another solution are the project's");
    assert_eq!(p.solution_dirs()[0], root(&t).join("p/b/syn/report"));
}

#[test]
fn unknown_cfg_keys_name_the_nearest_known_key() {
    let cfg = "part=xcvu9p\n[hls]\nsyn.top=k\nsyn.fle=k.cpp\ntb.file=tb.cpp\ncsim.O=true\nclock_uncertanity=12%\n\
               syn.interface.m_axi_latency=64\npackage.ip.vendor=me\ncosim.trace_level=all\n\
               [vivado]\nimpl.strategies=ALL\n";
    let p = parse_cfg_str(Path::new("/p/hls_config.cfg"), cfg).unwrap();
    let w = warnings(&p);
    assert!(w.contains(":4:1: warning: unknown key `syn.fle` is ignored (Vitis HLS documents no such key); did you mean `syn.file`?"), "{w}");
    assert!(w.contains("unknown key `clock_uncertanity` is ignored (Vitis HLS documents no such key); did you mean `clock_uncertainty`?"), "{w}");
    assert_eq!(w.matches("unknown key").count(), 2, "known keys and other sections are not warned about: {w}");
    assert!(p.csim_optimize);
}

#[test]
fn tcl_blackbox_files_and_the_fixture_cfg_are_read() {
    let t = tree(&[("run.tcl", "open_project p\nadd_files -blackbox bb/m.json\n"), ("bb/m.json", "{}")]);
    let p = project::load(&t.path().join("run.tcl")).unwrap();
    assert_eq!(p.blackbox, [root(&t).join("bb/m.json")]);
    let e = hlsinstr::project::blackbox::model_files(&p).unwrap_err();
    assert!(e.message.contains("lists no `c_files`"), "{e}");
    let p = project::load(&fixtures().join("vitis-blackbox/hls_config.cfg")).unwrap();
    assert!(!warnings(&p).contains("unknown key"), "every key of Vitis' own example is known: {}", warnings(&p));
}

/// Issue 16 (reach): Vitis' GUI writes absolute paths into a project file; in a copy of the
/// project on another machine they name nothing (public IrisMakes/FPGA_Audio_Mix@cce2a52:
/// `tb.file=C:/Users/.../FPGA_Mix_Hardware/hw_mixer_tb.cpp`). Such a file is found by its trailing
/// path below the project, longest tail first, with a warning; a missing relative path is not.
#[test]
fn paths_from_the_authors_machine_are_found_by_their_tail() {
    let t = tree(&[
        ("proj/hls/k.cpp", KERNEL),
        ("proj/hls/tb/tb.cpp", TB),
        ("proj/other/tb.cpp", TB),
        ("proj/hls/data.txt", "1\n"),
        ("proj/comp/mac.cpp", KERNEL),
        ("proj/comp/hls_config.cfg", "[hls]\nsyn.top=k\nsyn.file=../../mac.cpp\n"),
        (
            "proj/hls/hls_config.cfg",
            "[hls]\nsyn.top=k\nsyn.file=/home/author/work/proj/hls/k.cpp\n\
             tb.file=C:\\Users\\author\\work\\proj\\hls\\tb\\tb.cpp\ntb.file=gone/data.txt\n",
        ),
        (
            "proj/hls/run.tcl",
            "open_project p\nset_top k\nadd_files C:/Users/author/proj/hls/k.cpp\nadd_files -tb /home/a/b/tb/tb.cpp\n",
        ),
    ]);
    let r = root(&t);
    let p = project::load(&t.path().join("proj/hls/hls_config.cfg")).unwrap();
    assert_eq!(p.sources[0].path, r.join("proj/hls/k.cpp"), "{}", warnings(&p));
    assert_eq!(p.testbench[0].path, r.join("proj/hls/tb/tb.cpp"), "the longest tail, not other/tb.cpp");
    let w = warnings(&p);
    assert!(w.contains("written for another machine or layout?") && w.contains("tb/tb.cpp"), "{w}");
    assert!(w.contains("file not found") && w.contains("gone/data.txt"), "a plain relative path is not moved: {w}");
    assert_eq!(p.testbench[1].path, r.join("proj/hls/gone/data.txt"), "not the data.txt of the project's directory");
    let p = project::load(&t.path().join("proj/hls/run.tcl")).unwrap();
    assert_eq!(p.sources[0].path, r.join("proj/hls/k.cpp"), "{}", warnings(&p));
    assert_eq!(p.testbench[0].path, r.join("proj/hls/tb/tb.cpp"), "{}", warnings(&p));
    // A path climbing out of the component folder the config file sat in on the author's disk,
    // committed beside the sources (public Coderchinmay-wq/DSP-Resource-Exploration...@e44eefd).
    let p = project::load(&t.path().join("proj/comp/hls_config.cfg")).unwrap();
    assert_eq!(p.sources[0].path, r.join("proj/comp/mac.cpp"), "{}", warnings(&p));
}

/// Issue 16 (reach): scripts list files with Tcl's `glob` (`add_files [glob src/*.cpp]`,
/// `add_files -tb [glob -nocomplain -directory data *.dat]`); the files are on disk, so the list
/// is read as vitis_hls would see it instead of one file named `[glob ...]`.
#[test]
fn glob_in_a_script_lists_the_files_on_disk() {
    let t = tree(&[
        ("src/a.cpp", KERNEL),
        ("src/b.cpp", KERNEL),
        ("src/notes.txt", "x\n"),
        ("src/.hidden.cpp", KERNEL),
        ("tb/tb.cpp", TB),
        ("data/in 1.dat", "1\n"),
        ("data/gold.dat", "2\n"),
        (
            "run.tcl",
            "open_project p\nset_top k\nadd_files [glob src/*.cpp]\nadd_files -tb [glob -directory tb *.{cpp,h}]\n\
             add_files -tb [glob -nocomplain -directory data -tails *.dat]\nadd_files [glob -nocomplain none/*.c]\n\
             add_files [glob nowhere/*.cpp]\n",
        ),
    ]);
    let r = root(&t);
    let p = project::load(&t.path().join("run.tcl")).unwrap();
    let sources: Vec<PathBuf> = p.sources.iter().map(|f| f.path.clone()).collect();
    assert_eq!(sources, [r.join("src/a.cpp"), r.join("src/b.cpp")], "{}", warnings(&p));
    let tb: Vec<PathBuf> = p.testbench.iter().map(|f| f.path.clone()).collect();
    // -tails: names relative to the directory, so resolved against the script's (not found there).
    assert_eq!(tb[0], r.join("tb/tb.cpp"), "{}", warnings(&p));
    assert_eq!(tb[1..], [r.join("gold.dat"), r.join("in 1.dat")], "a name with a space stays one file");
    let w = warnings(&p);
    assert!(w.contains("`glob nowhere/*.cpp` matches no file"), "{w}");
    assert!(!w.contains("none/*.c"), "-nocomplain: {w}");
}

#[test]
fn the_m_axi_latency_the_project_sets_wins_over_its_flows() {
    let cfg = |line: &str| {
        let text = format!("[hls]\nflow_target=vitis\nsyn.top=k\nsyn.file=k.cpp\ntb.file=tb.cpp\n{line}");
        let t = tree(&[("hls_config.cfg", text.as_str()), ("k.cpp", KERNEL), ("tb.cpp", TB)]);
        project::load(&t.path().join("hls_config.cfg")).unwrap()
    };
    assert_eq!(cfg("").maxi_latency_default(), Some(64), "the Vitis kernel flow's");
    assert_eq!(cfg("syn.interface.m_axi_latency=32\n").maxi_latency_default(), Some(32));
    let bad = cfg("syn.interface.m_axi_latency=fast\n");
    assert_eq!(bad.maxi_latency_default(), Some(64));
    assert!(warnings(&bad).contains("cannot read `syn.interface.m_axi_latency=fast`"), "{}", warnings(&bad));
    let tcl = "open_project p\nset_top k\nadd_files k.cpp\nadd_files -tb tb.cpp\n\
               open_solution s1 -flow_target vitis\n\
               config_interface -m_axi_latency 0 -m_axi_offset slave\n";
    let t = tree(&[("run_hls.tcl", tcl), ("k.cpp", KERNEL), ("tb.cpp", TB)]);
    let p = project::load(&t.path().join("run_hls.tcl")).unwrap();
    assert_eq!(p.maxi_latency_default(), Some(0));
    assert_eq!(p.other, vec![("config_interface".to_string(), "-m_axi_offset slave".to_string())]);
}
