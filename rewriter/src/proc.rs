//! Child processes that cannot outlive their run: a testbench (or an emulation host) runs in a
//! process group of its own, and whatever ends it (its exit, a time limit, a cancel request)
//! ends the whole group.
//!
//! Why a group: a testbench that calls `system("...")` or forks leaves grandchildren that a
//! plain `Child::kill` never reaches; one of them holding the event-log pipe kept `sim` waiting
//! forever and the work directory was never removed. Killing `-pgid` reaches every process the
//! testbench started unless it left the group on purpose (`setsid`, a daemon): readers of its
//! pipes therefore wait with a deadline too (see `sim::run`).
//!
//! A group of its own also means the terminal's Ctrl-C no longer reaches the testbench: the
//! caller handles SIGINT/SIGTERM (the CLI sets a flag, passed here as `cancel`) and the group is
//! ended from here.

use std::process::{Child, Command, ExitStatus};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How a supervised process ended.
#[derive(Debug)]
pub enum Ended {
    /// It exited (or was killed by a signal from elsewhere).
    Exited(ExitStatus),
    /// It ran past its limit; its group was killed.
    TimedOut,
    /// The cancel flag was raised (Ctrl-C); its group was killed.
    Cancelled,
}

/// A child that leads a process group of its own. Dropping it kills the group and reaps the
/// child, so no early return can leave the processes running.
pub struct Group {
    child: Child,
    reaped: bool,
}

/// Makes `cmd` start a new process group led by the child (no-op without Unix process groups).
pub fn own_group(cmd: &mut Command) -> &mut Command {
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        cmd.process_group(0);
    }
    cmd
}

impl Group {
    /// Takes charge of a child spawned from a command passed through [`own_group`].
    pub fn new(child: Child) -> Group {
        Group { child, reaped: false }
    }

    /// Process id of the child, which is also the id of its group.
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// Waits until the child exits, `limit` passes or `cancel` is raised; polls every 5 ms and
    /// calls `tick` with the time elapsed so far (for progress messages). On a time-out or a
    /// cancel, the whole group is killed and the child reaped before this returns.
    pub fn wait(
        &mut self,
        limit: Duration,
        cancel: Option<&AtomicBool>,
        mut tick: impl FnMut(Duration),
    ) -> std::io::Result<Ended> {
        let started = Instant::now();
        loop {
            if let Some(s) = self.child.try_wait()? {
                self.reaped = true;
                return Ok(Ended::Exited(s));
            }
            let t = started.elapsed();
            let ended = if cancel.is_some_and(|c| c.load(Ordering::SeqCst)) {
                Some(Ended::Cancelled)
            } else if t >= limit {
                Some(Ended::TimedOut)
            } else {
                None
            };
            if let Some(e) = ended {
                self.kill_group();
                let _ = self.child.wait();
                self.reaped = true;
                return Ok(e);
            }
            tick(t);
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Sends SIGKILL to every process of the group; true when one was still there (the child,
    /// or processes it left behind after exiting). Without Unix process groups only the child
    /// is killed.
    pub fn kill_group(&mut self) -> bool {
        #[cfg(unix)]
        {
            let Ok(pgid) = libc::pid_t::try_from(self.child.id()) else { return false };
            // SAFETY: kill(2) with a negative id signals the group we created for the child
            // (`process_group(0)` makes its id the child's pid); it touches no memory.
            let r = unsafe { libc::kill(-pgid, libc::SIGKILL) };
            r == 0
        }
        #[cfg(not(unix))]
        {
            !self.reaped && self.child.kill().is_ok()
        }
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        self.kill_group();
        if !self.reaped {
            let _ = self.child.wait();
        }
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    /// Alive: a /proc entry that is not a zombie (an orphan's zombie waits for init).
    fn alive(pid: u32) -> bool {
        std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .ok()
            .and_then(|s| s.rsplit(')').next().map(|r| !r.trim_start().starts_with('Z')))
            .unwrap_or(false)
    }

    fn grandchild_script(pidfile: &std::path::Path) -> Command {
        let mut cmd = Command::new("sh");
        cmd.arg("-c").arg(format!("sleep 1000 & echo $! > {}; sleep 1000", pidfile.display()));
        own_group(&mut cmd);
        cmd
    }

    fn read_pid(pidfile: &std::path::Path) -> u32 {
        for _ in 0..400 {
            if let Some(p) = std::fs::read_to_string(pidfile).ok().and_then(|s| s.trim().parse().ok()) {
                return p;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        panic!("the script wrote no pid");
    }

    fn gone(pid: u32) -> bool {
        (0..200).any(|_| {
            std::thread::sleep(Duration::from_millis(10));
            !alive(pid)
        })
    }

    #[test]
    fn a_time_out_kills_the_grandchildren_too() {
        let dir = tempfile::tempdir().unwrap();
        let pidfile = dir.path().join("pid");
        let mut g = Group::new(grandchild_script(&pidfile).spawn().unwrap());
        let child = g.id();
        let grandchild = read_pid(&pidfile);
        let started = Instant::now();
        let e = g.wait(Duration::from_millis(300), None, |_| {}).unwrap();
        assert!(matches!(e, Ended::TimedOut), "{e:?}");
        assert!(started.elapsed() < Duration::from_secs(5));
        assert!(!alive(child) && gone(grandchild), "the whole group is gone");
    }

    #[test]
    fn cancel_and_drop_kill_the_group() {
        let dir = tempfile::tempdir().unwrap();
        let pidfile = dir.path().join("pid");
        let mut g = Group::new(grandchild_script(&pidfile).spawn().unwrap());
        let grandchild = read_pid(&pidfile);
        let flag = AtomicBool::new(true);
        let e = g.wait(Duration::from_secs(600), Some(&flag), |_| {}).unwrap();
        assert!(matches!(e, Ended::Cancelled), "{e:?}");
        assert!(gone(grandchild));

        let pidfile = dir.path().join("pid2");
        let g = Group::new(grandchild_script(&pidfile).spawn().unwrap());
        let (child, grandchild) = (g.id(), read_pid(&pidfile));
        drop(g);
        assert!(gone(child) && gone(grandchild), "an early return cannot leave the processes running");
    }

    #[test]
    fn leftovers_of_an_exited_child_are_found_and_killed() {
        let dir = tempfile::tempdir().unwrap();
        let pidfile = dir.path().join("pid");
        let mut cmd = Command::new("sh");
        cmd.arg("-c").arg(format!("sleep 1000 & echo $! > {}", pidfile.display()));
        own_group(&mut cmd);
        let mut g = Group::new(cmd.spawn().unwrap());
        let e = g.wait(Duration::from_secs(600), None, |_| {}).unwrap();
        assert!(matches!(e, Ended::Exited(s) if s.success()), "{e:?}");
        let grandchild = read_pid(&pidfile);
        assert!(alive(grandchild));
        assert!(g.kill_group(), "a process was left");
        assert!(gone(grandchild));
    }
}
