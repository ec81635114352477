//! The compiler processes this process runs, so that they can be stopped when it ends.
//!
//! Each compiler runs in a process group of its own (the driver, `cc1plus`, `as`,
//! `ld`), registered here while it runs. [`stop_all`] kills every registered group and
//! refuses new compilers from then on: a process that ends while its kernels compile in
//! the background (their jobs handed to a detached filler, or abandoned after Ctrl-C)
//! leaves no orphaned compiler behind. A compiler is waited for without being reaped
//! (`waitid` with `WNOWAIT`) and forgotten before it is reaped, so a process group is
//! only signalled while its leader's id cannot have been reused.

use std::collections::HashSet;
use std::io::Read;
use std::process::{Command, ExitStatus, Stdio};
use std::sync::{Mutex, OnceLock};

#[derive(Default)]
struct Running {
    groups: HashSet<u32>,
    stopped: bool,
}

fn running() -> &'static Mutex<Running> {
    static R: OnceLock<Mutex<Running>> = OnceLock::new();
    R.get_or_init(Default::default)
}

/// Runs `cmd` (a compiler) to its end in a process group of its own, with standard
/// input and output closed: its exit status and what it wrote on stderr. An error when
/// it cannot start or when [`stop_all`] was called.
pub(crate) fn output(cmd: &mut Command) -> std::io::Result<(ExitStatus, Vec<u8>)> {
    use std::os::unix::process::CommandExt;
    cmd.stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .process_group(0);
    let mut child = {
        let mut r = running().lock().unwrap_or_else(|e| e.into_inner());
        if r.stopped {
            return Err(std::io::Error::other("the process is ending"));
        }
        let child = cmd.spawn()?;
        r.groups.insert(child.id());
        child
    };
    let mut log = Vec::new();
    if let Some(mut err) = child.stderr.take() {
        let _ = err.read_to_end(&mut log);
    }
    wait_unreaped(child.id());
    running()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .groups
        .remove(&child.id());
    Ok((child.wait()?, log))
}

/// Blocks until process `pid` (a child) has ended, leaving it unreaped.
fn wait_unreaped(pid: u32) {
    #[cfg(target_os = "linux")]
    loop {
        // SAFETY: `waitid` writes only into the `siginfo_t` it is given, which lives
        // across the call.
        let done = unsafe {
            let mut info: libc::siginfo_t = std::mem::zeroed();
            libc::waitid(
                libc::P_PID,
                pid as libc::id_t,
                &mut info,
                libc::WEXITED | libc::WNOWAIT,
            )
        };
        if done == 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
            return;
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = pid;
}

/// Kills every compiler running now (their whole process groups) and refuses to start
/// others in this process.
pub(crate) fn stop_all() {
    let mut r = running().lock().unwrap_or_else(|e| e.into_inner());
    r.stopped = true;
    for &pid in &r.groups {
        #[cfg(unix)]
        // SAFETY: `kill` only reads its integer arguments. The group's leader is a child
        // not yet reaped (see `output`), so the id names that group and no other.
        unsafe {
            libc::kill(-(pid as libc::pid_t), libc::SIGKILL);
        }
    }
}
