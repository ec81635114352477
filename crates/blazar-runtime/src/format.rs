//! Text of values for `print`/`disp` (LANGUAGE.md §8) and C-style `printf` formatting.
//!
//! Reals print as integers when integral, otherwise as the shortest text that
//! round-trips at the program precision, in exponent form outside `[1e-4, 1e15)`.
//! Arrays print as nested bracket lists, one row per line for rank ≥ 2.

mod printf;

pub use printf::sprintf;

use crate::array::{Array, Buffer};
use crate::value::{IntTy, Prec, Value};
use num_complex::Complex64;

/// Deepest nesting of cells and objects that is printed in full.
const MAX_DEPTH: usize = 32;

/// Formats a real scalar at precision `prec`.
pub fn format_real(x: f64, prec: Prec) -> String {
    if x.is_nan() {
        return "NaN".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "Inf".into() } else { "-Inf".into() };
    }
    let a = x.abs();
    let expo = a >= 1e15 || (a > 0.0 && a < 1e-4);
    if x.fract() == 0.0 && !expo {
        return format!("{}", x as i64);
    }
    match (prec, expo) {
        (Prec::Single, false) => format!("{}", x as f32),
        (Prec::Single, true) => format!("{:e}", x as f32),
        (Prec::Double, false) => format!("{x}"),
        (Prec::Double, true) => format!("{x:e}"),
    }
}

/// Formats an integer of type `t` (u64 values are stored as their bit pattern).
pub fn format_int(v: i64, t: IntTy) -> String {
    if t == IntTy::U64 {
        format!("{}", v as u64)
    } else {
        format!("{v}")
    }
}

/// Formats a complex scalar as `re±|im|i`.
pub fn format_complex(z: Complex64, prec: Prec) -> String {
    let sign = if z.im < 0.0 { '-' } else { '+' };
    format!(
        "{}{}{}i",
        format_real(z.re, prec),
        sign,
        format_real(z.im.abs(), prec)
    )
}

/// Arrays of more elements than this print summarised (as NumPy's default threshold):
/// the first and last [`EDGE`] rows and columns (and so on along every dimension),
/// then the shape and type; `printfull` prints every element.
pub const SUMMARY_MIN: usize = 1000;

/// How many leading and trailing items of each dimension a summary shows.
pub const EDGE: usize = 3;

/// The text of a value as `print` shows it (a large array summarised).
pub fn format_value(v: &Value, prec: Prec) -> String {
    let mut s = String::new();
    write_value(&mut s, v, prec, 0, true);
    s
}

/// The text of a value with every element of every array (`printfull`).
pub fn format_value_full(v: &Value, prec: Prec) -> String {
    let mut s = String::new();
    write_value(&mut s, v, prec, 0, false);
    s
}

/// Writes the text of a value as `print` shows it to `out` in blocks, never holding the
/// whole text of a large array. A signal that asks the run to stop
/// (`crate::interrupt`) ends the writing with an error of kind `Interrupted`.
pub fn write_value_to(out: &mut dyn std::io::Write, v: &Value, prec: Prec) -> std::io::Result<()> {
    write_value_opts(out, v, prec, true)
}

/// [`write_value_to`] with every element of every array, however large (`printfull`).
pub fn write_value_full_to(
    out: &mut dyn std::io::Write,
    v: &Value,
    prec: Prec,
) -> std::io::Result<()> {
    write_value_opts(out, v, prec, false)
}

fn write_value_opts(
    out: &mut dyn std::io::Write,
    v: &Value,
    prec: Prec,
    summarise: bool,
) -> std::io::Result<()> {
    let mut sink = Stream {
        buf: String::new(),
        out,
        err: None,
    };
    write_value(&mut sink, v, prec, 0, summarise);
    sink.flush();
    sink.err.map_or(Ok(()), Err)
}

/// Where text goes: a `String`, or a [`Stream`] to a writer.
trait Sink {
    fn put(&mut self, s: &str);
}

impl Sink for String {
    fn put(&mut self, s: &str) {
        self.push_str(s);
    }
}

/// Text written out whenever 64 KiB have gathered; the first error stops it.
struct Stream<'a> {
    buf: String,
    out: &'a mut dyn std::io::Write,
    err: Option<std::io::Error>,
}

impl Stream<'_> {
    fn flush(&mut self) {
        if self.err.is_none() {
            if let Some(sig) = crate::interrupt::pending() {
                self.err = Some(std::io::Error::new(
                    std::io::ErrorKind::Interrupted,
                    crate::interrupt::message(sig),
                ));
            } else if let Err(e) = self.out.write_all(self.buf.as_bytes()) {
                self.err = Some(e);
            }
        }
        self.buf.clear();
    }
}

impl Sink for Stream<'_> {
    fn put(&mut self, s: &str) {
        if self.err.is_some() {
            return;
        }
        self.buf.push_str(s);
        if self.buf.len() >= 1 << 16 {
            self.flush();
        }
    }
}

fn write_value(s: &mut dyn Sink, v: &Value, prec: Prec, depth: usize, summarise: bool) {
    match v {
        Value::Real(x) => s.put(&format_real(*x, prec)),
        Value::Int(x, t) => s.put(&format_int(*x, *t)),
        Value::Complex(z) => s.put(&format_complex(*z, prec)),
        Value::Str(t) => s.put(t),
        Value::Func(_) => s.put("<function>"),
        Value::Array(a) => match a.try_borrow() {
            Ok(a) => write_array(s, &a, prec, depth, summarise),
            Err(_) => s.put("<array>"),
        },
        Value::Object(o) => {
            let Ok(o) = o.try_borrow() else {
                s.put("object{...}");
                return;
            };
            s.put(o.class.as_deref().unwrap_or("object"));
            if depth >= MAX_DEPTH {
                s.put("{...}");
                return;
            }
            s.put("{");
            for (i, (name, val)) in o.fields.iter().enumerate() {
                if i > 0 {
                    s.put(", ");
                }
                s.put(name);
                s.put("=");
                write_value(s, val, prec, depth + 1, summarise);
            }
            s.put("}");
        }
    }
}

/// Text of element `i` of a numeric buffer. F32/C32 data prints at single precision.
fn elem_text(buf: &Buffer, i: usize, prec: Prec) -> String {
    match buf {
        Buffer::F32(v) => format_real(v[i] as f64, Prec::Single),
        Buffer::F64(v) => format_real(v[i], prec),
        Buffer::C32(v) => {
            format_complex(Complex64::new(v[i].re as f64, v[i].im as f64), Prec::Single)
        }
        Buffer::C64(v) => format_complex(v[i], prec),
        other => match other.get_value(i) {
            Value::Int(x, t) => format_int(x, t),
            val => format_value(&val, prec),
        },
    }
}

fn write_array(s: &mut dyn Sink, a: &Array, prec: Prec, depth: usize, summarise: bool) {
    if let Buffer::Cell(items) = &a.buf {
        if depth >= MAX_DEPTH {
            s.put("{...}");
            return;
        }
        s.put("{");
        for (i, v) in items.iter().enumerate() {
            if i > 0 {
                s.put(", ");
            }
            write_value(s, v, prec, depth + 1, summarise);
        }
        s.put("}");
        return;
    }
    if a.is_empty() || a.dims.is_empty() {
        s.put(if a.is_empty() { "[]" } else { "[?]" });
        return;
    }
    if summarise && a.len() > SUMMARY_MIN {
        write_nd(s, a, &a.dims, 0, prec, 0, Some(EDGE));
        s.put(&format!(
            " ({} {}, summarised: printfull(x) prints every element)",
            shape_text(&a.dims),
            type_text(a)
        ));
        return;
    }
    write_nd(s, a, &a.dims, 0, prec, 0, None);
}

/// `300x300`, `1x1000` for a vector (a row, as `size` reports it).
fn shape_text(dims: &[usize]) -> String {
    let d: Vec<String> = dims.iter().map(usize::to_string).collect();
    match d.len() {
        1 => format!("1x{}", d[0]),
        _ => d.join("x"),
    }
}

/// `mat`, `vec[int]`, `cube[uint8]`, `cube{4}`: the array's type as Quasar names it.
fn type_text(a: &Array) -> String {
    let kind = match a.dims.len() {
        1 => "vec".to_string(),
        2 => "mat".to_string(),
        3 => "cube".to_string(),
        n => format!("cube{{{n}}}"),
    };
    let elem = a.elem();
    match elem.name() {
        "scalar" => kind,
        "cscalar" => format!("c{kind}"),
        e => format!("{kind}[{e}]"),
    }
}

/// The indices of a dimension of `len` to show: all, or (summarised, `None` standing
/// for the elided middle) the first and last `edge`.
fn shown(len: usize, edge: Option<usize>) -> Vec<Option<usize>> {
    match edge {
        Some(e) if len > 2 * e + 1 => (0..e)
            .map(Some)
            .chain(std::iter::once(None))
            .chain((len - e..len).map(Some))
            .collect(),
        _ => (0..len).map(Some).collect(),
    }
}

/// Text of the sub-array with dims `dims` starting at element `base`, `indent` levels
/// deep: rows of a rank ≥ 2 array on their own lines, indented two spaces a level.
/// `edge`: summarised, showing the first and last `edge` items of every dimension.
fn write_nd(
    s: &mut dyn Sink,
    a: &Array,
    dims: &[usize],
    base: usize,
    prec: Prec,
    indent: usize,
    edge: Option<usize>,
) {
    let n = a.len();
    if dims.len() <= 1 {
        let len = dims.first().copied().unwrap_or(1);
        s.put("[");
        for (j, i) in shown(len, edge).into_iter().enumerate() {
            if j > 0 {
                s.put(",");
            }
            match i {
                Some(i) if base + i < n => s.put(&elem_text(&a.buf, base + i, prec)),
                Some(_) => {}
                None => s.put("..."),
            }
        }
        s.put("]");
        return;
    }
    let inner: usize = dims[1..].iter().product();
    s.put("[ ");
    for (j, k) in shown(dims[0], edge).into_iter().enumerate() {
        if j > 0 {
            s.put(",\n");
            for _ in 0..=indent {
                s.put("  ");
            }
        }
        match k {
            Some(k) => write_nd(s, a, &dims[1..], base + k * inner, prec, indent + 1, edge),
            None => s.put("..."),
        }
    }
    s.put(" ]");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::array::ElemType;
    use crate::value::Object;
    use std::cell::RefCell;
    use std::rc::Rc;

    const S: Prec = Prec::Single;

    fn reals(dims: Vec<usize>, x: &[f64]) -> Value {
        Value::array(Array::from_reals(dims, x.to_vec(), S))
    }

    #[test]
    fn reals_print_shortest() {
        assert_eq!(format_real(3.0, S), "3");
        assert_eq!(format_real(-40.0, S), "-40");
        assert_eq!(format_real(3.5, S), "3.5");
        assert_eq!(format_real(0.1f32 as f64, S), "0.1");
        assert_eq!(format_real(0.1, Prec::Double), "0.1");
        assert_eq!(format_real(1e37f32 as f64, S), "1e37");
        assert_eq!(format_real(1.5e-5f32 as f64, S), "1.5e-5");
        assert_eq!(format_real(f64::NAN, S), "NaN");
        assert_eq!(format_real(f64::NEG_INFINITY, S), "-Inf");
        assert_eq!(format_real(-0.0, S), "0");
        assert_eq!(
            format_value(&Value::Int(-1, IntTy::U64), S),
            "18446744073709551615"
        );
    }

    #[test]
    fn complex_text() {
        let c = |re, im| format_value(&Value::Complex(Complex64::new(re, im)), S);
        assert_eq!(c(5.0, 5.0), "5+5i");
        assert_eq!(c(1.0, -2.0), "1-2i");
        assert_eq!(c(0.0, 1.0), "0+1i");
        assert_eq!(c(2.5, -0.5), "2.5-0.5i");
    }

    #[test]
    fn arrays() {
        assert_eq!(
            format_value(&reals(vec![3], &[1.0, 2.0, 3.0]), S),
            "[1,2,3]"
        );
        assert_eq!(format_value(&reals(vec![0], &[]), S), "[]");
        assert_eq!(
            format_value(&reals(vec![2, 2], &[2.0, 1.0, 1.0, 2.0]), S),
            "[ [2,1],\n  [1,2] ]"
        );
        assert_eq!(
            format_value(&reals(vec![2, 1], &[1.0, 2.0]), S),
            "[ [1],\n  [2] ]"
        );
        let cube = reals(vec![2, 2, 2], &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]);
        assert_eq!(
            format_value(&cube, S),
            "[ [ [1,2],\n    [3,4] ],\n  [ [5,6],\n    [7,8] ] ]"
        );
        let ints = Value::array(Array::from_ints(vec![2], vec![-1, 7]));
        assert_eq!(format_value(&ints, S), "[-1,7]");
        let c = Value::array(Array::zeros(vec![2], ElemType::C32));
        assert_eq!(format_value(&c, S), "[0+0i,0+0i]");
    }

    #[test]
    fn cells_objects_functions() {
        let cell = Value::array(Array::cell(
            vec![2],
            vec![Value::str("a"), reals(vec![2], &[1.0, 2.0])],
        ));
        assert_eq!(format_value(&cell, S), "{a, [1,2]}");
        let mut o = Object::default();
        o.set("a", Value::Real(1.0));
        o.set("b", reals(vec![2], &[1.0, 2.0]));
        let ov = Value::Object(Rc::new(RefCell::new(o)));
        assert_eq!(format_value(&ov, S), "object{a=1, b=[1,2]}");
        if let Value::Object(o) = &ov {
            o.borrow_mut().class = Some(Rc::from("Point"));
        }
        assert_eq!(format_value(&ov, S), "Point{a=1, b=[1,2]}");
    }
}
