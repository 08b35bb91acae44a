//! The event log read as a stream: one record at a time, in `order`, in memory bounded by
//! [`REORDER_RECORDS`] however long the run was (a CNN testbench logs 4 · 10^8 records; read
//! whole they took 15 GB).
//!
//! A binary log arrives as each thread's buffers, interleaved as the threads filled them. One
//! thread's records come in order; between threads they are merged: a record goes on once every
//! thread that may still send an earlier one has a record waiting (hls-lib marks when a thread
//! other than the first starts and when it ends, so the reader knows which threads those are).
//! A thread that records little and rarely fills its buffer (a `main` waiting in `join` while
//! its dataflow threads log millions of records) would hold everything back: past
//! [`REORDER_RECORDS`] held records the earliest goes on anyway, each thread still in its own
//! order, and [`Stream::notes`] says the order between threads is approximate. A text log is
//! sorted through a window of the same size.

use super::events::{
    corrupt, decode_buffer, parse_record, Event, Record, BINARY_MAGIC, BINARY_MAGIC_V2, BINARY_MAGIC_V3,
    BINARY_MAGIC_V4, BINARY_MAGIC_V5, HEADER,
};
use super::fastmap::FastMap;
use crate::error::{Error, ErrorKind, Result};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::io::{BufRead, Read};

/// Records held back to be put in order, at most (a held record takes ~80 bytes, so ~170 MB).
pub const REORDER_RECORDS: usize = 1 << 21;

/// Records handed on as one run, at most: ~300 KB of them, so the renumbering and the analysis
/// that follows find them in the core's cache.
const MAX_RUN: usize = 4096;

/// Thread of the mark that ends every write of a binary log (its length is 0).
pub const END_MARK_THREAD: u32 = u32::MAX;
/// Thread of the mark that says a thread ended (its body: that thread, u32 LE).
pub const THREAD_END_MARK: u32 = u32::MAX - 1;
/// Thread of the mark that says a thread other than the first started (body: the thread).
pub const THREAD_START_MARK: u32 = u32::MAX - 2;
/// Thread of a version-3 log's clock mark: the calibration that converts the timestamps of the
/// buffers after it from counter ticks to nanoseconds (body: [`Clock`], 24 bytes).
pub const CLOCK_MARK: u32 = u32::MAX - 3;

/// A version-3 log's clock calibration: the counter's ticks when recording started and when
/// the mark was made, and the steady-clock nanoseconds between (hls-lib `timestamp.h`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clock {
    pub start_ticks: u64,
    pub now_ticks: u64,
    pub elapsed_ns: u64,
}

impl Clock {
    /// Reads a mark's body; `None` when it is not 24 bytes or its counter goes back.
    pub fn parse(body: &[u8]) -> Option<Clock> {
        let u = |k: usize| body.get(8 * k..8 * k + 8).map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes")));
        let c = Clock { start_ticks: u(0)?, now_ticks: u(1)?, elapsed_ns: u(2)? };
        (body.len() == 24 && c.now_ticks >= c.start_ticks).then_some(c)
    }

    /// Ticks → nanoseconds since the start (as hls-lib's text writer converts: rounded down; a
    /// tick before the start, from a thread that raced it, is 0).
    pub fn to_ns(&self, ticks: u64) -> u64 {
        let span = self.now_ticks - self.start_ticks;
        if ticks <= self.start_ticks || span == 0 {
            return 0;
        }
        let ns = u128::from(ticks - self.start_ticks) * u128::from(self.elapsed_ns) / u128::from(span);
        u64::try_from(ns).unwrap_or(u64::MAX)
    }
}

/// A log read record by record in `order` (see the module comment).
pub struct Stream<'a> {
    source: Source<'a>,
    /// A text log's batches, one record each.
    one: Vec<Record>,
    /// Records emitted so far: a binary log's `order` is this rank.
    emitted: u64,
    /// Sequence-numbered records emitted so far (a binary log's `seq`).
    seqs: u64,
    last_order: Option<u64>,
    /// A repeat record being given out by [`Stream::next_record`]: the record, and how many of
    /// the begins and ends it stands for are still to come.
    repeating: Option<(Record, u64)>,
    /// Records that went on before it was known that no earlier one would come.
    forced: u64,
    /// Records that came after a later one had gone on.
    late: u64,
    window: usize,
}

enum Source<'a> {
    Text(Text<'a>),
    Binary(Binary<'a>),
}

struct Text<'a> {
    input: Box<dyn BufRead + 'a>,
    line: usize,
    buf: Vec<u8>,
    /// (order, arrival) → record: sorted through a window.
    held: BinaryHeap<Reverse<(u64, u64, HeldRecord)>>,
    arrivals: u64,
    eof: bool,
}

/// A record in a heap (ordered by the key before it only).
struct HeldRecord(Record);
impl PartialEq for HeldRecord {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}
impl Eq for HeldRecord {}
impl PartialOrd for HeldRecord {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for HeldRecord {
    fn cmp(&self, _: &Self) -> std::cmp::Ordering {
        std::cmp::Ordering::Equal
    }
}

struct Binary<'a> {
    input: Box<dyn BufRead + 'a>,
    /// The block being read (kept: one allocation for the whole log).
    body: Vec<u8>,
    /// Byte offset of the next block (for error messages).
    at: usize,
    threads: FastMap<u32, Lane>,
    /// Head order of every thread with records waiting.
    heads: BinaryHeap<Reverse<(u64, u32)>>,
    /// Threads that may still send records and have none waiting: nothing can go on in order.
    starving: usize,
    held: usize,
    /// The last block read was an end mark.
    closed: bool,
    eof: bool,
    /// Version 3: timestamps are counter ticks, converted with the latest clock mark.
    ticks: bool,
    clock: Option<Clock>,
}

/// One thread's records waiting to go on: `queue[head..]` (a vector and a cursor, not a deque,
/// so a run of them goes on as one slice; the part before `head` is dropped when it is at least
/// half, so each record is moved once).
#[derive(Default)]
struct Lane {
    queue: Vec<Record>,
    head: usize,
    ended: bool,
    last_raw: Option<u64>,
    /// The last converted timestamp (version 3).
    last_ns: u64,
}

impl<'a> Stream<'a> {
    /// A stream over `input`, a log in either format (told apart by its first bytes).
    pub fn new(input: impl Read + 'a) -> Result<Stream<'a>> {
        Self::with_window(input, REORDER_RECORDS)
    }

    /// As `new`, holding at most `window` records back (tests use small windows).
    pub fn with_window(mut input: impl Read + 'a, window: usize) -> Result<Stream<'a>> {
        let mut head = Vec::with_capacity(8);
        (&mut input).take(8).read_to_end(&mut head).map_err(io_error)?;
        if head.is_empty() {
            return Err(Error::new(
                ErrorKind::BadInput,
                "the event log is empty: the testbench ended without writing it (through _exit or abort? call \
                 hlsinstr::sim::flush_events() before)",
            ));
        }
        let binary = [BINARY_MAGIC, BINARY_MAGIC_V5, BINARY_MAGIC_V4, BINARY_MAGIC_V3, BINARY_MAGIC_V2]
            .iter()
            .any(|m| head.as_slice() == *m);
        if !binary && head.len() == 8 && head.starts_with(b"HLSIEV") && head[7] == b'\n' {
            return Err(Error::new(
                ErrorKind::BadInput,
                format!(
                    "binary event log version {}: this hlsinstr reads versions 2 to 6 (a newer log: update hlsinstr)",
                    String::from_utf8_lossy(&head[6..7])
                ),
            ));
        }
        let rest = std::io::BufReader::with_capacity(1 << 16, input);
        let source = if binary {
            let mut threads = FastMap::default();
            // The first thread that records is thread 0 and is never announced.
            threads.insert(0, Lane::default());
            Source::Binary(Binary {
                input: Box::new(rest),
                body: Vec::new(),
                at: BINARY_MAGIC.len(),
                threads,
                heads: BinaryHeap::new(),
                starving: 1,
                held: 0,
                closed: false,
                eof: false,
                ticks: head.as_slice() != BINARY_MAGIC_V2,
                clock: None,
            })
        } else {
            let mut t = Text {
                input: Box::new(std::io::Cursor::new(head).chain(rest)),
                line: 0,
                buf: Vec::new(),
                held: BinaryHeap::new(),
                arrivals: 0,
                eof: false,
            };
            t.header()?;
            Source::Text(t)
        };
        Ok(Stream {
            source,
            one: Vec::new(),
            emitted: 0,
            seqs: 0,
            last_order: None,
            repeating: None,
            forced: 0,
            late: 0,
            window: window.max(1),
        })
    }

    /// The next record in order; `None` at the end of the log. A repeat record comes out as the
    /// begins and ends it stands for, one at a time.
    pub fn next_record(&mut self) -> Result<Option<Record>> {
        if let Some((leaf, left)) = &mut self.repeating {
            let mut r = leaf.clone();
            let done = 2 * leaf_count(leaf) - *left;
            r.order += done;
            r.event = if done.is_multiple_of(2) { Event::Begin } else { Event::End };
            if r.event == Event::Begin {
                r.value = None;
            }
            *left -= 1;
            if *left == 0 {
                self.repeating = None;
            }
            return Ok(Some(r));
        }
        if let Source::Text(t) = &mut self.source {
            while !t.eof && t.held.len() <= self.window {
                t.read_one()?;
            }
            let Some(Reverse((order, _, HeldRecord(r)))) = t.held.pop() else { return Ok(None) };
            check_order(&mut self.last_order, &mut self.late, order)?;
            self.emitted += 1;
            return Ok(Some(r));
        }
        let r = self.next_run(true)?.first().cloned();
        if let Some(leaf @ Record { event: Event::Repeat { count }, .. }) = r {
            self.repeating = Some((leaf, 2 * count));
            return self.next_record();
        }
        Ok(r)
    }

    /// The next records in order, as many as go on together (a binary log's run of one thread's
    /// records before another thread's next: a whole buffer for a log of one thread); the same
    /// records [`Stream::next_record`] gives one by one, without moving each. Empty at the end of
    /// the log. The analysis reads 10^8 records this way: a record copied out and returned one
    /// call at a time cost more than decoding it.
    pub fn next_batch(&mut self) -> Result<&[Record]> {
        if let Source::Text(_) = self.source {
            self.one.clear();
            if let Some(r) = self.next_record()? {
                self.one.push(r);
            }
            return Ok(&self.one);
        }
        self.next_run(false)
    }

    /// A binary log's next run of records (one record when `one`), renumbered in place.
    fn next_run(&mut self, one: bool) -> Result<&[Record]> {
        let Source::Binary(b) = &mut self.source else { unreachable!("a binary log") };
        loop {
            let full = b.held > self.window;
            if !b.heads.is_empty() && (b.starving == 0 || b.eof || full) {
                // Past the window the earliest goes on alone: whether the next may follow it is
                // decided again, record by record.
                let forced = b.starving > 0 && !b.eof;
                if forced {
                    self.forced += 1;
                }
                let (thread, start, n) = b.take_run(one || forced);
                let lane = b.threads.get_mut(&thread).expect("a known thread");
                let run = &mut lane.queue[start..start + n];
                // A thread's orders rise (checked as its buffers were read): its run comes after
                // what went on before it whole, or else is checked record by record.
                match (self.last_order, run.first(), run.last()) {
                    (Some(l), Some(f), _) if f.order <= l => {
                        for r in run.iter() {
                            check_order(&mut self.last_order, &mut self.late, r.order)?;
                        }
                    }
                    (_, _, Some(last)) => self.last_order = Some(last.order),
                    _ => {}
                }
                for r in run.iter_mut() {
                    r.order = self.emitted;
                    if r.seq.is_some() {
                        r.seq = Some(self.seqs);
                        self.seqs += 1;
                    }
                    self.emitted += match r.event {
                        Event::Repeat { count } => 2 * count,
                        _ => 1,
                    };
                }
                return Ok(run);
            }
            if b.eof {
                return Ok(&[]);
            }
            b.read_block()?;
        }
    }

    /// Records read so far.
    pub fn records(&self) -> u64 {
        self.emitted
    }

    /// What the reader could not do exactly, for the report's warnings.
    pub fn notes(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.forced > 0 || self.late > 0 {
            out.push(format!(
                "the event log's threads were merged in approximate order: more than {} records waited for a \
                 thread that sent none ({} records went on early, {} came late); each thread's own records are \
                 in order, so per-row figures hold, but which row appeared first may differ",
                self.window, self.forced, self.late
            ));
        }
        out
    }
}

impl Text<'_> {
    fn header(&mut self) -> Result<()> {
        let first = self.next_line()?.unwrap_or_default();
        let first = first.trim_end();
        if first == HEADER {
            return Ok(());
        }
        if first.starts_with("# hlsinstr events") {
            return Err(bad(
                1,
                format!("unsupported event log version `{}`: this hlsinstr reads `{HEADER}`", first.trim()),
            ));
        }
        Err(bad(1, format!("not an hlsinstr event log: the first line must be `{HEADER}`")))
    }

    fn next_line(&mut self) -> Result<Option<String>> {
        self.buf.clear();
        if self.input.read_until(b'\n', &mut self.buf).map_err(io_error)? == 0 {
            return Ok(None);
        }
        self.line += 1;
        match std::str::from_utf8(&self.buf) {
            Ok(s) => Ok(Some(s.to_string())),
            Err(e) if self.line == 1 => Err(Error::new(
                ErrorKind::BadInput,
                format!("not an hlsinstr event log: neither `{HEADER}` text nor the binary format ({e})"),
            )),
            Err(e) => Err(bad(self.line, format!("not text: {e}"))),
        }
    }

    fn read_one(&mut self) -> Result<()> {
        let Some(line) = self.next_line()? else {
            self.eof = true;
            return Ok(());
        };
        let line = line.trim_end();
        if line.is_empty() || line.starts_with('#') {
            return Ok(());
        }
        let r = parse_record(line).map_err(|msg| bad(self.line, msg))?;
        self.arrivals += 1;
        self.held.push(Reverse((r.order, self.arrivals, HeldRecord(r))));
        Ok(())
    }
}

impl Binary<'_> {
    /// Takes the earliest waiting records: the head thread's, up to the next thread's head order
    /// (at least one; only one when `one`). Returns the thread and the run's place in its queue.
    fn take_run(&mut self, one: bool) -> (u32, usize, usize) {
        let Reverse((_, thread)) = self.heads.pop().expect("a waiting record");
        let limit = if one { 0 } else { self.heads.peek().map_or(u64::MAX, |h| h.0 .0) };
        let lane = self.threads.get_mut(&thread).expect("a known thread");
        let start = lane.head;
        let end = match limit {
            // No other thread waits: no need to look at the orders.
            u64::MAX => lane.queue.len().min(start + MAX_RUN),
            _ => start + 1 + lane.queue[start + 1..].iter().take(MAX_RUN - 1).take_while(|r| r.order < limit).count(),
        };
        lane.head = end;
        self.held -= end - start;
        match lane.queue.get(end) {
            Some(next) => self.heads.push(Reverse((next.order, thread))),
            None if !lane.ended => self.starving += 1,
            None => {}
        }
        (thread, start, end - start)
    }

    /// A version-3 buffer's timestamps, ticks → nanoseconds with the latest clock mark. Each
    /// thread's stay in order across marks (a later mark measures the rate over a longer time,
    /// so its conversion of a tick may differ by a hair).
    fn convert_ticks(clock: Option<Clock>, lane: &mut Lane, from: usize, at: usize) -> Result<()> {
        for r in &mut lane.queue[from..] {
            if let Some(t) = r.timestamp_ns.as_mut() {
                let Some(clock) = clock else {
                    return Err(corrupt(
                        at,
                        "a buffer holds timestamps but no clock mark came before it: the counter's ticks cannot \
                         be converted to time",
                    ));
                };
                *t = clock.to_ns(*t).max(lane.last_ns);
                lane.last_ns = *t;
            }
        }
        Ok(())
    }

    fn lane(&mut self, thread: u32) -> &mut Lane {
        let starving = &mut self.starving;
        self.threads.entry(thread).or_insert_with(|| {
            *starving += 1;
            Lane::default()
        })
    }

    /// Reads one block: a buffer of records, or a mark.
    fn read_block(&mut self) -> Result<()> {
        let at = self.at;
        let mut head = [0u8; 8];
        let n = read_full(&mut self.input, &mut head)?;
        if n == 0 {
            if !self.closed {
                return Err(corrupt(
                    at,
                    "the log ends without its end mark: the testbench was stopped while writing it",
                ));
            }
            self.eof = true;
            return Ok(());
        }
        if n < 8 {
            return Err(corrupt(at, "a buffer header is cut short"));
        }
        let thread = u32::from_le_bytes(head[..4].try_into().expect("4 bytes"));
        let len = u32::from_le_bytes(head[4..].try_into().expect("4 bytes")) as usize;
        self.closed = thread == END_MARK_THREAD;
        if self.closed {
            if len != 0 {
                return Err(corrupt(at, "an end mark with a length"));
            }
            self.at += 8;
            return Ok(());
        }
        let mut body = std::mem::take(&mut self.body);
        body.clear();
        (&mut self.input).take(len as u64).read_to_end(&mut body).map_err(io_error)?;
        if body.len() < len {
            return Err(corrupt(at, "a buffer is cut short"));
        }
        self.at += 8 + len;
        let read = self.take_block(thread, &body, at);
        self.body = body;
        read
    }

    /// A block's body read: a mark taken note of, or a buffer's records queued on its thread.
    fn take_block(&mut self, thread: u32, body: &[u8], at: usize) -> Result<()> {
        if self.ticks && thread == CLOCK_MARK {
            self.clock = Some(Clock::parse(body).ok_or_else(|| {
                corrupt(
                    at,
                    "a clock mark is not 24 bytes, or its counter goes back: the timestamps cannot be converted",
                )
            })?);
            return Ok(());
        }
        if thread == THREAD_START_MARK || thread == THREAD_END_MARK {
            let id: [u8; 4] = body.try_into().map_err(|_| corrupt(at, "a thread mark is not 4 bytes"))?;
            let id = u32::from_le_bytes(id);
            let lane = self.lane(id);
            if thread == THREAD_END_MARK && !lane.ended {
                lane.ended = true;
                if lane.waiting() == 0 {
                    self.starving -= 1;
                }
            }
            return Ok(());
        }
        let (ticks, clock) = (self.ticks, self.clock);
        let lane = self.lane(thread);
        let was_empty = lane.waiting() == 0;
        // What went on is dropped once it is at least half the queue (so each record moves once).
        if lane.head > 0 && 2 * lane.head >= lane.queue.len() {
            lane.queue.drain(..lane.head);
            lane.head = 0;
        }
        let from = lane.queue.len();
        // Decoded straight into the thread's queue. Orders restart at every buffer; across a
        // thread's buffers they keep rising.
        let decoded = decode_buffer(body, at + 8, thread, &mut lane.queue, &mut lane.last_raw)?;
        // Without timestamps (the usual run) no pass converts them.
        if decoded.stamped && ticks {
            Self::convert_ticks(clock, lane, from, at)?;
        }
        if decoded.back {
            return Err(corrupt(at, "a thread's records go back in order"));
        }
        let added = lane.queue.len() - from;
        let ended = lane.ended;
        let first = lane.queue.get(lane.head).map(|r| r.order);
        self.held += added;
        if let (true, Some(first)) = (was_empty, first) {
            self.heads.push(Reverse((first, thread)));
            if !ended {
                self.starving -= 1;
            }
        }
        Ok(())
    }
}

impl Lane {
    /// Records waiting to go on.
    fn waiting(&self) -> usize {
        self.queue.len() - self.head
    }
}

/// A repeat record's count.
fn leaf_count(r: &Record) -> u64 {
    match r.event {
        Event::Repeat { count } => count,
        _ => 0,
    }
}

/// Refuses a repeated order; counts one that comes after a later one went on.
fn check_order(last_order: &mut Option<u64>, late: &mut u64, order: u64) -> Result<()> {
    match *last_order {
        Some(last) if order == last => {
            return Err(Error::new(ErrorKind::BadInput, format!("two records share order {order}: the log is corrupt")))
        }
        Some(last) if order < last => *late += 1,
        _ => *last_order = Some(order),
    }
    Ok(())
}

/// Reads until `buf` is full or the input ends; the bytes read.
fn read_full(input: &mut dyn BufRead, buf: &mut [u8]) -> Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match input.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(io_error(e)),
        }
    }
    Ok(n)
}

fn io_error(e: std::io::Error) -> Error {
    Error::new(ErrorKind::Io, format!("reading the event log: {e}"))
}

fn bad(line: usize, msg: String) -> Error {
    Error::new(ErrorKind::BadInput, msg).at_line(line, 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every record of a log as the batches give them: order, probe, event.
    fn in_batches(bytes: &[u8]) -> Vec<(u64, u32, Event)> {
        let mut s = Stream::new(bytes).unwrap();
        let mut out = Vec::new();
        loop {
            let b = s.next_batch().unwrap();
            if b.is_empty() {
                return out;
            }
            out.extend(b.iter().map(|r| (r.order, r.probe, r.event)));
        }
    }
    use crate::sim::events::Event;

    /// A binary block: thread, then (raw order, probe) begin records.
    fn buffer(thread: u32, records: &[(u64, u32)]) -> Vec<u8> {
        let mut body = Vec::new();
        let mut last = 0;
        for &(order, probe) in records {
            body.push(0u8); // a begin, order as a delta
            for v in [order - last, u64::from(probe)] {
                let mut v = v;
                while v >= 0x80 {
                    body.push((v as u8) | 0x80);
                    v >>= 7;
                }
                body.push(v as u8);
            }
            last = order;
        }
        block(thread, &body)
    }

    fn block(thread: u32, body: &[u8]) -> Vec<u8> {
        let mut b = thread.to_le_bytes().to_vec();
        b.extend((body.len() as u32).to_le_bytes());
        b.extend(body);
        b
    }

    fn log(blocks: &[Vec<u8>]) -> Vec<u8> {
        let mut b = BINARY_MAGIC.to_vec();
        blocks.iter().for_each(|x| b.extend(x));
        b.extend(block(END_MARK_THREAD, &[]));
        b
    }

    fn read(bytes: &[u8], window: usize) -> (Vec<(u32, u32)>, Vec<String>) {
        let mut s = Stream::with_window(bytes, window).unwrap();
        let mut out = Vec::new();
        while let Some(r) = s.next_record().unwrap() {
            assert_eq!(r.order, out.len() as u64, "orders become ranks");
            assert_eq!(r.event, Event::Begin);
            out.push((r.thread, r.probe));
        }
        (out, s.notes())
    }

    #[test]
    fn threads_buffers_interleaved_as_filled_come_out_in_global_order() {
        let start = |t: u32| block(THREAD_START_MARK, &t.to_le_bytes());
        let end = |t: u32| block(THREAD_END_MARK, &t.to_le_bytes());
        // Probe = the global order, to check the merge.
        let bytes = log(&[
            start(1),
            buffer(1, &[(1, 1), (3, 3)]),
            buffer(0, &[(0, 0), (2, 2)]),
            start(2),
            buffer(2, &[(5, 5)]),
            buffer(0, &[(4, 4), (7, 7)]),
            end(2),
            buffer(1, &[(6, 6)]),
            end(1),
        ]);
        let (got, notes) = read(&bytes, 100);
        assert_eq!(got.iter().map(|r| r.1).collect::<Vec<_>>(), (0..8).collect::<Vec<_>>());
        assert!(notes.is_empty(), "{notes:?}");
        // With room for one record only, a thread that sends nothing for a while is overtaken:
        // the order between threads is approximate, each thread's own is kept, and it is said.
        let bytes = log(&[start(1), buffer(1, &[(1, 1), (2, 2), (3, 3)]), buffer(0, &[(0, 0), (4, 4)])]);
        let (got, notes) = read(&bytes, 1);
        assert_eq!(got.len(), 5);
        for t in [0, 1] {
            let own: Vec<u32> = got.iter().filter(|r| r.0 == t).map(|r| r.1).collect();
            assert!(own.windows(2).all(|w| w[0] < w[1]), "thread {t}: {own:?}");
        }
        assert!(notes.iter().any(|n| n.contains("approximate order")), "{notes:?}");
        // The same with room to wait: exact.
        let (got, notes) = read(&bytes, 100);
        assert_eq!(got.iter().map(|r| r.1).collect::<Vec<_>>(), vec![0, 1, 2, 3, 4]);
        assert!(notes.is_empty());
    }

    /// Every record of `bytes` read in batches: (thread, probe, order), and the notes.
    fn read_batches(bytes: &[u8], window: usize) -> (Vec<(u32, u32, u64)>, Vec<String>) {
        let mut s = Stream::with_window(bytes, window).unwrap();
        let mut out = Vec::new();
        loop {
            let batch = s.next_batch().unwrap();
            if batch.is_empty() {
                break;
            }
            out.extend(batch.iter().map(|r| (r.thread, r.probe, r.order)));
        }
        (out, s.notes())
    }

    #[test]
    fn batches_give_the_records_one_by_one_reading_gives() {
        let start = |t: u32| block(THREAD_START_MARK, &t.to_le_bytes());
        let end = |t: u32| block(THREAD_END_MARK, &t.to_le_bytes());
        let many: Vec<(u64, u32)> = (0..10_000).map(|k| (2 * k + 1, 7)).collect();
        let logs = [
            log(&[
                start(1),
                buffer(1, &[(1, 1), (3, 3), (4, 4), (5, 5)]),
                buffer(0, &[(0, 0), (2, 2), (6, 6)]),
                end(1),
                buffer(0, &[(7, 7), (8, 8)]),
            ]),
            // One thread: runs of at most MAX_RUN records.
            log(&[buffer(0, &many)]),
            // A second thread that starves the merge: with a small window records go on early.
            log(&[start(1), buffer(1, &many), buffer(0, &[(0, 0), (30_000, 1)])]),
        ];
        for (k, bytes) in logs.iter().enumerate() {
            for window in [1, 3, 100, REORDER_RECORDS] {
                let mut s = Stream::with_window(bytes.as_slice(), window).unwrap();
                let mut one = Vec::new();
                while let Some(r) = s.next_record().unwrap() {
                    one.push((r.thread, r.probe, r.order));
                }
                let (batched, notes) = read_batches(bytes, window);
                assert_eq!(batched, one, "log {k}, window {window}");
                assert_eq!(notes, s.notes(), "log {k}, window {window}");
                assert!(batched.iter().enumerate().all(|(i, r)| r.2 == i as u64), "orders become ranks");
            }
        }
    }

    /// Thread 0: loop 3 runs with 5 trips, then 4 more times (a repeat record), then module 2;
    /// thread 1's begin lands after the repeats in the global order.
    fn repeated() -> Vec<u8> {
        let mut body = vec![0x40, 3, 0x61, 3, 5]; // B 3, E 3 value 5 (next orders)
        body.extend([0x47, 0x84, 0x80, 0x80, 0x80, 0x00]); // repeat 4, as the 5-byte varint hls-lib writes
        body.extend([0x40, 2, 0x41, 2]); // B 2, E 2
        log(&[block(0, &body), buffer(1, &[(20, 9)])])
    }

    #[test]
    fn a_repeat_record_is_one_in_a_batch_and_its_begins_and_ends_one_by_one() {
        let bytes = repeated();
        // One by one: what the unfolded log holds, orders dense.
        let mut s = Stream::new(bytes.as_slice()).unwrap();
        let mut one = Vec::new();
        while let Some(r) = s.next_record().unwrap() {
            one.push((r.order, r.thread, r.probe, r.event, r.value));
        }
        let mut want = Vec::new();
        for _ in 0..5 {
            want.push((3, Event::Begin, None));
            want.push((3, Event::End, Some(5)));
        }
        want.extend([(2, Event::Begin, None), (2, Event::End, None)]);
        let mut want: Vec<_> = want.into_iter().enumerate().map(|(i, (p, e, v))| (i as u64, 0, p, e, v)).collect();
        want.push((12, 1, 9, Event::Begin, None));
        assert_eq!(one, want);
        // In batches: the repeat is one record, its rank the first repetition's, and the ranks
        // after it count what it stands for.
        let batched = in_batches(&bytes);
        assert_eq!(
            batched,
            [
                (0, 3, Event::Begin),
                (1, 3, Event::End),
                (2, 3, Event::Repeat { count: 4 }),
                (10, 2, Event::Begin),
                (11, 2, Event::End),
                (12, 9, Event::Begin)
            ]
        );
        assert_eq!(s.records(), 13);
    }

    #[test]
    fn a_repeat_record_with_no_leaf_before_it_or_nothing_to_repeat_is_refused() {
        let refused = |body: &[u8]| {
            let bytes = log(&[block(0, body)]);
            let mut s = Stream::new(bytes.as_slice()).unwrap();
            std::iter::from_fn(|| s.next_record().transpose()).find_map(|r| r.err()).unwrap().message
        };
        let no_leaf = "a repeat record that does not follow a begin and its end";
        assert!(refused(&[0x47, 0x02]).contains(no_leaf)); // first in its buffer
        assert!(refused(&[0x40, 3, 0x47, 0x02]).contains(no_leaf)); // after a begin only
        assert!(refused(&[0x40, 3, 0x41, 4, 0x47, 0x02]).contains(no_leaf)); // begin and end of others
        assert!(refused(&[0x40, 3, 0x40, 4, 0x41, 4, 0x41, 3, 0x47, 0x02]).contains(no_leaf)); // not a leaf
        assert!(refused(&[0x40, 3, 0x41, 3, 0x47, 0x00]).contains("repeats nothing"));
        assert!(refused(&[0x40, 3, 0x41, 3, 0x47, 0x80]).contains("repeat count is cut short"));
        assert!(refused(&[0x40, 3, 0x41, 3, 0x57, 0x02]).contains("unknown record flags 0x57"));
    }

    #[test]
    fn a_leaf_runs_record_reads_back_as_its_begins_and_ends() {
        // B 1, then leaf runs: (3, 24), (3, 23), (3, 23), (3, 23), (4, 0), (300, 200), then E 1
        // trips 1; thread 1's begin lands after them in the global order.
        let mut body = vec![0x40, 1, 0x67, 6, 3, 24, 3, 23, 3, 23, 3, 23, 4, 0, 0xac, 0x02, 0xc8, 0x01];
        body.extend([0x61, 1, 1]);
        let bytes = log(&[block(0, &body), buffer(1, &[(20, 9)])]);
        let mut s = Stream::new(bytes.as_slice()).unwrap();
        let mut one = Vec::new();
        while let Some(r) = s.next_record().unwrap() {
            one.push((r.order, r.thread, r.probe, r.event, r.value));
        }
        let mut want = vec![(1, Event::Begin, None)];
        for (p, t) in [(3, 24), (3, 23), (3, 23), (3, 23), (4, 0), (300, 200)] {
            want.push((p, Event::Begin, None));
            want.push((p, Event::End, Some(t)));
        }
        want.push((1, Event::End, Some(1)));
        let mut want: Vec<_> = want.into_iter().enumerate().map(|(i, (p, e, v))| (i as u64, 0, p, e, v)).collect();
        want.push((14, 1, 9, Event::Begin, None));
        assert_eq!(one, want);
        // In batches: runs like the one before them are a repeat, as the log without leaf-runs
        // records folds them.
        let batched = in_batches(&bytes);
        let repeat = Event::Repeat { count: 2 };
        let want = [(0, 1, Event::Begin), (1, 3, Event::Begin), (2, 3, Event::End), (3, 3, Event::Begin)];
        assert_eq!(batched[..4], want);
        assert_eq!(batched[4..6], [(4, 3, Event::End), (5, 3, repeat)]);
        assert_eq!(
            batched[6..],
            [(9, 4, Event::Begin), (10, 4, Event::End), (11, 300, Event::Begin)]
                .into_iter()
                .chain([(12, 300, Event::End), (13, 1, Event::End), (14, 9, Event::Begin)])
                .collect::<Vec<_>>()[..]
        );
        assert_eq!(s.records(), 15);
        // Refused, not misread: no run, a cut list, an order delta that is cut.
        let refused = |body: &[u8]| {
            let bytes = log(&[block(0, body)]);
            let mut s = Stream::new(bytes.as_slice()).unwrap();
            std::iter::from_fn(|| s.next_record().transpose()).find_map(|r| r.err()).unwrap().message
        };
        assert!(refused(&[0x67, 0]).contains("holds no run"));
        assert!(refused(&[0x67, 3, 1, 1, 1]).contains("run list is cut short"));
        assert!(refused(&[0x67, 1, 1]).contains("run list is cut short"));
        assert!(refused(&[0x27]).contains("order is cut short"));
    }

    #[test]
    fn a_runs_record_reads_back_leaf_parents_and_their_leaves() {
        // B 1; then a runs record: parent 2 begins, leaf 3 runs (3, 24) (3, 24) (3, 24), leaf 4
        // runs 0 trips, parent 2 ends after 2 trips, parent 2 begins again (its end in the next
        // record), leaf 300 runs 200 trips; then a runs record with leaf 3 (3, 24) and parent 2's
        // end (trips 1); then E 1 trips 1.
        let mut body = vec![0x40, 1, 0x77, 8, 5, 0, 6, 24, 6, 24, 6, 24, 8, 0, 5, 3, 5, 0, 0xd8, 0x04, 0xc8, 0x01];
        body.extend([0x77, 2, 6, 24, 5, 2]);
        body.extend([0x61, 1, 1]);
        let bytes = log(&[block(0, &body)]);
        let mut s = Stream::new(bytes.as_slice()).unwrap();
        let mut one = Vec::new();
        while let Some(r) = s.next_record().unwrap() {
            one.push((r.order, r.probe, r.event, r.value));
        }
        let (b, e) = (Event::Begin, Event::End);
        let mut want = vec![(1, b, None), (2, b, None)];
        for _ in 0..3 {
            want.extend([(3, b, None), (3, e, Some(24))]);
        }
        want.extend([(4, b, None), (4, e, Some(0)), (2, e, Some(2)), (2, b, None), (300, b, None)]);
        want.extend([(300, e, Some(200)), (3, b, None), (3, e, Some(24)), (2, e, Some(1)), (1, e, Some(1))]);
        let want: Vec<_> = want.into_iter().enumerate().map(|(i, (p, e, v))| (i as u64, p, e, v)).collect();
        assert_eq!(one, want);
        // In batches: the leaf's runs before the parent's end are a repeat; a parent's entry ends
        // a run of repeats, so the leaf after it is a begin and an end again.
        let batched = in_batches(&bytes);
        let repeat = Event::Repeat { count: 2 };
        assert_eq!(batched[..5], [(0, 1, b), (1, 2, b), (2, 3, b), (3, 3, e), (4, 3, repeat)]);
        assert_eq!(batched[5..9], [(8, 4, b), (9, 4, e), (10, 2, e), (11, 2, b)]);
        assert_eq!(batched[9..], [(12, 300, b), (13, 300, e), (14, 3, b), (15, 3, e), (16, 2, e), (17, 1, e)]);
        // Refused, not misread: no entry, a cut entry list, an end of a huge trip count.
        let refused = |body: &[u8]| {
            let bytes = log(&[block(0, body)]);
            let mut s = Stream::new(bytes.as_slice()).unwrap();
            std::iter::from_fn(|| s.next_record().transpose()).find_map(|r| r.err()).unwrap().message
        };
        assert!(refused(&[0x77, 0]).contains("holds no run"));
        assert!(refused(&[0x77, 2, 5, 0, 6]).contains("run list is cut short"));
        assert!(refused(&[0x37]).contains("order is cut short"));
        // A version 5 log's leaf-runs record still reads as runs only (tag = probe).
        let mut v5 = log(&[block(0, &[0x67, 2, 5, 0, 6, 24])]);
        v5[..8].copy_from_slice(crate::sim::events::BINARY_MAGIC_V5);
        let mut s = Stream::new(v5.as_slice()).unwrap();
        let mut old = Vec::new();
        while let Some(r) = s.next_record().unwrap() {
            old.push((r.probe, r.event, r.value));
        }
        assert_eq!(old, [(5, b, None), (5, e, Some(0)), (6, b, None), (6, e, Some(24))]);
    }

    #[test]
    fn a_stream_refuses_what_a_whole_read_refused() {
        let good = log(&[buffer(0, &[(0, 0), (1, 1)])]);
        assert_eq!(read(&good, 10).0.len(), 2);
        let cut = &good[..good.len() - 8];
        let mut s = Stream::new(cut).unwrap();
        let e = std::iter::from_fn(|| s.next_record().transpose()).find_map(|r| r.err()).unwrap();
        assert!(e.message.contains("without its end mark"), "{e}");
        let twice = log(&[buffer(0, &[(0, 0)]), buffer(1, &[(0, 1)])]);
        let mut s = Stream::new(twice.as_slice()).unwrap();
        let e = std::iter::from_fn(|| s.next_record().transpose()).find_map(|r| r.err()).unwrap();
        assert!(e.message.contains("share order"), "{e}");
    }

    /// A buffer of begin records with timestamps, (probe, timestamp) each, their orders
    /// `first`, `first + 1`, ...
    fn stamped(thread: u32, first: u8, records: &[(u32, u64)]) -> Vec<u8> {
        let mut body = Vec::new();
        let mut last = 0u64;
        for (k, &(probe, t)) in records.iter().enumerate() {
            match k {
                0 => body.extend([0x08u8, first, probe as u8]), // a begin with a timestamp
                _ => body.extend([0x48u8, probe as u8]),        // the same, next order
            }
            let mut z = (t.wrapping_sub(last) << 1) ^ ((t.wrapping_sub(last) as i64 >> 63) as u64);
            while z >= 0x80 {
                body.push((z as u8) | 0x80);
                z >>= 7;
            }
            body.push(z as u8);
            last = t;
        }
        block(thread, &body)
    }

    fn clock(start: u64, now: u64, ns: u64) -> Vec<u8> {
        block(CLOCK_MARK, &[start.to_le_bytes(), now.to_le_bytes(), ns.to_le_bytes()].concat())
    }

    fn timestamps(bytes: &[u8]) -> Result<Vec<u64>> {
        let mut s = Stream::new(bytes)?;
        let mut out = Vec::new();
        while let Some(r) = s.next_record()? {
            out.push(r.timestamp_ns.unwrap());
        }
        Ok(out)
    }

    #[test]
    fn version_3_timestamps_are_ticks_converted_with_the_latest_clock_mark() {
        // 3 ticks a ns from tick 1000; the second mark measured a slightly slower rate, and the
        // thread's times stay in order across it.
        let bytes = log(&[
            clock(1000, 4000, 1000),
            stamped(0, 1, &[(0, 1000), (1, 1300), (2, 4000)]),
            clock(1000, 7000, 1999),
            stamped(0, 4, &[(3, 4001), (4, 7000)]),
        ]);
        assert_eq!(timestamps(&bytes).unwrap(), vec![0, 100, 1000, 1000, 1999]);
        // Version 2 logs are still read, their timestamps nanoseconds as written.
        let mut v2 = log(&[stamped(0, 1, &[(0, 5), (1, 9)])]);
        v2[..8].copy_from_slice(crate::sim::events::BINARY_MAGIC_V2);
        assert_eq!(timestamps(&v2).unwrap(), vec![5, 9]);
    }

    #[test]
    fn version_3_timestamps_without_a_valid_clock_mark_are_refused() {
        let missing = log(&[stamped(0, 1, &[(0, 1000)])]);
        let e = timestamps(&missing).unwrap_err();
        assert!(e.message.contains("no clock mark came before it"), "{e}");
        for bad in [clock(5000, 4000, 10), block(CLOCK_MARK, &[0; 16])] {
            let e = timestamps(&log(&[bad, stamped(0, 1, &[(0, 1000)])])).unwrap_err();
            assert!(e.message.contains("clock mark is not 24 bytes, or its counter goes back"), "{e}");
        }
        // A log without timestamps needs no mark.
        assert_eq!(read(&log(&[buffer(0, &[(0, 0)])]), 10).0.len(), 1);
    }
}
