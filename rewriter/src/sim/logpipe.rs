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

/// Spawns `cmd` with its event log going to a pipe (or, without pipes, to `fallback`).
#[cfg(unix)]
pub fn spawn(cmd: &mut Command, fallback: &Path) -> std::io::Result<(Child, LogReader)> {
    use std::os::fd::AsRawFd;
    let _ = fallback;
    let (pipe, writer) = std::io::pipe()?;
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

#[cfg(unix)]
fn set_inherited(fd: std::os::fd::RawFd) -> std::io::Result<()> {
    // SAFETY: fcntl on a descriptor this process owns (the pipe's write end, alive here).
    let r = unsafe { libc::fcntl(fd, libc::F_SETFD, 0) };
    if r == -1 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}
