//! Text builtins: `strcat sprintf printf disp num2str`.
//!
//! Numbers are turned into text as `print` shows them ([`format_value`]); formats use
//! the C-style conversions of [`crate::format::sprintf`].

use super::math::bi;
use super::{Builtin, Ctx};
use crate::format::{format_value, sprintf as format_printf};
use crate::value::Value;
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
    let parts: Vec<std::borrow::Cow<str>> = args
        .iter()
        .map(|a| match a {
            Value::Str(t) => std::borrow::Cow::Borrowed(&**t),
            other => std::borrow::Cow::Owned(format_value(other, ctx.prec)),
        })
        .collect();
    let len = parts.iter().try_fold(0usize, |n, p| n.checked_add(p.len()));
    crate::alloc::reserve_string("strcat", len)?;
    Ok(Value::Str(std::rc::Rc::from(parts.concat())))
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

pub(super) static TABLE: &[Builtin] = &[
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
