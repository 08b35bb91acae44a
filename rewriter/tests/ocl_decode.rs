//! `hlsinstr decode` of the OpenCL iBuffer dump (docs/opencl-dump.md): synthetic dumps with every
//! record kind, with and without the CONFIG records, linear and cyclic units and drops, decoded to
//! exact reports; every error the format names, through the CLI with its exit code; thousands of
//! cut and damaged dumps that must fail clearly or decode, never panic; and end to end, kernels
//! rewritten by `hlsinstr rewrite`, run by `hlsinstr emulate` with a host that calls
//! `write_binary_dump`, decoded: the matrix-vector pair (counts, trips, sequence order of the
//! single work-item and the NDRange kernel), the pointer chase (hits and the out-of-bounds write
//! at its source line) and the snapshot pair around a load (latencies equal the scripted ones).

use hlsinstr::decode::ocl::dump::{
    self, BoundsConfig, Mode, OclDump, Record, Unit, WatchConfig, REC_CONFIG_WATCH, REC_HEADER, REC_HIT, REC_INVARIANT,
    REC_OUT_OF_BOUNDS, REC_SNAPSHOT,
};
use hlsinstr::decode::ocl::{self, output, OclReport};
use hlsinstr::emit::manifest::Manifest;
use hlsinstr::fpga::opencl::dump_key;
use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};

mod common;
use common::{repo, Rng};

fn hlsinstr(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hlsinstr")).args(args).current_dir(cwd).output().expect("run hlsinstr")
}

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

/// A manifest of six probes, one of each kind the decoder knows: a function and its loop, a watch
/// site whose records carry the element's value (with an invariant and the element size), a
/// watch site whose records carry the index (no element size), and a snapshot pair.
const MANIFEST: &str = r#"{
  "format": "hlsinstr-manifest", "version": 1, "tool": "test",
  "kinds": ["modules", "loops", "seq", "watch"],
  "files": [], "skipped": [],
  "probes": [
    {"id": 0, "kind": "function", "file": "k.cl", "line": 3, "column": 6, "function": "k", "name": "k"},
    {"id": 1, "kind": "loop", "file": "k.cl", "line": 5, "column": 5, "function": "k", "name": "rows", "parent": 0},
    {"id": 2, "kind": "watch", "file": "k.cl", "line": 7, "column": 9, "function": "k", "name": "data",
     "watch": {"watched": "data[2..3]", "watched_buffer": "data", "buffer": "data", "access": "write",
               "bound": 8, "hits": true, "range": [2, 3], "invariant": {"expr": "data[2..3]", "op": ">=", "value": 0, "vmin": 0,
               "vmax": 9223372036854775807}, "value": "element", "elem_size": 4}},
    {"id": 3, "kind": "watch", "file": "k.cl", "line": 9, "column": 12, "function": "k", "name": "data",
     "watch": {"watched": "data[0]", "watched_buffer": "data", "buffer": "data", "access": "read", "bound": 8,
               "range": [0, 1], "hits": true, "value": "index"}},
    {"id": 4, "kind": "snapshot", "file": "k.cl", "line": 11, "column": 9, "function": "k", "name": "a",
     "snapshot": {"role": "before", "pair": 5, "access": "a[k]"}},
    {"id": 5, "kind": "snapshot", "file": "k.cl", "line": 12, "column": 9, "function": "k", "name": "a",
     "snapshot": {"role": "after", "pair": 4, "access": "a[k]"}}
  ]
}"#;

fn manifest() -> Manifest {
    serde_json::from_str(MANIFEST).unwrap()
}

fn rec(kind: u32, unit: u32, time: u64, addr: u64, value: i64) -> Record {
    Record { kind, unit, time, addr, value }
}

/// A probe record's value (hlsinstr_probe.cl): trips | end << 32 | seq << 33.
fn probe(unit: u32, time: u64, end: bool, trips: u64, seq: u64) -> Record {
    rec(REC_SNAPSHOT, unit, time, 0, (trips | u64::from(end) << 32 | seq << 33) as i64)
}

const BASE: u64 = 0x1000; // &data[0]

fn unit(mode: Mode, dropped: u64, records: Vec<Record>) -> Unit {
    Unit { mode, dropped, watch: None, bounds: None, records }
}

/// k runs twice; its loop unit is cyclic and lost the first begin (its first record is an end);
/// the new watch site writes data[2] (hit, value 5), data[3] (invariant: value -7) and data[8]
/// (out of bounds); the old one reads data[0] twice and data[9]; 3 snapshot pairs, one `after`
/// missing, unit 5 dropped 12 records.
fn the_dump(m: &Manifest) -> OclDump {
    OclDump {
        key: dump_key(&m.probes),
        units: vec![
            unit(
                Mode::Linear,
                0,
                vec![
                    probe(0, 10, false, 0, 0),
                    probe(0, 50, true, 0, 4),
                    probe(0, 60, false, 0, 5),
                    probe(0, 90, true, 0, 8),
                ],
            ),
            unit(Mode::Cyclic, 0, vec![probe(1, 40, true, 7, 3), probe(1, 65, false, 0, 6), probe(1, 85, true, 2, 7)]),
            Unit {
                mode: Mode::Linear,
                dropped: 0,
                watch: Some(WatchConfig { lo: BASE + 8, hi: BASE + 16, hits: true }),
                bounds: Some(BoundsConfig { lo: BASE, hi: BASE + 32 }),
                records: vec![
                    rec(REC_HIT, 2, 20, BASE + 8, 5),
                    rec(REC_INVARIANT, 2, 30, BASE + 12, -7),
                    rec(REC_OUT_OF_BOUNDS, 2, 35, BASE + 32, 11),
                ],
            },
            unit(
                Mode::Linear,
                0,
                vec![
                    rec(REC_HIT, 3, 22, BASE, 0),
                    rec(REC_OUT_OF_BOUNDS, 3, 36, BASE + 36, 9),
                    rec(REC_HIT, 3, 70, BASE, 0),
                ],
            ),
            unit(
                Mode::Linear,
                0,
                vec![rec(REC_SNAPSHOT, 4, 100, 0, 0), rec(REC_SNAPSHOT, 4, 110, 0, 1), rec(REC_SNAPSHOT, 4, 200, 0, 2)],
            ),
            unit(Mode::Linear, 12, vec![rec(REC_SNAPSHOT, 5, 103, 0, 5), rec(REC_SNAPSHOT, 5, 150, 0, -1)]),
        ],
    }
}

/// Decodes against the manifest JSON `json`.
fn decode_with(bytes: &[u8], json: &str) -> hlsinstr::Result<OclReport> {
    let m: Manifest = serde_json::from_str(json).unwrap();
    ocl::decode(bytes, &m)
}

fn decode(bytes: &[u8], m: &Manifest) -> hlsinstr::Result<OclReport> {
    ocl::decode(bytes, m)
}

/// MANIFEST changed by `edit`, as the typed manifest and its JSON.
fn edited(edit: impl FnOnce(&mut Value)) -> (Manifest, String) {
    let mut v: Value = serde_json::from_str(MANIFEST).unwrap();
    edit(&mut v);
    (serde_json::from_value(v.clone()).unwrap(), v.to_string())
}

const EXPECTED: &str = "\
hlsinstr decode: OpenCL dump, 6 iBuffer units, key KEY

  unit probe                     where     mode   records dropped
     0 function k                k.cl:3:6  linear       4       0
     1 loop rows in k            k.cl:5:5  cyclic       3       0
     2 watch data (write) in k   k.cl:7:9  linear       3       0
     3 watch data (read) in k    k.cl:9:12 linear       3       0
     4 snapshot before a[k] in k k.cl:11:9 linear       3       0
     5 snapshot after a[k] in k  k.cl:12:9 linear       2      12

functions and loops (cycles: end − begin per invocation, min/mean/max; trips per execution):
  unit probe          begins ends open trips   cycles     where
     0 function k          2    2    0         30/35.0/40 k.cl:3:6
     1 loop rows in k      1    2    0 2/4.5/7 20/20.0/20 k.cl:5:5

events by sequence number (7):
  seq time unit event                        where
    0   10    0 begin function k             k.cl:3:6
    3   40    1 end loop rows in k (trips 7) k.cl:5:5
    4   50    0 end function k               k.cl:3:6
    5   60    0 begin function k             k.cl:3:6
    6   65    1 begin loop rows in k         k.cl:5:5
    7   85    1 end loop rows in k (trips 2) k.cl:5:5
    8   90    0 end function k               k.cl:3:6

watch hits (3):
  time unit what element value address where          access
    20    2 HIT  data[2]     5 0x1008  k.cl:7:9 in k  write data
    22    3 HIT  data[0]     - 0x1000  k.cl:9:12 in k read data
    70    3 HIT  data[0]     - 0x1000  k.cl:9:12 in k read data

violations (3):
  time unit what                        element value address where          access
    30    2 INVARIANT `data[2..3] >= 0` data[3]    -7 0x100c  k.cl:7:9 in k  write data
    35    2 OUT_OF_BOUNDS (bound 8)     data[8]    11 0x1020  k.cl:7:9 in k  write data
    36    3 OUT_OF_BOUNDS (bound 8)     data[9]     - 0x1024  k.cl:9:12 in k read data

latencies (time of the k-th `after` record − time of the k-th `before` record):
  `a[k]` in k: snapshot 4 at k.cl:11:9 → snapshot 5 at k.cl:12:9
    2 pairs: min 3, median 21.5, mean 21.5, max 40 cycles
    unpaired: 1 before, 0 after
      2-3 | ######################################## 1
      4-7 |                                          0
     8-15 |                                          0
    16-31 |                                          0
    32-63 | ######################################## 1

warning: unit 5 dropped 12 records: raise HLSINSTR_IBUFFER_DEPTH or use cyclic mode (snapshot after a[k] in k at k.cl:12:9; its numbers below are partial)
warning: unit 1 (loop rows in k at k.cl:5:5): 1 ends without a begin: the unit is cyclic, so their begins were probably overwritten
warning: snapshot pair 4 → 5 (k.cl:11:9): 3 `before` records and 2 `after`, so 1 unpaired (a record was dropped, or the access was still in flight at the read-out)
";

/// Every record kind, CONFIG present (unit 2) and absent (unit 3), a cyclic unit, drops: the
/// terminal report, exactly, and the JSON's numbers.
#[test]
fn every_record_kind_decodes_to_the_exact_report() {
    let m = manifest();
    let rep = decode(&the_dump(&m).to_bytes(), &m).unwrap();
    assert_eq!(output::text(&rep), EXPECTED.replace("KEY", &format!("{:016x}", dump_key(&m.probes))));

    let json: Value = serde_json::from_str(&output::json(&rep)).unwrap();
    assert_eq!((json["format"].as_str(), json["version"].as_u64()), (Some("hlsinstr-ocl-report"), Some(1)));
    assert_eq!(json["order"], "seq");
    assert_eq!(json["units"][1]["mode"], "cyclic");
    assert_eq!(json["units"][2]["watch"], serde_json::json!([BASE + 8, BASE + 16]));
    assert_eq!(json["units"][2]["bounds"], serde_json::json!([BASE, BASE + 32]));
    assert!(json["units"][3].get("watch").is_none());
    assert_eq!(json["units"][5]["dropped"], 12);
    assert_eq!(json["spans"][0]["cycles"], serde_json::json!([40, 30]));
    assert_eq!(json["spans"][1]["trips"], serde_json::json!([7, 2]));
    assert_eq!((json["spans"][1]["unmatched_ends"].as_u64(), json["spans"][1]["open"].as_u64()), (Some(1), Some(0)));
    let seqs: Vec<u64> = json["events"].as_array().unwrap().iter().map(|e| e["seq"].as_u64().unwrap()).collect();
    assert_eq!(seqs, [0, 3, 4, 5, 6, 7, 8]);
    let v = &json["violations"][0];
    assert_eq!(
        (v["kind"].as_str(), v["element"].as_str(), v["index"].as_i64(), v["value"].as_i64(), v["invariant"].as_str()),
        (Some("invariant"), Some("data[3]"), Some(3), Some(-7), Some("data[2..3] >= 0"))
    );
    assert_eq!(
        (v["source"]["line"].as_u64(), v["source"]["column"].as_u64(), v["access"].as_str()),
        (Some(7), Some(9), Some("write"))
    );
    let oob = &json["violations"][2];
    assert_eq!((oob["element"].as_str(), oob["bound"].as_u64(), oob.get("value")), (Some("data[9]"), Some(8), None));
    let l = &json["latencies"][0];
    assert_eq!(l["latencies"], serde_json::json!([3, 40]));
    assert_eq!((l["stats"]["median"].as_f64(), l["unpaired_before"].as_u64()), (Some(21.5), Some(1)));
    let back: OclReport = serde_json::from_str(&output::json(&rep)).unwrap();
    assert_eq!(back, rep);
}

/// Without CONFIG records a watched range gives no element index (the address has no origin),
/// unless the record's value is the index; without the manifest's element size the offset is in
/// bytes; without `seq` the events are in time order, and the report says so.
#[test]
fn less_information_gives_less_detail_not_an_error() {
    let m = manifest();
    let mut d = the_dump(&m);
    d.units[2].watch = None;
    d.units[2].bounds = None;
    let rep = decode(&d.to_bytes(), &m).unwrap();
    assert_eq!((rep.hits[0].element.as_deref(), rep.hits[0].byte_offset), (None, None));
    assert!(output::text(&rep).contains("    20    2 HIT  0x1008      5 0x1008"), "{}", output::text(&rep));

    let (no_size, json) = edited(|v| {
        v["probes"][2]["watch"].as_object_mut().unwrap().remove("elem_size");
    });
    let rep = decode_with(&the_dump(&no_size).to_bytes(), &json).unwrap();
    let offsets: Vec<Option<i64>> = rep.violations.iter().filter(|v| v.unit == 2).map(|v| v.byte_offset).collect();
    assert_eq!(offsets, [Some(4), Some(24)]);
    assert!(output::text(&rep).contains(" data[2..3]+24 bytes "), "{}", output::text(&rep));

    let (no_seq, json) = edited(|v| v["kinds"] = serde_json::json!(["modules", "loops", "watch"]));
    let rep = decode_with(&the_dump(&no_seq).to_bytes(), &json).unwrap();
    assert_eq!(rep.order, "time");
    let times: Vec<u64> = rep.events.iter().map(|e| e.time).collect();
    assert_eq!(times, [10, 40, 50, 60, 65, 85, 90]);
    assert!(output::text(&rep).contains("events by unit time: the probes carry no sequence numbers"));
    assert!(rep.events.iter().all(|e| e.seq.is_none()));
}

/// Sequence numbers are mod 2^30: a run that wrapped still reads in execution order.
#[test]
fn sequence_numbers_that_wrap_keep_the_execution_order() {
    let m = manifest();
    let mut d = the_dump(&m);
    let top = (1u64 << 30) - 2;
    d.units[0].records = vec![
        probe(0, 10, false, 0, top),
        probe(0, 20, true, 0, top + 1),
        probe(0, 30, false, 0, 0),
        probe(0, 40, true, 0, 1),
    ];
    d.units[1].records.clear();
    let rep = decode(&d.to_bytes(), &m).unwrap();
    let seqs: Vec<u64> = rep.events.iter().map(|e| e.seq.unwrap()).collect();
    assert_eq!(seqs, [top, top + 1, 0, 1]);
}

fn write(dir: &Path, name: &str, bytes: &[u8]) {
    std::fs::write(dir.join(name), bytes).unwrap();
}

/// A dump whose HEADER of `unit` is replaced by `head` (the rest as it was).
fn with_record_at(bytes: &[u8], at: usize, r: Record) -> Vec<u8> {
    let mut b = bytes.to_vec();
    b[at..at + 32].copy_from_slice(&r.to_bytes());
    b
}

#[test]
fn errors_say_what_to_do_and_exit_1() {
    let m = manifest();
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "m.json", MANIFEST.as_bytes());
    let good = the_dump(&m).to_bytes();
    let run = |bytes: &[u8], extra: &[&str]| {
        write(dir.path(), "d.bin", bytes);
        let o = hlsinstr(&[&["decode", "d.bin", "--manifest", "m.json"][..], extra].concat(), dir.path());
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
            String::from_utf8_lossy(&o.stdout).into_owned(),
        )
    };
    let (code, err, out) = run(&good, &[]);
    assert_eq!(
        (code, out.as_str()),
        (Some(0), EXPECTED.replace("KEY", &format!("{:016x}", dump_key(&m.probes))).as_str()),
        "{err}"
    );
    let (code, err, out) = run(&good, &["--format", "json"]);
    assert_eq!(code, Some(0));
    assert!(out.contains("\"format\": \"hlsinstr-ocl-report\""));
    assert!(err.contains("hlsinstr decode: warning: unit 5 dropped 12 records"), "{err}");

    let refused = |bytes: &[u8], want: &str| {
        let (code, err, _) = run(bytes, &[]);
        assert_eq!(code, Some(1), "{err}");
        assert!(err.contains("hlsinstr: error: d.bin: ") && err.contains(want), "want `{want}` in: {err}");
    };
    let mut version = good.clone();
    version[8] = 2;
    refused(&version, "OpenCL dump format version 2 is not the one this hlsinstr reads (1)");
    refused(&good[..20], "shorter than its 32 byte header");
    refused(&good[..good.len() - 1], "the dump ends inside unit 5's read-out");
    refused(&good[..100], "the dump ends inside unit 0's read-out");
    let mut long = good.clone();
    long.extend_from_slice(&[0; 32]);
    refused(&long, "32 bytes after the read-out of its last unit");
    let mut other = the_dump(&m);
    other.key ^= 1;
    refused(&other.to_bytes(), "dump is from a different rewrite");
    refused(&other.to_bytes(), "re-run rewrite or pass the matching manifest");
    let mut fewer = the_dump(&m);
    fewer.units.pop();
    refused(&fewer.to_bytes(), "the dump has 5 units but the manifest has 6 probes");
    // Unit 1's HEADER where unit 0's should be; a HEADER naming unit 7.
    let swapped = [&good[..32], &good[192..320], &good[32..192], &good[320..]].concat();
    refused(&swapped, "unit 0's read-out should start with its HEADER record, but the record at byte 32 is a HEADER record (kind 15) of unit 1");
    let head0 = rec(REC_HEADER, 7, 0, 0, 4);
    refused(&with_record_at(&good, 32, head0), "but the record at byte 32 is a HEADER record (kind 15) of unit 7");
    refused(&with_record_at(&good, 32, rec(REC_HEADER, 0, 5, 0, 4)), "unit 0's HEADER says mode 5");
    refused(&with_record_at(&good, 32, rec(REC_HEADER, 0, 0, 0, -1)), "unit 0's HEADER announces -1 records");
    // Record kinds a probe kind cannot produce.
    let mut hit_in_function = the_dump(&m);
    hit_in_function.units[0].records[1] = rec(REC_HIT, 0, 50, BASE, 0);
    refused(
        &hit_in_function.to_bytes(),
        "unit 0 holds a HIT record, which a function probe cannot record (function k at k.cl:3:6)",
    );
    let mut snapshot_in_watch = the_dump(&m);
    snapshot_in_watch.units[3].records[0] = rec(REC_SNAPSHOT, 3, 5, 0, 0);
    refused(&snapshot_in_watch.to_bytes(), "unit 3 holds a SNAPSHOT record, which a watch probe cannot record");
    let mut config_in_loop = the_dump(&m);
    config_in_loop.units[1].watch = Some(WatchConfig { lo: 0, hi: 4, hits: true });
    config_in_loop.units[1].bounds = Some(BoundsConfig { lo: 0, hi: u64::MAX });
    refused(
        &config_in_loop.to_bytes(),
        "unit 1 holds a watch configuration (CONFIG_WATCH), which a loop probe cannot record",
    );
    // CONFIG_WATCH in the middle of the trace; a kind no unit sends; a record of another unit.
    let at = 32 + 5 * 32 + 32 * 3; // unit 1's third record
    refused(
        &with_record_at(&good, at, rec(REC_CONFIG_WATCH, 1, 0, 0, 0)),
        "record 2 of unit 1's read-out (byte 288) is a CONFIG_WATCH record",
    );
    refused(
        &with_record_at(&good, at, rec(9, 1, 0, 0, 0)),
        "is a unknown record (kind 9) of unit 1: it cannot occur there",
    );
    refused(&with_record_at(&good, at, probe(2, 0, true, 0, 0)), "is a SNAPSHOT record (kind 0) of unit 2");
    // Not an OpenCL dump and not a Vitis one either.
    let (code, err, _) = run(b"PK\x03\x04 something else entirely", &[]);
    assert_eq!(code, Some(1));
    assert!(err.contains("not an hlsinstr debug dump") && err.contains("hlsinstr-ocl.bin"), "{err}");
    // --sim belongs to the Vitis dump.
    let (code, err, _) = run(&good, &["--sim", "r.json"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("leave --sim out"), "{err}");
    let (code, err, _) = run(&good, &["--clock", "4ns"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("leave --clock out"), "{err}");
    // No manifest beside the dump.
    let o = hlsinstr(&["decode", "d.bin"], dir.path());
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("give --manifest, the hlsinstr-manifest.json of the .cl rewrite"), "{}", text(&o));
}

/// Bytes whose change cannot make the dump invalid: the reserved word, every HEADER's dropped
/// count, the time, address and value of CONFIG records and of watch and snapshot records.
/// (A function or loop record's value carries its begin/end bit, which changes pairing, not
/// validity: it counts too.)
fn data_bytes(d: &OclDump) -> Vec<bool> {
    let mut data = vec![false; d.to_bytes().len()];
    data[24..32].iter_mut().for_each(|b| *b = true);
    let mut at = 32;
    for u in &d.units {
        data[at + 16..at + 24].iter_mut().for_each(|b| *b = true);
        at += 32;
        let n = u.records.len() + usize::from(u.watch.is_some()) + usize::from(u.bounds.is_some());
        for _ in 0..n {
            data[at + 8..at + 32].iter_mut().for_each(|b| *b = true);
            at += 32;
        }
    }
    data
}

fn decode_all_ways(bytes: &[u8], m: &Manifest) -> Result<(), String> {
    match decode(bytes, m) {
        Ok(rep) => {
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
fn cut_and_damaged_dumps_fail_clearly_and_never_panic() {
    let m = manifest();
    let d = the_dump(&m);
    let good = d.to_bytes();
    assert!(decode_all_ways(&good, &m).is_ok());
    for len in 0..good.len() {
        let e = decode_all_ways(&good[..len], &m).unwrap_err();
        assert!(e.contains("write it again") || e.contains("not an hlsinstr OpenCL dump"), "{len}: {e}");
    }
    let data = data_bytes(&d);
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut decoded, mut refused) = (0, 0);
    for _ in 0..20_000 {
        let mut b = good.clone();
        for _ in 0..1 + rng.below(4) {
            let i = rng.below(b.len());
            b[i] = match rng.below(3) {
                0 => b[i] ^ (1 << rng.below(8)),
                1 => 0xff,
                _ => rng.next() as u8,
            };
        }
        let r = decode_all_ways(&b, &m);
        if (0..b.len()).all(|i| b[i] == good[i] || data[i]) {
            assert!(r.is_ok(), "only data bytes changed: {r:?}");
        }
        match r {
            Ok(()) => decoded += 1,
            Err(_) => refused += 1,
        }
    }
    assert!(decoded > 2000 && refused > 2000, "{decoded} {refused}");
    // Garbage after a valid file header, with unit counts small and huge.
    for round in 0..5_000 {
        let len = 32 + rng.below(600);
        let mut b: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        b[..8].copy_from_slice(dump::MAGIC);
        b[8..12].copy_from_slice(&1u32.to_le_bytes());
        let n = if round % 2 == 0 { rng.next() as u32 } else { (rng.next() % 8) as u32 };
        b[12..16].copy_from_slice(&n.to_le_bytes());
        if round % 3 == 0 && b.len() >= 64 {
            b[32..64].copy_from_slice(&rec(REC_HEADER, 0, 0, 0, rng.next() as i64 >> rng.below(64)).to_bytes());
        }
        let _ = decode_all_ways(&b, &m);
    }
    // Extreme numbers render: times that go backwards, huge trips and counts.
    let mut extreme = the_dump(&m);
    for u in &mut extreme.units {
        u.dropped = u64::MAX;
        for r in &mut u.records {
            r.time = u64::MAX - r.time;
            r.addr = r.addr.wrapping_mul(0x9e37_79b9);
        }
    }
    extreme.units[0].records[1].value = -1;
    assert!(decode_all_ways(&extreme.to_bytes(), &m).is_ok());
}

// ---- end to end: rewrite, emulate with write_binary_dump, decode ----------------------------

/// Runs `cmd` in `cwd`; a missing tool fails the test (g++, python3 and bash build the emulation).
fn run_in(cmd: &mut Command, cwd: &Path) -> Output {
    let tool = cmd.get_program().to_string_lossy().into_owned();
    cmd.current_dir(cwd)
        .env("HLSINSTR_EMU_DEADLOCK_MS", "5000")
        .output()
        .unwrap_or_else(|e| panic!("cannot run {tool}: {e}"))
}

fn passed(o: &Output) -> bool {
    o.status.success() && text(o).lines().any(|l| l.trim() == "PASS")
}

/// `hlsinstr decode DUMP --manifest DIR/hlsinstr-manifest.json --format json`.
fn decode_json(cwd: &Path, dump: &str, instr: &str) -> Value {
    let manifest = format!("{instr}/hlsinstr-manifest.json");
    let o = hlsinstr(&["decode", dump, "--manifest", &manifest, "--format", "json"], cwd);
    assert!(o.status.success(), "hlsinstr decode {dump}:\n{}", text(&o));
    serde_json::from_str(&String::from_utf8_lossy(&o.stdout)).unwrap()
}

fn span<'a>(rep: &'a Value, name: &str) -> &'a Value {
    rep["spans"].as_array().unwrap().iter().find(|s| s["name"] == name).unwrap_or_else(|| panic!("no span {name}"))
}

/// Begins, ends and trips of each span: `name begins/ends trips`.
fn counts(rep: &Value) -> Vec<String> {
    rep["spans"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            format!(
                "{} {}/{} trips {}",
                s["name"].as_str().unwrap(),
                s["begins"],
                s["ends"],
                s.get("trips").unwrap_or(&Value::Null)
            )
        })
        .collect()
}

/// The events as `label begin`, `label end`, `label end trips N`.
fn events(rep: &Value) -> Vec<String> {
    rep["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| match e.get("trips") {
            Some(t) => format!("{} {} trips {t}", e["label"].as_str().unwrap(), e["event"].as_str().unwrap()),
            None => format!("{} {}", e["label"].as_str().unwrap(), e["event"].as_str().unwrap()),
        })
        .collect()
}

/// examples/opencl/mxv rewritten with modules,loops,seq, run by `hlsinstr emulate` with the
/// example's OpenCL host, which writes one binary dump per kernel, decoded: exact begin/end counts, trips 4 and 3, the
/// execution order by sequence number (as rewriter/tests/opencl.rs predicts from the emulation's
/// work-item order), every event at its probe's source line.
#[test]
fn matrix_vector_dumps_decode_to_exact_counts_trips_and_sequence_order() {
    let work = tempfile::tempdir().unwrap();
    let w = work.path();
    let kernels = repo().join("examples/opencl/mxv/kernels");
    let o = hlsinstr(&["rewrite", "--probes", "modules,loops,seq", "--out", "instr", kernels.to_str().unwrap()], w);
    assert!(o.status.success(), "hlsinstr rewrite:\n{}", text(&o));
    // The example's OpenCL host: one dump per kernel, mxv_single.bin and mxv_ndrange.bin.
    let host = repo().join("examples/opencl/mxv/host.cpp");
    let o = hlsinstr(&["emulate", "instr", "--host", host.to_str().unwrap(), "--depth", "64", "-o", "mxv"], w);
    assert!(o.status.success(), "hlsinstr emulate:\n{}", text(&o));
    let o = run_in(Command::new(w.join("mxv")).env("HLSINSTR_DUMP_DIR", w), w);
    assert!(passed(&o) && w.join("mxv_single.bin").is_file() && w.join("mxv_ndrange.bin").is_file(), "{}", text(&o));

    let common::MxvOrders { single, ndrange, .. } = common::mxv_orders(4, 3); // the example's host.cpp: 4 x 3

    let rep = decode_json(w, "mxv_single.bin", "instr");
    assert_eq!(
        counts(&rep),
        [
            "dot 4/4 trips null",
            "VITIS_LOOP_7_1 4/4 trips [3,3,3,3]",
            "mxv_single 1/1 trips null",
            "VITIS_LOOP_16_1 1/1 trips [4]",
            "mxv_ndrange 0/0 trips null"
        ]
    );
    assert_eq!(rep["order"], "seq");
    assert_eq!(events(&rep), single);
    let nd = decode_json(w, "mxv_ndrange.bin", "instr");
    assert_eq!(
        counts(&nd),
        [
            "dot 4/4 trips null",
            "VITIS_LOOP_7_1 4/4 trips [3,3,3,3]",
            "mxv_single 0/0 trips null",
            "VITIS_LOOP_16_1 0/0 trips null",
            "mxv_ndrange 4/4 trips null"
        ]
    );
    assert_eq!(events(&nd), ndrange);
    for r in [&rep, &nd] {
        // Dense sequence numbers, times in the same order, every event at its probe's line.
        let evs = r["events"].as_array().unwrap();
        let seqs: Vec<u64> = evs.iter().map(|e| e["seq"].as_u64().unwrap()).collect();
        assert_eq!(seqs, (seqs[0]..seqs[0] + evs.len() as u64).collect::<Vec<_>>());
        assert!(evs.windows(2).all(|p| p[0]["time"].as_u64() <= p[1]["time"].as_u64()));
        for e in evs {
            let line = match e["label"].as_str().unwrap() {
                "function dot" => 5,
                "loop VITIS_LOOP_7_1 in dot" => 7,
                "function mxv_single" => 14,
                "loop VITIS_LOOP_16_1 in mxv_single" => 16,
                _ => 21,
            };
            assert_eq!(
                (e["source"]["file"].as_str(), e["source"]["line"].as_u64()),
                (Some("mxv.cl"), Some(line)),
                "{e}"
            );
        }
        assert!(r["units"].as_array().unwrap().iter().all(|u| u["dropped"] == 0 && u["mode"] == "linear"));
        assert!(r.get("warnings").is_none(), "{r}");
    }
    // Every function's cycles cover its loop's: the unit times are one clock.
    let (f, l) = (span(&rep, "mxv_single"), span(&rep, "VITIS_LOOP_16_1"));
    assert!(f["cycles"][0].as_i64() >= l["cycles"][0].as_i64(), "{f} {l}");

    // The terminal face, and a manifest of another rewrite refused.
    let o = hlsinstr(&["decode", "mxv_single.bin", "--manifest", "instr/hlsinstr-manifest.json"], w);
    let t = text(&o);
    assert!(
        t.contains("events by sequence number (20):") && t.contains("end loop VITIS_LOOP_16_1 in mxv_single (trips 4)"),
        "{t}"
    );
    let o = hlsinstr(&["rewrite", "--probes", "modules", "--out", "other", kernels.to_str().unwrap()], w);
    assert!(o.status.success(), "{}", text(&o));
    let o = hlsinstr(&["decode", "mxv_single.bin", "--manifest", "other/hlsinstr-manifest.json"], w);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o).contains("the dump has 5 units but the manifest has 3 probes"), "{}", text(&o));
}

/// tests/opencl/watch rewritten with `--probes watch --watch 'data[0]' --bounds data:8`, emulated
/// with a host that writes the binary dump: the hits on data[0] (the write, the read, the alias
/// `*out`) and the planted write to data[8] at chase.cl:7, `data[p] = (int)s;`, address
/// data + 32, bound 8.
#[test]
fn pointer_chase_dump_decodes_to_the_hits_and_the_out_of_bounds_write_at_its_line() {
    let work = tempfile::tempdir().unwrap();
    let w = work.path();
    let kernel = repo().join("tests/opencl/watch/kernels/chase.cl");
    let o = hlsinstr(
        &[
            "rewrite",
            "--probes",
            "watch",
            "--watch",
            "data[0]",
            "--bounds",
            "data:8",
            "--out",
            "wp",
            kernel.to_str().unwrap(),
        ],
        w,
    );
    assert!(o.status.success(), "hlsinstr rewrite:\n{}", text(&o));
    let host = repo().join("tests/opencl/watch/host.cpp");
    let o = hlsinstr(&["emulate", "wp", "--host", host.to_str().unwrap(), "--depth", "16", "--run"], w);
    assert!(passed(&o), "hlsinstr emulate --run:\n{}", text(&o));
    let base: u64 = text(&o).lines().find_map(|l| l.strip_prefix("base ")).unwrap().trim().parse().unwrap();
    let rep = decode_json(w, "hlsinstr-ocl.bin", "wp");
    let manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(w.join("wp/hlsinstr-manifest.json")).unwrap()).unwrap();
    let values = manifest["probes"][0]["watch"]["value"] == "element";

    let site = |e: &Value| {
        format!(
            "{} unit {} {} {}:{}:{} in {} {} {} data+{}",
            e["kind"].as_str().unwrap(),
            e["unit"],
            e["element"].as_str().unwrap_or("?"),
            e["source"]["file"].as_str().unwrap(),
            e["source"]["line"],
            e["source"]["column"],
            e["source"]["function"].as_str().unwrap(),
            e["access"].as_str().unwrap(),
            e["buffer"].as_str().unwrap(),
            e["addr"].as_u64().unwrap() - base
        )
    };
    let mut hits: Vec<String> = rep["hits"].as_array().unwrap().iter().map(site).collect();
    hits.sort(); // the units' clocks tie; the order of ties is the units'
    assert_eq!(
        hits,
        [
            "hit unit 0 data[0] chase.cl:7:9 in chase write data data+0",
            "hit unit 0 data[0] chase.cl:7:9 in chase write data data+0",
            "hit unit 1 data[0] chase.cl:10:12 in chase read data data+0",
            "hit unit 3 data[0] chase.cl:10:6 in chase write out data+0",
        ]
    );
    let v = rep["violations"].as_array().unwrap();
    assert_eq!(
        v.iter().map(site).collect::<Vec<_>>(),
        ["out_of_bounds unit 0 data[8] chase.cl:7:9 in chase write data data+32"]
    );
    assert_eq!(v[0]["bound"], 8);
    // A value is shown when the records carry the element's value (manifest `watch.value:
    // element`); records of the first watch rewrites carry the index, shown as the element.
    // (What the value is, is the recording's business: the synthetic tests check it is passed on.)
    assert_eq!(v[0].get("value").is_some(), values, "{}", v[0]);
    let line7 = std::fs::read_to_string(&kernel).unwrap().lines().nth(6).unwrap().trim().to_string();
    assert_eq!(line7, "data[p] = (int)s;");

    let o = hlsinstr(&["decode", "hlsinstr-ocl.bin", "--manifest", "wp/hlsinstr-manifest.json"], w);
    let t = text(&o);
    assert!(t.contains("violations (1):") && t.contains("OUT_OF_BOUNDS (bound 8) data[8]"), "{t}");
    assert!(
        t.lines()
            .any(|l| l.contains("OUT_OF_BOUNDS") && l.contains("chase.cl:7:9 in chase") && l.ends_with("write data")),
        "{t}"
    );
}

/// opencl-lib/tests/snapshot.cl (take_snapshot by hand around a load whose latency the emulation
/// scripts: 3, 40, 3, 17, 0, 3 cycles) with a hand-written manifest of kind `snapshot` (what
/// `--probes stall` writes): `hlsinstr emulate` compiles the manifest's key in, and decode gives
/// exactly the scripted latencies, their summary and histogram.
#[test]
fn snapshot_pair_latencies_decode_to_the_scripted_ones() {
    let work = tempfile::tempdir().unwrap();
    let w = work.path();
    std::fs::create_dir_all(w.join("snap")).unwrap();
    let cl = std::fs::read_to_string(repo().join("opencl-lib/tests/snapshot.cl")).unwrap();
    std::fs::write(w.join("snap/snapshot.cl"), &cl).unwrap();
    let line_of = |needle: &str| cl.lines().position(|l| l.contains(needle)).unwrap() + 1;
    let (before, after) = (line_of("take_snapshot(0, k)"), line_of("take_snapshot(1, v)"));
    let manifest = serde_json::json!({
        "format": "hlsinstr-manifest", "version": 1, "tool": "test", "kinds": ["stall"], "skipped": [],
        "files": [{"path": "snapshot.cl", "original_sha256": "", "instrumented_sha256": "", "probes": 2, "line_map": []}],
        "probes": [
            {"id": 0, "kind": "snapshot", "file": "snapshot.cl", "line": before, "column": 9, "function": "dot",
             "name": "a", "snapshot": {"role": "before", "pair": 1, "access": "a[k]"}},
            {"id": 1, "kind": "snapshot", "file": "snapshot.cl", "line": after, "column": 9, "function": "dot",
             "name": "a", "snapshot": {"role": "after", "pair": 0, "access": "a[k]"}}
        ]
    });
    std::fs::write(w.join("snap/hlsinstr-manifest.json"), manifest.to_string()).unwrap();
    std::fs::write(
        w.join("host.cpp"),
        r#"#include "hlsinstr_emu.h"
#include <cstdio>
using namespace hlsinstr_emu;
int main() {
    const int a[6] = {5, -1, 7, 2, 9, 4}, latency[6] = {3, 40, 3, 17, 0, 3};
    long out = 0;
    for (unsigned u = 0; u < HLSINSTR_NUM_IBUFFERS; ++u) {
        ibuffer_command(u, kCmdResetLinear);
        ibuffer_command(u, kCmdSample);
    }
    run("dot", {&a[0], &latency[0], 6u, &out});
    const int errors = (out != 26) + write_binary_dump();
    std::printf("%s\n", errors ? "FAIL" : "PASS");
    return errors;
}
"#,
    )
    .unwrap();
    let o = hlsinstr(&["emulate", "snap", "--host", "host.cpp", "--depth", "16", "--run"], w);
    assert!(passed(&o), "hlsinstr emulate --run:\n{}", text(&o));
    let rep = decode_json(w, "hlsinstr-ocl.bin", "snap");
    let l = &rep["latencies"][0];
    assert_eq!(l["latencies"], serde_json::json!([3, 40, 3, 17, 0, 3]));
    assert_eq!((l["before"].as_u64(), l["after"].as_u64(), l["access"].as_str()), (Some(0), Some(1), Some("a[k]")));
    let s = &l["stats"];
    assert_eq!(
        (s["count"].as_u64(), s["min"].as_i64(), s["median"].as_f64(), s["mean"].as_f64(), s["max"].as_i64()),
        (Some(6), Some(0), Some(3.0), Some(11.0), Some(40))
    );
    let h: Vec<(i64, i64, u64)> = l["histogram"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| (b["lo"].as_i64().unwrap(), b["hi"].as_i64().unwrap(), b["count"].as_u64().unwrap()))
        .collect();
    assert_eq!(h, [(0, 0, 1), (1, 1, 0), (2, 3, 3), (4, 7, 0), (8, 15, 0), (16, 31, 1), (32, 63, 1)]);
    assert_eq!((l["unpaired_before"].as_u64(), l["unpaired_after"].as_u64()), (Some(0), Some(0)));
    let o = hlsinstr(&["decode", "hlsinstr-ocl.bin", "--manifest", "snap/hlsinstr-manifest.json"], w);
    let t = text(&o);
    assert!(
        t.contains(&format!(
            "  `a[k]` in dot: snapshot 0 at snapshot.cl:{before}:9 → snapshot 1 at snapshot.cl:{after}:9\n"
        )),
        "{t}"
    );
    assert!(t.contains("    6 pairs: min 0, median 3.0, mean 11.0, max 40 cycles\n"), "{t}");
    assert!(t.contains("      2-3 | ######################################## 3\n"), "{t}");
}
