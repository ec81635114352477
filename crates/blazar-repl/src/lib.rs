//! The interactive session of `blazar` (the REPL), as line-level logic with no terminal
//! code: a [`Session`] takes input lines and runs each complete input against a
//! workspace of variables and functions that persists between inputs.
//!
//! Each complete input is parsed as its own source file (`In[N]`, so errors point into
//! it), joined with the definitions (functions, types) of earlier inputs and a
//! never-run preamble that makes every workspace variable a top-level variable, resolved
//! and checked like a program, and run by a fresh interpreter whose globals start from
//! the workspace; the globals are copied back afterwards, even when the input failed
//! (what ran before the error is kept, as in MATLAB). The value of a final expression
//! statement is printed and kept as `ans`. Lines starting with `:` are commands
//! (`commands.rs`). Program output, printed values and command output go to the
//! session's writer, in order; diagnostics are returned as data.

mod commands;
mod complete;
mod funcs;
pub mod history;
mod input;

pub use complete::Completions;
pub use input::needs_more;

use blazar_diagnostics::{render_all, Diagnostic, FileId, SourceMap};
use blazar_hir::{Callee, ExprKind, Program, StmtKind};
use blazar_interp::{Frame, Interp, Options, RunError};
use blazar_runtime::builtins::Ctx;
use blazar_runtime::Value;
use blazar_syntax::ast;
use std::collections::BTreeMap;
use std::io::Write;

/// What one line did.
#[derive(Debug)]
pub enum Step {
    /// The input is not complete yet (an open block or bracket): read another line.
    More,
    /// The input ran (or a command did).
    Done(Reply),
}

/// The result of one complete input.
#[derive(Debug, Default)]
pub struct Reply {
    /// Errors and warnings, located in the session's sources ([`Session::render`]).
    pub diagnostics: Vec<Diagnostic>,
    /// The input was `:quit`.
    pub quit: bool,
}

impl Reply {
    pub fn is_error(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// An interactive session: the workspace and the text of every input so far.
pub struct Session {
    sources: SourceMap,
    /// Function and type definitions of earlier inputs (spans into `sources`).
    defs: Vec<ast::Stmt>,
    workspace: BTreeMap<String, Value>,
    /// The runtime context (output, random state, timers), lent to each run.
    ctx: Option<Ctx>,
    opts: Options,
    inputs: usize,
    pending: String,
    /// Function values of the workspace by session index (see `funcs.rs`).
    funcs: funcs::FuncTable,
    /// Where the lambdas of the current program's preamble came from.
    placed: funcs::Placed,
    /// The modules imported so far.
    imported: Vec<String>,
}

impl Session {
    /// A session whose program output goes to `ctx.out` and whose kernels run on
    /// `opts.backend`.
    pub fn new(ctx: Ctx, opts: Options) -> Session {
        Session {
            sources: SourceMap::new(),
            defs: Vec::new(),
            workspace: BTreeMap::new(),
            ctx: Some(ctx),
            opts,
            inputs: 0,
            pending: String::new(),
            funcs: Default::default(),
            placed: Default::default(),
            imported: Vec::new(),
        }
    }

    /// Takes one line (without its newline): a command, the start or the rest of an
    /// input, or the line that completes one, which then runs.
    pub fn feed(&mut self, line: &str) -> Step {
        if self.pending.is_empty() && line.trim_start().starts_with(':') {
            return Step::Done(self.command(line.trim()));
        }
        if self.pending.is_empty() {
            if let Some(reply) = self.help_line(line) {
                return Step::Done(reply);
            }
        }
        self.pending.push_str(line);
        self.pending.push('\n');
        if needs_more(&self.pending) {
            return Step::More;
        }
        let text = std::mem::take(&mut self.pending);
        Step::Done(self.run_input(&text))
    }

    /// Whether a started input waits for more lines.
    pub fn is_pending(&self) -> bool {
        !self.pending.is_empty()
    }

    /// Drops a started input (Ctrl-C at a continuation prompt).
    pub fn cancel(&mut self) {
        self.pending.clear();
    }

    /// Runs what is left of a started input (end of input): its errors are reported.
    pub fn finish(&mut self) -> Option<Reply> {
        if self.pending.trim().is_empty() {
            self.pending.clear();
            return None;
        }
        let text = std::mem::take(&mut self.pending);
        Some(self.run_input(&text))
    }

    /// The diagnostics as text, as `blazar run` prints them.
    pub fn render(&self, ds: &[Diagnostic]) -> String {
        render_all(ds, &self.sources)
    }

    /// The workspace variable `name`, if it has a value.
    pub fn variable(&self, name: &str) -> Option<&Value> {
        self.workspace.get(name)
    }

    /// The names of the workspace variables, sorted.
    pub fn variables(&self) -> Vec<String> {
        self.workspace.keys().cloned().collect()
    }

    /// Writes text to the session's output.
    fn say(&mut self, text: &str) {
        if let Some(ctx) = self.ctx.as_mut() {
            let _ = ctx.out.write_all(text.as_bytes());
            let _ = ctx.out.flush();
        }
    }

    /// Parses, resolves and runs one complete input.
    pub fn run_input(&mut self, text: &str) -> Reply {
        self.inputs += 1;
        let file = self.sources.add(format!("In[{}]", self.inputs), text);
        let (mut input, mut diags) = blazar_syntax::parse(text, file);
        if !diags.iter().any(Diagnostic::is_error) {
            // `import "imfilter.q"`: the module's definitions join the session's (a
            // module imported again is skipped).
            let dir = std::env::current_dir().ok();
            blazar_interp::splice_imports_of(
                &mut input,
                dir.as_deref(),
                &mut self.sources,
                &mut diags,
                &mut self.imported,
            );
        }
        if diags.iter().any(Diagnostic::is_error) {
            return Reply {
                diagnostics: diags,
                quit: false,
            };
        }
        let program = self.program(&input);
        let program = match program {
            Ok(p) => p,
            Err(ds) => {
                // This input's own diagnostics; when none of them is the error (it sits
                // in an earlier definition or the workspace preamble), every error.
                let (mine, other): (Vec<_>, Vec<_>) =
                    ds.into_iter().partition(|d| in_file(d, file));
                if mine.iter().any(Diagnostic::is_error) {
                    diags.extend(mine);
                } else {
                    diags.extend(other.into_iter().filter(Diagnostic::is_error));
                }
                return Reply {
                    diagnostics: diags,
                    quit: false,
                };
            }
        };
        let (program, warnings) = program;
        diags.extend(warnings.into_iter().filter(|d| in_file(d, file)));
        // Definitions are kept once they resolve (a later definition of a name
        // replaces the earlier ones).
        let names = defined_names(&input.stmts);
        self.defs.retain(|s| !defines_any(s, &names));
        self.defs
            .extend(input.stmts.iter().filter(|s| is_def(s)).cloned());
        if let Err(e) = self.execute(&program) {
            diags.push(e.into_diagnostic());
        }
        // Figures stay open between inputs; the ones this input drew into are written
        // now, after its output (the files and lines `blazar run` gives at its end).
        if let Some(ctx) = self.ctx.as_mut() {
            if let Err(e) = blazar_runtime::builtins::figure::write_changed(ctx) {
                diags.push(Diagnostic::global(e.message));
            }
        }
        Reply {
            diagnostics: diags,
            quit: false,
        }
    }

    /// The program of an input: the workspace preamble, earlier definitions and the
    /// input, resolved and checked; `Err` with the diagnostics when one is an error.
    #[allow(clippy::type_complexity)]
    fn program(
        &mut self,
        input: &ast::Program,
    ) -> Result<(Program, Vec<Diagnostic>), Vec<Diagnostic>> {
        let mut stmts = Vec::new();
        if !self.workspace.is_empty() {
            // `if 0 ... end` never runs; its assignments make the names top-level
            // variables, which the run then fills from the workspace.
            // Lambdas of earlier inputs that workspace values hold are defined there
            // too, so that this program has their functions.
            let mut pre = String::from("if 0\n");
            for name in self.workspace.keys() {
                pre.push_str(&format!("{name} = 0\n"));
            }
            let (lambdas, at) = self.funcs.preamble(self.workspace.values(), pre.len());
            pre.push_str(&lambdas);
            pre.push_str("end\n");
            let id = self.preamble_file(&pre);
            self.placed = funcs::Placed::new(Some(id), at);
            stmts.extend(blazar_syntax::parse(&pre, id).0.stmts);
        } else {
            self.placed = funcs::Placed::default();
        }
        let names = defined_names(&input.stmts);
        stmts.extend(
            self.defs
                .iter()
                .filter(|s| !defines_any(s, &names))
                .cloned(),
        );
        stmts.extend(input.stmts.iter().cloned());
        let ast = ast::Program { stmts };
        let (program, mut diags) = blazar_interp::lower_hinted(&ast, &[]);
        let arity = |id: u32| {
            let b = blazar_runtime::builtins::get(id);
            (b.name.to_string(), b.min_args, b.max_args)
        };
        diags.extend(blazar_hir::check_program(&program, &arity));
        if diags.iter().any(Diagnostic::is_error) {
            return Err(diags);
        }
        Ok((program, diags))
    }

    /// The preamble's source file (one per input; never shown in a diagnostic that
    /// reaches the user).
    fn preamble_file(&mut self, text: &str) -> FileId {
        self.sources.add("<workspace>", text)
    }

    /// Runs the script of `program` with the workspace as its globals, prints the value
    /// of a final expression statement, and copies the globals back.
    fn execute(&mut self, program: &Program) -> Result<(), Box<RunError>> {
        let ctx = self
            .ctx
            .take()
            .expect("the session's context is always returned");
        let mut it = Interp::new(program, &self.sources, ctx, self.opts.clone());
        let mut seen = funcs::Seen::default();
        for (i, name) in program.global_names.iter().enumerate() {
            if let (Some(v), Some(slot)) = (self.workspace.get(name), it.globals.get_mut(i)) {
                let mut v = v.clone();
                self.funcs.import(program, &self.placed, &mut v, &mut seen);
                *slot = Some(v);
            }
        }
        // An internal error (a bug in Blazar) ends this input, not the session.
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            run_script(&mut it, program)
        }))
        .unwrap_or_else(|payload| Err(internal_error(payload.as_ref(), &self.sources)));
        it.flush();
        for (i, name) in program.global_names.iter().enumerate() {
            if let Some(Some(v)) = it.globals.get(i) {
                self.workspace.insert(name.clone(), v.clone());
            }
        }
        let prec = it.prec;
        self.ctx = Some(it.ctx);
        if let Some(flag) = &self.opts.interrupt {
            flag.store(0, std::sync::atomic::Ordering::Relaxed);
        }
        let value = match result {
            Ok(Some(v)) => {
                let text = blazar_runtime::format::format_value(&v, prec);
                self.say(&format!("{text}\n"));
                self.workspace.insert("ans".to_string(), v);
                Ok(())
            }
            Ok(None) => Ok(()),
            Err(e) => Err(e),
        };

        let defs: Vec<_> = self.defs.iter().map(|s| s.span).collect();
        let mut seen = funcs::Seen::default();
        for v in self.workspace.values_mut() {
            self.funcs
                .export(program, &self.placed, &self.sources, &defs, v, &mut seen);
        }
        value
    }
}

/// The error for a panic inside a run, at the statement that ran: the input stops, the
/// session goes on.
fn internal_error(payload: &(dyn std::any::Any + Send), sources: &SourceMap) -> Box<RunError> {
    let what = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown".to_string());
    let at = blazar_runtime::interrupt::at()
        .filter(|&(f, _, _)| (f as usize) < sources.files().len())
        .map(|(f, lo, hi)| blazar_diagnostics::Span::new(FileId(f), lo as usize, hi as usize))
        .unwrap_or_default();
    let mut e = RunError::new(at, format!("internal error in Blazar: {what}"));
    e.notes
        .push("the session keeps its variables; please report this error".to_string());
    e
}

/// Runs the script; the value of its last statement when that is an expression (a
/// call of a function without outputs has none).
fn run_script<'p>(
    it: &mut Interp<'p>,
    program: &'p Program,
) -> Result<Option<Value>, Box<RunError>> {
    let script = &program.functions[program.script as usize];
    let mut frame = Frame {
        locals: Vec::new(),
        func: program.script,
    };
    let (last, body) = match script.body.split_last() {
        Some((l, rest)) if matches!(l.kind, StmtKind::Expr(_)) => (Some(l), rest),
        _ => (None, &script.body[..]),
    };
    it.exec_block(body, &mut frame)?;
    let Some(StmtKind::Expr(e)) = last.map(|s| &s.kind) else {
        return Ok(None);
    };
    match &e.kind {
        // `tic()`, `plot(y)`, `disp(x)`: run as a statement, nothing shown (`toc()`
        // prints its own line).
        ExprKind::Call {
            callee: Callee::Builtin(id),
            ..
        } if blazar_runtime::builtins::is_procedure(*id) => {
            if let Some(l) = last {
                it.exec_block(std::slice::from_ref(l), &mut frame)?;
            }
            Ok(None)
        }
        ExprKind::Call { callee, args } => Ok(it
            .eval_call(callee, args, 0, &mut frame, e.span)?
            .into_iter()
            .next()),
        _ => it.eval(e, &mut frame).map(Some),
    }
}

fn in_file(d: &Diagnostic, file: FileId) -> bool {
    d.span.is_none_or(|s| s.file == file)
}

fn is_def(s: &ast::Stmt) -> bool {
    matches!(
        s.kind,
        ast::StmtKind::Function(_) | ast::StmtKind::TypeDef { .. }
    )
}

fn def_name(s: &ast::Stmt) -> Option<&str> {
    match &s.kind {
        ast::StmtKind::Function(f) => Some(&f.name.name),
        ast::StmtKind::TypeDef { name, .. } => Some(&name.name),
        _ => None,
    }
}

fn defined_names(stmts: &[ast::Stmt]) -> Vec<String> {
    stmts
        .iter()
        .filter_map(def_name)
        .map(str::to_string)
        .collect()
}

fn defines_any(s: &ast::Stmt, names: &[String]) -> bool {
    def_name(s).is_some_and(|n| names.iter().any(|m| m == n))
}
