//! `blazar repl` (and `blazar` alone): the interactive session. On a terminal, lines
//! are read with rustyline (editing, history kept in the user's data folder,
//! `blazar_repl::history`, Ctrl-C drops the
//! input being typed, Ctrl-D leaves); otherwise lines come from standard input and
//! nothing but program output, values and errors is written, so the session can be
//! scripted. The line-level logic is `blazar_repl::Session`.

use crate::cli::{context, cpu_tier, CpuTierArg, Device};
use blazar_interp::Options;
use blazar_native::CpuBackend;
use blazar_repl::{Reply, Session, Step};
use std::cell::RefCell;
use std::io::{BufRead, IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;
use std::rc::Rc;

/// The options of `blazar repl`.
#[derive(clap::Args, Debug)]
pub struct ReplArgs {
    /// Where kernels run: `cpu`, `cuda` or `auto` (the best available).
    #[arg(long, value_enum, default_value_t = Device::Auto)]
    device: Device,
    /// Make `scalar` a 64-bit float (the default is 32-bit).
    #[arg(long)]
    double: bool,
    /// Worker threads for kernels on the CPU (default: every core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// How kernels run on the CPU: `native`, `interp` or `auto`.
    #[arg(long, value_enum, default_value_t = CpuTierArg::Auto)]
    cpu_tier: CpuTierArg,
}

impl Default for ReplArgs {
    fn default() -> Self {
        ReplArgs {
            device: Device::Auto,
            double: false,
            threads: 0,
            cpu_tier: CpuTierArg::Auto,
        }
    }
}

pub fn main(args: ReplArgs) -> ExitCode {
    let terminal = std::io::stdin().is_terminal();
    let out: Box<dyn Write> = Box::new(std::io::LineWriter::new(std::io::stdout()));
    let mut ctx = context(Path::new("./repl"), args.double, out);
    let Some(tier) = cpu_tier(args.cpu_tier) else {
        return ExitCode::from(2);
    };
    let cpu = CpuBackend::new(tier, args.threads);
    let backend = match crate::device::choose(args.device, false, cpu, "<repl>", &mut ctx) {
        Ok(b) => b,
        Err(code) => return code,
    };
    crate::device::note_cpu_tier(&backend, args.cpu_tier);
    // Compiles are worth a word when someone waits at the prompt.
    blazar_launch::set_compile_notes(terminal);
    let opts = Options {
        backend: Some(backend),
        interrupt: Some(crate::signals::install()),
        ..Options::default()
    };
    let mut session = Session::new(ctx, opts);
    if terminal {
        interactive(&mut session)
    } else {
        scripted(&mut session)
    }
}

/// Prints a reply's diagnostics; whether the session should end.
fn show(session: &Session, reply: &Reply) -> bool {
    if !reply.diagnostics.is_empty() {
        let _ = std::io::stdout().flush();
        eprint!("{}", session.render(&reply.diagnostics));
    }
    reply.quit
}

/// Lines from a pipe or file: no prompt; the exit status is 1 when an input failed.
fn scripted(session: &mut Session) -> ExitCode {
    let mut failed = false;
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        if let Step::Done(reply) = session.feed(&line) {
            failed |= reply.is_error();
            if show(session, &reply) {
                return exit(failed);
            }
        }
    }
    if let Some(reply) = session.finish() {
        failed |= reply.is_error();
        show(session, &reply);
    }
    exit(failed)
}

fn exit(failed: bool) -> ExitCode {
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

fn interactive(session: &mut Session) -> ExitCode {
    use rustyline::error::ReadlineError;
    let completions = Rc::new(RefCell::new(session.completions()));
    let mut editor = match rustyline::Editor::<Completer, rustyline::history::DefaultHistory>::new()
    {
        Ok(mut e) => {
            e.set_helper(Some(Completer(completions.clone())));
            e
        }
        Err(e) => {
            eprintln!("blazar: note: no line editing ({e})");
            return scripted(session);
        }
    };
    let history = blazar_repl::history::path();
    if let Some(h) = &history {
        for line in blazar_repl::history::load(h) {
            let _ = editor.add_history_entry(line);
        }
    }
    println!(
        "Blazar {} interactive session; :help for commands, Ctrl-D to leave",
        env!("CARGO_PKG_VERSION")
    );
    loop {
        let prompt = if session.is_pending() { "...  " } else { "q> " };
        match editor.readline(prompt) {
            Ok(line) => {
                if !line.trim().is_empty() {
                    let _ = editor.add_history_entry(line.as_str());
                }
                if let Step::Done(reply) = session.feed(&line) {
                    *completions.borrow_mut() = session.completions();
                    if show(session, &reply) {
                        break;
                    }
                }
            }
            Err(ReadlineError::Interrupted) => session.cancel(),
            Err(ReadlineError::Eof) => break,
            Err(e) => {
                eprintln!("blazar: error: cannot read the input: {e}");
                break;
            }
        }
    }
    if let Some(h) = &history {
        let lines: Vec<&String> = editor.history().iter().collect();
        if let Err(e) = blazar_repl::history::save(h, &lines) {
            eprintln!(
                "blazar: note: the history was not kept ({}: {e})",
                h.display()
            );
        }
    }
    ExitCode::SUCCESS
}

/// Tab completion for the line editor: names, fields and paths (`Completions`).
struct Completer(Rc<RefCell<blazar_repl::Completions>>);

impl rustyline::completion::Completer for Completer {
    type Candidate = String;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _ctx: &rustyline::Context<'_>,
    ) -> rustyline::Result<(usize, Vec<String>)> {
        Ok(self.0.borrow().complete(line, pos))
    }
}

impl rustyline::hint::Hinter for Completer {
    type Hint = String;
}

impl rustyline::highlight::Highlighter for Completer {}

impl rustyline::validate::Validator for Completer {}

impl rustyline::Helper for Completer {}
