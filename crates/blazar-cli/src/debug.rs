//! `blazar debug prog.q`: the kernel debugger in the terminal (or on scripted input).
//!
//! Commands are read with rustyline on a terminal, else line by line from standard
//! input, each echoed after its prompt so that a transcript reads like a session.
//! Breakpoints are set before `run`; the program then runs with every kernel on the
//! SIMT interpreter under `blazar_debug::Debugger`, which stops in kernel threads and
//! reads further commands. Host code runs without stopping (see the guide, chapter 10).

use crate::cli::context;
use blazar_debug::{DebugBackend, Debugger, Input};
use blazar_interp::{BackendRef, Options};
use std::cell::RefCell;
use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::rc::Rc;

/// The options of `blazar debug`.
#[derive(clap::Args, Debug)]
pub struct DebugArgs {
    /// The program to debug (a `.q` file).
    file: PathBuf,
    /// Make `scalar` a 64-bit float (the default is 32-bit).
    #[arg(long)]
    double: bool,
}

/// The command reader: rustyline on a terminal, else echoed lines of standard input.
fn input() -> Input {
    if std::io::stdin().is_terminal() {
        if let Ok(mut ed) = rustyline::DefaultEditor::new() {
            return Box::new(move |prompt: &str| loop {
                match ed.readline(prompt) {
                    Ok(l) => {
                        let _ = ed.add_history_entry(l.as_str());
                        return Some(l);
                    }
                    Err(rustyline::error::ReadlineError::Interrupted) => continue,
                    Err(_) => return None,
                }
            });
        }
    }
    Box::new(|prompt: &str| {
        let mut line = String::new();
        match std::io::stdin().lock().read_line(&mut line) {
            Ok(0) | Err(_) => None,
            Ok(_) => {
                let line = line.trim_end().to_string();
                let mut out = std::io::stdout().lock();
                let _ = writeln!(out, "{prompt}{line}");
                let _ = out.flush();
                Some(line)
            }
        }
    })
}

pub fn main(args: DebugArgs) -> ExitCode {
    let file = args.file.as_path();
    let loaded = match crate::cli::load_checked(file) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let name = file.display().to_string();
    let text = loaded
        .sources
        .files()
        .first()
        .map_or("", |f| f.text.as_str());
    let dbg = Debugger::new(&name, text, input(), Box::new(std::io::stdout()));
    let dbg = Rc::new(RefCell::new(dbg));
    if !dbg.borrow_mut().before_run() {
        return ExitCode::SUCCESS;
    }
    let ctx = context(file, args.double, Box::new(std::io::stdout()));
    let backend = BackendRef::new(DebugBackend {
        debugger: dbg.clone(),
    });
    let opts = Options {
        backend: Some(backend),
        ..Options::default()
    };
    let (result, _) = blazar_interp::run_profiled(&loaded, ctx, opts);
    let _ = std::io::stdout().flush();
    let code = match result {
        Ok(()) => {
            println!("[program finished]");
            ExitCode::SUCCESS
        }
        Err(d) => {
            eprint!("{}", blazar_diagnostics::render(&d, &loaded.sources));
            println!("[program stopped with an error]");
            ExitCode::FAILURE
        }
    };
    dbg.borrow_mut().after_run();
    code
}
