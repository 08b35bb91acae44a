//! Watchpoints on Vitis C++ end to end on `tests/watch/` (a top that hands its 8-element
//! `data` to a callee which writes one past it on the second call, and a negative delta that
//! breaks `data[i] >= 0`): rewrite, build with g++, run; the testbench prints what the original
//! prints, the event log holds exactly the expected watch records (an invariant violation, hits
//! on a watched element, the out-of-bounds write caught before it happened, each with its call),
//! stderr names the line, strip gives the input back, and the refused cases say why.

mod common;

use hlsinstr::sim::events::{self, Event, WatchKind};
use std::path::Path;
use std::process::Command;

fn run(cmd: &mut Command) -> (String, String) {
    let out = cmd.output().expect("the command starts");
    assert!(out.status.success(), "{cmd:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    (String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

fn gxx(dir: &Path, include: Option<&Path>, kernel: &Path, exe: &str) {
    let mut c = Command::new("g++");
    c.current_dir(dir).arg(format!("-I{}", dir.display())).args([
        "-std=c++11",
        "-Wall",
        "-Wextra",
        "-Werror",
        "-Wno-unknown-pragmas",
        "-O1",
        "-o",
        exe,
    ]);
    if let Some(i) = include {
        c.arg(format!("-I{}", i.display()));
    }
    run(c.arg(kernel).arg(dir.join("vec_tb.cpp")));
}

fn rewrite(dir: &Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_hlsinstr"))
        .current_dir(dir)
        .args(["rewrite", "vec.cpp", "-q", "--out", "inst"])
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn hits_out_of_bounds_and_invariant_are_recorded_with_line_and_call() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    for f in ["vec.cpp", "vec.h", "vec_tb.cpp"] {
        std::fs::copy(common::repo().join("tests/watch").join(f), dir.join(f)).unwrap();
    }
    let out = rewrite(
        dir,
        &["--probes", "watch,modules", "--top", "vec_top", "--watch-range", "data[2:4]", "--invariant", "data[i] >= 0"],
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let inst = dir.join("inst");
    let original = std::fs::read_to_string(dir.join("vec.cpp")).unwrap();
    let output = std::fs::read_to_string(inst.join("vec.cpp")).unwrap();
    assert_eq!(hlsinstr::strip::strip(&output).unwrap(), original, "strip gives the input back");

    gxx(dir, None, &dir.join("vec.cpp"), "orig");
    let (expected, _) = run(&mut Command::new(dir.join("orig")));
    gxx(dir, Some(&common::repo().join("hls-lib/include")), &inst.join("vec.cpp"), "inst_tb");
    let (stdout, stderr) = run(Command::new(dir.join("inst_tb")).current_dir(&inst).env("HLSINSTR_EVENTS", "ev.log"));
    assert_eq!(stdout, expected, "the testbench prints what the original prints");

    let manifest = hlsinstr::sim::read_manifest(&inst.join("hlsinstr-manifest.json")).unwrap();
    let site = |id: u32| manifest.probes.iter().find(|p| p.id == id).expect("a manifest entry");
    let mut watch = Vec::new();
    for r in events::read(&inst.join("ev.log")).unwrap() {
        if let Event::Watch { kind, index } = r.event {
            let at = if kind == WatchKind::Call {
                String::new()
            } else {
                format!("{}:{}", site(r.probe).file, site(r.probe).line)
            };
            watch.push(format!("{} {at} {index} {:?}", kind.letter(), r.value.map(|v| v as i64)));
        }
    }
    // accumulate's `acc[i] += in[i]` is line 7, the top's `sum += data[i]` line 16.
    let want = [
        "C  0 Some(1)",
        "I vec.cpp:7 2 Some(-3)",
        "H vec.cpp:7 3 Some(4)",
        "I vec.cpp:16 2 Some(-3)",
        "H vec.cpp:16 3 Some(4)",
        "C  0 Some(2)",
        "I vec.cpp:7 2 Some(-6)",
        "H vec.cpp:7 3 Some(5)",
        "O vec.cpp:7 8 None",
        "I vec.cpp:16 2 Some(-6)",
        "H vec.cpp:16 3 Some(5)",
    ];
    assert_eq!(watch, want);
    // The manifest describes each site: the callee's `acc` may alias `data` and is bound-checked.
    let acc = manifest.probes.iter().find(|p| p.name == "acc").unwrap().watch.as_ref().unwrap();
    assert!(acc.may_alias && acc.bound == Some(8) && acc.range == [2, 4] && acc.value == "element", "{acc:?}");
    // stderr: every violation with the (instrumented) file and line, before the access.
    let oob: Vec<&str> = stderr.lines().filter(|l| l.contains("out-of-bounds")).collect();
    assert_eq!(oob.len(), 1, "{stderr}");
    assert!(
        oob[0].starts_with("hlsinstr: watch: ") && oob[0].contains("element 8 (bounds [0, 8)), call 2"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().filter(|l| l.contains("invariant broken")).count(), 4, "{stderr}");
}

#[test]
fn refused_cases_say_what_to_do() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    for f in ["vec.cpp", "vec.h"] {
        std::fs::copy(common::repo().join("tests/watch").join(f), dir.join(f)).unwrap();
    }
    let cases: [(&[&str], &str); 2] = [
        (&["--probes", "watch", "--watch", "data[0]"], "needs --top"),
        (&["--probes", "watch", "--top", "vec_top", "--watch", "dat[0]"], "candidates: data (vec.cpp:11:17), delta"),
    ];
    for (args, want) in cases {
        let out = rewrite(dir, args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
        assert!(!dir.join("inst").exists(), "nothing written");
    }
}

#[test]
fn sim_lists_every_watch_event_with_its_source_line_and_call() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    for f in ["vec.cpp", "vec.h", "vec_tb.cpp", "hls_config.cfg"] {
        std::fs::copy(common::repo().join("tests/watch").join(f), dir.join(f)).unwrap();
    }
    let run = common::sim_in(
        dir,
        &["hls_config.cfg", "--probes", "watch", "--watch-range", "data[2:4]", "--invariant", "data[i] >= 0"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let section: Vec<&str> = run.stdout.lines().skip_while(|l| !l.starts_with("Watch:")).collect();
    assert_eq!(section[0], "Watch: 9 events in 2 calls of the top", "{}", run.stdout);
    assert!(section.contains(&"  call 2: out of bounds vec.cpp:7 (read-write of acc in accumulate): element 8"));
    assert!(section.contains(&"  call 1: invariant vec.cpp:16 (read of data in vec_top): element 2 value -3"));
    assert!(section.contains(&"       2 hit           vec.cpp:16 (read of data in vec_top)"));
    // JSON, CSV and Markdown carry the same events: counts per site and kind, each event listed.
    let opts = ["hls_config.cfg", "--probes", "watch", "--watch-range", "data[2:4]", "--invariant", "data[i] >= 0"];
    let format = |f: &str| {
        let run = common::sim_in(dir, &[&opts[..], &["--format", f]].concat());
        assert_eq!(run.code, 0, "{f}: {}", run.stderr);
        run.stdout
    };
    let json: serde_json::Value = serde_json::from_str(&format("json")).unwrap();
    common::validate_against_schema(&json);
    let w = &json["watch"];
    assert_eq!((w["calls"].as_u64(), w["events"].as_u64(), w["shown_cap"].as_u64()), (Some(2), Some(9), Some(200)));
    assert_eq!(w["shown"].as_array().unwrap().len(), 9);
    let oob = serde_json::json!({"call": 2, "kind": "out_of_bounds", "site": 0, "file": "vec.cpp", "line": 7,
        "buffer": "acc", "function": "accumulate", "access": "read-write", "element": 8, "value": null});
    assert_eq!(w["shown"][6], oob);
    assert_eq!(w["shown"][2]["value"], -3);
    let site = |i: usize, k: &str| w["sites"][i][k].as_u64().unwrap();
    assert_eq!((site(0, "hit"), site(0, "out_of_bounds"), site(0, "invariant")), (2, 1, 2));
    assert_eq!((site(1, "line"), site(1, "hit"), site(1, "out_of_bounds"), site(1, "invariant")), (16, 2, 0, 2));
    let csv = format("csv");
    let table: Vec<&str> = csv.lines().skip_while(|l| !l.starts_with("watch,")).collect();
    assert_eq!(table[0], "watch,call,kind,site,file,line,function,buffer,access,element,value,count");
    assert_eq!(table.iter().filter(|l| l.starts_with("event,")).count(), 9, "{csv}");
    assert!(table.contains(&"event,2,out_of_bounds,0,vec.cpp,7,accumulate,acc,read-write,8,,"), "{csv}");
    assert!(table.contains(&"count,,invariant,2,vec.cpp,16,vec_top,data,read,,,2"), "{csv}");
    assert_eq!(table.last(), Some(&"unlisted,,,,,,,,,,,0"));
    let md = format("markdown");
    assert!(md.contains("### Watch: 9 events in 2 calls of the top"), "{md}");
    assert!(md.contains("| `vec.cpp:7` (acc in accumulate) | read-write | 2 | 1 | 2 |"), "{md}");
    assert!(md.contains("| 2 | out of bounds | `vec.cpp:7` (acc) | 8 |  |"), "{md}");
    // The options are checked as rewrite checks them.
    let run = common::sim_in(dir, &["hls_config.cfg", "--probes", "watch"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("needs the watched elements"), "{}", run.stderr);
}
