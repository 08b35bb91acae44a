//! `hlsinstr decode` end to end: a manifest from the real rewriter (its `hw` section filled in
//! here, as the `--target vitis` rewrite would), a dump with known numbers, the CLI's report;
//! then thousands of damaged dumps and wrong manifests, which must fail clearly, never panic.

use hlsinstr::decode::dump::{self, Dump, DumpError, SlotRecord, STATUS_FINISHED};
use hlsinstr::decode::{decode, output, Options, SimReport};
use hlsinstr::emit::manifest::{hw_key, HwBuild, Manifest};
use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};

mod common;
use common::{hls_include, repo, Rng};

const KERNEL: &str = "\
void leaf(int *a, int n) {
inner:
  for (int i = 0; i < n; i++) a[i] += 1;
}
void top(int *a, int n) {
outer:
  for (int j = 0; j < 4; j++) leaf(a, n);
}
";

fn hlsinstr(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hlsinstr")).args(args).current_dir(cwd).output().expect("run hlsinstr")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Rewrite KERNEL for real, then give the manifest the `hw` section of a build measuring every
/// probe in id order. Returns the temp dir (manifest at `out/hlsinstr-manifest.json`).
fn build() -> (tempfile::TempDir, Manifest) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("src")).unwrap();
    std::fs::write(dir.path().join("src/k.cpp"), KERNEL).unwrap();
    let o = hlsinstr(&["rewrite", "src", "--probes", "modules,loops", "--top", "top", "--out", "out"], dir.path());
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let path = dir.path().join("out/hlsinstr-manifest.json");
    let mut m: Manifest = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let names: Vec<(u32, &str, &str)> = m.probes.iter().map(|p| (p.id, p.kind.as_str(), p.name.as_str())).collect();
    assert_eq!(names, [(0, "function", "leaf"), (1, "loop", "inner"), (2, "function", "top"), (3, "loop", "outer")]);
    m.hw = Some(hw_for(&m, vec![0, 1, 2, 3]));
    std::fs::write(&path, serde_json::to_string_pretty(&m).unwrap()).unwrap();
    (dir, m)
}

fn hw_for(m: &Manifest, slots: Vec<u32>) -> HwBuild {
    HwBuild {
        target: "vitis".into(),
        top: "top".into(),
        instr_top: "top_instr".into(),
        key: format!("{:016x}", hw_key(&slots, &m.probes)),
        fifo_depth: 32,
        timestamps: true,
        slots,
        derived: Vec::new(),
        generated: Vec::new(),
        trace: None,
    }
}

fn key_of(m: &Manifest) -> u64 {
    u64::from_str_radix(&m.hw.as_ref().unwrap().key, 16).unwrap()
}

fn slot(probe: u64, calls: u64, busy: u64, first: u64, last: u64, trips: u64, max: u64) -> SlotRecord {
    SlotRecord { probe, calls, busy, first_start: first, last_end: last, trips, unmatched: 0, max_busy: max }
}

/// Known numbers: top runs once for 1024 cycles; its loop 1000; leaf 4 calls, 768 cycles; the
/// inner loop 4 executions, 512 cycles, 400 trips. Powers of two keep the percentages exact.
fn the_dump(m: &Manifest) -> Dump {
    Dump {
        key: key_of(m),
        cycles: 1100,
        status: STATUS_FINISHED,
        slots: vec![
            slot(0, 4, 768, 20, 1010, 0, 200),
            slot(1, 4, 512, 22, 1008, 400, 130),
            slot(2, 1, 1024, 5, 1029, 0, 1024),
            slot(3, 1, 1000, 9, 1009, 4, 1000),
        ],
    }
}

fn row<'a>(rep: &'a Value, name: &str) -> &'a Value {
    rep["rows"].as_array().unwrap().iter().find(|r| r["name"] == name).unwrap_or_else(|| panic!("no row {name}"))
}

#[test]
fn the_report_has_exact_numbers_and_a_tree() {
    let (dir, m) = build();
    let dbg = dir.path().join("out/dbg.bin");
    std::fs::write(&dbg, the_dump(&m).to_bytes()).unwrap();
    // The manifest beside the dump is found without --manifest.
    let o = hlsinstr(&["decode", "out/dbg.bin", "--format", "json", "--clock", "250MHz"], dir.path());
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let rep: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!((rep["format"].as_str(), rep["version"].as_u64()), (Some("hlsinstr-hw-report"), Some(1)));
    assert_eq!((rep["cycles"].as_u64(), rep["top_cycles"].as_u64()), (Some(1100), Some(1024)));
    assert_eq!((rep["clock_ns"].as_f64(), rep["total_us"].as_f64()), (Some(4.0), Some(4.4)));
    assert_eq!(rep["finished"], true);
    assert!(rep.get("warnings").is_none(), "{}", rep["warnings"]);
    let names: Vec<(&str, u64)> = rep["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["name"].as_str().unwrap(), r["depth"].as_u64().unwrap()))
        .collect();
    assert_eq!(
        names,
        [("top", 0), ("outer", 1), ("leaf", 1), ("inner", 2)],
        "loops under their function, leaf under its caller"
    );

    let top = row(&rep, "top");
    assert_eq!((top["busy"].as_u64(), top["calls"].as_u64(), top["avg"].as_f64()), (Some(1024), Some(1), Some(1024.0)));
    assert_eq!((top["span"].as_u64(), top["top_pct"].as_f64()), (Some(1024), Some(100.0)));
    assert_eq!((top["file"].as_str(), top["line"].as_u64()), (Some("k.cpp"), Some(5)));
    let outer = row(&rep, "outer");
    assert_eq!((outer["trips"].as_u64(), outer["trips_avg"].as_f64()), (Some(4), Some(4.0)));
    assert_eq!(outer["top_pct"].as_f64(), Some(97.65625));
    let leaf = row(&rep, "leaf");
    assert_eq!(
        (leaf["busy"].as_u64(), leaf["avg"].as_f64(), leaf["max"].as_u64()),
        (Some(768), Some(192.0), Some(200))
    );
    assert_eq!(
        (leaf["top_pct"].as_f64(), leaf["first_start"].as_u64(), leaf["span"].as_u64()),
        (Some(75.0), Some(20), Some(990))
    );
    assert!(leaf.get("trips").is_none(), "functions have no trips");
    let inner = row(&rep, "inner");
    assert_eq!(
        (inner["busy"].as_u64(), inner["avg"].as_f64(), inner["calls"].as_u64()),
        (Some(512), Some(128.0), Some(4))
    );
    assert_eq!(
        (inner["trips"].as_u64(), inner["trips_avg"].as_f64(), inner["top_pct"].as_f64()),
        (Some(400), Some(100.0), Some(50.0))
    );
    assert_eq!(inner["parent"].as_u64(), Some(0));

    // The table: rows indented by depth, the columns, no Sim_cyc without --sim.
    let o = hlsinstr(&["decode", "out/dbg.bin", "--manifest", "out/hlsinstr-manifest.json"], dir.path());
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let t = text(&o.stdout);
    assert!(t.contains("1100 monitor cycles (give --clock"), "{t}");
    for col in ["HW_cyc", "calls", "avg", "max", "trips", "%top"] {
        assert!(t.contains(col), "{col}\n{t}");
    }
    assert!(!t.contains("Sim_cyc"), "{t}");
    let line = |start: &str| t.lines().find(|l| l.starts_with(start)).unwrap_or_else(|| panic!("{start}\n{t}"));
    assert!(line("top()").contains("100.0") && line("top()").ends_with("k.cpp:5"), "{t}");
    assert!(line("  loop outer").contains("97.7"), "{t}");
    assert!(line("  leaf()").contains(" 768 ") && line("  leaf()").contains("192.0"), "{t}");
    assert!(line("    loop inner").contains(" 400 ") && line("    loop inner").contains("100.0"), "{t}");
}

#[test]
fn a_sim_report_is_shown_beside_the_hardware() {
    let (dir, m) = build();
    std::fs::write(dir.path().join("dbg.bin"), the_dump(&m).to_bytes()).unwrap();
    // Rows are sites of the dynamic call tree: leaf's cycles come from two sites here.
    let sim = r#"{"format":"hlsinstr-sim-report","version":1,"top":"top","total_cycles":1280,
        "clock_ns":{"value":4.0,"source":"project"},
        "rows":[{"index":0,"probe":2,"cycles":1280,"runs":1},{"index":1,"probe":3,"cycles":1000,"runs":1,"trips":4},
                {"index":2,"probe":0,"cycles":384,"runs":2},{"index":3,"probe":0,"cycles":384,"runs":2},
                {"index":4,"probe":1,"cycles":640,"runs":4,"trips":400},{"index":5,"probe":99,"cycles":7,"runs":1}]}"#;
    std::fs::write(dir.path().join("sim.json"), sim).unwrap();
    let args = ["decode", "dbg.bin", "--manifest", "out/hlsinstr-manifest.json", "--sim", "sim.json", "--clock", "4ns"];
    let o = hlsinstr(&[&args[..], &["--format", "json", "-o", "hw.json"]].concat(), dir.path());
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("warning: the sim report has probes 99"), "{}", text(&o.stderr));
    let rep: Value = serde_json::from_str(&std::fs::read_to_string(dir.path().join("hw.json")).unwrap()).unwrap();
    let pair = |n: &str| (row(&rep, n)["sim_cycles"].as_u64().unwrap(), row(&rep, n)["sim_err_pct"].as_f64().unwrap());
    assert_eq!(pair("top"), (1280, 25.0));
    assert_eq!(pair("outer"), (1000, 0.0));
    assert_eq!(pair("leaf"), (768, 0.0));
    assert_eq!(row(&rep, "leaf")["sim_runs"].as_u64(), Some(4));
    assert_eq!(pair("inner"), (640, 25.0));
    assert_eq!(rep["sim"]["total_cycles"].as_u64(), Some(1280));

    let o = hlsinstr(&args, dir.path());
    let t = text(&o.stdout);
    assert!(t.contains("Sim_cyc") && t.contains("err%"), "{t}");
    let top = t.lines().find(|l| l.starts_with("top()")).unwrap();
    assert!(top.contains("1280") && top.contains("+25.0"), "{t}");
    assert!(t.contains("warning: the sim report has probes 99"), "{t}");

    // The report of another top is refused.
    std::fs::write(dir.path().join("other.json"), sim.replace(r#""top":"top""#, r#""top":"other""#)).unwrap();
    let o =
        hlsinstr(&["decode", "dbg.bin", "--manifest", "out/hlsinstr-manifest.json", "--sim", "other.json"], dir.path());
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stderr).contains("the sim report is of top `other`, this build's top is `top`"),
        "{}",
        text(&o.stderr)
    );
}

/// The real `hlsinstr sim` JSON reads: a dump whose busy cycles are the estimate gives 0 % everywhere.
#[test]
fn a_real_sim_report_reads_and_compares() {
    let include = hls_include().display().to_string();
    let dir = tempfile::tempdir().unwrap();
    let keep = dir.path().join("work");
    let o = Command::new(env!("CARGO_BIN_EXE_hlsinstr"))
        .args(["sim", "--quiet", "--hls-include", &include, "tests/sim/analytic/hls_config.cfg", "--format", "json"])
        .arg("--keep")
        .arg(&keep)
        .current_dir(repo())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let sim = SimReport::parse(&text(&o.stdout)).expect("decode reads sim's JSON");
    let mut m: Manifest =
        serde_json::from_str(&std::fs::read_to_string(keep.join("hlsinstr-manifest.json")).unwrap()).unwrap();
    let per = sim.per_probe();
    let slots: Vec<u32> = m.probes.iter().filter(|p| p.kind != "port").map(|p| p.id).collect();
    let mut hw = hw_for(&m, slots.clone());
    hw.top = sim.top.clone();
    m.hw = Some(hw);
    let d = Dump {
        key: key_of(&m),
        cycles: sim.total_cycles,
        status: STATUS_FINISHED,
        slots: slots
            .iter()
            .map(|&id| {
                let t = per.get(&id).copied().unwrap_or_default();
                slot(u64::from(id), t.runs, t.cycles, 0, t.cycles, 0, t.cycles)
            })
            .collect(),
    };
    let rep = decode(&d.to_bytes(), &m, Some(&sim), &Options::default()).unwrap();
    let compared: Vec<&hlsinstr::decode::HwRow> = rep.rows.iter().filter(|r| r.sim_cycles.is_some()).collect();
    assert!(compared.len() >= 2, "the top and its loop: {:?}", rep.rows);
    for r in &compared {
        assert_eq!(r.sim_cycles, Some(r.busy), "{}", r.name);
        if r.busy > 0 {
            assert_eq!(r.sim_err_pct, Some(0.0), "{}", r.name);
        }
    }
    assert!(output::text(&rep).contains("Sim_cyc"));
}

#[test]
fn errors_say_what_to_do_and_exit_1() {
    let (dir, m) = build();
    let run = |dump: &[u8], extra: &[&str]| {
        std::fs::write(dir.path().join("d.bin"), dump).unwrap();
        let o = hlsinstr(
            &[&["decode", "d.bin", "--manifest", "out/hlsinstr-manifest.json"][..], extra].concat(),
            dir.path(),
        );
        (o.status.code(), text(&o.stderr))
    };
    let good = the_dump(&m);
    let (code, err) = run(&good.to_bytes()[..100], &[]);
    assert_eq!(code, Some(1));
    assert!(
        err.contains("hlsinstr: error: d.bin: the dump is 100 bytes") && err.contains("copy the debug buffer again"),
        "{err}"
    );
    let (code, err) = run(b"PK\x03\x04 something else entirely", &[]);
    assert_eq!(code, Some(1));
    assert!(err.contains("not an hlsinstr debug dump"), "{err}");
    let mut other = good.clone();
    other.key ^= 0xff;
    let (code, err) = run(&other.to_bytes(), &[]);
    assert_eq!(code, Some(1));
    assert!(
        err.contains("written by another build")
            && err.contains("decode it with the manifest of the build that produced it"),
        "{err}"
    );
    let mut unfinished = good.clone();
    unfinished.status = 0;
    let (code, err) = run(&unfinished.to_bytes(), &[]);
    assert_eq!((code, err.as_str()), (Some(0), ""));
    let (code, err) = run(&good.to_bytes(), &["--clock", "fast"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("--clock fast"), "{err}");
    let o = hlsinstr(&["decode", "d.bin"], dir.path());
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("give --manifest"), "{}", text(&o.stderr));
    // A manifest of a C-simulation rewrite (no hw section).
    let mut plain = m.clone();
    plain.hw = None;
    std::fs::write(dir.path().join("plain.json"), serde_json::to_string(&plain).unwrap()).unwrap();
    let o = hlsinstr(&["decode", "d.bin", "--manifest", "plain.json"], dir.path());
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("not from a `--target vitis` rewrite"), "{}", text(&o.stderr));
    // Partial counts are decoded, with a warning in the table.
    let o = hlsinstr(&["decode", "d.bin", "--manifest", "out/hlsinstr-manifest.json"], dir.path());
    std::fs::write(dir.path().join("d.bin"), unfinished.to_bytes()).unwrap();
    let o2 = hlsinstr(&["decode", "d.bin", "--manifest", "out/hlsinstr-manifest.json"], dir.path());
    assert!(!text(&o.stdout).contains("did not finish"));
    assert!(text(&o2.stdout).contains("warning: the kernel did not finish"), "{}", text(&o2.stdout));
}

#[test]
fn wrong_manifests_give_the_specific_error() {
    let (_dir, m) = build();
    let d = the_dump(&m);
    let bytes = d.to_bytes();
    let check = |m: &Manifest| dump::parse(&bytes).unwrap().check(m).map(|_| ()).unwrap_err();
    // Another build: the same probes in another slot order.
    let mut other = m.clone();
    other.hw = Some(hw_for(&m, vec![2, 3, 0, 1]));
    assert!(matches!(check(&other), DumpError::KeyMismatch { .. }));
    // A source change moves a probe: the key changes too.
    let mut moved = m.clone();
    moved.probes[1].line += 1;
    moved.hw = Some(hw_for(&moved, vec![0, 1, 2, 3]));
    assert!(matches!(check(&moved), DumpError::KeyMismatch { .. }));
    // Hand-edited manifests that kept the key: slot count, probe id.
    let mut fewer = m.clone();
    fewer.hw.as_mut().unwrap().slots.pop();
    assert_eq!(check(&fewer), DumpError::SlotCount { dump: 4, manifest: 3 });
    let mut swapped = m.clone();
    swapped.hw.as_mut().unwrap().slots.swap(1, 2);
    assert_eq!(check(&swapped), DumpError::SlotProbe { slot: 1, dump: 1, manifest: 2 });
    let mut none = m.clone();
    none.hw = None;
    assert_eq!(check(&none), DumpError::NoHw);
    assert!(decode(&bytes, &m, None, &Options::default()).is_ok());
}

/// Header words 0-3 (magic, version, key, slots) and each slot's probe word decide whether the
/// dump is accepted; every other word is a count, and changing it must still give a report.
fn is_count_word(w: usize) -> bool {
    match w {
        0..=3 => false,
        4 | 5 => true,
        _ => !(w - dump::HEADER_WORDS).is_multiple_of(dump::SLOT_WORDS),
    }
}

fn decode_all_ways(bytes: &[u8], m: &Manifest) -> Result<(), String> {
    let clock = Options { clock_ns: Some(3.3) };
    match decode(bytes, m, None, &clock) {
        Ok(rep) => {
            // Every face renders any numbers.
            let _ = output::text(&rep);
            let _ = output::json(&rep);
            Ok(())
        }
        Err(e) => {
            assert!(!e.message.is_empty());
            Err(e.message)
        }
    }
}

#[test]
fn damaged_dumps_fail_clearly_and_never_panic() {
    let (_dir, m) = build();
    let good = the_dump(&m).to_bytes();
    assert!(decode_all_ways(&good, &m).is_ok());

    // Cut at every length, and padded.
    for len in 0..good.len() {
        let e = decode_all_ways(&good[..len], &m).unwrap_err();
        assert!(e.contains("copy the debug buffer again") || e.contains("not an hlsinstr debug dump"), "{len}: {e}");
    }
    for extra in 1..=17 {
        let mut long = good.clone();
        long.extend(std::iter::repeat_n(0xa5, extra));
        assert!(decode_all_ways(&long, &m).unwrap_err().contains("copy the debug buffer again"));
    }

    // Random byte changes: a change in a count word still decodes; one elsewhere is refused.
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut decoded, mut refused) = (0, 0);
    for _ in 0..10_000 {
        let mut b = good.clone();
        for _ in 0..1 + rng.below(4) {
            let i = rng.below(b.len());
            b[i] = match rng.below(3) {
                0 => b[i] ^ (1 << rng.below(8)),
                1 => 0xff,
                _ => rng.next() as u8,
            };
        }
        let words: Vec<usize> = (0..b.len()).filter(|&i| b[i] != good[i]).map(|i| i / 8).collect();
        let r = decode_all_ways(&b, &m);
        if words.iter().all(|&w| is_count_word(w)) {
            assert!(r.is_ok(), "counts changed in words {words:?}: {r:?}");
            decoded += 1;
        } else {
            assert!(r.is_err(), "words {words:?} changed but the dump was accepted");
            refused += 1;
        }
    }
    assert!(decoded > 500 && refused > 500, "{decoded} {refused}");

    // Extreme counts render (saturating, no overflow).
    let mut extreme = the_dump(&m);
    extreme.cycles = u64::MAX;
    for s in &mut extreme.slots {
        (s.calls, s.busy, s.first_start, s.last_end, s.trips, s.unmatched, s.max_busy) =
            (1, u64::MAX, u64::MAX - 1, 0, u64::MAX, u64::MAX, u64::MAX);
    }
    extreme.status = u64::MAX;
    assert!(decode_all_ways(&extreme.to_bytes(), &m).is_ok());

    // Garbage of random lengths, with and without a valid header claiming random slot counts.
    for round in 0..5_000 {
        let len = rng.below(600);
        let mut b: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        if round % 2 == 0 && b.len() >= 48 {
            b[..8].copy_from_slice(&dump::MAGIC.to_le_bytes());
            b[8..16].copy_from_slice(&dump::VERSION.to_le_bytes());
            b[16..24].copy_from_slice(&key_of(&m).to_le_bytes());
            let n = match round % 3 {
                0 => rng.next(),
                1 => rng.next() % 8,
                _ => ((b.len() / 8).saturating_sub(6) / 8) as u64,
            };
            b[24..32].copy_from_slice(&n.to_le_bytes());
        }
        let _ = decode_all_ways(&b, &m);
    }

    // Huge slot counts with a short body are refused before anything is allocated for them.
    for n in [4u64, 5, 1 << 20, 1 << 40, u64::MAX / 64, u64::MAX / 8, u64::MAX - 5, u64::MAX] {
        let mut b = good.clone();
        b[24..32].copy_from_slice(&n.to_le_bytes());
        let r = decode_all_ways(&b, &m);
        if n == 4 {
            assert!(r.is_ok());
        } else {
            assert!(r.unwrap_err().contains("header announces"), "{n}");
        }
    }
}

/// The real dataflow example rewritten for the FPGA, decoded from a dump with chosen numbers
/// (a C-simulation dump's times say nothing: its monitor drains the FIFOs after the kernel).
/// The top is the region (its own slot: 2000 cycles); read 500, compute 1500, write 500 busy
/// cycles: compute is the critical path, read and write stall 75 % on it and on each other
/// (all three are connected by streams), compute 25 % on them.
#[test]
fn the_dataflow_example_gets_measured_pcp_stall_and_reasons() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("instr");
    let o = hlsinstr(
        &["rewrite", "examples/dataflow_pipeline", "--probes", "modules,loops", "--target", "vitis"]
            .iter()
            .copied()
            .chain(["--top", "pipeline_top", "--out", out.to_str().unwrap()])
            .collect::<Vec<_>>(),
        &repo(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let manifest = out.join("hlsinstr-manifest.json");
    let m: Manifest = serde_json::from_str(&std::fs::read_to_string(&manifest).unwrap()).unwrap();
    let hw = m.hw.clone().unwrap();
    let name_of = |id: u32| m.probes.iter().find(|p| p.id == id).unwrap().name.clone();
    let mut slot_names: Vec<String> = hw.slots.iter().map(|&id| name_of(id)).collect();
    slot_names.sort();
    assert_eq!(
        slot_names,
        [
            "compute_loop",
            "compute_stage",
            "init_loop",
            "pipeline_top",
            "read_loop",
            "read_stage",
            "shift_loop",
            "tap_loop",
            "write_loop",
            "write_stage"
        ],
        "the build measures every stage and loop"
    );
    // (first start, last end) per probe; calls 1 each, loops 100 trips.
    let times = |name: &str| match name {
        "pipeline_top" => (0, 2000),
        "read_stage" => (10, 510),
        "read_loop" => (12, 500),
        "compute_stage" => (300, 1800),
        "init_loop" => (302, 305),
        "compute_loop" => (310, 1790),
        "shift_loop" => (320, 1700),
        "tap_loop" => (330, 1710),
        "write_stage" => (1490, 1990),
        "write_loop" => (1500, 1980),
        other => panic!("unexpected probe {other}"),
    };
    let d = Dump {
        key: key_of(&m),
        cycles: 2100,
        status: STATUS_FINISHED,
        slots: hw
            .slots
            .iter()
            .map(|&id| {
                let name = name_of(id);
                let (first, last) = times(&name);
                let trips = if name.ends_with("_loop") { 100 } else { 0 };
                slot(u64::from(id), 1, last - first, first, last, trips, last - first)
            })
            .collect(),
    };
    std::fs::write(dir.path().join("dbg.bin"), d.to_bytes()).unwrap();
    let mf = manifest.to_str().unwrap();
    let o = hlsinstr(&["decode", "dbg.bin", "--manifest", mf, "--format", "json"], dir.path());
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let rep: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(rep["version"].as_u64(), Some(1), "only fields were added");
    let got: Vec<(&str, bool, Option<f64>)> = rep["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["name"].as_str().unwrap(), r["pcp"].as_bool().unwrap(), r["stall_pct"].as_f64()))
        .collect();
    assert_eq!(
        got,
        [
            ("pipeline_top", true, None),
            ("read_stage", false, Some(75.0)),
            ("read_loop", false, Some(0.0)),
            ("compute_stage", true, Some(25.0)),
            ("init_loop", true, Some(0.0)),
            ("compute_loop", true, Some(0.0)),
            ("shift_loop", true, Some(0.0)),
            ("tap_loop", true, Some(0.0)),
            ("write_stage", false, Some(75.0)),
            ("write_loop", false, Some(0.0)),
        ]
    );
    let reasons = |n: &str| -> Vec<(String, f64, String)> {
        row(&rep, n)["reasons"]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|r| {
                        let s = |k: &str| r[k].as_str().unwrap().to_string();
                        (s("module"), r["share_pct"].as_f64().unwrap(), s("kind"))
                    })
                    .collect()
            })
            .unwrap_or_default()
    };
    let dep = |m: &str, p: f64| (m.to_string(), p, "dep".to_string());
    assert_eq!(reasons("read_stage"), [dep("compute_stage", 56.25), dep("write_stage", 18.75)]);
    assert_eq!(reasons("write_stage"), [dep("compute_stage", 56.25), dep("read_stage", 18.75)]);
    assert_eq!(reasons("compute_stage"), [dep("read_stage", 12.5), dep("write_stage", 12.5)]);
    assert!(reasons("compute_loop").is_empty() && reasons("pipeline_top").is_empty());

    // The table, then sim's PCP and stall beside the measured ones.
    let o = hlsinstr(&["decode", "dbg.bin", "--manifest", mf], dir.path());
    let t = text(&o.stdout);
    let line = |start: &str| t.lines().find(|l| l.starts_with(start)).unwrap_or_else(|| panic!("{start}\n{t}"));
    let header = line("probe");
    assert!(header.contains("PCP") && header.contains("Stall%") && header.ends_with("Reason"), "{t}");
    assert!(line("  read_stage()").ends_with("compute_stage(56.2, dep), write_stage(18.8, dep)"), "{t}");
    let compute: Vec<&str> = line("  compute_stage()").split_whitespace().collect();
    assert_eq!(compute[8..10], ["Yes", "25.0"], "{t}");
    let id = |n: &str| m.probes.iter().find(|p| p.name == n).unwrap().id;
    let sim = format!(
        r#"{{"format":"hlsinstr-sim-report","version":1,"top":"pipeline_top","total_cycles":1000,
        "rows":[{{"index":0,"probe":{},"cycles":1000,"runs":1,"pcp":true}},
                {{"index":1,"parent":0,"probe":{},"cycles":250,"runs":1,"pcp":false,"stall_pct":75.0}},
                {{"index":2,"parent":0,"probe":{},"cycles":1000,"runs":1,"pcp":true,"stall_pct":0.0}}]}}"#,
        id("pipeline_top"),
        id("read_stage"),
        id("compute_stage")
    );
    std::fs::write(dir.path().join("sim.json"), sim).unwrap();
    let o = hlsinstr(&["decode", "dbg.bin", "--manifest", mf, "--sim", "sim.json", "--format", "json"], dir.path());
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let rep: Value = serde_json::from_slice(&o.stdout).unwrap();
    let side = |n: &str| {
        let r = row(&rep, n);
        (r["pcp"].as_bool(), r["stall_pct"].as_f64(), r["sim_pcp"].as_bool(), r["sim_stall_pct"].as_f64())
    };
    assert_eq!(side("read_stage"), (Some(false), Some(75.0), Some(false), Some(75.0)));
    assert_eq!(side("compute_stage"), (Some(true), Some(25.0), Some(true), Some(0.0)));
    assert_eq!(side("write_stage"), (Some(false), Some(75.0), None, None), "not in the sim report");
    let o = hlsinstr(&["decode", "dbg.bin", "--manifest", mf, "--sim", "sim.json"], dir.path());
    let t = text(&o.stdout);
    let header = t.lines().find(|l| l.starts_with("probe")).unwrap();
    assert!(header.contains("Sim_PCP") && header.contains("Sim_stall%"), "{t}");
    let compute: Vec<&str> =
        t.lines().find(|l| l.starts_with("  compute_stage()")).unwrap().split_whitespace().collect();
    // label, HW_cyc, calls, avg, max, trips, trips/x, %top, then PCP, Stall% and sim's four.
    assert_eq!(compute[8..14], ["Yes", "25.0", "1000", "-33.3", "Yes", "0.0"], "{t}");
}
