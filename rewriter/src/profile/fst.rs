//! The FST side of [`super::wave`]: `fst-reader` pushes value changes through a callback, the
//! profile pulls one cycle at a time, so a thread owns the reader and hands the changes of the
//! watched signals over a bounded channel, in batches. Memory is the channel's few batches plus
//! the reader's one value-change block, whatever the run's length.
//!
//! A corrupt or truncated file may make the reader panic (it indexes what the file says): the
//! panic stays in its thread, silenced, and comes back as an error naming the file.

use super::wave::{Event, Scope, SigId};
use crate::error::{Error, ErrorKind, Result};
use fst_reader::{FstFilter, FstHierarchyEntry, FstReader, FstSignalHandle, FstSignalValue};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use vcd::Value;

/// The reader thread's name: its panics are not printed (see [`quiet_reader_panics`]).
const THREAD: &str = "hlsinstr-fst-reader";
/// Changes per batch, and batches in flight.
const BATCH: usize = 4096;
const IN_FLIGHT: usize = 4;

/// Value changes in file order, flattened: change `i` is `sig[i]` at `time[i]`, its bits
/// `bytes[end[i-1]..end[i]]`.
#[derive(Default)]
struct Batch {
    time: Vec<u64>,
    sig: Vec<SigId>,
    end: Vec<usize>,
    bytes: Vec<u8>,
}

enum Msg {
    Hierarchy(Scope),
    Changes(Batch),
    /// The last message: the reader's outcome.
    End(std::result::Result<(), String>),
}

pub(super) struct FstStream {
    path: PathBuf,
    rx: Receiver<Msg>,
    watch: Option<SyncSender<Vec<SigId>>>,
    batch: Batch,
    pos: usize,
    time: Option<u64>,
    ended: bool,
}

impl FstStream {
    /// Starts the reader on `path` and waits for its hierarchy.
    pub(super) fn open(path: &Path) -> Result<(Scope, FstStream)> {
        quiet_reader_panics();
        let (tx, rx) = sync_channel(IN_FLIGHT);
        let (watch_tx, watch_rx) = sync_channel(1);
        let p = path.to_path_buf();
        std::thread::Builder::new()
            .name(THREAD.into())
            .spawn(move || {
                let out = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| read(&p, &tx, &watch_rx)));
                let out = out.unwrap_or_else(|e| {
                    let why = e
                        .downcast_ref::<&str>()
                        .map(|s| s.to_string())
                        .or_else(|| e.downcast_ref::<String>().cloned())
                        .unwrap_or_default();
                    Err(format!("the reader stopped on bad data: {why}"))
                });
                let _ = tx.send(Msg::End(out));
            })
            .map_err(|e| Error::io(path, &e))?;
        let mut s = FstStream {
            path: path.to_path_buf(),
            rx,
            watch: Some(watch_tx),
            batch: Batch::default(),
            pos: 0,
            time: None,
            ended: false,
        };
        match s.recv()? {
            Some(Msg::Hierarchy(root)) => Ok((root, s)),
            _ => Err(s.bad("the reader ended before the hierarchy")),
        }
    }

    pub(super) fn started(&self) -> bool {
        self.watch.is_none()
    }

    /// Asks the reader for the changes of these signals.
    pub(super) fn start(&mut self, ids: Vec<SigId>) {
        if let Some(w) = self.watch.take() {
            let _ = w.send(ids);
        }
    }

    pub(super) fn next_event(&mut self) -> Result<Option<Event>> {
        while self.pos >= self.batch.time.len() {
            match self.recv()? {
                Some(Msg::Changes(b)) => {
                    self.batch = b;
                    self.pos = 0;
                }
                Some(_) => return Err(self.bad("a message out of order")),
                None => return Ok(None),
            }
        }
        let i = self.pos;
        let t = self.batch.time[i];
        if self.time != Some(t) {
            self.time = Some(t);
            return Ok(Some(Event::Time));
        }
        self.pos += 1;
        let from = if i == 0 { 0 } else { self.batch.end[i - 1] };
        let bits = self.batch.bytes[from..self.batch.end[i]].iter().map(|&b| value(b)).collect();
        Ok(Some(Event::Change(self.batch.sig[i], bits)))
    }

    /// The next message; `None` once the reader has ended well.
    fn recv(&mut self) -> Result<Option<Msg>> {
        if self.ended {
            return Ok(None);
        }
        match self.rx.recv() {
            Ok(Msg::End(Ok(()))) => {
                self.ended = true;
                Ok(None)
            }
            Ok(Msg::End(Err(e))) => {
                self.ended = true;
                Err(self.bad(&e))
            }
            Ok(m) => Ok(Some(m)),
            Err(_) => Err(self.bad("the reader thread ended without a word")),
        }
    }

    fn bad(&self, why: &str) -> Error {
        Error::new(
            ErrorKind::BadInput,
            format!(
                "cannot read this FST waveform ({why}): it is truncated or corrupt; let the simulation \
                 finish (the FST is completed when the simulator closes it) or dump a VCD instead"
            ),
        )
        .at(&self.path)
    }
}

fn value(b: u8) -> Value {
    match b {
        b'0' => Value::V0,
        b'1' => Value::V1,
        b'z' | b'Z' => Value::Z,
        _ => Value::X,
    }
}

/// The reader thread: hierarchy first, then the changes of the signals asked for.
fn read(path: &Path, tx: &SyncSender<Msg>, watch: &Receiver<Vec<SigId>>) -> std::result::Result<(), String> {
    let mut f = std::fs::File::open(path).map_err(|e| e.to_string())?;
    check_blocks(&mut f)?;
    let mut r = FstReader::open(std::io::BufReader::with_capacity(1 << 16, f)).map_err(|e| e.to_string())?;
    // Open scopes, the root first.
    let mut stack = vec![Scope::default()];
    r.read_hierarchy(|e| match e {
        FstHierarchyEntry::Scope { name, .. } => stack.push(Scope { name, ..Scope::default() }),
        FstHierarchyEntry::UpScope => close(&mut stack),
        FstHierarchyEntry::Var { name, length, handle, .. } => {
            if let Some(s) = stack.last_mut() {
                s.vars.push((var_name(&name).to_string(), handle.get_index() as SigId, length));
            }
        }
        _ => {}
    })
    .map_err(|e| e.to_string())?;
    while stack.len() > 1 {
        close(&mut stack);
    }
    if tx.send(Msg::Hierarchy(stack.pop().unwrap_or_default())).is_err() {
        return Ok(());
    }
    let Ok(ids) = watch.recv() else { return Ok(()) };
    let filter = FstFilter::filter_signals(ids.iter().map(|&i| FstSignalHandle::from_index(i as usize)).collect());
    let mut batch = Batch::default();
    let mut gone = false;
    r.read_signals(&filter, |t, h, v| {
        if gone {
            return;
        }
        batch.time.push(t);
        batch.sig.push(h.get_index() as SigId);
        match v {
            FstSignalValue::String(b) => batch.bytes.extend_from_slice(b),
            FstSignalValue::Real(_) => batch.bytes.push(b'x'),
        }
        batch.end.push(batch.bytes.len());
        if batch.time.len() >= BATCH {
            gone = tx.send(Msg::Changes(std::mem::take(&mut batch))).is_err();
        }
    })
    .map_err(|e| e.to_string())?;
    if !batch.time.is_empty() && !gone {
        let _ = tx.send(Msg::Changes(batch));
    }
    Ok(())
}

/// Ends the innermost open scope (never the root: an unmatched upscope is ignored).
fn close(stack: &mut Vec<Scope>) {
    if stack.len() > 1 {
        let s = stack.pop().unwrap_or_default();
        if let Some(parent) = stack.last_mut() {
            parent.children.push(s);
        }
    }
}

/// Lengths in the file size the reader's buffers, and an allocation that fails aborts the process
/// (no panic to catch): the block chain's lengths are checked against the file first, and the
/// geometry's and hierarchy's unpacked sizes against what zlib or LZ4 can unpack (≤ 1032:1).
fn check_blocks(f: &mut std::fs::File) -> std::result::Result<(), String> {
    use std::io::{Read, Seek, SeekFrom};
    let size = f.metadata().map_err(|e| e.to_string())?.len();
    let mut at = 0u64;
    let mut buf = [0u8; 25];
    while at < size {
        let n = f.read(&mut buf).map_err(|e| e.to_string())?;
        if n < 9 {
            return Err(format!("a block header cut short at byte {at}"));
        }
        let (kind, len) = (buf[0], u64::from_be_bytes(buf[1..9].try_into().unwrap_or_default()));
        if kind == 254 {
            return Ok(()); // gzip-wrapped: the reader unpacks it whole first
        }
        if kind == 255 && len == 0 {
            break;
        }
        if len < 8 || len > size - at - 1 {
            return Err(format!("block at byte {at} says {len} bytes, past the end of the file ({size} bytes)"));
        }
        // Geometry (3) and hierarchy (4, 6, 7): the unpacked length follows the section length.
        if matches!(kind, 3 | 4 | 6 | 7) && n >= 17 {
            let unpacked = u64::from_be_bytes(buf[9..17].try_into().unwrap_or_default());
            if unpacked > len.saturating_mul(1100) {
                return Err(format!("block at byte {at} unpacks to {unpacked} bytes from {len}"));
            }
            if kind == 3 && n >= 25 && u64::from_be_bytes(buf[17..25].try_into().unwrap_or_default()) > unpacked {
                return Err(format!("geometry at byte {at} counts more signals than it holds"));
            }
        }
        at += 1 + len;
        f.seek(SeekFrom::Start(at)).map_err(|e| e.to_string())?;
    }
    f.seek(SeekFrom::Start(0)).map_err(|e| e.to_string())?;
    Ok(())
}

/// Verilator names a vector `ap_CS_fsm [8:0]` in FST (VCD keeps the range apart): the name alone.
fn var_name(name: &str) -> &str {
    match name.rfind(" [") {
        Some(i) if name.ends_with(']') => &name[..i],
        _ => name,
    }
}

/// The reader thread's panics are errors returned to the profile, not messages on stderr.
fn quiet_reader_panics() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let prev = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if std::thread::current().name() != Some(THREAD) {
                prev(info)
            }
        }));
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vector_names_lose_their_range() {
        assert_eq!(var_name("ap_CS_fsm [8:0]"), "ap_CS_fsm");
        assert_eq!(var_name("ap_start"), "ap_start");
        assert_eq!(var_name("mem[3]"), "mem[3]");
    }

    #[test]
    fn a_block_longer_than_the_file_is_refused_before_reading() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("bad.fst");
        let mut b = vec![0u8];
        b.extend_from_slice(&(1u64 << 40).to_be_bytes());
        b.extend_from_slice(&[0; 32]);
        std::fs::write(&p, &b).unwrap();
        let e = check_blocks(&mut std::fs::File::open(&p).unwrap()).unwrap_err();
        assert!(e.contains("past the end of the file"), "{e}");
        let e = FstStream::open(&p).err().unwrap().to_string();
        assert!(e.contains("cannot read this FST waveform") && e.contains("past the end"), "{e}");
    }
}
