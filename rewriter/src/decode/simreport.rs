//! The part of an `hlsinstr sim --format json` report (`hlsinstr-sim-report` versions 1 and 2,
//! docs/sim-report.schema.json) that decode puts beside the hardware numbers. Other fields are
//! ignored, so a report with more fields still reads.

use crate::error::{Error, ErrorKind, Result};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;

#[derive(Debug, Clone, Deserialize, PartialEq)]
pub struct SimReport {
    pub format: String,
    pub version: u32,
    pub top: String,
    pub total_cycles: u64,
    #[serde(default)]
    pub clock_ns: Option<SimClock>,
    pub rows: Vec<SimRow>,
}

#[derive(Debug, Clone, Copy, Deserialize, PartialEq)]
pub struct SimClock {
    pub value: f64,
}

/// One site of the dynamic call tree: several rows may share a probe (a module called from two
/// places).
#[derive(Debug, Clone, Deserialize, PartialEq)]
pub struct SimRow {
    /// The row's position; `parent` refers to it.
    #[serde(default)]
    pub index: Option<usize>,
    #[serde(default)]
    pub parent: Option<usize>,
    pub probe: u32,
    pub cycles: u64,
    #[serde(default)]
    pub runs: u64,
    #[serde(default)]
    pub trips: Option<u64>,
    #[serde(default)]
    pub pcp: bool,
    /// Share of the parent's (scope's) time this site is not busy.
    #[serde(default)]
    pub stall_pct: Option<f64>,
    /// The probe's source: `module` or `loop`, its name (function, loop label or Vitis' loop
    /// name), its function, file and header line.
    #[serde(default)]
    pub kind: Option<String>,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub function: Option<String>,
    #[serde(default)]
    pub file: Option<String>,
    #[serde(default)]
    pub line: Option<usize>,
}

/// Where a probe is in the sources: `(module|loop, function, file, line)`. The same in the sim
/// report and in the manifest of an in-FPGA build of the same sources, whose probe ids differ
/// (the in-FPGA build has no `maxi` probes, and one probe per perfect loop nest).
pub type SourceKey = (String, String, String, usize);

/// Per probe, over the sites that carry it.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SimTotals {
    /// Sums.
    pub cycles: u64,
    pub runs: u64,
    /// Some site is on the critical path.
    pub pcp: bool,
    /// The sites' stall rates weighted by their scopes' cycles (the stalled share of all their
    /// scopes' time); the plain mean when a scope is not in the report.
    pub stall_pct: Option<f64>,
}

impl SimReport {
    /// Parse the JSON, refusing other formats and versions. Version 1 and 2 carry the fields read
    /// here alike (2 changed what a pipelined loop's `il` means and added the per-call estimate).
    pub fn parse(text: &str) -> Result<SimReport> {
        let bad = |m: String| Error::new(ErrorKind::BadInput, m);
        let v: serde_json::Value = serde_json::from_str(text)
            .map_err(|e| bad(format!("not JSON ({e}): give the output of `hlsinstr sim --format json`")))?;
        let format = v.get("format").and_then(|f| f.as_str()).unwrap_or_default();
        let version = v.get("version").and_then(|f| f.as_u64()).unwrap_or_default();
        if format != crate::sim::report::FORMAT || !(1..=u64::from(crate::sim::report::VERSION)).contains(&version) {
            return Err(bad(format!(
                "not an hlsinstr sim report of version {} (format `{format}` version {version}): give the output of \
                 `hlsinstr sim --format json` from this hlsinstr",
                crate::sim::report::VERSION
            )));
        }
        serde_json::from_value(v)
            .map_err(|e| bad(format!("the sim report is incomplete ({e}): run `hlsinstr sim --format json` again")))
    }

    pub fn read(path: &Path) -> Result<SimReport> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, &e))?;
        SimReport::parse(&text).map_err(|e| e.at(path))
    }

    /// The source of every probe whose rows say it (reports of this hlsinstr do).
    pub fn sources(&self) -> BTreeMap<u32, SourceKey> {
        self.rows
            .iter()
            .filter_map(|r| {
                let key = (r.kind.clone()?, r.function.clone()?, r.file.clone()?, r.line?);
                Some((r.probe, key))
            })
            .collect()
    }

    /// Cycles, runs, PCP and stall per probe id, over every row (site) with that probe.
    pub fn per_probe(&self) -> BTreeMap<u32, SimTotals> {
        let cycles_at: BTreeMap<usize, u64> = self.rows.iter().filter_map(|r| Some((r.index?, r.cycles))).collect();
        let mut out: BTreeMap<u32, SimTotals> = BTreeMap::new();
        // Per probe: the stall rates with their scopes' cycles (None: scope not in the report).
        let mut stalls: BTreeMap<u32, Vec<(f64, Option<u64>)>> = BTreeMap::new();
        for r in &self.rows {
            let t = out.entry(r.probe).or_default();
            t.cycles = t.cycles.saturating_add(r.cycles);
            t.runs = t.runs.saturating_add(r.runs);
            t.pcp |= r.pcp;
            if let Some(s) = r.stall_pct.filter(|s| s.is_finite()) {
                stalls.entry(r.probe).or_default().push((s, r.parent.and_then(|p| cycles_at.get(&p).copied())));
            }
        }
        for (probe, sites) in stalls {
            let weight: f64 = sites.iter().filter_map(|s| s.1).map(|w| w as f64).sum();
            let stall = if sites.iter().all(|s| s.1.is_some()) && weight > 0.0 {
                sites.iter().map(|&(s, w)| s * w.unwrap_or(0) as f64).sum::<f64>() / weight
            } else {
                sites.iter().map(|s| s.0).sum::<f64>() / sites.len() as f64
            };
            if let Some(t) = out.get_mut(&probe) {
                t.stall_pct = Some(stall);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_sites_of_a_probe_and_ignores_other_fields() {
        let text = r#"{"format":"hlsinstr-sim-report","version":1,"top":"t","total_cycles":50,
            "clock_ns":{"value":4.0,"source":"project"},"extra":[1],
            "rows":[{"probe":3,"cycles":10,"runs":1,"pcp":true},{"probe":3,"cycles":5,"runs":2},
                    {"probe":1,"cycles":7,"runs":1,"trips":4}]}"#;
        let r = SimReport::parse(text).unwrap();
        let p = r.per_probe();
        assert_eq!(p[&3], SimTotals { cycles: 15, runs: 3, pcp: true, stall_pct: None });
        assert_eq!(p[&1].cycles, 7);
        assert_eq!(r.clock_ns.unwrap().value, 4.0);
    }

    #[test]
    fn stall_of_a_probe_weights_its_sites_by_their_scopes() {
        // Probe 5 at two sites: 50 % of a 100-cycle scope and 10 % of a 300-cycle scope stall
        // 50 + 30 of 400 cycles: 20 %. Probe 6's second site has no scope in the report: mean.
        let text = r#"{"format":"hlsinstr-sim-report","version":1,"top":"t","total_cycles":400,
            "rows":[{"index":0,"probe":1,"cycles":100},{"index":1,"probe":1,"cycles":300},
                    {"index":2,"parent":0,"probe":5,"cycles":50,"stall_pct":50.0,"pcp":false},
                    {"index":3,"parent":1,"probe":5,"cycles":270,"stall_pct":10.0,"pcp":true},
                    {"index":4,"parent":0,"probe":6,"cycles":1,"stall_pct":99.0},
                    {"index":5,"parent":9,"probe":6,"cycles":1,"stall_pct":1.0}]}"#;
        let p = SimReport::parse(text).unwrap().per_probe();
        assert_eq!((p[&5].pcp, p[&5].stall_pct), (true, Some(20.0)));
        assert_eq!((p[&6].pcp, p[&6].stall_pct), (false, Some(50.0)));
        assert_eq!(p[&1].stall_pct, None);
    }

    #[test]
    fn refuses_other_documents() {
        let e = SimReport::parse("{").unwrap_err();
        assert!(e.message.contains("hlsinstr sim --format json"), "{e}");
        let e = SimReport::parse(r#"{"format":"hlsinstr-manifest","version":1}"#).unwrap_err();
        assert!(e.message.contains("not an hlsinstr sim report"), "{e}");
        let e = SimReport::parse(r#"{"format":"hlsinstr-sim-report","version":1,"top":"t"}"#).unwrap_err();
        assert!(e.message.contains("incomplete"), "{e}");
        let e = SimReport::parse(r#"{"format":"hlsinstr-sim-report","version":9,"top":"t"}"#).unwrap_err();
        assert!(e.message.contains("not an hlsinstr sim report"), "{e}");
    }
}
