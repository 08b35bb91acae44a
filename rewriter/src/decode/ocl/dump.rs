//! The OpenCL binary dump (docs/opencl-dump.md, format 1): a 32-byte header, then every iBuffer
//! unit's read-out in unit order, each a HEADER record, the unit's watch configuration (CONFIG_WATCH
//! and CONFIG_BOUNDS, only for a configured unit) and its trace records, oldest first.
//!
//! [`parse`] checks the bytes alone (magic, version, lengths, the order of the read-outs, record
//! kinds); whether they belong to a manifest is [`OclDump::check`]'s business. Neither panics on
//! any input, and no count read from the file sizes an allocation before it is checked against the
//! bytes that are really there.

use crate::emit::manifest::Manifest;

/// The first 8 bytes of a dump.
pub const MAGIC: &[u8; 8] = b"HLSIOCL1";
pub const VERSION: u32 = 1;
pub const HEADER_BYTES: usize = 32;
pub const RECORD_BYTES: usize = 32;

/// Record kinds (hlsinstr_ibuffer.cl `HLSINSTR_REC_*`).
pub const REC_SNAPSHOT: u32 = 0;
pub const REC_HIT: u32 = 1;
pub const REC_OUT_OF_BOUNDS: u32 = 2;
pub const REC_INVARIANT: u32 = 3;
pub const REC_CONFIG_BOUNDS: u32 = 13;
pub const REC_CONFIG_WATCH: u32 = 14;
pub const REC_HEADER: u32 = 15;

/// A kind's name as the docs write it.
pub fn kind_name(kind: u32) -> &'static str {
    match kind {
        REC_SNAPSHOT => "SNAPSHOT",
        REC_HIT => "HIT",
        REC_OUT_OF_BOUNDS => "OUT_OF_BOUNDS",
        REC_INVARIANT => "INVARIANT",
        REC_CONFIG_BOUNDS => "CONFIG_BOUNDS",
        REC_CONFIG_WATCH => "CONFIG_WATCH",
        REC_HEADER => "HEADER",
        _ => "unknown",
    }
}

/// One 32-byte record as the unit sent it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Record {
    pub kind: u32,
    pub unit: u32,
    pub time: u64,
    pub addr: u64,
    pub value: i64,
}

impl Record {
    fn read(b: &[u8]) -> Record {
        let u32_at = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().unwrap_or_default());
        let u64_at = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().unwrap_or_default());
        Record { kind: u32_at(0), unit: u32_at(4), time: u64_at(8), addr: u64_at(16), value: u64_at(24) as i64 }
    }

    pub fn to_bytes(self) -> [u8; RECORD_BYTES] {
        let mut b = [0u8; RECORD_BYTES];
        b[0..4].copy_from_slice(&self.kind.to_le_bytes());
        b[4..8].copy_from_slice(&self.unit.to_le_bytes());
        b[8..16].copy_from_slice(&self.time.to_le_bytes());
        b[16..24].copy_from_slice(&self.addr.to_le_bytes());
        b[24..32].copy_from_slice(&self.value.to_le_bytes());
        b
    }
}

/// `CONFIG_WATCH`: the watched range `[lo, hi)` and whether plain hits are recorded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WatchConfig {
    pub lo: u64,
    pub hi: u64,
    pub hits: bool,
}

/// `CONFIG_BOUNDS`: accesses outside `[lo, hi)` are out of bounds; `hi == u64::MAX`: no bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoundsConfig {
    pub lo: u64,
    pub hi: u64,
}

/// How a unit stores records: linear drops the newest once full, cyclic overwrites the oldest.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Linear,
    Cyclic,
}

impl Mode {
    pub fn name(self) -> &'static str {
        match self {
            Mode::Linear => "linear",
            Mode::Cyclic => "cyclic",
        }
    }
}

/// One unit's read-out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unit {
    pub mode: Mode,
    /// Records lost since the unit's RESET (linear mode, buffer full).
    pub dropped: u64,
    pub watch: Option<WatchConfig>,
    pub bounds: Option<BoundsConfig>,
    /// The trace records, oldest first (HIT, OUT_OF_BOUNDS, INVARIANT or SNAPSHOT).
    pub records: Vec<Record>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OclDump {
    pub key: u64,
    pub units: Vec<Unit>,
}

/// Why a dump cannot be decoded. Every message says what to do about it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OclDumpError {
    #[error(
        "the dump is {len} bytes, shorter than its {HEADER_BYTES} byte header: the file was cut short; write it again \
         (write_binary_dump)"
    )]
    TooShort { len: usize },
    #[error(
        "not an hlsinstr OpenCL dump (it does not start with `HLSIOCL1`): give the hlsinstr-ocl.bin the host wrote"
    )]
    BadMagic,
    #[error(
        "OpenCL dump format version {found} is not the one this hlsinstr reads ({VERSION}): decode it with the \
         hlsinstr that made the build, or a newer hlsinstr"
    )]
    UnknownVersion { found: u32 },
    #[error(
        "the dump ends inside unit {unit}'s read-out (at byte {at} of {len}): the file is truncated; write it again \
         and let the host finish writing it"
    )]
    Truncated { unit: u32, at: usize, len: usize },
    #[error(
        "the dump has {extra} bytes after the read-out of its last unit: it is damaged or two dumps were joined; \
         write it again"
    )]
    Trailing { extra: usize },
    #[error(
        "unit {expected}'s read-out should start with its HEADER record, but the record at byte {at} is {what}: the \
         read-outs are out of order or damaged; read every unit 0 .. N-1 in order (write_binary_dump does)"
    )]
    HeaderOrder { expected: u32, at: usize, what: String },
    #[error(
        "unit {unit}'s HEADER says mode {mode}, which is neither 0 (linear) nor 1 (cyclic): the dump is damaged; \
         write it again"
    )]
    BadMode { unit: u32, mode: u64 },
    #[error("unit {unit}'s HEADER announces {count} records: not a record count; the dump is damaged; write it again")]
    BadCount { unit: u32, count: i64 },
    #[error(
        "record {index} of unit {unit}'s read-out (byte {at}) is {what}: it cannot occur there; the dump is damaged; \
         write it again"
    )]
    BadRecord { unit: u32, index: u64, at: usize, what: String },
    #[error(
        "the dump has {dump} units but the manifest has {manifest} probes: it was written by another rewrite; re-run \
         rewrite or pass the matching manifest"
    )]
    UnitCount { dump: usize, manifest: usize },
    #[error(
        "dump is from a different rewrite: its key {dump:#018x} is not the manifest's {manifest:#018x}; re-run rewrite \
         or pass the matching manifest"
    )]
    KeyMismatch { dump: u64, manifest: u64 },
}

impl From<OclDumpError> for crate::Error {
    fn from(e: OclDumpError) -> Self {
        crate::Error::new(crate::ErrorKind::BadInput, e.to_string())
    }
}

/// Does `bytes` start like an OpenCL dump (decode picks the reader by this)?
pub fn is_ocl(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

fn describe(r: &Record) -> String {
    format!("a {} record (kind {}) of unit {}", kind_name(r.kind), r.kind, r.unit)
}

/// Bytes → dump: magic, version, every unit's HEADER in order with its own unit number, counts
/// that fit the bytes, CONFIG records only right after a HEADER, trace records of the unit only.
pub fn parse(bytes: &[u8]) -> Result<OclDump, OclDumpError> {
    if bytes.len() < MAGIC.len() {
        return Err(if MAGIC.starts_with(bytes) && !bytes.is_empty() {
            OclDumpError::TooShort { len: bytes.len() }
        } else {
            OclDumpError::BadMagic
        });
    }
    if !is_ocl(bytes) {
        return Err(OclDumpError::BadMagic);
    }
    if bytes.len() < HEADER_BYTES {
        return Err(OclDumpError::TooShort { len: bytes.len() });
    }
    let u32_at = |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
    let version = u32_at(8);
    if version != VERSION {
        return Err(OclDumpError::UnknownVersion { found: version });
    }
    let n = u32_at(12);
    let key = u64::from_le_bytes(bytes[16..24].try_into().unwrap_or_default());
    let mut at = HEADER_BYTES;
    let mut units = Vec::new();
    for unit in 0..n {
        let (u, next) = parse_unit(bytes, at, unit)?;
        units.push(u);
        at = next;
    }
    if at != bytes.len() {
        return Err(OclDumpError::Trailing { extra: bytes.len() - at });
    }
    Ok(OclDump { key, units })
}

/// The record at byte `at`, or the truncation error of `unit`.
fn record(bytes: &[u8], at: usize, unit: u32) -> Result<Record, OclDumpError> {
    at.checked_add(RECORD_BYTES).and_then(|end| bytes.get(at..end)).map(Record::read).ok_or(OclDumpError::Truncated {
        unit,
        at: bytes.len().min(at),
        len: bytes.len(),
    })
}

/// Unit `unit`'s read-out at byte `at`; returns it and the byte after it.
fn parse_unit(bytes: &[u8], at: usize, unit: u32) -> Result<(Unit, usize), OclDumpError> {
    let head = record(bytes, at, unit)?;
    if head.kind != REC_HEADER || head.unit != unit {
        return Err(OclDumpError::HeaderOrder { expected: unit, at, what: describe(&head) });
    }
    let mode = match head.time {
        0 => Mode::Linear,
        1 => Mode::Cyclic,
        m => return Err(OclDumpError::BadMode { unit, mode: m }),
    };
    if head.value < 0 {
        return Err(OclDumpError::BadCount { unit, count: head.value });
    }
    let count = head.value as u64;
    // The records must be there before anything is allocated for them.
    let body = at + RECORD_BYTES;
    let end = usize::try_from(count)
        .ok()
        .and_then(|c| c.checked_mul(RECORD_BYTES))
        .and_then(|b| b.checked_add(body))
        .filter(|&e| e <= bytes.len())
        .ok_or(OclDumpError::Truncated { unit, at: bytes.len(), len: bytes.len() })?;
    let mut u = Unit { mode, dropped: head.addr, watch: None, bounds: None, records: Vec::new() };
    let mut index = 0u64;
    let mut pos = body;
    while pos < end {
        let r = record(bytes, pos, unit)?;
        let bad = |what: String| OclDumpError::BadRecord { unit, index, at: pos, what };
        if r.unit != unit {
            return Err(bad(describe(&r)));
        }
        match r.kind {
            REC_CONFIG_WATCH if index == 0 => {
                u.watch = Some(WatchConfig { lo: r.time, hi: r.addr, hits: r.value != 0 })
            }
            REC_CONFIG_BOUNDS if index == 1 && u.watch.is_some() => {
                u.bounds = Some(BoundsConfig { lo: r.time, hi: r.addr })
            }
            REC_SNAPSHOT | REC_HIT | REC_OUT_OF_BOUNDS | REC_INVARIANT => {
                if u.watch.is_some() && u.bounds.is_none() {
                    return Err(bad(format!("{} where CONFIG_BOUNDS must follow CONFIG_WATCH", describe(&r))));
                }
                u.records.push(r)
            }
            _ => return Err(bad(describe(&r))),
        }
        index += 1;
        pos += RECORD_BYTES;
    }
    if u.watch.is_some() && u.bounds.is_none() {
        return Err(OclDumpError::BadRecord {
            unit,
            index,
            at: pos,
            what: "missing: CONFIG_BOUNDS must follow CONFIG_WATCH".to_string(),
        });
    }
    Ok((u, end))
}

impl OclDump {
    /// The dump as write_binary_dump writes it.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(self.units.len() as u32).to_le_bytes());
        out.extend_from_slice(&self.key.to_le_bytes());
        out.extend_from_slice(&0u64.to_le_bytes());
        for (i, u) in self.units.iter().enumerate() {
            let unit = i as u32;
            let config = usize::from(u.watch.is_some()) + usize::from(u.bounds.is_some());
            let head = Record {
                kind: REC_HEADER,
                unit,
                time: u64::from(u.mode == Mode::Cyclic),
                addr: u.dropped,
                value: (u.records.len() + config) as i64,
            };
            out.extend_from_slice(&head.to_bytes());
            if let Some(w) = u.watch {
                let r = Record { kind: REC_CONFIG_WATCH, unit, time: w.lo, addr: w.hi, value: i64::from(w.hits) };
                out.extend_from_slice(&r.to_bytes());
            }
            if let Some(b) = u.bounds {
                out.extend_from_slice(
                    &Record { kind: REC_CONFIG_BOUNDS, unit, time: b.lo, addr: b.hi, value: 0 }.to_bytes(),
                );
            }
            for r in &u.records {
                out.extend_from_slice(&r.to_bytes());
            }
        }
        out
    }

    /// Is this the dump of `manifest`'s rewrite? Unit count = probe count, key = the key
    /// the host wrote ([`crate::fpga::opencl::dump_key`]).
    pub fn check(&self, manifest: &Manifest) -> Result<(), OclDumpError> {
        if self.units.len() != manifest.probes.len() {
            return Err(OclDumpError::UnitCount { dump: self.units.len(), manifest: manifest.probes.len() });
        }
        let key = crate::fpga::opencl::dump_key(&manifest.probes);
        if self.key != key {
            return Err(OclDumpError::KeyMismatch { dump: self.key, manifest: key });
        }
        Ok(())
    }
}
