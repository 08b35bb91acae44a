//! The branch trace of an OpenCL dump (`--probes branches` on `.cl` kernels, docs/branches.md).
//! Each `trace` unit holds one traced function's records: SNAPSHOT records whose `addr` is the
//! work-item and whose `value` is `site << 32 | trips` (opencl-lib `hlsinstr_probe.cl`). The
//! records of one work-item are in order in their unit; they are split into calls at the
//! function's entry record and each call is replayed on the function's graph from the manifest
//! ([`crate::cfg::replay`]), giving per-line counts, decision ratios and hot paths (as `sim`
//! gives them for C++) and the path of each call.

use super::dump::{Mode, OclDump};
use crate::cfg::replay::{Decoder, SiteRecord, TracedFunction};
use crate::emit::manifest::Manifest;
use crate::error::{Error, ErrorKind, Result};
use crate::sim::coverage::{self, Coverage};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};

/// Calls whose path the report lists (the rest are only counted).
pub const CALLS_SHOWN: usize = 256;
/// Statements of a call's path listed (the rest are only counted).
pub const PATH_LINES: usize = 4096;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OclBranches {
    /// Per-line counts, decisions with their outcomes, hot paths; over every call decoded.
    pub coverage: Coverage,
    /// Calls decoded, in every unit.
    pub calls: u64,
    /// `paths` lists at most this many calls, each with at most `path_lines_cap` lines.
    pub calls_shown_cap: usize,
    pub path_lines_cap: usize,
    pub paths: Vec<CallPath>,
}

/// One call of a traced function by one work-item, as its records say it ran.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CallPath {
    pub unit: u32,
    pub function: String,
    pub file: String,
    /// `get_global_id(0) + get_global_size(0) * (get_global_id(1) + get_global_size(1) *
    /// get_global_id(2))` of the work-item (0 in a single work-item kernel).
    pub work_item: u64,
    /// This work-item's call of the function, from 0.
    pub call: u64,
    /// Unit time of the entry's record and of the call's last record.
    pub begin: u64,
    pub end: u64,
    /// The call's records: `(site, source line, trips)`, trips for a loop's exit.
    pub records: Vec<PathRecord>,
    /// Source lines of the statements the call ran, in order (the first `path_lines_cap`).
    pub lines: Vec<usize>,
    /// Statements the call ran.
    pub length: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PathRecord {
    pub site: u32,
    pub kind: String,
    pub line: usize,
    pub time: u64,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub trips: Option<u64>,
}

/// The branch report of `dump` (none when the manifest has no traced OpenCL function), and
/// warnings for calls cut off by a full or wrapped unit.
pub fn build(dump: &OclDump, manifest: &Manifest, warnings: &mut Vec<String>) -> Result<Option<OclBranches>> {
    let Some(trace) = &manifest.branches else { return Ok(None) };
    if !trace.functions.iter().any(|f| f.unit.is_some()) {
        return Ok(None);
    }
    let mut cov = Coverage::default();
    let mut files = coverage::LineCounts::new();
    let mut out = OclBranches {
        coverage: Coverage::default(),
        calls: 0,
        calls_shown_cap: CALLS_SHOWN,
        path_lines_cap: PATH_LINES,
        paths: Vec::new(),
    };
    for f in &trace.functions {
        let Some(u) = f.unit else { continue };
        let unit = dump.units.get(u as usize).ok_or_else(|| {
            Error::new(
                ErrorKind::BadInput,
                format!("the manifest traces {} into unit {u}, which the dump lacks", f.function),
            )
        })?;
        let sites: HashMap<u32, (&str, usize)> =
            trace.sites.iter().filter(|s| s.unit == Some(u)).map(|s| (s.id, (s.kind.as_str(), s.line))).collect();
        let inline: Vec<u32> = trace
            .sites
            .iter()
            .filter(|s| {
                s.unit == Some(u)
                    && matches!(s.kind.as_str(), "ternary_true" | "ternary_false" | "and_right" | "or_right")
            })
            .map(|s| s.id)
            .collect();
        let functions = std::slice::from_ref(f);
        let mut decoder = Decoder::new(functions, &inline, true);
        decoder.path_limit = PATH_LINES;
        // Records per work-item, in order.
        let mut items: BTreeMap<u64, Vec<(SiteRecord, u64)>> = BTreeMap::new();
        for r in &unit.records {
            let v = r.value as u64;
            let site = (v >> 32) as u32;
            if !sites.contains_key(&site) {
                return Err(Error::new(
                    ErrorKind::BadInput,
                    format!(
                        "unit {u} ({}) holds a record of site {site}, which the manifest does not have: the dump is \
                         not from this manifest's rewrite; pass the matching manifest",
                        f.function
                    ),
                ));
            }
            let rec = SiteRecord { site, value: Some(v & 0xffff_ffff) };
            items.entry(r.addr).or_default().push((rec, r.time));
            cov.records += 1;
        }
        let partial = unit.mode == Mode::Cyclic || unit.dropped > 0;
        for (&item, recs) in &items {
            let starts: Vec<usize> = (0..recs.len()).filter(|&i| recs[i].0.site == f.entry).collect();
            if starts.first() != Some(&0) {
                let lost = starts.first().copied().unwrap_or(recs.len());
                if !partial {
                    return Err(misfit(u, f, item, "records before its first entry record"));
                }
                warnings.push(format!(
                    "unit {u} ({}), work-item {item}: {lost} records of a call whose start the unit lost are not decoded",
                    f.function
                ));
            }
            for (k, &s) in starts.iter().enumerate() {
                let e = starts.get(k + 1).copied().unwrap_or(recs.len());
                let call: Vec<SiteRecord> = recs[s..e].iter().map(|r| r.0).collect();
                decoder.counts.path.clear();
                decoder.counts.path_len = 0;
                if let Err(why) = decoder.thread(&call) {
                    if partial && e == recs.len() {
                        warnings.push(format!(
                            "unit {u} ({}), work-item {item}: its last call was cut off by the full unit and is not decoded",
                            f.function
                        ));
                        continue;
                    }
                    return Err(misfit(u, f, item, &why.to_string()));
                }
                out.calls += 1;
                if out.paths.len() < CALLS_SHOWN {
                    out.paths.push(CallPath {
                        unit: u,
                        function: f.function.clone(),
                        file: f.file.clone(),
                        work_item: item,
                        call: k as u64,
                        begin: recs[s].1,
                        end: recs[e - 1].1,
                        records: recs[s..e]
                            .iter()
                            .map(|(r, time)| {
                                let (kind, line) = sites.get(&r.site).copied().unwrap_or(("?", 0));
                                let trips = (kind == "loop_exit").then_some(r.value.unwrap_or(0));
                                PathRecord { site: r.site, kind: kind.to_string(), line, time: *time, trips }
                            })
                            .collect(),
                        lines: decoder.counts.path.iter().map(|p| p.1).collect(),
                        length: decoder.counts.path_len,
                    });
                }
            }
        }
        let site_line: HashMap<u32, usize> = sites.iter().map(|(&id, &(_, line))| (id, line)).collect();
        coverage::add_counts(&mut cov, &mut files, &decoder.counts, functions, &site_line);
    }
    cov.files = coverage::files_of(files);
    out.coverage = cov;
    Ok(Some(out))
}

fn misfit(u: u32, f: &TracedFunction, item: u64, why: &str) -> Error {
    Error::new(
        ErrorKind::BadInput,
        format!(
            "the branch trace of unit {u} ({}), work-item {item}, does not fit the manifest's graph: {why}; is the dump \
             from this manifest's rewrite?",
            f.function
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::ocl::dump::{Record, Unit, REC_SNAPSHOT};
    use crate::emit::manifest::{BranchTrace, SiteEntry};

    /// `f` traced into unit 0: its manifest (sites: entry 0, return 1, the `then` arm 2).
    fn manifest() -> Manifest {
        let src = "int f(int a) {\n  if (a > 0)\n    a++;\n  return a;\n}\n";
        let tree = crate::parse::parse(crate::parse::Lang::OpenCl, src, None);
        let body = tree.root_node().named_child(0).unwrap().child_by_field_name("body").unwrap();
        let cfg = crate::cfg::build::function(body, src).unwrap();
        let (mut id, mut edits, mut sites) = (0, Vec::new(), Vec::new());
        let cl = crate::cfg::plan::NoDestructor { unit: 0, open_at: 14, falls_off_at: None };
        let t = crate::cfg::plan::plan_function(0, &cfg, "P", Some(cl), &mut id, &mut edits, &mut sites).unwrap();
        let sites = sites
            .iter()
            .map(|s| SiteEntry {
                id: s.id,
                kind: s.kind.name().into(),
                file: "k.cl".into(),
                line: s.line,
                column: s.col,
                function: "f".into(),
                parent: s.parent,
                unit: Some(0),
            })
            .collect::<Vec<_>>();
        assert_eq!(
            sites.iter().map(|s| (s.id, s.kind.as_str())).collect::<Vec<_>>(),
            [(0, "entry"), (1, "return"), (2, "then")]
        );
        let f = TracedFunction {
            function: "f".into(),
            file: "k.cl".into(),
            entry: 0,
            ret: 1,
            graph: t.graph,
            unit: Some(0),
        };
        let mut m: Manifest = serde_json::from_str(
            r#"{"format":"hlsinstr-manifest","version":1,"tool":"t","kinds":[],"files":[],"skipped":[],"probes":[]}"#,
        )
        .unwrap();
        m.branches = Some(BranchTrace { id_bits: 2, sites, functions: vec![f], unprobed: Vec::new() });
        m
    }

    /// (work-item, site) records of unit 0.
    fn dump(recs: &[(u64, u32)], dropped: u64) -> OclDump {
        let records = recs
            .iter()
            .enumerate()
            .map(|(t, &(item, site))| Record {
                kind: REC_SNAPSHOT,
                unit: 0,
                time: t as u64,
                addr: item,
                value: (u64::from(site) << 32) as i64,
            })
            .collect();
        OclDump { key: 0, units: vec![Unit { mode: Mode::Linear, dropped, watch: None, bounds: None, records }] }
    }

    #[test]
    fn interleaved_work_items_are_decoded_apart_and_a_cut_call_is_a_warning_only_when_the_unit_lost_records() {
        let m = manifest();
        // Work-item 1 takes the arm, work-item 0 does not, then work-item 0 calls again and takes it.
        let recs = [(0, 0), (1, 0), (1, 2), (0, 1), (1, 1), (0, 0), (0, 2), (0, 1)];
        let mut warnings = Vec::new();
        let b = build(&dump(&recs, 0), &m, &mut warnings).unwrap().unwrap();
        assert!(warnings.is_empty(), "{warnings:?}");
        let paths: Vec<(u64, u64, Vec<usize>)> =
            b.paths.iter().map(|p| (p.work_item, p.call, p.lines.clone())).collect();
        assert_eq!(paths, [(0, 0, vec![4]), (0, 1, vec![3, 4]), (1, 0, vec![3, 4])]);
        assert_eq!(b.coverage.files[0].lines.get(&3), Some(&2));
        // The last call of work-item 0 cut off: a warning when the unit dropped records, else an error.
        let cut = &recs[..7];
        let b = build(&dump(cut, 1), &m, &mut warnings).unwrap().unwrap();
        assert_eq!(b.calls, 2);
        assert!(warnings[0].contains("work-item 0: its last call was cut off"), "{warnings:?}");
        let e = build(&dump(cut, 0), &m, &mut Vec::new()).unwrap_err();
        assert!(e.to_string().contains("does not fit the manifest's graph"), "{e}");
        // A unit that lost a call's start: its rest is left out, with a warning.
        let mut warnings = Vec::new();
        let b = build(&dump(&recs[2..], 3), &m, &mut warnings).unwrap().unwrap();
        assert_eq!(b.calls, 1, "{warnings:?}");
        assert!(warnings[0].contains("work-item 0: 1 records of a call whose start the unit lost"), "{warnings:?}");
        assert!(warnings[1].contains("work-item 1: 2 records of a call whose start the unit lost"), "{warnings:?}");
    }
}
