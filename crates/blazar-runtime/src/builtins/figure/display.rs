//! The displays of forms: `disp = frm.add_display()`, `disp.imshow(img[, range])`,
//! `disp.plot(...)`, `disp.subplot(rows, cols, k)`, `disp.rasterize()`.
//!
//! A display is a grid of panels (one until `subplot`), and each panel drawn into is a
//! figure of the run: it is written as a PNG (and SVG) file when the program ends, as
//! every figure is, and `imshow` and `plot` return its handle. Drawing again into a
//! panel replaces its picture (`hold` does not apply: a display shows the latest).
//! With a page open, each new picture also goes to the page (`crate::ui::Frame`): an
//! image at once, as the snapshot the panel keeps (the page's host converts the newest
//! on its own thread and sends it at a bounded rate and size; the program's thread only
//! copies the samples once), a plot drawn at most every [`PLOT_EVERY`].

use super::super::form::{bound_id, method, number, object, rest};
use super::super::image::display_range;
use super::super::math::bi;
use super::super::{Builtin, Ctx};
use super::{handle, render, Kind, Plot};
use crate::ui::{Frame, Picture, Snapshot, ToPage};
use crate::{rt_bail, RtError, RtResult, Value};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How often a display's plot is drawn for the page at most.
pub const PLOT_EVERY: Duration = Duration::from_millis(100);

pub(in crate::builtins) static TABLE: &[Builtin] = &[
    bi(".add_display", add_display, 1, usize::MAX).doc(
        "disp = frm.add_display()",
        "Adds a display to the form: `disp.imshow(img)`, `disp.plot(x, y)` and `disp.subplot(rows, cols, k)` draw into it. Each panel drawn into is also a figure, written to a file when the program ends.",
        "frm = form(\"demo\")\ndisp = frm.add_display()\ndisp.imshow(ones(4, 4) * 255)\nprint \"shown\"",
        "shown\nfigure 1: wrote example_figure1.png",
    ),
    bi(".imshow", imshow, 1, usize::MAX).doc(
        "disp.imshow(img) · disp.imshow(img, [lo, hi])",
        "Shows an image in the display's current panel (replacing what it showed); returns the panel's figure handle.",
        "frm = form(\"demo\")\ndisp = frm.add_display()\nh = disp.imshow(zeros(2, 3))\nprint size(h.rasterize())",
        "[2,3,3]\nfigure 1: wrote example_figure1.png",
    ),
    bi(".plot", plot, 1, usize::MAX).doc(
        "disp.plot(y) · disp.plot(x, y) · disp.plot(x, y, \"r\")",
        "Plots a line in the display's current panel, replacing what it showed.",
        "frm = form(\"demo\")\ndisp = frm.add_display()\ndisp.plot([1, 4, 9])\nprint \"plotted\"",
        "plotted\nfigure 1: wrote example_figure1.png, example_figure1.svg",
    ),
    bi(".subplot", subplot, 1, usize::MAX).doc(
        "disp.subplot(rows, cols, k)",
        "Splits the display into a rows × cols grid and makes panel k (0-based, row by row) the one the next `imshow` or `plot` draws into.",
        "frm = form(\"demo\")\ndisp = frm.add_display()\ndisp.subplot(1, 2, 1)\ndisp.imshow(ones(2, 2))\nprint \"right\"",
        "right\nfigure 1: wrote example_figure1.png",
    ),
    bi(".rasterize", rasterize, 1, usize::MAX).doc(
        "disp.rasterize()",
        "The pixels of the display's current panel as a rows × columns × 3 `cube[uint8]`.",
        "frm = form(\"demo\")\ndisp = frm.add_display()\ndisp.imshow(ones(2, 5))\nprint size(disp.rasterize())",
        "[2,5,3]\nfigure 1: wrote example_figure1.png",
    ),
];

fn add_display(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    rest("add_display", args, 0, 0)?;
    let id = super::super::form::new_display(ctx);
    let obj = object(vec![
        ("imshow", method(".imshow", id)),
        ("plot", method(".plot", id)),
        ("subplot", method(".subplot", id)),
        ("rasterize", method(".rasterize", id)),
    ]);
    Ok(Value::Object(obj))
}

/// The display a method is bound to, and the index into the figure list of its current
/// panel (made, as `kind`, when the panel has none yet).
fn panel(
    ctx: &mut Ctx,
    who: &str,
    bound: &Value,
    make: impl FnOnce() -> Kind,
) -> RtResult<(usize, usize)> {
    let d = bound_id(bound);
    let Some(disp) = ctx.ui.displays.get(d) else {
        rt_bail!("{who}: not a display");
    };
    let k = disp.current;
    let existing = disp.panels[k].and_then(|n| ctx.figures.index_of(n));
    let i = match existing {
        Some(i) => i,
        None => {
            let i = ctx.figures.add(make());
            ctx.ui.displays[d].panels[k] = Some(ctx.figures.list[i].number);
            i
        }
    };
    Ok((d, i))
}

fn imshow(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let a = rest("imshow", args, 1, 2)?;
    let range = match a.get(1) {
        None => None,
        Some(v) => Some(display_range(v)?),
    };
    // One copy of the samples, shared by the panel's figure and the page; the 8-bit
    // conversion, downscaling and encoding happen off this thread, or at the end.
    let shot = Arc::new(Snapshot::take("imshow", &a[0], range)?);
    let (d, i) = panel(ctx, "imshow", &args[0], || Kind::Image(shot.clone()))?;
    ctx.figures.list[i].kind = Kind::Image(shot.clone());
    ctx.figures.list[i].changed = true;
    ctx.figures.current = Some(i);
    if ctx.ui.interactive() {
        let panel = ctx.ui.displays[d].current;
        ctx.ui.host().frame(Frame {
            display: d,
            panel,
            picture: Picture::Image(shot),
        });
    }
    Ok(handle(ctx.figures.list[i].number))
}

fn plot(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let a = rest("plot", args, 1, 3)?;
    let (d, i) = panel(ctx, "plot", &args[0], || Kind::Plot(Plot::default()))?;
    if !matches!(ctx.figures.list[i].kind, Kind::Plot(_)) {
        ctx.figures.list[i].kind = Kind::Plot(Plot::default());
    }
    ctx.figures.current = Some(i);
    let hold = std::mem::replace(&mut ctx.figures.hold, false);
    let r = super::plot(ctx, a);
    ctx.figures.hold = hold;
    let h = r?;
    if ctx.ui.interactive() {
        let k = ctx.ui.displays[d].current;
        let due = ctx.ui.displays[d]
            .drawn
            .get(&k)
            .is_none_or(|t| t.elapsed() >= PLOT_EVERY);
        if due {
            ctx.ui.displays[d].drawn.insert(k, Instant::now());
            send_plot(ctx, d, k, i)?;
        } else {
            ctx.ui.displays[d].stale.insert(k);
        }
    }
    Ok(h)
}

fn send_plot(ctx: &mut Ctx, d: usize, k: usize, i: usize) -> RtResult<()> {
    let f = &ctx.figures.list[i];
    let Kind::Plot(p) = &f.kind else {
        return Ok(());
    };
    let rgb = render::bitmap(p, &f.title)
        .map_err(|e| RtError::new(format!("plot: cannot draw figure {}: {e}", f.number)))?;
    let (width, height) = render::SIZE;
    ctx.ui.host().frame(Frame {
        display: d,
        panel: k,
        picture: Picture::Rgb { width, height, rgb },
    });
    Ok(())
}

/// Sends the plots drawn into displays since they were last sent (called before the
/// interpreter waits for the page).
pub fn flush(ctx: &mut Ctx) -> RtResult<()> {
    for d in 0..ctx.ui.displays.len() {
        let stale = std::mem::take(&mut ctx.ui.displays[d].stale);
        for k in stale {
            // A panel a later `subplot` removed has nothing to send.
            let panel = ctx.ui.displays[d].panels.get(k).copied().flatten();
            let fig = panel.and_then(|n| ctx.figures.index_of(n));
            if let Some(i) = fig {
                ctx.ui.displays[d].drawn.insert(k, Instant::now());
                send_plot(ctx, d, k, i)?;
            }
        }
    }
    Ok(())
}

fn subplot(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let a = rest("subplot", args, 3, 3)?;
    let rows = number("subplot", "number of rows", &a[0])?;
    let cols = number("subplot", "number of columns", &a[1])?;
    let k = number("subplot", "panel", &a[2])?;
    for (what, v) in [("rows", rows), ("columns", cols)] {
        if v < 1.0 || v.fract() != 0.0 || v > 16.0 {
            rt_bail!("subplot: the number of {what} must be a whole number from 1 to 16, got {v}");
        }
    }
    let n = rows * cols;
    if k < 0.0 || k.fract() != 0.0 || k >= n {
        rt_bail!(
            "subplot: the panel must be a whole number from 0 to {}, got {k}",
            n - 1.0
        );
    }
    let d = bound_id(&args[0]);
    let Some(disp) = ctx.ui.displays.get_mut(d) else {
        rt_bail!("subplot: not a display");
    };
    let (rows, cols) = (rows as usize, cols as usize);
    if (disp.rows, disp.cols) != (rows, cols) {
        disp.rows = rows;
        disp.cols = cols;
        disp.panels.resize(rows * cols, None);
        disp.stale.retain(|&k| k < rows * cols);
        ctx.ui.host().send(ToPage::Display { id: d, rows, cols });
    }
    ctx.ui.displays[d].current = k as usize;
    Ok(Value::int(0))
}

fn rasterize(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    rest("rasterize", args, 0, 0)?;
    let d = bound_id(&args[0]);
    let Some(disp) = ctx.ui.displays.get(d) else {
        rt_bail!("rasterize: not a display");
    };
    match disp.panels[disp.current] {
        Some(n) => super::rasterize(ctx, &[Value::int(n as i64)]),
        None => rt_bail!("rasterize: the display shows nothing yet"),
    }
}
