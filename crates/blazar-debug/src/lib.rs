//! The kernel debugger: breakpoints, stepping and thread inspection on the SIMT interpreter.
//!
//! [`Debugger`] is an [`Observer`] of kernel launches (`blazar_cpu::launch_observed`,
//! through [`DebugBackend`]): at each statement of a work item it decides whether to
//! stop, and when it stops it reads commands from its input and answers on its output
//! until a command resumes the run. A stop simply blocks inside the hook. By default
//! kernels run serially on the calling thread, a block at a time, its threads in lock
//! step: a block's threads are always at the same statement (those on another branch
//! of an `if` wait). Under `--schedule random` (`DebugBackend::seed`) up to 8 blocks
//! are under way at once, on coroutine threads of which one runs at a time, and a
//! block's threads part into groups at memory accesses, even inside a statement
//! (`ItemView::part`): each thread then has its own line (`threads` shows it), and
//! `step` runs until the *current thread* starts its next statement or step, while the
//! other threads and blocks run as the schedule decides. All of a block's threads
//! share one barrier index in both schedules (parted threads meet before every
//! barrier). Command syntax and semantics: `HELP` below and the guide's chapter 10.

mod commands;
pub mod device;
mod files;
mod front;
mod hooks;
mod kernel;
mod show;
mod stack;

pub mod dap;

pub mod eval;

pub use commands::{Command, HELP};
pub use device::DeviceModel;
pub use hooks::{DebugBackend, HostSide};

use blazar_cpu::observe::{ItemView, Shape};
use kernel::BlockState;
use std::io::Write;

/// A breakpoint: a source line, with an optional condition evaluated per thread.
#[derive(Clone, Debug, PartialEq)]
pub struct Break {
    pub id: usize,
    /// The file (0: the program's own; see `files.rs`).
    pub file: usize,
    pub line: u32,
    pub cond: Option<String>,
}

/// What the run does until the next stop.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Mode {
    /// Stop at breakpoints.
    Continue,
    /// Stop at the next statement of the current thread (`Some(d)`: at depth `d` or
    /// less, `next`).
    Step(Option<usize>),
    /// Stop when the kernel returns.
    Finish,
    /// Stop when work item `item` reaches line `line`.
    Reach { item: usize, line: u32 },
    /// Stop at the next host statement at call depth `d` or less (`next` in host
    /// code: kernels and calls run through).
    HostNext(usize),
    /// Stop at the next host statement below call depth `d` (`finish` in a function).
    HostOut(usize),
}

/// The launch under way.
struct Launch {
    kernel: String,
    /// The file that defines the kernel.
    file: usize,
    shape: Shape,
}

/// Reads a line for a prompt; `None` at the end of the input.
pub type Input = Box<dyn FnMut(&str) -> Option<String> + Send>;

/// A front end other than the command line (the DAP server): called at each stop
/// instead of the prompt; it returns when a command (see [`Debugger::command`]) has
/// resumed the run.
pub trait StopHandler: Send {
    fn stopped(&mut self, dbg: &mut Debugger, view: &ItemView, why: &str);
    /// Stopped before a host statement.
    fn host_stopped(&mut self, dbg: &mut Debugger, at: &blazar_interp::HostStop, why: &str);
}

/// One thread of the stopped block, for front ends.
#[derive(Clone, Debug, PartialEq)]
pub struct ThreadState {
    pub lane: usize,
    pub pos: Vec<i64>,
    pub blkpos: Vec<i64>,
    /// `active`, `waiting` or `finished`.
    pub state: &'static str,
    pub barrier: u32,
    /// The line the thread is at (see [`Debugger::thread_states`]).
    pub line: u32,
}

/// The debugger's state (see the module documentation).
pub struct Debugger {
    input: Input,
    out: Box<dyn Write + Send>,
    /// The program's files, to resolve breakpoints and show where a stop is.
    files: files::Files,
    breaks: Vec<Break>,
    next_id: usize,
    mode: Mode,
    launch: Option<Launch>,
    /// The current thread: work item and lane.
    item: usize,
    lane: usize,
    /// The blocks under way (one, unless the random schedule runs several).
    blocks: Vec<BlockState>,
    /// The work items of the launch that have finished.
    finished: std::collections::HashSet<usize>,
    /// Kernels run under the random schedule (set by [`DebugBackend`]).
    pub random: bool,
    /// Arrays to write as PNG frames after every barrier interval, with frame counts.
    pub(crate) records: Vec<(String, usize)>,
    /// Blocks that passed a barrier: frames are due at their next statement.
    record_due: Vec<usize>,
    /// The input has ended or `quit` was given: run to the end without stopping.
    pub done: bool,
    /// A front end that handles stops itself.
    pub handler: Option<Box<dyn StopHandler>>,
    /// The race detector, when the session checks races (`blazar debug --check-races`):
    /// it observes every launch alongside the debugger.
    pub races: Option<blazar_cpu::RaceDetector>,
    /// The host's call stack while a kernel runs (innermost first: the launch).
    host_frames: Vec<blazar_interp::HostFrame>,
    /// The frame `frame N` selected at a host stop (0 at each stop).
    frame: usize,
    /// Asks for the installed GPU (the front end's query); the reason when none.
    pub device_query: Option<DeviceQuery>,
    device: Option<DeviceModel>,
}

/// A front end's query of the installed GPU, run once, at the first `info kernel`.
pub type DeviceQuery = Box<dyn FnOnce() -> Result<DeviceModel, String> + Send>;

impl Debugger {
    pub fn new(file: &str, source: &str, input: Input, out: Box<dyn Write + Send>) -> Debugger {
        Debugger {
            input,
            out,
            files: files::Files::single(file, source),
            breaks: Vec::new(),
            next_id: 1,
            mode: Mode::Continue,
            launch: None,
            item: 0,
            lane: 0,
            blocks: Vec::new(),
            finished: Default::default(),
            random: false,
            records: Vec::new(),
            record_due: Vec::new(),
            done: false,
            handler: None,
            races: None,
            host_frames: Vec::new(),
            frame: 0,
            device_query: None,
            device: None,
        }
    }

    /// Makes every file of the program known (imports, Blazar's bundled modules), so
    /// that `break FILE:LINE` can name them and stops show their lines.
    pub fn load_program(&mut self, loaded: &blazar_interp::Loaded) {
        self.files.load(loaded);
    }

    /// The device occupancy is computed for: the query's answer (once), else the
    /// default model.
    pub(crate) fn device_model(&mut self) -> DeviceModel {
        if let Some(d) = &self.device {
            return d.clone();
        }
        let d = match self.device_query.take().map(|q| q()) {
            Some(Ok(d)) => d,
            Some(Err(why)) => {
                self.say(format!(
                    "no GPU to query ({why}): using the default device model"
                ));
                DeviceModel::default_model()
            }
            None => DeviceModel::default_model(),
        };
        self.device = Some(d.clone());
        d
    }

    pub(crate) fn say(&mut self, text: impl AsRef<str>) {
        let _ = writeln!(self.out, "{}", text.as_ref());
        let _ = self.out.flush();
    }

    /// Reads commands before the program starts, until `run` (true) or the end of the
    /// input or `quit` (false).
    pub fn before_run(&mut self) -> bool {
        loop {
            let Some(line) = (self.input)("(bzdb) ") else {
                return false;
            };
            match Command::parse(&line) {
                Ok(Command::Run | Command::Continue) => return true,
                Ok(Command::Quit) => return false,
                Ok(Command::Nothing) => {}
                Ok(Command::Help) => self.say(HELP),
                Ok(Command::Break { file, line, cond }) => self.add_break(file, line, cond),
                Ok(Command::Delete(n)) => self.delete(n),
                Ok(Command::InfoBreaks) => self.list_breaks(),
                Ok(Command::Record(a)) => self.record(a),
                Ok(_) => self.say("the program is not running yet: `run` starts it"),
                Err(e) => self.say(e),
            }
        }
    }

    /// Reads commands after the program has ended, until the input ends or `quit`.
    pub fn after_run(&mut self) {
        while !self.done {
            let Some(line) = (self.input)("(bzdb) ") else {
                return;
            };
            match Command::parse(&line) {
                Ok(Command::Quit) => return,
                Ok(Command::Nothing) => {}
                Ok(Command::Help) => self.say(HELP),
                Ok(_) => self.say("the program has finished"),
                Err(e) => self.say(e),
            }
        }
    }

    fn record(&mut self, a: String) {
        if !self.records.iter().any(|(n, _)| *n == a) {
            self.say(format!(
                "recording `{a}` after every barrier interval as {a}-NNNN.png"
            ));
            self.records.push((a, 0));
        }
    }

    /// Whether the statement of `view` is a stop; picks the thread to stop on.
    fn stops(&mut self, view: &ItemView) -> Option<(usize, String)> {
        let active = |l: usize| view.mask.get(l).copied().unwrap_or(false);
        let first = (0..view.lanes()).find(|&l| active(l))?;
        match self.mode {
            Mode::Step(depth) => {
                let deep = depth.is_some_and(|d| view.depth > d);
                if view.item != self.item {
                    // Other blocks run on while the current thread's block is under way.
                    if self.state(self.item).is_some() {
                        return None;
                    }
                    let why = if self.finished.contains(&self.item) {
                        "now in another block"
                    } else {
                        ""
                    };
                    return Some((first, why.into()));
                }
                (!deep && active(self.lane)).then(|| (self.lane, String::new()))
            }
            Mode::Reach { .. } | Mode::Continue if view.part > 0 => None,
            Mode::Reach { item, line } => (view.item == item && view.line == line).then(|| {
                let l = if active(self.lane) { self.lane } else { first };
                (l, String::new())
            }),
            Mode::Finish | Mode::HostNext(_) | Mode::HostOut(_) => None,
            Mode::Continue => {
                let file = self.launch.as_ref().map_or(0, |l| l.file);
                let hits: Vec<Break> = self
                    .breaks
                    .iter()
                    .filter(|b| b.line == view.line && b.file == file)
                    .cloned()
                    .collect();
                for b in hits {
                    let Some(c) = &b.cond else {
                        let l = if view.item == self.item && active(self.lane) {
                            self.lane
                        } else {
                            first
                        };
                        return Some((l, format!("breakpoint {}", b.id)));
                    };
                    for l in (0..view.lanes()).filter(|&l| active(l)) {
                        match eval::eval(c, &self.scope(view, l)) {
                            Ok(v) if eval::show(&v) != "0" => {
                                return Some((l, format!("breakpoint {} ({c})", b.id)))
                            }
                            Ok(_) => {}
                            Err(e) => {
                                self.say(format!(
                                    "breakpoint {}: condition `{c}`: {e}; stopping",
                                    b.id
                                ));
                                return Some((l, format!("breakpoint {}", b.id)));
                            }
                        }
                    }
                }
                None
            }
        }
    }

    pub(crate) fn scope<'v, 'a, 'o>(
        &self,
        view: &'v ItemView<'a, 'o>,
        lane: usize,
    ) -> eval::Scope<'v, 'a, 'o> {
        let sh = self.launch.as_ref().map(|l| l.shape.clone());
        let (thread, blkdim, blkcnt) = match &sh {
            Some(s) => {
                let kr = s.kernel_rank;
                let comp = |f: &dyn Fn(usize) -> i64| -> Vec<i64> {
                    (0..kr)
                        .map(|c| (c + s.rank).checked_sub(kr).map_or(1, f))
                        .collect()
                };
                (
                    s.thread(view.item, lane),
                    comp(&|p| s.block[p] as i64),
                    comp(&|p| (s.data[p] / s.block[p].max(1)) as i64),
                )
            }
            None => (
                blazar_cpu::observe::Thread {
                    pos: vec![],
                    blkpos: vec![],
                    blkidx: vec![],
                },
                vec![],
                vec![],
            ),
        };
        eval::Scope {
            view,
            lane,
            thread,
            blkdim,
            blkcnt,
        }
    }

    /// Stopped at `view`: reads and runs commands until one resumes the run.
    fn prompt(&mut self, view: &ItemView) {
        loop {
            let Some(line) = (self.input)("(bzdb) ") else {
                self.done = true;
                return;
            };
            let cmd = match Command::parse(&line) {
                Ok(c) => c,
                Err(e) => {
                    self.say(e);
                    continue;
                }
            };
            if self.command(cmd, Some(view)) {
                return;
            }
        }
    }

    /// Runs one command while stopped (`view`: in a kernel thread); true when it
    /// resumes the run.
    pub fn command(&mut self, cmd: Command, view: Option<&ItemView>) -> bool {
        match cmd {
            Command::Nothing => {}
            Command::Help => self.say(HELP),
            Command::Quit => {
                self.done = true;
                return true;
            }
            Command::Run | Command::Continue => {
                self.mode = Mode::Continue;
                return true;
            }
            Command::Step => {
                self.mode = Mode::Step(None);
                return true;
            }
            Command::Next => {
                self.mode = Mode::Step(Some(view.map_or(0, |v| v.depth)));
                return true;
            }
            Command::Finish => {
                self.mode = Mode::Finish;
                return true;
            }
            Command::Break { file, line, cond } => self.add_break(file, line, cond),
            Command::Delete(n) => self.delete(n),
            Command::InfoBreaks => self.list_breaks(),
            Command::Record(a) => self.record(a),
            Command::Races => self.list_races(),
            Command::Backtrace => self.backtrace(view),
            Command::Frame(n) => self.kernel_frame(n, view),
            cmd => match view {
                None => self.say("no kernel thread is stopped here"),
                Some(v) => return self.in_thread(cmd, v),
            },
        }
        false
    }
}
