//! Helpers shared by the builtins' unit tests: contexts, output capture, calls by name.

use crate::array::{Array, ElemType};
use crate::builtins::{get, lookup, Ctx};
use crate::value::{Prec, Value};
use crate::RtResult;
use std::cell::RefCell;
use std::rc::Rc;

/// An output sink the test can read back.
#[derive(Clone, Default)]
pub struct Sink(pub Rc<RefCell<Vec<u8>>>);

impl std::io::Write for Sink {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A context writing to nowhere, with the temp directory as the program's folder.
pub fn ctx(prec: Prec) -> Ctx {
    Ctx::new(
        prec,
        Box::new(std::io::sink()),
        std::env::temp_dir(),
        "t".into(),
    )
}

/// A context whose output the test reads back through the returned sink.
pub fn ctx_capture(prec: Prec) -> (Ctx, Sink) {
    let sink = Sink::default();
    (
        Ctx::new(
            prec,
            Box::new(sink.clone()),
            std::env::temp_dir(),
            "t".into(),
        ),
        sink,
    )
}

/// Calls builtin `name` in a fresh single-precision context.
pub fn call(name: &str, args: &[Value]) -> RtResult<Value> {
    let mut ctx = ctx(Prec::Single);
    let id = lookup(name).unwrap_or_else(|| panic!("no builtin {name}"));
    get(id).call(&mut ctx, args)
}

/// The array inside a value (a copy).
pub fn array(v: &Value) -> Array {
    match v {
        Value::Array(a) => a.borrow().clone(),
        other => panic!("not an array: {other:?}"),
    }
}

/// Dims, values as reals, and element type of an array value.
pub fn parts(v: &Value) -> (Vec<usize>, Vec<f64>, ElemType) {
    let a = array(v);
    (a.dims.clone(), a.to_f64_vec(), a.elem())
}
