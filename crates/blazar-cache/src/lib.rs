//! Per-user disk caches of compiled code (native shared objects, cubins) that trust
//! nothing they did not write.
//!
//! The rules (ARCHITECTURE.md, "Cache trust"):
//! - The cache root is `$BLAZAR_CACHE_DIR`, else `<user cache dir>/blazar`
//!   (`$XDG_CACHE_HOME`, else `~/.cache`). There is no fallback to a shared temporary
//!   folder: with no home, callers work without a disk cache in a fresh private folder.
//! - The root and its stores are created 0700 and used only when the real path is
//!   a folder owned by this user and writable by nobody else, and every folder above
//!   it is owned by this user or root and not writable by others (unless sticky, as
//!   `/tmp`). Anything else refuses the cache with a reason; nothing is repaired.
//! - Every entry carries an HMAC-SHA256 of its store, name and bytes under a per-user
//!   key (`<root>/key`, 32 random bytes, mode 0600, created complete under a
//!   temporary name and linked into place, so no reader sees half a key). A forged
//!   entry, even with a checksum recomputed, fails the MAC and is deleted.
//! - Entries are read once into memory (no link followed, regular files only), and the
//!   bytes verified are the bytes used: a shared object is loaded from a sealed memory
//!   file ([`Loadable`]), never from the cache path.
//! - Writes go to a fresh file (`O_EXCL | O_NOFOLLOW`, 0600) in the same folder, renamed
//!   over the entry: rename replaces a planted link instead of following it.
//! - Files that a tool must open by path (a precompiled header) are a published folder
//!   of a store (`folder`): made in a private scratch folder, sealed with one MAC over
//!   every file, renamed into place whole, and verified before each process uses it.

mod folder;
mod private;

pub use folder::MANIFEST;
pub use private::{euid, private_dir, Loadable, PrivateDir};

use hmac::{Hmac, Mac};
use sha2::Sha256;
use std::fs::{File, OpenOptions};
use std::io::{ErrorKind, Read, Write};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 8] = b"BZCACHE1";
const TAG: usize = 32;
const KEY: usize = 32;

/// One store of a cache root (`native`, `cubin`): a private folder of authenticated
/// entries.
#[derive(Clone)]
pub struct Store {
    dir: PathBuf,
    sub: String,
    key: [u8; KEY],
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store").field("dir", &self.dir).finish()
    }
}

/// The default cache root, or why there is none.
pub fn default_root() -> Result<PathBuf, String> {
    if let Some(d) = std::env::var_os("BLAZAR_CACHE_DIR").filter(|d| !d.is_empty()) {
        let d = PathBuf::from(d);
        if !d.is_absolute() {
            return Err(format!(
                "BLAZAR_CACHE_DIR is not an absolute path ({})",
                d.display()
            ));
        }
        return Ok(d);
    }
    dirs::cache_dir()
        .map(|d| d.join("blazar"))
        .ok_or_else(|| "there is no home folder (HOME is unset)".to_string())
}

fn check_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('.')
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'_' || b == b'-')
}

pub(crate) fn random<const N: usize>() -> std::io::Result<[u8; N]> {
    let mut b = [0u8; N];
    getrandom::fill(&mut b).map_err(|e| std::io::Error::other(e.to_string()))?;
    Ok(b)
}

pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Opens an existing file for reading without following a link or blocking on a FIFO;
/// only a regular file is returned.
fn open_entry(path: &Path) -> std::io::Result<File> {
    let f = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)?;
    if !f.metadata()?.file_type().is_file() {
        return Err(std::io::Error::other("not a regular file"));
    }
    Ok(f)
}

/// A new file that did not exist (`O_EXCL`; a link at `path` is an error, not followed).
pub(crate) fn create_new(path: &Path, mode: u32) -> std::io::Result<File> {
    OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(mode)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)
}

/// A fresh temporary name in `dir` for `name`.
fn temp_name(dir: &Path, name: &str) -> std::io::Result<PathBuf> {
    Ok(dir.join(format!(
        ".{name}.{}.{}.tmp",
        std::process::id(),
        hex(&random::<8>()?)
    )))
}

/// The root's key: read when present (a regular 0600 file of 32 bytes owned by this
/// user), else created complete under a temporary name and hard-linked into place
/// (`link` never replaces, so two processes agree on one key).
fn load_key(root: &Path) -> Result<[u8; KEY], String> {
    let path = root.join("key");
    for _ in 0..3 {
        match open_entry(&path) {
            Ok(mut f) => {
                let m = f.metadata().map_err(|e| e.to_string())?;
                if m.uid() != euid() {
                    return Err(format!("{} is owned by another user", path.display()));
                }
                if m.mode() & 0o077 != 0 {
                    return Err(format!(
                        "{} is readable or writable by others (mode {:o})",
                        path.display(),
                        m.mode() & 0o777
                    ));
                }
                let mut key = [0u8; KEY];
                let mut rest = Vec::new();
                f.read_exact(&mut key)
                    .and_then(|_| f.read_to_end(&mut rest))
                    .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
                if !rest.is_empty() {
                    return Err(format!("{} is not a cache key", path.display()));
                }
                return Ok(key);
            }
            Err(e) if e.kind() == ErrorKind::NotFound => {
                let tmp = temp_name(root, "key").map_err(|e| e.to_string())?;
                let made = random::<KEY>().and_then(|key| {
                    let mut f = create_new(&tmp, 0o600)?;
                    f.write_all(&key)?;
                    f.sync_all()?;
                    match std::fs::hard_link(&tmp, &path) {
                        Err(e) if e.kind() != ErrorKind::AlreadyExists => Err(e),
                        _ => Ok(()),
                    }
                });
                let _ = std::fs::remove_file(&tmp);
                made.map_err(|e| format!("cannot create the cache key {}: {e}", path.display()))?;
            }
            Err(e) => return Err(format!("cannot read the cache key {}: {e}", path.display())),
        }
    }
    Err(format!("cannot create the cache key {}", path.display()))
}

impl Store {
    /// Store `sub` of the default root; `Err` says why there is no disk cache.
    pub fn open_default(sub: &str) -> Result<Store, String> {
        Store::open(&default_root()?, sub)
    }

    /// Store `sub` of cache root `root`, creating both (0700) as needed; `Err` says why
    /// the cache is refused.
    pub fn open(root: &Path, sub: &str) -> Result<Store, String> {
        assert!(check_name(sub), "store names are plain words");
        let root = private::trusted_dir(root, true)?;
        let dir = private::trusted_dir(&root.join(sub), false)?;
        let key = load_key(&root)?;
        Ok(Store {
            dir,
            sub: sub.to_string(),
            key,
        })
    }

    /// The store's folder (the real path, checked).
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The MAC of entry `name` holding `payload`, not yet finalised.
    fn mac(&self, name: &str, payload: &[u8]) -> Hmac<Sha256> {
        let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(&self.key).expect("any key length");
        for part in [
            b"blazar cache v1".as_slice(),
            self.sub.as_bytes(),
            name.as_bytes(),
        ] {
            mac.update(&(part.len() as u64).to_le_bytes());
            mac.update(part);
        }
        mac.update(&(payload.len() as u64).to_le_bytes());
        mac.update(payload);
        mac
    }

    /// The path of entry `name` (for messages and tests).
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    /// The bytes stored under `name` when present and authentic. An entry that is not a
    /// regular file or fails the MAC is removed (a planted link is unlinked, never
    /// followed) and `None` returned, so the caller rebuilds it.
    pub fn get(&self, name: &str) -> Option<Vec<u8>> {
        if !check_name(name) {
            return None;
        }
        let path = self.path(name);
        let mut bytes = Vec::new();
        match open_entry(&path).and_then(|mut f| f.read_to_end(&mut bytes)) {
            Ok(_) => {}
            Err(e) if e.kind() == ErrorKind::NotFound => return None,
            Err(_) => {
                let _ = std::fs::remove_file(&path);
                return None;
            }
        }
        let verified = bytes
            .strip_prefix(MAGIC.as_slice())
            .and_then(|rest| rest.split_at_checked(TAG))
            .is_some_and(|(tag, payload)| self.mac(name, payload).verify_slice(tag).is_ok());
        if !verified {
            let _ = std::fs::remove_file(&path);
            return None;
        }
        bytes.drain(..MAGIC.len() + TAG);
        Some(bytes)
    }

    /// Stores `payload` under `name`: written to a fresh file in the store and renamed
    /// over the entry, so readers see the old entry or the whole new one.
    pub fn put(&self, name: &str, payload: &[u8]) -> Result<(), String> {
        if !check_name(name) {
            return Err(format!("bad cache entry name {name:?}"));
        }
        let path = self.path(name);
        let tmp = temp_name(&self.dir, name).map_err(|e| e.to_string())?;
        let written = create_new(&tmp, 0o600).and_then(|mut f| {
            f.write_all(MAGIC)?;
            f.write_all(&self.mac(name, payload).finalize().into_bytes())?;
            f.write_all(payload)
        });
        let done = written.and_then(|_| std::fs::rename(&tmp, &path));
        if done.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        done.map_err(|e| format!("cannot store {}: {e}", path.display()))
    }

    /// A fresh private folder inside the store (for a compiler's temporary files).
    pub fn scratch(&self) -> std::io::Result<PrivateDir> {
        private_dir(&self.dir)
    }

    /// Removes the scratch folders of processes that ended without removing them (a
    /// compile killed by SIGKILL): those whose process is gone and that nothing has
    /// changed for `age`. Returns how many were removed.
    pub fn clean_scratch(&self, age: std::time::Duration) -> usize {
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return 0;
        };
        let mut removed = 0;
        for e in entries.flatten() {
            let name = e.file_name();
            let Some(pid) = private::scratch_pid(&name.to_string_lossy()) else {
                continue;
            };
            let Ok(m) = std::fs::symlink_metadata(e.path()) else {
                continue;
            };
            let old = m
                .modified()
                .ok()
                .and_then(|t| t.elapsed().ok())
                .is_some_and(|t| t >= age);
            if m.is_dir() && m.uid() == euid() && old && !private::alive(pid) {
                if std::fs::remove_dir_all(e.path()).is_ok() {
                    removed += 1;
                }
            }
        }
        removed
    }
}

#[cfg(test)]
mod tests;
