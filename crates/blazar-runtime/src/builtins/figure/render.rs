//! Drawing and writing figures: line plots through `plotters` (a bitmap for PNG files
//! and `rasterize`, an SVG), image figures as PNGs of their pixels.
//!
//! Text is drawn with DejaVu Sans cut down to ASCII (`fonts/`, through plotters'
//! `ab_glyph` feature), so no system font or fontconfig is needed; characters outside
//! the subset are left out of the picture (the SVG keeps them as text).

use super::super::image::Pixels;
use super::{Kind, Plot};
use image::{ExtendedColorType, ImageFormat};
use plotters::prelude::*;
use std::path::Path;
use std::sync::Once;

/// Width and height of a plot's picture, in pixels.
pub(super) const SIZE: (u32, u32) = (640, 480);

const FONT: &[u8] = include_bytes!("../../../fonts/DejaVuSans-subset.ttf");

/// Series colours in order (MATLAB's first seven line colours), used when a series
/// names none.
const ORDER: [RGBColor; 7] = [
    RGBColor(0, 114, 189),
    RGBColor(217, 83, 25),
    RGBColor(237, 177, 32),
    RGBColor(126, 47, 142),
    RGBColor(119, 172, 48),
    RGBColor(77, 190, 238),
    RGBColor(162, 20, 47),
];

fn letter_color(c: char) -> RGBColor {
    match c {
        'b' => RGBColor(0, 0, 255),
        'g' => RGBColor(0, 160, 0),
        'r' => RGBColor(255, 0, 0),
        'c' => RGBColor(0, 191, 191),
        'm' => RGBColor(191, 0, 191),
        'y' => RGBColor(191, 191, 0),
        _ => RGBColor(0, 0, 0),
    }
}

fn register_font() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // The font is part of the binary and parses; a failure would only lose text.
        let _ = plotters::style::register_font("sans-serif", FontStyle::Normal, FONT);
    });
}

/// `_<title>` for a file name: letters, digits, `-` and `_` kept, other runs as one
/// `_`, at most 40 characters; empty for no title.
pub(super) fn title_suffix(title: &str) -> String {
    let mut s = String::new();
    for c in title.chars() {
        if c.is_ascii_alphanumeric() || c == '-' {
            s.push(c);
        } else if !s.ends_with('_') {
            s.push('_');
        }
    }
    let s: String = s.trim_matches('_').chars().take(40).collect();
    if s.is_empty() {
        s
    } else {
        format!("_{s}")
    }
}

/// The smallest and largest finite values, widened when they coincide or are absent.
fn span<'a>(vals: impl Iterator<Item = &'a f64>, pad: f64) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for &v in vals.filter(|v| v.is_finite()) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if lo > hi {
        return (0.0, 1.0);
    }
    if lo == hi {
        return (lo - 1.0, hi + 1.0);
    }
    let d = (hi - lo) * pad;
    (lo - d, hi + d)
}

/// Draws a plot on any plotters backend.
fn draw<DB: DrawingBackend>(
    area: DrawingArea<DB, plotters::coord::Shift>,
    p: &Plot,
    title: &str,
) -> Result<(), String> {
    register_font();
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    area.fill(&WHITE).map_err(err)?;
    let (x0, x1) = span(p.series.iter().flat_map(|s| s.x.iter()), 0.0);
    let (y0, y1) = span(p.series.iter().flat_map(|s| s.y.iter()), 0.05);
    let mut chart = ChartBuilder::on(&area)
        .caption(title, ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(56)
        .build_cartesian_2d(x0..x1, y0..y1)
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc(p.xlabel.as_str())
        .y_desc(p.ylabel.as_str())
        .label_style(("sans-serif", 13))
        .draw()
        .map_err(err)?;
    for (i, s) in p.series.iter().enumerate() {
        let color = s.color.map_or(ORDER[i % ORDER.len()], letter_color);
        // A non-finite value breaks the line, as MATLAB leaves a gap.
        let mut runs: Vec<Vec<(f64, f64)>> = vec![Vec::new()];
        for (&x, &y) in s.x.iter().zip(&s.y) {
            if x.is_finite() && y.is_finite() {
                runs.last_mut().expect("never empty").push((x, y));
            } else if !runs.last().expect("never empty").is_empty() {
                runs.push(Vec::new());
            }
        }
        let style = ShapeStyle::from(&color).stroke_width(2);
        for (k, run) in runs.into_iter().enumerate() {
            let series = chart
                .draw_series(LineSeries::new(run, style))
                .map_err(err)?;
            if k == 0 {
                if let Some(name) = p.legend.get(i) {
                    series
                        .label(name.as_str())
                        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], style));
                }
            }
        }
    }
    if !p.legend.is_empty() {
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .label_font(("sans-serif", 13))
            .draw()
            .map_err(err)?;
    }
    area.present().map_err(err)
}

/// A plot as interleaved RGB pixels of [`SIZE`].
pub(super) fn bitmap(p: &Plot, title: &str) -> Result<Vec<u8>, String> {
    let (w, h) = SIZE;
    let mut buf = vec![255u8; (w * h * 3) as usize];
    draw(
        BitMapBackend::with_buffer(&mut buf, SIZE).into_drawing_area(),
        p,
        title,
    )?;
    Ok(buf)
}

fn svg(p: &Plot, title: &str) -> Result<String, String> {
    let mut text = String::new();
    draw(
        SVGBackend::with_string(&mut text, SIZE).into_drawing_area(),
        p,
        title,
    )?;
    Ok(text)
}

/// Writes a figure as `<stem>.png` (and `<stem>.svg` for a plot) in `dir`; returns
/// the file names written.
pub(super) fn write(
    kind: &Kind,
    title: &str,
    dir: &Path,
    stem: &str,
) -> Result<Vec<String>, String> {
    let png = format!("{stem}.png");
    let cannot = |name: &str, e: &dyn std::fmt::Display| {
        format!("cannot write '{}': {e}", dir.join(name).display())
    };
    match kind {
        Kind::Image(shot) => {
            Pixels::from_snapshot(shot)
                .save(&dir.join(&png), ImageFormat::Png)
                .map_err(|e| cannot(&png, &e))?;
            Ok(vec![png])
        }
        Kind::Plot(p) => {
            let (w, h) = SIZE;
            let rgb = bitmap(p, title)?;
            image::save_buffer_with_format(
                dir.join(&png),
                &rgb,
                w,
                h,
                ExtendedColorType::Rgb8,
                ImageFormat::Png,
            )
            .map_err(|e| cannot(&png, &e))?;
            let name = format!("{stem}.svg");
            std::fs::write(dir.join(&name), svg(p, title)?).map_err(|e| cannot(&name, &e))?;
            Ok(vec![png, name])
        }
    }
}
