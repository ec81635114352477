//! Command-line parsing and the `run`, `check` and `emit` commands.

use blazar_diagnostics::render_all;
use blazar_interp::{load, BackendRef, Loaded, Options};
use blazar_native::{CpuBackend, CpuTier};
use blazar_runtime::builtins::Ctx;
use blazar_runtime::Prec;
use clap::{Parser, Subcommand, ValueEnum};
use std::io::IsTerminal;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Blazar runs Quasar array-language programs on CPUs and NVIDIA GPUs. Without a
/// command it starts an interactive session (`blazar repl`).
#[derive(Parser, Debug)]
#[command(name = "blazar", version, about, long_about = None, disable_help_subcommand = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Run a Quasar program: output on stdout, errors on stderr.
    Run(RunArgs),
    /// An interactive session: statements run as they are typed, variables and
    /// functions are kept between lines (`:help` inside lists its commands).
    Repl(crate::repl::ReplArgs),
    /// Debug a program's kernels: breakpoints, stepping, threads, shared memory
    /// (`help` inside lists the commands).
    Debug(crate::debug::DebugArgs),
    /// Print an intermediate form of a program.
    Emit {
        /// What to print: `kir` runs the program (discarding its output) and prints
        /// the KIR of every kernel specialisation it launched; `cuda` prints the CUDA
        /// C++ generated for each of them, `cpp` the C++ of the native CPU tier; `air`
        /// the AIR region of every whole-array expression that became a kernel.
        #[arg(value_enum)]
        what: EmitWhat,
        /// The program (a `.q` file).
        file: PathBuf,
        /// Make `scalar` a 64-bit float (the default is 32-bit).
        #[arg(long)]
        double: bool,
        /// As for `run`: whole-array expressions over at least N elements become
        /// kernels (`0`: every one, so a small program shows them all).
        #[arg(long, value_name = "N|off", value_parser = parse_fuse_min)]
        fuse_min: Option<usize>,
        /// With `kir`: each kernel as it stands after pass PASS (`lower`, or a pass of
        /// the pipeline) instead of after the whole pipeline.
        #[arg(long, value_name = "PASS")]
        after: Option<String>,
    },
    /// Time the kernel workloads of `benches/cpu` or `benches/cuda` against their
    /// references, or (`--suite arrays`, `--suite linalg`) whole-array statements and
    /// matrix decompositions against NumPy or CuPy.
    Bench(crate::bench::BenchArgs),
    /// Run the golden programs (`% ==` test blocks) and compare with their expectations.
    Test(crate::test_cmd::TestArgs),
    /// The language server: the Language Server Protocol on standard input and output
    /// (diagnostics as `check` gives them, hover, definition, completion, signature
    /// help, document symbols), for editors (`docs/editors.md`).
    Lsp,
    /// The documentation of a builtin or library function (`blazar help sum`), a search
    /// (`--search WORD`), or the function reference as Markdown (`--reference DIR`).
    Help(crate::help::HelpArgs),
    /// The devices a run can use: CUDA GPUs (name, memory, peer access) and the CPU.
    Info,
    /// Parse and check a program without running it.
    Check {
        /// The program to check (a `.q` file, `-` for standard input).
        file: PathBuf,
        /// `text` (as `run` prints errors) or `json`: one JSON object per line and
        /// diagnostic, on stdout (severity, message, file, line, col, end, notes,
        /// related).
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Internal: compiles into the kernel cache the kernels that an ended process
    /// handed on (the jobs on standard input; `blazar_native::end_compiles`).
    #[command(name = FILL_CACHE, hide = true)]
    FillCache,
}

/// The hidden command of the detached process that finishes a run's compiles.
pub const FILL_CACHE: &str = "internal-fill-cache";

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
}

/// The options of `blazar run`.
#[derive(clap::Args, Debug)]
pub struct RunArgs {
    /// The program to run (a `.q` file; `-` reads it from standard input).
    file: PathBuf,
    /// Where kernels run: `cpu`, `cuda` or `auto` (the best available).
    #[arg(long, value_enum, default_value_t = Device::Auto)]
    device: Device,
    /// Several devices: `all` (every GPU), GPU indices (`0,1`), or `sim:N` (N simulated
    /// devices on the CPU, each with memory of its own, for testing placement and the
    /// copies between devices; `sim:N:lag`: each runs its queue only when something waits
    /// for it). Kernels are placed by where their data is. Under `--device cuda` the
    /// default is `all` (one GPU: the single-GPU path); `0` keeps a run on GPU 0.
    #[arg(long, value_name = "all|0,1|sim:N", value_parser = blazar_multi::DeviceSpec::parse)]
    devices: Option<blazar_multi::DeviceSpec>,
    /// Make `scalar` a 64-bit float (the default is 32-bit).
    #[arg(long)]
    double: bool,
    /// Worker threads for kernels and library calls (matrix products, factorizations)
    /// on the CPU (default: every core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// How kernels run on the CPU: `native` (compiled C++; an error without a C++
    /// compiler), `jit` (compiled in memory through Cranelift at once), `interp` (the
    /// SIMT interpreter) or `auto` (the JIT first, the C++ once compiled in the
    /// background). Kernels a tier does not support run on the interpreter.
    #[arg(long, value_enum, default_value_t = CpuTierArg::Auto)]
    cpu_tier: CpuTierArg,
    /// How host loops that can run as serial kernels run: `auto` (on the interpreter,
    /// then as a compiled kernel once one is ready), `interp` (always the interpreter)
    /// or `compiled` (the kernel from the first iteration, on any backend). Given
    /// twice, the last one counts.
    #[arg(long, value_enum, default_value_t = HostTierArg::Auto, overrides_with = "host_tier")]
    host_tier: HostTierArg,
    /// Bit-identical results on both CPU tiers: native kernels are compiled without
    /// the vector math library (the same scalar `exp`, `sin`, ... as the interpreter),
    /// and CUDA kernels without multiply-add contraction (CUDA's math functions keep
    /// their own rounding). Also `BLAZAR_DETERMINISTIC=1`.
    #[arg(long)]
    deterministic: bool,
    /// Run kernels on the CPU but also compile every kernel specialisation with
    /// NVRTC (no GPU needed), failing on any CUDA compile error.
    #[arg(long)]
    check_cuda: bool,
    /// Run every kernel on the SIMT interpreter under the race detector and report
    /// conflicting accesses of different threads with no barrier between them:
    /// `warn` (the default: warnings, the program's exit status) or `error` (exit
    /// status 1 when a race is found).
    #[arg(long, value_enum, value_name = "warn|error", num_args = 0..=1,
          require_equals = true, default_missing_value = "warn")]
    check_races: Option<crate::races::RaceMode>,
    /// How kernels are scheduled: `serial` (the default: the fastest tier, threads of
    /// a block in lock step) or `random` (on the SIMT interpreter: blocks, and the
    /// threads of kernels without blocks, in an order drawn from `--seed`).
    #[arg(long, value_enum, default_value_t = crate::races::Schedule::Serial)]
    schedule: crate::races::Schedule,
    /// The seed of `--schedule random` (the same seed, the same order).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Whole-array expressions over at least N elements run as fused kernels on the
    /// device (default: `BLAZAR_FUSE_MIN`, else the backend's choice); `0` fuses every
    /// one, `off` none. Given twice, the last one counts.
    #[arg(long, value_name = "N|off", value_parser = parse_fuse_min, overrides_with = "fuse_min")]
    fuse_min: Option<usize>,
    /// After the run, print per source line the kernels launched (each launch then
    /// waits for its device, so times are the device's) and the copies between host
    /// and device, on stderr.
    #[arg(long)]
    profile: bool,
    /// Notes on stderr about work outside the program: each kernel compiled on its
    /// first launch, and how long compiling it took.
    #[arg(long, short)]
    verbose: bool,
    /// Write the figures (`imshow`, `plot`) into DIR instead of the program's folder;
    /// DIR is made if it does not exist.
    #[arg(long, value_name = "DIR")]
    figures: Option<PathBuf>,
    /// Print on stderr the KIR of every kernel as it stands after pass PASS (`lower`,
    /// or a pass of the pipeline: `blazar emit kir --after x` lists them).
    #[arg(long, value_name = "PASS")]
    dump_after: Option<String>,
    #[command(flatten)]
    ui: crate::ui::UiArgs,
}

/// `BLAZAR_FUSE_MIN` (the golden suite runs with every array statement fused this way).
fn env_fuse_min() -> Option<usize> {
    std::env::var("BLAZAR_FUSE_MIN")
        .ok()
        .and_then(|v| parse_fuse_min(&v).ok())
}

fn parse_fuse_min(s: &str) -> Result<usize, String> {
    match s {
        "off" => Ok(usize::MAX),
        n => n
            .parse()
            .map_err(|_| format!("expected a number of elements or `off`, not `{n}`")),
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum EmitWhat {
    Kir,
    Cuda,
    /// The C++ of the native CPU tier (or why a kernel runs on the SIMT interpreter).
    Cpp,
    /// Every `for` loop with the parallelizer's decision and its reason.
    Loops,
    /// The AIR regions that whole-array expressions formed (fused kernels).
    Air,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum HostTierArg {
    Auto,
    Interp,
    Compiled,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum CpuTierArg {
    Auto,
    Interp,
    Native,
    Jit,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum Device {
    Cpu,
    Cuda,
    Auto,
}

pub fn main(cli: Cli) -> ExitCode {
    match cli.command {
        None => crate::repl::main(crate::repl::ReplArgs::default()),
        Some(Command::Repl(args)) => crate::repl::main(args),
        Some(Command::Run(args)) => run(&args),
        Some(Command::Debug(args)) => crate::debug::main(args),
        Some(Command::Emit {
            what,
            file,
            double,
            fuse_min,
            after,
        }) => emit_kir(&file, double, what, fuse_min, after.as_deref()),
        Some(Command::Bench(args)) => crate::bench::main(args),
        Some(Command::Test(args)) => crate::test_cmd::main(args),
        Some(Command::Lsp) => match blazar_lsp::run_stdio() {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("blazar: error: lsp: {e}");
                ExitCode::FAILURE
            }
        },
        Some(Command::Help(args)) => crate::help::main(args),
        Some(Command::Info) => crate::multi::info(),
        Some(Command::Check {
            file,
            format: Format::Json,
        }) => check_json(&file),
        Some(Command::Check { file, .. }) => match load_checked(&file) {
            Ok(_) => ExitCode::SUCCESS,
            Err(code) => code,
        },
        Some(Command::FillCache) => {
            blazar_native::fill_cache(&mut std::io::stdin().lock());
            ExitCode::SUCCESS
        }
    }
}

/// Reads and resolves a program file, or standard input for `-`.
fn load_any(file: &Path) -> Result<Loaded, String> {
    if file.as_os_str() != "-" {
        return load(file);
    }
    let mut text = String::new();
    std::io::Read::read_to_string(&mut std::io::stdin(), &mut text)
        .map_err(|e| format!("cannot read the program from standard input: {e}"))?;
    // Imports are looked up from the current directory.
    Ok(blazar_interp::check("<stdin>", &text, Some(".".into())))
}

/// `blazar check --format json`: every diagnostic as a JSON line on stdout; the exit
/// status says whether one is an error.
fn check_json(file: &Path) -> ExitCode {
    match load_any(file) {
        Ok(loaded) => {
            print!(
                "{}",
                blazar_diagnostics::to_json_lines(&loaded.diagnostics, &loaded.sources)
            );
            if loaded.has_errors() {
                ExitCode::FAILURE
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(msg) => {
            let d = blazar_diagnostics::Diagnostic::global(msg);
            println!("{}", blazar_diagnostics::to_json(&d, &Default::default()));
            ExitCode::from(2)
        }
    }
}

/// Loads a program and prints its diagnostics; `Err` when it cannot run.
pub fn load_checked(file: &Path) -> Result<Loaded, ExitCode> {
    let loaded = match load_any(file) {
        Ok(l) => l,
        Err(msg) => {
            eprintln!("blazar: error: {msg}");
            return Err(ExitCode::from(2));
        }
    };
    if !loaded.diagnostics.is_empty() {
        eprint!("{}", render_all(&loaded.diagnostics, &loaded.sources));
    }
    if loaded.has_errors() {
        let n = loaded.diagnostics.iter().filter(|d| d.is_error()).count();
        eprintln!(
            "blazar: {n} error{} found; nothing was run",
            if n == 1 { "" } else { "s" }
        );
        return Err(ExitCode::FAILURE);
    }
    Ok(loaded)
}

/// The runtime context of a program: output sink, precision, and its directory.
pub fn context(file: &Path, double: bool, out: Box<dyn Write>) -> Ctx {
    let dir = file
        .parent()
        .map(Path::to_path_buf)
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or_else(|| ".".into());
    let stem = file
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .filter(|s| s != "-")
        .unwrap_or_else(|| "program".into());
    let prec = if double { Prec::Double } else { Prec::Single };
    Ctx::new(prec, out, dir, stem)
}

fn report(d: &blazar_diagnostics::Diagnostic, loaded: &Loaded) -> ExitCode {
    let _ = std::io::stdout().flush();
    eprint!("{}", blazar_diagnostics::render(d, &loaded.sources));
    ExitCode::FAILURE
}

/// Shows every kernel's KIR after pass `pass` through `show`; `Err` (a usage error
/// printed) for an unknown pass.
fn dump_after(pass: &str, show: fn(&blazar_kir::Kernel)) -> Result<(), ExitCode> {
    blazar_passes::set_dump_after(Some((pass, Box::new(show)))).map_err(|e| {
        eprintln!("blazar: error: {e}");
        ExitCode::from(2)
    })
}

fn emit_kir(
    file: &Path,
    double: bool,
    what: EmitWhat,
    fuse_min: Option<usize>,
    after: Option<&str>,
) -> ExitCode {
    if let Some(pass) = after {
        if what != EmitWhat::Kir {
            eprintln!("blazar: error: --after goes with `emit kir`");
            return ExitCode::from(2);
        }
        if let Err(code) = dump_after(pass, |k| {
            println!("{}", blazar_kir::printer::print_kernel(k))
        }) {
            return code;
        }
    }
    let loaded = match load_checked(file) {
        Ok(l) => l,
        Err(code) => return code,
    };
    if what == EmitWhat::Loops {
        emit_loops(&loaded);
        return ExitCode::SUCCESS;
    }
    let ctx = context(file, double, Box::new(std::io::sink()));
    let opts = Options {
        backend: Some(BackendRef::new(blazar_native::CpuBackend::default())),
        fuse_min: fuse_min.or_else(env_fuse_min),
        ..Options::default()
    };
    if what == EmitWhat::Air {
        return emit_air(&loaded, ctx, opts);
    }
    let (result, kernels) = blazar_interp::run_collect(&loaded, ctx, opts);
    let opts = blazar_codegen_c::cuda::CodegenOptions {
        file_name: file.display().to_string(),
        line_directives: true,
        block: None,
        ..Default::default()
    };
    for k in &kernels {
        match what {
            EmitWhat::Kir if after.is_some() => {}
            EmitWhat::Kir => println!("{}", blazar_kir::printer::print_kernel(k)),
            EmitWhat::Cuda => println!("{}", blazar_codegen_c::cuda::generate(k, &opts).source),
            EmitWhat::Cpp => match blazar_native::source(k) {
                Some(src) => println!("// ---- kernel {} ----\n{src}", k.name),
                None => println!(
                    "// ---- kernel {}: runs on the SIMT interpreter ({}) ----",
                    k.name,
                    blazar_native::unsupported(k).unwrap_or_default()
                ),
            },
            EmitWhat::Loops | EmitWhat::Air => {}
        }
    }
    if kernels.is_empty() {
        println!("% the program launched no kernels");
    }
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(d) => report(&d, &loaded),
    }
}

/// `blazar emit air`: runs the program (discarding its output) and prints each region
/// its whole-array expressions formed, named as its kernel, in the order they were made.
fn emit_air(loaded: &Loaded, ctx: Ctx, opts: Options) -> ExitCode {
    let (result, regions) = blazar_interp::run_regions(loaded, ctx, opts);
    for (name, region) in &regions {
        println!("{}", blazar_air::print_region(name, region));
    }
    if regions.is_empty() {
        println!(
            "% the program formed no regions (whole-array expressions under --fuse-min \
             elements run on the host)"
        );
    }
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(d) => report(&d, loaded),
    }
}

/// `blazar emit loops`: one line per `for` loop, `file:line: decision: reason`.
fn emit_loops(loaded: &Loaded) {
    if loaded.loops.is_empty() {
        println!("% the program has no `for` loops over ranges");
    }
    for r in &loaded.loops {
        let file = &loaded.sources.get(r.span.file).name;
        let line = loaded.sources.line_of(r.span);
        println!("{file}:{line}: {}: {}", r.decision.word(), r.reason);
    }
    println!(
        "% kernels run when a loop has at least {} iterations (any, when forced)",
        blazar_interp::LOOP_MIN
    );
}

/// Exit status when `--device cuda` is asked for where CUDA cannot be used.
pub const EXIT_UNAVAILABLE: u8 = blazar_testkit::EXIT_UNAVAILABLE as u8;

fn run(args: &RunArgs) -> ExitCode {
    let file = args.file.as_path();
    if let Some(pass) = &args.dump_after {
        if let Err(code) = dump_after(pass, |k| {
            eprintln!("{}", blazar_kir::printer::print_kernel(k))
        }) {
            return code;
        }
    }
    let loaded = match load_checked(file) {
        Ok(l) => l,
        Err(code) => return code,
    };
    if args.threads > MAX_THREADS {
        eprintln!(
            "blazar: error: --threads {} is more than this build allows ({MAX_THREADS})",
            args.threads
        );
        return ExitCode::from(2);
    }
    if args.threads > 0 {
        // Library calls on the host (faer's products and factorizations) use rayon's
        // global pool: as many threads as the kernels get.
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(args.threads)
            .build_global();
    }
    // Program output reaches a terminal line by line (a pipe or file gets it in
    // blocks); it is flushed before every error and when a signal stops the run.
    let out: Box<dyn Write + Send> = if std::io::stdout().is_terminal() {
        Box::new(std::io::LineWriter::new(std::io::stdout()))
    } else {
        Box::new(std::io::BufWriter::new(std::io::stdout()))
    };
    let out = crate::signals::SharedOut::new(out);
    let mut ctx = context(file, args.double, Box::new(out.clone()));
    if let Some(dir) = &args.figures {
        if let Err(e) = std::fs::create_dir_all(dir) {
            eprintln!("blazar: error: --figures {}: {e}", dir.display());
            return ExitCode::from(2);
        }
        ctx.figures.dir = Some(dir.clone());
    }
    crate::ui::install(&args.ui, &mut ctx);
    let interrupt = crate::signals::install();
    let over = crate::signals::watchdog(interrupt.clone(), out.clone(), loaded.sources.clone());
    crate::oom::install(out.clone(), loaded.sources.clone());
    blazar_launch::set_compile_notes(args.verbose);
    if args.deterministic || std::env::var("BLAZAR_DETERMINISTIC").is_ok_and(|v| v == "1") {
        // Before the first probe of the C++ compiler (`cpu_tier`) and of NVRTC.
        blazar_native::set_deterministic();
        blazar_cuda::compile::set_deterministic();
    }
    let Some(cpu_tier) = cpu_tier(args.cpu_tier) else {
        return ExitCode::from(2);
    };
    // `#line` directives name the file; a canonical path keeps cached cubins valid
    // from any working directory.
    let name = std::fs::canonicalize(file)
        .unwrap_or_else(|_| file.to_path_buf())
        .display()
        .to_string();
    let cpu = CpuBackend::new(cpu_tier, args.threads);
    let mut races = None;
    let seed = crate::races::seed_of(args.schedule, args.seed);
    let multi = match &args.devices {
        Some(spec) if args.check_races.is_some() || seed.is_some() || args.check_cuda => {
            eprintln!(
                "blazar: error: --devices {spec} goes with neither --check-races, --schedule \
                 random nor --check-cuda"
            );
            return ExitCode::from(2);
        }
        Some(spec) => match crate::multi::choose(spec, args.device, &cpu, &name) {
            Ok(m) => m,
            Err(code) => return code,
        },
        // `--device cuda` on a host with several GPUs runs over all of them.
        None if args.check_races.is_none() && seed.is_none() && !args.check_cuda => {
            match crate::multi::default_spec(args.device) {
                Some(spec) => match crate::multi::choose(&spec, args.device, &cpu, &name) {
                    Ok(m) => m,
                    Err(code) => return code,
                },
                None => None,
            }
        }
        None => None,
    };
    let mut device_log = None;
    let backend = if let Some((b, log)) = multi {
        device_log = Some(log);
        ctx.device_timer = Some(Box::new(crate::multi::SyncTimer::new(b.clone())));
        b
    } else if args.check_races.is_some() || seed.is_some() {
        if args.device == Device::Cuda || args.check_cuda {
            eprintln!(
                "blazar: error: --check-races and --schedule random run kernels on the CPU's \
                 interpreter; leave out --device cuda and --check-cuda"
            );
            return ExitCode::from(2);
        }
        let (b, det) = blazar_cpu::RaceBackend::with(args.check_races.is_some(), seed);
        races = Some(det);
        BackendRef::new(b)
    } else {
        match crate::device::choose(args.device, args.check_cuda, cpu, &name, &mut ctx) {
            Ok(b) => b,
            Err(code) => return code,
        }
    };
    if !args.check_cuda && races.is_none() {
        crate::device::note_cpu_tier(&backend, args.cpu_tier);
    }
    let opts = Options {
        backend: Some(backend.clone()),
        profile: args.profile,
        interrupt: Some(interrupt.clone()),
        fuse_min: args.fuse_min.or_else(env_fuse_min),
        host_tier: match args.host_tier {
            HostTierArg::Auto => blazar_interp::HostTier::Auto,
            HostTierArg::Interp => blazar_interp::HostTier::Interp,
            HostTierArg::Compiled => blazar_interp::HostTier::Compiled,
        },
        ..Options::default()
    };
    let (result, profile) = blazar_interp::run_profiled(&loaded, ctx, opts);
    over.store(true, std::sync::atomic::Ordering::Relaxed);
    let _ = out.clone().flush();
    let mut finished = crate::device::finish(&backend);
    if let (Some(det), Some(mode)) = (&races, args.check_races) {
        if crate::races::report(&det.borrow(), &loaded, mode) {
            finished = ExitCode::FAILURE;
        }
    }
    if let Some(tables) = profile {
        let _ = std::io::stdout().flush();
        eprint!("{tables}");
        if let Some(log) = &device_log {
            eprint!("{}", log.borrow().render());
        }
    }
    // A run a signal stopped compiles nothing more; otherwise kernels still compiling
    // are handed on as the process ends (`main.rs`), or waited for here.
    if crate::signals::exit_code(&interrupt).is_some() {
        blazar_native::abandon_compiles();
    }
    match (result, crate::signals::exit_code(&interrupt)) {
        (Err(d), Some(code)) => {
            report(&d, &loaded);
            code
        }
        (Ok(()), _) => finished,
        (Err(d), None) => report(&d, &loaded),
    }
}

/// The CPU tier of `--cpu-tier`; `None` (after an error message) when `native` is asked
/// for where no C++ compiler works.
pub fn cpu_tier(arg: CpuTierArg) -> Option<CpuTier> {
    match arg {
        CpuTierArg::Auto => Some(CpuTier::Auto),
        CpuTierArg::Interp => Some(CpuTier::Interp),
        CpuTierArg::Jit => Some(CpuTier::Jit),
        CpuTierArg::Native => match blazar_native::available() {
            Ok(()) => Some(CpuTier::Native),
            Err(e) => {
                eprintln!("blazar: error: --cpu-tier native: {e}");
                None
            }
        },
    }
}

/// The most worker threads `--threads` may ask for.
pub const MAX_THREADS: usize = 1024;
