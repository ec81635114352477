//! Host copies that only move elements, spread over the threads of rayon's pool (sized
//! by `blazar run --threads`): the rows of a slice (`select.rs`), `repmat`'s tiles
//! ([`tile`]) and the parts of a concatenation ([`join`]). Each writes every element
//! of a result taken from the host pool, so a statement in a loop reuses the memory of
//! an earlier result and needs no compiled kernel on its first run. A copy moves bits:
//! NaN payloads and signed zeros come out as they went in.

use crate::array::Buffer;
use blazar_value::pool::{self, PoolElem};
use rayon::prelude::*;

/// Copies of fewer bytes run on the calling thread.
const PAR_BYTES: usize = 1 << 20;

/// Elements per task of a parallel copy, at least.
const TASK_ELEMS: usize = 1 << 15;

/// Whether a copy of `elems` elements of `T` is worth several threads.
fn parallel<T>(elems: usize) -> bool {
    elems.saturating_mul(std::mem::size_of::<T>()) >= PAR_BYTES && rayon::current_num_threads() > 1
}

/// `n` elements of `T` from the host pool, for a caller that writes every one.
pub(crate) fn out_vec<T: PoolElem>(n: usize) -> Vec<T> {
    let mut v = T::unwrap(pool::take(T::ELEM, n));
    v.truncate(n);
    v
}

/// Calls `f(first, rows)` on consecutive groups of the rows of `out` (`row` elements
/// each; `first` is the index of the group's first row), over several threads when
/// `out` is large.
pub(crate) fn by_rows<T: Send>(out: &mut [T], row: usize, f: impl Fn(usize, &mut [T]) + Sync) {
    if row == 0 || out.is_empty() {
        return;
    }
    if !parallel::<T>(out.len()) || out.len() / row < 2 {
        f(0, out);
        return;
    }
    let per = (TASK_ELEMS / row).max(1);
    out.par_chunks_mut(per * row)
        .enumerate()
        .for_each(|(i, rows)| f(i * per, rows));
}

/// `dst.copy_from_slice(src)`, over several threads when large.
fn copy<T: Copy + Send + Sync>(dst: &mut [T], src: &[T]) {
    if !parallel::<T>(dst.len()) {
        dst.copy_from_slice(src);
        return;
    }
    dst.par_chunks_mut(TASK_ELEMS * 4)
        .zip(src.par_chunks(TASK_ELEMS * 4))
        .for_each(|(d, s)| d.copy_from_slice(s));
}

/// `src` (of dims `s`) repeated along each dimension to dims `o` of the same rank
/// (`repmat`): element `i` of the result is element `i mod s` of `src`, dimension by
/// dimension. `None` for cells, ranks that differ, an empty source of a non-empty
/// result or a source of the wrong length.
pub fn tile(src: &Buffer, s: &[usize], o: &[usize]) -> Option<Buffer> {
    if s.len() != o.len() || s.iter().zip(o).any(|(&a, &b)| a == 0 && b > 0) {
        return None;
    }
    let (s, o) = merge_dims(s, o);
    let n: usize = o.iter().product();
    if src.len() != s.iter().product::<usize>() {
        return None;
    }
    macro_rules! tiled {
        ($($var:ident),*) => {
            match src {
                $(Buffer::$var(x) => {
                    let mut out = out_vec(n);
                    tile_par(&mut out, x, &s, &o);
                    Some(Buffer::$var(out))
                })*
                Buffer::Cell(_) => None,
            }
        };
    }
    tiled!(F32, F64, C32, C64, I8, I16, I32, I64, U8, U16, U32, U64)
}

/// The dims of a tiling with units dropped and neighbours merged where one block
/// copy or one fill serves both: two untiled dimensions (`s == o`) are one, and so are
/// two of a unit source (a fill).
fn merge_dims(s: &[usize], o: &[usize]) -> (Vec<usize>, Vec<usize>) {
    let (mut ms, mut mo): (Vec<usize>, Vec<usize>) = (Vec::new(), Vec::new());
    for (&a, &b) in s.iter().zip(o) {
        if b == 1 {
            continue;
        }
        match (ms.last_mut(), mo.last_mut()) {
            (Some(pa), Some(pb)) if (*pa == *pb && a == b) || (*pa == 1 && a == 1) => {
                *pa *= a;
                *pb *= b;
            }
            _ => {
                ms.push(a);
                mo.push(b);
            }
        }
    }
    if mo.is_empty() {
        (vec![1], vec![1])
    } else {
        (ms, mo)
    }
}

/// [`tile_into`] over several threads: the rows of the first dimension split among
/// tasks when there are enough of them, else each row in turn, split inside.
fn tile_par<T: Copy + Send + Sync>(out: &mut [T], src: &[T], s: &[usize], o: &[usize]) {
    let inner_o: usize = o[1..].iter().product();
    let inner_s: usize = s[1..].iter().product();
    if out.is_empty() {
        return;
    }
    if !parallel::<T>(out.len()) || inner_o == 0 {
        tile_into(out, src, s, o);
        return;
    }
    if o.len() == 1 {
        // One dimension: copies of the whole source (or a fill), each split.
        if s[0] == 1 {
            by_rows(out, 1, |_, part| part.fill(src[0]));
        } else {
            for part in out.chunks_mut(s[0]) {
                copy(part, &src[..part.len()]);
            }
        }
        return;
    }
    let rows = o[0];
    if let ([_, 1], [_, t]) = (s, o) {
        // Each source element repeated `t` times (`repmat(g, [1, 1, 3])`).
        let t = *t;
        by_rows(out, t, |first, part| {
            repeat_each(part, src, first % src.len(), t)
        });
    } else if rows >= 4 * rayon::current_num_threads() {
        by_rows(out, inner_o, |first, part| {
            for (k, row) in part.chunks_mut(inner_o).enumerate() {
                let i = (first + k) % s[0];
                tile_into(row, &src[i * inner_s..(i + 1) * inner_s], &s[1..], &o[1..]);
            }
        });
    } else {
        for (i, row) in out.chunks_mut(inner_o).enumerate() {
            let i = i % s[0];
            tile_par(row, &src[i * inner_s..(i + 1) * inner_s], &s[1..], &o[1..]);
        }
    }
}

/// Each element of `src` from `first` on (cycling back to its start) written `t`
/// times in turn into `out`.
fn repeat_each<T: Copy>(out: &mut [T], src: &[T], first: usize, t: usize) {
    let mut rows = out.chunks_exact_mut(t);
    let mut from = first;
    loop {
        // The source first: `zip` then takes no row it cannot fill.
        for (&v, row) in src[from..].iter().zip(&mut rows) {
            for x in row {
                *x = v;
            }
        }
        if rows.len() == 0 {
            return;
        }
        from = 0;
    }
}

/// Writes the tiling of `src` (dims `s`) to `out` (dims `o`) on this thread: the
/// first `s[0]` rows from the source, the later ones copied from the rows before.
fn tile_into<T: Copy>(out: &mut [T], src: &[T], s: &[usize], o: &[usize]) {
    if out.is_empty() {
        return;
    }
    match (s, o) {
        ([1], _) => out.fill(src[0]),
        ([n], _) => {
            for part in out.chunks_mut(*n) {
                part.copy_from_slice(&src[..part.len()]);
            }
        }
        // Each source element repeated `t` times (`repmat(g, [1, 1, 3])`).
        ([_, 1], [_, t]) => repeat_each(out, src, 0, *t),
        _ => {
            let inner_o: usize = o[1..].iter().product();
            let inner_s: usize = s[1..].iter().product();
            if inner_o == 0 {
                return;
            }
            let done = s[0].min(o[0]) * inner_o;
            let (head, rest) = out.split_at_mut(done);
            for (i, row) in head.chunks_mut(inner_o).enumerate() {
                tile_into(row, &src[i * inner_s..(i + 1) * inner_s], &s[1..], &o[1..]);
            }
            for part in rest.chunks_mut(done) {
                part.copy_from_slice(&head[..part.len()]);
            }
        }
    }
}

/// The parts, buffers of one element type, joined in `outer` blocks: block `b` of the
/// result holds, for each part `p` in turn, elements `b*r .. (b+1)*r` of that part,
/// where `r` is its length over `outer` (a stack or `vertcat`: one block; `cat(2, x,
/// y)` of two `M x N x C` images: `M*N` blocks of `C + C` elements). `None` for cells,
/// parts of different types, or a part whose length `outer` does not divide.
pub fn join(parts: &[&Buffer], outer: usize) -> Option<Buffer> {
    if outer == 0 || parts.iter().any(|p| p.len() % outer != 0) {
        return None;
    }
    macro_rules! joined {
        ($($var:ident),*) => {
            match parts.first()? {
                $(Buffer::$var(_) => {
                    let xs = parts
                        .iter()
                        .map(|p| match p {
                            Buffer::$var(x) => Some(x.as_slice()),
                            _ => None,
                        })
                        .collect::<Option<Vec<_>>>()?;
                    Some(Buffer::$var(join_slices(&xs, outer)))
                })*
                Buffer::Cell(_) => None,
            }
        };
    }
    joined!(F32, F64, C32, C64, I8, I16, I32, I64, U8, U16, U32, U64)
}

fn join_slices<T: PoolElem + Send + Sync>(parts: &[&[T]], outer: usize) -> Vec<T> {
    let runs: Vec<usize> = parts.iter().map(|p| p.len() / outer).collect();
    let row: usize = runs.iter().sum();
    let mut out = out_vec(row * outer);
    if row == 0 {
        return out;
    }
    let fill_block = |b: usize, block: &mut [T], par: bool| {
        let mut at = 0;
        for (p, &r) in parts.iter().zip(&runs) {
            let (dst, src) = (&mut block[at..at + r], &p[b * r..(b + 1) * r]);
            if par {
                copy(dst, src);
            } else {
                dst.copy_from_slice(src);
            }
            at += r;
        }
    };
    if outer >= 4 * rayon::current_num_threads() {
        by_rows(&mut out, row, |first, rows| {
            for (k, block) in rows.chunks_mut(row).enumerate() {
                fill_block(first + k, block, false);
            }
        });
    } else {
        for (b, block) in out.chunks_mut(row).enumerate() {
            fill_block(b, block, true);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Element `i` of the tiling by the rule itself: each coordinate modulo the source's.
    fn naive_tile(src: &[f32], s: &[usize], o: &[usize]) -> Vec<f32> {
        let n: usize = o.iter().product();
        (0..n)
            .map(|mut i| {
                let mut at = 0;
                let mut stride = 1;
                for d in (0..o.len()).rev() {
                    let c = i % o[d];
                    i /= o[d];
                    at += (c % s[d]) * stride;
                    stride *= s[d];
                }
                src[at]
            })
            .collect()
    }

    /// Values whose bits tell them apart, with a NaN payload and a negative zero.
    fn data(n: usize) -> Vec<f32> {
        (0..n)
            .map(|i| match i % 7 {
                3 => f32::from_bits(0x7fc0_1234 + i as u32),
                5 => -0.0,
                _ => i as f32 * 0.5 - 3.0,
            })
            .collect()
    }

    fn bits(v: &[f32]) -> Vec<u32> {
        v.iter().map(|x| x.to_bits()).collect()
    }

    #[test]
    fn tiles_match_the_modulo_rule_small_odd_and_large() {
        let cases: &[(&[usize], &[usize])] = &[
            (&[3, 1], &[3, 4]),
            (&[1, 5], &[3, 5]),
            (&[2, 3], &[4, 9]),
            (&[5, 7, 1], &[5, 7, 3]),
            (&[2, 1, 3], &[6, 4, 3]),
            (&[1], &[9]),
            (&[4], &[12]),
            (&[3, 2, 1, 2], &[3, 4, 2, 6]),
            // Large enough to run over threads (the rows, the fill, the repeats).
            (&[700, 500, 1], &[700, 500, 3]),
            (&[300, 1001], &[900, 2002]),
            (&[2, 300_001], &[4, 300_001]),
            (&[1, 1], &[1000, 1000]),
        ];
        for &(s, o) in cases {
            let src = data(s.iter().product());
            let out = tile(&Buffer::F32(src.clone()), s, o).expect("a tiling");
            let Buffer::F32(out) = out else {
                panic!("the source's type")
            };
            assert_eq!(bits(&out), bits(&naive_tile(&src, s, o)), "{s:?} -> {o:?}");
        }
    }

    #[test]
    fn tiles_of_ints_and_empty_and_refused() {
        let out = tile(&Buffer::I16(vec![1, -2]), &[1, 2], &[2, 4]).expect("a tiling");
        assert!(matches!(out, Buffer::I16(v) if v == [1, -2, 1, -2, 1, -2, 1, -2]));
        let empty = tile(&Buffer::F64(vec![]), &[0, 3], &[0, 6]).expect("an empty tiling");
        assert_eq!(empty.len(), 0);
        assert!(tile(&Buffer::F64(vec![]), &[0], &[3]).is_none());
        assert!(tile(&Buffer::F64(vec![1.0]), &[2], &[4]).is_none());
        assert!(tile(&Buffer::F64(vec![1.0]), &[1], &[1, 2]).is_none());
    }

    #[test]
    fn joins_take_each_part_in_turn_per_block() {
        // Blocks of 2 + 3 elements (`cat` along the last dimension of 2x? and 3x?).
        let a = Buffer::F32(data(8));
        let b = Buffer::F32((0..12).map(|i| 100.0 + i as f32).collect());
        let Some(Buffer::F32(out)) = join(&[&a, &b], 4) else {
            panic!("a join")
        };
        let (Buffer::F32(xa), Buffer::F32(xb)) = (&a, &b) else {
            unreachable!()
        };
        let mut want = Vec::new();
        for k in 0..4 {
            want.extend_from_slice(&xa[2 * k..2 * k + 2]);
            want.extend_from_slice(&xb[3 * k..3 * k + 3]);
        }
        assert_eq!(bits(&out), bits(&want));
        // A stack of two large parts (one block, each copied over threads) and many
        // blocks (spread over threads).
        for outer in [1, 3_000] {
            let (x, y) = (data(3_000 * 300), data(3_000 * 200));
            let Some(Buffer::F32(out)) =
                join(&[&Buffer::F32(x.clone()), &Buffer::F32(y.clone())], outer)
            else {
                panic!("a join")
            };
            let (rx, ry) = (x.len() / outer, y.len() / outer);
            let mut want = Vec::new();
            for k in 0..outer {
                want.extend_from_slice(&x[k * rx..(k + 1) * rx]);
                want.extend_from_slice(&y[k * ry..(k + 1) * ry]);
            }
            assert_eq!(bits(&out), bits(&want), "{outer} blocks");
        }
        assert!(join(&[&Buffer::F32(vec![1.0]), &Buffer::F64(vec![1.0])], 1).is_none());
        assert!(join(&[&Buffer::F32(vec![1.0; 3])], 2).is_none());
        let Some(Buffer::I8(v)) = join(&[&Buffer::I8(vec![]), &Buffer::I8(vec![5, 6])], 2) else {
            panic!("a join")
        };
        assert_eq!(v, [5, 6]);
    }
}
