//! How a testbench hands its event log to hlsinstr: through a pipe, not a file.
//!
//! Creating, renaming and journaling a log file cost a small testbench more than all of its
//! probes (~75 µs of a 0.7 ms run on ext4). So the testbench gets the write end of a pipe as
//! `HLSINSTR_EVENTS_FD` and writes its binary log there at exit (hls-lib `event_log.h`); the
//! caller reads the other end until the testbench, and every process that inherited the end,
//! has exited. Without Unix pipes the log goes to a file as before.

use std::io::Read;
use std::path::Path;
use std::process::{Child, Command};

/// The parent's end of the log: read it to the end while the testbench runs (it blocks when a
/// full pipe is not drained).
pub struct LogReader {
    #[cfg(unix)]
    pipe: std::io::PipeReader,
    #[cfg(not(unix))]
    file: std::path::PathBuf,
}

impl LogReader {
    /// Everything the testbench wrote; returns once it (and any child holding the pipe) exited.
    pub fn read_all(self) -> std::io::Result<Vec<u8>> {
        // Room for a pipe's worth up front: a small log then comes in one read, not in a probe
        // read and several growing ones.
        let mut bytes = Vec::with_capacity(1 << 16);
        #[cfg(unix)]
        {
            let mut pipe = self.pipe;
            pipe.read_to_end(&mut bytes)?;
        }
        #[cfg(not(unix))]
        {
            std::fs::File::open(&self.file)?.read_to_end(&mut bytes)?;
        }
        Ok(bytes)
    }
}

impl LogReader {
    /// Copies the log to `file` as it arrives (nothing of it held in memory); returns its
    /// length once the testbench (and any child holding the pipe) exited.
    pub fn copy_to(self, file: std::fs::File) -> std::io::Result<u64> {
        let mut out = std::io::BufWriter::with_capacity(1 << 16, file);
        #[cfg(unix)]
        let n = {
            let mut pipe = self.pipe;
            std::io::copy(&mut pipe, &mut out)?
        };
        #[cfg(not(unix))]
        let n = std::io::copy(&mut std::fs::File::open(&self.file)?, &mut out)?;
        std::io::Write::flush(&mut out)?;
        Ok(n)
    }
}

/// How far the copy of a log into its file has come, for readers that follow the file while it
/// grows ([`Follower`]): the analysis reads the log as the testbench writes it, on the other
/// core, so `sim` takes about the longer of the two rather than their sum. The testbench never
/// waits for the analysis (the copy drains the pipe as before; the file, not memory, holds what
/// the analysis has not read yet).
#[derive(Default)]
pub struct Progress {
    state: std::sync::Mutex<(u64, CopyState)>,
    grew: std::sync::Condvar,
}

#[derive(Clone, Copy, PartialEq, Eq, Default)]
enum CopyState {
    #[default]
    Running,
    Done,
    /// The copy failed, or the run ended in a way that leaves nothing to analyse.
    Stopped,
}

impl Progress {
    fn set(&self, f: impl FnOnce(&mut (u64, CopyState))) {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        f(&mut s);
        self.grew.notify_all();
    }

    /// Ends every [`Follower`]'s reading with an error (the run failed: no analysis is wanted).
    pub fn stop(&self) {
        self.set(|s| {
            if s.1 == CopyState::Running {
                s.1 = CopyState::Stopped;
            }
        });
    }
}

/// Reads a log file as [`LogReader::copy_following`] writes it: at the end of what was
/// written so far it waits for more, until the copy is done.
pub struct Follower {
    file: std::fs::File,
    at: u64,
    progress: std::sync::Arc<Progress>,
}

impl Follower {
    pub fn new(path: &Path, progress: std::sync::Arc<Progress>) -> std::io::Result<Follower> {
        Ok(Follower { file: std::fs::File::open(path)?, at: 0, progress })
    }
}

impl Read for Follower {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let (written, copy) = {
            let mut s = self.progress.state.lock().unwrap_or_else(|e| e.into_inner());
            while s.0 == self.at && s.1 == CopyState::Running {
                s = self.progress.grew.wait(s).unwrap_or_else(|e| e.into_inner());
            }
            *s
        };
        if copy == CopyState::Stopped {
            return Err(std::io::Error::other("the run ended before its event log was complete"));
        }
        if written > self.at {
            let n = buf.len().min(usize::try_from(written - self.at).unwrap_or(usize::MAX));
            let k = self.file.read(&mut buf[..n])?;
            self.at += k as u64;
            return Ok(k);
        }
        Ok(0)
    }
}

impl LogReader {
    /// As [`LogReader::copy_to`], telling `progress` how far the file has been written (each
    /// piece written whole before it is counted).
    pub fn copy_following(self, mut file: std::fs::File, progress: &Progress) -> std::io::Result<u64> {
        use std::io::Write;
        #[cfg(unix)]
        let mut from = self.pipe;
        #[cfg(not(unix))]
        let mut from = std::fs::File::open(&self.file)?;
        let mut buf = vec![0u8; 1 << 16];
        let mut total = 0u64;
        let result = loop {
            let n = match from.read(&mut buf) {
                Ok(0) => break Ok(total),
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => break Err(e),
            };
            if let Err(e) = file.write_all(&buf[..n]) {
                break Err(e);
            }
            total += n as u64;
            progress.set(|s| s.0 = total);
        };
        progress.set(|s| {
            s.1 = match (&result, s.1) {
                (Ok(_), CopyState::Running) => CopyState::Done,
                _ => CopyState::Stopped,
            }
        });
        result
    }
}

/// Spawns `cmd` with its event log going to a pipe (or, without pipes, to `fallback`).
#[cfg(unix)]
pub fn spawn(cmd: &mut Command, fallback: &Path) -> std::io::Result<(Child, LogReader)> {
    use std::os::fd::AsRawFd;
    let _ = fallback;
    let (pipe, writer) = std::io::pipe()?;
    widen(&pipe);
    let fd = writer.as_raw_fd();
    // Pipes are opened close-on-exec; the testbench must inherit this one. Other threads that
    // spawn processes during this call may inherit it too; they only delay the end of the log
    // until they exit.
    set_inherited(fd)?;
    cmd.env("HLSINSTR_EVENTS_FD", fd.to_string()).env("HLSINSTR_EVENTS_FORMAT", "binary");
    let child = cmd.spawn();
    // The parent's copy of the write end must go, or the reader never sees the end.
    drop(writer);
    Ok((child?, LogReader { pipe }))
}

#[cfg(not(unix))]
pub fn spawn(cmd: &mut Command, fallback: &Path) -> std::io::Result<(Child, LogReader)> {
    cmd.env("HLSINSTR_EVENTS", fallback).env("HLSINSTR_EVENTS_FORMAT", "binary");
    Ok((cmd.spawn()?, LogReader { file: fallback.to_path_buf() }))
}

/// Makes the pipe hold 1 MiB instead of 64 KiB (Linux; the default pipe-max-size allows it):
/// a testbench that fills its 64 KiB buffers faster than a core that is busy elsewhere drains
/// them then writes on instead of sleeping until the copy runs. Where it fails the pipe keeps
/// its size.
#[cfg(unix)]
fn widen(pipe: &std::io::PipeReader) {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        // SAFETY: fcntl on a descriptor this process owns (the pipe's read end, alive here).
        unsafe { libc::fcntl(pipe.as_raw_fd(), libc::F_SETPIPE_SZ, 1 << 20) };
    }
    #[cfg(not(target_os = "linux"))]
    let _ = pipe;
}

#[cfg(unix)]
fn set_inherited(fd: std::os::fd::RawFd) -> std::io::Result<()> {
    // SAFETY: fcntl on a descriptor this process owns (the pipe's write end, alive here).
    let r = unsafe { libc::fcntl(fd, libc::F_SETFD, 0) };
    if r == -1 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}
