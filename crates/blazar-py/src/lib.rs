//! `blazar._native`: the Python extension (PyO3, abi3). The Python package `blazar`
//! (python/blazar) re-exports it and adds `kernel` and `elementwise`.
//!
//! A [`Module`] is one loaded Quasar program with one interpreter (`blazar_interp::Module`)
//! behind a mutex: calls from several Python threads take turns, and each call runs with
//! the GIL released. Arguments are converted (`convert`) inside the lock, so that no
//! Blazar value is ever touched by two threads.

mod borrow;
mod convert;
mod device;
mod dlpack;
mod dlpack_in;
mod output;
mod sigint;

use blazar_interp::{BackendRef, CallError};
use blazar_runtime::builtins::Ctx;
use blazar_runtime::Prec;
use pyo3::exceptions::{PyAttributeError, PyException};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

#[global_allocator]
static ALLOC: borrow::LendingAlloc = borrow::LendingAlloc;

pyo3::create_exception!(
    _native,
    Error,
    PyException,
    "A Blazar error: `str(e)` is the located message with its source line; \
     `e.message`, `e.location` (`file:line:col` or None) and `e.stack` (the calls that \
     led there, innermost first) are its parts."
);

/// A `blazar.Error` without a location.
pub(crate) fn error_new(message: &str) -> PyErr {
    Error::new_err(message.to_string())
}

fn call_error(py: Python<'_>, e: CallError) -> PyErr {
    let err = Error::new_err(e.rendered.trim_end().to_string());
    let v = err.value(py);
    let _ = v.setattr("message", e.message);
    let _ = v.setattr("location", e.location);
    let _ = v.setattr("stack", e.stack);
    err
}

/// The interpreter of one module. Its values are reference-counted without atomics, so
/// it is only ever used under its mutex (see the crate documentation).
struct Engine {
    module: blazar_interp::Module,
    backend: BackendRef,
    prec: Prec,
    /// The GPU's memory, for arrays that come and go through DLPack.
    cuda: Option<blazar_cuda::External>,
}

// SAFETY: an `Engine` is only reached through `Mutex<Engine>`; no value of it is kept
// outside a locked section (arguments are made and results converted inside the lock).
unsafe impl Send for Engine {}

/// A loaded Quasar module; its functions are attributes (`m.denoise(img, sigma=10.0)`).
#[pyclass(module = "blazar._native", name = "Module", frozen)]
struct Module {
    engine: Mutex<Engine>,
    name: String,
    device: &'static str,
    functions: Vec<String>,
}

/// A function of a module, callable from Python.
#[pyclass(module = "blazar._native", name = "Function", frozen)]
struct Function {
    module: Py<Module>,
    name: String,
}

impl Module {
    fn call_named(
        &self,
        py: Python<'_>,
        name: &str,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyObject> {
        let args: Py<PyTuple> = args.clone().unbind();
        let kwargs: Option<Py<PyDict>> = kwargs.map(|k| k.clone().unbind());
        py.allow_threads(|| {
            let mut engine = self.engine.lock().map_err(|_| {
                error_new("this module failed in an earlier call from another thread")
            })?;
            let engine = &mut *engine;
            let mut lending = convert::Lending::new(engine.cuda.clone());
            // Arguments, under the GIL.
            let inputs = Python::with_gil(|py| -> PyResult<_> {
                let prec = engine.prec;
                let pos = args
                    .bind(py)
                    .iter()
                    .map(|a| convert::to_value(&a, prec, &mut lending))
                    .collect::<PyResult<Vec<_>>>()?;
                let mut named = Vec::new();
                if let Some(k) = &kwargs {
                    for (key, v) in k.bind(py).iter() {
                        named.push((
                            key.extract::<String>()?,
                            convert::to_value(&v, prec, &mut lending)?,
                        ));
                    }
                }
                Ok(Unsync((pos, named)))
            });
            let (pos, named) = match inputs {
                Ok(Unsync(x)) => x,
                Err(e) => {
                    Python::with_gil(|_| lending.finish());
                    return Err(e);
                }
            };
            // The call, without the GIL (Ctrl-C stops it: `sigint`).
            let ctrl_c = sigint::guard();
            let result = engine.module.call(name, pos, named);
            // Host writes to GPU arrays go home; then the caller's streams are ordered
            // after the call's device work, or, where they are not known, the call waits.
            // `Ok(true)`: ordered by events, without a wait.
            let synced = lending
                .settle_foreign()
                .and_then(|()| match lending.order_streams() {
                    Ok(true) => Ok(true),
                    Ok(false) => device::synchronize(&engine.backend).map(|()| false),
                    Err(m) => Err(m),
                });
            let copies = |l: &convert::Lending| l.cuda().map_or(0, |c| c.stats().export_copies);
            // Results, under the GIL.
            Python::with_gil(|py| {
                let stopped = ctrl_c.finish(py, || match &result {
                    Err(e) => e.rendered.trim_end().to_string(),
                    Ok(_) => "stopped by SIGINT (Ctrl-C)".into(),
                });
                let out = match (stopped, result, synced) {
                    (Some(e), _, _) => Err(e),
                    (None, Err(e), _) => Err(call_error(py, e)),
                    (None, Ok(_), Err(m)) => Err(error_new(&m)),
                    (None, Ok(vals), Ok(by_events)) => {
                        let before = copies(&lending);
                        results(py, vals, &lending).and_then(|r| {
                            // A result exported by a copy (an argument returned: the copy
                            // reads the caller's memory) was issued after the ordering
                            // above: the caller's streams are ordered after it too.
                            if copies(&lending) == before {
                                return Ok(r);
                            }
                            let again = if by_events {
                                lending.order_streams().map(|_| ())
                            } else {
                                device::synchronize(&engine.backend)
                            };
                            again.map(|()| r).map_err(|m| error_new(&m))
                        })
                    }
                };
                lending.finish();
                out
            })
        })
    }
}

/// Not `Send`, but moved only between sections that hold the engine's lock.
struct Unsync<T>(T);
unsafe impl<T> Send for Unsync<T> {}

fn results(
    py: Python<'_>,
    vals: Vec<blazar_runtime::Value>,
    lending: &convert::Lending,
) -> PyResult<PyObject> {
    let mut out = Vec::with_capacity(vals.len());
    for v in vals {
        out.push(convert::from_value(py, v, lending)?);
    }
    Ok(match out.len() {
        0 => py.None(),
        1 => out.pop().expect("one"),
        _ => PyTuple::new(py, out)?.into_any().unbind(),
    })
}

#[pymethods]
impl Module {
    /// Calls function `name` of the module.
    #[pyo3(signature = (name, *args, **kwargs))]
    fn call(
        &self,
        py: Python<'_>,
        name: &str,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyObject> {
        self.call_named(py, name, args, kwargs)
    }

    fn __getattr__(slf: &Bound<'_, Self>, name: &str) -> PyResult<Function> {
        let m = slf.get();
        if m.functions.iter().any(|f| f == name) {
            return Ok(Function {
                module: slf.clone().unbind(),
                name: name.to_string(),
            });
        }
        Err(PyAttributeError::new_err(format!(
            "module `{}` has no function `{name}` (it has: {})",
            m.name,
            m.functions.join(", ")
        )))
    }

    fn __dir__(&self) -> Vec<String> {
        let mut d = self.functions.clone();
        d.extend(
            [
                "call",
                "functions",
                "params",
                "device",
                "name",
                "memory_stats",
            ]
            .map(String::from),
        );
        d
    }

    /// The names of the module's functions.
    #[getter]
    fn functions(&self) -> Vec<String> {
        self.functions.clone()
    }

    /// The parameter names of function `name`.
    fn params(&self, py: Python<'_>, name: &str) -> PyResult<Vec<String>> {
        py.allow_threads(|| {
            let e = self
                .engine
                .lock()
                .map_err(|_| error_new("poisoned module"))?;
            e.module
                .params(name)
                .ok_or_else(|| PyAttributeError::new_err(format!("no function `{name}`")))
        })
    }

    /// Counts of the module's GPU memory pool: `allocs` (blocks allocated from the
    /// driver), `reuses` (allocations served by a kept block), `returned` (results that
    /// came home after their DLPack consumer let go), `export_copies` (results copied on
    /// the way out because their memory was shared), `cached_bytes`; `device` is "cpu"
    /// or "cuda" (a module on the CPU has no other entry).
    fn memory_stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let stats = py.allow_threads(|| {
            let e = self
                .engine
                .lock()
                .map_err(|_| error_new("poisoned module"))?;
            Ok::<_, PyErr>(e.cuda.as_ref().map(|c| c.stats()))
        })?;
        let d = PyDict::new(py);
        d.set_item("device", self.device)?;
        if let Some(s) = stats {
            d.set_item("allocs", s.allocs)?;
            d.set_item("reuses", s.reuses)?;
            d.set_item("returned", s.returned)?;
            d.set_item("export_copies", s.export_copies)?;
            d.set_item("cached_bytes", s.cached_bytes)?;
        }
        Ok(d)
    }

    /// Where kernels run: "cpu" or "cuda".
    #[getter]
    fn device(&self) -> &'static str {
        self.device
    }

    #[getter]
    fn name(&self) -> String {
        self.name.clone()
    }

    fn __repr__(&self) -> String {
        format!(
            "<blazar module {} on {} with {}>",
            self.name,
            self.device,
            self.functions.join(", ")
        )
    }
}

#[pymethods]
impl Function {
    #[pyo3(signature = (*args, **kwargs))]
    fn __call__(
        &self,
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyObject> {
        self.module.get().call_named(py, &self.name, args, kwargs)
    }

    #[getter]
    fn __name__(&self) -> String {
        self.name.clone()
    }

    fn __repr__(&self) -> String {
        format!("<blazar function {}.{}>", self.module.get().name, self.name)
    }
}

fn make(
    py: Python<'_>,
    name: String,
    text: String,
    dir: Option<PathBuf>,
    device: Option<&str>,
    double: bool,
    threads: usize,
) -> PyResult<Module> {
    let device = device::Choice::parse(device.unwrap_or("auto")).map_err(|m| error_new(&m))?;
    let made = py.allow_threads(|| {
        let loaded = blazar_interp::check(&name, &text, dir.clone());
        let (backend, device_name, cuda) = device::choose(device, threads, &name)?;
        let prec = if double { Prec::Double } else { Prec::Single };
        let base = dir.unwrap_or_else(|| PathBuf::from("."));
        let stem = Path::new(&name)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "module".into());
        let ctx = Ctx::new(prec, Box::new(output::PyStdout::default()), base, stem);
        let opts = blazar_interp::Options {
            backend: Some(backend.clone()),
            interrupt: Some(blazar_runtime::interrupt::flag()),
            ..Default::default()
        };
        let module = blazar_interp::Module::new(loaded, ctx, opts).map_err(Ok)?;
        let functions = module.function_names();
        Ok(Unsync((
            module,
            backend,
            prec,
            device_name,
            functions,
            cuda,
        )))
    });
    let Unsync((module, backend, prec, device, functions, cuda)) =
        made.map_err(|e: Result<CallError, String>| match e {
            Err(m) => error_new(&m),
            Ok(e) => call_error(py, e),
        })?;
    Ok(Module {
        engine: Mutex::new(Engine {
            module,
            backend,
            prec,
            cuda,
        }),
        name,
        device,
        functions,
    })
}

/// Loads and compiles the Quasar module in `path`.
#[pyfunction]
#[pyo3(signature = (path, device = None, double = false, threads = 0))]
fn load(
    py: Python<'_>,
    path: PathBuf,
    device: Option<&str>,
    double: bool,
    threads: usize,
) -> PyResult<Module> {
    let bytes = std::fs::read(&path)
        .map_err(|e| error_new(&format!("cannot read {}: {e}", path.display())))?;
    let text = String::from_utf8(bytes)
        .map_err(|_| error_new(&format!("{} is not UTF-8 text", path.display())))?;
    let name = path.display().to_string();
    let dir = path.parent().map(Path::to_path_buf);
    make(py, name, text, dir, device, double, threads)
}

/// Compiles a Quasar module from its text.
#[pyfunction]
#[pyo3(signature = (source, name = "<module>", device = None, double = false, threads = 0))]
fn module(
    py: Python<'_>,
    source: &str,
    name: &str,
    device: Option<&str>,
    double: bool,
    threads: usize,
) -> PyResult<Module> {
    let dir = std::env::current_dir().ok();
    make(
        py,
        name.to_string(),
        source.to_string(),
        dir,
        device,
        double,
        threads,
    )
}

/// The free variables of expression `expr`, in order of first appearance.
#[pyfunction]
fn free_names(expr: &str) -> PyResult<Vec<String>> {
    let text = format!("blazar_expr_ = {expr}\n");
    let loaded = blazar_interp::check("<elementwise>", &text, None);
    let mut names: Vec<(u32, String)> = Vec::new();
    let mut other = Vec::new();
    for d in loaded.diagnostics.iter().filter(|d| d.is_error()) {
        match (
            d.message.strip_prefix("undefined variable or function `"),
            d.span,
        ) {
            (Some(rest), Some(span)) => {
                let n = rest.trim_end_matches('`').to_string();
                if !names.iter().any(|(_, m)| *m == n) {
                    names.push((span.lo, n));
                }
            }
            _ => other.push(d.clone()),
        }
    }
    if !other.is_empty() {
        return Err(error_new(
            blazar_diagnostics::render_all(&other, &loaded.sources).trim_end(),
        ));
    }
    names.sort();
    Ok(names.into_iter().map(|(_, n)| n).collect())
}

/// The parameters of a `__kernel__` lambda that a launch passes (all but `pos`,
/// `blkpos`, `blkdim`, `blkidx` and `blkcnt`).
#[pyfunction]
fn kernel_params(source: &str) -> PyResult<Vec<String>> {
    let text = format!("blazar_kernel_ = {source}\n");
    let loaded = blazar_interp::check("<kernel>", &text, None);
    if loaded.has_errors() {
        let errors: Vec<_> = loaded
            .diagnostics
            .iter()
            .filter(|d| d.is_error())
            .cloned()
            .collect();
        return Err(error_new(
            blazar_diagnostics::render_all(&errors, &loaded.sources).trim_end(),
        ));
    }
    let k = loaded
        .program
        .functions
        .iter()
        .find(|f| f.kind == blazar_hir::FnKind::Kernel)
        .ok_or_else(|| error_new("this text is not a `__kernel__` function"))?;
    Ok(k.params
        .iter()
        .map(|p| p.name.clone())
        .filter(|n| {
            !matches!(
                n.as_str(),
                "pos" | "blkpos" | "blkdim" | "blkidx" | "blkcnt"
            )
        })
        .collect())
}

/// Whether a CUDA device is usable from this process.
#[pyfunction]
fn cuda_available(py: Python<'_>) -> bool {
    py.allow_threads(device::cuda_available)
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // An array lent from NumPy is a `Vec` over NumPy's memory: the host buffer pool must
    // never keep it for reuse (a later result would be written into the caller's array),
    // so the extension runs without the pool.
    blazar_value::pool::set_cap(0);
    m.add("Error", m.py().get_type::<Error>())?;
    m.add_class::<Module>()?;
    m.add_class::<Function>()?;
    m.add_class::<dlpack::DLArray>()?;
    m.add_function(wrap_pyfunction!(load, m)?)?;
    m.add_function(wrap_pyfunction!(module, m)?)?;
    m.add_function(wrap_pyfunction!(free_names, m)?)?;
    m.add_function(wrap_pyfunction!(kernel_params, m)?)?;
    m.add_function(wrap_pyfunction!(cuda_available, m)?)?;
    Ok(())
}
