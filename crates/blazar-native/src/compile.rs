//! Turning generated C++ into loaded code: the system compiler, the on-disk cache of
//! shared objects and the in-memory cache of loaded libraries.
//!
//! The compiler is `$CXX`, else `c++`, run with [`FLAGS`] in a fresh private folder. A
//! compiled kernel is kept in the `native` store of the per-user cache
//! (`blazar_cache`: `$BLAZAR_CACHE_DIR`, else `~/.cache/blazar`; private folders, a
//! keyed MAC on every entry, atomic writes that never follow links) as `<key>.kernel`,
//! holding its source and the shared object's bytes. The key hashes the source, the
//! compiler and its version, the flags, the CPU's feature flags and the blazar version.
//! An entry is used only when it authenticates and its source equals the generated one;
//! anything else (missing, forged, corrupt or unloadable) is rebuilt. The bytes
//! verified are the bytes loaded: they go to a sealed memory file that `dlopen` opens,
//! never back to the cache path. Without a trusted cache folder (no home, a folder
//! others can write) kernels are compiled in a private temporary folder and kept in
//! memory only, with a note. With GCC and a disk store, the prelude comes precompiled
//! (`crate::pch`): the compiler sees only the kernel's part of the source, after
//! `-include` of the store's precompiled header; the key and the entry still hold the
//! whole source, so entries made either way are the same.

use crate::abi::{FinishFn, RunFn};
use crate::pch;
use crate::toolchain::{hash_hex, toolchain, Toolchain, FLAGS};
use blazar_cache::{Loadable, Store};
use std::collections::HashMap;
use std::process::Command;
use std::sync::{Arc, Mutex, OnceLock};

/// A loaded kernel: the library stays loaded as long as the entry points may be called
/// (and its private copy, whose path names it, lives longer: fields drop in order).
pub(crate) struct Library {
    _lib: libloading::Library,
    _file: Loadable,
    pub run: RunFn,
    pub finish: FinishFn,
}

/// The disk store of compiled kernels; `None` (noted once on stderr) when there is no
/// trusted cache folder.
pub(crate) fn store() -> Option<&'static Store> {
    static STORE: OnceLock<Option<Store>> = OnceLock::new();
    STORE
        .get_or_init(|| match Store::open_default("native") {
            Ok(s) => {
                // Compiles killed before they could clean up (16 MB each).
                s.clean_scratch(std::time::Duration::from_secs(600));
                Some(s)
            }
            Err(why) => {
                if std::env::var_os("BLAZAR_QUIET").is_none() {
                    eprintln!("blazar: note: compiled kernels are not kept on disk: {why}");
                }
                None
            }
        })
        .as_ref()
}

/// Says once per process that compiled kernels cannot be kept (a read-only or full
/// cache folder): each run compiles them again.
fn note_not_kept(why: &str) {
    static ONCE: std::sync::Once = std::sync::Once::new();
    if std::env::var_os("BLAZAR_QUIET").is_none() {
        ONCE.call_once(|| {
            eprintln!(
                "blazar: note: compiled kernels are not kept on disk ({why}); each run \
                 compiles them again"
            )
        });
    }
}

type Loaded = Mutex<HashMap<String, Arc<Library>>>;

/// The libraries loaded in this process, by key.
fn loaded() -> &'static Loaded {
    static LOADED: OnceLock<Loaded> = OnceLock::new();
    LOADED.get_or_init(|| Mutex::new(HashMap::new()))
}

/// Keeps `lib` as the library of `key` (or the one another thread kept first).
fn remember(key: &str, lib: Library) -> Arc<Library> {
    loaded()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .entry(key.to_string())
        .or_insert_with(|| Arc::new(lib))
        .clone()
}

/// The loaded library of `source`, compiling it (or taking it from a cache) first.
pub(crate) fn load(source: &str) -> Result<Arc<Library>, String> {
    if let Some(lib) = lookup(source)? {
        return Ok(lib);
    }
    let tc = toolchain()?;
    build(tc, store(), &key(tc, source), source)
}

/// The cache key of `source` under toolchain `tc`.
pub(crate) fn key(tc: &Toolchain, source: &str) -> String {
    hash_hex(&[source.as_bytes(), tc.id.as_bytes()])
}

/// The library of `source` when it is loaded already or in the disk cache; never
/// compiles.
pub(crate) fn lookup(source: &str) -> Result<Option<Arc<Library>>, String> {
    let tc = toolchain()?;
    let key = key(tc, source);
    if let Some(lib) = loaded().lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return Ok(Some(lib.clone()));
    }
    let Some(lib) = store().and_then(|s| from_disk(s, &key, source)) else {
        return Ok(None);
    };
    Ok(Some(remember(&key, lib)))
}

/// The store's name of the entry of `key`.
fn entry_name(key: &str) -> String {
    format!("{key}.kernel")
}

/// An entry's bytes: the source's length, the source, the shared object.
fn entry(source: &str, object: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(8 + source.len() + object.len());
    out.extend_from_slice(&(source.len() as u64).to_le_bytes());
    out.extend_from_slice(source.as_bytes());
    out.extend_from_slice(object);
    out
}

/// A verified cache entry, loaded; `None` when it is missing or not to be trusted.
pub(crate) fn from_disk(store: &Store, key: &str, source: &str) -> Option<Library> {
    let bytes = store.get(&entry_name(key))?;
    let (len, rest) = bytes.split_at_checked(8)?;
    let len = usize::try_from(u64::from_le_bytes(len.try_into().ok()?)).ok()?;
    let (src, object) = rest.split_at_checked(len)?;
    if src != source.as_bytes() {
        return None;
    }
    open(object).ok()
}

/// Whether `store` holds a verified entry of `key` for `source` (not loaded).
pub(crate) fn stored(store: &Store, key: &str, source: &str) -> bool {
    store.get(&entry_name(key)).is_some_and(|bytes| {
        bytes
            .get(8..)
            .and_then(|rest| rest.get(..source.len()))
            .is_some_and(|src| src == source.as_bytes())
            && bytes.get(..8) == Some(&(source.len() as u64).to_le_bytes()[..])
    })
}

/// Loads the shared object `bytes` from a private copy of exactly these bytes.
fn open(bytes: &[u8]) -> Result<Library, String> {
    let mut file =
        Loadable::new(bytes).map_err(|e| format!("cannot copy the compiled kernel: {e}"))?;
    // SAFETY: the bytes are a library this crate generated and compiled (read from the
    // compiler's private folder, or from a cache entry authenticated with this user's
    // key); its initialisers only set up the C++ runtime. The two symbols have the C
    // signatures of `RunFn` and `FinishFn` (`emit::assemble` prints them), and the
    // `Library` keeps the code mapped for as long as the function pointers live.
    unsafe {
        let lib = libloading::Library::new(file.path()).map_err(|e| e.to_string())?;
        file.loaded();
        let run = *lib.get::<RunFn>(b"bz_run\0").map_err(|e| e.to_string())?;
        let finish = *lib
            .get::<FinishFn>(b"bz_finish\0")
            .map_err(|e| e.to_string())?;
        Ok(Library {
            _lib: lib,
            _file: file,
            run,
            finish,
        })
    }
}

/// The kernels of a generated source, from its `// ---- kernel NAME` comments.
pub(crate) fn kernel_names(source: &str) -> String {
    let names: Vec<&str> = source
        .lines()
        .filter_map(|l| l.strip_prefix("// ---- kernel ")?.split_whitespace().next())
        .collect();
    names.join("`, `")
}

/// Compiles `source`, keeps it in `store` as the entry of `key` (a failure to store
/// only costs a later recompilation) and loads it.
pub(crate) fn build(
    tc: &Toolchain,
    store: Option<&Store>,
    key: &str,
    source: &str,
) -> Result<Arc<Library>, String> {
    let object = compile(tc, store, source)?;
    if let Some(s) = store {
        if let Err(why) = s.put(&entry_name(key), &entry(source, &object)) {
            note_not_kept(&why);
        }
    }
    Ok(remember(key, open(&object)?))
}

/// The shared object of `source`, compiled in a fresh private folder (in the store, or
/// in the temporary folder without one) that is removed afterwards. With the store's
/// precompiled prelude (`crate::pch`), only the kernel's part is compiled, after
/// `-include <pch folder>/prelude.h`; should that fail where the whole source compiles,
/// the precompiled prelude is not used again in this process.
fn compile(tc: &Toolchain, store: Option<&Store>, source: &str) -> Result<Vec<u8>, String> {
    // A store that cannot be written (read-only, full) still compiles, in the
    // temporary folder.
    let dir = match store.map(Store::scratch) {
        Some(Ok(d)) => Ok(d),
        _ => blazar_cache::private_dir(&std::env::temp_dir()),
    }
    .map_err(|e| format!("cannot create a private folder for the compiler: {e}"))?;
    let started = std::time::Instant::now();
    let mut pch_failed = false;
    if let (Some(part), Some(pch)) = (
        blazar_codegen_c::cpp::kernel_part(source),
        pch::folder(tc, store),
    ) {
        match run_cxx(tc, dir.path(), part, Some(&pch)) {
            Ok(object) => {
                blazar_launch::note_compiled(
                    &kernel_names(source),
                    "the CPU (C++)",
                    started.elapsed(),
                );
                return Ok(object);
            }
            Err(_) => pch_failed = true,
        }
    }
    let object = run_cxx(tc, dir.path(), source, None)?;
    if pch_failed {
        if let Some(s) = store {
            pch::give_up(s);
        }
    }
    blazar_launch::note_compiled(&kernel_names(source), "the CPU (C++)", started.elapsed());
    Ok(object)
}

/// Compiles `text` in `dir` into a shared object and returns its bytes; with `pch`, the
/// text is a kernel's part and the prelude comes from `<pch>/prelude.h` (GCC takes
/// `prelude.h.gch` beside it when it is valid, else reads the header's text).
pub(crate) fn run_cxx(
    tc: &Toolchain,
    dir: &std::path::Path,
    text: &str,
    pch: Option<&std::path::Path>,
) -> Result<Vec<u8>, String> {
    let (cpp, so) = (dir.join("kernel.cpp"), dir.join("kernel.so"));
    std::fs::write(&cpp, text).map_err(|e| format!("cannot write the kernel source: {e}"))?;
    let mut cmd = Command::new(&tc.cxx);
    cmd.args(FLAGS).args(&tc.defines).arg("-o").arg(&so);
    if let Some(p) = pch {
        cmd.arg("-include").arg(p.join(pch::HEADER));
    }
    let (status, stderr) = crate::children::output(cmd.arg(&cpp).args(&tc.libs))
        .map_err(|e| format!("cannot run `{}`: {e}", tc.cxx))?;
    if !status.success() {
        let log: String = String::from_utf8_lossy(&stderr)
            .lines()
            .take(20)
            .collect::<Vec<_>>()
            .join("\n");
        return Err(format!("the generated C++ does not compile:\n{log}"));
    }
    std::fs::read(&so).map_err(|e| format!("cannot read the compiled kernel: {e}"))
}
