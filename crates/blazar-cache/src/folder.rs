//! Published folders of a store: files that a tool reads by path (a compiler's
//! precompiled header beside its header), made together in a private scratch folder,
//! sealed with one MAC and renamed into place whole.
//!
//! A published folder `<store>/<name>/` holds plain files and `manifest`: the magic and
//! an HMAC-SHA256 (under the root's key) over the store, the folder's name and every
//! other file's name and bytes, in name order. [`Store::verified_dir`] accepts the
//! folder only when it is a real folder of this user that nobody else can write, every
//! file in it is a regular file, and the MAC matches; anything else (a link, a missing,
//! added, truncated or changed file, a folder made without the key) is removed, so the
//! caller publishes it again. Publishing renames the sealed scratch folder onto the
//! name: `rename` never replaces a folder that has files, so concurrent publishers
//! agree on the first one, and no reader ever sees a half-made folder.
//!
//! The tool opens the files by path after they are verified, unlike entries, whose
//! verified bytes are the ones used: the folder is private to this user, so only this
//! user's own processes could change a file in between.

use crate::{create_new, open_entry, Store, MAGIC, TAG};
use hmac::{Hmac, Mac};
use sha2::Sha256;
use std::io::{Read, Write};
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// The seal of a published folder.
pub const MANIFEST: &str = "manifest";

/// A folder's files other than the manifest, as (name, bytes) in name order; `Err`
/// when something in it is not a regular file with a plain name.
fn contents(dir: &Path) -> Result<Vec<(String, Vec<u8>)>, String> {
    let mut files = Vec::new();
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| e.to_string())?;
        let name = entry
            .file_name()
            .into_string()
            .map_err(|n| format!("a file with an odd name: {n:?}"))?;
        if name == MANIFEST {
            continue;
        }
        if !crate::check_name(&name) {
            return Err(format!("a file with an odd name: {name:?}"));
        }
        let mut bytes = Vec::new();
        open_entry(&entry.path())
            .and_then(|mut f| f.read_to_end(&mut bytes))
            .map_err(|e| format!("{name}: {e}"))?;
        files.push((name, bytes));
    }
    files.sort();
    Ok(files)
}

impl Store {
    /// The MAC of folder `name` holding `files` (in name order).
    fn folder_mac(&self, name: &str, files: &[(String, Vec<u8>)]) -> Hmac<Sha256> {
        let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(&self.key).expect("any key length");
        let mut part = |bytes: &[u8]| {
            mac.update(&(bytes.len() as u64).to_le_bytes());
            mac.update(bytes);
        };
        part(b"blazar cache folder v1");
        part(self.sub.as_bytes());
        part(name.as_bytes());
        for (file, bytes) in files {
            part(file.as_bytes());
            part(bytes);
        }
        mac
    }

    /// Whether the folder at `path` (its metadata `m`) is private and its seal matches.
    fn sealed(&self, name: &str, path: &Path, m: &std::fs::Metadata) -> bool {
        if !m.is_dir() || m.uid() != crate::euid() || m.mode() & 0o077 != 0 {
            return false;
        }
        let Ok(files) = contents(path) else {
            return false;
        };
        let mut seal = Vec::new();
        if open_entry(&path.join(MANIFEST))
            .and_then(|mut f| f.read_to_end(&mut seal))
            .is_err()
        {
            return false;
        }
        seal.strip_prefix(MAGIC.as_slice())
            .filter(|tag| tag.len() == TAG)
            .is_some_and(|tag| self.folder_mac(name, &files).verify_slice(tag).is_ok())
    }

    /// The path of published folder `name` when it is there and authentic (see the
    /// module's rules); a folder (or anything else) at that name that fails is removed.
    pub fn verified_dir(&self, name: &str) -> Option<PathBuf> {
        if !crate::check_name(name) {
            return None;
        }
        let path = self.path(name);
        let m = std::fs::symlink_metadata(&path).ok()?;
        if self.sealed(name, &path, &m) {
            return Some(path);
        }
        let _ = if m.is_dir() {
            std::fs::remove_dir_all(&path)
        } else {
            std::fs::remove_file(&path)
        };
        None
    }

    /// Publishes folder `name`: `build` writes its files into a fresh private folder,
    /// which is sealed (files made 0600, the manifest added) and renamed into place.
    /// When another process published `name` first, that folder is used if it
    /// verifies. Returns the published folder's path.
    pub fn publish_dir(
        &self,
        name: &str,
        build: impl FnOnce(&Path) -> Result<(), String>,
    ) -> Result<PathBuf, String> {
        if !crate::check_name(name) || name == MANIFEST {
            return Err(format!("bad cache folder name {name:?}"));
        }
        let scratch = self
            .scratch()
            .map_err(|e| format!("cannot create a private folder: {e}"))?;
        build(scratch.path())?;
        let files = contents(scratch.path())?;
        for (file, _) in &files {
            std::fs::set_permissions(
                scratch.path().join(file),
                std::fs::Permissions::from_mode(0o600),
            )
            .map_err(|e| format!("{file}: {e}"))?;
        }
        let tag = self.folder_mac(name, &files).finalize().into_bytes();
        create_new(&scratch.path().join(MANIFEST), 0o600)
            .and_then(|mut f| {
                f.write_all(MAGIC)?;
                f.write_all(&tag)
            })
            .map_err(|e| format!("cannot seal the folder {name}: {e}"))?;
        let target = self.path(name);
        for _ in 0..2 {
            if std::fs::rename(scratch.path(), &target).is_ok() {
                scratch.keep();
                return Ok(target);
            }
            // Something is there: another process's folder (used when authentic), or
            // something bad, which `verified_dir` removes before the second try.
            if let Some(found) = self.verified_dir(name) {
                return Ok(found);
            }
        }
        Err(format!("cannot publish the folder {}", target.display()))
    }
}

#[cfg(test)]
mod tests;
