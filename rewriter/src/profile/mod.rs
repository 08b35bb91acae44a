//! `hlsinstr profile`: a line-level cycle profile of a Vitis HLS solution from RTL truth
//! (HLS_Profiler's method): the schedule reports map FSM states to operations and source lines
//! ([`sched`]); the generated Verilog names the module instances and state encodings ([`rtl`]);
//! a waveform of the RTL running gives each instance's state per clock cycle ([`wave`]); the
//! rules ([`rules`]) keep only what ran: a module counts only while started, a predicated line
//! only when its predicate holds, a pipeline stage only while its iteration is in flight.
//! [`output`] writes the text, JSON and Perfetto views.
//!
//! Pipeline: [`Design::load`] (solution → model) → [`profile`] (model + waveform → [`Profile`])
//! → [`output`]. `profile` takes any [`wave::Wave`] (VCD or FST), so a caller that simulates the RTL
//! itself (cosim) hands its waveform straight in.

mod fst;
pub mod output;
pub mod rtl;
pub mod rules;
pub mod sched;
pub mod wave;

use crate::error::{Error, ErrorKind, Result};
use sched::{Loc, Schedule};
use std::path::{Path, PathBuf};

pub use rules::{profile, Options, Profile};

/// One scheduled module and its RTL.
#[derive(Debug, Clone)]
pub struct Module {
    pub sched: Schedule,
    pub rtl: rtl::Module,
}

/// A synthesized solution: its modules (the top first) and where its sources are.
#[derive(Debug, Clone)]
pub struct Design {
    pub solution: PathBuf,
    pub modules: Vec<Module>,
    /// Folders and files searched for the sources named in `[file:line]` tags.
    pub source_roots: Vec<PathBuf>,
}

impl Design {
    /// Reads `<solution>/.autopilot/db/*.verbose.sched.rpt` and `<solution>/syn/verilog/*.v`.
    /// `solution` may also be a project folder holding exactly one solution.
    pub fn load(solution: &Path) -> Result<Design> {
        let solution = find_solution(solution)?;
        let db = solution.join(".autopilot").join("db");
        let mut reports: Vec<PathBuf> = std::fs::read_dir(&db)
            .map_err(|e| Error::io(&db, &e))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.ends_with(".verbose.sched.rpt")))
            .collect();
        reports.sort();
        if reports.is_empty() {
            return Err(Error::new(
                ErrorKind::BadInput,
                "no *.verbose.sched.rpt here: run csynth (Vitis writes them for every module) and give its solution folder",
            )
            .at(&db));
        }
        let scheds = reports.iter().map(|p| Schedule::read(p)).collect::<Result<Vec<_>>>()?;
        let rtl = rtl::read_dir(&solution.join("syn").join("verilog"))?;
        let top = scheds.iter().find(|s| s.is_top).or_else(|| {
            // Older reports lack IsTopModel: the top is the module no other RTL module instantiates.
            scheds
                .iter()
                .find(|s| !rtl.iter().any(|m| m.instances.iter().any(|(ty, _)| rtl_name_matches(ty, &s.module, None))))
        });
        let top_name = top.map(|s| s.module.clone()).ok_or_else(|| {
            Error::new(ErrorKind::BadInput, "cannot tell the top module: no report says `IsTopModel: 1`").at(&db)
        })?;
        let mut modules = Vec::new();
        for s in scheds {
            let m = rtl.iter().find(|m| rtl_name_matches(&m.name, &s.module, Some(&top_name))).ok_or_else(|| {
                Error::new(
                    ErrorKind::BadInput,
                    format!("no Verilog module for the schedule of '{}' in syn/verilog: is the RTL from the same csynth run?", s.module),
                )
                .at(&solution)
            })?;
            modules.push(Module { rtl: m.clone(), sched: s });
        }
        modules.sort_by_key(|m| m.sched.module != top_name);
        let mut source_roots = Vec::new();
        if let Some(p) = solution.parent() {
            source_roots.push(p.to_path_buf());
            source_roots.extend(p.parent().map(Path::to_path_buf));
        }
        Ok(Design { solution, modules, source_roots })
    }

    /// The module whose RTL is `rtl_name`.
    pub fn by_rtl(&self, rtl_name: &str) -> Option<usize> {
        self.modules.iter().position(|m| m.rtl.name == rtl_name)
    }

    /// Where the source of a `[file:line]` tag is, when it can be found.
    pub fn resolve(&self, file: &str) -> Option<PathBuf> {
        let p = Path::new(file);
        if p.is_absolute() {
            return p.is_file().then(|| p.to_path_buf());
        }
        // Vitis writes paths relative to its project folder: try each suffix under each root.
        let comps: Vec<_> = p.components().collect();
        for root in &self.source_roots {
            if root.is_file() {
                if root.file_name() == p.file_name() {
                    return Some(root.clone());
                }
                continue;
            }
            for k in 0..comps.len() {
                let cand = comps[k..].iter().fold(root.clone(), |acc, c| acc.join(c));
                if cand.is_file() {
                    return Some(cand);
                }
            }
        }
        None
    }
}

fn find_solution(dir: &Path) -> Result<PathBuf> {
    if dir.join(".autopilot").is_dir() {
        return Ok(dir.to_path_buf());
    }
    let subs: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| Error::io(dir, &e))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join(".autopilot").is_dir())
        .collect();
    match subs.as_slice() {
        [one] => Ok(one.clone()),
        [] => Err(Error::new(
            ErrorKind::BadInput,
            "not a synthesized solution (no .autopilot folder): give the solution folder csynth wrote (e.g. solution1)",
        )
        .at(dir)),
        _ => Err(Error::new(ErrorKind::Usage, "more than one solution here: give the solution folder itself").at(dir)),
    }
}

/// Vitis names a sub-module's RTL `<top>_<module>`; the top and older versions use the name as is.
fn rtl_name_matches(rtl: &str, sched: &str, top: Option<&str>) -> bool {
    rtl == sched
        || top.is_some_and(|t| rtl.strip_prefix(t).and_then(|r| r.strip_prefix('_')) == Some(sched))
        || (top.is_none() && rtl.ends_with(&format!("_{sched}")))
}

/// Headers of the vendor's libraries: operations tagged with them (stream reads and writes,
/// arbitrary-precision arithmetic) did run, but at a call site the report does not give.
pub fn is_library_file(file: &str) -> bool {
    let base = file.rsplit(['/', '\\']).next().unwrap_or(file);
    (base.starts_with("hls_") || base.starts_with("ap_") || base.starts_with("etc/ap_"))
        && (base.ends_with(".h") || base.ends_with(".hpp"))
        || file.contains("/include/etc/")
        || file.contains("Xilinx/Vitis")
        || file.contains("/common/technology/")
}

/// How a source position relates to the user's sources.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum LocKind {
    /// A user source, found on disk.
    Source,
    /// A vendor library header (stream and ap_int operations are tagged with these).
    Library,
    /// Not found: give `--src`.
    Missing,
}

/// A source position with what is known of its file.
#[derive(Debug, Clone, serde::Serialize)]
pub struct LocInfo {
    pub file: String,
    pub line: u32,
    pub kind: LocKind,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<PathBuf>,
}

impl Design {
    pub(crate) fn loc_info(&self, loc: &Loc) -> LocInfo {
        let path = self.resolve(&loc.file);
        let kind = if is_library_file(&loc.file) {
            LocKind::Library
        } else if path.is_some() {
            LocKind::Source
        } else {
            LocKind::Missing
        };
        LocInfo { file: loc.file.clone(), line: loc.line, kind, path }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vendor_headers_are_library_files() {
        for f in ["/opt/Xilinx/Vitis_HLS/2022.2/include/hls_stream.h", "ap_int_base.h", "etc/ap_fixed_base.h"] {
            assert!(is_library_file(f), "{f}");
        }
        for f in ["proj/kernel.cpp", "proj/my_hls_utils.h", "design.hpp"] {
            assert!(!is_library_file(f), "{f}");
        }
    }

    #[test]
    fn sub_module_rtl_names() {
        assert!(rtl_name_matches("multiplier_multiplier_Pipeline_1", "multiplier_Pipeline_1", Some("multiplier")));
        assert!(rtl_name_matches("multiplier", "multiplier", Some("multiplier")));
        assert!(!rtl_name_matches("multiplier_Pipeline_1", "multiplier_Pipeline_10", Some("multiplier")));
    }
}
