//! An allocation the runtime did not check first (`blazar_runtime::alloc` probes
//! user-sized buffers) that fails would abort the process with its buffered output
//! lost. The process's allocator records the size of a failed allocation, and a
//! SIGABRT handler installed for `blazar run` flushes the program's output and, when an
//! allocation failed, reports "out of memory" at the statement that runs and exits
//! with status 1 instead of the abort's 134.

use crate::signals::{report_here, SharedOut};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// The size of the last allocation the system refused (0: none).
static FAILED: AtomicUsize = AtomicUsize::new(0);

/// The system allocator, recording refusals.
pub struct Recording;

fn record(p: *mut u8, size: usize) -> *mut u8 {
    if p.is_null() {
        FAILED.store(size.max(1), Ordering::Relaxed);
    }
    p
}

// SAFETY: every call goes to the system allocator with the caller's arguments; only
// the result is looked at.
unsafe impl GlobalAlloc for Recording {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        record(System.alloc(layout), layout.size())
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        record(System.alloc_zeroed(layout), layout.size())
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        record(System.realloc(ptr, layout, new_size), new_size)
    }
}

/// Installs the SIGABRT handler of a run whose output is `out`.
pub fn install(out: SharedOut, sources: blazar_diagnostics::SourceMap) {
    let handler = move || {
        out.flush_within(Duration::from_millis(100));
        let failed = FAILED.load(Ordering::Relaxed);
        if failed > 0 {
            report_here(
                &sources,
                &format!(
                    "out of memory: cannot allocate {:.1} GB",
                    failed as f64 / 1e9
                ),
            );
            // SAFETY: ends the process at once, as the abort would have.
            unsafe { libc::_exit(1) };
        }
        // Not an allocation: the abort goes on (status 134), with the output kept.
    };
    // SAFETY: the handler runs on the thread that aborts, after the allocator returned
    // (no allocator lock is held); it takes the output's lock only if free and
    // allocates little, where a refused allocation was large.
    let _ = unsafe { signal_hook::low_level::register(libc::SIGABRT, handler) };
}
