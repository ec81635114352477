//! The call stack at a stop: `backtrace` and `frame N` in the terminal, frames for DAP.
//!
//! At a host stop the frames are the host's (`HostStop::frames`: the stopped function,
//! then each caller at its call); `frame N` selects one, shows its variables, and
//! `print` then evaluates there. In a kernel, frame 0 is the kernel at its statement
//! and the host frames that launched it follow (recorded at the launch by
//! `HostSide::launching`); their variables are read when the host stops again.

use crate::show::list;
use crate::Debugger;
use blazar_cpu::observe::ItemView;
use blazar_interp::HostStop;

/// One frame as front ends show it.
#[derive(Clone, Debug, PartialEq)]
pub struct FrameLine {
    /// `kernel `k`` or the host function's name.
    pub name: String,
    pub file: String,
    pub line: u32,
    /// A kernel frame (its variables are the current thread's).
    pub kernel: bool,
}

impl Debugger {
    /// The frames of a kernel stop: the kernel, then the host frames of its launch.
    pub fn kernel_frames(&self, view: &ItemView) -> Vec<FrameLine> {
        let Some(l) = &self.launch else {
            return Vec::new();
        };
        let k = FrameLine {
            name: l.kernel.clone(),
            file: self.files.name(l.file).to_string(),
            line: self.line_of(view, self.lane),
            kernel: true,
        };
        std::iter::once(k).chain(self.host_lines()).collect()
    }

    fn host_lines(&self) -> impl Iterator<Item = FrameLine> + '_ {
        self.host_frames.iter().map(|f| FrameLine {
            name: f.function.clone(),
            file: f.file.clone(),
            line: f.line,
            kernel: false,
        })
    }

    /// The frames of a host stop, innermost first.
    pub fn host_stack(&self, at: &HostStop) -> Vec<FrameLine> {
        (at.frames().into_iter())
            .map(|f| FrameLine {
                name: f.function,
                file: f.file,
                line: f.line,
                kernel: false,
            })
            .collect()
    }

    fn frame_text(&self, n: usize, f: &FrameLine, selected: bool) -> String {
        let mark = if selected { "*" } else { " " };
        let what = if f.kernel {
            let t = (self.launch.as_ref())
                .map(|l| l.shape.thread(self.item, self.lane))
                .map_or(String::new(), |t| {
                    format!(", block {}, thread {}", list(&t.blkidx), list(&t.pos))
                });
            format!("kernel `{}`{t}", f.name)
        } else {
            format!("host `{}`", f.name)
        };
        format!("{mark}#{n} {what} at {}:{}", f.file, f.line)
    }

    fn print_frames(&mut self, frames: &[FrameLine], selected: usize) {
        let text: Vec<String> = (frames.iter().enumerate())
            .map(|(n, f)| self.frame_text(n, f, n == selected))
            .collect();
        self.say(text.join("\n"));
    }

    fn print_variables(&mut self, vars: Vec<(String, String)>) {
        if vars.is_empty() {
            return self.say("  (no variables)");
        }
        let lines: Vec<String> = vars.iter().map(|(n, v)| format!("  {n} = {v}")).collect();
        self.say(lines.join("\n"));
    }

    /// `backtrace` outside host stops: in a kernel thread, or with nothing running.
    pub(crate) fn backtrace(&mut self, view: Option<&ItemView>) {
        match view {
            Some(v) => {
                let frames = self.kernel_frames(v);
                self.print_frames(&frames, 0);
            }
            None => self.say("the program is not stopped"),
        }
    }

    /// `frame N` in a kernel thread: 0 is the kernel (its locals in this thread).
    pub(crate) fn kernel_frame(&mut self, n: usize, view: Option<&ItemView>) {
        let Some(v) = view else {
            return self.say("the program is not stopped");
        };
        let frames = self.kernel_frames(v);
        let Some(f) = frames.get(n) else {
            return self.say(format!("no frame {n} (`bt` lists {})", frames.len()));
        };
        let head = self.frame_text(n, f, true);
        self.say(head);
        if n == 0 {
            let vars = self.locals(v);
            self.print_variables(vars);
        } else {
            self.say("  (host variables are shown when the host stops: `finish` ends the kernel)");
        }
    }

    /// `backtrace` at a host stop.
    pub(crate) fn host_backtrace(&mut self, at: &HostStop) {
        let frames = self.host_stack(at);
        self.print_frames(&frames, self.frame);
    }

    /// `frame N` at a host stop: selects frame N and shows its variables.
    pub(crate) fn host_frame(&mut self, n: usize, at: &HostStop) {
        let frames = self.host_stack(at);
        let Some(f) = frames.get(n) else {
            return self.say(format!("no frame {n} (`bt` lists {})", frames.len()));
        };
        self.frame = n;
        let head = self.frame_text(n, f, true);
        let file = at.frames().get(n).map_or(usize::MAX, |h| h.file_id);
        let text = self.files.line(file, f.line).to_string();
        self.say(format!("{head}\n{:>5} | {text}", f.line));
        let vars = at.variables_in(n);
        self.print_variables(vars);
    }
}
