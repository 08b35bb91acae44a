//! `hlsinstr decode` of the OpenCL binary dump (docs/opencl-dump.md): the iBuffer units'
//! read-outs, written by `write_binary_dump` (opencl-lib/emu/hlsinstr_emu.h) or a real host,
//! turned into source-level answers through the manifest of the `.cl` rewrite.
//!
//! Pipeline: [`dump`] (bytes → units, checked against the manifest) → [`sites`] (unit = probe,
//! with the manifest's optional watch and snapshot details) → [`report`] (spans, ordered events,
//! watch hits and violations, latencies) and [`branches`] (the control flow of `trace` units) → [`output`] (terminal text, JSON).

pub mod branches;
pub mod dump;
pub mod output;
pub mod report;
pub mod sites;

pub use dump::{is_ocl, OclDump, OclDumpError};
pub use report::OclReport;
pub use sites::Site;

use crate::emit::manifest::Manifest;
use crate::error::Result;

/// Dump bytes + the manifest of their rewrite → the report. Errors when the bytes are not a whole
/// dump or come from another rewrite; never panics.
pub fn decode(bytes: &[u8], manifest: &Manifest) -> Result<OclReport> {
    let dump = dump::parse(bytes)?;
    dump.check(manifest)?;
    let sites = sites::sites(manifest)?;
    let seq = manifest.kinds.iter().any(|k| k == "seq");
    let mut rep = report::build(&dump, &sites, seq)?;
    rep.branches = branches::build(&dump, manifest, &mut rep.warnings)?;
    Ok(rep)
}
