//! The host statement hook: lets a debugger stop before each statement of host code.
//!
//! An embedding program sets [`Options::host_hook`](crate::Options); the interpreter
//! then calls [`HostHook::stmt`] before every host statement it runs (kernel code is
//! observed through the SIMT interpreter instead). Without a hook the cost is one test
//! of an `Option` per statement. With one, every call records its caller's frame
//! (`CallRec`: the function, the call and a copy of its locals, which shares the
//! values), so a stop can show the call stack and any frame's variables.

use crate::interp::{Frame, Interp};
use blazar_diagnostics::Span;
use blazar_runtime::Value;
use std::cell::RefCell;
use std::fmt;
use std::rc::Rc;

/// Called before each host statement.
pub trait HostHook {
    fn stmt(&mut self, at: &HostStop);
    /// A `parallel_do` at `at` is about to launch its kernel (its arguments are
    /// evaluated): what the host's call stack is while the kernel runs.
    fn launching(&mut self, _at: &HostStop) {}
}

/// A call under way, recorded while a hook is set: the caller's function, where it
/// calls, and a copy of its locals (values are shared, so the copy is cheap and sees
/// what the caller sees).
pub(crate) struct CallRec {
    pub func: blazar_hir::FnId,
    pub at: Span,
    pub locals: Vec<Option<Value>>,
}

/// One frame of the host's call stack.
#[derive(Clone, Debug, PartialEq)]
pub struct HostFrame {
    /// The function (`script` for the top level).
    pub function: String,
    pub file: String,
    /// Index of the file in the program's source map (0: the program's own file).
    pub file_id: usize,
    /// 1-based line of the statement running (frame 0) or of the call (callers).
    pub line: u32,
}

/// A shared hook, as [`crate::Options`] holds it.
#[derive(Clone)]
pub struct HostHookRef(pub Rc<RefCell<dyn HostHook>>);

impl fmt::Debug for HostHookRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("HostHookRef")
    }
}

/// Where the host is about to run a statement, and what it can read there.
pub struct HostStop<'a, 'p> {
    pub(crate) interp: &'a Interp<'p>,
    pub(crate) frame: &'a Frame,
    pub span: Span,
}

impl HostStop<'_, '_> {
    /// 1-based line of the statement in its file.
    pub fn line(&self) -> u32 {
        self.interp.sources.line_of(self.span) as u32
    }

    /// The name of the statement's file.
    pub fn file(&self) -> &str {
        &self.interp.sources.get(self.span.file).name
    }

    /// Index of the statement's file in the program's source map (0: its own file).
    pub fn file_id(&self) -> usize {
        self.span.file.0 as usize
    }

    /// The function running the statement (the program's top level is `script`).
    pub fn function(&self) -> &str {
        self.name_of(self.frame.func)
    }

    fn name_of(&self, func: blazar_hir::FnId) -> &str {
        if func == self.interp.prog.script {
            "script"
        } else {
            &self.interp.prog.functions[func as usize].name
        }
    }

    /// User function calls under way (0 at the top level).
    pub fn depth(&self) -> usize {
        self.interp.depth
    }

    /// The call stack, innermost first: frame 0 is this statement's function, frame
    /// `n` the caller of frame `n - 1`, at its call.
    pub fn frames(&self) -> Vec<HostFrame> {
        let here = (self.frame.func, self.span);
        let callers = self.interp.calls.iter().rev().map(|c| (c.func, c.at));
        std::iter::once(here)
            .chain(callers)
            .map(|(func, at)| HostFrame {
                function: self.name_of(func).to_string(),
                file: self.interp.sources.get(at.file).name.clone(),
                file_id: at.file.0 as usize,
                line: self.interp.sources.line_of(at) as u32,
            })
            .collect()
    }

    /// Frame `n`'s function and locals.
    fn frame_at(&self, n: usize) -> Option<(blazar_hir::FnId, &[Option<Value>])> {
        if n == 0 {
            return Some((self.frame.func, &self.frame.locals));
        }
        let calls = &self.interp.calls;
        let c = calls.get(calls.len().checked_sub(n)?)?;
        Some((c.func, &c.locals))
    }

    /// The value of variable `name` here: a local of the function, else a global.
    pub fn value(&self, name: &str) -> Option<Value> {
        self.value_in(0, name)
    }

    /// The value of `name` in frame `n`: a local of its function, else a global.
    pub fn value_in(&self, n: usize, name: &str) -> Option<Value> {
        let (func, locals) = self.frame_at(n)?;
        let f = &self.interp.prog.functions[func as usize];
        let local = (f.local_names.iter().position(|n| n == name))
            .and_then(|i| locals.get(i).cloned().flatten());
        local.or_else(|| {
            let g = self
                .interp
                .prog
                .global_names
                .iter()
                .position(|n| n == name)?;
            self.interp.globals.get(g).cloned().flatten()
        })
    }

    /// Every variable with a value here (name, as `print` shows it).
    pub fn variables(&self) -> Vec<(String, String)> {
        self.variables_in(0)
    }

    /// Every variable with a value in frame `n` (none past the outermost frame).
    pub fn variables_in(&self, n: usize) -> Vec<(String, String)> {
        let Some((func, _)) = self.frame_at(n) else {
            return Vec::new();
        };
        let f = &self.interp.prog.functions[func as usize];
        let mut names: Vec<&String> = f.local_names.iter().collect();
        if func == self.interp.prog.script {
            names.extend(&self.interp.prog.global_names);
        }
        let mut out: Vec<(String, String)> = Vec::new();
        for name in names {
            if name.starts_with('$') || out.iter().any(|(m, _)| m == name) {
                continue;
            }
            if let Some(v) = self.value_in(n, name) {
                if matches!(v, Value::Func(_)) {
                    continue;
                }
                let text = blazar_runtime::format::format_value(&v, self.interp.prec);
                out.push((name.clone(), text));
            }
        }
        out
    }
}
