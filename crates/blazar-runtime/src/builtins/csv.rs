//! Comma-separated text files: `csvread` and `csvwrite`.
//!
//! `csvread(path)` reads numbers separated by commas, one matrix row per line, into a
//! real matrix; empty fields are 0 and short rows are padded with zeros (as MATLAB's
//! `csvread`); blank lines are skipped. `csvread(path, r, c)` skips the first `r` rows
//! and `c` columns. `csvwrite(path, x)` writes a vector as one line and a matrix as one
//! line per row, each number in the shortest form that reads back to the same value.

use super::io::{path_arg, resolve_path};
use super::math::bi;
use super::{Builtin, Ctx};
use crate::array::{Array, Buffer};
use crate::ops::real_buffer;
use crate::value::Value;
use crate::{rt_bail, RtError, RtResult};
use std::fmt::Write as _;

fn offset(name: &str, v: Option<&Value>) -> RtResult<usize> {
    match v {
        None => Ok(0),
        Some(v) => match v.as_i64() {
            Some(k) if k >= 0 => Ok(k as usize),
            _ => rt_bail!("{name}: the row and column offsets must be non-negative integers"),
        },
    }
}

/// Parses CSV text into rows of numbers; errors name the line and field.
fn parse(text: &str, file: &str) -> RtResult<Vec<Vec<f64>>> {
    let mut rows = Vec::new();
    for (ln, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let row = line
            .split(',')
            .enumerate()
            .map(|(k, field)| {
                let f = field.trim();
                if f.is_empty() {
                    return Ok(0.0);
                }
                f.parse::<f64>().map_err(|_| {
                    RtError::new(format!(
                        "csvread: '{file}' line {}, field {}: '{f}' is not a number",
                        ln + 1,
                        k + 1
                    ))
                })
            })
            .collect::<RtResult<Vec<f64>>>()?;
        rows.push(row);
    }
    Ok(rows)
}

fn csvread(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let name = path_arg("csvread", &args[0])?;
    let r0 = offset("csvread", args.get(1))?;
    let c0 = offset("csvread", args.get(2))?;
    let bytes = super::io::read_file("csvread", &name, &resolve_path(ctx, &name))?;
    let text = String::from_utf8(bytes).map_err(|_| {
        RtError::new(format!(
            "csvread: cannot read '{name}': stream did not contain valid UTF-8"
        ))
    })?;
    let rows = parse(&text, &name)?;
    let rows: Vec<&[f64]> = rows
        .iter()
        .skip(r0)
        .map(|r| r.get(c0..).unwrap_or(&[]))
        .collect();
    let m = rows.len();
    let n = rows.iter().map(|r| r.len()).max().unwrap_or(0);
    let mut data = vec![0.0; m * n];
    for (i, r) in rows.iter().enumerate() {
        data[i * n..i * n + r.len()].copy_from_slice(r);
    }
    let dims = if m == 0 {
        vec![0]
    } else {
        Array::canonical_dims(&[m, n])
    };
    Ok(Value::array(Array::new(dims, real_buffer(ctx.prec, data))))
}

/// One number in the shortest text that reads back to the same value.
fn number(buf: &Buffer, i: usize, out: &mut String) {
    let _ = match buf {
        Buffer::F32(v) => write!(out, "{}", v[i]),
        Buffer::F64(v) => write!(out, "{}", v[i]),
        Buffer::I8(_) | Buffer::I16(_) | Buffer::I32(_) | Buffer::I64(_) => {
            write!(out, "{}", buf.get_value(i).as_i64().unwrap_or(0))
        }
        _ => write!(out, "{}", buf.get_f64(i)),
    };
}

fn csvwrite(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let name = path_arg("csvwrite", &args[0])?;
    let a = match &args[1] {
        Value::Array(r) => r
            .try_borrow()
            .map_err(|_| RtError::new("csvwrite: array is being modified"))?
            .clone(),
        v if v.as_f64().is_some() => {
            Array::new(vec![1], Buffer::F64(vec![v.as_f64().unwrap_or(0.0)]))
        }
        other => rt_bail!(
            "csvwrite: expected a real matrix, got {}",
            other.kind_name()
        ),
    };
    if a.is_cell() || a.elem().is_complex() {
        rt_bail!("csvwrite: expected a real matrix, got {}", a.elem().name());
    }
    let size = a.size();
    if size.len() > 2 {
        rt_bail!("csvwrite: expected a vector or a matrix, got a cube");
    }
    let (m, n) = (size[0], size[1]);
    let mut text = String::new();
    for i in 0..m {
        for j in 0..n {
            if j > 0 {
                text.push(',');
            }
            number(&a.buf, i * n + j, &mut text);
        }
        text.push('\n');
    }
    std::fs::write(resolve_path(ctx, &name), text)
        .map_err(|e| RtError::new(format!("csvwrite: cannot write '{name}': {e}")))?;
    Ok(Value::Real(0.0))
}

pub(super) static TABLE: &[Builtin] =
    &[
    bi("csvread", csvread, 1, 3).doc(
        "csvread(file) · csvread(file, row, col)",
        "A matrix from a file of comma-separated numbers (skipping `row` rows and `col` columns first). Relative names are relative to the program's folder.",
        "csvwrite(\"m.csv\", [[1, 2], [3, 4]])\nprint csvread(\"m.csv\")",
        "[ [1,2],\n  [3,4] ]",
    ),
    bi("csvwrite", csvwrite, 2, 2).doc(
        "csvwrite(file, A)",
        "Writes matrix (or vector) A to a file as comma-separated numbers, one row per line.",
        "csvwrite(\"v.csv\", [1.5, 2])\nprint csvread(\"v.csv\")",
        "[1.5,2]",
    ),
];

#[cfg(test)]
mod tests {
    use super::parse;

    #[test]
    fn empty_fields_are_zero_and_rows_may_be_short() {
        let rows = parse("1, 2,3\n\n4,,6\n7\n", "t.csv").unwrap();
        assert_eq!(
            rows,
            vec![vec![1.0, 2.0, 3.0], vec![4.0, 0.0, 6.0], vec![7.0]]
        );
    }

    #[test]
    fn a_bad_field_names_its_line_and_field() {
        let e = parse("1,2\n3,x\n", "t.csv").unwrap_err();
        assert_eq!(
            e.message,
            "csvread: 't.csv' line 2, field 2: 'x' is not a number"
        );
    }
}
