//! What this user alone controls: the checks on a cache root and its stores, fresh
//! private folders for a compiler's temporary files, and private copies of verified
//! bytes to load by path without a window for anyone to change them (a sealed memory
//! file, `memfd_create` opened as `/proc/self/fd/N`, else a file in a fresh private
//! folder).

use std::fs::{DirBuilder, File};
use std::io::{ErrorKind, Write};
use std::os::unix::fs::{DirBuilderExt, MetadataExt};
use std::path::{Path, PathBuf};

/// The effective user id of this process.
pub fn euid() -> u32 {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() }
}

const STICKY: u32 = 0o1000;

/// Why folder `a`, above a trusted folder, would let another user replace what is
/// below it: owned by someone other than this user or root, or writable by group or
/// others without the sticky bit (`/tmp` is fine: only owners rename there).
fn unsafe_ancestor(a: &Path) -> Option<String> {
    let m = match std::fs::metadata(a) {
        Ok(m) => m,
        Err(e) => return Some(format!("cannot inspect {}: {e}", a.display())),
    };
    if m.uid() != euid() && m.uid() != 0 {
        return Some(format!(
            "the folder {} above it is owned by another user (uid {})",
            a.display(),
            m.uid()
        ));
    }
    if m.mode() & 0o022 != 0 && m.mode() & STICKY == 0 {
        return Some(format!(
            "the folder {} above it is writable by others (mode {:o})",
            a.display(),
            m.mode() & 0o7777
        ));
    }
    None
}

/// `path`, created 0700 when missing (with its parents when `parents`), as a real path
/// (no links) that this user owns, nobody else can write, and no other user can
/// replace; `Err` says why not.
pub(crate) fn trusted_dir(path: &Path, parents: bool) -> Result<PathBuf, String> {
    match DirBuilder::new()
        .mode(0o700)
        .recursive(parents)
        .create(path)
    {
        Ok(()) => {}
        Err(e) if e.kind() == ErrorKind::AlreadyExists => {}
        Err(e) => return Err(format!("cannot create {}: {e}", path.display())),
    }
    let real = std::fs::canonicalize(path)
        .map_err(|e| format!("cannot resolve {}: {e}", path.display()))?;
    let m = std::fs::symlink_metadata(&real)
        .map_err(|e| format!("cannot inspect {}: {e}", real.display()))?;
    if !m.is_dir() {
        return Err(format!("{} is not a folder", real.display()));
    }
    if m.uid() != euid() {
        return Err(format!(
            "{} is owned by another user (uid {})",
            real.display(),
            m.uid()
        ));
    }
    if m.mode() & 0o022 != 0 {
        return Err(format!(
            "{} is writable by others (mode {:o})",
            real.display(),
            m.mode() & 0o7777
        ));
    }
    if let Some(why) = real.ancestors().skip(1).find_map(unsafe_ancestor) {
        return Err(format!("{} is not private: {why}", real.display()));
    }
    Ok(real)
}

/// A fresh folder (mode 0700) that this process created and alone uses; removed with
/// everything in it when dropped.
#[derive(Debug)]
pub struct PrivateDir(PathBuf);

impl PrivateDir {
    pub fn path(&self) -> &Path {
        &self.0
    }

    /// Keeps the folder (it was renamed elsewhere, say): it is no longer removed.
    pub fn keep(self) {
        let _ = std::mem::ManuallyDrop::new(self);
    }
}

impl Drop for PrivateDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A fresh private folder in `parent` (created here by `mkdir`, so never one someone
/// else prepared). `parent` itself must not let another user replace it (see
/// [`unsafe_ancestor`]: the temporary folder qualifies through its sticky bit).
pub fn private_dir(parent: &Path) -> std::io::Result<PrivateDir> {
    let parent = std::fs::canonicalize(parent)?;
    if let Some(why) = parent.ancestors().find_map(unsafe_ancestor) {
        return Err(std::io::Error::other(format!(
            "{} is not a safe place for private files: {why}",
            parent.display()
        )));
    }
    for _ in 0..16 {
        let r = crate::random::<8>()?;
        let p = parent.join(format!("blazar-{}-{}", std::process::id(), crate::hex(&r)));
        match DirBuilder::new().mode(0o700).create(&p) {
            Ok(()) => {}
            Err(e) if e.kind() == ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
        let m = std::fs::symlink_metadata(&p)?;
        if !m.is_dir() || m.uid() != euid() || m.mode() & 0o077 != 0 {
            return Err(std::io::Error::other(format!(
                "the new folder {} is not private",
                p.display()
            )));
        }
        return Ok(PrivateDir(p));
    }
    Err(std::io::Error::other("cannot create a private folder"))
}

/// The process id in the name of a folder [`private_dir`] made
/// (`blazar-<pid>-<16 hex digits>`).
pub(crate) fn scratch_pid(name: &str) -> Option<i32> {
    let (pid, hex) = name.strip_prefix("blazar-")?.split_once('-')?;
    if hex.len() != 16 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    pid.parse().ok().filter(|&p| p > 0)
}

/// Whether process `pid` exists (or may: only "no such process" says it does not).
pub(crate) fn alive(pid: i32) -> bool {
    // SAFETY: signal 0 only checks that the process exists; nothing is sent.
    let r = unsafe { libc::kill(pid, 0) };
    r == 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
}

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
