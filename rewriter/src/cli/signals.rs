//! Ctrl-C and SIGTERM while hlsinstr runs a testbench or an emulation host.
//!
//! Those run in a process group of their own (`hlsinstr::proc`), so the terminal's Ctrl-C
//! reaches hlsinstr only. While a [`Guard`] lives, SIGINT and SIGTERM raise [`INTERRUPTED`]
//! instead of killing hlsinstr: the library sees the flag, kills the group, removes its
//! temporary directory and returns an error the CLI reports (exit code 130). A second signal
//! while the first is being handled ends hlsinstr at once, the default way.

use std::sync::atomic::{AtomicBool, Ordering};

/// Raised by the handler.
pub static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Exit code of a run ended by Ctrl-C or SIGTERM (128 + SIGINT, as shells report it).
pub const EXIT_INTERRUPTED: i32 = 130;

/// The handlers are installed while this lives; the previous ones come back when it drops.
pub struct Guard {
    #[cfg(unix)]
    previous: Vec<(libc::c_int, libc::sigaction)>,
}

#[cfg(unix)]
extern "C" fn on_signal(sig: libc::c_int) {
    // Only async-signal-safe work here: an atomic swap, and for a second signal signal(2) and
    // raise(2).
    if INTERRUPTED.swap(true, Ordering::SeqCst) {
        // SAFETY: restores the default action and re-raises: the process ends as it would have.
        unsafe {
            libc::signal(sig, libc::SIG_DFL);
            libc::raise(sig);
        }
    }
}

/// Installs the handlers for SIGINT and SIGTERM.
pub fn install() -> Guard {
    INTERRUPTED.store(false, Ordering::SeqCst);
    #[cfg(unix)]
    {
        let mut previous = Vec::new();
        for sig in [libc::SIGINT, libc::SIGTERM] {
            // SAFETY: sigaction with a zeroed struct filled in as sigaction(2) requires; the
            // handler only touches an atomic (see `on_signal`).
            unsafe {
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
                // Interrupted system calls resume: the flag is polled, not delivered by EINTR.
                action.sa_flags = libc::SA_RESTART;
                libc::sigemptyset(&mut action.sa_mask);
                let mut old: libc::sigaction = std::mem::zeroed();
                if libc::sigaction(sig, &action, &mut old) == 0 {
                    previous.push((sig, old));
                }
            }
        }
        Guard { previous }
    }
    #[cfg(not(unix))]
    Guard {}
}

impl Drop for Guard {
    fn drop(&mut self) {
        #[cfg(unix)]
        for (sig, old) in &self.previous {
            // SAFETY: puts back the action sigaction(2) returned for this signal.
            unsafe {
                libc::sigaction(*sig, old, std::ptr::null_mut());
            }
        }
    }
}
