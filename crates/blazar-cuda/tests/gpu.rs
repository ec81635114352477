//! The CUDA backend on a real GPU, in process: results, residency across launches and
//! host reads, and a failing assertion that leaves the device usable for the next
//! launch. Without a GPU it prints one visible SKIP line and runs nothing.
//!
//! The GPU machine has no Rust: build with `cargo test -p blazar-cuda --release
//! --no-run`, carry the test executable there and run it (see `scripts/gpu-check.sh`).

use blazar_cuda::{CudaBackend, EventTimer};
use blazar_interp::{check, run, BackendRef, Options};
use blazar_launch::Chain;
use blazar_native::CpuBackend;
use blazar_runtime::builtins::Ctx;
use std::cell::RefCell;
use std::io::Write;
use std::rc::Rc;

#[derive(Clone, Default)]
struct Sink(Rc<RefCell<Vec<u8>>>);

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn main() {
    let b = match CudaBackend::new("gpu.q") {
        Ok(b) => with_cpu(b),
        Err(e) => {
            println!("SKIP gpu tests: {e}");
            return;
        }
    };
    let tests: [(&str, fn(&BackendRef)); 5] = [
        (
            "whole_array_operations_run_on_the_device",
            whole_array_operations_run_on_the_device,
        ),
        (
            "kernels_run_and_data_moves_only_when_needed",
            kernels_run_and_data_moves_only_when_needed,
        ),
        (
            "a_failing_assert_is_reported_and_the_next_launch_works",
            a_failing_assert_is_reported_and_the_next_launch_works,
        ),
        (
            "kernel_outputs_come_back_as_values",
            kernel_outputs_come_back_as_values,
        ),
        (
            "toc_measures_device_work_not_the_host_after_its_last_wait",
            toc_measures_device_work_not_the_host_after_its_last_wait,
        ),
    ];
    for (name, t) in tests {
        t(&b);
        println!("test {name} ... ok");
    }
    println!("gpu tests: {} passed", tests.len());
}

/// The CUDA backend, with the CPU for the launches it leaves (`serial_do`).
fn with_cpu(cuda: CudaBackend) -> BackendRef {
    BackendRef::new(Chain {
        first: cuda,
        then: CpuBackend::default(),
    })
}

/// Runs `src` on the CPU executor.
fn run_on_cpu(src: &str) -> String {
    run_with(None, src).expect("runs on the CPU")
}

/// Runs `src` on `backend`; the program's output, or its error message.
fn run_on(backend: &BackendRef, src: &str) -> Result<String, String> {
    run_with(Some(backend), src)
}

fn run_with(backend: Option<&BackendRef>, src: &str) -> Result<String, String> {
    run_timed(backend, None, src)
}

/// As `run_with`, with a device timer for `tic`/`toc`.
fn run_timed(
    backend: Option<&BackendRef>,
    timer: Option<EventTimer>,
    src: &str,
) -> Result<String, String> {
    let loaded = check("gpu.q", src, None);
    assert!(!loaded.has_errors(), "{:?}", loaded.diagnostics);
    let sink = Sink::default();
    let mut ctx = Ctx::new(
        blazar_runtime::Prec::Single,
        Box::new(sink.clone()),
        std::env::temp_dir(),
        "gpu".into(),
    );
    if let Some(t) = timer {
        ctx.device_timer = Some(Box::new(t));
    }
    let cpu = BackendRef::new(CpuBackend::default());
    let opts = Options {
        backend: Some(backend.unwrap_or(&cpu).clone()),
        ..Options::default()
    };
    let result = run(&loaded, ctx, opts);
    let out = String::from_utf8_lossy(&sink.0.borrow()).into_owned();
    result.map(|()| out).map_err(|d| d.message)
}

const DOUBLE: &str = "
function [] = __kernel__ twice(x : vec, pos : int)
    x[pos] = 2 * x[pos] + 1
endfunction
x = linspace(0, 9, 10)
parallel_do(size(x), x, twice)
parallel_do(size(x), x, twice)
print x
x[0] = 100
parallel_do(size(x), x, twice)
print x[0..2]
";

fn kernels_run_and_data_moves_only_when_needed(b: &BackendRef) {
    let out = run_on(b, DOUBLE).expect("runs");
    assert_eq!(out, "[3,7,11,15,19,23,27,31,35,39]\n[201,15,23]\n");
}

fn a_failing_assert_is_reported_and_the_next_launch_works(b: &BackendRef) {
    let failing = "
function [] = __kernel__ check(x : vec, pos : int)
    assert(x[pos] < 5)
endfunction
x = linspace(0, 9, 10)
parallel_do(size(x), x, check)
";
    let err = run_on(b, failing).expect_err("the assertion fails");
    assert!(
        err.contains("(parallel_do) check - assertion failed: line 3"),
        "{err}"
    );
    assert_eq!(
        run_on(b, DOUBLE).expect("the device is still usable"),
        "[3,7,11,15,19,23,27,31,35,39]\n[201,15,23]\n"
    );
}

fn kernel_outputs_come_back_as_values(b: &BackendRef) {
    let src = "
function total = __kernel__ sum_all(x : vec, pos : int)
    total += x[pos]
endfunction
x = ones(1000000)
print parallel_do(size(x), x, sum_all)
";
    assert_eq!(run_on(b, src).expect("runs"), "1000000\n");
}

fn device_ops(b: &BackendRef) -> usize {
    let line = b.0.borrow().stats().unwrap_or_default();
    line.split_whitespace()
        .find_map(|w| w.strip_prefix("device_ops="))
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

fn whole_array_operations_run_on_the_device(b: &BackendRef) {
    let src = "
function [] = __kernel__ fill(A : mat, B : mat, pos : ivec2)
    A[pos] = pos[0] + 2 * pos[1]
    B[pos] = pos[0] - pos[1]
endfunction
A = zeros(64, 64)
B = zeros(64, 64)
parallel_do(size(A), A, B, fill)
C = A * B
D = A + 1
E = 2 .* B - A
print [sum(C), max(D), min(E), mean(A), C[3, 5], D[63, 63], E[10, 0]]
";
    let before = device_ops(b);
    let out = run_on(b, src).expect("runs");
    // The same program on the CPU executor is the oracle (all values are exact).
    assert_eq!(out, run_on_cpu(src), "{out}");
    assert!(
        device_ops(b) - before >= 8,
        "device ops: {}",
        device_ops(b) - before
    );
}

/// `toc` ends at the end of the device work issued before it: after a read-back with
/// nothing issued since, the host's time after that wait is not device time; with no
/// device work at all, the whole interval is (events recorded at `tic` and `toc`).
fn toc_measures_device_work_not_the_host_after_its_last_wait(_: &BackendRef) {
    let cuda = CudaBackend::new("gpu.q").expect("a second backend on the same GPU");
    let timer = EventTimer::new(&cuda);
    let b = with_cpu(cuda);
    let src = "
function total = __kernel__ sum_all(x : vec, pos : int)
    total += x[pos]
endfunction
function [] = host_work()
    t = 0
    for k = 1..300000
        t = t + k
    endfor
endfunction
x = ones(1000000)
s = parallel_do(size(x), x, sum_all)
tic()
s = parallel_do(size(x), x, sum_all)
host_work()
after_wait = toc()
tic()
host_work()
host_only = toc()
tic()
s = parallel_do(size(x), x, sum_all)
x[0] = 2
s = parallel_do(size(x), x, sum_all)
two = toc()
print [s, after_wait < host_only / 10, two > 0]
";
    let out = run_timed(Some(&b), Some(timer), src).expect("runs");
    let last = out.lines().last().unwrap_or_default();
    assert_eq!(last, "[1000001,1,1]", "{out}");
}
