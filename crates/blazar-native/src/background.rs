//! Kernels compiled on background threads, so that a program's first launches run on
//! the SIMT interpreter instead of waiting for the C++ compiler.
//!
//! Under `--cpu-tier auto` a kernel whose library is neither loaded nor in the disk
//! cache is queued here and its launch runs on the interpreter (the same results: the
//! interpreter is the oracle); a later launch of it finds the library ready. At most one
//! compiler per core runs at once. `--cpu-tier native` compiles in the foreground.
//! The toolchain is probed on the first worker too (it runs the compiler three or four
//! times, one of them a syntax check that starts the compiler proper: tens of
//! milliseconds a first launch would otherwise wait for): until it is known, sources
//! wait unkeyed and their launches run on the JIT.
//! When the process ends, the compiles not done yet are [`close`]d: their compilers
//! stopped and their jobs returned (`crate::handoff` gives them to a detached process).

use crate::compile::{self, Library};
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, OnceLock};

/// Where a kernel's library stands.
pub(crate) enum Ready {
    Loaded(Arc<Library>),
    Building,
    Failed(String),
}

enum Job {
    /// Waiting or compiling: the source.
    Queued(Arc<str>),
    Done(Result<(), String>),
}

#[derive(Default)]
struct Queue {
    jobs: HashMap<String, Job>,
    waiting: VecDeque<(String, Arc<str>)>,
    workers: usize,
    /// Sources that came while the toolchain (and so their keys) was not known yet.
    unkeyed: Vec<Arc<str>>,
    /// No more compiles in this process ([`close`]).
    closed: bool,
}

fn queue() -> &'static Mutex<Queue> {
    static Q: OnceLock<Mutex<Queue>> = OnceLock::new();
    Q.get_or_init(Default::default)
}

/// The library of `source` if it is ready; otherwise its compilation is queued (once).
/// Never waits for the toolchain's probe: before it is known, the source waits for a
/// worker to probe it.
pub(crate) fn load_or_queue(source: &str) -> Ready {
    let tc = match crate::toolchain::probed() {
        Some(Ok(tc)) => tc,
        Some(Err(e)) => return Ready::Failed(e),
        None => return queue_unkeyed(source),
    };
    match compile::lookup(source) {
        Ok(Some(lib)) => return Ready::Loaded(lib),
        Ok(None) => {}
        Err(e) => return Ready::Failed(e),
    }
    let key = compile::key(tc, source);
    queue_job(key, source)
}

/// Keeps `source` (once) for a worker that probes the toolchain first.
fn queue_unkeyed(source: &str) -> Ready {
    let mut q = queue().lock().unwrap_or_else(|e| e.into_inner());
    if !q.closed && !q.unkeyed.iter().any(|s| **s == *source) {
        q.unkeyed.push(source.into());
        start_worker(&mut q);
    }
    Ready::Building
}

/// Starts a worker unless one per core runs.
fn start_worker(q: &mut Queue) {
    let max = std::thread::available_parallelism().map_or(1, |n| n.get());
    if q.workers < max {
        crate::handoff::stop_compilers_at_exit();
        q.workers += 1;
        let spawned = std::thread::Builder::new()
            .name("blazar-cxx".into())
            .spawn(work);
        if spawned.is_err() {
            q.workers -= 1;
        }
    }
}

/// Queues the compile of `source` under cache key `key` (once); how it stands now.
pub(crate) fn queue_job(key: String, source: &str) -> Ready {
    let mut q = queue().lock().unwrap_or_else(|e| e.into_inner());
    match q.jobs.get(&key) {
        Some(Job::Queued(_)) => return Ready::Building,
        Some(Job::Done(Err(e))) => return Ready::Failed(e.clone()),
        Some(Job::Done(Ok(()))) => {
            drop(q);
            return match compile::lookup(source) {
                Ok(Some(lib)) => Ready::Loaded(lib),
                Ok(None) => Ready::Failed("the compiled kernel could not be loaded".into()),
                Err(e) => Ready::Failed(e),
            };
        }
        None if q.closed => return Ready::Building,
        None => {}
    }
    let source: Arc<str> = source.into();
    q.jobs.insert(key.clone(), Job::Queued(source.clone()));
    q.waiting.push_back((key, source));
    start_worker(&mut q);
    Ready::Building
}

/// Queues the sources that waited for the toolchain, now that it is probed: those
/// neither queued already nor in the disk cache (a later launch loads those).
fn key_sources(tc: &Result<&'static crate::toolchain::Toolchain, String>, sources: Vec<Arc<str>>) {
    let tc = match tc {
        Ok(tc) => tc,
        Err(e) => {
            // Launches of these kernels stay on the JIT or the interpreter. A compiler
            // that is not there at all was noted at the start (`blazar run`); one that
            // is there but does not work is noted here.
            if let (Some(s), Ok(())) = (sources.first(), crate::toolchain::compiler_found()) {
                crate::note_fallback(&compile::kernel_names(s), e);
            }
            return;
        }
    };
    for source in sources {
        let key = compile::key(tc, &source);
        if compile::store().is_some_and(|st| compile::stored(st, &key, &source)) {
            continue;
        }
        let mut q = queue().lock().unwrap_or_else(|e| e.into_inner());
        if !q.closed && !q.jobs.contains_key(&key) {
            q.jobs.insert(key.clone(), Job::Queued(source.clone()));
            q.waiting.push_back((key, source));
            start_worker(&mut q);
        }
    }
}

/// A worker: compiles queued kernels until none is left, at a low priority (see
/// [`yield_to_kernels`]).
fn work() {
    // The probe (once per process) at the caller's priority: launches wait for it.
    let tc = crate::toolchain::toolchain();
    yield_to_kernels();
    loop {
        let next = {
            let mut q = queue().lock().unwrap_or_else(|e| e.into_inner());
            if !q.unkeyed.is_empty() {
                let sources = std::mem::take(&mut q.unkeyed);
                drop(q);
                key_sources(&tc, sources);
                continue;
            }
            match q.waiting.pop_front() {
                Some(job) => job,
                None => {
                    q.workers -= 1;
                    return;
                }
            }
        };
        let (key, source) = next;
        let result = crate::toolchain::toolchain()
            .and_then(|tc| compile::build(tc, compile::store(), &key, &source));
        let result = result.map(|_| ());
        let mut q = queue().lock().unwrap_or_else(|e| e.into_inner());
        if q.closed {
            // The process is ending and its compiler was stopped: this job was handed
            // on (or abandoned), and there is nothing to report.
            q.workers -= 1;
            return;
        }
        q.jobs.insert(key, Job::Done(result.clone()));
        drop(q);
        if let Err(e) = &result {
            // Launches of this kernel stay on the interpreter.
            crate::note_fallback(&compile::kernel_names(&source), e);
        }
    }
}

/// Ends background compiling in this process: no compile starts from now on, running
/// compilers are killed, and the jobs not done (key, source; those that were compiling
/// first, and last those still waiting for the toolchain, with an empty key) are
/// returned.
pub(crate) fn close() -> Vec<(String, Arc<str>)> {
    let mut q = queue().lock().unwrap_or_else(|e| e.into_inner());
    q.closed = true;
    let waiting: Vec<(String, Arc<str>)> = q.waiting.drain(..).collect();
    let mut jobs: Vec<(String, Arc<str>)> = q
        .jobs
        .iter()
        .filter_map(|(key, job)| match job {
            Job::Queued(src) if !waiting.iter().any(|(k, _)| k == key) => {
                Some((key.clone(), src.clone()))
            }
            _ => None,
        })
        .collect();
    jobs.extend(waiting);
    jobs.extend(q.unkeyed.drain(..).map(|s| (String::new(), s)));
    drop(q);
    crate::children::stop_all();
    // The workers of the stopped compilers remove their scratch folders; a moment is
    // given to them (10 ms; what is left is cleaned by a later run, as after a crash).
    let until = std::time::Instant::now() + std::time::Duration::from_millis(10);
    while queue().lock().unwrap_or_else(|e| e.into_inner()).workers > 0
        && std::time::Instant::now() < until
    {
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    jobs
}

/// Waits until every queued kernel is compiled and stored, so that the next run of the
/// program finds them in the cache (`blazar` does at its end under
/// `BLAZAR_WAIT_COMPILES=1`, and a detached filler always: `crate::handoff`).
pub fn wait_for_compiles() {
    loop {
        {
            let q = queue().lock().unwrap_or_else(|e| e.into_inner());
            if q.waiting.is_empty() && q.unkeyed.is_empty() && q.workers == 0 {
                return;
            }
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}

/// Lowers the calling thread's scheduling priority so that while the program's kernels
/// run on the fast tiers a background compile takes only the cores they leave idle (on
/// two cores a compiler at the same priority halves a kernel's speed, and one at a mere
/// `nice` 10 still runs out its time slice before a waking kernel thread gets the core).
/// Linux: the thread's policy becomes `SCHED_IDLE` (any runnable thread of normal policy
/// preempts it at once) and its `nice` 19, for where that policy is refused; both are
/// per thread, and the compiler processes it starts inherit them. Elsewhere: nothing.
pub(crate) fn yield_to_kernels() {
    #[cfg(target_os = "linux")]
    // SAFETY: `gettid` and `setpriority` only read their integer arguments, and
    // `sched_setscheduler` reads the parameter block it is given, which lives across the
    // call; a failure leaves the priority as it was, which is harmless.
    unsafe {
        let tid = libc::gettid();
        libc::setpriority(libc::PRIO_PROCESS, tid as libc::id_t, 19);
        let param = libc::sched_param { sched_priority: 0 };
        libc::sched_setscheduler(tid, libc::SCHED_IDLE, &param);
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    /// A compile worker runs at the idle policy and the lowest `nice` (the compilers it
    /// starts inherit both).
    #[test]
    fn workers_yield_to_kernels() {
        let (policy, nice) = std::thread::spawn(|| {
            super::yield_to_kernels();
            // SAFETY: as in `yield_to_kernels`: integer arguments only.
            unsafe {
                let tid = libc::gettid();
                *libc::__errno_location() = 0;
                let nice = libc::getpriority(libc::PRIO_PROCESS, tid as libc::id_t);
                (libc::sched_getscheduler(tid), nice)
            }
        })
        .join()
        .unwrap();
        assert_eq!(policy, libc::SCHED_IDLE);
        assert_eq!(nice, 19);
    }
}
