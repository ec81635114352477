//! Ending a process whose kernels still compile in the background: the compiles are
//! handed to a detached process (a filler) that finishes them into the disk cache, so
//! that the program's first run ends as soon as its output is complete and its next run
//! still finds the kernels compiled.
//!
//! [`end_compiles`] closes the background queue (`background::close`: running compilers
//! are killed) and starts the filler, the program and arguments the caller names (for
//! `blazar`, itself through a hidden command), in a session of its own, with standard
//! output and error on `/dev/null` (a reader of the program's output sees its end at
//! once) and the jobs on standard input: an in-memory file holding a header and each
//! job's cache key and source. The filler ([`fill_cache`]) reads them, lowers its
//! priority as the background workers do, compiles each kernel that its own toolchain
//! gives the same key (so that a filler whose toolchain differs stores nothing; a job
//! the process could not key yet has an empty key) and that the cache does not hold yet, through the same queue, and stores it as
//! any compile does (an authenticated entry written whole and renamed into place: two
//! writers of one key leave one whole entry). Nothing it does is reported: a failure
//! only means that the next run compiles again. `BLAZAR_WAIT_COMPILES=1` waits in the
//! process instead (tests and benchmarks that need the cache filled when it ends). A
//! process that ends otherwise (the Python module, a test program) stops its compilers
//! at exit and drops their jobs.

use crate::{background, compile, toolchain};
use std::io::Read;
use std::path::Path;

const MAGIC: &[u8; 8] = b"BZFILL01";

/// Whether `BLAZAR_WAIT_COMPILES` asks processes to wait for their compiles at the end.
pub fn wait_requested() -> bool {
    std::env::var_os("BLAZAR_WAIT_COMPILES").is_some_and(|v| !v.is_empty() && v != "0")
}

/// Ends this process's background compiling: waits for it under
/// `BLAZAR_WAIT_COMPILES=1`; otherwise stops it and hands the compiles not done to
/// `program args...` (see the module), silently (a filler that cannot start costs only
/// a later recompilation).
pub fn end_compiles(program: &Path, args: &[&str]) {
    if wait_requested() {
        background::wait_for_compiles();
        return;
    }
    let jobs = background::close();
    if jobs.is_empty() {
        return;
    }
    let _ = spawn_filler(program, args, &encode(&jobs));
}

/// Stops this process's background compiling (its compilers are killed) and drops the
/// compiles not done: for a run that a signal ends.
pub fn abandon_compiles() {
    let _ = background::close();
}

/// Registers (once) an exit handler that stops the compilers still running when the
/// process exits without [`end_compiles`] (the Python module, test programs): without
/// it they would run on, orphaned, for output nobody reads.
pub(crate) fn stop_compilers_at_exit() {
    extern "C" fn stop() {
        let _ = std::panic::catch_unwind(background::close);
    }
    static ONCE: std::sync::Once = std::sync::Once::new();
    // SAFETY: `atexit` stores a pointer to a function that lives as long as the
    // program; the handler only takes this crate's locks and kills its own children.
    ONCE.call_once(|| unsafe {
        libc::atexit(stop);
    });
}

/// The jobs as the filler reads them: the header, whether kernels are compiled
/// `--deterministic`, the count, then each key and source, lengths first.
fn encode(jobs: &[(String, std::sync::Arc<str>)]) -> Vec<u8> {
    let mut out = MAGIC.to_vec();
    out.push(toolchain::deterministic() as u8);
    out.extend_from_slice(&(jobs.len() as u64).to_le_bytes());
    for (key, source) in jobs {
        for part in [key.as_bytes(), source.as_bytes()] {
            out.extend_from_slice(&(part.len() as u64).to_le_bytes());
            out.extend_from_slice(part);
        }
    }
    out
}

/// The jobs of `bytes` (see [`encode`]) and whether they are deterministic; `None`
/// when they are not well formed.
fn decode(bytes: &[u8]) -> Option<(bool, Vec<(String, String)>)> {
    fn take<'a>(rest: &mut &'a [u8], n: usize) -> Option<&'a [u8]> {
        let (head, tail) = rest.split_at_checked(n)?;
        *rest = tail;
        Some(head)
    }
    fn number(rest: &mut &[u8]) -> Option<usize> {
        usize::try_from(u64::from_le_bytes(take(rest, 8)?.try_into().ok()?)).ok()
    }
    let mut rest = bytes.strip_prefix(MAGIC.as_slice())?;
    let deterministic = match take(&mut rest, 1)? {
        [0] => false,
        [1] => true,
        _ => return None,
    };
    let count = number(&mut rest)?;
    let mut jobs = Vec::new();
    for _ in 0..count {
        let n = number(&mut rest)?;
        let key = String::from_utf8(take(&mut rest, n)?.to_vec()).ok()?;
        let n = number(&mut rest)?;
        let source = String::from_utf8(take(&mut rest, n)?.to_vec()).ok()?;
        jobs.push((key, source));
    }
    rest.is_empty().then_some((deterministic, jobs))
}

/// Starts the filler with `input` as its standard input, detached (see the module).
#[cfg(target_os = "linux")]
fn spawn_filler(program: &Path, args: &[&str], input: &[u8]) -> std::io::Result<()> {
    use std::io::{Seek, Write};
    use std::os::fd::FromRawFd;
    use std::os::unix::process::CommandExt;
    use std::process::{Command, Stdio};
    // SAFETY: `memfd_create` reads the name, a literal C string; the descriptor it
    // returns is owned by the `File` from here on.
    let mut file = unsafe {
        let fd = libc::memfd_create(c"blazar-fill".as_ptr(), libc::MFD_CLOEXEC);
        if fd < 0 {
            return Err(std::io::Error::last_os_error());
        }
        std::fs::File::from_raw_fd(fd)
    };
    file.write_all(input)?;
    file.rewind()?;
    let mut cmd = Command::new(program);
    cmd.args(args)
        .env("BLAZAR_WAIT_COMPILES", "1")
        .current_dir("/")
        .stdin(Stdio::from(file))
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    // SAFETY: between fork and exec the child calls only `setsid`, which is
    // async-signal-safe.
    unsafe {
        cmd.pre_exec(|| {
            libc::setsid();
            Ok(())
        });
    }
    cmd.spawn().map(drop)
}

#[cfg(not(target_os = "linux"))]
fn spawn_filler(_: &Path, _: &[&str], _: &[u8]) -> std::io::Result<()> {
    Err(std::io::Error::other("no filler on this system"))
}

/// The filler: reads the jobs from `input` and compiles each into the disk cache (see
/// the module), then returns. Silent; malformed input does nothing.
pub fn fill_cache(input: &mut dyn Read) {
    let mut bytes = Vec::new();
    if input.read_to_end(&mut bytes).is_err() {
        return;
    }
    let Some((deterministic, jobs)) = decode(&bytes) else {
        return;
    };
    drop(bytes);
    background::yield_to_kernels();
    if deterministic {
        toolchain::set_deterministic();
    }
    let (Ok(tc), Some(store)) = (toolchain::toolchain(), compile::store()) else {
        return;
    };
    for (key, source) in jobs {
        // An empty key: the ended process had not probed its toolchain yet.
        let ours = compile::key(tc, &source);
        if (key.is_empty() || ours == key) && !compile::stored(store, &ours, &source) {
            background::queue_job(ours, &source);
        }
    }
    background::wait_for_compiles();
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn jobs_read_back_as_written() {
        let jobs: Vec<(String, Arc<str>)> = vec![
            ("k1".into(), "int main() {}\n".into()),
            ("k2".into(), "".into()),
        ];
        let bytes = encode(&jobs);
        let (det, back) = decode(&bytes).expect("well formed");
        assert_eq!(det, toolchain::deterministic());
        let want: Vec<(String, String)> = jobs
            .iter()
            .map(|(k, s)| (k.clone(), s.to_string()))
            .collect();
        assert_eq!(back, want);
        // Cut short, extended or with another header: nothing.
        assert!(decode(&bytes[..bytes.len() - 1]).is_none());
        assert!(decode(&[bytes.as_slice(), b"x"].concat()).is_none());
        assert!(decode(&[b"BZFILL00".as_slice(), &bytes[8..]].concat()).is_none());
        assert!(decode(b"").is_none());
    }
}
