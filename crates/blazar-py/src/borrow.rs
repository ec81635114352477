//! Lending NumPy's memory to Blazar for the length of a call (zero-copy arguments).
//!
//! Blazar's arrays own `Vec`s. An argument whose NumPy array is C-contiguous, aligned
//! and writable is handed over as a `Vec` built on NumPy's own memory, so that writes
//! by the called function (a kernel writing `x[pos]`) land in the caller's array. Such
//! a `Vec` must never reach the allocator: this module is the extension's global
//! allocator, and a pointer registered here as *lent* is never freed by it (a free only
//! records that Blazar let go of it; a reallocation copies into fresh memory).
//!
//! After the call, [`Lent::finish`] checks that Blazar let go of the memory. When it
//! did not (a module global still holds the array), the array is detached first (its
//! elements copied into memory of its own); when even that leaves the memory held (a
//! buffer moved into another array that outlives the call), the NumPy array is kept
//! alive forever rather than freed under Blazar.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

const SLOTS: usize = 64;

/// Registered addresses (0: free slot) and whether Blazar has let go of each.
static ADDR: [AtomicUsize; SLOTS] = [const { AtomicUsize::new(0) }; SLOTS];
static RELEASED: [AtomicBool; SLOTS] = [const { AtomicBool::new(false) }; SLOTS];
/// How many slots are in use: the allocator's fast path when none is.
static LIVE: AtomicUsize = AtomicUsize::new(0);

/// The allocator of the extension: the system's, except for lent memory.
pub struct LendingAlloc;

fn slot_of(p: *mut u8) -> Option<usize> {
    if LIVE.load(Ordering::Acquire) == 0 {
        return None;
    }
    let a = p as usize;
    (0..SLOTS).find(|&i| ADDR[i].load(Ordering::Acquire) == a)
}

unsafe impl GlobalAlloc for LendingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        System.alloc(layout)
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        System.alloc_zeroed(layout)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        match slot_of(ptr) {
            Some(i) => RELEASED[i].store(true, Ordering::Release),
            None => System.dealloc(ptr, layout),
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        match slot_of(ptr) {
            Some(i) => {
                let new = System.alloc(Layout::from_size_align_unchecked(new_size, layout.align()));
                if !new.is_null() {
                    std::ptr::copy_nonoverlapping(ptr, new, layout.size().min(new_size));
                    RELEASED[i].store(true, Ordering::Release);
                }
                new
            }
            None => System.realloc(ptr, layout, new_size),
        }
    }
}

/// A registration of lent memory; [`release`] ends it.
pub struct Slot(usize);

/// Registers `p` as lent. `None` when all slots are taken or `p` is already lent (the
/// caller copies instead).
pub fn lend(p: *const u8) -> Option<Slot> {
    let a = p as usize;
    if a == 0 || (0..SLOTS).any(|i| ADDR[i].load(Ordering::Acquire) == a) {
        return None;
    }
    for i in 0..SLOTS {
        if ADDR[i]
            .compare_exchange(0, a, Ordering::AcqRel, Ordering::Acquire)
            .is_ok()
        {
            RELEASED[i].store(false, Ordering::Release);
            LIVE.fetch_add(1, Ordering::AcqRel);
            return Some(Slot(i));
        }
    }
    None
}

/// Ends a registration. Returns false, and keeps the address registered for good, when
/// Blazar still holds the memory: the caller then keeps the memory's owner alive.
pub fn release(s: Slot) -> bool {
    if RELEASED[s.0].load(Ordering::Acquire) {
        ADDR[s.0].store(0, Ordering::Release);
        LIVE.fetch_sub(1, Ordering::AcqRel);
        true
    } else {
        false
    }
}

/// Whether `p` is lent memory (a buffer that must not be handed to NumPy as its own).
pub fn is_lent(p: *const u8) -> bool {
    slot_of(p as *mut u8).is_some()
}
