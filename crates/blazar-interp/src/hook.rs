//! The host statement hook: lets a debugger stop before each statement of host code.
//!
//! An embedding program sets [`Options::host_hook`](crate::Options); the interpreter
//! then calls [`HostHook::stmt`] before every host statement it runs (kernel code is
//! observed through the SIMT interpreter instead). Without a hook the cost is one test
//! of an `Option` per statement.

use crate::interp::{Frame, Interp};
use blazar_diagnostics::Span;
use blazar_runtime::Value;
use std::cell::RefCell;
use std::fmt;
use std::rc::Rc;

/// Called before each host statement.
pub trait HostHook {
    fn stmt(&mut self, at: &HostStop);
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

    /// Whether the statement is in the program's own file (not an import).
    pub fn in_main_file(&self) -> bool {
        self.span.file.0 == 0
    }

    /// The function running the statement (the program's top level is `script`).
    pub fn function(&self) -> &str {
        let f = &self.interp.prog.functions[self.frame.func as usize];
        if self.frame.func == self.interp.prog.script {
            "script"
        } else {
            &f.name
        }
    }

    /// User function calls under way (0 at the top level).
    pub fn depth(&self) -> usize {
        self.interp.depth
    }

    /// The value of variable `name` here: a local of the function, else a global.
    pub fn value(&self, name: &str) -> Option<Value> {
        let f = &self.interp.prog.functions[self.frame.func as usize];
        let local = (f.local_names.iter().position(|n| n == name))
            .and_then(|i| self.frame.locals.get(i).cloned().flatten());
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
        let f = &self.interp.prog.functions[self.frame.func as usize];
        let mut names: Vec<&String> = f.local_names.iter().collect();
        if self.frame.func == self.interp.prog.script {
            names.extend(&self.interp.prog.global_names);
        }
        let mut out: Vec<(String, String)> = Vec::new();
        for n in names {
            if n.starts_with('$') || out.iter().any(|(m, _)| m == n) {
                continue;
            }
            if let Some(v) = self.value(n) {
                if matches!(v, Value::Func(_)) {
                    continue;
                }
                let text = blazar_runtime::format::format_value(&v, self.interp.prec);
                out.push((n.clone(), text));
            }
        }
        out
    }
}
