//! What a front end may ask of a stopped debugger: threads, values, breakpoints.
//!
//! The terminal front end prints these through commands; the DAP server
//! ([`crate::dap`]) turns them into protocol responses.

use crate::eval::{eval, show};
use crate::{Break, Debugger, ThreadState};
use blazar_cpu::observe::{AccessKind, ItemView};

impl Debugger {
    /// The current thread's lane in the stopped block.
    pub fn lane(&self) -> usize {
        self.lane
    }

    /// Makes lane `l` of the stopped block current (ignored outside the block).
    pub fn set_lane(&mut self, view: &ItemView, l: usize) {
        if l < view.lanes() {
            self.lane = l;
        }
    }

    /// The kernel being run, if any.
    pub fn kernel(&self) -> Option<&str> {
        self.launch.as_ref().map(|l| l.kernel.as_str())
    }

    /// The file of the running kernel (the program's own outside kernels).
    pub fn kernel_file(&self) -> &str {
        self.files.name(self.launch.as_ref().map_or(0, |l| l.file))
    }

    /// Replaces the breakpoints of the file `source` names (a path, as editors send
    /// it) by `lines` (each with an optional condition); returns whether each line
    /// exists there, or why the file is not one of the program's.
    pub fn set_breaks(
        &mut self,
        source: &str,
        lines: &[(u32, Option<String>)],
    ) -> Result<Vec<bool>, String> {
        let file = self.files.resolve(source)?;
        self.breaks.retain(|b| b.file != file);
        let mut ok = Vec::new();
        for (line, cond) in lines {
            let exists = *line >= 1 && (*line as usize) <= self.files.lines(file);
            if exists {
                let id = self.next_id;
                self.next_id += 1;
                self.breaks.push(Break {
                    id,
                    file,
                    line: *line,
                    cond: cond.clone(),
                });
            }
            ok.push(exists);
        }
        Ok(ok)
    }

    pub(crate) fn add_break(&mut self, file: Option<String>, line: u32, cond: Option<String>) {
        let f = match file.as_deref().map(|w| self.files.resolve(w)) {
            None => 0,
            Some(Ok(f)) => f,
            Some(Err(m)) => {
                return self.say(format!("break {}:{line}: {m}", file.unwrap_or_default()))
            }
        };
        let name = self.files.name(f).to_string();
        let lines = self.files.lines(f);
        if line == 0 || line as usize > lines {
            return self.say(format!("no line {line} in {name} (it has {lines} lines)"));
        }
        let id = self.next_id;
        self.next_id += 1;
        let text = self.files.line(f, line).to_string();
        let when = cond.as_ref().map_or(String::new(), |c| format!(" if {c}"));
        self.breaks.push(Break {
            id,
            file: f,
            line,
            cond,
        });
        self.say(format!("breakpoint {id} at {name}:{line}{when}: {text}"));
    }

    pub(crate) fn delete(&mut self, n: Option<usize>) {
        match n {
            None => {
                self.breaks.clear();
                self.say("deleted all breakpoints");
            }
            Some(n) => match self.breaks.iter().position(|b| b.id == n) {
                Some(i) => {
                    self.breaks.remove(i);
                    self.say(format!("deleted breakpoint {n}"));
                }
                None => self.say(format!("no breakpoint {n}")),
            },
        }
    }

    pub(crate) fn list_breaks(&mut self) {
        if self.breaks.is_empty() {
            return self.say("no breakpoints");
        }
        let lines: Vec<String> = (self.breaks.iter())
            .map(|b| {
                let when = b
                    .cond
                    .as_ref()
                    .map_or(String::new(), |c| format!(" if {c}"));
                format!("{}: {}:{}{when}", b.id, self.files.name(b.file), b.line)
            })
            .collect();
        self.say(lines.join("\n"));
    }

    /// The threads of the stopped block.
    pub fn thread_states(&self, view: &ItemView) -> Vec<ThreadState> {
        let Some(l) = &self.launch else {
            return Vec::new();
        };
        (0..view.lanes())
            .map(|lane| {
                let t = l.shape.thread(view.item, lane);
                let state = if !view.live(lane) {
                    "finished"
                } else if view.mask[lane] {
                    "active"
                } else {
                    "waiting"
                };
                ThreadState {
                    lane,
                    pos: t.pos,
                    blkpos: t.blkpos,
                    state,
                    barrier: self.barriers_of(view.item),
                    line: self.line_of(view, lane),
                }
            })
            .collect()
    }

    /// `text` evaluated in the current thread, printed as `print` prints it.
    pub fn evaluate(&self, view: &ItemView, text: &str) -> Result<String, String> {
        eval(text, &self.scope(view, self.lane)).map(|v| show(&v))
    }

    /// The current thread's variables (name, value), in declaration order; names the
    /// compiler made up (starting with `$`) are left out.
    pub fn locals(&self, view: &ItemView) -> Vec<(String, String)> {
        let mut seen = Vec::<String>::new();
        let mut out = Vec::new();
        for n in view.var_names().into_iter().rev() {
            if n.starts_with('$') || seen.iter().any(|s| s == n) {
                continue;
            }
            seen.push(n.to_string());
            if let Some(v) = view.var(n, self.lane) {
                out.push((n.to_string(), show(&v)));
            }
        }
        out.reverse();
        out
    }

    /// The kernel built-ins of the current thread: `pos`, `blkpos`, `blkidx`,
    /// `blkdim`, `blkcnt`, and the barrier index.
    pub fn builtins(&self, view: &ItemView) -> Vec<(String, String)> {
        let scope = self.scope(view, self.lane);
        let mut out: Vec<(String, String)> = ["pos", "blkpos", "blkidx", "blkdim", "blkcnt"]
            .iter()
            .filter_map(|n| eval(n, &scope).ok().map(|v| (n.to_string(), show(&v))))
            .collect();
        out.push(("barrier".into(), self.barriers_of(view.item).to_string()));
        out
    }

    /// `races`: the data races found so far, one line each.
    pub(crate) fn list_races(&mut self) {
        let Some(r) = &self.races else {
            return self.say("races are not checked: start with `blazar debug --check-races`");
        };
        if r.races().is_empty() {
            return self.say("no data races so far");
        }
        let lines: Vec<String> = (r.races().iter())
            .map(|r| {
                let side = |s: &blazar_cpu::races::Side| {
                    let verb = match s.kind {
                        AccessKind::Read => "read",
                        AccessKind::Write => "written",
                        AccessKind::Atomic => "updated atomically",
                    };
                    format!(
                        "{verb} at line {} by thread {}",
                        s.line,
                        crate::show::list(&s.thread.pos)
                    )
                };
                format!(
                    "`{}` in kernel `{}`, element {}: {}, then {} ({} pair{})",
                    r.array,
                    r.kernel,
                    crate::show::list(&r.element.iter().map(|&e| e as i64).collect::<Vec<_>>()),
                    side(&r.first),
                    side(&r.second),
                    r.count,
                    if r.count == 1 { "" } else { "s" }
                )
            })
            .collect();
        self.say(lines.join("\n"));
    }
}
