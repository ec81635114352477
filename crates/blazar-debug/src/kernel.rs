//! The debugger as an observer of kernel launches: the blocks under way (their barrier
//! counts and each thread's line) and the hooks that call the stop decision.
//!
//! In lock step one block is under way at a time; under the random schedule up to 8,
//! their hooks interleaved, each between its `item` and `done` hooks. Statements
//! record, per lane of their mask, the line each thread started last; a paused lane's
//! line comes from the view (`ItemView::paused`).

use crate::{Debugger, Launch, Mode};
use blazar_cpu::observe::{Access, ItemView, LaunchInfo, Observer};

/// A frame due at the next statement of any block (`Debugger::record_due`).
const ANY: usize = usize::MAX;

/// A block (work item) under way in the current launch.
pub(crate) struct BlockState {
    pub(crate) item: usize,
    /// Barriers the block has passed.
    pub(crate) barriers: u32,
    /// Per lane: the line of the statement it started last (0: none yet).
    pub(crate) lines: Vec<u32>,
}

impl Debugger {
    /// The block of work item `item`, while it is under way.
    pub(crate) fn state(&self, item: usize) -> Option<&BlockState> {
        self.blocks.iter().find(|b| b.item == item)
    }

    /// The barriers work item `item` has passed.
    pub(crate) fn barriers_of(&self, item: usize) -> u32 {
        self.state(item).map_or(0, |b| b.barriers)
    }

    /// The line lane `lane` of the stopped block is at: the stop's line for the lanes
    /// that run it, the statement where it waits for other threads of its block under
    /// the random schedule, else the line of the statement the lane started last.
    pub(crate) fn line_of(&self, view: &ItemView, lane: usize) -> u32 {
        if view.mask.get(lane).copied().unwrap_or(false) {
            return view.line;
        }
        if let Some(p) = view.paused(lane) {
            return p;
        }
        (self.state(view.item))
            .and_then(|b| b.lines.get(lane).copied())
            .filter(|&l| l > 0)
            .unwrap_or(view.line)
    }
}

impl Observer for Debugger {
    fn launch(&mut self, info: &LaunchInfo) {
        if let Some(r) = &mut self.races {
            r.launch(info);
        }
        self.launch = Some(Launch {
            kernel: info.kernel.name.clone(),
            file: self.files.of_kernel(&info.kernel.name),
            shape: info.shape.clone(),
        });
        self.item = 0;
        self.lane = 0;
        self.blocks.clear();
        self.finished.clear();
        if let Mode::Reach { .. } = self.mode {
            self.mode = Mode::Continue;
        }
    }

    fn item(&mut self, item: usize, lanes: usize) {
        if let Some(r) = &mut self.races {
            r.item(item, lanes);
        }
        self.blocks.retain(|b| b.item != item);
        self.blocks.push(BlockState {
            item,
            barriers: 0,
            lines: vec![0; lanes],
        });
    }

    fn done(&mut self, item: usize) {
        if let Some(r) = &mut self.races {
            r.done(item);
        }
        self.blocks.retain(|b| b.item != item);
        self.finished.insert(item);
        for b in self.record_due.iter_mut().filter(|b| **b == item) {
            *b = ANY;
        }
        if let Mode::Reach { item: want, line } = self.mode {
            if item == want {
                self.say(format!("block {want} did not reach line {line}"));
                self.mode = Mode::Step(None);
            }
        }
    }

    fn stmt(&mut self, view: &ItemView) {
        if let Some(b) = self.blocks.iter_mut().find(|b| b.item == view.item) {
            for (l, &m) in view.mask.iter().enumerate() {
                if m {
                    if let Some(x) = b.lines.get_mut(l) {
                        *x = view.line;
                    }
                }
            }
        }
        // Frames of a block's barrier interval come from that block (under the
        // random schedule another block may run first), or, when it ended after the
        // barrier, from the next statement run.
        let due = (self.record_due.iter()).position(|&b| b == view.item || b == ANY);
        if let Some(i) = due {
            self.record_due.swap_remove(i);
            self.write_frames(view);
        }
        if self.done {
            return;
        }
        let Some((lane, why)) = self.stops(view) else {
            return;
        };
        self.item = view.item;
        self.lane = lane;
        if let Some(mut h) = self.handler.take() {
            h.stopped(self, view, &why);
            self.handler = Some(h);
            return;
        }
        self.show_stop(view, &why);
        self.prompt(view);
    }

    fn access(&mut self, a: &Access) {
        if let Some(r) = &mut self.races {
            r.access(a);
        }
    }

    fn barrier(&mut self, item: usize, line: u32) {
        if let Some(r) = &mut self.races {
            r.barrier(item, line);
        }
        if let Some(b) = self.blocks.iter_mut().find(|b| b.item == item) {
            b.barriers += 1;
        }
        if !self.records.is_empty() {
            self.record_due.push(item);
        }
    }

    fn end(&mut self) {
        let name = self
            .launch
            .as_ref()
            .map_or(String::new(), |l| l.kernel.clone());
        // Stepping goes on in the host: the next host statement stops.
        if !self.done && matches!(self.mode, Mode::Step(_) | Mode::Finish) {
            if self.handler.is_none() {
                self.say(format!("kernel `{name}` finished"));
            }
            self.mode = Mode::Step(None);
        }
        self.launch = None;
        self.host_frames.clear();
    }
}
