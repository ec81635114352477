//! Embedding: a loaded module whose functions a host program (the Python package) calls
//! by name with values and whose results it gets back as values.
//!
//! A [`Module`] owns its program and one interpreter over it, so kernels specialised by
//! one call are reused by the next, and globals assigned by the module's top-level
//! statements (run once, when the module is made; `main` is not called) stay visible to
//! its functions.

use crate::error::{RunError, R};
use crate::interp::{Frame, Interp, Options};
use crate::load::Loaded;
use blazar_diagnostics::{Diagnostic, SourceMap, Span};
use blazar_hir::{FnId, FnKind};
use blazar_runtime::builtins::Ctx;
use blazar_runtime::Value;

/// A program loaded for calls from a host language.
pub struct Module {
    /// Borrows `loaded` (see [`Module::new`]); dropped before it.
    it: Option<Interp<'static>>,
    loaded: Box<Loaded>,
}

/// A rendered error: its located text and its parts.
#[derive(Clone, Debug)]
pub struct CallError {
    /// `file:line:col: error: message` with the source excerpt and the call stack.
    pub rendered: String,
    pub message: String,
    /// `file:line:col` of the error, when it has a location.
    pub location: Option<String>,
    /// The calls that led there, innermost first (`file:line:col: note: ...`).
    pub stack: Vec<String>,
}

impl Module {
    /// Makes a module of a loaded program and runs its top-level statements. A program
    /// with errors is refused with every diagnostic rendered.
    pub fn new(loaded: Loaded, ctx: Ctx, opts: Options) -> Result<Module, CallError> {
        if loaded.has_errors() {
            let errors: Vec<Diagnostic> = loaded
                .diagnostics
                .iter()
                .filter(|d| d.is_error())
                .cloned()
                .collect();
            return Err(CallError::of_diagnostics(&errors, &loaded.sources));
        }
        let loaded = Box::new(loaded);
        // SAFETY: the program and sources live in a box that `Module` owns and never
        // moves out of or mutates while the interpreter exists; `Drop` ends the
        // interpreter first, so the references never outlive what they point to.
        let (prog, sources) = unsafe {
            (
                &*(&loaded.program as *const blazar_hir::Program),
                &*(&loaded.sources as *const SourceMap),
            )
        };
        let mut module = Module {
            it: Some(Interp::new(prog, sources, ctx, opts)),
            loaded,
        };
        let it = module.it.as_mut().expect("just made");
        let script = &prog.functions[prog.script as usize];
        let mut frame = Frame {
            locals: Vec::new(),
            func: prog.script,
        };
        let ran = it.exec_block(&script.body, &mut frame).map(|_| ());
        it.flush();
        if let Err(e) = ran {
            return Err(module.error(e));
        }
        Ok(module)
    }

    pub fn sources(&self) -> &SourceMap {
        &self.loaded.sources
    }

    /// The names of the functions a host may call (top-level, not kernels), sorted.
    pub fn function_names(&self) -> Vec<String> {
        let p = &self.loaded.program;
        let mut names: Vec<String> = p
            .groups
            .iter()
            .filter(|g| {
                g.members
                    .iter()
                    .any(|&m| p.functions[m as usize].kind != FnKind::Kernel)
            })
            .map(|g| g.name.clone())
            .collect();
        names.sort();
        names.dedup();
        names
    }

    /// The parameter names of function `name` (its first overload), or `None` when the
    /// module has no such function.
    pub fn params(&self, name: &str) -> Option<Vec<String>> {
        let id = *self.group(name)?.members.first()?;
        let f = &self.loaded.program.functions[id as usize];
        Some(f.params.iter().map(|p| p.name.clone()).collect())
    }

    /// The number of outputs function `name` declares (its first overload).
    pub fn outputs(&self, name: &str) -> Option<usize> {
        let id = *self.group(name)?.members.first()?;
        let f = &self.loaded.program.functions[id as usize];
        Some(if f.result.is_some() {
            1
        } else {
            f.outputs.len()
        })
    }

    fn group(&self, name: &str) -> Option<&blazar_hir::FnGroup> {
        self.loaded.program.groups.iter().find(|g| g.name == name)
    }

    /// Calls function `name` with positional `args` and `named` arguments (by parameter
    /// name, as Quasar's `f(x, sigma=2)`) and returns every output it declares.
    pub fn call(
        &mut self,
        name: &str,
        args: Vec<Value>,
        named: Vec<(String, Value)>,
    ) -> Result<Vec<Value>, CallError> {
        let r = self.call_inner(name, args, named);
        let it = self
            .it
            .as_mut()
            .expect("interpreter lives as long as the module");
        it.flush();
        r.map_err(|e| self.error(e))
    }

    fn call_inner(
        &mut self,
        name: &str,
        args: Vec<Value>,
        named: Vec<(String, Value)>,
    ) -> R<Vec<Value>> {
        let at = Span::default();
        let Some(group) = self.group(name) else {
            let known = self.function_names().join(", ");
            return Err(RunError::new(
                at,
                format!("this module has no function `{name}` (it has: {known})"),
            ));
        };
        let members = group.members.clone();
        let it = self
            .it
            .as_mut()
            .expect("interpreter lives as long as the module");
        let id = match members.as_slice() {
            [one] => *one,
            _ if named.is_empty() => {
                return it.call_group(members_group(&self.loaded.program, name), args, 0, at);
            }
            _ => {
                return Err(RunError::new(
                    at,
                    format!("`{name}` is overloaded: pass its arguments by position"),
                ))
            }
        };
        let f = &self.loaded.program.functions[id as usize];
        let nout = f.outputs.len();
        let args = place_named(it, id, args, named)?;
        it.call_user(id, Vec::new(), args, nout, at)
    }

    /// Renders a run-time error of this module.
    pub fn error(&self, e: Box<RunError>) -> CallError {
        // An error of the call itself (a missing argument, an unknown name) has no place
        // in the program's text.
        let d = if e.span == Span::default() {
            let mut d = Diagnostic::global(e.message.clone());
            d.notes = e.notes.clone();
            d
        } else {
            e.into_diagnostic()
        };
        CallError::of_diagnostics(&[d], &self.loaded.sources)
    }

    /// The interpreter (for the embedding's own needs: its backend, its context).
    pub fn interp(&mut self) -> &mut Interp<'static> {
        self.it
            .as_mut()
            .expect("interpreter lives as long as the module")
    }
}

fn members_group(p: &blazar_hir::Program, name: &str) -> u32 {
    p.groups
        .iter()
        .position(|g| g.name == name)
        .expect("looked up by the caller") as u32
}

/// The positional arguments of a call of `id` with `named` ones put at their
/// parameters' places; a parameter left out before a given one takes its default
/// (evaluated in a frame holding the parameters before it, as a call would).
fn place_named(
    it: &mut Interp<'static>,
    id: FnId,
    mut args: Vec<Value>,
    named: Vec<(String, Value)>,
) -> R<Vec<Value>> {
    if named.is_empty() {
        return Ok(args);
    }
    let at = Span::default();
    let prog = it.prog;
    let f = &prog.functions[id as usize];
    let mut slots: Vec<Option<Value>> = args.drain(..).map(Some).collect();
    for (name, v) in named {
        let Some(i) = f.params.iter().position(|p| p.name == name) else {
            let names: Vec<&str> = f.params.iter().map(|p| p.name.as_str()).collect();
            return Err(RunError::new(
                at,
                format!(
                    "`{}` has no parameter `{name}` (its parameters: {})",
                    f.name,
                    names.join(", ")
                ),
            ));
        };
        if slots.len() <= i {
            slots.resize(i + 1, None);
        }
        if slots[i].is_some() {
            return Err(RunError::new(
                at,
                format!("argument `{name}` of `{}` is given twice", f.name),
            ));
        }
        slots[i] = Some(v);
    }
    let mut frame = Frame {
        locals: vec![None; f.n_locals as usize],
        func: id,
    };
    let mut out = Vec::with_capacity(slots.len());
    for (p, v) in f.params.iter().zip(slots) {
        let v = match (v, &p.default) {
            (Some(v), _) => v,
            (None, Some(d)) => it.eval(d, &mut frame)?,
            (None, None) => {
                return Err(RunError::new(
                    at,
                    format!("missing argument `{}` of `{}`", p.name, f.name),
                ))
            }
        };
        frame.locals[p.slot as usize] = Some(v.clone());
        out.push(v);
    }
    Ok(out)
}

impl CallError {
    fn of_diagnostics(ds: &[Diagnostic], map: &SourceMap) -> CallError {
        let rendered = ds
            .iter()
            .map(|d| blazar_diagnostics::render(d, map))
            .collect::<String>();
        let first = ds.first();
        let at = first.and_then(|d| d.span).map(|s| location(s, map));
        let stack = first
            .map(|d| {
                d.related
                    .iter()
                    .map(|r| format!("{}: note: {}", location(r.span, map), r.message))
                    .collect()
            })
            .unwrap_or_default();
        CallError {
            rendered,
            message: first.map(|d| d.message.clone()).unwrap_or_default(),
            location: at,
            stack,
        }
    }
}

/// `file:line:col` of a span's start.
fn location(span: Span, map: &SourceMap) -> String {
    match map.files().get(span.file.0 as usize) {
        Some(f) => {
            let (line, col) = f.line_col(span.lo as usize);
            format!("{}:{line}:{col}", f.name)
        }
        _ => "?".to_string(),
    }
}

impl Drop for Module {
    fn drop(&mut self) {
        // The interpreter borrows `loaded`: it goes first.
        self.it = None;
    }
}
