//! Text builtins: `strcat strcmp sprintf printf fprintf disp num2str mat2str warning`,
//! and `isfield`.
//!
//! Numbers are turned into text as `print` shows them ([`format_value`]); formats use
//! the C-style conversions of [`crate::format::sprintf`].

use super::math::bi;
use super::{Builtin, Ctx};
use crate::format::{format_value, sprintf as format_printf};
use crate::value::{Prec, Value};
use crate::Text;
use crate::{rt_bail, RtError, RtResult};
use std::io::Write;

fn write_out(ctx: &mut Ctx, name: &str, text: &str) -> RtResult<()> {
    ctx.out
        .write_all(text.as_bytes())
        .map_err(|e| RtError::new(format!("{name}: cannot write output: {e}")))
}

/// `strcat(a, b, ...)`: joins strings; other values are formatted as `print` does.
/// The result's length is checked first (`alloc::reserve_string`): doubling a string
/// in a loop ends in a located "out of memory" error, not an abort.
fn strcat(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let mut out = String::new();
    strcat_onto(&mut out, args, ctx.prec)?;
    Ok(Value::Str(Text::from(out)))
}

/// Appends what `strcat` makes of `args` to `out` (`strcat(out, args...)` is `out`
/// afterwards), after the same length check: the interpreter's `s = strcat(s, ...)`
/// grows a string no other value shares in place with it.
pub fn strcat_onto(out: &mut String, args: &[Value], prec: Prec) -> RtResult<()> {
    // Values other than strings, formatted (no allocation when there are none).
    let formatted: Vec<String> = args
        .iter()
        .filter(|a| !matches!(a, Value::Str(_)))
        .map(|a| format_value(a, prec))
        .collect();
    let piece = |a: &'_ Value, f: &mut std::slice::Iter<'_, String>| -> usize {
        match a {
            Value::Str(t) => t.len(),
            _ => f.next().map_or(0, String::len),
        }
    };
    let mut f = formatted.iter();
    let len = args
        .iter()
        .try_fold(out.len(), |n, a| n.checked_add(piece(a, &mut f)));
    crate::alloc::reserve_string("strcat", len)?;
    let len = len.unwrap_or(0);
    if out.try_reserve(len - out.len()).is_err() {
        rt_bail!(
            "strcat: out of memory: cannot allocate {:.1} GB",
            len as f64 / 1e9
        );
    }
    let mut f = formatted.iter();
    for a in args {
        match a {
            Value::Str(t) => out.push_str(t),
            _ => out.push_str(f.next().map_or("", String::as_str)),
        }
    }
    Ok(())
}

fn format_arg<'a>(name: &str, args: &'a [Value]) -> RtResult<&'a str> {
    match &args[0] {
        Value::Str(s) => Ok(s),
        other => rt_bail!(
            "{name}: the format must be a string, got {}",
            other.kind_name()
        ),
    }
}

fn with_name(name: &str, e: RtError) -> RtError {
    match e.message.strip_prefix("printf: ") {
        Some(rest) => RtError::new(format!("{name}: {rest}")),
        None => e,
    }
}

/// `sprintf(fmt, args...)`: the formatted text.
fn sprintf(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let fmt = format_arg("sprintf", args)?;
    let s = format_printf(fmt, &args[1..], ctx.prec).map_err(|e| with_name("sprintf", e))?;
    Ok(Value::str(&s))
}

/// `printf(fmt, args...)`: writes the formatted text to the program output.
fn printf(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let fmt = format_arg("printf", args)?;
    let s = format_printf(fmt, &args[1..], ctx.prec)?;
    write_out(ctx, "printf", &s)?;
    Ok(Value::Real(0.0))
}

/// `disp(x)`: writes `x` as `print` shows it, then a newline.
fn disp(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let mut s = format_value(&args[0], ctx.prec);
    s.push('\n');
    write_out(ctx, "disp", &s)?;
    Ok(Value::Real(0.0))
}

/// `num2str(x)`: the text `print` shows for `x` (every element, however large).
fn num2str(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    Ok(Value::str(&crate::format::format_value_full(
        &args[0], ctx.prec,
    )))
}

/// `printfull(a, b, ...)`: as the `print` statement, with every element of a large
/// array instead of a summary.
fn printfull(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let fail = |e: std::io::Error| crate::RtError::new(format!("printfull: cannot print: {e}"));
    for a in args {
        crate::format::write_value_full_to(&mut ctx.out, a, ctx.prec).map_err(fail)?;
    }
    ctx.out.write_all(b"\n").map_err(fail)?;
    Ok(Value::Real(0.0))
}

/// `strcmp(a, b)`: 1 when a and b are both strings with the same characters, else 0
/// (a number or an array is never equal to a string, as MATLAB).
fn strcmp(_ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    Ok(Value::int(match (&args[0], &args[1]) {
        (Value::Str(a), Value::Str(b)) => i64::from(a == b),
        _ => 0,
    }))
}

/// `fprintf(fmt, args...)`, `fprintf(fid, fmt, args...)`: `printf` with MATLAB's call
/// shapes; fid 1 is the program output, 2 the error stream.
fn fprintf(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let (to_err, rest) = match &args[0] {
        Value::Str(_) => (false, args),
        v => match v.as_i64() {
            Some(1) => (false, &args[1..]),
            Some(2) => (true, &args[1..]),
            _ => rt_bail!(
                "fprintf: the first argument must be a format or the file id 1 (output) or 2 (errors), got {}",
                crate::format::format_value(v, ctx.prec)
            ),
        },
    };
    if rest.is_empty() {
        rt_bail!("fprintf: expected a format");
    }
    let fmt = format_arg("fprintf", rest)?;
    let s = format_printf(fmt, &rest[1..], ctx.prec).map_err(|e| with_name("fprintf", e))?;
    if to_err {
        eprint!("{s}");
    } else {
        write_out(ctx, "fprintf", &s)?;
    }
    Ok(Value::Real(0.0))
}

/// One number as MATLAB's `mat2str` writes it: up to `digits` significant digits,
/// `Inf`, `-Inf`, `NaN`.
fn mat2str_num(x: f64, digits: usize) -> String {
    if x.is_nan() {
        return "NaN".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "Inf" } else { "-Inf" }.into();
    }
    let v = Value::Real(x);
    format_printf(&format!("%.{digits}g"), &[v], crate::value::Prec::Double).unwrap_or_default()
}

/// `mat2str(A)`, `mat2str(A, n)`: the text of a number, vector or matrix in MATLAB's
/// bracket syntax (`[1 2;3 4]`), each element with up to n (default 15) significant
/// digits; a vec is one row.
fn mat2str(_ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let digits = match args.get(1) {
        None => 15,
        Some(v) => match v.as_i64() {
            Some(n) if (1..=17).contains(&n) => n as usize,
            _ => rt_bail!("mat2str: the precision must be an integer from 1 to 17"),
        },
    };
    let num = |v: &Value| -> RtResult<String> {
        match v {
            Value::Int(x, t) => Ok(if *t == crate::value::IntTy::U64 {
                (*x as u64).to_string()
            } else {
                x.to_string()
            }),
            Value::Real(x) => Ok(mat2str_num(*x, digits)),
            Value::Complex(z) => {
                let im = mat2str_num(z.im, digits);
                let sep = if im.starts_with('-') { "" } else { "+" };
                Ok(format!("{}{sep}{im}i", mat2str_num(z.re, digits)))
            }
            other => rt_bail!(
                "mat2str: expected a number or a numeric vector or matrix, got {}",
                other.kind_name()
            ),
        }
    };
    match &args[0] {
        Value::Array(r) => {
            let a = r
                .try_borrow()
                .map_err(|_| RtError::new("mat2str: array is being modified"))?;
            if a.is_cell() {
                rt_bail!("mat2str: expected a numeric vector or matrix, got a cell");
            }
            let size = a.size();
            if size.len() > 2 {
                let dims: Vec<String> = size.iter().map(|d| d.to_string()).collect();
                rt_bail!(
                    "mat2str: expected a vector or a matrix, got an array of size [{}]",
                    dims.join(",")
                );
            }
            let (m, n) = (size[0], size[1]);
            if m * n == 1 {
                return Ok(Value::str(&num(&a.get_value(0))?));
            }
            let mut rows = Vec::with_capacity(m);
            for i in 0..m {
                let row: RtResult<Vec<String>> =
                    (0..n).map(|j| num(&a.get_value(i * n + j))).collect();
                rows.push(row?.join(" "));
            }
            Ok(Value::str(&format!("[{}]", rows.join(";"))))
        }
        v => Ok(Value::str(&num(v)?)),
    }
}

/// `warning(fmt, args...)`: writes `Warning: ` and the formatted message to the error
/// stream; the program goes on.
fn warning(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let fmt = format_arg("warning", args)?;
    let s = format_printf(fmt, &args[1..], ctx.prec).map_err(|e| with_name("warning", e))?;
    eprintln!("Warning: {s}");
    Ok(Value::Real(0.0))
}

/// `isfield(obj, name)`: 1 when the object has a field of that name, else 0 (0 for a
/// value that is not an object).
fn isfield(_ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let Value::Str(name) = &args[1] else {
        rt_bail!(
            "isfield: the field name must be a string, got {}",
            args[1].kind_name()
        );
    };
    Ok(Value::int(match &args[0] {
        Value::Object(o) => i64::from(o.borrow().get(name).is_some()),
        _ => 0,
    }))
}

pub(super) static TABLE: &[Builtin] = &[
    bi("strcmp", strcmp, 2, 2).doc(
        "strcmp(a, b)",
        "1 when a and b are both strings with the same characters, else 0 (a number or an array is never equal to a string, as in MATLAB).",
        "print strcmp(\"abc\", \"abc\"), \" \", strcmp(\"abc\", \"abd\"), \" \", strcmp(\"1\", 1)",
        "1 0 0",
    ),
    bi("fprintf", fprintf, 1, usize::MAX).doc(
        "fprintf(format, args...) · fprintf(fid, format, args...)",
        "`printf` with MATLAB's call shapes: fid 1 is the program output, 2 the error stream. A numeric array given to a numeric conversion gives its elements one by one, the format repeating as MATLAB's does.",
        "fprintf(\"%d-\", [1, 2, 3])\nfprintf(1, \"\\n%s\\n\", \"done\")",
        "1-2-3-\ndone",
    ),
    bi("mat2str", mat2str, 1, 2).doc(
        "mat2str(A) · mat2str(A, n)",
        "The text of a number, vector or matrix in MATLAB's bracket syntax (`[1 2;3 4]`), each element with up to n (default 15) significant digits; a vec is one row.",
        "print mat2str([[1, 2], [3, 4]]), \" \", mat2str([pi, 1], 3)",
        "[1 2;3 4] [3.14 1]",
    ),
    bi("warning", warning, 1, usize::MAX).doc(
        "warning(format, args...)",
        "Writes `Warning: ` and the formatted message to the error stream; the program goes on.",
        "warning(\"only %d samples\", 3)\nprint \"still running\"",
        "still running",
    ),
    bi("isfield", isfield, 2, 2).doc(
        "isfield(obj, name)",
        "1 when the object has a field of that name, else 0 (0 for a value that is not an object).",
        "o = object()\no.gain = 2\nprint isfield(o, \"gain\"), \" \", isfield(o, \"bias\"), \" \", isfield(5, \"gain\")",
        "1 0 0",
    ),
    bi("printfull", printfull, 0, usize::MAX).doc(
        "printfull(a, b, ...)",
        "Prints like the `print` statement, but an array of more than 1000 elements is printed whole instead of summarised (`print` shows its first and last 3 rows and columns, then its shape and type).",
        "x = 0..1199\nprint x\nprintfull(sum(x), \" \", numel(x))",
        "[0,1,2,...,1197,1198,1199] (1x1200 vec[int], summarised: printfull(x) prints every element)\n719400 1200",
    ),
    bi("strcat", strcat, 1, usize::MAX).doc(
        "strcat(a, b, ...)",
        "The strings joined (numbers are formatted first).",
        "print strcat(\"img\", 7, \".png\")",
        "img7.png",
    ),
    bi("sprintf", sprintf, 1, usize::MAX).doc(
        "sprintf(format, args...)",
        "Text formatted as C's printf does (`%d`, `%5.2f`, `%s`, `%x`, `%e`, `%%`).",
        "print sprintf(\"%03d|%.2f|%s\", 7, pi, \"ok\")",
        "007|3.14|ok",
    ),
    bi("printf", printf, 1, usize::MAX).doc(
        "printf(format, args...)",
        "Prints text formatted as C's printf does; no newline is added (write `\\n`).",
        "printf(\"%d items at %.1f\\n\", 3, 2.5)",
        "3 items at 2.5",
    ),
    bi("disp", disp, 1, 1).doc(
        "disp(x)",
        "Prints one value on its own line.",
        "disp([1, 2])\ndisp(\"done\")",
        "[1,2]\ndone",
    ),
    bi("num2str", num2str, 1, 1).doc(
        "num2str(x)",
        "A number (or array) as text, in the form `print` uses.",
        "s = num2str(3.25)\nprint s, \" \", numel(s)",
        "3.25 4",
    ),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::Prec;

    use crate::builtins::testing::Sink;

    fn ctx() -> (Ctx, Sink) {
        crate::builtins::testing::ctx_capture(Prec::Single)
    }

    fn text(v: Value) -> String {
        match v {
            Value::Str(s) => s.to_string(),
            other => panic!("not a string: {other:?}"),
        }
    }

    #[test]
    fn strcat_and_num2str() {
        let (mut c, _) = ctx();
        assert_eq!(
            text(strcat(&mut c, &[Value::str("a"), Value::int(3), Value::Real(0.5)]).unwrap()),
            "a30.5"
        );
        assert_eq!(text(num2str(&mut c, &[Value::Real(2.5)]).unwrap()), "2.5");
    }

    #[test]
    fn printing() {
        let (mut c, sink) = ctx();
        printf(
            &mut c,
            &[
                Value::str("x=%d, y=%.2f\\n"),
                Value::int(4),
                Value::Real(0.5),
            ],
        )
        .unwrap();
        disp(&mut c, &[Value::str("hi")]).unwrap();
        assert_eq!(
            String::from_utf8(sink.0.borrow().clone()).unwrap(),
            "x=4, y=0.50\nhi\n"
        );
        let s = sprintf(
            &mut c,
            &[Value::str("%s|%5.1f"), Value::str("ab"), Value::Real(3.25)],
        )
        .unwrap();
        assert_eq!(text(s), "ab|  3.2");
        let e = sprintf(&mut c, &[Value::str("%d")]).unwrap_err();
        assert_eq!(e.message, "sprintf: not enough arguments for format");
        assert!(printf(&mut c, &[Value::int(1)]).is_err());
    }
}
