//! The picture a page shows of a display's panel: 8-bit gray or RGB, averaged over
//! square blocks so that its longer side is at most a bound, made in one pass over the
//! samples (each mapped to 0..255 as it is read). The page's host makes one per picture
//! it sends, on its own thread; the page turns it into a canvas's pixels. A figure's
//! file is made elsewhere (`Snapshot::pixels`): at full size the two agree, and
//! downscaled the preview averages the mapped samples before rounding them.

/// A picture for a page: `width` × `height` pixels of `chans` 8-bit channels (1: gray,
/// 3: RGB), row by row.
#[derive(Clone, Debug, PartialEq)]
pub struct Preview {
    pub width: u32,
    pub height: u32,
    pub chans: usize,
    pub pixels: Vec<u8>,
}

/// The side of the square blocks that bring `w` × `h` pixels within `max_side` on the
/// longer side (1: they fit).
pub fn block(w: u32, h: u32, max_side: u32) -> u32 {
    w.max(h).div_ceil(max_side.max(1)).max(1)
}

/// The preview of `w` × `h` pixels of `chans` interleaved samples (1, 3 or 4; alpha is
/// dropped), `map` taking a sample to the 0..255 scale (clamped here; NaN gives 0).
pub(crate) fn fit<T: Copy>(
    src: &[T],
    w: u32,
    h: u32,
    chans: usize,
    max_side: u32,
    map: impl Fn(T) -> f64,
) -> Preview {
    let k = block(w, h, max_side) as usize;
    let (w, h) = (w as usize, h as usize);
    // `max` before `min`, not `clamp`: a NaN sample becomes 0.
    #[allow(clippy::manual_clamp)]
    let level = |x: T| map(x).max(0.0).min(255.0);
    // The channel counts are constants of each instance, so the loops unroll.
    let (oc, pixels) = match chans {
        1 => (1, blocks::<T, 1, 1>(src, w, h, k, &level)),
        3 => (3, blocks::<T, 3, 3>(src, w, h, k, &level)),
        _ => (3, blocks::<T, 4, 3>(src, w, h, k, &level)),
    };
    Preview {
        width: w.div_ceil(k) as u32,
        height: h.div_ceil(k) as u32,
        chans: oc,
        pixels,
    }
}

/// The averages of the levels over blocks of `k` × `k` pixels of `C` samples, `OC` of
/// them kept.
fn blocks<T: Copy, const C: usize, const OC: usize>(
    src: &[T],
    w: usize,
    h: usize,
    k: usize,
    level: &impl Fn(T) -> f64,
) -> Vec<u8> {
    let (nw, nh) = (w.div_ceil(k), h.div_ceil(k));
    let mut pixels = vec![0u8; nw * nh * OC];
    if k == 1 {
        for (o, p) in pixels.chunks_exact_mut(OC).zip(src.chunks_exact(C)) {
            for c in 0..OC {
                o[c] = (level(p[c]) + 0.5) as u8;
            }
        }
        return pixels;
    }
    // The sums of one row of blocks, filled a row of samples at a time.
    let mut acc = vec![[0f64; OC]; nw];
    for (oy, out) in pixels.chunks_exact_mut(nw * OC).enumerate() {
        acc.fill([0.0; OC]);
        let rows = oy * k..((oy + 1) * k).min(h);
        let bh = rows.len();
        for y in rows {
            let row = &src[y * w * C..(y + 1) * w * C];
            // Halving (HD and full HD pictures) with the block's side a constant.
            match k {
                2 => add_row::<T, C, OC, 2>(&mut acc, row, k, level),
                _ => add_row::<T, C, OC, 0>(&mut acc, row, k, level),
            }
        }
        for (ox, (o, a)) in out.chunks_exact_mut(OC).zip(&acc).enumerate() {
            let bw = ((ox + 1) * k).min(w) - ox * k;
            let inv = 1.0 / (bh * bw) as f64;
            for c in 0..OC {
                o[c] = (a[c] * inv + 0.5) as u8;
            }
        }
    }
    pixels
}

/// Adds the levels of one row of samples to the sums of its blocks (`K`: the blocks'
/// side as a constant; 0: `k`).
#[inline(always)]
fn add_row<T: Copy, const C: usize, const OC: usize, const K: usize>(
    acc: &mut [[f64; OC]],
    row: &[T],
    k: usize,
    level: &impl Fn(T) -> f64,
) {
    let k = if K > 0 { K } else { k };
    let add = |a: &mut [f64; OC], blk: &[T]| {
        let mut s = [0.0; OC];
        for p in blk.chunks_exact(C) {
            for c in 0..OC {
                s[c] += level(p[c]);
            }
        }
        for c in 0..OC {
            a[c] += s[c];
        }
    };
    let full = row.chunks_exact(k * C);
    let rest = full.remainder();
    let n = acc.len();
    for (a, blk) in acc.iter_mut().zip(full) {
        add(a, blk);
    }
    if !rest.is_empty() {
        add(&mut acc[n - 1], rest);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(x: u8) -> f64 {
        x as f64
    }

    #[test]
    fn large_pictures_are_averaged_down() {
        let (w, h) = (2 * 1024 + 2, 4);
        let mut rgb = vec![0u8; (w * h * 3) as usize];
        // The first block of 3 x 3 pixels: one white pixel of nine.
        rgb[..3].copy_from_slice(&[255, 255, 255]);
        let p = fit(&rgb, w, h, 3, 1024, plain);
        assert_eq!((p.width, p.height, p.chans), (w.div_ceil(3), 2, 3));
        assert_eq!(&p.pixels[..3], &[28, 28, 28]);
        assert!(p.pixels[3..].iter().all(|&x| x == 0));
    }

    #[test]
    fn blocks_at_the_edges_average_what_they_hold() {
        // 5 x 1 gray, blocks of 2: [10, 30], [50, 70], [90] alone.
        let g = [10u8, 30, 50, 70, 90];
        let p = fit(&g, 5, 1, 1, 3, plain);
        assert_eq!((p.width, p.height, p.chans), (3, 1, 1));
        assert_eq!(p.pixels, vec![20, 60, 90]);
    }

    #[test]
    fn small_pictures_are_kept_and_alpha_is_dropped() {
        let rgba = [1u8, 2, 3, 255, 4, 5, 6, 0];
        let p = fit(&rgba, 2, 1, 4, 1024, plain);
        assert_eq!((p.width, p.height, p.chans), (2, 1, 3));
        assert_eq!(p.pixels, vec![1, 2, 3, 4, 5, 6]);
    }

    #[test]
    fn samples_are_clamped_and_nan_is_black() {
        let v = [-3.0f64, 300.0, f64::NAN, 127.5];
        let p = fit(&v, 4, 1, 1, 1024, |x| x);
        assert_eq!(p.pixels, vec![0, 255, 0, 128]);
        // Averaged: (0 + 255) / 2 and (0 + 127.5) / 2, rounded.
        let p = fit(&v, 4, 1, 1, 2, |x| x);
        assert_eq!(p.pixels, vec![128, 64]);
    }
}
