//! The part of an `hlsinstr sim --format json` report (`hlsinstr-sim-report` version 1,
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
    pub probe: u32,
    pub cycles: u64,
    #[serde(default)]
    pub runs: u64,
    #[serde(default)]
    pub trips: Option<u64>,
}

/// Per probe, summed over the sites that carry it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SimTotals {
    pub cycles: u64,
    pub runs: u64,
}

impl SimReport {
    /// Parse the JSON, refusing other formats and versions.
    pub fn parse(text: &str) -> Result<SimReport> {
        let bad = |m: String| Error::new(ErrorKind::BadInput, m);
        let v: serde_json::Value = serde_json::from_str(text)
            .map_err(|e| bad(format!("not JSON ({e}): give the output of `hlsinstr sim --format json`")))?;
        let format = v.get("format").and_then(|f| f.as_str()).unwrap_or_default();
        let version = v.get("version").and_then(|f| f.as_u64()).unwrap_or_default();
        if format != crate::sim::report::FORMAT || version != u64::from(crate::sim::report::VERSION) {
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

    /// Cycles and runs per probe id, over every row (site) with that probe.
    pub fn per_probe(&self) -> BTreeMap<u32, SimTotals> {
        let mut out: BTreeMap<u32, SimTotals> = BTreeMap::new();
        for r in &self.rows {
            let t = out.entry(r.probe).or_default();
            t.cycles = t.cycles.saturating_add(r.cycles);
            t.runs = t.runs.saturating_add(r.runs);
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
        assert_eq!(p[&3], SimTotals { cycles: 15, runs: 3 });
        assert_eq!(p[&1].cycles, 7);
        assert_eq!(r.clock_ns.unwrap().value, 4.0);
    }

    #[test]
    fn refuses_other_documents() {
        let e = SimReport::parse("{").unwrap_err();
        assert!(e.message.contains("hlsinstr sim --format json"), "{e}");
        let e = SimReport::parse(r#"{"format":"hlsinstr-manifest","version":1}"#).unwrap_err();
        assert!(e.message.contains("not an hlsinstr sim report"), "{e}");
        let e = SimReport::parse(r#"{"format":"hlsinstr-sim-report","version":1,"top":"t"}"#).unwrap_err();
        assert!(e.message.contains("incomplete"), "{e}");
    }
}
