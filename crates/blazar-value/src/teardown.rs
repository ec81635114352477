//! Iterative destruction of deep value graphs: a linked list of a million objects
//! (`n.next = m`), or cells nested a million deep, is freed without recursion.
//!
//! Rust drops nested values recursively, one stack frame (or several) per level, so a
//! long chain of containers overflows the stack when its head goes away. The `Drop`
//! implementations of [`Object`], [`Store`] (an array's elements, cells included) and
//! [`Closure`] therefore move the values they hold onto a worklist instead, and
//! [`drain`] empties every container it owns alone (a strong count of 1) before dropping
//! it, so each drop it triggers finds nothing left to recurse into. A container shared
//! with someone else keeps its contents; only the reference goes.

use crate::array::Buffer;
use crate::store::Store;
use crate::value::{Closure, Object, Value};
use std::rc::Rc;

/// Whether dropping `v` may reach further containers (what the worklist is for).
fn is_container(v: &Value) -> bool {
    matches!(v, Value::Array(_) | Value::Object(_) | Value::Func(_))
}

/// Drops `stack` and everything only it keeps alive, depth first, on a worklist.
pub(crate) fn drain(mut stack: Vec<Value>) {
    while let Some(mut v) = stack.pop() {
        match &mut v {
            Value::Object(o) if Rc::strong_count(o) == 1 => {
                if let Ok(mut obj) = o.try_borrow_mut() {
                    let fields = std::mem::take(&mut obj.fields);
                    stack.extend(fields.into_iter().map(|(_, f)| f));
                }
            }
            Value::Array(a) if Rc::strong_count(&a.data) == 1 => {
                if let Some(cells) = take_cells(&a.data) {
                    stack.extend(cells);
                }
            }
            Value::Func(c) => {
                if let Some(c) = Rc::get_mut(c) {
                    stack.append(&mut c.captures);
                }
            }
            _ => {}
        }
        // `v` holds nothing now if it was the last owner: its drop does not recurse.
        drop(v);
    }
}

/// The elements of a cell array's host copy, taken out (the store keeps an empty cell
/// buffer), if the store holds cells with containers among them.
fn take_cells(store: &Store) -> Option<Vec<Value>> {
    let mut host = store.host_cell().try_borrow_mut().ok()?;
    match &mut host.buf {
        Buffer::Cell(cells) if cells.iter().any(is_container) => {
            let taken = std::mem::take(cells);
            host.dims.iter_mut().for_each(|d| *d = 0);
            Some(taken)
        }
        _ => None,
    }
}

impl Drop for Object {
    fn drop(&mut self) {
        if self.fields.iter().any(|(_, v)| is_container(v)) {
            let fields = std::mem::take(&mut self.fields);
            drain(fields.into_iter().map(|(_, v)| v).collect());
        }
    }
}

impl Drop for Store {
    fn drop(&mut self) {
        match &mut self.host_mut().buf {
            Buffer::Cell(cells) => {
                if cells.iter().any(is_container) {
                    drain(std::mem::take(cells));
                }
            }
            // Numeric elements go back to the host pool for the next result.
            buf => crate::pool::give(std::mem::replace(buf, Buffer::F32(Vec::new()))),
        }
    }
}

impl Drop for Closure {
    fn drop(&mut self) {
        if self.captures.iter().any(is_container) {
            drain(std::mem::take(&mut self.captures));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aref::ArrayRef;
    use crate::array::Array;
    use crate::value::FuncRef;
    use std::cell::RefCell;

    const DEPTH: usize = 1_000_000;

    /// Runs `f` on a thread with a small stack, where recursive drops would overflow.
    fn on_small_stack(f: impl FnOnce() + Send + 'static) {
        std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(f)
            .unwrap()
            .join()
            .unwrap();
    }

    #[test]
    fn a_long_object_list_drops_iteratively() {
        on_small_stack(|| {
            let mut head = Value::Real(0.0);
            for i in 0..DEPTH {
                let mut o = Object::default();
                o.set("value", Value::int(i as i64));
                o.set("next", head);
                head = Value::Object(Rc::new(RefCell::new(o)));
            }
            drop(head);
        });
    }

    #[test]
    fn deeply_nested_cells_drop_iteratively() {
        on_small_stack(|| {
            let mut v = Value::int(1);
            for _ in 0..DEPTH {
                v = Value::array(Array::new(vec![1], Buffer::Cell(vec![v])));
            }
            drop(v);
        });
    }

    #[test]
    fn nested_closures_drop_iteratively() {
        on_small_stack(|| {
            let mut v = Value::int(1);
            for _ in 0..DEPTH {
                v = Value::Func(Rc::new(Closure {
                    func: FuncRef::User(0),
                    captures: vec![v],
                }));
            }
            drop(v);
        });
    }

    #[test]
    fn shared_contents_survive() {
        let inner = Value::array(Array::new(vec![1], Buffer::Cell(vec![Value::int(7)])));
        let Value::Array(kept) = inner.clone() else {
            unreachable!()
        };
        let mut o = Object::default();
        o.set("a", inner);
        drop(Value::Object(Rc::new(RefCell::new(o))));
        let host = kept.borrow();
        assert!(matches!(&host.buf, Buffer::Cell(c) if matches!(c[0], Value::Int(7, _))));
        let _ = ArrayRef::clone(&kept);
    }
}
