//! Ctrl-C during a long call from Python.
//!
//! A call runs without the GIL, so Python's own SIGINT handler only notes the signal:
//! the `KeyboardInterrupt` would come after the call ends. For the length of every call
//! a C handler of our own is installed in front of Python's: it raises the
//! interpreter's interrupt flag (`blazar_runtime::interrupt`), so the run stops at its
//! next loop iteration or call, and then calls the handler it replaced (Python's notes
//! the signal as usual). When the call has ended, [`Guard::finish`] lets Python run its
//! handlers (`PyErr_CheckSignals`): the default one raises `KeyboardInterrupt`, a
//! program's own handler runs as it would have. Calls from several threads at once
//! share one installation (the first installs, the last restores).

use pyo3::exceptions::PyKeyboardInterrupt;
use pyo3::prelude::*;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Calls running now and the handler that was installed before the first of them.
static ACTIVE: Mutex<(usize, Option<libc::sigaction>)> = Mutex::new((0, None));
/// The replaced handler's address (0: none to call), read by our handler.
static PREVIOUS: AtomicUsize = AtomicUsize::new(0);
/// Whether the replaced handler takes three arguments (`SA_SIGINFO`).
static PREVIOUS_INFO: AtomicUsize = AtomicUsize::new(0);

extern "C" fn on_sigint(sig: libc::c_int, info: *mut libc::siginfo_t, uctx: *mut libc::c_void) {
    blazar_runtime::interrupt::flag().store(sig as usize, Ordering::SeqCst);
    let prev = PREVIOUS.load(Ordering::SeqCst);
    if prev == 0 {
        return;
    }
    // SAFETY: `prev` is the function pointer the replaced `sigaction` held, of the kind
    // its flags said; calling it is what the signal would have done without us.
    unsafe {
        if PREVIOUS_INFO.load(Ordering::SeqCst) != 0 {
            let f: extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void) =
                std::mem::transmute(prev);
            f(sig, info, uctx);
        } else {
            let f: extern "C" fn(libc::c_int) = std::mem::transmute(prev);
            f(sig);
        }
    }
}

/// Our handler is installed while a `Guard` lives.
pub struct Guard {
    installed: bool,
}

/// Installs the handler for one call (or joins the calls that installed it).
pub fn guard() -> Guard {
    let Ok(mut active) = ACTIVE.lock() else {
        return Guard { installed: false };
    };
    if active.0 == 0 {
        // SAFETY: plain sigaction calls with zeroed, then filled, structures.
        unsafe {
            let mut old: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(libc::SIGINT, std::ptr::null(), &mut old) != 0 {
                return Guard { installed: false };
            }
            if old.sa_sigaction == libc::SIG_IGN {
                // Ctrl-C is ignored in this process: so it stays.
                return Guard { installed: false };
            }
            // The interrupt flag starts clear (a Ctrl-C between calls was Python's).
            blazar_runtime::interrupt::flag().store(0, Ordering::SeqCst);
            let prev = if old.sa_sigaction == libc::SIG_DFL {
                0
            } else {
                old.sa_sigaction
            };
            PREVIOUS.store(prev, Ordering::SeqCst);
            PREVIOUS_INFO.store(
                (old.sa_flags & libc::SA_SIGINFO != 0) as usize,
                Ordering::SeqCst,
            );
            let mut ours: libc::sigaction = std::mem::zeroed();
            ours.sa_sigaction = on_sigint as *const () as usize;
            ours.sa_flags = libc::SA_SIGINFO | libc::SA_RESTART;
            libc::sigemptyset(&mut ours.sa_mask);
            if libc::sigaction(libc::SIGINT, &ours, std::ptr::null_mut()) != 0 {
                return Guard { installed: false };
            }
            active.1 = Some(old);
        }
    }
    active.0 += 1;
    Guard { installed: true }
}

impl Guard {
    /// Ends the call's installation and, when SIGINT arrived during the call, the error
    /// Python's handler raises (`KeyboardInterrupt` by default), or a
    /// `KeyboardInterrupt` carrying `message` when no Python handler ran.
    pub fn finish(mut self, py: Python<'_>, message: impl FnOnce() -> String) -> Option<PyErr> {
        let sig = self.release();
        if sig != libc::SIGINT as usize {
            return None;
        }
        // SAFETY: called with the GIL held.
        if unsafe { pyo3::ffi::PyErr_CheckSignals() } != 0 {
            return PyErr::take(py);
        }
        Some(PyKeyboardInterrupt::new_err(message()))
    }

    /// Restores the handler if this was the last call; returns the signal that arrived.
    fn release(&mut self) -> usize {
        if !std::mem::take(&mut self.installed) {
            return 0;
        }
        let flag = blazar_runtime::interrupt::flag();
        let sig = flag.load(Ordering::SeqCst);
        if let Ok(mut active) = ACTIVE.lock() {
            active.0 -= 1;
            if active.0 == 0 {
                if let Some(old) = active.1.take() {
                    // SAFETY: puts back the structure read before installing ours.
                    unsafe { libc::sigaction(libc::SIGINT, &old, std::ptr::null_mut()) };
                }
                PREVIOUS.store(0, Ordering::SeqCst);
                flag.store(0, Ordering::SeqCst);
            }
        }
        sig
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        self.release();
    }
}
