//! `hdr_imshow`: the frame an HDR display would show, kept as floats and written as an
//! OpenEXR file when the run ends; and the tone-mapped 8-bit preview of such a frame.
//!
//! Published programs call `hdr_imshow(x, [lo, hi])` once per frame of a video loop,
//! on a display that shows one frame at a time (a SIM2 or similar HDR monitor, through
//! the `Sim2HDR.dll` plugin). Blazar drives no HDR monitor (a documented limit): the
//! newest frame is kept, and written as `<program>_hdr.exr` next to the program (or
//! into `--figures DIR`) when the program ends, listed on the output as figures are.
//! Writing at the end, not at each call, keeps a video loop as fast as it is with a
//! display.

use super::super::{Builtin, Ctx};
use crate::array::{Array, Buffer};
use crate::value::Object;
use crate::{rt_bail, RtError, RtResult, Value};
use image::{ExtendedColorType, ImageFormat};
use std::cell::RefCell;
use std::io::Write as _;
use std::rc::Rc;

use super::super::math::bi;

pub(in crate::builtins) static TABLE: &[Builtin] = &[bi("hdr_imshow", hdr_imshow, 1, 2).doc(
    "hdr_imshow(x) · hdr_imshow(x, [lo, hi])",
    "Shows x (rows × columns, or × 3 channels of linear light) on the HDR display: [lo, hi] maps lo to black and hi to the display's peak (1.0 in the file), `[]` maps the minimum and maximum, no range keeps the values. Blazar drives no HDR monitor: the newest frame is written as `<program>_hdr.exr` (32-bit float OpenEXR) next to the program, or into `--figures DIR`, when the program ends. Returns an object with `file`, `width` and `height`.",
    "h = hdr_imshow(ones(2, 4, 3) * 3000, [0, 6000])\nprint h.file, \" \", h.width, \"x\", h.height",
    "example_hdr.exr 4x2\nhdr display: wrote example_hdr.exr",
)];

/// The newest frame shown with `hdr_imshow`, as interleaved RGB floats.
pub(super) struct HdrFrame {
    pub width: usize,
    pub height: usize,
    pub rgb: Vec<f32>,
    /// Frames shown so far.
    pub shown: usize,
}

/// An image as interleaved RGB floats, `[lo, hi]` mapped to 0..1 when a range is given
/// (`Some(None)`: the image's finite minimum and maximum).
pub(super) fn rgb_floats(
    who: &str,
    v: &Value,
    range: Option<Option<(f64, f64)>>,
) -> RtResult<(usize, usize, Vec<f32>)> {
    let Value::Array(a) = v else {
        rt_bail!(
            "{who}: expected an image (mat or cube), got {}",
            v.kind_name()
        );
    };
    let a = a.borrow();
    if a.is_cell() || a.elem().is_complex() {
        rt_bail!("{who}: expected a real image, got {}", v.kind_name());
    }
    let (h, w, c) = match a.dims() {
        [n] => (1, *n, 1),
        [m, n] => (*m, *n, 1),
        [m, n, c @ (1 | 3 | 4)] => (*m, *n, *c),
        dims => rt_bail!("{who}: expected a mat or an M x N x 3 cube, got size {dims:?}"),
    };
    if h == 0 || w == 0 {
        rt_bail!("{who}: the image is empty ({h}x{w})");
    }
    let vals = a.to_f64_vec();
    let (lo, scale) = match range {
        None => (0.0, 1.0),
        Some(r) => {
            let (lo, hi) = r.unwrap_or_else(|| {
                let fin = vals.iter().copied().filter(|x| x.is_finite());
                let lo = fin.clone().fold(f64::INFINITY, f64::min);
                let hi = fin.fold(f64::NEG_INFINITY, f64::max);
                if lo <= hi {
                    (lo, hi)
                } else {
                    (0.0, 1.0)
                }
            });
            let span = hi - lo;
            (
                lo,
                if span > 0.0 && span.is_finite() {
                    1.0 / span
                } else {
                    0.0
                },
            )
        }
    };
    let f = |x: f64| ((x - lo) * scale) as f32;
    let rgb = match c {
        1 => vals.iter().flat_map(|&g| [f(g); 3]).collect(),
        3 => vals.iter().map(|&x| f(x)).collect(),
        _ => vals
            .chunks_exact(4)
            .flat_map(|p| [f(p[0]), f(p[1]), f(p[2])])
            .collect(),
    };
    Ok((h, w, rgb))
}

/// `[lo, hi]` or `[]` (the image's own range).
fn range_arg(v: &Value) -> RtResult<Option<(f64, f64)>> {
    if let Value::Array(a) = v {
        let a = a.borrow();
        if !a.is_cell() && !a.elem().is_complex() {
            match a.len() {
                0 => return Ok(None),
                2 => {
                    let (lo, hi) = (a.get_f64(0), a.get_f64(1));
                    if !(lo < hi) {
                        rt_bail!("hdr_imshow: the display range [{lo}, {hi}] needs lo < hi");
                    }
                    return Ok(Some((lo, hi)));
                }
                _ => {}
            }
        }
    }
    rt_bail!(
        "hdr_imshow: the display range must be [] or [lo, hi], got {}",
        v.kind_name()
    )
}

/// The file `hdr_imshow` writes, as listed (a bare name unless `--figures DIR`).
fn file_name(ctx: &Ctx) -> (std::path::PathBuf, String) {
    let name = format!("{}_hdr.exr", ctx.program_stem);
    match &ctx.figures.dir {
        Some(d) => (d.join(&name), d.join(&name).display().to_string()),
        None => (ctx.base_dir.join(&name), name),
    }
}

fn hdr_imshow(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let range = match args.get(1) {
        None => None,
        Some(v) => Some(range_arg(v)?),
    };
    let (h, w, rgb) = rgb_floats("hdr_imshow", &args[0], range)?;
    let shown = ctx.video.hdr.as_ref().map_or(0, |f| f.shown) + 1;
    ctx.video.hdr = Some(HdrFrame {
        width: w,
        height: h,
        rgb,
        shown,
    });
    let (_, shown_name) = file_name(ctx);
    let fields = vec![
        (Rc::from("file"), Value::str(&shown_name)),
        (Rc::from("width"), Value::int(w as i64)),
        (Rc::from("height"), Value::int(h as i64)),
    ];
    Ok(Value::Object(Rc::new(RefCell::new(Object {
        class: None,
        fields,
    }))))
}

/// Writes the newest `hdr_imshow` frame, if any, and lists it on the output.
pub(super) fn finish(ctx: &mut Ctx) -> RtResult<()> {
    let Some(f) = ctx.video.hdr.take() else {
        return Ok(());
    };
    let (path, shown) = file_name(ctx);
    let bytes: Vec<u8> = f.rgb.iter().flat_map(|v| v.to_ne_bytes()).collect();
    image::save_buffer_with_format(
        &path,
        &bytes,
        f.width as u32,
        f.height as u32,
        ExtendedColorType::Rgb32F,
        ImageFormat::OpenExr,
    )
    .map_err(|e| RtError::new(format!("hdr_imshow: cannot write '{shown}': {e}")))?;
    writeln!(ctx.out, "hdr display: wrote {shown}")
        .map_err(|e| RtError::new(format!("hdr_imshow: cannot print: {e}")))
}

/// A preview of an HDR image for an ordinary (8-bit sRGB) display: `[lo, hi]` mapped
/// to 0..1 as `hdr_imshow` maps it (`Some(None)`: the image's own range; `None`: the
/// values as they are), then Reinhard's global operator `L / (1 + L)` at key 0.18 of
/// the log-average luminance, then the sRGB curve. Returns an M x N x 3 `cube[uint8]`.
/// The form displays call it to show what `hdr_imshow` shows.
pub fn tone_map(img: &Value, range: Option<Option<(f64, f64)>>) -> RtResult<Array> {
    let (h, w, rgb) = rgb_floats("hdr_imshow", img, range)?;
    Ok(Array::new(vec![h, w, 3], Buffer::U8(tone_map_rgb(&rgb))))
}

fn tone_map_rgb(rgb: &[f32]) -> Vec<u8> {
    let lum = |p: &[f32]| 0.2126 * p[0] as f64 + 0.7152 * p[1] as f64 + 0.0722 * p[2] as f64;
    let n = rgb.len() / 3;
    let log_sum: f64 = rgb
        .chunks_exact(3)
        .map(|p| {
            let l = lum(p);
            if l.is_finite() {
                (1e-6 + l.max(0.0)).ln()
            } else {
                0.0
            }
        })
        .sum();
    let avg = (log_sum / n.max(1) as f64).exp();
    let exposure = 0.18 / avg;
    let srgb = |v: f64| {
        let v = if v.is_nan() { 0.0 } else { v.clamp(0.0, 1.0) };
        let e = if v <= 0.003_130_8 {
            12.92 * v
        } else {
            1.055 * v.powf(1.0 / 2.4) - 0.055
        };
        (e * 255.0).round() as u8
    };
    rgb.iter()
        .map(|&x| {
            let x = x as f64 * exposure;
            srgb(x.max(0.0) / (1.0 + x.max(0.0)))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tone_mapping_is_monotone_and_bounded() {
        let img = Array::from_reals(vec![1, 4], vec![0.0, 0.5, 2.0, 1e6], crate::Prec::Double);
        let px = tone_map(&Value::array(img), Some(Some((0.0, 2.0)))).unwrap();
        let Buffer::U8(v) = &px.buf else {
            panic!("a uint8 cube")
        };
        assert_eq!(px.dims, vec![1, 4, 3]);
        assert_eq!(v[0], 0);
        assert!(v[0] < v[3] && v[3] < v[6] && v[6] < v[9], "{v:?}");
        assert!(v[9] >= 250);
    }

    #[test]
    fn the_range_maps_to_the_unit_interval() {
        let img = Array::from_reals(vec![2], vec![1000.0, 3000.0], crate::Prec::Double);
        let (h, w, rgb) = rgb_floats("t", &Value::array(img), Some(Some((0.0, 4000.0)))).unwrap();
        assert_eq!((h, w), (1, 2));
        assert_eq!(rgb, vec![0.25, 0.25, 0.25, 0.75, 0.75, 0.75]);
    }
}
