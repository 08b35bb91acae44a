//! The C-simulation event log (hls-lib `event_log.h`) read back, in either of its formats:
//! text (`# hlsinstr events v1`, what a testbench writes by default) or binary (`HLSIEV4`, what
//! `hlsinstr sim` asks for with `HLSINSTR_EVENTS_FORMAT=binary`: the probes' buffers written as
//! they are, so the instrumented run formats nothing).
//!
//! Text: one record per line: `order probe event thread seq timestamp_ns value`, `-` for an absent
//! field. Events: `B`/`E` (module or loop begin/end; a loop's `E` carries its trip count), `R`/`W`
//! (bytes read/written over an m_axi port during the invocation that just ended), `D` (a thread
//! found blocked by the deadlock watchdog), `T` (branch trace), and the watch events `C`, `H`, `O`,
//! `I` (binary code 6; see [`WatchKind`]), whose lines carry an eighth field, the element's index,
//! and whose value is signed. A corrupt line is an error naming the line, never a guess.

pub use super::stream::Stream;
use crate::error::{Error, ErrorKind, Result};
use std::path::Path;

pub const HEADER: &str = "# hlsinstr events v1";
/// The first 8 bytes of a binary log (version 6: runs records, code 7 with the value and seq
/// bits, hold the runs of leaf loops and the begins and ends of their parents; repeat records,
/// code 7, fold runs of identical leaves; timestamps are counter ticks, converted with the log's
/// clock marks).
pub const BINARY_MAGIC: &[u8; 8] = b"HLSIEV6\n";
/// Version 5, still read: leaf-runs records (code 7 with the value bit) of leaf runs only.
pub const BINARY_MAGIC_V5: &[u8; 8] = b"HLSIEV5\n";
/// Version 4, still read: no leaf-runs records.
pub const BINARY_MAGIC_V4: &[u8; 8] = b"HLSIEV4\n";
/// Version 3, still read: no repeat records.
pub const BINARY_MAGIC_V3: &[u8; 8] = b"HLSIEV3\n";
/// Version 2, still read: timestamps in nanoseconds, no clock marks.
pub const BINARY_MAGIC_V2: &[u8; 8] = b"HLSIEV2\n";
/// A repeat record's head byte (event code 7 with the next-order bit).
const REPEAT_HEAD: u8 = 0x47;
/// A leaf-runs record's head byte (event code 7 with the value bit; with the next-order bit when
/// its order is the previous one's + 1, else an order delta follows).
const LEAF_RUNS_HEAD: u8 = 0x27;
/// A runs record's head byte (event code 7 with the value and seq bits; the next-order bit as a
/// leaf-runs record's): leaf runs and leaf parents' begins and ends.
const RUNS_HEAD: u8 = 0x37;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    Begin,
    End,
    BytesRead,
    BytesWritten,
    Deadlock,
    /// A branch-trace site was reached (`T`; the probe is the site, a loop exit's value its trips).
    Trace,
    /// A watchpoint event (hls-lib `watch.h`): the probe is the site (0 for a call), the value
    /// the element's (an `i64`'s bits) when known, `index` the element's from the watched
    /// buffer's first.
    Watch {
        kind: WatchKind,
        index: i64,
    },
    /// The leaf just before on its thread (a begin and the end of the same probe, nothing
    /// between) happens `count` more times (binary code 7: hls-lib `ThreadLog::end_leaf`). The
    /// record's probe and value are the leaf's, its order the first repetition's; the
    /// repetitions take `2 × count` orders. Only [`Stream::next_batch`] hands these out;
    /// [`Stream::next_record`] gives the begins and ends they stand for.
    Repeat {
        count: u64,
    },
}

/// What a watch record says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum WatchKind {
    /// `C`: a call of the top began (value: its number from 1).
    Call,
    /// `H`: an access to a watched element.
    Hit,
    /// `O`: an access outside the bounds, reported (and skipped) before it happened.
    OutOfBounds,
    /// `I`: a value that breaks the invariant.
    Invariant,
}

impl WatchKind {
    fn from_code(c: u64) -> WatchKind {
        [WatchKind::Call, WatchKind::Hit, WatchKind::OutOfBounds, WatchKind::Invariant][(c & 3) as usize]
    }
    pub fn letter(self) -> char {
        ['C', 'H', 'O', 'I'][self as usize]
    }
    /// As the reports say it.
    pub fn name(self) -> &'static str {
        ["call", "hit", "out of bounds", "invariant"][self as usize]
    }
}

fn unzigzag(z: u64) -> i64 {
    ((z >> 1) as i64) ^ -((z & 1) as i64)
}

impl Event {
    fn from_letter(c: &str) -> Option<Event> {
        Some(match c {
            "B" => Event::Begin,
            "E" => Event::End,
            "R" => Event::BytesRead,
            "W" => Event::BytesWritten,
            "D" => Event::Deadlock,
            "T" => Event::Trace,
            _ => return None,
        })
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// Global order of the record (one atomic counter across threads).
    pub order: u64,
    pub probe: u32,
    pub event: Event,
    pub thread: u32,
    pub seq: Option<u64>,
    pub timestamp_ns: Option<u64>,
    pub value: Option<u64>,
}

/// Reads a whole log into memory (small logs, tests); `sim` reads it as a [`Stream`].
pub fn read(path: &Path) -> Result<Vec<Record>> {
    let mut s = open(path)?;
    let mut out = Vec::new();
    while let Some(r) = s.next_record().map_err(|e| e.at(path))? {
        out.push(r);
    }
    Ok(out)
}

/// Opens a log file to read record by record, in order.
pub fn open(path: &Path) -> Result<Stream<'static>> {
    let f = std::fs::File::open(path).map_err(|e| {
        Error::new(
            ErrorKind::Io,
            format!("cannot read the event log: {e} (did the testbench exit before `main` returned?)"),
        )
        .at(path)
    })?;
    Stream::new(f).map_err(|e| e.at(path))
}

/// Parses a log in either format, told apart by its first bytes. Binary: after the magic,
/// buffers of (thread u32 LE, length u32 LE, records), an end mark (thread u32::MAX, length 0)
/// after each write; the log must end with one; thread marks (thread u32::MAX − 1 for a thread's
/// end, u32::MAX − 2 for the start of a thread other than the first, each with the thread as
/// its 4-byte body) tell the reader which threads may still send records; in version 3 a clock
/// mark (thread u32::MAX − 3, 24 bytes: [`super::stream::Clock`]) before a buffer calibrates its
/// timestamps, which are counter ticks (version 2's are nanoseconds). Each record: a head
/// byte (event code | 0x08 timestamp | 0x10 seq | 0x20 value | 0x40 the order is the previous
/// one plus 1), [varint order delta, without 0x40], varint probe, [varint zigzag timestamp
/// delta], [varint value]; deltas restart at every buffer. Records come back sorted by `order` and
/// numbered 0, 1, 2, ... in it (`order` becomes the rank), sequence-numbered records numbered in
/// that order.
pub fn parse_bytes(bytes: &[u8]) -> Result<Vec<Record>> {
    let mut s = Stream::new(bytes)?;
    let mut out = Vec::new();
    while let Some(r) = s.next_record()? {
        out.push(r);
    }
    Ok(out)
}

/// What [`decode_buffer`] found besides the records.
pub(crate) struct Decoded {
    /// A record holds a timestamp.
    pub stamped: bool,
    /// A record's order is not above the one before it (the thread's previous buffer's last
    /// included, `last_order`): the log is corrupt (said by the caller once the buffer decoded).
    pub back: bool,
}

/// Appends the records of one buffer to `out`. `last_order`: the thread's last raw order so far,
/// updated (checked here, in the one pass over the records, not in a second).
pub(crate) fn decode_buffer(
    body: &[u8],
    base: usize,
    thread: u32,
    out: &mut Vec<Record>,
    last_order: &mut Option<u64>,
) -> Result<Decoded> {
    // A record takes 2 bytes at least: one growth per buffer, not several.
    out.reserve(body.len() / 2);
    let first = out.len();
    let mut pos = 0;
    let (mut order, mut timestamp) = (0u64, 0u64);
    let mut stamped = false;
    let (mut back, mut floor) = (false, *last_order);
    while pos < body.len() {
        let at = base + pos;
        let head = body[pos];
        pos += 1;
        let event = match head & 0x07 {
            0 => Event::Begin,
            1 => Event::End,
            2 => Event::BytesRead,
            3 => Event::BytesWritten,
            4 => Event::Deadlock,
            5 => Event::Trace,
            6 => Event::Watch { kind: WatchKind::Call, index: 0 }, // completed below
            _ if head & !0x40 == LEAF_RUNS_HEAD || head & !0x40 == RUNS_HEAD => {
                let delta =
                    if head & 0x40 != 0 { 1 } else { varint(body, &mut pos).ok_or_else(|| cut_short(at, "order"))? };
                order = order.checked_add(delta).ok_or_else(|| corrupt(at, "the order overflows"))?;
                back |= floor.is_some_and(|l| order <= l);
                let parents = head & !0x40 == RUNS_HEAD;
                order = leaf_runs(body, &mut pos, at, thread, order, parents, out)?;
                floor = Some(order);
                continue;
            }
            _ => {
                // A repeat: the begin and end before it, in this buffer, again `count` times.
                if head != REPEAT_HEAD {
                    return Err(corrupt(at, &format!("unknown record flags {head:#04x}")));
                }
                let count = match varint(body, &mut pos) {
                    Some(0) => return Err(corrupt(at, "a repeat record repeats nothing")),
                    Some(c) => c,
                    None => return Err(cut_short(at, "repeat count")),
                };
                let leaf = match out.len().checked_sub(first).filter(|n| *n >= 2).map(|_| &out[out.len() - 2..]) {
                    Some([b, e]) if b.event == Event::Begin && e.event == Event::End && b.probe == e.probe => e,
                    _ => return Err(corrupt(at, "a repeat record that does not follow a begin and its end")),
                };
                let r = Record {
                    order: order + 1,
                    event: Event::Repeat { count },
                    seq: None,
                    timestamp_ns: None,
                    ..leaf.clone()
                };
                order = count
                    .checked_mul(2)
                    .and_then(|n| order.checked_add(n))
                    .ok_or_else(|| corrupt(at, "the order overflows"))?;
                floor = Some(order);
                out.push(r);
                continue;
            }
        };
        if head & 0x80 != 0 {
            return Err(corrupt(at, &format!("unknown record flags {head:#04x}")));
        }
        // Each field read inline; the error (a cut log) built out of line.
        macro_rules! next {
            ($what:literal) => {
                match varint(body, &mut pos) {
                    Some(v) => v,
                    None => return Err(cut_short(at, $what)),
                }
            };
        }
        let delta = if head & 0x40 != 0 { 1 } else { next!("order") };
        order = order.checked_add(delta).ok_or_else(|| corrupt(at, "the order overflows"))?;
        back |= floor.is_some_and(|l| order <= l);
        floor = Some(order);
        let probe = u32::try_from(next!("probe")).map_err(|_| corrupt(at, "the probe id is out of range"))?;
        let timestamp_ns = if head & 0x08 != 0 {
            let z = next!("timestamp");
            timestamp = timestamp.wrapping_add((z >> 1) ^ (z & 1).wrapping_neg());
            stamped = true;
            Some(timestamp)
        } else {
            None
        };
        let mut value = if head & 0x20 != 0 { Some(next!("value")) } else { None };
        let mut event = event;
        if let Event::Watch { .. } = event {
            let detail = next!("watch detail");
            event = Event::Watch { kind: WatchKind::from_code(detail), index: unzigzag(detail >> 2) };
            value = value.map(|z| unzigzag(z) as u64);
        }
        // A placeholder: the numbering needs the global order (parse_binary).
        let seq = (head & 0x10 != 0).then_some(0);
        out.push(Record { order, probe, event, thread, seq, timestamp_ns, value });
    }
    *last_order = floor;
    Ok(Decoded { stamped, back })
}

/// The body of a leaf-runs record (hls-lib `ThreadLog::write_leaf_runs`): a count n and n
/// entries at consecutive orders from `order`. In a runs record (`parents`, version 6) an entry is
/// a tag and a value: a leaf's run (tag probe << 1, value its trips: a begin and an end), a leaf
/// parent's begin (tag probe << 1 | 1, value 0) or end (tag probe << 1 | 1, value trips + 1); in
/// a version 5 leaf-runs record every entry is a run, a probe and its trips. Appended as the
/// begins and ends they stand for, a run like the run before it (probe and trips) as a repeat of
/// that leaf (what the log without stored runs folds the same runs into, so the analysis takes
/// them alike). Returns the last order.
fn leaf_runs(
    body: &[u8],
    pos: &mut usize,
    at: usize,
    thread: u32,
    order: u64,
    parents: bool,
    out: &mut Vec<Record>,
) -> Result<u64> {
    let n = match varint(body, pos) {
        Some(0) => return Err(corrupt(at, "a leaf-runs record holds no run")),
        Some(n) => n,
        None => return Err(cut_short(at, "run count")),
    };
    // Each run takes two bytes at least: a count beyond the body is corrupt, not a reason to
    // allocate.
    if n > (body.len() - *pos) as u64 / 2 {
        return Err(cut_short(at, "run list"));
    }
    // Each entry takes one order at least, so `order + 2n` cannot overflow when it did not.
    n.checked_mul(2).and_then(|k| order.checked_add(k)).ok_or_else(|| corrupt(at, "the order overflows"))?;
    let mut o = order;
    let mut previous: Option<(u32, u64)> = None;
    let mut repeats = 0u64;
    for _ in 0..n {
        let tag = varint(body, pos).ok_or_else(|| cut_short(at, "probe"))?;
        let (probe, parent) = if parents { (tag >> 1, tag & 1 != 0) } else { (tag, false) };
        let probe = u32::try_from(probe).map_err(|_| corrupt(at, "the probe id is out of range"))?;
        let trips = varint(body, pos).ok_or_else(|| cut_short(at, "trip count"))?;
        if parent {
            // A leaf parent's begin (0) or end (trips + 1): one record, and the end of a run of
            // repeats.
            if let (true, Some((p, t))) = (repeats > 0, previous) {
                push_repeat(out, p, thread, o - 2 * repeats, repeats, t);
                repeats = 0;
            }
            previous = None;
            let (event, value) = match trips {
                0 => (Event::Begin, None),
                t => (Event::End, Some(t - 1)),
            };
            out.push(Record { order: o, probe, event, thread, seq: None, timestamp_ns: None, value });
            o += 1;
            continue;
        }
        if previous == Some((probe, trips)) {
            repeats += 1;
        } else {
            if let (true, Some((p, t))) = (repeats > 0, previous) {
                push_repeat(out, p, thread, o - 2 * repeats, repeats, t);
                repeats = 0;
            }
            let begin =
                Record { order: o, probe, event: Event::Begin, thread, seq: None, timestamp_ns: None, value: None };
            let end = Record { order: o + 1, event: Event::End, value: Some(trips), ..begin.clone() };
            out.push(begin);
            out.push(end);
            previous = Some((probe, trips));
        }
        o += 2;
    }
    if let (true, Some((p, t))) = (repeats > 0, previous) {
        push_repeat(out, p, thread, o - 2 * repeats, repeats, t);
    }
    Ok(o - 1)
}

fn push_repeat(out: &mut Vec<Record>, probe: u32, thread: u32, order: u64, count: u64, trips: u64) {
    let value = Some(trips);
    out.push(Record { order, probe, event: Event::Repeat { count }, thread, seq: None, timestamp_ns: None, value });
}

#[cold]
fn cut_short(at: usize, what: &str) -> Error {
    corrupt(at, &format!("the {what} is cut short"))
}

/// A little-endian base-128 number; None when the input ends inside it or it exceeds 64 bits.
/// Most are one byte (a probe id, a small trip count): that case inline, the rest out of line.
#[inline(always)]
fn varint(bytes: &[u8], pos: &mut usize) -> Option<u64> {
    match bytes.get(*pos) {
        Some(&b) if b < 0x80 => {
            *pos += 1;
            Some(u64::from(b))
        }
        _ => varint_long(bytes, pos),
    }
}

#[inline(never)]
fn varint_long(bytes: &[u8], pos: &mut usize) -> Option<u64> {
    let mut v = 0u64;
    for shift in (0..64).step_by(7) {
        let b = *bytes.get(*pos)?;
        *pos += 1;
        v |= u64::from(b & 0x7f).checked_shl(shift)?;
        if b & 0x80 == 0 {
            return Some(v);
        }
    }
    None
}

pub(crate) fn corrupt(at: usize, what: &str) -> Error {
    Error::new(
        ErrorKind::BadInput,
        format!("the binary event log is corrupt at byte {at}: {what} (run the testbench again to rewrite it)"),
    )
}

fn check_unique_orders(records: &[Record]) -> Result<()> {
    match records.windows(2).find(|w| w[0].order == w[1].order) {
        Some(w) => {
            Err(Error::new(ErrorKind::BadInput, format!("two records share order {}: the log is corrupt", w[0].order)))
        }
        None => Ok(()),
    }
}

/// Parses a whole log; records come back sorted by `order`.
pub fn parse(text: &str) -> Result<Vec<Record>> {
    let mut lines = text.lines().enumerate();
    match lines.next() {
        Some((_, first)) if first.trim_end() == HEADER => {}
        Some((_, first)) if first.starts_with("# hlsinstr events") => {
            return Err(bad(
                1,
                format!("unsupported event log version `{}`: this hlsinstr reads `{HEADER}`", first.trim()),
            ));
        }
        _ => return Err(bad(1, format!("not an hlsinstr event log: the first line must be `{HEADER}`"))),
    }
    let mut out = Vec::new();
    for (i, line) in lines {
        let line = line.trim_end();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        out.push(parse_record(line).map_err(|msg| bad(i + 1, msg))?);
    }
    out.sort_by_key(|r| r.order);
    check_unique_orders(&out)?;
    Ok(out)
}

pub(crate) fn parse_record(line: &str) -> std::result::Result<Record, String> {
    let fields: Vec<&str> = line.split_ascii_whitespace().collect();
    let watch = ["C", "H", "O", "I"].iter().position(|l| fields.get(2) == Some(l));
    if watch.is_some() {
        if fields.len() != 8 {
            return Err(format!(
                "expected 8 fields `order probe event thread seq timestamp_ns value index` in a watch record, found {}",
                fields.len()
            ));
        }
    } else if fields.len() != 7 {
        return Err(format!(
            "expected 7 fields `order probe event thread seq timestamp_ns value`, found {}",
            fields.len()
        ));
    }
    let num = |name: &str, s: &str| s.parse::<u64>().map_err(|_| format!("{name} `{s}` is not a number"));
    let opt = |name: &str, s: &str| if s == "-" { Ok(None) } else { num(name, s).map(Some) };
    let probe =
        u32::try_from(num("probe", fields[1])?).map_err(|_| format!("probe `{}` is out of range", fields[1]))?;
    let thread =
        u32::try_from(num("thread", fields[3])?).map_err(|_| format!("thread `{}` is out of range", fields[3]))?;
    let signed = |name: &str, s: &str| s.parse::<i64>().map_err(|_| format!("{name} `{s}` is not a number"));
    let (event, value) = match watch {
        Some(k) => {
            let index = signed("index", fields[7])?;
            let value = if fields[6] == "-" { None } else { Some(signed("value", fields[6])? as u64) };
            (Event::Watch { kind: WatchKind::from_code(k as u64), index }, value)
        }
        None => (
            Event::from_letter(fields[2])
                .ok_or_else(|| format!("unknown event `{}` (B, E, R, W, D, T, C, H, O or I)", fields[2]))?,
            opt("value", fields[6])?,
        ),
    };
    Ok(Record {
        order: num("order", fields[0])?,
        probe,
        event,
        thread,
        seq: opt("seq", fields[4])?,
        timestamp_ns: opt("timestamp", fields[5])?,
        value,
    })
}

fn bad(line: usize, msg: String) -> Error {
    Error::new(ErrorKind::BadInput, msg).at_line(line, 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_event_kind_sorted_by_order() {
        let log = "# hlsinstr events v1\n# order probe event thread seq timestamp_ns value\n\
                   2 1 E 0 - - 64\n0 0 B 0 - - -\n1 1 B 0 - - -\n3 5 R 0 - - 256\n4 5 W 0 - - 4\n5 0 E 0 7 900 -\n6 2 D 1 - - -\n";
        let r = parse(log).unwrap();
        assert_eq!(r.iter().map(|r| r.order).collect::<Vec<_>>(), vec![0, 1, 2, 3, 4, 5, 6]);
        assert_eq!(r[2].value, Some(64));
        assert_eq!(r[3].event, Event::BytesRead);
        assert_eq!(r[5].seq, Some(7));
        assert_eq!(r[5].timestamp_ns, Some(900));
        assert_eq!(r[6].event, Event::Deadlock);
        assert_eq!(r[6].thread, 1);
    }

    #[test]
    fn watch_records_have_a_signed_value_and_an_index() {
        let log = "# hlsinstr events v1\n0 0 C 0 - - 1 0\n1 4 I 0 - - -3 -2\n2 5 O 0 - - - 8\n";
        let r = parse(log).unwrap();
        assert_eq!(r[0].event, Event::Watch { kind: WatchKind::Call, index: 0 });
        assert_eq!(r[1].event, Event::Watch { kind: WatchKind::Invariant, index: -2 });
        assert_eq!(r[1].value.map(|v| v as i64), Some(-3));
        assert_eq!(r[2].event, Event::Watch { kind: WatchKind::OutOfBounds, index: 8 });
        assert_eq!(r[2].value, None);
        let e = parse("# hlsinstr events v1\n0 0 H 0 - - 1\n").unwrap_err();
        assert!(e.message.contains("8 fields"), "{e}");
        // binary: head 0x26 (code 6, value) | next order, probe 4, value zigzag(-3) = 5,
        // detail zigzag(-2) << 2 | 3 = 15
        let mut body = Vec::new();
        decode_buffer(&[0x66, 4, 5, 15], 0, 0, &mut body, &mut None).unwrap();
        assert_eq!(body[0].event, Event::Watch { kind: WatchKind::Invariant, index: -2 });
        assert_eq!(body[0].value.map(|v| v as i64), Some(-3));
        assert!(decode_buffer(&[0x66, 4, 5], 0, 0, &mut Vec::new(), &mut None).is_err());
    }

    #[test]
    fn corrupt_logs_name_the_line() {
        let e = parse("").unwrap_err();
        assert!(e.message.contains("first line"), "{e}");
        let e = parse("# hlsinstr events v9\n").unwrap_err();
        assert!(e.message.contains("unsupported"), "{e}");
        let e = parse("# hlsinstr events v1\n0 0 B 0 - -\n").unwrap_err();
        assert_eq!(e.line_col, Some((2, 1)));
        let e = parse("# hlsinstr events v1\n0 0 Q 0 - - -\n").unwrap_err();
        assert!(e.message.contains("unknown event"), "{e}");
        let e = parse("# hlsinstr events v1\n0 x B 0 - - -\n").unwrap_err();
        assert!(e.message.contains("probe `x`"), "{e}");
        let e = parse("# hlsinstr events v1\n0 0 B 0 - - -\n0 0 E 0 - - -\n").unwrap_err();
        assert!(e.message.contains("share order"), "{e}");
        for junk in
            ["\u{0}\u{1}", "# hlsinstr events v1\n\u{ff}", "# hlsinstr events v1\n99999999999999999999 0 B 0 - - -"]
        {
            assert!(parse(junk).is_err());
        }
    }
}
