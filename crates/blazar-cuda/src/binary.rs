//! A kernel's cubin on its way: taken from the disk cache at once, or compiled by
//! NVRTC on a background thread while the host program goes on.
//!
//! A program's first run compiles one kernel per new statement, and NVRTC's cost is
//! mostly per call, not per kernel: on the GPU machine (16-core Xeon, NVRTC 13.0) one
//! of Blazar's element-wise kernels takes 33 ms, a translation unit holding 20 of them
//! 70 ms, and calls on several threads do not overlap (NVRTC serialises them). So the
//! kernels asked for while a compile runs are compiled together: one background thread
//! takes every waiting request (one prelude, then each kernel's own code; their entry
//! names differ) as one NVRTC call, and each kernel gets the whole cubin. Launches wait
//! only when their own binary is needed (see `defer`). A unit that fails is compiled
//! again kernel by kernel, so that an error names its kernel.

use crate::cache::DiskCache;
use crate::compile::{compile_cubin, options};
use blazar_codegen_c::cuda::Generated;
use std::sync::mpsc::{channel, Receiver, Sender, TryRecvError};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A finished compile: the cubin and the time NVRTC took, or why it failed.
type Compiled = Result<(Vec<u8>, Duration), String>;

/// Where a kernel's cubin stands.
pub enum Binary {
    /// NVRTC is compiling it on a background thread.
    Compiling(Receiver<Compiled>),
    /// The cubin, not loaded yet (`compiled`: NVRTC's time, `None` from the cache).
    Ready {
        cubin: Vec<u8>,
        compiled: Option<Duration>,
    },
    /// Loaded into the context (the module keeps the function).
    Loaded { compiled: Option<Duration> },
    /// The compile failed: the message, for every launch that needs it.
    Failed(String),
}

impl Binary {
    /// The cubin of `gen` from the disk cache, or a compile started in the background.
    pub fn start(
        gen: &Generated,
        kernel: &str,
        arch: u32,
        nvrtc: (i32, i32),
        cache: &DiskCache,
    ) -> Binary {
        let options = options(arch);
        let key = DiskCache::key(&gen.source, &options, nvrtc, arch);
        if let Some(cubin) = cache.get(&key) {
            return Binary::Ready {
                cubin,
                compiled: None,
            };
        }
        let (tx, rx) = channel();
        let split = gen.source.find(KERNEL_MARKER).unwrap_or(0);
        let request = Request {
            source: gen.source.clone(),
            split,
            entry: gen.entry.clone(),
            kernel: kernel.to_string(),
            key,
            options,
            cache: cache.clone(),
            tx,
        };
        match submit(request) {
            Ok(()) => Binary::Compiling(rx),
            Err(e) => Binary::Failed(e),
        }
    }

    /// Whether the cubin is here (or the compile failed): never waits.
    pub fn arrived(&mut self) -> bool {
        let Binary::Compiling(rx) = self else {
            return true;
        };
        match rx.try_recv() {
            Ok(r) => *self = Binary::finished(r),
            Err(TryRecvError::Empty) => return false,
            Err(TryRecvError::Disconnected) => {
                *self = Binary::Failed("internal error: an NVRTC thread ended early".into())
            }
        }
        true
    }

    /// Waits for the compile, if it is still running.
    pub fn wait(&mut self) {
        if let Binary::Compiling(rx) = self {
            *self = match rx.recv() {
                Ok(r) => Binary::finished(r),
                Err(_) => Binary::Failed("internal error: an NVRTC thread ended early".into()),
            };
        }
    }

    fn finished(r: Compiled) -> Binary {
        match r {
            Ok((cubin, took)) => Binary::Ready {
                cubin,
                compiled: Some(took),
            },
            Err(e) => Binary::Failed(e),
        }
    }

    /// NVRTC's time for this kernel (`None`: from the cache, or not finished).
    pub fn compiled(&self) -> Option<Duration> {
        match self {
            Binary::Ready { compiled, .. } | Binary::Loaded { compiled } => *compiled,
            _ => None,
        }
    }
}

/// The message of a generated source that NVRTC rejects (an internal error of Blazar).
pub fn failure(kernel: &str, log: &str, source: &str) -> String {
    format!(
        "internal error: the CUDA C generated for kernel `{kernel}` does not compile \
         (please report)\n{log}\n--- generated source ---\n{source}"
    )
}

/// Where a kernel's own code starts in a generated source: before it, the prelude
/// that every kernel of a unit shares.
const KERNEL_MARKER: &str = "\n// ---- kernel ";

/// Most kernels in one NVRTC call.
const MAX_UNIT: usize = 64;

/// A kernel waiting for the compiler thread.
struct Request {
    source: String,
    /// Byte offset of the kernel's own code ([`KERNEL_MARKER`]; 0 if absent).
    split: usize,
    entry: String,
    kernel: String,
    key: String,
    options: Vec<String>,
    cache: DiskCache,
    tx: Sender<Compiled>,
}

impl Request {
    fn prelude(&self) -> &str {
        &self.source[..self.split]
    }

    /// Hands the result over (and to the disk cache). `with`: the other kernels of the
    /// unit, which share its time.
    fn finish(&self, r: Result<(Vec<u8>, Duration), String>, with: usize) {
        let r = r.map(|(bin, took)| {
            let target = match with {
                0 => "the GPU (NVRTC)".to_string(),
                n => format!("the GPU (NVRTC, one unit with {n} other kernels)"),
            };
            blazar_launch::note_compiled(&self.kernel, &target, took);
            self.cache.put(&self.key, &bin);
            (bin, took / (with as u32 + 1))
        });
        let _ = self.tx.send(r);
    }
}

/// Requests not taken yet, and whether the compiler thread runs.
static WAITING: Mutex<(Vec<Request>, bool)> = Mutex::new((Vec::new(), false));

/// Queues a compile, starting the compiler thread when none runs.
fn submit(r: Request) -> Result<(), String> {
    let mut w = WAITING.lock().unwrap_or_else(|e| e.into_inner());
    w.0.push(r);
    if w.1 {
        return Ok(());
    }
    std::thread::Builder::new()
        .name("blazar nvrtc".into())
        .spawn(compiler)
        .map_err(|e| format!("cannot start the compiler thread: {e}"))?;
    w.1 = true;
    Ok(())
}

/// The compiler thread: takes every waiting request that shares the first one's
/// prelude and options (one per entry name), compiles them as one unit, and ends when
/// nothing waits.
fn compiler() {
    loop {
        let unit: Vec<Request> = {
            let mut w = WAITING.lock().unwrap_or_else(|e| e.into_inner());
            if w.0.is_empty() {
                w.1 = false;
                return;
            }
            let mut taken: Vec<Request> = Vec::new();
            let mut i = 0;
            while i < w.0.len() && taken.len() < MAX_UNIT {
                let r = &w.0[i];
                let fits = taken.first().is_none_or(|f| {
                    f.prelude() == r.prelude()
                        && f.options == r.options
                        && taken.iter().all(|t| t.entry != r.entry)
                });
                if fits {
                    taken.push(w.0.remove(i));
                } else {
                    i += 1;
                }
            }
            taken
        };
        compile_unit(&unit);
    }
}

/// Compiles `unit` in one NVRTC call (kernel by kernel when that fails).
fn compile_unit(unit: &[Request]) {
    let one = |r: &Request| {
        let t = Instant::now();
        compile_cubin(&r.source, &format!("{}.cu", r.entry), &r.options)
            .map(|bin| (bin, t.elapsed()))
            .map_err(|f| failure(&r.kernel, &f.log, &r.source))
    };
    if let [r] = unit {
        r.finish(one(r), 0);
        return;
    }
    let mut source = unit[0].prelude().to_string();
    for r in unit {
        source.push_str(&r.source[r.split..]);
    }
    let t = Instant::now();
    match compile_cubin(&source, "bz_unit.cu", &unit[0].options) {
        Ok(bin) => {
            let took = t.elapsed();
            for r in unit {
                r.finish(Ok((bin.clone(), took)), unit.len() - 1);
            }
        }
        Err(_) => {
            for r in unit {
                r.finish(one(r), 0);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use blazar_codegen_c::cuda::Generated;

    fn kernel(name: &str, body: &str) -> Generated {
        Generated {
            source: format!("extern \"C\" __global__ void {name}(float* x) {{ {body} }}"),
            entry: name.into(),
            params: vec![],
            shared_bytes: Some(0),
            dynamic_shared: vec![],
            outputs: vec![],
            uses_pool: false,
            coarsen: 1,
            vector: 1,
            can_fail: false,
        }
    }

    #[test]
    fn compiles_run_in_the_background_and_a_failure_is_kept() {
        if !crate::compile::nvrtc_present() {
            println!("SKIP nvrtc: libnvrtc not found");
            return;
        }
        let dir = std::env::temp_dir().join(format!("blazar-binary-test-{}", std::process::id()));
        let cache = DiskCache::at(&dir).expect("a private cache");
        let nvrtc = crate::compile::nvrtc_version().expect("version");
        let good = kernel("k_good", "x[threadIdx.x] *= 2.0f;");
        // Asked for together: compiled in one unit or one after another, each gets a
        // cubin holding its entry, and the kernel that does not compile is named.
        let mut a = Binary::start(&good, "good", 90, nvrtc, &cache);
        let mut b = Binary::start(&kernel("k_bad", "not C++"), "bad", 90, nvrtc, &cache);
        let mut c = Binary::start(
            &kernel("k_other", "x[0] = 1.0f;"),
            "other",
            90,
            nvrtc,
            &cache,
        );
        for x in [&mut a, &mut b, &mut c] {
            x.wait();
            assert!(x.arrived());
        }
        let holds = |bin: &[u8], name: &[u8]| bin.windows(name.len()).any(|w| w == name);
        assert!(matches!(&a, Binary::Ready { cubin, compiled: Some(_) }
            if cubin.starts_with(b"\x7fELF") && holds(cubin, b"k_good")));
        assert!(matches!(&c, Binary::Ready { cubin, .. } if holds(cubin, b"k_other")));
        assert!(matches!(&b, Binary::Failed(m) if m.contains("kernel `bad`")));
        // The second start finds the cubin on disk.
        let c = Binary::start(&good, "good", 90, nvrtc, &cache);
        assert!(matches!(c, Binary::Ready { compiled: None, .. }));
        let _ = std::fs::remove_dir_all(dir);
    }
}
