//! The disk cache of cubins, so that a second run of a program compiles nothing.
//!
//! Entries live in the `cubin` store of the per-user cache (`blazar_cache`:
//! `$BLAZAR_CACHE_DIR`, else `~/.cache/blazar`), under the cache's trust rules: private
//! folders refused when anyone else could write them, a keyed MAC on every entry,
//! atomic writes that never follow links. The key is a SHA-256 of everything that
//! changes the binary: source, NVRTC options, NVRTC version, architecture and Blazar
//! version. An entry that does not authenticate (truncated, corrupt, forged) is deleted
//! and rebuilt, never loaded; the bytes verified are the bytes given to the driver.

use blazar_cache::Store;
use sha2::{Digest, Sha256};
use std::path::Path;

/// A store of cubins; `store == None` disables caching (no trusted cache folder).
#[derive(Clone, Debug)]
pub struct DiskCache {
    store: Option<Store>,
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

impl DiskCache {
    /// The cache in its default place; without a trusted folder, no cache (noted on
    /// stderr).
    pub fn default_location() -> DiskCache {
        let store = match Store::open_default("cubin") {
            Ok(s) => Some(s),
            Err(why) => {
                if std::env::var_os("BLAZAR_QUIET").is_none() {
                    eprintln!("blazar: note: compiled CUDA kernels are not kept on disk: {why}");
                }
                None
            }
        };
        DiskCache { store }
    }

    /// The cache under root `root` (`Err`: the folder is refused, and why).
    pub fn at(root: &Path) -> Result<DiskCache, String> {
        Ok(DiskCache {
            store: Some(Store::open(root, "cubin")?),
        })
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

    /// The cubin stored under `key`, if present and authentic. A bad entry is removed.
    pub fn get(&self, key: &str) -> Option<Vec<u8>> {
        self.store.as_ref()?.get(&format!("{key}.cubin"))
    }

    /// Stores a cubin; failures (read-only disk, no space) only cost a recompilation.
    pub fn put(&self, key: &str, cubin: &[u8]) {
        if let Some(s) = &self.store {
            let _ = s.put(&format!("{key}.cubin"), cubin);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn temp_cache(name: &str) -> (DiskCache, PathBuf) {
        let dir =
            std::env::temp_dir().join(format!("blazar-cache-test-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        (DiskCache::at(&dir).expect("a private cache"), dir)
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
    fn a_corrupt_truncated_or_forged_entry_is_dropped_and_deleted() {
        let (c, dir) = temp_cache("corrupt");
        let k = DiskCache::key("x", &[], (13, 0), 90);
        c.put(&k, b"payload bytes");
        let path = dir.join("cubin").join(format!("{k}.cubin"));
        let mut bytes = std::fs::read(&path).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 0xff;
        std::fs::write(&path, &bytes).unwrap();
        assert_eq!(c.get(&k), None);
        assert!(!path.exists(), "the damaged entry is removed");
        c.put(&k, b"payload bytes");
        std::fs::write(&path, &std::fs::read(&path).unwrap()[..20]).unwrap();
        assert_eq!(c.get(&k), None);
        // The old format (magic, length, unkeyed SHA-256, payload) is a forgery now.
        let payload = b"planted cubin";
        let mut forged = b"BZCUBIN1".to_vec();
        forged.extend_from_slice(&(payload.len() as u64).to_le_bytes());
        forged.extend_from_slice(&Sha256::digest(payload));
        forged.extend_from_slice(payload);
        std::fs::write(&path, &forged).unwrap();
        assert_eq!(c.get(&k), None);
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn a_folder_others_can_write_is_refused() {
        use std::os::unix::fs::PermissionsExt;
        let dir =
            std::env::temp_dir().join(format!("blazar-cache-test-open-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777)).unwrap();
        assert!(DiskCache::at(&dir).is_err());
        let _ = std::fs::remove_dir_all(dir);
    }
}
