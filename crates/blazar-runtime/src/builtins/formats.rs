//! High-dynamic-range and stack files: `exrread` / `exrwrite` (OpenEXR, through the
//! `image` crate) and `tiffread` (every page of a multi-page TIFF, through `tiff`).
//!
//! Unlike `imread`, these keep the stored values: EXR pixels are floats (1.0 is
//! nominal white), TIFF pages give their integers or floats as they are (a 16-bit
//! page holds 0..65535).

use super::io::{path_arg, resolve_path};
use super::{Builtin, Ctx};
use crate::array::Array;
use crate::value::Object;
use crate::{rt_bail, RtError, RtResult, Value};
use image::{ExtendedColorType, ImageFormat, ImageReader};
use std::cell::RefCell;
use std::rc::Rc;
use tiff::decoder::{Decoder, DecodingResult};

use super::math::bi;

pub(super) static TABLE: &[Builtin] = &[
    bi("exrread", exrread, 1, 1).doc(
        "exrread(file)",
        "An OpenEXR image as an object with `data` (rows × columns × 3 floats, × 4 with alpha; 1.0 is nominal white, values unchanged), `width` and `height`.",
        "exrwrite(\"a.exr\", ones(2, 3, 3) * 0.5)\ne = exrread(\"a.exr\")\nprint size(e.data), \" \", e.width, \" \", e.height, \" \", max(e.data)",
        "[2,3,3] 3 2 0.5",
    ),
    bi("exrwrite", exrwrite, 2, 2).doc(
        "exrwrite(file, x)",
        "Writes a mat (gray, stored in all three channels) or a rows × columns × 3 (or × 4) cube as a 32-bit float OpenEXR file, values unchanged.",
        "exrwrite(\"b.exr\", zeros(4, 4))\nprint size(exrread(\"b.exr\").data)",
        "[4,4,3]",
    ),
    bi("tiffread", tiffread, 1, 2).doc(
        "tiffread(file) · tiffread(file, n) · tiffread(file, [p0, p1, ...])",
        "The pages of a (multi-page) TIFF as an object with `slices` (a cell of one mat per page, a cube for a colour page), `count`, `width` and `height`; values as stored (a 16-bit page holds 0..65535).",
        "imwrite(\"t.tif\", ones(2, 3) * 255)\nt = tiffread(\"t.tif\")\nprint t.count, \" \", t.width, \" \", t.height",
        "1 3 2",
    ),
];

fn object(fields: Vec<(&str, Value)>) -> Value {
    let fields = fields.into_iter().map(|(n, v)| (Rc::from(n), v)).collect();
    Value::Object(Rc::new(RefCell::new(Object {
        class: None,
        fields,
    })))
}

/// `exrread(path)`: an object with `data` (an M x N x 3 cube of the stored floats, or
/// M x N x 4 when the file has alpha), `width` (N) and `height` (M).
fn exrread(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let name = path_arg("exrread", &args[0])?;
    let path = resolve_path(ctx, &name);
    let img = ImageReader::open(&path)
        .map_err(|e| e.to_string())
        .and_then(|mut r| {
            r.set_format(ImageFormat::OpenExr);
            r.decode().map_err(|e| e.to_string())
        })
        .map_err(|e| RtError::new(format!("exrread: cannot read '{name}': {e}")))?;
    let (w, h) = (img.width() as usize, img.height() as usize);
    let (chans, data): (usize, Vec<f32>) = if img.color().has_alpha() {
        (4, img.to_rgba32f().into_raw())
    } else {
        (3, img.to_rgb32f().into_raw())
    };
    let data = data.into_iter().map(f64::from).collect();
    Ok(object(vec![
        (
            "data",
            Value::array(Array::from_reals(vec![h, w, chans], data, ctx.prec)),
        ),
        ("width", Value::int(w as i64)),
        ("height", Value::int(h as i64)),
    ]))
}

/// `exrwrite(path, x)`: writes a mat (gray, stored in all three channels) or an
/// M x N x 3 / M x N x 4 cube as 32-bit float RGB / RGBA, values unchanged.
fn exrwrite(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let name = path_arg("exrwrite", &args[0])?;
    let path = resolve_path(ctx, &name);
    let Value::Array(a) = &args[1] else {
        rt_bail!(
            "exrwrite: expected a mat or cube, got {}",
            args[1].kind_name()
        );
    };
    let a = a.borrow();
    if a.is_cell() || a.elem().is_complex() {
        rt_bail!("exrwrite: expected real data, got {}", args[1].kind_name());
    }
    let (h, w, c) = match a.dims.as_slice() {
        [n] => (1, *n, 1),
        [m, n] => (*m, *n, 1),
        [m, n, c @ (3 | 4)] => (*m, *n, *c),
        dims => rt_bail!("exrwrite: expected a mat or an M x N x 3 or 4 cube, got {dims:?}"),
    };
    let (Ok(wu), Ok(hu)) = (u32::try_from(w), u32::try_from(h)) else {
        rt_bail!("exrwrite: the image is too large ({h}x{w})");
    };
    if w == 0 || h == 0 {
        rt_bail!("exrwrite: the image is empty ({h}x{w})");
    }
    let vals = a.to_f64_vec();
    let floats: Vec<f32> = if c == 1 {
        vals.iter().flat_map(|&v| [v as f32; 3]).collect()
    } else {
        vals.iter().map(|&v| v as f32).collect()
    };
    let color = if c == 4 {
        ExtendedColorType::Rgba32F
    } else {
        ExtendedColorType::Rgb32F
    };
    let bytes: Vec<u8> = floats.iter().flat_map(|v| v.to_ne_bytes()).collect();
    image::save_buffer_with_format(&path, &bytes, wu, hu, color, ImageFormat::OpenExr)
        .map_err(|e| RtError::new(format!("exrwrite: cannot write '{name}': {e}")))?;
    Ok(Value::Real(0.0))
}

/// Which pages `tiffread`'s second argument asks for: `n` (the first n) or a vector of
/// 0-based page numbers; `None` for every page.
fn pages_arg(v: Option<&Value>) -> RtResult<Option<Vec<usize>>> {
    let Some(v) = v else { return Ok(None) };
    let bad = || {
        RtError::new(format!(
            "tiffread: slices must be a count or a vector of page numbers, got {}",
            v.kind_name()
        ))
    };
    let page = |x: f64| -> RtResult<usize> {
        if x >= 0.0 && x.fract() == 0.0 && x < 1e9 {
            Ok(x as usize)
        } else {
            Err(bad())
        }
    };
    match v {
        Value::Array(a) => {
            let a = a.borrow();
            if a.is_cell() || a.elem().is_complex() {
                return Err(bad());
            }
            a.to_f64_vec()
                .into_iter()
                .map(page)
                .collect::<RtResult<_>>()
                .map(Some)
        }
        v => match v.as_f64() {
            Some(n) => Ok(Some((0..page(n)?).collect())),
            None => Err(bad()),
        },
    }
}

/// One decoded page as a mat (one sample per pixel) or an M x N x C cube.
fn page_value(d: &mut Decoder<std::fs::File>, ctx: &Ctx) -> Result<Value, String> {
    let (w, h) = d.dimensions().map_err(|e| e.to_string())?;
    let (w, h) = (w as usize, h as usize);
    let data: Vec<f64> = match d.read_image().map_err(|e| e.to_string())? {
        DecodingResult::U8(v) => v.into_iter().map(f64::from).collect(),
        DecodingResult::U16(v) => v.into_iter().map(f64::from).collect(),
        DecodingResult::U32(v) => v.into_iter().map(f64::from).collect(),
        DecodingResult::U64(v) => v.into_iter().map(|x| x as f64).collect(),
        DecodingResult::I8(v) => v.into_iter().map(f64::from).collect(),
        DecodingResult::I16(v) => v.into_iter().map(f64::from).collect(),
        DecodingResult::I32(v) => v.into_iter().map(f64::from).collect(),
        DecodingResult::I64(v) => v.into_iter().map(|x| x as f64).collect(),
        DecodingResult::F16(v) => v.into_iter().map(f64::from).collect(),
        DecodingResult::F32(v) => v.into_iter().map(f64::from).collect(),
        DecodingResult::F64(v) => v,
    };
    let c = data.len().checked_div(w * h).unwrap_or(1);
    if c * w * h != data.len() {
        return Err(format!("a {w}x{h} page holds {} samples", data.len()));
    }
    let dims = if c == 1 { vec![h, w] } else { vec![h, w, c] };
    Ok(Value::array(Array::from_reals(dims, data, ctx.prec)))
}

/// `tiffread(path)`, `tiffread(path, n)`, `tiffread(path, [p0, p1, ...])`: the pages of
/// a (multi-page) TIFF as an object with `slices` (a cell of one mat per page, or an
/// M x N x C cube for a colour page), `count` (how many were read), `width` and
/// `height` (of the first one).
fn tiffread(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let name = path_arg("tiffread", &args[0])?;
    let path = resolve_path(ctx, &name);
    let wanted = pages_arg(args.get(1))?;
    let fail = |e: String| RtError::new(format!("tiffread: cannot read '{name}': {e}"));
    let file = std::fs::File::open(&path).map_err(|e| fail(e.to_string()))?;
    let mut d = Decoder::new(file).map_err(|e| fail(e.to_string()))?;
    let mut all = Vec::new();
    let last = wanted.as_ref().map(|w| w.iter().copied().max());
    loop {
        let k = all.len();
        let keep = match &last {
            None => true,
            Some(Some(m)) => k <= *m,
            Some(None) => false,
        };
        if !keep {
            break;
        }
        all.push(page_value(&mut d, ctx).map_err(|e| fail(format!("page {k}: {e}")))?);
        if !d.more_images() {
            break;
        }
        d.next_image().map_err(|e| fail(e.to_string()))?;
    }
    let slices: Vec<Value> = match wanted {
        None => all,
        Some(w) => w
            .iter()
            .map(|&p| {
                all.get(p).cloned().ok_or_else(|| {
                    RtError::new(format!(
                        "tiffread: '{name}' has {} pages, asked for page {p}",
                        all.len()
                    ))
                })
            })
            .collect::<RtResult<_>>()?,
    };
    let (h, w) = match slices.first() {
        Some(Value::Array(a)) => {
            let a = a.borrow();
            (a.dims[0], a.dims[1])
        }
        _ => (0, 0),
    };
    let count = slices.len();
    Ok(object(vec![
        ("slices", Value::array(Array::cell(vec![count], slices))),
        ("count", Value::int(count as i64)),
        ("width", Value::int(w as i64)),
        ("height", Value::int(h as i64)),
    ]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtins::testing::ctx;
    use crate::Prec;

    fn temp(ext: &str) -> String {
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        let name = format!("blazar_fmt_{}_{t}.{ext}", std::process::id());
        std::env::temp_dir().join(name).display().to_string()
    }

    fn field(o: &Value, name: &str) -> Value {
        match o {
            Value::Object(o) => o.borrow().get(name).cloned().unwrap(),
            _ => panic!("not an object"),
        }
    }

    fn reals(v: &Value) -> (Vec<usize>, Vec<f64>) {
        match v {
            Value::Array(a) => {
                let a = a.borrow();
                (a.dims.clone(), a.to_f64_vec())
            }
            _ => panic!("not an array"),
        }
    }

    #[test]
    fn exr_round_trips_floats_and_gray() {
        let mut c = ctx(Prec::Single);
        let path = temp("exr");
        let vals = vec![
            0.0,
            0.5,
            1.0,
            2.5,
            -0.25,
            1.0 / 1024.0,
            7.0,
            0.125,
            3.0,
            0.0,
            0.0,
            16.0,
        ];
        let x = Value::array(Array::from_reals(vec![2, 2, 3], vals.clone(), Prec::Single));
        exrwrite(&mut c, &[Value::str(&path), x]).unwrap();
        let o = exrread(&mut c, &[Value::str(&path)]).unwrap();
        assert_eq!(field(&o, "width").as_f64(), Some(2.0));
        assert_eq!(field(&o, "height").as_f64(), Some(2.0));
        assert_eq!(reals(&field(&o, "data")), (vec![2, 2, 3], vals));
        let g = Value::array(Array::from_reals(vec![1, 2], vec![0.25, 4.0], Prec::Single));
        exrwrite(&mut c, &[Value::str(&path), g]).unwrap();
        let o = exrread(&mut c, &[Value::str(&path)]).unwrap();
        assert_eq!(
            reals(&field(&o, "data")),
            (vec![1, 2, 3], vec![0.25, 0.25, 0.25, 4.0, 4.0, 4.0])
        );
        let _ = std::fs::remove_file(&path);
        assert!(exrread(&mut c, &[Value::str("no_such_blazar.exr")]).is_err());
        let two = Value::array(Array::from_reals(vec![1, 1, 2], vec![0.0; 2], Prec::Single));
        assert!(exrwrite(&mut c, &[Value::str(&path), two]).is_err());
    }

    #[test]
    fn tiff_pages_by_count_and_number() {
        let mut c = ctx(Prec::Single);
        let path = temp("tif");
        // Two 8-bit pages written with the tiff crate's encoder.
        {
            let f = std::fs::File::create(&path).unwrap();
            let mut enc = tiff::encoder::TiffEncoder::new(f).unwrap();
            enc.write_image::<tiff::encoder::colortype::Gray8>(3, 1, &[1, 2, 3])
                .unwrap();
            enc.write_image::<tiff::encoder::colortype::Gray8>(3, 1, &[4, 5, 6])
                .unwrap();
        }
        let all = tiffread(&mut c, &[Value::str(&path)]).unwrap();
        assert_eq!(field(&all, "count").as_f64(), Some(2.0));
        assert_eq!(field(&all, "width").as_f64(), Some(3.0));
        let one = tiffread(&mut c, &[Value::str(&path), Value::int(1)]).unwrap();
        assert_eq!(field(&one, "count").as_f64(), Some(1.0));
        let pick = Value::array(Array::from_ints(vec![1], vec![1]));
        let second = tiffread(&mut c, &[Value::str(&path), pick]).unwrap();
        let Value::Array(cell) = field(&second, "slices") else {
            panic!()
        };
        let page = cell.borrow().get_value(0);
        assert_eq!(reals(&page).1, vec![4.0, 5.0, 6.0]);
        assert!(tiffread(&mut c, &[Value::str(&path), Value::int(3)]).is_err());
        assert!(tiffread(&mut c, &[Value::str(&path), Value::Real(-1.0)]).is_err());
        let _ = std::fs::remove_file(&path);
    }
}
