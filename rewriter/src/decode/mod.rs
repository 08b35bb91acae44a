//! `hlsinstr decode`: the in-FPGA monitor's debug dump turned into source-level numbers.
//!
//! The pipeline, one module per stage: [`dump`] (bytes → slots, checked against the manifest) →
//! [`model`] (the measured probes as a tree) → [`report`] (per-probe numbers, the sim estimate
//! beside them; [`stall`] adds the critical path, stall rates and their reasons) → [`output`]
//! (terminal table, JSON). [`simreport`] reads the sim report to compare with. The format is
//! docs/dump-format.md. The OpenCL iBuffer dump (docs/opencl-dump.md) has its own pipeline in
//! [`ocl`]; the CLI tells the two apart by their magic.

pub mod dump;
pub mod model;
pub mod ocl;
pub mod output;
pub mod report;
pub mod simreport;
pub mod stall;
pub mod trace;
pub mod watch;

pub use dump::{Dump, DumpError, SlotRecord};
pub use report::{HwReport, HwRow, Options};
pub use simreport::SimReport;
pub use stall::HwReason;

use crate::emit::manifest::Manifest;
use crate::error::{Error, ErrorKind, Result};

/// Dump bytes + the manifest of their build (+ a sim report of the same top) → the report.
/// Errors when the bytes are not a whole dump or come from another build; never panics.
pub fn decode(bytes: &[u8], manifest: &Manifest, sim: Option<&SimReport>, opts: &Options) -> Result<HwReport> {
    let dump = dump::parse(bytes)?;
    let hw = dump.check(manifest)?;
    report::build(&dump, manifest, hw, sim, opts)
}

/// A clock as a period in ns: `4`, `4ns`, `250MHz`, `0.25GHz` (case and a space do not matter).
pub fn parse_clock(text: &str) -> Result<f64> {
    let t = text.trim().to_ascii_lowercase();
    let bad = || {
        Error::new(
            ErrorKind::Usage,
            format!("--clock {text}: give a period (`4ns`, `4`) or a frequency (`250MHz`, `0.25GHz`)"),
        )
    };
    let (num, to_ns): (&str, fn(f64) -> f64) = if let Some(n) = t.strip_suffix("ghz") {
        (n, |g| 1.0 / g)
    } else if let Some(n) = t.strip_suffix("mhz") {
        (n, |m| 1000.0 / m)
    } else if let Some(n) = t.strip_suffix("ns") {
        (n, |x| x)
    } else if let Some(n) = t.strip_suffix("ps") {
        (n, |p| p / 1000.0)
    } else {
        (t.as_str(), |x| x)
    };
    let v: f64 = num.trim().parse().map_err(|_| bad())?;
    if !v.is_finite() || v <= 0.0 {
        return Err(bad());
    }
    let ns = to_ns(v);
    if ns.is_finite() && ns > 0.0 {
        Ok(ns)
    } else {
        Err(bad())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks() {
        assert_eq!(parse_clock("4ns").unwrap(), 4.0);
        assert_eq!(parse_clock("4").unwrap(), 4.0);
        assert_eq!(parse_clock("250MHz").unwrap(), 4.0);
        assert_eq!(parse_clock("0.25 GHz").unwrap(), 4.0);
        assert_eq!(parse_clock("3333ps").unwrap(), 3.333);
        for bad in ["", "0", "-4ns", "fast", "nanMHz", "infns", "1e-320GHz"] {
            let e = parse_clock(bad).unwrap_err();
            assert_eq!(e.kind, ErrorKind::Usage, "{bad}");
        }
    }

    #[test]
    fn decode_end_to_end_in_memory() {
        let m = dump::tests::manifest();
        let bytes = dump::tests::dump(&m).to_bytes();
        let rep = decode(&bytes, &m, None, &Options { clock_ns: Some(4.0) }).unwrap();
        assert_eq!(rep.format, "hlsinstr-hw-report");
        assert_eq!(rep.rows.len(), 2);
        let e = decode(&bytes[..100], &m, None, &Options::default()).unwrap_err();
        assert_eq!(e.kind, ErrorKind::BadInput);
        assert!(e.message.contains("copy the debug buffer again"), "{e}");
    }
}
