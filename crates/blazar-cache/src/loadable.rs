//! Verified bytes made loadable by path without a window for anyone to change them: a
//! sealed memory file (`memfd_create`, opened as `/proc/self/fd/N`), else a file in a
//! fresh private folder.

use crate::dirs_check::{private_dir, PrivateDir};
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

/// A private copy of some bytes, to be opened by path (as `dlopen` does). Keep it alive
/// as long as what was loaded from it: the descriptor of a memory file keeps its path
/// (`/proc/self/fd/N`) unique, which `dlopen` relies on to tell libraries apart.
#[derive(Debug)]
pub struct Loadable {
    path: PathBuf,
    _file: Option<File>,
    dir: Option<PrivateDir>,
}

impl Loadable {
    /// A private copy of `bytes`.
    pub fn new(bytes: &[u8]) -> std::io::Result<Loadable> {
        #[cfg(target_os = "linux")]
        if let Some(l) = memory_file(bytes) {
            return Ok(l);
        }
        let dir = private_dir(&std::env::temp_dir())?;
        let path = dir.path().join("code.so");
        let mut f = crate::create_new(&path, 0o700)?;
        f.write_all(bytes)?;
        drop(f);
        Ok(Loadable {
            path,
            _file: None,
            dir: Some(dir),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Called once the bytes are loaded: a private folder's copy is removed now (the
    /// loaded mapping stays valid); a memory file is kept.
    pub fn loaded(&mut self) {
        self.dir = None;
    }
}

#[cfg(target_os = "linux")]
fn memory_file(bytes: &[u8]) -> Option<Loadable> {
    use std::os::fd::FromRawFd;
    // SAFETY: memfd_create takes a NUL-terminated name and flags; on success it
    // returns a new descriptor that nothing else owns.
    let fd = unsafe {
        libc::memfd_create(
            c"blazar-code".as_ptr(),
            libc::MFD_CLOEXEC | libc::MFD_ALLOW_SEALING,
        )
    };
    if fd < 0 {
        return None;
    }
    // SAFETY: `fd` was just created and is owned by nothing else.
    let mut file = unsafe { File::from_raw_fd(fd) };
    file.write_all(bytes).ok()?;
    // SAFETY: fcntl on a descriptor we own; sealing failures only lose the extra
    // guarantee (this process alone holds the descriptor).
    unsafe {
        libc::fcntl(
            fd,
            libc::F_ADD_SEALS,
            libc::F_SEAL_SHRINK | libc::F_SEAL_GROW | libc::F_SEAL_WRITE | libc::F_SEAL_SEAL,
        );
    }
    let path = PathBuf::from(format!("/proc/self/fd/{fd}"));
    if !path.exists() {
        return None;
    }
    Some(Loadable {
        path,
        _file: Some(file),
        dir: None,
    })
}
