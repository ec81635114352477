//! The disk cache of cubins, so that a second run of a program compiles nothing.
//!
//! Entries live in the user's cache directory (`$BLAZAR_CACHE_DIR`, else
//! `<cache dir>/blazar/cubin`). The key is a SHA-256 of everything that changes the
//! binary: source, NVRTC options, NVRTC version, architecture and Blazar version. An
//! entry holds a magic tag, the payload length and the payload's SHA-256; an entry that
//! does not check out (truncated, corrupt, foreign) is deleted and rebuilt, never loaded.
//! Writes go to a temporary file renamed into place, so readers never see half a file.

use sha2::{Digest, Sha256};
use std::path::PathBuf;

const MAGIC: &[u8; 8] = b"BZCUBIN1";

/// A folder of cubins; `dir == None` disables caching (no usable cache directory).
#[derive(Clone, Debug)]
pub struct DiskCache {
    dir: Option<PathBuf>,
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

impl DiskCache {
    /// The cache in its default place (created on first write).
    pub fn default_location() -> DiskCache {
        let dir = std::env::var_os("BLAZAR_CACHE_DIR")
            .map(PathBuf::from)
            .or_else(|| dirs::cache_dir().map(|d| d.join("blazar").join("cubin")));
        DiskCache { dir }
    }

    pub fn at(dir: PathBuf) -> DiskCache {
        DiskCache { dir: Some(dir) }
    }

    /// The key of one compilation.
    pub fn key(source: &str, options: &[String], nvrtc: (i32, i32), arch: u32) -> String {
        let mut h = Sha256::new();
        for part in [
            source.as_bytes(),
            options.join("\u{1}").as_bytes(),
            format!("nvrtc {}.{}", nvrtc.0, nvrtc.1).as_bytes(),
            format!("sm_{arch}").as_bytes(),
            concat!("blazar ", env!("CARGO_PKG_VERSION")).as_bytes(),
        ] {
            h.update((part.len() as u64).to_le_bytes());
            h.update(part);
        }
        hex(&h.finalize())
    }

    fn path(&self, key: &str) -> Option<PathBuf> {
        Some(self.dir.as_ref()?.join(format!("{key}.cubin")))
    }

    /// The cubin stored under `key`, if present and intact. A damaged entry is removed.
    pub fn get(&self, key: &str) -> Option<Vec<u8>> {
        let path = self.path(key)?;
        let bytes = std::fs::read(&path).ok()?;
        match decode(&bytes) {
            Some(payload) => Some(payload.to_vec()),
            None => {
                let _ = std::fs::remove_file(&path);
                None
            }
        }
    }

    /// Stores a cubin; failures (read-only disk, no space) only cost a recompilation.
    pub fn put(&self, key: &str, cubin: &[u8]) {
        let (Some(dir), Some(path)) = (self.dir.as_ref(), self.path(key)) else {
            return;
        };
        if std::fs::create_dir_all(dir).is_err() {
            return;
        }
        let tmp = dir.join(format!("{key}.{}.tmp", std::process::id()));
        if std::fs::write(&tmp, encode(cubin)).is_ok() && std::fs::rename(&tmp, &path).is_ok() {
            return;
        }
        let _ = std::fs::remove_file(&tmp);
    }
}

fn encode(payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(payload.len() + 48);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&Sha256::digest(payload));
    out.extend_from_slice(payload);
    out
}

fn decode(bytes: &[u8]) -> Option<&[u8]> {
    let rest = bytes.strip_prefix(MAGIC.as_slice())?;
    let (len, rest) = rest.split_at_checked(8)?;
    let len = u64::from_le_bytes(len.try_into().ok()?) as usize;
    let (digest, payload) = rest.split_at_checked(32)?;
    (payload.len() == len && Sha256::digest(payload).as_slice() == digest).then_some(payload)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_cache(name: &str) -> (DiskCache, PathBuf) {
        let dir =
            std::env::temp_dir().join(format!("blazar-cache-test-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        (DiskCache::at(dir.clone()), dir)
    }

    #[test]
    fn stores_and_returns_an_entry() {
        let (c, dir) = temp_cache("roundtrip");
        let k = DiskCache::key("src", &["-arch=sm_90".into()], (13, 0), 90);
        assert_eq!(c.get(&k), None);
        c.put(&k, b"\x7fELF cubin");
        assert_eq!(c.get(&k).as_deref(), Some(&b"\x7fELF cubin"[..]));
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn keys_change_with_every_input() {
        let o = vec!["-arch=sm_90".to_string()];
        let k = DiskCache::key("src", &o, (13, 0), 90);
        assert_ne!(k, DiskCache::key("src2", &o, (13, 0), 90));
        assert_ne!(k, DiskCache::key("src", &[], (13, 0), 90));
        assert_ne!(k, DiskCache::key("src", &o, (13, 1), 90));
        assert_ne!(k, DiskCache::key("src", &o, (13, 0), 89));
    }

    #[test]
    fn a_corrupt_or_truncated_entry_is_dropped_and_deleted() {
        let (c, dir) = temp_cache("corrupt");
        let k = DiskCache::key("x", &[], (13, 0), 90);
        c.put(&k, b"payload bytes");
        let path = dir.join(format!("{k}.cubin"));
        let mut bytes = std::fs::read(&path).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 0xff;
        std::fs::write(&path, &bytes).unwrap();
        assert_eq!(c.get(&k), None);
        assert!(!path.exists(), "the damaged entry is removed");
        c.put(&k, b"payload bytes");
        std::fs::write(&path, &std::fs::read(&path).unwrap()[..20]).unwrap();
        assert_eq!(c.get(&k), None);
        let _ = std::fs::remove_dir_all(dir);
    }
}
