//! A picture as `imshow` was handed it: the image's samples copied once, in their own
//! element type, with the display range. Taking one is the only work `imshow` does on
//! the program's thread (besides checking the image); turning it into 8-bit pixels
//! (scaled to the range, gray or RGB, downscaled for a page) is left to whoever shows
//! it: a figure's file when the program ends, the page's encoder on its own thread.
//! A snapshot is immutable and `Send`, so it is shared (`Arc`) rather than copied.

use super::preview::{fit, Preview};
use crate::array::Buffer;
use crate::{rt_bail, RtResult, Value};

/// How `imshow`'s second argument rescales: `Some((lo, hi))`, or `None` for `[]`
/// (the minimum and maximum of the image).
pub type Range = Option<(f64, f64)>;

/// The samples of an image, row by row, channels interleaved.
#[derive(Clone, Debug)]
enum Samples {
    U8(Vec<u8>),
    F32(Vec<f32>),
    F64(Vec<f64>),
}

/// An image of `height` × `width` pixels of `chans` channels (1, 3 or 4), with the
/// range `imshow` maps to 0..255 (`None`: the samples are 0..255 already).
#[derive(Clone, Debug)]
pub struct Snapshot {
    pub width: u32,
    pub height: u32,
    pub chans: usize,
    range: Option<Range>,
    samples: Samples,
}

impl Snapshot {
    /// Checks that `v` is an image (a real mat, or a cube of 1, 3 or 4 channels) and
    /// copies its samples; `name` is the builtin the errors name.
    pub fn take(name: &str, v: &Value, range: Option<Range>) -> RtResult<Snapshot> {
        let Value::Array(a) = v else {
            rt_bail!(
                "{name}: expected an image (mat or cube), got {}",
                v.kind_name()
            );
        };
        let a = a.borrow();
        if a.is_cell() || a.elem().is_complex() {
            rt_bail!(
                "{name}: expected a real image, got {}",
                if a.is_cell() {
                    "a cell array"
                } else {
                    "complex data"
                }
            );
        }
        let (h, w, c) = match a.dims.as_slice() {
            [n] => (1, *n, 1),
            [m, n] => (*m, *n, 1),
            [m, n, c] => (*m, *n, *c),
            _ => rt_bail!(
                "{name}: expected a mat or cube image, got rank {}",
                a.rank()
            ),
        };
        if !matches!(c, 1 | 3 | 4) {
            rt_bail!("{name}: an image needs 1, 3 or 4 channels, got {c}");
        }
        if h == 0 || w == 0 {
            rt_bail!("{name}: the image is empty ({h}x{w})");
        }
        let (width, height) = match (u32::try_from(w), u32::try_from(h)) {
            (Ok(w), Ok(h)) => (w, h),
            _ => rt_bail!("{name}: the image is too large ({h}x{w})"),
        };
        let samples = match &a.buf {
            Buffer::U8(v) => Samples::U8(v.clone()),
            Buffer::F32(v) => Samples::F32(v.clone()),
            Buffer::F64(v) => Samples::F64(v.clone()),
            _ => Samples::F64(a.to_f64_vec()),
        };
        Ok(Snapshot {
            width,
            height,
            chans: c,
            range,
            samples,
        })
    }

    /// The 8-bit pixels, `chans` channels interleaved: each sample mapped from the range
    /// to 0..255, rounded and clamped (NaN: 0).
    pub fn pixels(&self) -> Vec<u8> {
        let (lo, scale) = self.scale();
        let map = |x: f64| to_u8((x - lo) * scale);
        match &self.samples {
            Samples::U8(v) if self.range.is_none() => v.clone(),
            Samples::U8(v) => v.iter().map(|&x| map(x as f64)).collect(),
            Samples::F32(v) => v.iter().map(|&x| map(x as f64)).collect(),
            Samples::F64(v) => v.iter().map(|&x| map(x)).collect(),
        }
    }

    /// The same picture with its samples already 8-bit pixels (a quarter of the memory
    /// of `f32` samples): for pictures kept rather than shown once and replaced.
    pub fn into_8bit(self) -> Snapshot {
        let samples = Samples::U8(self.pixels());
        Snapshot {
            range: None,
            samples,
            ..self
        }
    }

    /// The picture for a page: 8-bit gray or RGB, averaged over square blocks so that
    /// its longer side is at most `max_side`, in one pass over the samples.
    pub fn preview(&self, max_side: u32) -> Preview {
        let (lo, scale) = self.scale();
        let (w, h, c) = (self.width, self.height, self.chans);
        match &self.samples {
            Samples::U8(v) if self.range.is_none() => fit(v, w, h, c, max_side, |x| x as f64),
            Samples::U8(v) => fit(v, w, h, c, max_side, |x| (x as f64 - lo) * scale),
            Samples::F32(v) => fit(v, w, h, c, max_side, |x| (x as f64 - lo) * scale),
            Samples::F64(v) => fit(v, w, h, c, max_side, |x| (x - lo) * scale),
        }
    }

    /// The offset and factor that map the range to 0..255.
    fn scale(&self) -> (f64, f64) {
        let Some(range) = self.range else {
            return (0.0, 1.0);
        };
        let (lo, hi) = range.unwrap_or_else(|| self.min_max());
        let span = hi - lo;
        let scale = if span != 0.0 && span.is_finite() {
            255.0 / span
        } else {
            0.0
        };
        (lo, scale)
    }

    /// The smallest and largest finite samples ((0, 0) when none is finite).
    fn min_max(&self) -> (f64, f64) {
        let fold = |it: &mut dyn Iterator<Item = f64>| {
            it.filter(|x| x.is_finite())
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
                    (lo.min(x), hi.max(x))
                })
        };
        let (lo, hi) = match &self.samples {
            Samples::U8(v) => fold(&mut v.iter().map(|&x| x as f64)),
            Samples::F32(v) => fold(&mut v.iter().map(|&x| x as f64)),
            Samples::F64(v) => fold(&mut v.iter().copied()),
        };
        if lo <= hi {
            (lo, hi)
        } else {
            (0.0, 0.0)
        }
    }
}

/// Rounds and clamps to 0..255; NaN becomes 0.
pub fn to_u8(x: f64) -> u8 {
    if x.is_nan() {
        0
    } else {
        x.round().clamp(0.0, 255.0) as u8
    }
}

/// Interleaved pixels of `chans` channels (1, 3 or 4) as RGB: gray repeated, alpha
/// dropped.
pub fn to_rgb(px: &[u8], chans: usize) -> Vec<u8> {
    match chans {
        1 => px.iter().flat_map(|&g| [g, g, g]).collect(),
        3 => px.to_vec(),
        _ => px
            .chunks_exact(4)
            .flat_map(|p| [p[0], p[1], p[2]])
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::array::Array;

    fn image(dims: Vec<usize>, vals: Vec<f32>) -> Value {
        Value::array(Array::new(dims, Buffer::F32(vals)))
    }

    #[test]
    fn a_range_maps_to_0_255_when_shown() {
        let v = image(vec![1, 3], vec![0.0, 0.5, 2.0]);
        let s = Snapshot::take("imshow", &v, Some(Some((0.0, 1.0)))).unwrap();
        assert_eq!(s.pixels(), vec![0, 128, 255]);
        let auto = Snapshot::take("imshow", &v, Some(None)).unwrap();
        assert_eq!(auto.pixels(), vec![0, 64, 255]);
        let plain = Snapshot::take("imshow", &v, None).unwrap();
        assert_eq!(plain.pixels(), vec![0, 1, 2]);
    }

    #[test]
    fn settled_pictures_keep_their_pixels() {
        let v = image(vec![1, 3], vec![0.0, 0.5, 2.0]);
        let s = Snapshot::take("imshow", &v, Some(Some((0.0, 1.0)))).unwrap();
        assert_eq!(s.into_8bit().pixels(), vec![0, 128, 255]);
    }

    #[test]
    fn the_snapshot_does_not_follow_later_writes() {
        let v = image(vec![1, 2], vec![10.0, 20.0]);
        let s = Snapshot::take("imshow", &v, None).unwrap();
        if let Value::Array(a) = &v {
            a.borrow_mut().buf = Buffer::F32(vec![99.0, 99.0]);
        }
        assert_eq!(s.pixels(), vec![10, 20]);
    }

    #[test]
    fn not_an_image_is_an_error_naming_the_shape() {
        let v = image(vec![2, 2, 2], vec![0.0; 8]);
        let e = Snapshot::take("imshow", &v, None).unwrap_err();
        assert!(
            e.message.contains("1, 3 or 4 channels, got 2"),
            "{}",
            e.message
        );
    }

    #[test]
    fn the_preview_at_full_size_is_the_figure_s_pixels() {
        let v = image(vec![2, 3], vec![0.0, 0.25, 0.5, 0.75, 1.0, f32::NAN]);
        let s = Snapshot::take("imshow", &v, Some(Some((0.0, 1.0)))).unwrap();
        let p = s.preview(1024);
        assert_eq!((p.width, p.height, p.chans), (3, 2, 1));
        assert_eq!(p.pixels, s.pixels());
        // Halved: the mapped samples of each block averaged, then rounded: (0 + 63.75 +
        // 191.25 + 255) / 4 and (127.5 + 0) / 2 (NaN is 0).
        let p = s.preview(2);
        assert_eq!((p.width, p.height), (2, 1));
        assert_eq!(p.pixels, vec![128, 64]);
    }
}
