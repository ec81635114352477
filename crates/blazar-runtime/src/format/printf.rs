//! C-style `printf` formatting: `%d %i %u %f %F %e %E %g %G %s %c %x %X %o %%` with the
//! flags `- + 0 space #`, width and precision (`*` takes them from the arguments).
//!
//! Escapes `\n \t \r \\ \" \'` in the format are interpreted. Too few arguments is an
//! error; extra arguments recycle the format (as MATLAB does), stopping at the first
//! conversion that has no argument left. Non-scalar arguments print as `print` shows
//! them, and `%d` of a non-integral real prints the shortest real text.

use super::{format_real, format_value};
use crate::value::{IntTy, Prec, Value};
use crate::{rt_bail, RtResult};

#[derive(Clone, Copy, Debug, PartialEq)]
enum Count {
    Num(usize),
    Star,
}

#[derive(Clone, Debug, Default)]
struct Spec {
    minus: bool,
    plus: bool,
    space: bool,
    zero: bool,
    alt: bool,
    width: Option<Count>,
    precision: Option<Count>,
    conv: char,
}

enum Tok {
    Lit(String),
    Conv(Spec),
}

fn escape(c: char) -> Option<char> {
    Some(match c {
        'n' => '\n',
        't' => '\t',
        'r' => '\r',
        '\\' => '\\',
        '"' => '"',
        '\'' => '\'',
        'a' => '\x07',
        '0' => '\0',
        _ => return None,
    })
}

fn parse(fmt: &str) -> Vec<Tok> {
    let chars: Vec<char> = fmt.chars().collect();
    let mut toks = Vec::new();
    let mut lit = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '\\' && i + 1 < chars.len() {
            match escape(chars[i + 1]) {
                Some(e) => lit.push(e),
                None => {
                    lit.push('\\');
                    lit.push(chars[i + 1]);
                }
            }
            i += 2;
            continue;
        }
        if c != '%' {
            lit.push(c);
            i += 1;
            continue;
        }
        if chars.get(i + 1) == Some(&'%') {
            lit.push('%');
            i += 2;
            continue;
        }
        let start = i;
        i += 1;
        let mut spec = Spec::default();
        while let Some(&f) = chars.get(i) {
            match f {
                '-' => spec.minus = true,
                '+' => spec.plus = true,
                ' ' => spec.space = true,
                '0' => spec.zero = true,
                '#' => spec.alt = true,
                _ => break,
            }
            i += 1;
        }
        let count = |i: &mut usize| -> Option<Count> {
            if chars.get(*i) == Some(&'*') {
                *i += 1;
                return Some(Count::Star);
            }
            let s = *i;
            while chars.get(*i).is_some_and(|c| c.is_ascii_digit()) {
                *i += 1;
            }
            let digits: String = chars[s..*i].iter().collect();
            (*i > s).then(|| Count::Num(digits.parse().unwrap_or(usize::MAX).min(10_000)))
        };
        spec.width = count(&mut i);
        if chars.get(i) == Some(&'.') {
            i += 1;
            spec.precision = Some(count(&mut i).unwrap_or(Count::Num(0)));
        }
        while chars.get(i).is_some_and(|c| "hlLqjzt".contains(*c)) {
            i += 1;
        }
        match chars.get(i) {
            Some(&c) if "diufFeEgGscxXo".contains(c) => {
                spec.conv = c;
                i += 1;
                if !lit.is_empty() {
                    toks.push(Tok::Lit(std::mem::take(&mut lit)));
                }
                toks.push(Tok::Conv(spec));
            }
            _ => {
                // Not a conversion: keep the text as written.
                let end = (i + 1).min(chars.len());
                lit.extend(&chars[start..end]);
                i = end;
            }
        }
    }
    if !lit.is_empty() {
        toks.push(Tok::Lit(lit));
    }
    toks
}

/// Formats `args` with the C-style format `fmt`.
pub fn sprintf(fmt: &str, args: &[Value], prec: Prec) -> RtResult<String> {
    let toks = parse(fmt);
    let mut args: Vec<Value> = args.to_vec();
    let mut out = String::new();
    let mut next = 0usize;
    let mut first = true;
    loop {
        let before = next;
        for tok in &toks {
            match tok {
                Tok::Lit(s) => out.push_str(s),
                Tok::Conv(spec) => {
                    let mut spec = spec.clone();
                    let needed = 1
                        + usize::from(spec.width == Some(Count::Star))
                        + usize::from(spec.precision == Some(Count::Star));
                    if next + needed > args.len() {
                        if first {
                            rt_bail!("printf: not enough arguments for format");
                        }
                        return Ok(out);
                    }
                    if spec.width == Some(Count::Star) {
                        let w = args[next].as_f64().unwrap_or(0.0);
                        next += 1;
                        spec.minus |= w < 0.0;
                        spec.width = Some(Count::Num((w.abs() as usize).min(10_000)));
                    }
                    if spec.precision == Some(Count::Star) {
                        let p = args[next].as_f64().unwrap_or(-1.0);
                        next += 1;
                        spec.precision = (p >= 0.0).then(|| Count::Num((p as usize).min(10_000)));
                    }
                    if spec.conv != 's' {
                        expand(&mut args, next);
                        if next >= args.len() {
                            if first {
                                rt_bail!("printf: not enough arguments for format");
                            }
                            return Ok(out);
                        }
                    }
                    out.push_str(&convert(&spec, &args[next], prec));
                    next += 1;
                }
            }
        }
        first = false;
        if next >= args.len() || next == before {
            return Ok(out);
        }
    }
}

/// Replaces a numeric array at `args[i]` by its elements (none for an empty array).
fn expand(args: &mut Vec<Value>, i: usize) {
    while let Some(Value::Array(r)) = args.get(i) {
        let elems: Vec<Value> = match r.try_borrow() {
            Ok(a) if !a.is_cell() => (0..a.len()).map(|k| a.get_value(k)).collect(),
            _ => return,
        };
        args.splice(i..=i, elems);
    }
}

fn num(c: Option<Count>) -> Option<usize> {
    match c {
        Some(Count::Num(n)) => Some(n),
        _ => None,
    }
}

/// Pads `prefix + body` to the width; zeros go between prefix and body.
fn pad(spec: &Spec, prefix: &str, body: &str, zero_ok: bool) -> String {
    let len = prefix.chars().count() + body.chars().count();
    let width = num(spec.width).unwrap_or(0);
    if width <= len {
        return format!("{prefix}{body}");
    }
    let fill = width - len;
    if spec.minus {
        format!("{prefix}{body}{}", " ".repeat(fill))
    } else if spec.zero && zero_ok {
        format!("{prefix}{}{body}", "0".repeat(fill))
    } else {
        format!("{}{prefix}{body}", " ".repeat(fill))
    }
}

fn sign(spec: &Spec, negative: bool) -> &'static str {
    if negative {
        "-"
    } else if spec.plus {
        "+"
    } else if spec.space {
        " "
    } else {
        ""
    }
}

/// The integer value of a scalar argument, if it has one.
fn int_arg(v: &Value) -> Option<i128> {
    match v {
        Value::Int(x, IntTy::U64) => Some(*x as u64 as i128),
        Value::Int(x, _) => Some(*x as i128),
        Value::Real(x) if x.fract() == 0.0 && x.abs() < 1.8e19 => Some(*x as i128),
        _ => None,
    }
}

fn convert(spec: &Spec, v: &Value, prec: Prec) -> String {
    let text = |v: &Value| -> String {
        let mut s = format_value(v, prec);
        if let Some(p) = num(spec.precision) {
            if matches!(v, Value::Str(_)) {
                s = s.chars().take(p).collect();
            }
        }
        s
    };
    match spec.conv {
        's' => pad(spec, "", &text(v), false),
        'c' => match v {
            Value::Str(s) => pad(spec, "", s, false),
            _ => match v.as_f64().and_then(|x| char::from_u32(x as u32)) {
                Some(c) => pad(spec, "", &c.to_string(), false),
                None => pad(spec, "", &text(v), false),
            },
        },
        'd' | 'i' | 'u' | 'x' | 'X' | 'o' => match int_arg(v) {
            Some(n) => int_conv(spec, n),
            None => match v {
                Value::Real(x) => float_conv(
                    &Spec {
                        conv: 'r',
                        ..spec.clone()
                    },
                    *x,
                    prec,
                ),
                _ => pad(spec, "", &text(v), false),
            },
        },
        _ => match v {
            Value::Real(_) | Value::Int(..) => float_conv(spec, v.as_f64().unwrap_or(0.0), prec),
            _ => pad(spec, "", &text(v), false),
        },
    }
}

fn int_conv(spec: &Spec, n: i128) -> String {
    let (prefix, digits) = match spec.conv {
        'x' | 'X' | 'o' => {
            let bits = if n < 0 && n >= i32::MIN as i128 {
                n as u32 as u128
            } else {
                n as u64 as u128
            };
            let d = match spec.conv {
                'x' => format!("{bits:x}"),
                'X' => format!("{bits:X}"),
                _ => format!("{bits:o}"),
            };
            let p = match (spec.alt, spec.conv) {
                (true, 'x') if bits != 0 => "0x",
                (true, 'X') if bits != 0 => "0X",
                (true, 'o') => "0",
                _ => "",
            };
            (p, d)
        }
        _ => (sign(spec, n < 0), n.unsigned_abs().to_string()),
    };
    let mut digits = digits;
    if let Some(p) = num(spec.precision) {
        if digits.len() < p {
            digits = format!("{}{digits}", "0".repeat(p - digits.len()));
        }
    }
    pad(spec, prefix, &digits, spec.precision.is_none())
}

/// `%f`, `%e`, `%g` (and `'r'`: the shortest real text, for `%d` of a fraction).
fn float_conv(spec: &Spec, x: f64, prec: Prec) -> String {
    let s = sign(
        spec,
        x < 0.0 || (x == 0.0 && x.is_sign_negative() && spec.conv != 'r'),
    );
    let a = x.abs();
    if !a.is_finite() {
        let body = if a.is_nan() { "NaN" } else { "Inf" };
        let s = if x.is_nan() { sign(spec, false) } else { s };
        return pad(spec, s, body, false);
    }
    let p = num(spec.precision);
    let body = match spec.conv {
        'f' | 'F' => fixed(a, p.unwrap_or(6), spec.alt),
        'e' | 'E' => exp(a, p.unwrap_or(6), spec.conv == 'E', spec.alt),
        'g' | 'G' => general(a, p.unwrap_or(6), spec.conv == 'G', spec.alt),
        _ => format_real(a, prec),
    };
    pad(spec, s, &body, true)
}

fn fixed(a: f64, p: usize, alt: bool) -> String {
    let mut s = format!("{a:.p$}");
    if alt && p == 0 {
        s.push('.');
    }
    s
}

/// Mantissa text and decimal exponent of `a` with `p` fraction digits.
fn exp_parts(a: f64, p: usize) -> (String, i32) {
    let s = format!("{a:.p$e}");
    match s.split_once('e') {
        Some((m, e)) => (m.to_string(), e.parse().unwrap_or(0)),
        None => (s, 0),
    }
}

fn exp(a: f64, p: usize, upper: bool, alt: bool) -> String {
    let (mut m, e) = exp_parts(a, p);
    if alt && p == 0 {
        m.push('.');
    }
    let sign = if e < 0 { '-' } else { '+' };
    format!(
        "{m}{}{sign}{:02}",
        if upper { 'E' } else { 'e' },
        e.unsigned_abs()
    )
}

fn strip_zeros(s: &str) -> String {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s.to_string()
    }
}

fn general(a: f64, p: usize, upper: bool, alt: bool) -> String {
    let p = p.max(1);
    let x = if a == 0.0 { 0 } else { exp_parts(a, p - 1).1 };
    if (x as i64) < p as i64 && x >= -4 {
        let f = fixed(a, (p as i64 - 1 - x as i64) as usize, alt);
        if alt {
            f
        } else {
            strip_zeros(&f)
        }
    } else {
        let e = exp(a, p - 1, upper, alt);
        if alt {
            return e;
        }
        match e.find(['e', 'E']) {
            Some(k) => format!("{}{}", strip_zeros(&e[..k]), &e[k..]),
            None => e,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::array::Array;

    fn f(fmt: &str, args: &[Value]) -> String {
        sprintf(fmt, args, Prec::Single).unwrap()
    }

    #[test]
    fn basic_conversions() {
        assert_eq!(f("%d apples\\n", &[Value::int(3)]), "3 apples\n");
        assert_eq!(
            f(
                "%5d|%-5d|%05d",
                &[Value::int(42), Value::int(42), Value::int(-42)]
            ),
            "   42|42   |-0042"
        );
        assert_eq!(f("%+d % d", &[Value::int(5), Value::int(5)]), "+5  5");
        assert_eq!(f("%.3f", &[Value::Real(1.23456)]), "1.235");
        assert_eq!(f("%8.2f|", &[Value::Real(-2.5)]), "   -2.50|");
        assert_eq!(f("%e", &[Value::Real(12345.678)]), "1.234568e+04");
        assert_eq!(f("%.2E", &[Value::Real(0.000123)]), "1.23E-04");
        assert_eq!(
            f(
                "%g %g %g",
                &[
                    Value::Real(0.0001),
                    Value::Real(1e-5),
                    Value::Real(123456789.0)
                ]
            ),
            "0.0001 1e-05 1.23457e+08"
        );
        assert_eq!(f("%g", &[Value::Real(3.5)]), "3.5");
        assert_eq!(
            f(
                "%x %X %o %#x",
                &[
                    Value::int(255),
                    Value::int(255),
                    Value::int(8),
                    Value::int(255)
                ]
            ),
            "ff FF 10 0xff"
        );
        assert_eq!(f("%s=%c%%", &[Value::str("x"), Value::int(65)]), "x=A%");
        assert_eq!(f("%.2s", &[Value::str("hello")]), "he");
        assert_eq!(f("%*d", &[Value::int(4), Value::int(7)]), "   7");
        assert_eq!(f("%d", &[Value::Real(3.5)]), "3.5");
        assert_eq!(f("%f", &[Value::Real(f64::INFINITY)]), "Inf");
        assert_eq!(
            f("%u", &[Value::Int(-1, IntTy::U64)]),
            "18446744073709551615"
        );
    }

    #[test]
    fn non_scalars_and_cycling() {
        let v = Value::array(Array::from_reals(vec![2], vec![1.0, 2.0], Prec::Single));
        assert_eq!(f("v=%s", &[v.clone()]), "v=[1,2]");
        assert_eq!(f("v=%d;", &[v.clone()]), "v=1;v=2;");
        assert_eq!(f("%g %s|", &[v]), "1 2|");
        assert_eq!(
            f("%d,", &[Value::int(1), Value::int(2), Value::int(3)]),
            "1,2,3,"
        );
        assert_eq!(
            f("%d %d;", &[Value::int(1), Value::int(2), Value::int(3)]),
            "1 2;3 "
        );
        assert_eq!(f("plain", &[Value::int(1)]), "plain");
        let e = sprintf("%d %d", &[Value::int(1)], Prec::Single).unwrap_err();
        assert_eq!(e.message, "printf: not enough arguments for format");
        assert_eq!(f("50%", &[]), "50%");
        assert_eq!(f("%q", &[]), "%q");
    }
}
