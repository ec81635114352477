//! Turning generated C++ into loaded code: the system compiler, the on-disk cache of
//! shared objects and the in-memory cache of loaded libraries.
//!
//! The compiler is `$CXX`, else `c++`, run with [`FLAGS`]. A shared object is cached
//! under `$XDG_CACHE_HOME/blazar/native` (else `~/.cache/blazar/native`, else the temp
//! folder) as `<key>.so`, beside its source `<key>.cpp` and `<key>.ok`, the hash of the
//! object's bytes. The key hashes the source, the compiler and its version, the flags,
//! the CPU's feature flags and the blazar version. An entry is used only when its
//! source equals the generated one and its bytes match `<key>.ok`; anything else (a
//! missing, corrupt or unloadable entry) is rebuilt. Files are written under temporary
//! names and renamed, so concurrent runs never see half-written entries.

use crate::abi::{FinishFn, RunFn};
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex, OnceLock};

/// Compiler flags: optimised code for this CPU, with the executor's arithmetic (signed
/// overflow wraps, no fused multiply-add; `errno` and trap flags are never observed).
pub const FLAGS: &[&str] = &[
    "-std=c++17",
    "-O3",
    "-march=native",
    "-shared",
    "-fPIC",
    "-fwrapv",
    "-ffp-contract=off",
    "-fno-math-errno",
    "-fno-trapping-math",
    "-fvisibility=hidden",
    "-w",
];

/// The compiler this process uses.
pub(crate) struct Toolchain {
    pub cxx: String,
    /// Compiler version, flags, CPU features, blazar version: part of every key.
    pub id: String,
}

/// A loaded kernel: the library stays loaded as long as the entry points may be called.
pub(crate) struct Library {
    _lib: libloading::Library,
    pub run: RunFn,
    pub finish: FinishFn,
}

/// The toolchain, probed once: `Err` says why there is none.
pub(crate) fn toolchain() -> Result<&'static Toolchain, String> {
    static TC: OnceLock<Result<Toolchain, String>> = OnceLock::new();
    TC.get_or_init(probe).as_ref().map_err(Clone::clone)
}

fn probe() -> Result<Toolchain, String> {
    let cxx = std::env::var("CXX")
        .ok()
        .filter(|s| !s.trim().is_empty())
        .unwrap_or_else(|| "c++".into());
    let out = Command::new(&cxx)
        .arg("--version")
        .output()
        .map_err(|e| format!("cannot run the C++ compiler `{cxx}`: {e}"))?;
    if !out.status.success() {
        return Err(format!("the C++ compiler `{cxx}` does not work"));
    }
    let version = String::from_utf8_lossy(&out.stdout).into_owned();
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("flags") || l.starts_with("Features"))
                .map(str::to_string)
        })
        .unwrap_or_default();
    let id = format!(
        "{cxx}\n{version}\n{}\n{cpu}\nblazar {}",
        FLAGS.join(" "),
        env!("CARGO_PKG_VERSION")
    );
    Ok(Toolchain { cxx, id })
}

/// 128 bits of hash of `parts` (two independent 64-bit hashes), as hex.
fn hash_hex(parts: &[&[u8]]) -> String {
    let mut fnv: u64 = 0xcbf29ce484222325;
    let mut sip = std::collections::hash_map::DefaultHasher::new();
    for p in parts {
        for &b in *p {
            fnv = (fnv ^ b as u64).wrapping_mul(0x100000001b3);
        }
        fnv = (fnv ^ 0xff).wrapping_mul(0x100000001b3);
        p.hash(&mut sip);
    }
    format!("{fnv:016x}{:016x}", sip.finish())
}

fn cache_dir() -> PathBuf {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .filter(|s| !s.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(std::env::temp_dir);
    base.join("blazar").join("native")
}

/// The loaded library of `source`, compiling it (or taking it from a cache) first.
pub(crate) fn load(source: &str) -> Result<Arc<Library>, String> {
    if let Some(lib) = lookup(source)? {
        return Ok(lib);
    }
    let tc = toolchain()?;
    build(tc, &cache_dir(), &key(tc, source), source)?;
    lookup(source)?.ok_or_else(|| "the compiled kernel could not be loaded".to_string())
}

/// The cache key of `source` under toolchain `tc`.
pub(crate) fn key(tc: &Toolchain, source: &str) -> String {
    hash_hex(&[source.as_bytes(), tc.id.as_bytes()])
}

/// The library of `source` when it is loaded already or in the disk cache; never
/// compiles.
pub(crate) fn lookup(source: &str) -> Result<Option<Arc<Library>>, String> {
    type Loaded = Mutex<HashMap<String, Arc<Library>>>;
    static LOADED: OnceLock<Loaded> = OnceLock::new();
    let tc = toolchain()?;
    let key = key(tc, source);
    let loaded = LOADED.get_or_init(|| Mutex::new(HashMap::new()));
    if let Some(lib) = loaded.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return Ok(Some(lib.clone()));
    }
    let Some(lib) = from_disk(&cache_dir(), &key, source) else {
        return Ok(None);
    };
    let lib = Arc::new(lib);
    loaded
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(key, lib.clone());
    Ok(Some(lib))
}

/// The folder compiled kernels are kept in.
pub(crate) fn dir() -> PathBuf {
    cache_dir()
}

/// A verified cache entry, loaded; `None` when it is missing or not to be trusted.
pub(crate) fn from_disk(dir: &Path, key: &str, source: &str) -> Option<Library> {
    let so = dir.join(format!("{key}.so"));
    let cpp = std::fs::read_to_string(dir.join(format!("{key}.cpp"))).ok()?;
    let ok = std::fs::read_to_string(dir.join(format!("{key}.ok"))).ok()?;
    let bytes = std::fs::read(&so).ok()?;
    if cpp != source || ok.trim() != hash_hex(&[&bytes]) {
        return None;
    }
    open(&so).ok()
}

fn open(path: &Path) -> Result<Library, String> {
    // SAFETY: the library is one this crate generated and compiled (verified against
    // the hash recorded when it was built); its initialisers only set up the C++
    // runtime. The two symbols have the C signatures of `RunFn` and `FinishFn`
    // (`emit::assemble` prints them), and the `Library` keeps the code mapped for as
    // long as the function pointers live.
    unsafe {
        let lib = libloading::Library::new(path).map_err(|e| e.to_string())?;
        let run = *lib.get::<RunFn>(b"bz_run\0").map_err(|e| e.to_string())?;
        let finish = *lib
            .get::<FinishFn>(b"bz_finish\0")
            .map_err(|e| e.to_string())?;
        Ok(Library {
            _lib: lib,
            run,
            finish,
        })
    }
}

/// The kernels of a generated source, from its `// ---- kernel NAME` comments.
fn kernel_names(source: &str) -> String {
    let names: Vec<&str> = source
        .lines()
        .filter_map(|l| l.strip_prefix("// ---- kernel ")?.split_whitespace().next())
        .collect();
    names.join("`, `")
}

/// Compiles `source` into the cache entry `key` (in a fresh temporary folder when the
/// cache folder cannot be written).
pub(crate) fn build(tc: &Toolchain, dir: &Path, key: &str, source: &str) -> Result<(), String> {
    if std::fs::create_dir_all(dir).is_err() {
        return Err(format!("cannot create the cache folder {}", dir.display()));
    }
    let tag = format!(
        "{key}.tmp{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    )
    .replace(|c: char| !c.is_ascii_alphanumeric() && c != '.', "_");
    let (tmp_cpp, tmp_so) = (
        dir.join(format!("{tag}.cpp")),
        dir.join(format!("{tag}.so")),
    );
    let cleanup = || {
        let _ = std::fs::remove_file(&tmp_cpp);
        let _ = std::fs::remove_file(&tmp_so);
    };
    std::fs::write(&tmp_cpp, source).map_err(|e| format!("cannot write the kernel source: {e}"))?;
    let started = std::time::Instant::now();
    let out = Command::new(&tc.cxx)
        .args(FLAGS)
        .arg("-o")
        .arg(&tmp_so)
        .arg(&tmp_cpp)
        .output();
    let out = match out {
        Ok(o) => o,
        Err(e) => {
            cleanup();
            return Err(format!("cannot run `{}`: {e}", tc.cxx));
        }
    };
    if !out.status.success() {
        cleanup();
        let log: String = String::from_utf8_lossy(&out.stderr)
            .lines()
            .take(20)
            .collect::<Vec<_>>()
            .join("\n");
        return Err(format!("the generated C++ does not compile:\n{log}"));
    }
    blazar_launch::note_compiled(&kernel_names(source), "the CPU (C++)", started.elapsed());
    let bytes = std::fs::read(&tmp_so).map_err(|e| e.to_string())?;
    let tmp_ok = dir.join(format!("{tag}.ok"));
    let steps = std::fs::rename(&tmp_so, dir.join(format!("{key}.so")))
        .and_then(|_| std::fs::rename(&tmp_cpp, dir.join(format!("{key}.cpp"))))
        .and_then(|_| std::fs::write(&tmp_ok, hash_hex(&[&bytes])))
        .and_then(|_| std::fs::rename(&tmp_ok, dir.join(format!("{key}.ok"))));
    cleanup();
    steps.map_err(|e| format!("cannot store the compiled kernel: {e}"))
}
