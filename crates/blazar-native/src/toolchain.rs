//! The system C++ compiler the native tier uses: which one (`$CXX`, else `c++`), its
//! flags, what the system adds (glibc's vector math library), whether it is GCC (for
//! the precompiled prelude), and the identity that is part of every cache key.

use std::hash::{Hash, Hasher};
use std::process::Command;
use std::sync::OnceLock;

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

/// Set by [`set_deterministic`] (`blazar run --deterministic`).
static DETERMINISTIC: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Compile kernels for results bit-identical to the SIMT interpreter's: without glibc's
/// vector math library (whose functions may differ from the scalar ones, which the
/// interpreter also calls, by up to 4 ulp). Takes effect when called before the first
/// kernel is compiled (the toolchain is probed once); the cache keys differ, so kernels
/// compiled the other way are never reused. The JIT's strips then call no vector math
/// function either.
pub fn set_deterministic() {
    DETERMINISTIC.store(true, std::sync::atomic::Ordering::Relaxed);
    blazar_jit::set_deterministic();
}

/// Whether [`set_deterministic`] was called.
pub(crate) fn deterministic() -> bool {
    DETERMINISTIC.load(std::sync::atomic::Ordering::Relaxed)
}

/// The compiler this process uses.
pub(crate) struct Toolchain {
    pub cxx: String,
    /// Flags that depend on what the system offers: `-DBZ_MVEC` where glibc's vector
    /// math library is installed (see [`vector_math`]), `-fno-finite-loops` where the
    /// compiler has it (see [`infinite_loops`]) ...
    pub defines: Vec<String>,
    /// ... and the libraries to link then (`-lmvec`).
    pub libs: Vec<String>,
    /// Compiler version, flags, CPU features, blazar version: part of every key.
    pub id: String,
    /// The compiler is GCC (its `--version` says so): the prelude is precompiled
    /// (`crate::pch`).
    pub gcc: bool,
}

/// The toolchain, probed once (or remembered from an earlier probe, see
/// [`remembered`]): `Err` says why there is none.
pub(crate) fn toolchain() -> Result<&'static Toolchain, String> {
    static_toolchain()
        .get_or_init(|| remembered().map_or_else(probe_and_remember, Ok))
        .as_ref()
        .map_err(Clone::clone)
}

fn static_toolchain() -> &'static OnceLock<Result<Toolchain, String>> {
    static TC: OnceLock<Result<Toolchain, String>> = OnceLock::new();
    &TC
}

/// The toolchain when it is known without running the compiler: probed already, or
/// remembered from an earlier run's probe (never waits for a probe).
pub(crate) fn probed() -> Option<Result<&'static Toolchain, String>> {
    static TRIED: std::sync::Once = std::sync::Once::new();
    let tc = static_toolchain();
    TRIED.call_once(|| {
        if tc.get().is_none() {
            if let Some(known) = remembered() {
                let _ = tc.set(Ok(known));
            }
        }
    });
    tc.get().map(|r| r.as_ref().map_err(Clone::clone))
}

/// The cache entry that remembers the probe of this compiler: named by what the probe's
/// answer depends on (the compiler's resolved file and its size, time and inode, the C
/// library's version, the CPU's flags, the options that change the flags, this blazar),
/// so that an upgraded compiler or C library is probed again. `None` when the compiler
/// is not found.
fn memo_name() -> Option<String> {
    use std::os::unix::fs::MetadataExt;
    let cxx = compiler();
    let file = std::fs::canonicalize(compiler_file()?).ok()?;
    let m = std::fs::metadata(&file).ok()?;
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: glibc returns a pointer to a static NUL-terminated string.
    let libc_version = unsafe { std::ffi::CStr::from_ptr(libc::gnu_get_libc_version()) }
        .to_string_lossy()
        .into_owned();
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    let libc_version = String::new();
    let stamp = format!(
        "{cxx}\n{}\n{} {} {} {}\n{libc_version}\n{}\n{} {}\n{}",
        file.display(),
        m.len(),
        m.mtime(),
        m.mtime_nsec(),
        m.ino(),
        cpu_flags(),
        std::env::var_os("BLAZAR_NO_MVEC").is_some(),
        deterministic(),
        env!("CARGO_PKG_VERSION")
    );
    Some(format!("toolchain-{}", hash_hex(&[stamp.as_bytes()])))
}

/// The toolchain an earlier run probed for this compiler, read from the trusted cache
/// (an entry this user's blazar wrote: its flags are passed to the compiler).
fn remembered() -> Option<Toolchain> {
    let bytes = crate::compile::store()?.get(&memo_name()?)?;
    let text = String::from_utf8(bytes).ok()?;
    let mut parts = text.splitn(5, '\n');
    let cxx = parts.next()?.to_string();
    let gcc = parts.next()? == "1";
    let list = |t: &str| -> Vec<String> {
        t.split('\x1f')
            .filter(|x| !x.is_empty())
            .map(str::to_string)
            .collect()
    };
    let defines = list(parts.next()?);
    let libs = list(parts.next()?);
    let id = parts.next()?.to_string();
    (cxx == compiler()).then_some(Toolchain {
        cxx,
        defines,
        libs,
        id,
        gcc,
    })
}

/// Probes the compiler and remembers a working toolchain in the cache (silently: a
/// cache that cannot be written only means the next run probes again).
fn probe_and_remember() -> Result<Toolchain, String> {
    let tc = probe()?;
    if let (Some(name), Some(store)) = (memo_name(), crate::compile::store()) {
        let text = format!(
            "{}\n{}\n{}\n{}\n{}",
            tc.cxx,
            if tc.gcc { "1" } else { "0" },
            tc.defines.join("\x1f"),
            tc.libs.join("\x1f"),
            tc.id
        );
        let _ = store.put(&name, text.as_bytes());
    }
    Ok(tc)
}

/// The CPU's feature flags (`/proc/cpuinfo`'s first `flags` line), part of the
/// toolchain's identity: kernels are compiled `-march=native`.
fn cpu_flags() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("flags") || l.starts_with("Features"))
                .map(str::to_string)
        })
        .unwrap_or_default()
}

/// The compiler's name: `$CXX`, else `c++`.
fn compiler() -> String {
    std::env::var("CXX")
        .ok()
        .filter(|s| !s.trim().is_empty())
        .unwrap_or_else(|| "c++".into())
}

/// Whether the compiler is an executable file (a path, or found on `PATH`), without
/// running it: `Err` says why not. For a note at the start of a run; the probe, when a
/// kernel first needs the compiler, finds the rest.
pub fn compiler_found() -> Result<(), String> {
    match compiler_file() {
        Some(_) => Ok(()),
        None => Err(format!("cannot find the C++ compiler `{}`", compiler())),
    }
}

/// The executable file the compiler's name stands for (a path, or the first match on
/// `PATH`), without running it.
fn compiler_file() -> Option<std::path::PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let cxx = compiler();
    let runnable = |p: &std::path::Path| {
        std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    if cxx.contains('/') {
        let p = std::path::PathBuf::from(&cxx);
        return runnable(&p).then_some(p);
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(&cxx))
        .find(|p| runnable(p))
}

fn probe() -> Result<Toolchain, String> {
    probe_cxx(compiler())
}

/// The toolchain of compiler `cxx`, or why it does not work.
pub(crate) fn probe_cxx(cxx: String) -> Result<Toolchain, String> {
    let out = Command::new(&cxx)
        .arg("--version")
        .output()
        .map_err(|e| format!("cannot run the C++ compiler `{cxx}`: {e}"))?;
    if !out.status.success() {
        return Err(format!("the C++ compiler `{cxx}` does not work"));
    }
    let version = String::from_utf8_lossy(&out.stdout).into_owned();
    let cpu = cpu_flags();
    let (mut defines, libs) = vector_math(&cxx);
    defines.extend(infinite_loops(&cxx));
    let id = format!(
        "{cxx}\n{version}\n{} {}\n{cpu}\nblazar {}",
        FLAGS.join(" "),
        [defines.as_slice(), libs.as_slice()].concat().join(" "),
        env!("CARGO_PKG_VERSION")
    );
    Ok(Toolchain {
        gcc: is_gcc(&version),
        cxx,
        id,
        defines,
        libs,
    })
}

/// Whether a compiler's `--version` text is GCC's (`g++ (GCC) 13.2.1 ...`, `c++
/// (Debian 12.2.0-14) 12.2.0 ... Free Software Foundation`); clang, which also
/// answers to `c++` on some systems, names itself on the first line.
pub(crate) fn is_gcc(version: &str) -> bool {
    let first = version.lines().next().unwrap_or("").to_ascii_lowercase();
    version.contains("Free Software Foundation") && !first.contains("clang")
}

/// glibc's vector math library (`libmvec`, glibc 2.35 or later for every function the
/// prelude declares): when the compiler finds it, kernels are built with `-DBZ_MVEC`,
/// which declares SIMD variants of the libm functions (`atan2f`, `powf`, `expf`, ...)
/// so that loops over arrays call them eight or sixteen lanes at a time (within 4 ulp,
/// as glibc documents; the scalar functions are within 1), and linked with `-lmvec`.
/// `BLAZAR_NO_MVEC` turns this off.
fn vector_math(cxx: &str) -> (Vec<String>, Vec<String>) {
    if std::env::var_os("BLAZAR_NO_MVEC").is_some()
        || DETERMINISTIC.load(std::sync::atomic::Ordering::Relaxed)
    {
        return Default::default();
    }
    let found = Command::new(cxx)
        .arg("-print-file-name=libmvec.so")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .filter(|path| std::path::Path::new(path).is_absolute())
        .is_some();
    let glibc_235 = Command::new("ldd")
        .arg("--version")
        .output()
        .ok()
        .and_then(|o| glibc_minor(&String::from_utf8_lossy(&o.stdout)))
        .is_some_and(|minor| minor >= 35);
    if found && glibc_235 {
        (vec!["-DBZ_MVEC".into()], vec!["-lmvec".into()])
    } else {
        Default::default()
    }
}

/// `-fno-finite-loops` where the compiler takes it (GCC 10 and clang 12 on): C++ lets
/// a compiler assume that a loop without side effects ends, and delete it, but a
/// kernel's `while y[0] >= 0 end` must wait as it does on the SIMT interpreter (until
/// a signal stops the run).
fn infinite_loops(cxx: &str) -> Option<String> {
    const FLAG: &str = "-fno-finite-loops";
    Command::new(cxx)
        .args([FLAG, "-fsyntax-only", "-x", "c++", "/dev/null"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .ok()
        .filter(|s| s.success())
        .map(|_| FLAG.to_string())
}

/// The minor version of `ldd --version`'s first line, when it is glibc 2.x.
fn glibc_minor(text: &str) -> Option<u32> {
    let line = text.lines().next()?;
    let version = line.split_whitespace().last()?;
    let minor = version.strip_prefix("2.")?;
    minor
        .split(|c: char| !c.is_ascii_digit())
        .next()?
        .parse()
        .ok()
}

/// 128 bits of hash of `parts` (two independent 64-bit hashes), as hex.
pub(crate) fn hash_hex(parts: &[&[u8]]) -> String {
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
