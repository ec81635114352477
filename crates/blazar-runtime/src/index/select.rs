//! Index plans: index arguments resolved to per-dimension offset lists, and the strided
//! gather and scatter loops over their cartesian product.

use super::{read_at, write_at, IndexArg, Where};
use crate::array::{slice_dims, Array, Buffer, ElemType, Mode};
use crate::value::Value;
use crate::{rt_bail, RtError, RtResult};

/// Largest number of coordinates one selection may produce.
const MAX_ELEMS: u128 = 1 << 31;

/// Resolved selection: for each effective dimension the flat offsets (coordinate times
/// stride) of its coordinates, `None` for a coordinate outside the bounds that reads as
/// zero or whose write is ignored.
pub(crate) struct Plan {
    pub sels: Vec<Vec<Option<usize>>>,
    /// Dims of a slice result: the lengths of the non-scalar arguments.
    pub shape: Vec<usize>,
    /// Number of selected elements (product of the list lengths).
    pub count: usize,
    pub all_scalar: bool,
    /// A mask selection (one list of flat positions).
    pub mask: bool,
}

impl Plan {
    /// The flat offset of an all-scalar selection (`None` outside).
    pub fn scalar_offset(&self) -> Option<usize> {
        self.sels
            .iter()
            .try_fold(0usize, |acc, s| Some(acc + (*s.first()?)?))
    }
}

/// Coordinates of one argument before the shape is known.
enum Coords {
    One(i64),
    List(Vec<i64>),
    All,
    Range { start: i64, step: i64, end: i64 },
}

/// `L[d]` for the logical shape `L = size()` (a vec is `[1, N]`), 1 past the end.
#[inline]
fn logical(dims: &[usize], d: usize) -> usize {
    if dims.len() == 1 {
        if d == 1 {
            dims[0]
        } else {
            1
        }
    } else {
        dims.get(d).copied().unwrap_or(1)
    }
}

#[inline]
fn logical_len(dims: &[usize]) -> usize {
    if dims.len() == 1 {
        2
    } else {
        dims.len()
    }
}

/// Extent of effective dimension `d` when indexing with `k` arguments: padded with 1s, or
/// the trailing logical dimensions folded into the last argument.
#[inline]
pub(crate) fn eff_dim(dims: &[usize], k: usize, d: usize) -> usize {
    let l = logical_len(dims);
    if k >= l || d + 1 < k {
        logical(dims, d)
    } else {
        (d..l).map(|j| logical(dims, j)).product()
    }
}

/// Builds the plan of `args` on an array of `dims` under `mode`.
pub(crate) fn plan(dims: &[usize], args: &[IndexArg], mode: Mode, write: bool) -> RtResult<Plan> {
    if let [IndexArg::Value(Value::Array(r))] = args {
        let m = r
            .try_borrow()
            .map_err(|_| RtError::new("the index array is in use"))?;
        if let Some(positions) = mask_positions(&m, dims) {
            let count = positions.len();
            return Ok(Plan {
                sels: vec![positions.into_iter().map(Some).collect()],
                shape: vec![count],
                count,
                all_scalar: false,
                mask: true,
            });
        }
        let l = logical_len(dims);
        if m.elem().is_int() && m.rank() == 1 && m.len() == l && dims.len() >= 2 {
            let coords: Vec<Coords> = array_coords(&m)?.into_iter().map(Coords::One).collect();
            drop(m);
            return build(dims, &coords, mode, write);
        }
    }
    let coords = args.iter().map(parse_arg).collect::<RtResult<Vec<_>>>()?;
    build(dims, &coords, mode, write)
}

/// The flat positions selected by a mask: a real array with the target's dims and only
/// 0/1 elements.
fn mask_positions(m: &Array, dims: &[usize]) -> Option<Vec<usize>> {
    if !m.elem().is_real_float() || m.dims != dims || m.len() != dims.iter().product::<usize>() {
        return None;
    }
    let mut out = Vec::new();
    for i in 0..m.len() {
        let x = m.buf.get_f64(i);
        if x == 1.0 {
            out.push(i);
        } else if x != 0.0 {
            return None;
        }
    }
    Some(out)
}

fn real_index(x: f64) -> RtResult<i64> {
    if x.is_finite() && x.fract() == 0.0 {
        Ok(x as i64)
    } else {
        rt_bail!("index {x} is not an integer")
    }
}

fn parse_arg(arg: &IndexArg) -> RtResult<Coords> {
    Ok(match arg {
        IndexArg::All => Coords::All,
        IndexArg::Range { start, step, end } => {
            if *step == 0 {
                rt_bail!("the step of an index range cannot be zero");
            }
            Coords::Range {
                start: *start,
                step: *step,
                end: *end,
            }
        }
        IndexArg::Value(v) => match v {
            Value::Int(i, _) => Coords::One(*i),
            Value::Real(x) => Coords::One(real_index(*x)?),
            Value::Array(r) => {
                let m = r
                    .try_borrow()
                    .map_err(|_| RtError::new("the index array is in use"))?;
                Coords::List(array_coords(&m)?)
            }
            other => rt_bail!("cannot index an array with a {}", other.kind_name()),
        },
    })
}

/// The elements of an index array as coordinates.
fn array_coords(m: &Array) -> RtResult<Vec<i64>> {
    match m.elem() {
        ElemType::Int(_) => Ok((0..m.len())
            .map(|i| match m.buf.get_value(i) {
                Value::Int(v, _) => v,
                _ => 0,
            })
            .collect()),
        ElemType::F32 | ElemType::F64 => {
            (0..m.len()).map(|i| real_index(m.buf.get_f64(i))).collect()
        }
        ElemType::C32 | ElemType::C64 => rt_bail!("cannot index an array with a complex array"),
        ElemType::Cell => rt_bail!("cannot index an array with a cell array"),
    }
}

fn range_len(start: i64, step: i64, end: i64) -> u128 {
    let (s, st, e) = (start as i128, step as i128, end as i128);
    let n = if st > 0 {
        if e < s {
            0
        } else {
            (e - s) / st + 1
        }
    } else if e > s {
        0
    } else {
        (s - e) / (-st) + 1
    };
    n as u128
}

fn build(dims: &[usize], coords: &[Coords], mode: Mode, write: bool) -> RtResult<Plan> {
    let k = coords.len();
    if k == 0 {
        rt_bail!("an index is required");
    }
    let linear = k == 1 && dims.len() >= 2;
    let ext: Vec<usize> = (0..k).map(|d| eff_dim(dims, k, d)).collect();
    let mut stride = vec![1usize; k];
    for d in (0..k - 1).rev() {
        stride[d] = stride[d + 1] * ext[d + 1];
    }
    let mut sels = Vec::with_capacity(k);
    let mut shape = Vec::new();
    let mut all_scalar = true;
    let mut total: u128 = 1;
    for (d, c) in coords.iter().enumerate() {
        let (n, s) = (ext[d], stride[d]);
        let w = if linear { Where::Linear } else { Where::Dim(d) };
        let one = |i: i64| -> RtResult<Option<usize>> {
            let r = if write {
                write_at(i, n, mode, w)?
            } else {
                read_at(i, n, mode, w)?
            };
            Ok(r.map(|c| c * s))
        };
        let len = match c {
            Coords::One(_) => 1,
            Coords::List(v) => v.len() as u128,
            Coords::All => n as u128,
            Coords::Range { start, step, end } => range_len(*start, *step, *end),
        };
        total = total.saturating_mul(len);
        if len > MAX_ELEMS || total > MAX_ELEMS {
            rt_bail!("the index selects too many elements ({len} in dimension {d})");
        }
        let list: Vec<Option<usize>> = match c {
            Coords::One(i) => vec![one(*i)?],
            Coords::List(v) => v.iter().map(|&i| one(i)).collect::<RtResult<_>>()?,
            Coords::All => (0..n).map(|i| Some(i * s)).collect(),
            Coords::Range { start, step, .. } => (0..len as i128)
                .map(|j| one((*start as i128 + j * *step as i128) as i64))
                .collect::<RtResult<_>>()?,
        };
        if !matches!(c, Coords::One(_)) {
            all_scalar = false;
        }
        shape.push(list.len());
        sels.push(list);
    }
    Ok(Plan {
        sels,
        shape: slice_dims(&shape),
        count: total as usize,
        all_scalar,
        mask: false,
    })
}

/// Calls `f` with the flat offset of every selected element in row-major order of the
/// selection (`None` when any coordinate is outside).
pub(crate) fn for_each_offset(sels: &[Vec<Option<usize>>], mut f: impl FnMut(Option<usize>)) {
    let k = sels.len();
    if k == 0 || sels.iter().any(|s| s.is_empty()) {
        return;
    }
    let last = &sels[k - 1];
    let mut ctr = vec![0usize; k - 1];
    loop {
        let base = (0..k - 1).try_fold(0usize, |acc, d| Some(acc + sels[d][ctr[d]]?));
        match base {
            Some(b) => last.iter().for_each(|o| f(o.map(|o| b + o))),
            None => last.iter().for_each(|_| f(None)),
        }
        let mut d = k - 1;
        loop {
            if d == 0 {
                return;
            }
            d -= 1;
            ctr[d] += 1;
            if ctr[d] < sels[d].len() {
                break;
            }
            ctr[d] = 0;
        }
    }
}

/// Runs of consecutive source elements shorter than this are gathered one by one.
const MIN_RUN: usize = 16;

/// The selection's trailing dimensions that select one block of consecutive source
/// elements for each combination of the leading ones: `(split, run, base)`, where the
/// dimensions from `split` on read `run` elements from offset `base` (plus the
/// leading dimensions' offsets). `None` when no such tail of [`MIN_RUN`] elements
/// exists or a coordinate falls outside.
fn contiguous_tail(sels: &[Vec<Option<usize>>]) -> Option<(usize, usize, usize)> {
    let (mut split, mut run, mut base) = (sels.len(), 1usize, 0usize);
    for d in (0..sels.len()).rev() {
        let s = &sels[d];
        let first = (*s.first()?)?;
        let steps = s
            .iter()
            .enumerate()
            .all(|(i, o)| *o == Some(first + i * run));
        if !steps {
            break;
        }
        base += first;
        run *= s.len();
        split = d;
    }
    let outer_inside = sels[..split].iter().all(|s| s.iter().all(Option::is_some));
    (run >= MIN_RUN && outer_inside).then_some((split, run, base))
}

/// The offset of row `r` of the cartesian product of `outer` (row-major), `None` when
/// a coordinate falls outside.
fn row_offset(outer: &[Vec<Option<usize>>], mut r: usize) -> Option<usize> {
    let mut at = 0;
    for s in outer.iter().rev() {
        at += s[r % s.len()]?;
        r /= s.len();
    }
    Some(at)
}

/// The elements of `s` selected by `sels` when they come in blocks of consecutive
/// elements (a slice of whole rows, `x[a..b, :, :]`): one copy per block, into memory
/// from the host pool, the blocks spread over threads when large (`moves::by_rows`).
fn gather_blocks<T: blazar_value::pool::PoolElem + Send + Sync>(
    s: &[T],
    sels: &[Vec<Option<usize>>],
    n: usize,
) -> Option<Vec<T>> {
    let (split, run, base) = contiguous_tail(sels)?;
    let outer = &sels[..split];
    let rows: usize = outer.iter().map(Vec::len).product();
    if rows * run != n
        || (0..rows).any(|r| row_offset(outer, r).is_none_or(|o| o + base + run > s.len()))
    {
        return None;
    }
    let mut out = super::moves::out_vec::<T>(n);
    super::moves::by_rows(&mut out, run, |first, part| {
        for (k, block) in part.chunks_mut(run).enumerate() {
            // Checked above: every row is inside.
            let at = row_offset(outer, first + k).unwrap_or(0) + base;
            block.copy_from_slice(&s[at..at + run]);
        }
    });
    Some(out)
}

/// The elements of `s` selected by `sels` when each row of the selection (its last
/// dimension with more than one coordinate) reads source elements a constant step
/// apart, all inside (a channel `x[:, :, k]`, a column, every other element): one
/// strided run per row, into memory from the host pool, the rows spread over threads
/// when large.
fn gather_strided<T: blazar_value::pool::PoolElem + Send + Sync>(
    s: &[T],
    sels: &[Vec<Option<usize>>],
    n: usize,
) -> Option<Vec<T>> {
    // Trailing single coordinates add to every offset.
    let (mut k, mut base) = (sels.len(), 0usize);
    while k > 1 && sels[k - 1].len() == 1 {
        base += sels[k - 1][0]?;
        k -= 1;
    }
    let (last, outer) = sels[..k].split_last()?;
    let first = (*last.first()?)?;
    let step = match last.get(1) {
        Some(o) => (*o)?.checked_sub(first)?,
        None => 1,
    };
    let even = last
        .iter()
        .enumerate()
        .all(|(i, o)| *o == Some(first + i * step));
    if step == 0 || !even || !outer.iter().all(|s| s.iter().all(Option::is_some)) {
        return None;
    }
    let len = last.len();
    let span = (len - 1) * step;
    let rows: usize = outer.iter().map(Vec::len).product();
    if rows * len != n
        || (0..rows)
            .any(|r| row_offset(outer, r).is_none_or(|o| o + base + first + span >= s.len()))
    {
        return None;
    }
    let mut out = super::moves::out_vec::<T>(n);
    super::moves::by_rows(&mut out, len, |first_row, part| {
        for (r, row) in part.chunks_mut(len).enumerate() {
            // Checked above: every row is inside.
            let at = row_offset(outer, first_row + r).unwrap_or(0) + base + first;
            for (o, v) in row.iter_mut().zip(s[at..=at + span].iter().step_by(step)) {
                *o = *v;
            }
        }
    });
    Some(out)
}

/// The elements of `src` (of `dims`) selected per dimension by `(start, step, len)`
/// (all inside), in row-major order, when they form blocks of consecutive elements (a
/// slice of whole rows, a copy: one copy per block) or rows of elements a constant
/// step apart (a channel `x[:, :, k]`: one strided run per row), into memory from the
/// host pool. `None` for other selections (reversed steps, cells), which a caller
/// computes otherwise.
pub fn copy_blocks(src: &Buffer, dims: &[usize], sel: &[(usize, i64, usize)]) -> Option<Buffer> {
    if dims.len() != sel.len() {
        return None;
    }
    let mut stride = 1usize;
    let mut sels = vec![Vec::new(); dims.len()];
    for d in (0..dims.len()).rev() {
        let (start, step, len) = sel[d];
        let last = start as i64 + step * (len as i64 - 1);
        if len == 0 || start >= dims[d] || last < 0 || last >= dims[d] as i64 {
            return None;
        }
        sels[d] = (0..len as i64)
            .map(|i| Some((start as i64 + i * step) as usize * stride))
            .collect();
        stride *= dims[d];
    }
    let n = sel.iter().map(|s| s.2).product();
    macro_rules! blocks {
        ($($var:ident),*) => {
            match src {
                $(Buffer::$var(s) => gather_blocks(s, &sels, n)
                    .or_else(|| gather_strided(s, &sels, n))
                    .map(Buffer::$var),)*
                Buffer::Cell(_) => None,
            }
        };
    }
    blocks!(F32, F64, C32, C64, I8, I16, I32, I64, U8, U16, U32, U64)
}

macro_rules! gather_typed {
    ($src:expr, $sels:expr, $n:expr; $($var:ident),*) => {
        match $src {
            $(Buffer::$var(s) => {
                if let Some(out) = gather_blocks(s, $sels, $n) {
                    return Buffer::$var(out);
                }
                let mut out = blazar_value::pool::vec($n);
                for_each_offset($sels, |o| out.push(match o {
                    Some(o) => s[o],
                    None => Default::default(),
                }));
                Buffer::$var(out)
            })*
            Buffer::Cell(s) => {
                let mut out = Vec::with_capacity($n);
                for_each_offset($sels, |o| out.push(match o {
                    Some(o) => s[o].clone(),
                    None => Value::Real(0.0),
                }));
                Buffer::Cell(out)
            }
        }
    };
}

/// Copies the selected elements into a new buffer of the same type (zeros outside).
pub(crate) fn gather(src: &Buffer, sels: &[Vec<Option<usize>>], n: usize) -> Buffer {
    gather_typed!(src, sels, n; F32, F64, C32, C64, I8, I16, I32, I64, U8, U16, U32, U64)
}

macro_rules! scatter_typed {
    ($dst:expr, $src:expr, $sels:expr, $same:expr; $($var:ident),*) => {
        match ($dst, $src) {
            $((Buffer::$var(d), Buffer::$var(s)) => {
                scatter_loop($sels, $same, |o, j| d[o] = s[j].clone())
            })*
            (d, s) => scatter_loop($sels, $same, |o, j| {
                d.set_value(o, &s.get_value(j));
            }),
        }
    };
}

/// Calls `f(dst, src)` for every selected element inside the bounds.
fn scatter_loop(sels: &[Vec<Option<usize>>], same_pos: bool, mut f: impl FnMut(usize, usize)) {
    let mut j = 0usize;
    for_each_offset(sels, |o| {
        if let Some(o) = o {
            f(o, if same_pos { o } else { j });
        }
        j += 1;
    });
}

/// Writes the source elements to the selected elements: the j-th selected element gets
/// `src[j]`, or with `same_pos` (mask with a same-shape value) the element at `o` gets
/// `src[o]`. Elements outside (`None`) are skipped but consume their source element.
pub(crate) fn scatter(dst: &mut Buffer, src: &Buffer, sels: &[Vec<Option<usize>>], same_pos: bool) {
    scatter_typed!(dst, src, sels, same_pos; F32, F64, C32, C64, I8, I16, I32, I64, U8, U16, U32, U64, Cell)
}
