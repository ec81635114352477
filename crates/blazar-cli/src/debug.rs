//! `blazar debug prog.q`: the kernel debugger in the terminal (or on scripted input).
//!
//! Commands are read with rustyline on a terminal, else line by line from standard
//! input, each echoed after its prompt so that a transcript reads like a session.
//! Breakpoints are set before `run`; the program then runs with every kernel on the
//! SIMT interpreter under `blazar_debug::Debugger`, which stops in kernel threads and,
//! through the host interpreter's statement hook, in host code (see the guide,
//! chapter 10).

use crate::cli::context;
use blazar_debug::dap::Dap;
use blazar_debug::{DebugBackend, Debugger, HostSide, Input};
use blazar_interp::{BackendRef, HostHookRef, Options};
use std::cell::RefCell;
use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::rc::Rc;

/// The options of `blazar debug`.
#[derive(clap::Args, Debug)]
pub struct DebugArgs {
    /// The program to debug (a `.q` file; with `--dap`, the client's `launch` names it).
    file: Option<PathBuf>,
    /// Make `scalar` a 64-bit float (the default is 32-bit).
    #[arg(long)]
    double: bool,
    /// Speak the Debug Adapter Protocol on standard input and output (for editors).
    #[arg(long)]
    dap: bool,
    /// Also run the race detector: `races` lists what it found so far, and the races
    /// are reported as warnings when the program ends.
    #[arg(long)]
    check_races: bool,
    /// How kernels are scheduled: `serial` (blocks in order, threads in lock step) or
    /// `random` (blocks, and the threads of kernels without blocks, in an order drawn
    /// from `--seed`).
    #[arg(long, value_enum, default_value_t = crate::races::Schedule::Serial)]
    schedule: crate::races::Schedule,
    /// The seed of `--schedule random`.
    #[arg(long, default_value_t = 0)]
    seed: u64,
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
    let seed = crate::races::seed_of(args.schedule, args.seed);
    if args.dap {
        return dap(args.file, args.double, seed);
    }
    let Some(file) = args.file.as_deref() else {
        eprintln!("blazar: error: `blazar debug` needs a program: blazar debug prog.q");
        return ExitCode::from(2);
    };
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
    let mut dbg = Debugger::new(&name, text, input(), Box::new(std::io::stdout()));
    dbg.load_program(&loaded);
    dbg.device_query = Some(Box::new(installed_gpu));
    if args.check_races {
        dbg.races = Some(blazar_cpu::RaceDetector::new());
    }
    let dbg = Rc::new(RefCell::new(dbg));
    if !dbg.borrow_mut().before_run() {
        return ExitCode::SUCCESS;
    }
    let ctx = context(file, args.double, Box::new(std::io::stdout()));
    let backend = BackendRef::new(DebugBackend {
        debugger: dbg.clone(),
        seed,
        launches: 0,
    });
    let opts = Options {
        backend: Some(backend),
        host_hook: Some(HostHookRef(Rc::new(RefCell::new(HostSide(dbg.clone()))))),
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
    if let Some(r) = &dbg.borrow().races {
        crate::races::report(r, &loaded, crate::races::RaceMode::Warn);
    }
    dbg.borrow_mut().after_run();
    code
}

/// GPU 0 through the CUDA driver, for `info kernel`'s occupancy (the debugger falls
/// back to its default model with the reason).
fn installed_gpu() -> Result<blazar_debug::DeviceModel, String> {
    let d = blazar_cuda::device_info()?;
    Ok(blazar_debug::DeviceModel {
        name: Some(d.name),
        multiprocessors: d.multiprocessors,
        threads_per_sm: d.threads_per_sm,
        blocks_per_sm: d.blocks_per_sm,
        shared_per_sm: d.shared_per_sm,
        registers_per_sm: d.registers_per_sm,
        warp: d.warp,
    })
}

/// `blazar debug --dap`: the protocol session around one run of the program.
fn dap(file: Option<PathBuf>, double: bool, seed: Option<u64>) -> ExitCode {
    let session = Dap::new(
        Box::new(std::io::BufReader::new(std::io::stdin())),
        Box::new(std::io::stdout()),
    );
    let Some(launch) = session.start() else {
        return ExitCode::SUCCESS;
    };
    let program = launch["arguments"]["program"]
        .as_str()
        .map(PathBuf::from)
        .or(file);
    // A launch configuration may ask for the random schedule: `"seed": N`.
    let seed = launch["arguments"]["seed"].as_u64().or(seed);
    let Some(program) = program else {
        session.respond(
            &launch,
            Err("launch needs `program`: the .q file to debug".into()),
        );
        session.finish(2);
        return ExitCode::from(2);
    };
    let loaded = match blazar_interp::load(&program) {
        Ok(l) if !l.has_errors() => l,
        Ok(l) => {
            let text = blazar_diagnostics::render_all(&l.diagnostics, &l.sources);
            session.respond(&launch, Err(text));
            session.finish(1);
            return ExitCode::FAILURE;
        }
        Err(e) => {
            session.respond(&launch, Err(e));
            session.finish(2);
            return ExitCode::from(2);
        }
    };
    session.respond(&launch, Ok(serde_json::json!({})));
    let name = program.display().to_string();
    let text = loaded
        .sources
        .files()
        .first()
        .map_or("", |f| f.text.as_str());
    let none: Input = Box::new(|_: &str| None);
    let mut dbg = Debugger::new(&name, text, none, session.output("console"));
    dbg.load_program(&loaded);
    dbg.device_query = Some(Box::new(installed_gpu));
    if !session.configure(&mut dbg) {
        return ExitCode::SUCCESS;
    }
    dbg.handler = Some(session.handler());
    let dbg = Rc::new(RefCell::new(dbg));
    let ctx = context(&program, double, session.output("stdout"));
    let opts = Options {
        backend: Some(BackendRef::new(DebugBackend {
            debugger: dbg.clone(),
            seed,
            launches: 0,
        })),
        host_hook: Some(HostHookRef(Rc::new(RefCell::new(HostSide(dbg.clone()))))),
        ..Options::default()
    };
    let (result, _) = blazar_interp::run_profiled(&loaded, ctx, opts);
    let code = match result {
        Ok(()) => 0,
        Err(d) => {
            let mut err = session.output("stderr");
            let _ = write!(err, "{}", blazar_diagnostics::render(&d, &loaded.sources));
            let _ = err.flush();
            1
        }
    };
    session.finish(code);
    ExitCode::from(code as u8)
}
