//! The in-FPGA trace buffer's dump (hls-lib `hw/trace.h`, docs/branches.md#in-fpga): a header of
//! [`HEADER_WORDS`] little-endian u64 words, then the DRAM ring of records, one u64 each.
//!
//! [`decode`] checks the bytes against the manifest (magic, version, key, ring size, layout),
//! reads the ring oldest first, unpacks the records and replays them on the traced functions'
//! graphs with the decoder C simulation uses ([`crate::cfg::replay`]). Records lost to a wrap
//! (the oldest) or to a full linear region (the newest) cut calls: calls whose entry and return
//! records are both kept are replayed, each one on its own; a call whose end was not stored is
//! replayed up to its last record and marked cut; records of calls whose start was overwritten
//! are counted and reported, never guessed. Never panics, and allocates only what the checked length allows.

use crate::cfg::replay::{Decoder, SiteRecord};
use crate::emit::manifest::{BranchTrace, HwTrace, Manifest};
use crate::error::{Error, ErrorKind, Result};
use serde::Serialize;
use std::collections::HashMap;

/// `HLSITRC1` read as a little-endian u64.
pub const MAGIC: u64 = 0x3143_5254_4953_4c48;
pub const VERSION: u64 = 1;
pub const HEADER_WORDS: usize = 10;
const FINISHED: u64 = 1;
const WRAPPED: u64 = 2;
const FULL: u64 = 4;

pub fn is_trace(bytes: &[u8]) -> bool {
    bytes.len() >= 8 && word(bytes, 0) == MAGIC
}

fn word(bytes: &[u8], i: usize) -> u64 {
    let mut b = [0u8; 8];
    b.copy_from_slice(&bytes[8 * i..8 * i + 8]);
    u64::from_le_bytes(b)
}

/// The decoded trace of one run of the new top.
#[derive(Debug, Clone, Serialize)]
pub struct TraceReport {
    pub format: &'static str,
    /// Records the tracer received; kept in DRAM; lost (linear region full) or overwritten (wrap).
    pub records: u64,
    pub kept: u64,
    pub lost: u64,
    pub overwritten: u64,
    pub mode: String,
    pub finished: bool,
    /// Tracer loop iterations from start to the end of the last flush (clock cycles in hardware).
    pub cycles: u64,
    /// With timestamps: cycles between consecutive records are shown per site.
    pub timestamps: bool,
    pub calls: Vec<CallPath>,
    /// Kept records that belong to calls cut by the lost records (not replayed).
    pub cut_records: u64,
    /// `watch` builds: the watch events among the kept records.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub watch: Option<super::watch::HwWatchReport>,
    pub warnings: Vec<String>,
}

/// One call whose records are all kept: the statements it ran, and its record sites.
#[derive(Debug, Clone, Serialize)]
pub struct CallPath {
    pub function: String,
    pub file: String,
    /// Index of its entry record among the kept records.
    pub first_record: usize,
    /// False for the call a full linear region cut: its path ends at the last stored record.
    pub complete: bool,
    pub records: usize,
    /// Source lines of the statements walked, in order (callees' lines included).
    pub path: Vec<(String, usize)>,
    pub sites: Vec<SiteHit>,
}

#[derive(Debug, Clone, Serialize)]
pub struct SiteHit {
    pub site: u32,
    pub kind: String,
    pub line: usize,
    /// A loop exit's trip count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<u64>,
    /// Cycles since the previous record (with timestamps; saturated values are marked).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cycles: Option<u64>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub saturated: bool,
}

fn bad(message: String) -> Error {
    Error::new(ErrorKind::BadInput, message)
}

/// Trace dump bytes + the manifest of their build → every complete call's path.
pub fn decode(bytes: &[u8], manifest: &Manifest) -> Result<TraceReport> {
    let Some(hw) = manifest.hw.as_ref().and_then(|h| h.trace.as_ref()) else {
        return Err(Error::new(
            ErrorKind::Usage,
            "this is an in-FPGA trace dump but the manifest has no trace buffer (`hw.trace`): give the manifest of \
             the `--probes branches|watch --target vitis` rewrite that built this kernel",
        ));
    };
    // A build with watchpoints only has no branch sites: no path to replay.
    let no_branches = BranchTrace::default();
    let trace = manifest.branches.as_ref().unwrap_or(&no_branches);
    if bytes.len() < HEADER_WORDS * 8 {
        return Err(bad(format!(
            "the trace dump is {} bytes, shorter than its {}-byte header: copy the trace buffer again",
            bytes.len(),
            HEADER_WORDS * 8
        )));
    }
    let h: Vec<u64> = (0..HEADER_WORDS).map(|i| word(bytes, i)).collect();
    if h[1] != VERSION {
        return Err(bad(format!(
            "trace dump format version {} is not the one this hlsinstr reads ({VERSION}): decode it with the hlsinstr that made the build",
            h[1]
        )));
    }
    let key = u64::from_str_radix(&hw.key, 16).unwrap_or(0);
    if h[2] != key {
        return Err(bad(format!(
            "the trace dump's key {:016x} is not this manifest's ({}): it comes from another build; give the manifest of the rewrite that built this kernel",
            h[2], hw.key
        )));
    }
    let layout = (u64::from(hw.depth) << 32)
        | (u64::from(hw.id_bits) << 16)
        | (u64::from(hw.value_bits) << 8)
        | u64::from(hw.delta_bits);
    if h[3] != hw.records || h[9] != layout {
        return Err(bad(format!(
            "the trace dump's ring ({} records, layout {:#x}) is not the manifest's ({} records, layout {layout:#x}): give the manifest of the rewrite that built this kernel",
            h[3], h[9], hw.records
        )));
    }
    let region = usize::try_from(hw.records).map_err(|_| bad("the trace ring does not fit in memory".into()))?;
    let expected = region.checked_add(HEADER_WORDS).and_then(|w| w.checked_mul(8));
    if expected != Some(bytes.len()) {
        return Err(bad(format!(
            "the trace dump is {} bytes, but a ring of {region} records is {} bytes: the copy was cut short or padded; copy the trace buffer again",
            bytes.len(),
            expected.map_or_else(|| "more than fits".into(), |e| e.to_string())
        )));
    }
    // The flags word's high half is the run number (hls-lib trace.h `next_run`).
    let (next, flags, seen, lost, cycles) = (h[4], h[5], h[6], h[7], h[8]);
    let wrapped = flags & WRAPPED != 0;
    if next > hw.records || (wrapped && hw.mode != "wrap") {
        return Err(bad(format!(
            "the trace header is inconsistent (next index {next} of {region}, flags {flags:#x}): the buffer was not written by this build's tracer"
        )));
    }
    let next = next as usize;
    let order: Vec<usize> = if wrapped { (next..region).chain(0..next).collect() } else { (0..next).collect() };
    let words: Vec<u64> = order.iter().map(|&i| word(bytes, HEADER_WORDS + i)).collect();
    let kept = words.len() as u64;
    let mut warnings = Vec::new();
    let finished = flags & FINISHED != 0;
    if !finished {
        warnings.push("the tracer did not finish (no run-done token seen): the trace may be incomplete".into());
    }
    let overwritten = if wrapped { seen.saturating_sub(kept).saturating_sub(lost) } else { 0 };
    if overwritten > 0 {
        warnings.push(format!(
            "the DRAM ring wrapped: the oldest {overwritten} records were overwritten; calls that began before the oldest kept record are not replayed (raise --trace-records)"
        ));
    }
    if flags & FULL != 0 || lost > 0 {
        warnings.push(format!(
            "the linear DRAM region filled: the last {lost} records were not stored; the call still open then is replayed up to there (raise --trace-records, or --trace-mode wrap to keep the newest)"
        ));
    }
    let recs = unpack(&words, hw);
    let (watch, branch) = super::watch::split(&recs, hw, manifest, flags >> 32)?;
    let positions: Vec<usize> = branch.iter().map(|(i, _)| *i).collect();
    let branch: Vec<Unpacked> = branch.into_iter().map(|(_, r)| r).collect();
    let (mut calls, cut_records) = replay(&branch, trace, hw.delta_bits > 0)?;
    for c in &mut calls {
        c.first_record = positions.get(c.first_record).copied().unwrap_or(c.first_record);
    }
    if cut_records > 0 {
        warnings.push(format!("{cut_records} kept records belong to calls whose start was overwritten: not replayed"));
    }
    Ok(TraceReport {
        format: "hlsinstr-trace-report",
        records: seen,
        kept,
        lost,
        overwritten,
        mode: hw.mode.clone(),
        finished,
        cycles,
        timestamps: hw.delta_bits > 0,
        calls,
        cut_records,
        watch,
        warnings,
    })
}

/// A packed record: site id, value, cycles since the previous record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unpacked {
    pub site: u32,
    pub value: u64,
    pub delta: u64,
    pub saturated: bool,
}

fn field(w: u64, lo: u32, bits: u32) -> u64 {
    if bits == 0 {
        return 0;
    }
    let v = w.checked_shr(lo).unwrap_or(0);
    if bits >= 64 {
        v
    } else {
        v & ((1u64 << bits) - 1)
    }
}

pub fn unpack(words: &[u64], hw: &HwTrace) -> Vec<Unpacked> {
    let top = if hw.delta_bits == 0 { 0 } else { field(u64::MAX, 0, hw.delta_bits) };
    words
        .iter()
        .map(|&w| {
            let delta = field(w, hw.id_bits + hw.value_bits, hw.delta_bits);
            Unpacked {
                site: field(w, 0, hw.id_bits) as u32,
                value: field(w, hw.id_bits, hw.value_bits),
                delta,
                saturated: hw.delta_bits > 0 && delta == top,
            }
        })
        .collect()
}

/// Replay every call whose entry and return records are both kept; count the other records.
fn replay(recs: &[Unpacked], trace: &BranchTrace, timed: bool) -> Result<(Vec<CallPath>, u64)> {
    let entry: HashMap<u32, usize> = trace.functions.iter().enumerate().map(|(i, f)| (f.entry, i)).collect();
    let ret: HashMap<u32, usize> = trace.functions.iter().enumerate().map(|(i, f)| (f.ret, i)).collect();
    let sites: HashMap<u32, &crate::emit::manifest::SiteEntry> = trace.sites.iter().map(|s| (s.id, s)).collect();
    let inline = trace.inline_ids();
    let mut calls = Vec::new();
    let mut cut = 0u64;
    let mut stack: Vec<usize> = Vec::new();
    let mut start = 0usize;
    for (i, r) in recs.iter().enumerate() {
        // Checked for every record: the graph walk must never see a site it does not have.
        if !sites.contains_key(&r.site) {
            return Err(bad(format!(
                "trace record {i} names site {}, which the manifest does not have: give the manifest of the rewrite that built this kernel",
                r.site
            )));
        }
        if let Some(&f) = entry.get(&r.site) {
            if stack.is_empty() {
                start = i;
            }
            stack.push(f);
        } else if let Some(&f) = ret.get(&r.site) {
            match stack.last() {
                Some(&top) if top == f => {
                    stack.pop();
                    if stack.is_empty() {
                        calls.push(one_call(&recs[start..=i], start, f, trace, &sites, &inline, timed)?);
                    }
                }
                // A return whose entry was lost (a wrap), or a mismatch: the records so far are cut.
                _ => {
                    cut += if stack.is_empty() { 1 } else { (i - start + 1) as u64 };
                    stack.clear();
                }
            }
        } else if stack.is_empty() {
            cut += 1;
        }
    }
    if let (false, Some(&f)) = (stack.is_empty(), stack.first()) {
        // A call whose end was not stored (a full linear region): its path up to the last record.
        calls.push(one_call(&recs[start..], start, f, trace, &sites, &inline, timed)?);
    }
    Ok((calls, cut))
}

fn one_call(
    recs: &[Unpacked],
    first: usize,
    f: usize,
    trace: &BranchTrace,
    sites: &HashMap<u32, &crate::emit::manifest::SiteEntry>,
    inline: &[u32],
    timed: bool,
) -> Result<CallPath> {
    let site_records: Vec<SiteRecord> = recs
        .iter()
        .map(|r| {
            let loop_exit = sites.get(&r.site).is_some_and(|s| s.kind == "loop_exit");
            SiteRecord { site: r.site, value: loop_exit.then_some(r.value) }
        })
        .collect();
    let mut d = Decoder::new(&trace.functions, inline, true);
    let complete = match d.thread(&site_records) {
        Ok(()) => true,
        // Records ran out inside the call: it was cut at the end; the path so far stands.
        Err(e) if e.index >= site_records.len() => false,
        Err(e) => {
            return Err(bad(format!(
                "trace record {}: {} — the trace does not fit the manifest's graphs: give the manifest of the rewrite that built this kernel",
                first + e.index,
                e.message
            )))
        }
    };
    let path = d.counts.path.iter().map(|&(fi, line)| (trace.functions[fi].file.clone(), line)).collect();
    let hits = recs
        .iter()
        .map(|r| {
            let s = sites.get(&r.site);
            SiteHit {
                site: r.site,
                kind: s.map(|s| s.kind.clone()).unwrap_or_default(),
                line: s.map_or(0, |s| s.line),
                value: s.filter(|s| s.kind == "loop_exit").map(|_| r.value),
                cycles: timed.then_some(r.delta),
                saturated: r.saturated,
            }
        })
        .collect();
    let tf = &trace.functions[f];
    Ok(CallPath {
        function: tf.function.clone(),
        file: tf.file.clone(),
        first_record: first,
        records: recs.len(),
        complete,
        path,
        sites: hits,
    })
}

/// The terminal report: per call its path as source lines, and its sites (with cycles).
pub fn text(rep: &TraceReport) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "trace: {} records, {} kept ({} ring){}{}; {} tracer cycles",
        rep.records,
        rep.kept,
        rep.mode,
        if rep.overwritten > 0 { format!(", {} overwritten", rep.overwritten) } else { String::new() },
        if rep.lost > 0 { format!(", {} lost", rep.lost) } else { String::new() },
        rep.cycles
    );
    for w in &rep.warnings {
        let _ = writeln!(out, "warning: {w}");
    }
    for (k, c) in rep.calls.iter().enumerate() {
        // Lines of another file (a callee's) carry its name.
        let lines: Vec<String> =
            c.path.iter().map(|(f, l)| if *f == c.file { l.to_string() } else { format!("{f}:{l}") }).collect();
        let cut = if c.complete { "" } else { " (cut: its end was not stored)" };
        let _ = writeln!(
            out,
            "call {} {} ({}), {} records{cut}; lines: {}",
            k + 1,
            c.function,
            c.file,
            c.records,
            lines.join(" ")
        );
        let sites: Vec<String> = c
            .sites
            .iter()
            .map(|s| {
                let mut t = format!("{}:{}", s.kind, s.line);
                if let Some(v) = s.value {
                    let _ = write!(t, "x{v}");
                }
                if let Some(cy) = s.cycles {
                    let _ = write!(t, " +{cy}{}", if s.saturated { "+" } else { "" });
                }
                t
            })
            .collect();
        let _ = writeln!(out, "  sites: {}", sites.join(", "));
    }
    if let Some(w) = &rep.watch {
        out.push_str(&super::watch::text(w));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unpack_fields() {
        let hw = HwTrace {
            key: String::new(),
            depth: 8,
            records: 4,
            mode: "wrap".into(),
            id_bits: 5,
            value_bits: 32,
            delta_bits: 24,
            watch: None,
        };
        let w = 17 | (1234 << 5) | ((0xff_ffff) << 37);
        let u = unpack(&[w, 3 | (7 << 37)], &hw);
        assert_eq!(u[0], Unpacked { site: 17, value: 1234, delta: 0xff_ffff, saturated: true });
        assert_eq!(u[1], Unpacked { site: 3, value: 0, delta: 7, saturated: false });
    }

    #[test]
    fn bad_bytes_are_errors_not_panics() {
        let mut m = crate::decode::dump::tests::manifest();
        assert_eq!(decode(&MAGIC.to_le_bytes(), &m).unwrap_err().kind, ErrorKind::Usage, "no trace in the manifest");
        m.branches = Some(BranchTrace::default());
        if let Some(hw) = m.hw.as_mut() {
            hw.trace = Some(HwTrace {
                key: "0000000000000001".into(),
                depth: 8,
                records: 2,
                mode: "wrap".into(),
                id_bits: 4,
                value_bits: 0,
                delta_bits: 0,
                watch: None,
            });
        }
        let header = |key: u64, next: u64, flags: u64| -> Vec<u8> {
            let w = [MAGIC, VERSION, key, 2, next, flags, 3, 0, 9, (8 << 32) | (4 << 16), 5, 6];
            w.iter().flat_map(|x| x.to_le_bytes()).collect()
        };
        for (bytes, says) in [
            (vec![], "shorter than its"),
            (MAGIC.to_le_bytes().to_vec(), "shorter than its"),
            (header(2, 0, 1), "another build"),
            (header(1, 3, 1), "inconsistent"),
            (header(1, 1, 1)[..90].to_vec(), "cut short"),
            (header(1, 1, 3), "names site 6"),
        ] {
            let e = decode(&bytes, &m).unwrap_err();
            assert!(e.message.contains(says), "{says}: {e}");
        }
    }
}
