//! Figures: `imshow`, `plot`, `figure`, `title`, `xlabel`, `ylabel`, `legend`, `hold`,
//! `pause`, and the handle methods `h.connect(h2)` and `h.rasterize()`.
//!
//! Blazar has no window: each figure is kept in [`Figures`] while the program runs and
//! written when it ends ([`finish`]): an image figure as a PNG of its pixels, a line
//! plot as a PNG and an SVG drawn with `plotters` (`render.rs`), named
//! `<program>_figure<k>[_<title>]` next to the program or into `--figures DIR`, each
//! file listed on the program's output. `hold` returns 0 (no interactive figure is
//! open) and `pause` returns at once, so display loops end after one frame.

pub mod display;
mod render;

use super::image::{display_range, Pixels};
use super::{Builtin, Ctx};
use crate::array::{Array, Buffer};
use crate::ui::Snapshot;
use crate::value::{Closure, FuncRef, Object};
use crate::{rt_bail, RtError, RtResult, Value};
use std::cell::RefCell;
use std::io::Write as _;
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::Arc;

/// The figures of a run.
#[derive(Default)]
pub struct Figures {
    list: Vec<Figure>,
    /// Index into `list` of the figure `title`, `plot`, ... act on.
    current: Option<usize>,
    /// `hold("on")`: `plot` adds to the current plot instead of replacing it.
    hold: bool,
    /// Where the files go (`--figures DIR`); the program's folder when `None`.
    pub dir: Option<PathBuf>,
}

struct Figure {
    number: usize,
    title: String,
    kind: Kind,
    /// Figures linked by `connect` (zoom and pan would follow each other in a window).
    links: Vec<usize>,
    /// Drawn into since its files were last written ([`write_changed`]).
    changed: bool,
}

enum Kind {
    /// An image as `imshow` took it: a display's panel keeps the samples and converts
    /// them only when written or rasterized (a display refreshed every frame pays one
    /// copy of the samples); a plain `imshow` figure keeps 8-bit pixels.
    Image(Arc<Snapshot>),
    Plot(Plot),
}

/// A line plot: its series, legend entries and axis labels.
#[derive(Default)]
struct Plot {
    series: Vec<Series>,
    legend: Vec<String>,
    xlabel: String,
    ylabel: String,
}

struct Series {
    x: Vec<f64>,
    y: Vec<f64>,
    /// A MATLAB colour letter (`"r"`, `"b--"`: the first of `bgrcmyk` found), if given.
    color: Option<char>,
}

use super::math::bi;

pub(super) static TABLE: &[Builtin] = &[
    bi("imshow", imshow, 1, 2).doc(
        "imshow(x) · imshow(x, [lo, hi])",
        "Shows image x (0..255, or lo..hi mapped to black..white) as a figure; figures are written as PNG files next to the program (or into `--figures DIR`) when it ends.",
        "imshow(zeros(4, 4))\nprint \"shown\"",
        "shown\nfigure 1: wrote example_figure1.png",
    ),
    bi("plot", plot, 1, 3).doc(
        "plot(y) · plot(x, y) · plot(x, y, \"r--\")",
        "Plots y against x (against 0..n-1 without x) as a line in the current figure; a MATLAB colour letter picks the colour. Written as a PNG file when the program ends.",
        "plot([0, 1, 4, 9], \"r\")\ntitle(\"squares\")\nprint \"plotted\"",
        "plotted\nfigure 1: wrote example_figure1_squares.png, example_figure1_squares.svg",
    ),
    bi("figure", figure, 0, 1).doc(
        "figure() · figure(n)",
        "Starts a new figure (or makes figure n current): the next `plot` or `imshow` draws into it.",
        "figure()\nplot([1, 2, 3])\nprint \"ok\"",
        "ok\nfigure 1: wrote example_figure1.png, example_figure1.svg",
    ),
    bi("title", title, 1, 1).doc(
        "title(text)",
        "Sets the title of the current figure.",
        "plot([3, 1, 2])\ntitle(\"a line\")\nprint \"ok\"",
        "ok\nfigure 1: wrote example_figure1_a_line.png, example_figure1_a_line.svg",
    ),
    bi("xlabel", xlabel, 1, 1).doc(
        "xlabel(text)",
        "Labels the horizontal axis of the current plot.",
        "plot([1, 2])\nxlabel(\"time (s)\")\nprint \"ok\"",
        "ok\nfigure 1: wrote example_figure1.png, example_figure1.svg",
    ),
    bi("ylabel", ylabel, 1, 1).doc(
        "ylabel(text)",
        "Labels the vertical axis of the current plot.",
        "plot([1, 2])\nylabel(\"value\")\nprint \"ok\"",
        "ok\nfigure 1: wrote example_figure1.png, example_figure1.svg",
    ),
    bi("legend", legend, 0, usize::MAX).doc(
        "legend(name1, name2, ...)",
        "Names the lines of the current plot, one name per line, in the order they were drawn.",
        "plot([1, 2])\nhold(\"on\")\nplot([2, 1])\nlegend(\"up\", \"down\")\nprint \"ok\"",
        "ok\nfigure 1: wrote example_figure1.png, example_figure1.svg",
    ),
    bi("hold", hold, 0, 1).doc(
        "hold(\"on\") · hold(\"off\") · hold()",
        "With \"on\", the next `plot` adds to the current figure instead of replacing it (`hold()` toggles). MATLAB's `hold on` is written `hold(\"on\")`. Returns 1 while a form's page is open (so `repeat ... until !hold(\"on\")` loops run on), else 0.",
        "plot([1, 2])\nhold(\"on\")\nplot([2, 1])\nprint \"two lines\"",
        "two lines\nfigure 1: wrote example_figure1.png, example_figure1.svg",
    ),
    bi("pause", pause, 0, 1).doc(
        "pause(ms)",
        "Waits while a figure is displayed: with a form's page open (`form`), for ms milliseconds; otherwise it returns at once, as Blazar opens no window.",
        "pause(0)\nprint \"go\"",
        "go",
    ),
    bi("connect", connect, 2, 2).doc(
        "connect(f1, f2)",
        "Links the views of two figures (zooming one zooms the other in an interactive display). Blazar draws figures into files, so the link has no visible effect.",
        "f1 = imshow(zeros(2, 2))\nf2 = imshow(ones(2, 2))\nconnect(f1, f2)\nprint \"linked\"",
        "linked\nfigure 1: wrote example_figure1.png (linked with figure 2)\nfigure 2: wrote example_figure2.png (linked with figure 1)",
    ),
    bi("rasterize", rasterize, 1, 1).doc(
        "rasterize(f)",
        "The pixels of figure f as a rows × columns × 3 `cube[uint8]` (a plot: the 640 × 480 picture its file holds).",
        "f = plot([0, 1])\nprint size(rasterize(f))",
        "[480,640,3]\nfigure 1: wrote example_figure1.png, example_figure1.svg",
    ),
];

impl Figures {
    /// Adds a figure, makes it current and returns its index.
    fn add(&mut self, kind: Kind) -> usize {
        let number = self.list.iter().map(|f| f.number).max().unwrap_or(0) + 1;
        self.list.push(Figure {
            number,
            title: String::new(),
            kind,
            links: Vec::new(),
            changed: true,
        });
        self.current = Some(self.list.len() - 1);
        self.list.len() - 1
    }

    /// The current figure, made (an empty plot) if there is none.
    fn current(&mut self) -> &mut Figure {
        let i = match self.current {
            Some(i) => i,
            None => self.add(Kind::Plot(Plot::default())),
        };
        // Whoever asks for the current figure mutably draws into it.
        self.list[i].changed = true;
        &mut self.list[i]
    }

    /// The current figure's plot; a new plot figure when the current one shows an image.
    fn current_plot(&mut self) -> &mut Plot {
        if !matches!(self.current().kind, Kind::Plot(_)) {
            self.add(Kind::Plot(Plot::default()));
        }
        match &mut self.current().kind {
            Kind::Plot(p) => p,
            Kind::Image(_) => unreachable!("made a plot above"),
        }
    }

    fn index_of(&self, number: usize) -> Option<usize> {
        self.list.iter().position(|f| f.number == number)
    }
}

/// The handle of figure `number`: an object with `number` and the methods `connect`
/// and `rasterize` (builtins bound to the number).
fn handle(number: usize) -> Value {
    let bound = |name: &str| {
        let id = super::lookup(name).expect("figure methods are builtins");
        Value::Func(Rc::new(Closure {
            func: FuncRef::Builtin(id),
            captures: vec![Value::int(number as i64)],
        }))
    };
    let obj = Object {
        class: None,
        fields: vec![
            (Rc::from("number"), Value::int(number as i64)),
            (Rc::from("connect"), bound("connect")),
            (Rc::from("rasterize"), bound("rasterize")),
        ],
    };
    Value::Object(Rc::new(RefCell::new(obj)))
}

/// The figure a handle (or a figure number) names.
fn figure_arg(ctx: &Ctx, who: &str, v: &Value) -> RtResult<usize> {
    let number = match v {
        Value::Object(o) => o.borrow().get("number").and_then(Value::as_f64),
        v => v.as_f64(),
    };
    match number {
        Some(n) if n >= 1.0 && n.fract() == 0.0 => ctx
            .figures
            .index_of(n as usize)
            .ok_or_else(|| RtError::new(format!("{who}: there is no figure {n}"))),
        _ => rt_bail!("{who}: expected a figure handle, got {}", v.kind_name()),
    }
}

fn text_arg(who: &str, v: &Value) -> RtResult<String> {
    match v {
        Value::Str(s) => Ok(s.to_string()),
        v => rt_bail!("{who}: expected a string, got {}", v.kind_name()),
    }
}

fn imshow(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let range = match args.get(1) {
        None => None,
        Some(v) => Some(display_range(v)?),
    };
    // Each `imshow` is a new figure, kept to the end: kept as 8-bit pixels.
    let shot = Snapshot::take("imshow", &args[0], range)?.into_8bit();
    let i = ctx.figures.add(Kind::Image(Arc::new(shot)));
    Ok(handle(ctx.figures.list[i].number))
}

/// The real values of an array or a scalar, in linear order.
fn reals(who: &str, v: &Value) -> RtResult<Vec<f64>> {
    match v {
        Value::Array(a) => {
            let a = a.borrow();
            if a.is_cell() || a.elem().is_complex() {
                rt_bail!("{who}: expected real numbers, got {}", v.kind_name());
            }
            Ok(a.to_f64_vec())
        }
        v => match v.as_f64() {
            Some(x) if !matches!(v, Value::Complex(_)) => Ok(vec![x]),
            _ => rt_bail!("{who}: expected real numbers, got {}", v.kind_name()),
        },
    }
}

fn plot(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let (x, y, style) = match args {
        [y] => (None, y, None),
        [y, s @ Value::Str(_)] => (None, y, Some(s)),
        [x, y] => (Some(x), y, None),
        [x, y, s] => (Some(x), y, Some(s)),
        _ => unreachable!("plot takes 1 to 3 arguments"),
    };
    let y = reals("plot", y)?;
    let x = match x {
        Some(x) => reals("plot", x)?,
        None => (0..y.len()).map(|i| i as f64).collect(),
    };
    if x.len() != y.len() {
        rt_bail!(
            "plot: x and y need as many values, got {} and {}",
            x.len(),
            y.len()
        );
    }
    let color = match style {
        None => None,
        Some(s) => text_arg("plot", s)?
            .chars()
            .find(|c| "bgrcmyk".contains(*c)),
    };
    let hold = ctx.figures.hold;
    let p = ctx.figures.current_plot();
    if !hold {
        p.series.clear();
        p.legend.clear();
    }
    p.series.push(Series { x, y, color });
    let number = ctx.figures.current().number;
    Ok(handle(number))
}

fn figure(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let Some(v) = args.first() else {
        let i = ctx.figures.add(Kind::Plot(Plot::default()));
        return Ok(handle(ctx.figures.list[i].number));
    };
    if let Ok(i) = figure_arg(ctx, "figure", v) {
        ctx.figures.current = Some(i);
        return Ok(handle(ctx.figures.list[i].number));
    }
    match v.as_f64() {
        Some(n) if n >= 1.0 && n.fract() == 0.0 && n < 1e6 => {
            ctx.figures.list.push(Figure {
                number: n as usize,
                title: String::new(),
                kind: Kind::Plot(Plot::default()),
                links: Vec::new(),
                changed: true,
            });
            ctx.figures.current = Some(ctx.figures.list.len() - 1);
            Ok(handle(n as usize))
        }
        _ => rt_bail!("figure: expected a figure number, got {}", v.kind_name()),
    }
}

fn title(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let s = text_arg("title", &args[0])?;
    ctx.figures.current().title = s;
    Ok(Value::Real(0.0))
}

fn xlabel(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let s = text_arg("xlabel", &args[0])?;
    ctx.figures.current_plot().xlabel = s;
    Ok(Value::Real(0.0))
}

fn ylabel(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let s = text_arg("ylabel", &args[0])?;
    ctx.figures.current_plot().ylabel = s;
    Ok(Value::Real(0.0))
}

/// `legend("a", "b")` or `legend({"a", "b"})`-style cells: one entry per series.
fn legend(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let mut names = Vec::new();
    for a in args {
        match a {
            Value::Array(c) if c.borrow().is_cell() => {
                let c = c.borrow();
                for k in 0..c.len() {
                    names.push(text_arg("legend", &c.get_value(k))?);
                }
            }
            v => names.push(text_arg("legend", v)?),
        }
    }
    ctx.figures.current_plot().legend = names;
    Ok(Value::Real(0.0))
}

/// `hold("on")`, `hold("off")` (also `hold(1)`, `hold(0)`; `hold()` toggles): whether
/// `plot` adds to the current plot. Returns whether an interactive figure is open:
/// 1 while a form's page is, else 0 (Blazar opens no window).
fn hold(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let on = match args.first() {
        None => !ctx.figures.hold,
        Some(Value::Str(s)) => match &**s {
            "on" => true,
            "off" => false,
            other => rt_bail!("hold: expected \"on\" or \"off\", got \"{other}\""),
        },
        Some(v) => match v.as_f64() {
            Some(x) => x != 0.0,
            None => rt_bail!("hold: expected \"on\" or \"off\", got {}", v.kind_name()),
        },
    };
    ctx.figures.hold = on;
    // A form's page open: display loops (`repeat ... until !hold("on")`) run on, and
    // what each round printed reaches a pipe as it runs.
    let open = ctx.ui.page_open();
    if open {
        ctx.out
            .flush()
            .map_err(|e| RtError::new(format!("hold: cannot print: {e}")))?;
    }
    Ok(Value::int(open as i64))
}

/// `pause(ms)`: waits while a form's page is open; without one, returns at once.
fn pause(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    if let Some(v) = args.first() {
        let Some(ms) = v.as_f64() else {
            rt_bail!(
                "pause: expected a time in milliseconds, got {}",
                v.kind_name()
            );
        };
        // With a form's page open, the page is shown for that long (its events are
        // applied at the next statement).
        if ctx.ui.page_open() && ms > 0.0 {
            display::flush(ctx)?;
            std::thread::sleep(std::time::Duration::from_secs_f64(
                ms.min(60_000.0) / 1000.0,
            ));
            crate::interrupt::check()?;
        }
    }
    Ok(Value::Real(0.0))
}

/// `connect(h1, h2)` / `h1.connect(h2)`: links the two figures' views.
fn connect(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let a = figure_arg(ctx, "connect", &args[0])?;
    let b = figure_arg(ctx, "connect", &args[1])?;
    let (na, nb) = (ctx.figures.list[a].number, ctx.figures.list[b].number);
    if a != b && !ctx.figures.list[a].links.contains(&nb) {
        ctx.figures.list[a].links.push(nb);
        ctx.figures.list[b].links.push(na);
        ctx.figures.list[a].changed = true;
        ctx.figures.list[b].changed = true;
    }
    Ok(Value::Real(0.0))
}

/// `rasterize(h)` / `h.rasterize()`: the figure's pixels as an M x N x 3 `cube[uint8]`
/// (an image figure: its pixels, gray repeated in each channel and alpha dropped; a
/// plot: the 640 x 480 picture its PNG file holds).
fn rasterize(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let i = figure_arg(ctx, "rasterize", &args[0])?;
    let f = &ctx.figures.list[i];
    let (w, h, rgb) = match &f.kind {
        Kind::Image(s) => {
            let px = Pixels::from_snapshot(s);
            (px.width as usize, px.height as usize, px.rgb())
        }
        Kind::Plot(p) => {
            let (w, h) = render::SIZE;
            let rgb = render::bitmap(p, &f.title).map_err(|e| {
                RtError::new(format!("rasterize: cannot draw figure {}: {e}", f.number))
            })?;
            (w as usize, h as usize, rgb)
        }
    };
    Ok(Value::array(Array::new(vec![h, w, 3], Buffer::U8(rgb))))
}

/// Writes every figure of the run and lists the files on the program's output (one
/// line per figure, naming the figures `connect` linked it with). Called once when the
/// program ends, whether or not it failed.
pub fn finish(ctx: &mut Ctx) -> RtResult<()> {
    // Videos still being written are finished, and the HDR display's frame written.
    let videos = super::video::finish(ctx);
    write(ctx, false)?;
    ctx.figures.list.clear();
    ctx.figures.current = None;
    videos
}

/// Writes the figures drawn into since they were last written, with the same files and
/// lines as [`finish`], and keeps them: the interactive session calls this after each
/// input, so that a figure's files follow it as it changes.
pub fn write_changed(ctx: &mut Ctx) -> RtResult<()> {
    write(ctx, true)
}

fn write(ctx: &mut Ctx, only_changed: bool) -> RtResult<()> {
    let dir = ctx
        .figures
        .dir
        .clone()
        .unwrap_or_else(|| ctx.base_dir.clone());
    let shown = ctx.figures.dir.is_some();
    for f in ctx.figures.list.iter_mut() {
        if only_changed && !f.changed {
            continue;
        }
        f.changed = false;
        let stem = format!(
            "{}_figure{}{}",
            ctx.program_stem,
            f.number,
            render::title_suffix(&f.title)
        );
        let names = render::write(&f.kind, &f.title, &dir, &stem)
            .map_err(|e| RtError::new(format!("figure {}: {e}", f.number)))?;
        let names: Vec<String> = names
            .iter()
            .map(|n| {
                if shown {
                    dir.join(n).display().to_string()
                } else {
                    n.clone()
                }
            })
            .collect();
        // Figures linked by `connect` say so, as a window would show them moving together.
        let linked = match f.links.as_slice() {
            [] => String::new(),
            links => {
                let mut links = links.to_vec();
                links.sort_unstable();
                let list: Vec<String> = links.iter().map(usize::to_string).collect();
                format!(" (linked with figure {})", list.join(", "))
            }
        };
        writeln!(
            ctx.out,
            "figure {}: wrote {}{linked}",
            f.number,
            names.join(", ")
        )
        .map_err(|e| RtError::new(format!("figures: cannot print: {e}")))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests;
