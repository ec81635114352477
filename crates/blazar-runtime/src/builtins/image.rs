//! Image files: `imread` and `imwrite`, and the pixels `imshow` shows (`figure.rs`).
//!
//! Images are cubes `[M, N, C]` in row-major `[row, column, channel]` layout with values
//! 0..255: `C = 3` for colour (alpha is dropped on reading), `C = 1` for grayscale.
//! 16-bit images are scaled to 0..255 (`v * 255 / 65535`, not rounded, so no precision
//! is lost) and float images from 0..1 to 0..255. `imread(path, "raw")` keeps the
//! stored samples and their type instead, as MATLAB's `imread` does: a `cube[uint8]`
//! for 8-bit files, a `cube[uint16]` (0..65535) for 16-bit ones, a `cube` of the stored
//! floats for float files. Writing rounds and clamps to 0..255
//! (NaN becomes 0), except that a `uint16` array is written as a 16-bit PNG or TIFF
//! with its values as they are; the format comes from the extension: `.png`,
//! `.jpg`/`.jpeg`, `.tif`/`.tiff`.

use super::io::{path_arg, resolve_path};
use super::{Builtin, Ctx};
use crate::array::{Array, Buffer};
use crate::ui::{to_rgb, Snapshot};
use crate::{rt_bail, RtError, RtResult, Value};
use image::{ColorType, DynamicImage, ExtendedColorType, ImageFormat, ImageReader};
use std::path::Path;

use super::math::bi;

pub(super) static TABLE: &[Builtin] = &[
    bi("imread", imread, 1, 2).doc(
        "imread(file) · imread(file, \"gray\")",
        "An image file (PNG, JPEG, BMP, TIFF, ...) as rows × columns × channels of scalars from 0 to 255 (a gray image has one channel).",
        "imwrite(\"g.png\", [[0, 255], [128, 64]])\nimg = imread(\"g.png\")\nprint size(img), \" \", img[1, 0, 0]",
        "[2,2,1] 128",
    ),
    bi("imwrite", imwrite, 2, 2).doc(
        "imwrite(file, x)",
        "Writes x (rows × columns, or × 3 channels, values 0 to 255, clamped) as an image file; the extension picks the format.",
        "imwrite(\"w.png\", ones(2, 3, 3) * 200)\nprint size(imread(\"w.png\"))",
        "[2,3,3]",
    ),
];

fn imread(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let name = path_arg("imread", &args[0])?;
    let raw = match args.get(1) {
        None => false,
        Some(Value::Str(s)) if &**s == "raw" => true,
        Some(_) => rt_bail!("imread: the second argument must be \"raw\""),
    };
    let path = resolve_path(ctx, &name);
    let img = decode(&path).map_err(|e| {
        RtError::new(format!(
            "imread: cannot read '{name}': {}",
            printable(&e.to_string())
        ))
    })?;
    if raw {
        return Ok(Value::array(image_as_stored(&img, ctx)));
    }
    Ok(Value::array(image_to_array(&img, ctx)))
}

/// A decoded image as a cube `[height, width, C]` of its stored samples: `uint8` or
/// `uint16` for integer formats, reals for float ones (`imread(path, "raw")`).
fn image_as_stored(img: &DynamicImage, ctx: &Ctx) -> Array {
    let (w, h) = (img.width() as usize, img.height() as usize);
    let color = img.color();
    let chans = if color.has_color() { 3 } else { 1 };
    let dims = vec![h, w, chans];
    let bytes = color.bytes_per_pixel() / color.channel_count();
    match (bytes, chans) {
        (1, 1) => Array::new(dims, Buffer::U8(img.to_luma8().into_raw())),
        (1, _) => Array::new(dims, Buffer::U8(img.to_rgb8().into_raw())),
        (2, 1) => Array::new(dims, Buffer::U16(img.to_luma16().into_raw())),
        (2, _) => Array::new(dims, Buffer::U16(img.to_rgb16().into_raw())),
        (_, 1) => {
            let v = img.to_luma32f().into_raw();
            Array::from_reals(dims, v.into_iter().map(f64::from).collect(), ctx.prec)
        }
        _ => {
            let v = img.to_rgb32f().into_raw();
            Array::from_reals(dims, v.into_iter().map(f64::from).collect(), ctx.prec)
        }
    }
}

fn decode(path: &Path) -> Result<DynamicImage, String> {
    let reader = ImageReader::open(path).map_err(|e| e.to_string())?;
    let reader = reader.with_guessed_format().map_err(|e| e.to_string())?;
    reader.decode().map_err(|e| e.to_string())
}

/// Converts a decoded image to a cube `[height, width, C]` of reals 0..255.
fn image_to_array(img: &DynamicImage, ctx: &Ctx) -> Array {
    let (w, h) = (img.width() as usize, img.height() as usize);
    let color = img.color();
    let chans = if color.has_color() { 3 } else { 1 };
    let data: Vec<f64> = match (color, chans) {
        (ColorType::L8 | ColorType::La8, 1) => img
            .to_luma8()
            .into_raw()
            .into_iter()
            .map(f64::from)
            .collect(),
        (ColorType::Rgb8 | ColorType::Rgba8, 3) => img
            .to_rgb8()
            .into_raw()
            .into_iter()
            .map(f64::from)
            .collect(),
        (ColorType::L16 | ColorType::La16, 1) => scale16(img.to_luma16().into_raw()),
        (ColorType::Rgb16 | ColorType::Rgba16, 3) => scale16(img.to_rgb16().into_raw()),
        (_, 1) => img
            .to_luma32f()
            .into_raw()
            .into_iter()
            .map(|v| v as f64 * 255.0)
            .collect(),
        _ => img
            .to_rgb32f()
            .into_raw()
            .into_iter()
            .map(|v| v as f64 * 255.0)
            .collect(),
    };
    Array::from_reals(vec![h, w, chans], data, ctx.prec)
}

fn scale16(v: Vec<u16>) -> Vec<f64> {
    v.into_iter().map(|x| x as f64 * 255.0 / 65535.0).collect()
}

fn imwrite(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let name = path_arg("imwrite", &args[0])?;
    let path = resolve_path(ctx, &name);
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    let format = match ext.as_str() {
        "png" => ImageFormat::Png,
        "jpg" | "jpeg" => ImageFormat::Jpeg,
        "tif" | "tiff" => ImageFormat::Tiff,
        _ => rt_bail!("imwrite: unknown image format of '{name}' (use .png, .jpg or .tif)"),
    };
    if let Some(wide) = Wide::from_value(&args[1])? {
        if format == ImageFormat::Jpeg {
            rt_bail!("imwrite: JPEG has no 16-bit form (write '{name}' as .png or .tif)");
        }
        return wide
            .save(&path, format)
            .map(|()| Value::Real(0.0))
            .map_err(|e| RtError::new(format!("imwrite: cannot write '{name}': {e}")));
    }
    let px = Pixels::from_value("imwrite", &args[1], None)?;
    px.save(&path, format)
        .map_err(|e| RtError::new(format!("imwrite: cannot write '{name}': {e}")))?;
    Ok(Value::Real(0.0))
}

pub(super) use crate::ui::Range;

pub(super) fn display_range(v: &Value) -> RtResult<Range> {
    if let Value::Array(a) = v {
        let a = a.borrow();
        if !a.is_cell() && !a.elem().is_complex() {
            match a.len() {
                0 => return Ok(None),
                2 => return Ok(Some((a.get_f64(0), a.get_f64(1)))),
                _ => {}
            }
        }
    }
    rt_bail!(
        "imshow: the display range must be [] or [lo, hi], got {}",
        v.kind_name()
    )
}

/// 8-bit pixels ready to encode, interleaved by channel.
pub(super) struct Pixels {
    pub(super) width: u32,
    pub(super) height: u32,
    pub(super) chans: usize,
    pub(super) data: Vec<u8>,
}

impl Pixels {
    /// Converts a mat `[M, N]` or a cube `[M, N, C]` (C = 1, 3, 4) to 8-bit pixels,
    /// rescaling `range` to 0..255 first when given (`Some(None)` meaning min..max).
    pub(super) fn from_value(name: &str, v: &Value, range: Option<Range>) -> RtResult<Pixels> {
        Ok(Pixels::from_snapshot(&Snapshot::take(name, v, range)?))
    }

    /// The 8-bit pixels of an image `imshow` took.
    pub(super) fn from_snapshot(s: &Snapshot) -> Pixels {
        Pixels {
            width: s.width,
            height: s.height,
            chans: s.chans,
            data: s.pixels(),
        }
    }

    /// The pixels as interleaved RGB: gray repeated, alpha dropped.
    pub(super) fn rgb(&self) -> Vec<u8> {
        to_rgb(&self.data, self.chans)
    }

    pub(super) fn save(&self, path: &Path, format: ImageFormat) -> Result<(), String> {
        let mut data = self.data.clone();
        let mut color = match self.chans {
            1 => ExtendedColorType::L8,
            3 => ExtendedColorType::Rgb8,
            _ => ExtendedColorType::Rgba8,
        };
        if format == ImageFormat::Jpeg && self.chans == 4 {
            // JPEG has no alpha channel: drop it.
            data = data
                .chunks_exact(4)
                .flat_map(|p| [p[0], p[1], p[2]])
                .collect();
            color = ExtendedColorType::Rgb8;
        }
        image::save_buffer_with_format(path, &data, self.width, self.height, color, format)
            .map_err(|e| e.to_string())
    }
}

/// 16-bit pixels: a `uint16` mat or cube (1, 3 or 4 channels) is written as a 16-bit
/// PNG or TIFF with its values unchanged.
struct Wide {
    width: u32,
    height: u32,
    chans: usize,
    data: Vec<u16>,
}

impl Wide {
    fn from_value(v: &Value) -> RtResult<Option<Wide>> {
        let Value::Array(a) = v else { return Ok(None) };
        let a = a.borrow();
        let Buffer::U16(data) = &a.buf else {
            return Ok(None);
        };
        let (h, w, c) = match a.dims.as_slice() {
            [n] => (1, *n, 1),
            [m, n] => (*m, *n, 1),
            [m, n, c @ (1 | 3 | 4)] => (*m, *n, *c),
            dims => {
                rt_bail!("imwrite: expected a mat or a cube of 1, 3 or 4 channels, got {dims:?}")
            }
        };
        if h == 0 || w == 0 {
            rt_bail!("imwrite: the image is empty ({h}x{w})");
        }
        let (Ok(width), Ok(height)) = (u32::try_from(w), u32::try_from(h)) else {
            rt_bail!("imwrite: the image is too large ({h}x{w})");
        };
        Ok(Some(Wide {
            width,
            height,
            chans: c,
            data: data.clone(),
        }))
    }

    fn save(&self, path: &Path, format: ImageFormat) -> Result<(), String> {
        let color = match self.chans {
            1 => ExtendedColorType::L16,
            3 => ExtendedColorType::Rgb16,
            _ => ExtendedColorType::Rgba16,
        };
        // The encoders take 16-bit samples as native-endian bytes.
        let bytes: Vec<u8> = self.data.iter().flat_map(|v| v.to_ne_bytes()).collect();
        image::save_buffer_with_format(path, &bytes, self.width, self.height, color, format)
            .map_err(|e| e.to_string())
    }
}

/// A decoder's message with the bytes of a corrupt file it may quote (chunk names,
/// markers) shown as `\u{..}` escapes instead of raw control or non-ASCII characters.
fn printable(m: &str) -> String {
    m.chars()
        .map(|c| {
            if c.is_ascii_graphic() || c == ' ' {
                c.to_string()
            } else {
                c.escape_unicode().to_string()
            }
        })
        .collect()
}

#[cfg(test)]
#[path = "image_tests.rs"]
mod tests;
