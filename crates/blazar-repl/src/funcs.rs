//! Function values that outlive the input that made them.
//!
//! A function value (`f = x -> 2*x`, `g = myfunction`) names its function by index into
//! the function table of the program that created it, and every input is a new program
//! with its own table. So the workspace keeps function values under *session* indices:
//! each names a function by the span of its definition in the session's sources, which
//! stays the same from input to input. Before a run the session indices become the new
//! program's indices, after the run they become session indices again.
//!
//! Definitions (`function`, `type`) are part of every later program, so their functions
//! and the lambdas inside them are found by span. A lambda written in an earlier input's
//! top-level code is not: its text (the outermost lambda that contains it) is added to
//! the never-run workspace preamble, and spans in that preamble translate back to the
//! original ones. A function that no longer exists (its definition was replaced) gets
//! an index past the table, which the interpreter reports as an error when called.

use blazar_diagnostics::{FileId, SourceMap, Span};
use blazar_hir::Program;
use blazar_runtime::value::{Closure, FuncRef};
use blazar_runtime::Value;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

/// The index given to a function value whose function the program lacks.
pub(crate) const MISSING: u32 = u32::MAX;

type Key = (FileId, u32, u32);

fn key(s: Span) -> Key {
    (s.file, s.lo, s.hi)
}

#[derive(Default)]
pub(crate) struct FuncTable {
    /// Session index → the span of the function's definition.
    keys: Vec<Span>,
    index: HashMap<Key, u32>,
    /// Outermost top-level lambdas whose functions the workspace may hold, by span.
    lambdas: HashMap<Key, (Span, String)>,
}

/// Where the lambdas of the preamble of one program came from.
#[derive(Default)]
pub(crate) struct Placed {
    file: Option<FileId>,
    /// (offset in the preamble, original span), one per lambda.
    at: Vec<(u32, Span)>,
}

impl Placed {
    /// The original span of a span of the program.
    fn original(&self, s: Span) -> Span {
        if Some(s.file) != self.file {
            return s;
        }
        for &(off, orig) in &self.at {
            let len = orig.hi - orig.lo;
            if s.lo >= off && s.hi <= off + len {
                return Span {
                    file: orig.file,
                    lo: orig.lo + (s.lo - off),
                    hi: orig.lo + (s.hi - off),
                };
            }
        }
        s
    }
}

impl FuncTable {
    /// The preamble lines (`__repl_lambda = <text>`) that define the lambdas the
    /// workspace `values` refer to; `base` is the preamble's length so far. Call
    /// [`FuncTable::placed`] with the preamble's file afterwards.
    pub(crate) fn preamble<'v>(
        &self,
        values: impl Iterator<Item = &'v Value>,
        base: usize,
    ) -> (String, Vec<(u32, Span)>) {
        let mut used = HashSet::new();
        let mut seen = HashSet::new();
        for v in values {
            self.used(v, &mut used, &mut seen);
        }
        let mut outer: Vec<&(Span, String)> = self
            .lambdas
            .values()
            .filter(|(s, _)| {
                used.iter().any(|&k| {
                    let u = self.keys[k as usize];
                    u.file == s.file && u.lo >= s.lo && u.hi <= s.hi
                })
            })
            .collect();
        outer.sort_by_key(|(s, _)| (s.file.0, s.lo, s.hi));
        let mut text = String::new();
        let mut at = Vec::new();
        for (span, src) in outer {
            text.push_str("__repl_lambda = ");
            at.push(((base + text.len()) as u32, *span));
            text.push_str(src);
            text.push('\n');
        }
        (text, at)
    }

    fn used(&self, v: &Value, used: &mut HashSet<u32>, seen: &mut HashSet<usize>) {
        walk(v, seen, &mut |c| {
            if let FuncRef::User(k) = c.func {
                if (k as usize) < self.keys.len() {
                    used.insert(k);
                }
            }
        });
    }

    /// Session indices → the indices of `prog` (whose preamble is `placed`).
    pub(crate) fn import(&self, prog: &Program, placed: &Placed, v: &mut Value, seen: &mut Seen) {
        let mut map: HashMap<u32, u32> = HashMap::new();
        for (i, f) in prog.functions.iter().enumerate() {
            if let Some(&k) = self.index.get(&key(placed.original(f.span))) {
                map.entry(k).or_insert(i as u32);
            }
        }
        rewrite(v, &mut seen.0, &mut |k| *map.get(&k).unwrap_or(&MISSING));
    }

    /// The indices of `prog` (whose preamble is `placed`) → session indices; lambdas
    /// written in top-level code are remembered (their outermost lambda's text).
    pub(crate) fn export(
        &mut self,
        prog: &Program,
        placed: &Placed,
        sources: &SourceMap,
        defs: &[Span],
        v: &mut Value,
        seen: &mut Seen,
    ) {
        let lambdas: Vec<Span> = prog
            .functions
            .iter()
            .filter(|f| f.name == "<lambda>")
            .map(|f| placed.original(f.span))
            .collect();
        rewrite(v, &mut seen.0, &mut |id| {
            let Some(f) = prog.functions.get(id as usize) else {
                return MISSING;
            };
            let orig = placed.original(f.span);
            let inside = |outer: &Span| {
                outer.file == orig.file && outer.lo <= orig.lo && orig.hi <= outer.hi
            };
            if f.name == "<lambda>" && !defs.iter().any(inside) {
                if let Some(outer) = lambdas
                    .iter()
                    .filter(|s| inside(s))
                    .max_by_key(|s| s.hi - s.lo)
                {
                    let text = &sources.get(outer.file).text;
                    if let Some(src) = text.get(outer.lo as usize..outer.hi as usize) {
                        self.lambdas
                            .entry(key(*outer))
                            .or_insert_with(|| (*outer, src.to_string()));
                    }
                }
            }
            *self.index.entry(key(orig)).or_insert_with(|| {
                self.keys.push(orig);
                (self.keys.len() - 1) as u32
            })
        });
    }
}

impl Placed {
    pub(crate) fn new(file: Option<FileId>, at: Vec<(u32, Span)>) -> Placed {
        Placed { file, at }
    }
}

/// Containers already rewritten in one pass over the workspace (shared ones are
/// rewritten once).
#[derive(Default)]
pub(crate) struct Seen(HashSet<usize>);

/// Calls `f` on every closure inside `v`.
fn walk(v: &Value, seen: &mut HashSet<usize>, f: &mut dyn FnMut(&Closure)) {
    match v {
        Value::Func(c) => {
            f(c);
            for c in &c.captures {
                walk(c, seen, f);
            }
        }
        Value::Object(o) => {
            if seen.insert(Rc::as_ptr(o) as *const () as usize) {
                if let Ok(o) = o.try_borrow() {
                    for (_, v) in &o.fields {
                        walk(v, seen, f);
                    }
                }
            }
        }
        Value::Array(a) => {
            if a.meta().is_ok_and(|m| m.is_cell())
                && seen.insert(Rc::as_ptr(&a.data) as *const () as usize)
            {
                if let Ok(arr) = a.try_borrow() {
                    if let blazar_runtime::array::Buffer::Cell(items) = &arr.buf {
                        for v in items {
                            walk(v, seen, f);
                        }
                    }
                }
            }
        }
        _ => {}
    }
}

/// Replaces the index of every user function value inside `v` by `map(index)`.
fn rewrite(v: &mut Value, seen: &mut HashSet<usize>, map: &mut dyn FnMut(u32) -> u32) {
    match v {
        Value::Func(c) => {
            let mut captures = c.captures.clone();
            for c in &mut captures {
                rewrite(c, seen, map);
            }
            let func = match c.func {
                FuncRef::User(id) if id != MISSING => FuncRef::User(map(id)),
                other => other,
            };
            *c = Rc::new(Closure { func, captures });
        }
        Value::Object(o) => {
            if seen.insert(Rc::as_ptr(o) as *const () as usize) {
                if let Ok(mut o) = o.try_borrow_mut() {
                    for (_, v) in &mut o.fields {
                        rewrite(v, seen, map);
                    }
                }
            }
        }
        Value::Array(a) => {
            if a.meta().is_ok_and(|m| m.is_cell())
                && seen.insert(Rc::as_ptr(&a.data) as *const () as usize)
            {
                if let Ok(mut arr) = a.try_borrow_mut() {
                    if let blazar_runtime::array::Buffer::Cell(items) = &mut arr.buf {
                        for v in items {
                            rewrite(v, seen, map);
                        }
                    }
                }
            }
        }
        _ => {}
    }
}
