//! What the interpreter's integration tests share: a writer whose bytes can be read
//! after a run, and a program's output at a fusion threshold.
#![allow(dead_code)]

use blazar_interp::{check, run, BackendRef, Options};
use blazar_native::CpuBackend;
use blazar_runtime::builtins::Ctx;
use std::cell::RefCell;
use std::io::Write;
use std::rc::Rc;

/// A writer whose bytes can be read after the run.
#[derive(Clone, Default)]
pub struct Sink(pub Rc<RefCell<Vec<u8>>>);

impl Write for Sink {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A run's context printing into `sink`, `scalar` 64-bit when `double`.
pub fn ctx(sink: &Sink, double: bool) -> Ctx {
    let prec = if double {
        blazar_runtime::Prec::Double
    } else {
        blazar_runtime::Prec::Single
    };
    Ctx::new(
        prec,
        Box::new(sink.clone()),
        std::env::temp_dir(),
        "p".into(),
    )
}

/// The output of program `src` (its error message appended as `ERROR: ...`) on the CPU
/// backend, with whole-array expressions and loops as kernels from `fuse_min` elements
/// or iterations (`usize::MAX`: none), `scalar` 64-bit when `double`.
pub fn output(src: &str, fuse_min: usize, double: bool) -> String {
    let loaded = check("prop.q", src, None);
    assert!(!loaded.has_errors(), "{src}\n{:?}", loaded.diagnostics);
    let sink = Sink::default();
    let ctx = ctx(&sink, double);
    let opts = Options {
        backend: Some(BackendRef::new(CpuBackend::default())),
        fuse_min: Some(fuse_min),
        ..Options::default()
    };
    let r = run(&loaded, ctx, opts);
    let mut out = String::from_utf8_lossy(&sink.0.borrow()).into_owned();
    if let Err(d) = r {
        out.push_str(&format!("ERROR: {}", d.message));
    }
    out
}

/// The `--profile` row of host function `name` in `tables`: (interpreted calls,
/// compiled calls).
pub fn calls(tables: &str, name: &str) -> (u64, u64) {
    let row = tables
        .lines()
        .find(|l| l.split_whitespace().nth(1) == Some(name))
        .unwrap_or_else(|| panic!("no row for {name}:\n{tables}"));
    let cols: Vec<&str> = row.split_whitespace().collect();
    (
        cols[2].parse().unwrap_or(u64::MAX),
        cols[4].parse().unwrap_or(u64::MAX),
    )
}
