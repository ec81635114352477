//! Data files: `save(path, x)` and `load(path)`, plus path helpers for file builtins.
//!
//! The format (version 1) is self-describing and mixes text headers with binary data.
//! A file starts with the line `BLAZAR1` and holds one *item*. Each item is a header
//! line of ASCII tokens separated by single spaces and ended by `\n`, then its payload.
//! All numbers in payloads are little-endian.
//!
//! | header                              | payload                                   |
//! |-------------------------------------|-------------------------------------------|
//! | `real`                              | f64                                       |
//! | `int <type>` (`int8` .. `uint64`)   | i64 (the bit pattern for `uint64`)        |
//! | `complex`                           | f64 re, f64 im                            |
//! | `string <bytes>`                    | the UTF-8 bytes                           |
//! | `array <elem> <rank> <dims...>`     | the elements, row-major                   |
//! | `cell <rank> <dims...>`             | one item per element, row-major           |
//!
//! `<elem>` is one of `f32 f64 c32 c64 i8 i16 i32 i64 u8 u16 u32 u64`; complex elements
//! are stored as (re, im) pairs. Loading validates every header and length, so a corrupt
//! or truncated file gives an error, never a crash.

use super::{Builtin, Ctx};
use crate::array::{Array, Buffer};
use crate::value::IntTy;
use crate::{rt_bail, RtError, RtResult, Value};
use num_complex::{Complex32, Complex64};
use std::path::PathBuf;

use super::math::bi;

pub(super) static TABLE: &[Builtin] = &[
    bi("save", save, 2, 2).doc(
        "save(file, x)",
        "Writes value x (numbers, strings, arrays, cells, objects) to a file that `load` reads back.",
        "save(\"x.qd\", [1, 2, 3])\nprint load(\"x.qd\")",
        "[1,2,3]",
    ),
    bi("load", load, 1, 1).doc(
        "load(file)",
        "The value a program stored with `save`.",
        "c = cell(2)\nc[0] = \"a\"\nc[1] = eye(2)\nsave(\"c.qd\", c)\nd = load(\"c.qd\")\nprint d[0], \" \", d[1]",
        "a [ [1,0],\n  [0,1] ]",
    ),
];

const MAGIC: &[u8] = b"BLAZAR1\n";
const MAX_RANK: usize = 32;
const MAX_DEPTH: usize = 256;
const INTS: [IntTy; 8] = [
    IntTy::I8,
    IntTy::I16,
    IntTy::I32,
    IntTy::I64,
    IntTy::U8,
    IntTy::U16,
    IntTy::U32,
    IntTy::U64,
];

/// A file-name argument of builtin `name`.
pub(super) fn path_arg(name: &str, v: &Value) -> RtResult<String> {
    match v {
        Value::Str(s) => Ok(s.to_string()),
        other => rt_bail!(
            "{name}: expected a file name (string), got {}",
            other.kind_name()
        ),
    }
}

/// Resolves a file name against the program's directory (absolute names stay).
pub(super) fn resolve_path(ctx: &Ctx, name: &str) -> PathBuf {
    let p = PathBuf::from(name);
    if p.is_absolute() {
        p
    } else {
        ctx.base_dir.join(p)
    }
}

fn save(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let name = path_arg("save", &args[0])?;
    let mut out = MAGIC.to_vec();
    encode(&args[1], &mut out, 0)?;
    std::fs::write(resolve_path(ctx, &name), out)
        .map_err(|e| RtError::new(format!("save: cannot write '{name}': {e}")))?;
    Ok(Value::Real(0.0))
}

/// The bytes of file `path` (`name` as the program gave it), read in blocks: a signal
/// stops the reading (`crate::interrupt`; `/dev/zero` never ends), and memory that
/// runs out is an error, not an abort.
pub(crate) fn read_file(what: &str, name: &str, path: &std::path::Path) -> RtResult<Vec<u8>> {
    use std::io::Read;
    let fail = |e: std::io::Error| RtError::new(format!("{what}: cannot read '{name}': {e}"));
    let mut file = std::fs::File::open(path).map_err(fail)?;
    let mut bytes: Vec<u8> = Vec::new();
    let mut block = vec![0u8; 1 << 20];
    loop {
        crate::interrupt::check()?;
        let n = match file.read(&mut block) {
            Ok(0) => return Ok(bytes),
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(fail(e)),
        };
        if bytes.len() + n > bytes.capacity() {
            let more = bytes.capacity().max(n);
            if bytes.try_reserve(more).is_err() {
                rt_bail!(
                    "{what}: out of memory: '{name}' is larger than the memory left ({:.1} GB read)",
                    bytes.len() as f64 / 1e9
                );
            }
        }
        bytes.extend_from_slice(&block[..n]);
    }
}

fn load(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let name = path_arg("load", &args[0])?;
    let bytes = read_file("load", &name, &resolve_path(ctx, &name))?;
    decode_file(&bytes).map_err(|e| {
        RtError::new(format!(
            "load: '{name}' is not a valid Blazar data file: {e}"
        ))
    })
}

fn elem_code(b: &Buffer) -> &'static str {
    match b {
        Buffer::F32(_) => "f32",
        Buffer::F64(_) => "f64",
        Buffer::C32(_) => "c32",
        Buffer::C64(_) => "c64",
        Buffer::I8(_) => "i8",
        Buffer::I16(_) => "i16",
        Buffer::I32(_) => "i32",
        Buffer::I64(_) => "i64",
        Buffer::U8(_) => "u8",
        Buffer::U16(_) => "u16",
        Buffer::U32(_) => "u32",
        Buffer::U64(_) => "u64",
        Buffer::Cell(_) => "cell",
    }
}

fn dims_text(dims: &[usize]) -> String {
    let mut s = dims.len().to_string();
    for d in dims {
        s.push(' ');
        s.push_str(&d.to_string());
    }
    s
}

fn encode(v: &Value, out: &mut Vec<u8>, depth: usize) -> RtResult<()> {
    if depth > MAX_DEPTH {
        rt_bail!("save: cells are nested too deeply");
    }
    match v {
        Value::Real(x) => {
            out.extend_from_slice(b"real\n");
            out.extend_from_slice(&x.to_le_bytes());
        }
        Value::Int(x, t) => {
            out.extend_from_slice(format!("int {}\n", t.name()).as_bytes());
            out.extend_from_slice(&x.to_le_bytes());
        }
        Value::Complex(z) => {
            out.extend_from_slice(b"complex\n");
            out.extend_from_slice(&z.re.to_le_bytes());
            out.extend_from_slice(&z.im.to_le_bytes());
        }
        Value::Str(s) => {
            out.extend_from_slice(format!("string {}\n", s.len()).as_bytes());
            out.extend_from_slice(s.as_bytes());
        }
        Value::Array(a) => {
            let a = a.borrow();
            if let Buffer::Cell(items) = &a.buf {
                out.extend_from_slice(format!("cell {}\n", dims_text(&a.dims)).as_bytes());
                for item in items {
                    encode(item, out, depth + 1)?;
                }
                return Ok(());
            }
            out.extend_from_slice(
                format!("array {} {}\n", elem_code(&a.buf), dims_text(&a.dims)).as_bytes(),
            );
            macro_rules! put {
                ($v:expr) => {
                    $v.iter()
                        .for_each(|x| out.extend_from_slice(&x.to_le_bytes()))
                };
            }
            match &a.buf {
                Buffer::F32(v) => put!(v),
                Buffer::F64(v) => put!(v),
                Buffer::C32(v) => put!(v.iter().flat_map(|z| [z.re, z.im]).collect::<Vec<_>>()),
                Buffer::C64(v) => put!(v.iter().flat_map(|z| [z.re, z.im]).collect::<Vec<_>>()),
                Buffer::I8(v) => put!(v),
                Buffer::I16(v) => put!(v),
                Buffer::I32(v) => put!(v),
                Buffer::I64(v) => put!(v),
                Buffer::U8(v) => put!(v),
                Buffer::U16(v) => put!(v),
                Buffer::U32(v) => put!(v),
                Buffer::U64(v) => put!(v),
                Buffer::Cell(_) => {}
            }
        }
        Value::Func(_) | Value::Object(_) => rt_bail!("save: cannot save a {}", v.kind_name()),
    }
    Ok(())
}

/// A cursor over the bytes of a data file.
struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        if n > self.data.len() - self.pos {
            return Err("the file is truncated".into());
        }
        let s = &self.data[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    fn remaining(&self) -> usize {
        self.data.len() - self.pos
    }

    /// The next header line, split into tokens.
    fn header(&mut self) -> Result<Vec<&'a str>, String> {
        let rest = &self.data[self.pos..];
        let end = rest
            .iter()
            .take(1024)
            .position(|&b| b == b'\n')
            .ok_or("missing or overlong header line")?;
        let line = std::str::from_utf8(&rest[..end]).map_err(|_| "header is not text")?;
        self.pos += end + 1;
        Ok(line.split(' ').collect())
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], String> {
        let mut b = [0u8; N];
        b.copy_from_slice(self.take(N)?);
        Ok(b)
    }
}

fn decode_file(bytes: &[u8]) -> Result<Value, String> {
    if !bytes.starts_with(MAGIC) {
        return Err("missing BLAZAR1 header".into());
    }
    let mut r = Reader {
        data: bytes,
        pos: MAGIC.len(),
    };
    let v = decode(&mut r, 0)?;
    if r.remaining() != 0 {
        return Err(format!("{} unexpected bytes at the end", r.remaining()));
    }
    Ok(v)
}

fn parse_dims(toks: &[&str]) -> Result<Vec<usize>, String> {
    let rank: usize = toks
        .first()
        .and_then(|t| t.parse().ok())
        .ok_or("bad rank")?;
    if rank == 0 || rank > MAX_RANK || toks.len() != rank + 1 {
        return Err("bad rank or dims".into());
    }
    toks[1..]
        .iter()
        .map(|t| {
            t.parse::<usize>()
                .map_err(|_| format!("bad dimension '{t}'"))
        })
        .collect()
}

fn count(dims: &[usize], size: usize) -> Result<usize, String> {
    dims.iter()
        .try_fold(size, |acc, &d| acc.checked_mul(d))
        .ok_or_else(|| "dims overflow".to_string())
}

fn decode(r: &mut Reader, depth: usize) -> Result<Value, String> {
    if depth > MAX_DEPTH {
        return Err("cells nested too deeply".into());
    }
    let toks = r.header()?;
    Ok(match toks.as_slice() {
        ["real"] => Value::Real(f64::from_le_bytes(r.array()?)),
        ["int", ty] => {
            let t = INTS
                .iter()
                .copied()
                .find(|t| t.name() == *ty)
                .ok_or_else(|| format!("unknown int type '{ty}'"))?;
            Value::Int(t.wrap(i64::from_le_bytes(r.array()?)), t)
        }
        ["complex"] => {
            let re = f64::from_le_bytes(r.array()?);
            Value::Complex(Complex64::new(re, f64::from_le_bytes(r.array()?)))
        }
        ["string", n] => {
            let n: usize = n.parse().map_err(|_| "bad string length")?;
            let s = std::str::from_utf8(r.take(n)?).map_err(|_| "string is not UTF-8")?;
            Value::str(s)
        }
        ["cell", rest @ ..] => {
            let dims = parse_dims(rest)?;
            let n = count(&dims, 1)?;
            // Every item takes at least a header line, so n is bounded by the file size.
            if n > r.remaining() / 2 {
                return Err("the file is truncated".into());
            }
            let items = (0..n)
                .map(|_| decode(r, depth + 1))
                .collect::<Result<Vec<_>, _>>()?;
            Value::array(Array::cell(dims, items))
        }
        ["array", elem, rest @ ..] => {
            let dims = parse_dims(rest)?;
            Value::array(decode_array(r, elem, dims)?)
        }
        _ => return Err(format!("unknown item header '{}'", toks.join(" "))),
    })
}

fn decode_array(r: &mut Reader, elem: &str, dims: Vec<usize>) -> Result<Array, String> {
    let size = match elem {
        "i8" | "u8" => 1,
        "i16" | "u16" => 2,
        "f32" | "i32" | "u32" => 4,
        "f64" | "i64" | "u64" | "c32" => 8,
        "c64" => 16,
        _ => return Err(format!("unknown element type '{elem}'")),
    };
    let bytes = r.take(count(&dims, size)?)?;
    macro_rules! get {
        ($t:ty, $n:expr) => {
            bytes
                .chunks_exact($n)
                .map(|c| {
                    let mut b = [0u8; $n];
                    b.copy_from_slice(c);
                    <$t>::from_le_bytes(b)
                })
                .collect::<Vec<$t>>()
        };
    }
    let buf = match elem {
        "f32" => Buffer::F32(get!(f32, 4)),
        "f64" => Buffer::F64(get!(f64, 8)),
        "c32" => Buffer::C32(
            get!(f32, 4)
                .chunks_exact(2)
                .map(|p| Complex32::new(p[0], p[1]))
                .collect(),
        ),
        "c64" => Buffer::C64(
            get!(f64, 8)
                .chunks_exact(2)
                .map(|p| Complex64::new(p[0], p[1]))
                .collect(),
        ),
        "i8" => Buffer::I8(get!(i8, 1)),
        "i16" => Buffer::I16(get!(i16, 2)),
        "i32" => Buffer::I32(get!(i32, 4)),
        "i64" => Buffer::I64(get!(i64, 8)),
        "u8" => Buffer::U8(get!(u8, 1)),
        "u16" => Buffer::U16(get!(u16, 2)),
        "u32" => Buffer::U32(get!(u32, 4)),
        _ => Buffer::U64(get!(u64, 8)),
    };
    Ok(Array::new(dims, buf))
}

#[cfg(test)]
#[path = "io_tests.rs"]
mod tests;
