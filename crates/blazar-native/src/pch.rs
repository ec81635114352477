//! The prelude as a GCC precompiled header, so that a kernel's compile skips parsing
//! the prelude (with `<cmath>`): about half of each compile's time.
//!
//! Every generated source is the fixed prelude followed by the kernel's part
//! (`emit::prelude`, `emit::kernel_part`). With GCC (`Toolchain::gcc`) and a trusted
//! disk store, the store holds a published folder `pch-<hash>` (`blazar_cache`'s
//! sealed folders; the hash covers the toolchain id and the prelude text, so another
//! compiler, other flags or another prelude get another folder) with `prelude.h` and
//! its `prelude.h.gch`, built once with the kernels' flags (`-x c++-header`, without
//! `-shared`) and checked before it is published: GCC must accept it for a kernel
//! compile (`-Winvalid-pch` as an error; the kernels' `-w` would silence it). A kernel
//! is then compiled as its part after `-include <folder>/prelude.h`; the cache key and
//! the cached entry still hold the whole source.
//!
//! What can go wrong falls back to the whole source, silently and correctly: another
//! compiler, no store, `BLAZAR_NO_PCH`, a failed build (not retried in this process),
//! a folder that fails its seal (removed and rebuilt). A PCH that GCC finds stale (an
//! updated compiler of the same version, say) is skipped by GCC itself, which then
//! reads the header's text beside it: the same code, more slowly. A kernel that does not
//! compile with the PCH but does without turns the PCH off for the rest of the
//! process. While one thread builds the PCH, the others compile whole sources.

use crate::toolchain::{hash_hex, Toolchain, FLAGS};
use blazar_cache::Store;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, OnceLock};

/// The header's file name in the folder (GCC looks for `prelude.h.gch` beside it).
pub(crate) const HEADER: &str = "prelude.h";

/// Where a store's PCH stands in this process.
#[derive(Clone)]
enum State {
    Building,
    Ready(PathBuf),
    Off,
}

/// The state of each store's PCH, by store folder.
fn states() -> &'static Mutex<HashMap<PathBuf, State>> {
    static STATES: OnceLock<Mutex<HashMap<PathBuf, State>>> = OnceLock::new();
    STATES.get_or_init(Default::default)
}

/// The PCH folder of toolchain `tc` in `store`, when a kernel compile can use it now:
/// verified (once per process) or built by this thread. `None` while another thread
/// builds it, or when there is none (see the module's rules).
pub(crate) fn folder(tc: &Toolchain, store: Option<&Store>) -> Option<PathBuf> {
    let store = store?;
    if !tc.gcc || std::env::var_os("BLAZAR_NO_PCH").is_some() {
        return None;
    }
    let key = store.dir().to_path_buf();
    {
        let mut states = states().lock().unwrap_or_else(|e| e.into_inner());
        match states.get(&key) {
            Some(State::Ready(p)) => return Some(p.clone()),
            Some(State::Building | State::Off) => return None,
            None => {
                states.insert(key.clone(), State::Building);
            }
        }
    }
    let name = name(tc);
    let found = store
        .verified_dir(&name)
        .or_else(|| store.publish_dir(&name, |dir| build(tc, dir)).ok());
    let state = found.clone().map_or(State::Off, State::Ready);
    states()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(key, state);
    found
}

/// Stops using `store`'s PCH in this process (a kernel failed to compile with it).
pub(crate) fn give_up(store: &Store) {
    states()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(store.dir().to_path_buf(), State::Off);
}

/// Forgets what this process knows of `store`'s PCH (tests: the next use verifies it).
#[cfg(test)]
pub(crate) fn forget(store: &Store) {
    states()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .remove(store.dir());
}

/// The store's name of the PCH folder of `tc`.
pub(crate) fn name(tc: &Toolchain) -> String {
    let hash = hash_hex(&[
        tc.id.as_bytes(),
        blazar_codegen_c::cpp::prelude().as_bytes(),
    ]);
    format!("pch-{hash}")
}

/// The kernels' flags for a compile that makes no shared object.
fn flags_without(tc: &Toolchain, drop: &[&str]) -> Vec<String> {
    FLAGS
        .iter()
        .filter(|f| !drop.contains(f))
        .map(|f| f.to_string())
        .chain(tc.defines.iter().cloned())
        .collect()
}

/// Writes the prelude as `prelude.h` in `dir` and precompiles it, then checks that GCC
/// accepts the PCH for a kernel compile.
pub(crate) fn build(tc: &Toolchain, dir: &Path) -> Result<(), String> {
    build_header(tc, dir, blazar_codegen_c::cpp::prelude())
}

/// [`build`] with `text` as the header.
pub(crate) fn build_header(tc: &Toolchain, dir: &Path, text: &str) -> Result<(), String> {
    let header = dir.join(HEADER);
    std::fs::write(&header, text).map_err(|e| e.to_string())?;
    let gch = dir.join(format!("{HEADER}.gch"));
    run(Command::new(&tc.cxx)
        .args(flags_without(tc, &["-shared"]))
        .args(["-x", "c++-header", "-o"])
        .arg(&gch)
        .arg(&header))?;
    check(tc, dir)
}

/// Whether GCC takes the PCH in `dir` for a kernel compile: `-Winvalid-pch` as an
/// error, without the kernels' `-w`, which would silence it.
pub(crate) fn check(tc: &Toolchain, dir: &Path) -> Result<(), String> {
    run(Command::new(&tc.cxx)
        .args(flags_without(tc, &["-shared", "-w"]))
        .args([
            "-Winvalid-pch",
            "-Werror=invalid-pch",
            "-fsyntax-only",
            "-include",
        ])
        .arg(dir.join(HEADER))
        .args(["-x", "c++", "/dev/null"]))
}

/// Runs a compiler command; `Err` with its first lines of diagnostics when it fails.
fn run(cmd: &mut Command) -> Result<(), String> {
    let (status, stderr) = crate::children::output(cmd).map_err(|e| e.to_string())?;
    if status.success() {
        return Ok(());
    }
    let log = String::from_utf8_lossy(&stderr);
    Err(log.lines().take(5).collect::<Vec<_>>().join("\n"))
}
