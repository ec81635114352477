//! What the debugger shows of a stopped block: the stop, threads, values, shared memory, the launch.
//!
//! Occupancy (`info kernel`) is computed on the installed GPU when the front end could
//! query one, else on the default device model ([`crate::device`]).

use crate::eval::{eval, show};
use crate::{Command, Debugger, Mode};
use blazar_cpu::observe::{ArrayData, ItemView, Shape};
use blazar_launch::KValue;

pub(crate) fn list(v: &[i64]) -> String {
    let s: Vec<String> = v.iter().map(|x| x.to_string()).collect();
    format!("[{}]", s.join(","))
}

/// Row-major linear index of `p` in extents `dims`, if inside.
fn linear(p: &[i64], dims: &[usize]) -> Option<usize> {
    if p.len() != dims.len() {
        return None;
    }
    let mut o = 0usize;
    for (&x, &d) in p.iter().zip(dims) {
        if x < 0 || x as usize >= d {
            return None;
        }
        o = o * d + x as usize;
    }
    Some(o)
}

/// The kernel's view of the shape: (rank, per component (data, block)).
fn comps(s: &Shape) -> Vec<(usize, usize)> {
    (0..s.kernel_rank)
        .map(|c| match (c + s.rank).checked_sub(s.kernel_rank) {
            Some(p) => (s.data[p], s.block[p]),
            None => (1, 1),
        })
        .collect()
}

impl Debugger {
    pub(crate) fn show_stop(&mut self, view: &ItemView, why: &str) {
        let (kernel, file, t) = match &self.launch {
            Some(l) => (
                l.kernel.clone(),
                l.file,
                l.shape.thread(view.item, self.lane),
            ),
            None => return,
        };
        // The current thread's own line: under the random schedule it may be paused
        // at another statement than the threads that run, or between the steps of one.
        let line = self.line_of(view, self.lane);
        let note = if !view.mask.get(self.lane).copied().unwrap_or(false) {
            " (waiting)".to_string()
        } else if view.part > 0 {
            format!(" (step {} of the statement)", view.part + 1)
        } else {
            String::new()
        };
        let text = self.files.line(file, line);
        let why = if why.is_empty() {
            String::new()
        } else {
            format!("{why}: ")
        };
        let msg = format!(
            "{why}kernel `{kernel}` at {}:{line}{note}, block {}, thread {} (blkpos {})\n{line:>5} | {text}",
            self.files.name(file),
            list(&t.blkidx),
            list(&t.pos),
            list(&t.blkpos),
        );
        self.say(msg);
    }

    /// A command that needs a stopped thread; true when it resumes the run.
    pub(crate) fn in_thread(&mut self, cmd: Command, view: &ItemView) -> bool {
        let Some(shape) = self.launch.as_ref().map(|l| l.shape.clone()) else {
            return false;
        };
        match cmd {
            Command::Print(e) => {
                let r = eval(&e, &self.scope(view, self.lane));
                match r {
                    Ok(v) => self.say(show(&v)),
                    Err(m) => self.say(m),
                }
            }
            Command::Threads => self.threads(view, &shape),
            Command::Shared => self.shared(view),
            Command::InfoKernel => self.info_kernel(view, &shape),
            Command::Thread(p) => return self.goto(view, &shape, p, false),
            Command::Block(b) => return self.goto(view, &shape, b, true),
            _ => {}
        }
        false
    }

    /// `thread POS` / `block BLKIDX`: in this block, switch lanes; in another, run
    /// until that block reaches this line.
    fn goto(&mut self, view: &ItemView, shape: &Shape, p: Vec<i64>, block: bool) -> bool {
        let cs = comps(shape);
        let mut p = p;
        while p.len() < cs.len() {
            p.insert(0, 0);
        }
        let dims: Vec<usize> = if block {
            cs.iter().map(|&(d, b)| d / b.max(1)).collect()
        } else {
            cs.iter().map(|&(d, _)| d).collect()
        };
        if linear(&p, &dims).is_none() {
            let what = if block { "block" } else { "thread" };
            self.say(format!(
                "no {what} {} in a launch of {} {what}s",
                list(&p),
                list(&dims.iter().map(|&d| d as i64).collect::<Vec<_>>())
            ));
            return false;
        }
        // The target's first thread (block) or the thread itself.
        let pos: Vec<i64> = if block {
            let cur = shape.thread(view.item, self.lane).blkpos;
            p.iter()
                .zip(&cs)
                .zip(&cur)
                .map(|((&b, &(_, bd)), &bp)| b * bd as i64 + bp)
                .collect()
        } else {
            p
        };
        let Some((item, lane)) = (0..shape.items).find_map(|it| {
            let t0 = shape.thread(it, 0);
            let same_block = if shape.blocky {
                (t0.blkidx.iter().zip(&pos).zip(&cs))
                    .all(|((&bi, &x), &(_, bd))| bi == x / bd as i64)
            } else {
                true
            };
            if !same_block {
                return None;
            }
            (0..shape.width)
                .find(|&l| shape.thread(it, l).pos == pos)
                .map(|l| (it, l))
        }) else {
            self.say(format!("no thread at {}", list(&pos)));
            return false;
        };
        self.lane = lane;
        if item == view.item {
            self.item = item;
            self.show_stop(view, "");
            return false;
        }
        if self.finished.contains(&item) {
            let order = if self.random {
                "the seeded order"
            } else {
                "order"
            };
            self.say(format!(
                "block {} has already finished (blocks run in {order})",
                list(&shape.thread(item, 0).blkidx)
            ));
            return false;
        }
        self.say(format!(
            "running until block {} reaches line {}",
            list(&shape.thread(item, 0).blkidx),
            view.line
        ));
        self.item = item;
        self.mode = Mode::Reach {
            item,
            line: view.line,
        };
        true
    }

    fn threads(&mut self, view: &ItemView, shape: &Shape) {
        let mut out = Vec::new();
        for l in 0..view.lanes() {
            let t = shape.thread(view.item, l);
            let state = if !view.live(l) {
                "finished"
            } else if view.mask[l] {
                "active"
            } else {
                "waiting"
            };
            let mark = if l == self.lane { "*" } else { " " };
            let line = match state {
                "finished" => String::new(),
                _ => format!("  line {}", self.line_of(view, l)),
            };
            out.push(format!(
                "{mark} thread {:<8} blkpos {:<8} {state:<8} barrier {}{line}",
                list(&t.pos),
                list(&t.blkpos),
                self.barriers_of(view.item)
            ));
        }
        self.say(out.join("\n"));
    }

    fn shared(&mut self, view: &ItemView) {
        let arrays = view.shared();
        if arrays.is_empty() {
            return self.say("this block has no shared memory");
        }
        for a in arrays {
            let text = self.table_or_png(&a, &format!("shared-{}-block{}", a.name, view.item));
            self.say(text);
        }
    }

    /// A small array as a table; an image-shaped one (2-d, over 16 in both
    /// dimensions) as a PNG written to `stem.png`.
    fn table_or_png(&self, a: &ArrayData, stem: &str) -> String {
        let dims: Vec<usize> = a.dims.iter().copied().skip_while(|&d| d == 1).collect();
        let size = a
            .dims
            .iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join("x");
        if dims.len() == 2 && dims[0] > 16 && dims[1] > 16 {
            let file = format!("{stem}.png");
            return match write_png(&a.values, dims[1], dims[0], &file) {
                Ok(()) => format!("{} ({size}): written to {file}", a.name),
                Err(e) => format!("{} ({size}): cannot write {file}: {e}", a.name),
            };
        }
        let cols = if dims.len() >= 2 {
            dims[dims.len() - 1]
        } else {
            a.values.len().max(1)
        };
        let rows: Vec<String> = a
            .values
            .chunks(cols)
            .map(|r| {
                r.iter()
                    .map(|v| format!("{:>8}", show(v)))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        format!("{} ({size}):\n{}", a.name, rows.join("\n"))
    }

    fn info_kernel(&mut self, view: &ItemView, shape: &Shape) {
        let Some(l) = &self.launch else { return };
        let cs = comps(shape);
        let data: Vec<i64> = cs.iter().map(|c| c.0 as i64).collect();
        let blk: Vec<i64> = cs.iter().map(|c| c.1 as i64).collect();
        let cnt: Vec<i64> = cs.iter().map(|c| (c.0 / c.1.max(1)) as i64).collect();
        let threads: usize = cs.iter().map(|c| c.1).product();
        let shared: usize = view
            .shared()
            .iter()
            .map(|a| a.values.len() * elem_bytes(&a.values))
            .sum();
        let kernel = l.kernel.clone();
        let dev = self.device_model();
        let o = crate::device::occupancy(&dev, threads, shared);
        let text = format!(
            "kernel `{kernel}`: {} threads {}, blocks of {} ({threads} threads), {} blocks\n\
             shared memory per block: {shared} bytes\n\
             occupancy {:.0}% ({} blocks of {} warps per SM, limited by {}) on {}; \
             per-thread registers not counted",
            data.iter().product::<i64>(),
            list(&data),
            list(&blk),
            list(&cnt),
            o.percent,
            o.blocks,
            o.warps_per_block,
            o.limit,
            dev.describe(),
        );
        self.say(text);
    }

    /// After a barrier interval: the recorded arrays as the next PNG frames.
    pub(crate) fn write_frames(&mut self, view: &ItemView) {
        let mut notes = Vec::new();
        for (name, frame) in self.records.iter_mut() {
            let Some(dims) = view.array_dims(name) else {
                continue;
            };
            let n: usize = dims.iter().product();
            let values: Vec<KValue> = (0..n).filter_map(|o| view.element(name, o)).collect();
            let d: Vec<usize> = dims.iter().copied().skip_while(|&x| x == 1).collect();
            let (w, h) = match d.as_slice() {
                [h, w, ..] => (*w, *h),
                [w] => (*w, 1),
                [] => (1, 1),
            };
            *frame += 1;
            let file = format!("{name}-{:04}.png", *frame);
            if let Err(e) = write_png(&values, w, h, &file) {
                notes.push(format!("cannot write {file}: {e}"));
            }
        }
        for n in notes {
            self.say(n);
        }
    }
}

fn elem_bytes(v: &[KValue]) -> usize {
    match v.first() {
        Some(KValue::Complex(..)) => 8,
        _ => 4,
    }
}

/// `values` (row-major, `h` rows of `w`) as an 8-bit grey PNG scaled from min to max.
fn write_png(values: &[KValue], w: usize, h: usize, file: &str) -> Result<(), String> {
    let xs: Vec<f64> = values.iter().map(KValue::as_f64).collect();
    let (lo, hi) = xs
        .iter()
        .fold((f64::MAX, f64::MIN), |(a, b), &x| (a.min(x), b.max(x)));
    let span = if hi > lo { hi - lo } else { 1.0 };
    let px: Vec<u8> = xs
        .iter()
        .map(|&x| (255.0 * (x - lo) / span).round() as u8)
        .collect();
    let img = image::GrayImage::from_raw(w as u32, h as u32, px)
        .ok_or_else(|| "the array does not fill an image".to_string())?;
    img.save(file).map_err(|e| e.to_string())
}
