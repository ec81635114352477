//! The debugger's hooks into a run: kernels (`DebugBackend`) and host statements (`HostSide`).
//!
//! `DebugBackend` runs every kernel on the SIMT interpreter observed by the
//! [`Debugger`]; whole-array statements stay on the host so that only the program's
//! own kernels stop.
//!
//! The host interpreter calls [`HostSide`] (a `blazar_interp::HostHook`) before each
//! statement. In host code `step` stops at the next statement, entering kernels (their
//! first statement) and functions; `next` stops at the next statement of this function
//! or its callers; `finish` runs to the caller; `print` reads host variables (of the
//! frame `frame N` selected); `launching` keeps the host frames of a launch for `bt`.

use crate::eval::{eval, show, HostScope};
use crate::{Command, Debugger, Mode};
use blazar_interp::{HostHook, HostStop};
use blazar_kir::Kernel;
use blazar_launch::{with_host_arrays, ArgVal, Backend, KValue, KernelError, LaunchPlan};
use blazar_runtime::ArrayRef;
use std::cell::RefCell;
use std::rc::Rc;

/// Runs kernels on the CPU's interpreter under the debugger.
pub struct DebugBackend {
    pub debugger: Rc<RefCell<Debugger>>,
    /// The random schedule's seed (`--schedule random`), if any.
    pub seed: Option<u64>,
    pub launches: u64,
}

impl Backend for DebugBackend {
    fn name(&self) -> &'static str {
        "cpu"
    }

    fn launch(
        &mut self,
        k: &Rc<Kernel>,
        plan: &LaunchPlan,
        args: &[ArgVal],
        arrays: &[ArrayRef],
    ) -> Result<Option<Vec<KValue>>, KernelError> {
        let mut dbg = self.debugger.borrow_mut();
        dbg.random = self.seed.is_some();
        let seed = (self.seed).map(|s| blazar_cpu::races::launch_seed(s, self.launches));
        self.launches += 1;
        with_host_arrays(arrays, |arrays| {
            match seed {
                Some(s) => blazar_cpu::launch_scheduled(k, plan, args, arrays, Some(&mut *dbg), s),
                None => blazar_cpu::launch_observed(k, plan, args, arrays, &mut *dbg),
            }
            .map(Some)
        })
    }

    /// Whole-array expressions stay on the host, so that only the program's own
    /// kernels stop.
    fn fuse_min(&self) -> usize {
        usize::MAX
    }

    fn synchronize(&mut self) -> Result<(), KernelError> {
        Ok(())
    }
}

/// The host hook of a debugging run: hands each host statement to the debugger.
pub struct HostSide(pub Rc<RefCell<Debugger>>);

impl HostHook for HostSide {
    fn stmt(&mut self, at: &HostStop) {
        if let Ok(mut d) = self.0.try_borrow_mut() {
            d.host_stmt(at);
        }
    }

    fn launching(&mut self, at: &HostStop) {
        if let Ok(mut d) = self.0.try_borrow_mut() {
            d.host_frames = at.frames();
        }
    }
}

impl Debugger {
    /// Whether the host statement `at` is a stop, and why.
    fn host_stops(&mut self, at: &HostStop) -> Option<String> {
        let line = at.line();
        match self.mode {
            Mode::Step(_) => Some(String::new()),
            Mode::HostNext(d) => (at.depth() <= d).then(String::new),
            Mode::HostOut(d) => (at.depth() < d).then(String::new),
            Mode::Finish | Mode::Reach { .. } => None,
            Mode::Continue => {
                let file = at.file_id();
                let hits: Vec<crate::Break> = self
                    .breaks
                    .iter()
                    .filter(|b| b.line == line && b.file == file)
                    .cloned()
                    .collect();
                for b in hits {
                    let Some(c) = &b.cond else {
                        return Some(format!("breakpoint {}", b.id));
                    };
                    match eval(c, &HostScope { at, frame: 0 }) {
                        Ok(v) if show(&v) == "0" => {}
                        Ok(_) => return Some(format!("breakpoint {} ({c})", b.id)),
                        Err(e) => {
                            self.say(format!(
                                "breakpoint {}: condition `{c}`: {e}; stopping",
                                b.id
                            ));
                            return Some(format!("breakpoint {}", b.id));
                        }
                    }
                }
                None
            }
        }
    }

    /// Before a host statement: stops there when it should, and reads commands.
    pub fn host_stmt(&mut self, at: &HostStop) {
        if self.done {
            return;
        }
        let Some(why) = self.host_stops(at) else {
            return;
        };
        // A kernel launched from here starts with its first block and thread.
        self.item = 0;
        self.lane = 0;
        self.frame = 0;
        if let Some(mut h) = self.handler.take() {
            h.host_stopped(self, at, &why);
            self.handler = Some(h);
            return;
        }
        self.show_host_stop(at, &why);
        loop {
            let Some(line) = (self.input)("(bzdb) ") else {
                self.done = true;
                return;
            };
            match Command::parse(&line) {
                Ok(cmd) => {
                    if self.host_command(cmd, at) {
                        return;
                    }
                }
                Err(e) => self.say(e),
            }
        }
    }

    /// Where the host stopped: function, file, line and its text.
    pub(crate) fn show_host_stop(&mut self, at: &HostStop, why: &str) {
        let line = at.line();
        let text = self.files.line(at.file_id(), line);
        let why = if why.is_empty() {
            String::new()
        } else {
            format!("{why}: ")
        };
        let msg = format!(
            "{why}host `{}` at {}:{line}\n{line:>5} | {text}",
            at.function(),
            at.file()
        );
        self.say(msg);
    }

    /// One command at a host stop; true when it resumes the run.
    pub fn host_command(&mut self, cmd: Command, at: &HostStop) -> bool {
        match cmd {
            Command::Print(e) => {
                let frame = self.frame;
                let r = eval(&e, &HostScope { at, frame });
                match r {
                    Ok(v) => self.say(show(&v)),
                    Err(m) => self.say(m),
                }
                false
            }
            Command::Step => {
                self.mode = Mode::Step(None);
                true
            }
            Command::Next => {
                self.mode = Mode::HostNext(at.depth());
                true
            }
            Command::Finish => {
                self.mode = Mode::HostOut(at.depth());
                true
            }
            Command::Backtrace => {
                self.host_backtrace(at);
                false
            }
            Command::Frame(n) => {
                self.host_frame(n, at);
                false
            }
            Command::Threads
            | Command::Shared
            | Command::InfoKernel
            | Command::Thread(_)
            | Command::Block(_) => {
                self.say("the host is stopped, not a kernel thread (`step` into a launch)");
                false
            }
            cmd => self.command(cmd, None),
        }
    }
}
