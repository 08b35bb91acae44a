//! Vitis HLS / Vivado HLS C/RTL co-simulation reports: the cycles the RTL took per call of the
//! top, to compare with the C-simulation estimate.
//!
//! Files read (layouts checked on real reports, see `tests/cosim.rs`):
//! - `<solution>/sim/report/<top>_cosim.rpt`: a table with one row per RTL language (`Verilog`,
//!   `VHDL`): status (`Pass`, `NA` when not simulated), latency and interval min/avg/max, and
//!   from 2020 on a `Total Execution Time` column;
//! - `<solution>/sim/report/<rtl>/lat.rpt`: the same min/avg/max as `$MAX_LATENCY = "321"` lines;
//! - `<solution>/sim/report/<rtl>/result.transaction.rpt`: one line per call
//!   (`transaction 0:  321  0`: latency, then the interval since the previous call).
//!
//! The window is Vitis' testbench's: from its start of the call, including the s_axilite
//! writes of the arguments and the handshake, so it is longer than csynth's latency of the
//! same design (the systolic fixture: 321 here, 260 in csynth, 264 from ap_start to ap_done).

use crate::csynth::table::{is_border, read_table};
use crate::csynth::{is_undefined, parse_count, read_text, Range};
use crate::error::{Error, ErrorKind, Result};
use serde::Serialize;
use std::path::{Path, PathBuf};

/// What a co-simulation report is, said in errors.
const EXPECTED: &str = "expected a co-simulation report: <top>_cosim.rpt, or lat.rpt / result.transaction.rpt \
    in <solution>/sim/report/verilog (written by `cosim_design`), or a Vitis component's reports/hls_cosim.rpt";

/// At most this many per-call latencies are read (a testbench that calls the top millions of
/// times writes one line for each).
pub const MAX_CALLS: usize = 10_000_000;

/// One co-simulation run, as its report files give it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Cosim {
    /// The files read, the summary first.
    pub files: Vec<PathBuf>,
    /// The RTL language of the figures: `Verilog` or `VHDL`; empty when only a lat.rpt or
    /// result.transaction.rpt outside a `verilog`/`vhdl` folder was read.
    pub rtl: String,
    /// `Pass`, or what the report says instead (`Fail`, `NA`); `None` without the summary.
    /// Anything but `Pass` means the figures may not be trustworthy: say so to the user.
    pub status: Option<String>,
    /// `Simulation tool` of the summary header (`xsim`, `modelsim`, ...).
    pub simulator: Option<String>,
    /// Latency of one call in cycles, min and max over the calls.
    pub latency: Option<Range<u64>>,
    pub latency_avg: Option<f64>,
    /// Cycles between the starts of two calls; `None` with a single call (the report says NA,
    /// lat.rpt 0).
    pub interval: Option<Range<u64>>,
    /// `Total Execution Time`: cycles from the first call's start to the last call's end.
    pub total_cycles: Option<u64>,
    /// Latency of each call in order, from result.transaction.rpt; empty when there is none
    /// (then only the min/avg/max above are known).
    pub per_call: Vec<u64>,
    /// Rows or values that could not be read, and disagreements between the files.
    pub warnings: Vec<String>,
}

/// Read a co-simulation report: a `<top>_cosim.rpt`, `lat.rpt` or `result.transaction.rpt`, or a
/// directory holding them (`<solution>`, `<solution>/sim/report`, `<solution>/sim/report/verilog`).
/// With a summary, the per-call files of its language are read from `<dir>/verilog` (or `vhdl`)
/// beside it, or from its own directory.
pub fn read(path: &Path) -> Result<Cosim> {
    let mut c = empty();
    if !path.exists() {
        // The habitual `<solution>/sim/report` of a component that keeps its summary elsewhere
        // (Vitis 2025.2: `<component>/reports/hls_cosim.rpt`): name the one nearby.
        let near = path.ancestors().skip(1).take(4).find(|a| a.is_dir()).and_then(|a| locate(a).0);
        if let Some(s) = near {
            return Err(Error::new(
                ErrorKind::BadInput,
                format!(
                    "no such file or directory; the co-simulation summary nearest to it is {}: give that",
                    s.display()
                ),
            )
            .at(path));
        }
    }
    if path.is_dir() {
        let (summary, per_call_dirs) = locate(path);
        let found = summary.is_some() || per_call_dirs.iter().any(|d| has_per_call_files(d));
        if !found {
            return Err(Error::new(
                ErrorKind::BadInput,
                format!("no co-simulation report in this directory or its sim/report; {EXPECTED}"),
            )
            .at(path));
        }
        if let Some(s) = summary {
            read_summary(&mut c, &s)?;
        }
        read_per_call_dirs(&mut c, &per_call_dirs)?;
    } else {
        match path.file_name().and_then(|n| n.to_str()).unwrap_or("") {
            "lat.rpt" => read_lat(&mut c, path)?,
            "result.transaction.rpt" => read_transactions(&mut c, path)?,
            _ => {
                read_summary(&mut c, path)?;
                let dir = parent_dir(path);
                let lang = c.rtl.to_ascii_lowercase();
                read_per_call_dirs(&mut c, &[dir.join(lang), dir.to_path_buf()])?;
            }
        }
        if c.rtl.is_empty() {
            c.rtl = rtl_of_dir(parent_dir(path));
        }
    }
    check_agreement(&mut c);
    Ok(c)
}

/// Parse the text of a `<top>_cosim.rpt`; `origin` names it in errors and in [`Cosim::files`].
pub fn parse_summary(text: &str, origin: &Path) -> Result<Cosim> {
    let mut c = empty();
    summary_from_text(&mut c, text, origin)?;
    Ok(c)
}

/// Per-call latencies from the text of a `result.transaction.rpt`.
pub fn parse_transactions(text: &str, origin: &Path) -> Result<Vec<u64>> {
    let mut c = empty();
    transactions_from_text(&mut c, text, origin)?;
    Ok(c.per_call)
}

fn empty() -> Cosim {
    Cosim {
        files: Vec::new(),
        rtl: String::new(),
        status: None,
        simulator: None,
        latency: None,
        latency_avg: None,
        interval: None,
        total_cycles: None,
        per_call: Vec::new(),
        warnings: Vec::new(),
    }
}

fn parent_dir(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// `verilog` → `Verilog`, `vhdl` → `VHDL`; other names → empty (unknown).
fn rtl_of_dir(dir: &Path) -> String {
    match dir.file_name().and_then(|n| n.to_str()).map(str::to_ascii_lowercase).as_deref() {
        Some("verilog") => "Verilog".into(),
        Some("vhdl") => "VHDL".into(),
        _ => String::new(),
    }
}

/// The summary and the directories that may hold per-call files, for a directory given by the
/// user: a solution, its `sim/report`, or `sim/report/<rtl>`.
fn locate(dir: &Path) -> (Option<PathBuf>, Vec<PathBuf>) {
    // A solution (`sim/report`) or a Vitis unified component (`hls/sim/report`).
    let report_dir = ["sim/report", "hls/sim/report"]
        .iter()
        .map(|d| dir.join(d))
        .find(|d| d.is_dir())
        .unwrap_or_else(|| dir.to_path_buf());
    let mut summary = summary_in(&report_dir);
    let mut per_call = vec![report_dir.join("verilog"), report_dir.join("vhdl"), report_dir.clone()];
    if summary.is_none() && !rtl_of_dir(dir).is_empty() {
        // `sim/report/verilog`: the summary is one up.
        summary = summary_in(parent_dir(dir));
        per_call = vec![dir.to_path_buf()];
    }
    if summary.is_none() && !per_call.iter().any(|d| has_per_call_files(d)) {
        // Vitis 2025.2 components may keep only `<component>/reports/hls_cosim.rpt`: from the
        // component, or from its `hls`, `hls/sim` or `hls/sim/report` folder.
        summary = dir.ancestors().take(4).find_map(|a| summary_in(&a.join("reports")));
    }
    (summary, per_call)
}

/// The `*_cosim.rpt` in `dir` (the first by name when there are several).
fn summary_in(dir: &Path) -> Option<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.ends_with("_cosim.rpt")))
        .collect();
    found.sort();
    found.into_iter().next()
}

fn has_per_call_files(dir: &Path) -> bool {
    dir.join("result.transaction.rpt").is_file() || dir.join("lat.rpt").is_file()
}

/// Per-call files from the first of `dirs` that has them (callers list the summary's language
/// folder first).
fn read_per_call_dirs(c: &mut Cosim, dirs: &[PathBuf]) -> Result<()> {
    // Never another language's files: with a summary, only its language's folder or a folder
    // named for no language.
    let fits = |d: &&PathBuf| c.rtl.is_empty() || rtl_of_dir(d).is_empty() || rtl_of_dir(d) == c.rtl;
    let Some(dir) = dirs.iter().filter(fits).find(|d| has_per_call_files(d)) else { return Ok(()) };
    if c.rtl.is_empty() {
        c.rtl = rtl_of_dir(dir);
    }
    let lat = dir.join("lat.rpt");
    if lat.is_file() {
        read_lat(c, &lat)?;
    }
    let tr = dir.join("result.transaction.rpt");
    if tr.is_file() {
        read_transactions(c, &tr)?;
    }
    Ok(())
}

fn read_summary(c: &mut Cosim, path: &Path) -> Result<()> {
    let text = read_text(path, EXPECTED)?;
    summary_from_text(c, &text, path)
}

fn summary_from_text(c: &mut Cosim, text: &str, origin: &Path) -> Result<()> {
    let bad = |msg: String| Error::new(ErrorKind::BadInput, msg).at(origin);
    let lines: Vec<&str> = text.lines().collect();
    let table = lines.iter().position(|l| is_border(l)).and_then(|i| read_table(&lines, i));
    let Some(t) = table.filter(|t| t.col(|c| c == "rtl").is_some() && t.col(|c| c == "status").is_some()) else {
        return Err(bad(format!("no table with RTL and Status columns: not a co-simulation summary; {EXPECTED}")));
    };
    let col = |pred: &dyn Fn(&str) -> bool| t.col(pred);
    let (rtl, status) = (col(&|c| c == "rtl"), col(&|c| c == "status"));
    let stat = |what: &'static str, end: &'static str| move |c: &str| c.starts_with(what) && c.ends_with(end);
    let (lat_min, lat_avg, lat_max) =
        (col(&stat("latency", "min")), col(&stat("latency", "avg")), col(&stat("latency", "max")));
    let (int_min, int_max) = (col(&stat("interval", "min")), col(&stat("interval", "max")));
    let total = col(&|c| c.starts_with("total execution"));
    let rows: Vec<_> = t.rows.iter().filter(|r| r.cells.len() == t.columns.len()).collect();
    for r in t.rows.iter().filter(|r| r.cells.len() != t.columns.len()) {
        c.warnings.push(format!(
            "{}:{}: row with {} cells, the header {}; left out",
            origin.display(),
            r.line,
            r.cells.len(),
            t.columns.len()
        ));
    }
    // Verilog when it passed (the usual language, and the one Vitis writes per-call files for
    // first), else any that passed, else the first that ran, else the first row.
    let passed = |r: &&&crate::csynth::table::Row| r.cell(status).eq_ignore_ascii_case("pass");
    let ran = |r: &&&crate::csynth::table::Row| !is_undefined(r.cell(status));
    let pick = rows
        .iter()
        .find(|r| passed(r) && r.cell(rtl).eq_ignore_ascii_case("verilog"))
        .or_else(|| rows.iter().find(passed))
        .or_else(|| rows.iter().find(ran))
        .or_else(|| rows.first());
    let Some(row) = pick else {
        return Err(bad(format!(
            "the co-simulation table has no row for an RTL language: the file was cut short; {EXPECTED}"
        )));
    };
    let mut num = |i: Option<usize>, what: &str| -> Option<u64> {
        let text = row.cell(i);
        let v = parse_count(text);
        if v.is_none() && !is_undefined(text) {
            c.warnings.push(format!(
                "{}:{}: {what} is {text:?}, not a cycle count; read as unknown",
                origin.display(),
                row.line
            ));
        }
        v
    };
    let latency = num(lat_min, "latency min").zip(num(lat_max, "latency max")).map(|(a, b)| Range::new(a, b));
    let interval = num(int_min, "interval min").zip(num(int_max, "interval max")).map(|(a, b)| Range::new(a, b));
    let total_cycles = num(total, "total execution time");
    c.latency = latency;
    c.interval = interval;
    c.total_cycles = total_cycles;
    c.latency_avg = row.cell(lat_avg).parse::<f64>().ok().filter(|v| v.is_finite() && *v >= 0.0);
    c.rtl = row.cell(rtl).to_string();
    c.status = Some(row.cell(status).to_string()).filter(|s| !s.is_empty());
    c.simulator = lines.iter().take_while(|l| !is_border(l)).find_map(|l| {
        let (key, value) = l.split_once(':')?;
        (key.trim() == "Simulation tool").then(|| value.trim().trim_end_matches('.').to_string())
    });
    c.files.push(origin.to_path_buf());
    Ok(())
}

/// lat.rpt: `$MAX_LATENCY = "321"` lines. Fills what the summary did not give.
fn read_lat(c: &mut Cosim, path: &Path) -> Result<()> {
    let text = read_text(path, EXPECTED)?;
    let mut values: Vec<(String, String)> = Vec::new();
    for line in text.lines() {
        let Some((key, value)) = line.trim().strip_prefix('$').and_then(|l| l.split_once('=')) else { continue };
        values.push((key.trim().to_string(), value.trim().trim_matches('"').to_string()));
    }
    let get = |k: &str| values.iter().find(|(key, _)| key == k).map(|(_, v)| v.as_str());
    if get("MAX_LATENCY").is_none() && get("MIN_LATENCY").is_none() {
        return Err(
            Error::new(ErrorKind::BadInput, format!("no $MIN_LATENCY / $MAX_LATENCY lines; {EXPECTED}")).at(path)
        );
    }
    let count = |k: &str| get(k).and_then(parse_count);
    let pair = |a: &str, b: &str| count(a).zip(count(b)).map(|(a, b)| Range::new(a, b));
    c.latency = c.latency.or(pair("MIN_LATENCY", "MAX_LATENCY"));
    c.latency_avg = c.latency_avg.or(get("AVER_LATENCY").and_then(|v| v.parse::<f64>().ok()).filter(|v| v.is_finite()));
    // 0 is lat.rpt's "no interval" (a single call): the summary says NA there.
    c.interval = c.interval.or(pair("MIN_THROUGHPUT", "MAX_THROUGHPUT").filter(|r| r.max > 0));
    c.total_cycles = c.total_cycles.or(count("TOTAL_EXECUTE_TIME"));
    c.files.push(path.to_path_buf());
    Ok(())
}

fn read_transactions(c: &mut Cosim, path: &Path) -> Result<()> {
    let text = read_text(path, EXPECTED)?;
    transactions_from_text(c, &text, path)?;
    c.files.push(path.to_path_buf());
    Ok(())
}

/// `transaction 0:  321  0` lines (after a `latency interval` header); Vivado HLS 2016 writes
/// them without the colon (`transaction   0   79   5`).
fn transactions_from_text(c: &mut Cosim, text: &str, origin: &Path) -> Result<()> {
    let mut calls = Vec::new();
    let mut header = false;
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.starts_with("latency") {
            header = true;
            continue;
        }
        let Some(rest) = t.strip_prefix("transaction") else { continue };
        let values = match rest.split_once(':') {
            Some((_, values)) => values,
            // No colon: the call's number, then its latency.
            None => match rest.trim_start().split_once(char::is_whitespace) {
                Some((index, values)) if index.bytes().all(|b| b.is_ascii_digit()) => values,
                _ => continue,
            },
        };
        match values.split_whitespace().next().and_then(parse_count) {
            Some(v) if calls.len() < MAX_CALLS => calls.push(v),
            Some(_) => {
                c.warnings.push(format!("{}: more than {MAX_CALLS} calls; the rest are left out", origin.display()));
                break;
            }
            None => c.warnings.push(format!(
                "{}:{}: {t:?} has no latency; left out (the file may be cut short)",
                origin.display(),
                i + 1
            )),
        }
    }
    if !header && calls.is_empty() {
        return Err(Error::new(
            ErrorKind::BadInput,
            format!("no 'latency interval' header and no 'transaction N:' lines; {EXPECTED}"),
        )
        .at(origin));
    }
    c.per_call = calls;
    Ok(())
}

/// Per-call latencies that do not span the summary's min..max come from another run.
fn check_agreement(c: &mut Cosim) {
    let (Some(lat), Some(lo), Some(hi)) = (c.latency, c.per_call.iter().min(), c.per_call.iter().max()) else { return };
    if (lat.min, lat.max) != (*lo, *hi) {
        c.warnings.push(format!(
            "the per-call latencies span {lo}..{hi} cycles, the summary {}..{}: files left over from another run?",
            lat.min, lat.max
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transactions() {
        let text = "   latency  interval\ntransaction 0:  10  0\ntransaction 1:  12  10\ntransaction 2:";
        let mut c = empty();
        transactions_from_text(&mut c, text, Path::new("t.rpt")).unwrap();
        assert_eq!(c.per_call, [10, 12]);
        assert_eq!(c.warnings.len(), 1, "the cut line: {:?}", c.warnings);
        assert!(transactions_from_text(&mut empty(), "hello", Path::new("t.rpt")).is_err());
        // Vivado HLS 2016's lines have no colon.
        let old = "                            latency            interval\ntransaction        0            79            5\ntransaction        1            80            6\n";
        let mut c = empty();
        transactions_from_text(&mut c, old, Path::new("t.rpt")).unwrap();
        assert_eq!((c.per_call.as_slice(), c.warnings.len()), (&[79, 80][..], 0));
        // A header and no call: a run with no transaction, not an error.
        assert!(transactions_from_text(&mut empty(), "latency interval\n", Path::new("t.rpt")).is_ok());
    }

    #[test]
    fn summary_prefers_verilog_and_keeps_a_failed_status() {
        let text = "Simulation tool   : xsim.\n\n\
+------+------+-----------+
|      |      |  Latency  |
+  RTL +Status+---+---+---+
|      |      |min|avg|max|
+------+------+---+---+---+
|  VHDL|  Pass|  5|  5|  5|
|Verilog|  Fail|  7|  8|  9|
+------+------+---+---+---+
";
        let c = parse_summary(text, Path::new("k_cosim.rpt")).unwrap();
        assert_eq!((c.rtl.as_str(), c.status.as_deref()), ("VHDL", Some("Pass")), "Verilog failed: the passing row");
        assert_eq!(c.latency, Some(Range::new(5, 5)));
        assert_eq!(c.simulator.as_deref(), Some("xsim"));
        let only_fail = text.replace("|  VHDL|  Pass|", "|  VHDL|    NA|");
        let c = parse_summary(&only_fail, Path::new("k_cosim.rpt")).unwrap();
        assert_eq!((c.rtl.as_str(), c.status.as_deref(), c.latency_avg), ("Verilog", Some("Fail"), Some(8.0)));
    }
}
