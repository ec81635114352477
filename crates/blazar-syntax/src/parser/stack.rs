//! How deep a tree the parser may build: as deep as the stack of the thread parsing
//! it lets every later pass (lowering, checking, evaluation, dropping) walk it
//! recursively, within fixed bounds.
//!
//! Passes recurse once per tree level; the deepest of them takes about 600 bytes of
//! stack per level of a binary chain (a debug build; measured with `x = 1 + 1 + ...`).
//! The parser allows one level per [`STACK_PER_LEVEL`] bytes of the stack left when it
//! starts, so the `blazar` command's 512 MiB thread takes flat chains of about 350,000
//! operators, and a 2 MiB test thread still takes [`MIN_TREE`].

/// Stack bytes budgeted per tree level (about 2.5 times the deepest pass's use).
pub(crate) const STACK_PER_LEVEL: usize = 1536;
/// The depth allowed whatever the stack (what an 8 MiB main thread always takes).
pub(crate) const MIN_TREE: u32 = 1000;
/// The depth allowed however large the stack.
pub(crate) const MAX_TREE: u32 = 1_000_000;

/// The deepest tree to build on this thread.
pub(crate) fn max_tree() -> u32 {
    match remaining() {
        Some(bytes) => u32::try_from(bytes / STACK_PER_LEVEL)
            .unwrap_or(MAX_TREE)
            .clamp(MIN_TREE, MAX_TREE),
        None => MIN_TREE,
    }
}

/// Bytes of stack left below the caller on this thread, when the platform says.
#[cfg(target_os = "linux")]
fn remaining() -> Option<usize> {
    // SAFETY: pthread_getattr_np fills `attr` for the calling thread (initialised on
    // success, destroyed after use); pthread_attr_getstack writes the lowest address
    // and size of the stack. Only addresses are compared; nothing is dereferenced.
    unsafe {
        let mut attr: libc::pthread_attr_t = std::mem::zeroed();
        if libc::pthread_getattr_np(libc::pthread_self(), &mut attr) != 0 {
            return None;
        }
        let mut low: *mut libc::c_void = std::ptr::null_mut();
        let mut size: libc::size_t = 0;
        let ok = libc::pthread_attr_getstack(&attr, &mut low, &mut size) == 0;
        libc::pthread_attr_destroy(&mut attr);
        if !ok {
            return None;
        }
        let here = &attr as *const _ as usize;
        here.checked_sub(low as usize)
    }
}

#[cfg(not(target_os = "linux"))]
fn remaining() -> Option<usize> {
    None
}
