//! The monitor's debug dump (docs/dump-format.md, format 1): little-endian u64 words, a header
//! of [`HEADER_WORDS`] then one record of [`SLOT_WORDS`] per probe slot.
//!
//! [`parse`] checks the bytes alone (length, magic, version); [`Dump::check`] checks them against
//! the manifest of the build (key, slot count, probe of every slot). Neither panics on any input,
//! and no length read from the file sizes an allocation before it is checked against the bytes.

use crate::emit::manifest::{HwBuild, Manifest};

/// `HLSIDBG1` read as a little-endian u64.
pub const MAGIC: u64 = 0x3147_4244_4953_4c48;
pub const VERSION: u64 = 1;
pub const HEADER_WORDS: usize = 6;
pub const SLOT_WORDS: usize = 8;
/// Status bit 0: the monitor saw the run-done token and every probe FIFO empty afterwards.
pub const STATUS_FINISHED: u64 = 1;
/// Status bit 1: some slot saw an unmatched event.
pub const STATUS_UNMATCHED: u64 = 2;
/// Status bit 2: the monitor did not keep the longest invocation (its words are 0).
pub const STATUS_NO_LONGEST: u64 = 4;
/// Status bit 3 (builds without timestamps): an event waited in its FIFO while the monitor's
/// shared accumulator served another probe, so its time (the cycle it was read) is late.
pub const STATUS_LATE: u64 = 8;

/// A parsed dump. `key` is the build's [`crate::emit::manifest::hw_key`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dump {
    pub key: u64,
    /// Monitor iterations from start to termination (clock cycles in hardware).
    pub cycles: u64,
    pub status: u64,
    pub slots: Vec<SlotRecord>,
}

/// One probe slot, as the monitor accumulated it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SlotRecord {
    pub probe: u64,
    /// Begin events: module invocations, loop executions.
    pub calls: u64,
    /// Sum of end − begin over invocations, cycles.
    pub busy: u64,
    /// Time of the first begin; `u64::MAX` when `calls` is 0.
    pub first_start: u64,
    /// Time of the last end; 0 when no end was seen.
    pub last_end: u64,
    /// Loops: sum of trip counts; 0 for functions.
    pub trips: u64,
    /// A begin while open or an end while not open.
    pub unmatched: u64,
    /// The longest single invocation, cycles.
    pub max_busy: u64,
}

/// Why a dump cannot be decoded. Every message says what to do about it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DumpError {
    #[error(
        "the dump is {len} bytes, shorter than its {} byte header: the copy from the device was cut short; copy \
         the debug buffer again",
        HEADER_WORDS * 8
    )]
    TooShort { len: usize },
    #[error(
        "not an hlsinstr debug dump (the first 8 bytes are {found:#018x}, neither `HLSIDBG1` nor `HLSIOCL1`): give \
         the dbg.bin (in-FPGA build) or the hlsinstr-ocl.bin (OpenCL iBuffers) the host program wrote"
    )]
    BadMagic { found: u64 },
    #[error(
        "dump format version {found} is not the one this hlsinstr reads ({VERSION}): decode it with the hlsinstr \
         that made the build, or a newer hlsinstr"
    )]
    UnknownVersion { found: u64 },
    #[error(
        "the dump is {len} bytes, but its header announces {slots} slots, which is {} bytes: the file is truncated \
         or was padded; copy the debug buffer again (exactly (6 + 8 x slots) x 8 bytes)",
        expected.map_or_else(|| "more than fits in memory".to_string(), |e| e.to_string())
    )]
    Length { len: usize, slots: u64, expected: Option<usize> },
    #[error(
        "the manifest has no `hw` section: it is not from a `--target vitis` rewrite; decode with the manifest of \
         the in-FPGA build that produced the dump"
    )]
    NoHw,
    #[error(
        "the manifest's hw.key `{key}` is not 16 hex digits: the manifest was edited or damaged; rewrite again \
         with --target vitis"
    )]
    BadManifestKey { key: String },
    #[error(
        "the dump was written by another build: its key {dump:#018x} differs from the manifest's {manifest:#018x}; \
         decode it with the manifest of the build that produced it"
    )]
    KeyMismatch { dump: u64, manifest: u64 },
    #[error(
        "the dump has {dump} slots but the manifest's build has {manifest}: it was written by another build; decode \
         it with the manifest of the build that produced it"
    )]
    SlotCount { dump: usize, manifest: usize },
    #[error(
        "slot {slot} of the dump holds probe {dump}, the manifest's build has probe {manifest} there: it was written \
         by another build; decode it with the manifest of the build that produced it"
    )]
    SlotProbe { slot: usize, dump: u64, manifest: u32 },
}

impl From<DumpError> for crate::Error {
    fn from(e: DumpError) -> Self {
        crate::Error::new(crate::ErrorKind::BadInput, e.to_string())
    }
}

fn word(bytes: &[u8], index: usize) -> Option<u64> {
    let start = index.checked_mul(8)?;
    let b = bytes.get(start..start.checked_add(8)?)?;
    let mut w = [0u8; 8];
    w.copy_from_slice(b);
    Some(u64::from_le_bytes(w))
}

/// Byte length of a dump of `slots` slots; `None` when it does not fit in `usize`.
pub fn byte_len(slots: u64) -> Option<usize> {
    let n = usize::try_from(slots).ok()?;
    n.checked_mul(SLOT_WORDS)?.checked_add(HEADER_WORDS)?.checked_mul(8)
}

/// Bytes → dump, checking the length, the magic and the version.
pub fn parse(bytes: &[u8]) -> Result<Dump, DumpError> {
    let too_short = DumpError::TooShort { len: bytes.len() };
    let header = |i| word(bytes, i).ok_or_else(|| too_short.clone());
    let magic = header(0)?;
    if magic != MAGIC {
        return Err(DumpError::BadMagic { found: magic });
    }
    let version = header(1)?;
    let (key, n, cycles, status) = (header(2)?, header(3)?, header(4)?, header(5)?);
    if version != VERSION {
        return Err(DumpError::UnknownVersion { found: version });
    }
    let expected = byte_len(n);
    if expected != Some(bytes.len()) {
        return Err(DumpError::Length { len: bytes.len(), slots: n, expected });
    }
    // The length matched, so `n` records are really there: the allocation is bounded by the input.
    let body = bytes.get(HEADER_WORDS * 8..).unwrap_or_default();
    let slots = body
        .chunks_exact(SLOT_WORDS * 8)
        .map(|rec| {
            let w = |i| word(rec, i).unwrap_or_default();
            SlotRecord {
                probe: w(0),
                calls: w(1),
                busy: w(2),
                first_start: w(3),
                last_end: w(4),
                trips: w(5),
                unmatched: w(6),
                max_busy: w(7),
            }
        })
        .collect();
    Ok(Dump { key, cycles, status, slots })
}

/// The 16 hex digits of `hw.key` as a number.
pub fn manifest_key(hw: &HwBuild) -> Result<u64, DumpError> {
    let bad = || DumpError::BadManifestKey { key: hw.key.clone() };
    if hw.key.len() != 16 || !hw.key.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(bad());
    }
    u64::from_str_radix(&hw.key, 16).map_err(|_| bad())
}

impl Dump {
    /// The dump as the monitor writes it.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(byte_len(self.slots.len() as u64).unwrap_or_default());
        for w in [MAGIC, VERSION, self.key, self.slots.len() as u64, self.cycles, self.status] {
            out.extend_from_slice(&w.to_le_bytes());
        }
        for s in &self.slots {
            for w in [s.probe, s.calls, s.busy, s.first_start, s.last_end, s.trips, s.unmatched, s.max_busy] {
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
        out
    }

    /// Status bit 0: the kernel finished and the monitor drained every FIFO.
    pub fn finished(&self) -> bool {
        self.status & STATUS_FINISHED != 0
    }

    /// Is this the dump of `manifest`'s build? Returns its `hw` section when it is.
    pub fn check<'m>(&self, manifest: &'m Manifest) -> Result<&'m HwBuild, DumpError> {
        let hw = manifest.hw.as_ref().ok_or(DumpError::NoHw)?;
        let key = manifest_key(hw)?;
        if self.key != key {
            return Err(DumpError::KeyMismatch { dump: self.key, manifest: key });
        }
        if self.slots.len() != hw.slots.len() {
            return Err(DumpError::SlotCount { dump: self.slots.len(), manifest: hw.slots.len() });
        }
        for (slot, (rec, &id)) in self.slots.iter().zip(&hw.slots).enumerate() {
            if rec.probe != u64::from(id) {
                return Err(DumpError::SlotProbe { slot, dump: rec.probe, manifest: id });
            }
        }
        Ok(hw)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::emit::manifest::{hw_key, ProbeEntry};

    fn probe(id: u32, kind: &str, name: &str, parent: Option<u32>) -> ProbeEntry {
        ProbeEntry { parent, ..ProbeEntry::new(id, kind, "k.cpp", (1 + id as usize, 1), "top", name) }
    }

    pub fn manifest() -> Manifest {
        let probes = vec![probe(0, "function", "top", None), probe(1, "loop", "L", Some(0))];
        let slots = vec![0, 1];
        Manifest {
            format: crate::emit::manifest::FORMAT.into(),
            version: crate::emit::manifest::VERSION,
            tool: "test".into(),
            kinds: vec!["modules".into(), "loops".into()],
            top: Some("top".into()),
            files: Vec::new(),
            hw: Some(HwBuild {
                target: "vitis".into(),
                top: "top".into(),
                instr_top: "top_instr".into(),
                key: format!("{:016x}", hw_key(&slots, &probes)),
                fifo_depth: 16,
                timestamps: true,
                slots,
                derived: Vec::new(),
                generated: Vec::new(),
                trace: None,
            }),
            probes,
            skipped: Vec::new(),
            generated: Vec::new(),
            branches: None,
            rtl: None,
        }
    }

    pub fn dump(m: &Manifest) -> Dump {
        let hw = m.hw.as_ref().unwrap();
        Dump {
            key: manifest_key(hw).unwrap(),
            cycles: 1000,
            status: STATUS_FINISHED,
            slots: vec![
                SlotRecord {
                    probe: 0,
                    calls: 2,
                    busy: 900,
                    first_start: 10,
                    last_end: 990,
                    trips: 0,
                    unmatched: 0,
                    max_busy: 500,
                },
                SlotRecord {
                    probe: 1,
                    calls: 2,
                    busy: 800,
                    first_start: 12,
                    last_end: 980,
                    trips: 20,
                    unmatched: 0,
                    max_busy: 410,
                },
            ],
        }
    }

    #[test]
    fn round_trip() {
        let m = manifest();
        let d = dump(&m);
        let bytes = d.to_bytes();
        assert_eq!(bytes.len(), (6 + 2 * 8) * 8);
        assert_eq!(&bytes[..8], b"HLSIDBG1");
        assert_eq!(parse(&bytes).unwrap(), d);
        assert!(d.check(&m).is_ok());
        let empty = Dump { key: 7, cycles: 0, status: 0, slots: Vec::new() };
        assert_eq!(parse(&empty.to_bytes()).unwrap(), empty);
    }

    #[test]
    fn short_or_wrong_lengths() {
        let bytes = dump(&manifest()).to_bytes();
        assert_eq!(parse(&[]), Err(DumpError::TooShort { len: 0 }));
        assert_eq!(parse(&bytes[..47]), Err(DumpError::TooShort { len: 47 }));
        let cut = parse(&bytes[..bytes.len() - 1]).unwrap_err();
        assert!(matches!(cut, DumpError::Length { slots: 2, expected: Some(176), .. }), "{cut:?}");
        let mut long = bytes.clone();
        long.extend_from_slice(&[0; 8]);
        assert!(matches!(parse(&long), Err(DumpError::Length { .. })));
        let mut huge = bytes.clone();
        huge[24..32].copy_from_slice(&u64::MAX.to_le_bytes());
        let e = parse(&huge).unwrap_err();
        assert!(matches!(e, DumpError::Length { expected: None, .. }), "{e:?}");
        assert!(e.to_string().contains("more than fits in memory"), "{e}");
        huge[24..32].copy_from_slice(&(u64::MAX / 64).to_le_bytes());
        assert!(matches!(parse(&huge), Err(DumpError::Length { .. })));
    }

    #[test]
    fn magic_and_version() {
        let mut bytes = dump(&manifest()).to_bytes();
        bytes[0] = b'X';
        let e = parse(&bytes).unwrap_err();
        assert!(matches!(e, DumpError::BadMagic { .. }));
        assert!(e.to_string().contains("dbg.bin"), "{e}");
        // Not a dump at all, even when shorter than a header: the magic is checked first.
        assert!(matches!(parse(b"hello world, not a dump"), Err(DumpError::BadMagic { .. })));
        assert!(matches!(parse(&bytes[..8]), Err(DumpError::BadMagic { .. })));
        assert!(matches!(parse(&dump(&manifest()).to_bytes()[..8]), Err(DumpError::TooShort { len: 8 })));
        let mut bytes = dump(&manifest()).to_bytes();
        bytes[8] = 2;
        let e = parse(&bytes).unwrap_err();
        assert_eq!(e, DumpError::UnknownVersion { found: 2 });
        assert!(e.to_string().contains("newer hlsinstr"), "{e}");
    }

    #[test]
    fn another_build() {
        let m = manifest();
        let mut d = dump(&m);
        d.key ^= 1;
        let e = d.check(&m).unwrap_err();
        assert!(matches!(e, DumpError::KeyMismatch { .. }));
        assert!(e.to_string().contains("decode it with the manifest of the build that produced it"), "{e}");
        let mut d = dump(&m);
        d.slots.pop();
        assert_eq!(d.check(&m), Err(DumpError::SlotCount { dump: 1, manifest: 2 }));
        let mut d = dump(&m);
        d.slots[1].probe = 9;
        assert_eq!(d.check(&m), Err(DumpError::SlotProbe { slot: 1, dump: 9, manifest: 1 }));
        let mut no_hw = m.clone();
        no_hw.hw = None;
        assert_eq!(dump(&m).check(&no_hw), Err(DumpError::NoHw));
        let mut bad_key = m.clone();
        bad_key.hw.as_mut().unwrap().key = "xyz".into();
        assert!(matches!(dump(&m).check(&bad_key), Err(DumpError::BadManifestKey { .. })));
    }

    #[test]
    fn finished_bit() {
        let m = manifest();
        let mut d = dump(&m);
        assert!(d.finished());
        d.status = STATUS_UNMATCHED;
        assert!(!d.finished());
    }
}
