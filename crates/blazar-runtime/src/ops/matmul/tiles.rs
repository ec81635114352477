//! How a matrix product `c[m×n] = a[m×k] · b[k×n]` is cut into tiles of its result,
//! about four a thread: each tile reads a band of rows of `a` and a band of columns
//! of `b` and is an independent sequential product.

/// Multiply-adds under which a tile is not worth a thread of its own (a few
/// microseconds of one core, about what handing it to another thread costs).
pub(super) const MIN_TILE_WORK: usize = 1 << 20;

/// Tile heights are multiples of this (the GEMM kernels' register block covers 4 rows
/// of a row-major result)...
const ROW_ALIGN: usize = 4;
/// ... and tile widths multiples of this (one AVX-512 vector of f32).
const COL_ALIGN: usize = 16;

/// The tile of the result: `rows × cols` (the last band of each may be shorter).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Grid {
    pub rows: usize,
    pub cols: usize,
}

/// The longest side of a tile: a 512×512 tile of f32 and its operand bands (512 rows
/// of `a`, 512 columns of `b`) stay in a core's L2 for depths up to about 1000.
const MAX_SIDE: usize = 512;

/// Tiles a thread: threads that finish early take the rest (a static split of one
/// tile a thread waits for its slowest thread). On the 16-core Xeon, 512² and 2048² f32
/// products ran fastest at 4 (session 19: 0.27–0.31 ms and 11.5–14.1 ms, against 2
/// tiles a thread's 0.36 and 15.9–18.5, faer's own threading's 0.56–0.59 and 13.7–14.8).
const TILES_PER_THREAD: usize = 4;

/// The tiling of an `m×k · k×n` product over `threads` threads: [`TILES_PER_THREAD`]
/// tiles a thread, none under `min_work` multiply-adds and no side over [`MAX_SIDE`];
/// of those, the smallest largest tile, then the least perimeter (the operand bands a
/// tile reads), then the widest (the kernels' register block is wider than tall).
/// `m×n` is one tile.
pub(super) fn grid(m: usize, k: usize, n: usize, threads: usize, min_work: usize) -> Grid {
    let whole = Grid { rows: m, cols: n };
    let work = m.saturating_mul(k).saturating_mul(n);
    let p = threads
        .saturating_mul(TILES_PER_THREAD)
        .min(work / min_work.max(1));
    if threads <= 1 || p <= 1 || m == 0 || n == 0 {
        return whole;
    }
    let mut best = whole;
    let mut key = (usize::MAX, usize::MAX, usize::MAX);
    for pr in 1..=p {
        let pc = p / pr;
        let rows = m.div_ceil(pr).next_multiple_of(ROW_ALIGN).min(m);
        let cols = n.div_ceil(pc).next_multiple_of(COL_ALIGN).min(n);
        let this = (rows * cols, rows + cols, rows);
        if this < key {
            key = this;
            best = Grid { rows, cols };
        }
    }
    // Tall or wide tiles are cut further (more tiles than `p`, each still over
    // `min_work` as a side of MAX_SIDE holds enough work once `k` is large).
    let halve = |side: usize, align: usize| {
        let mut side = side;
        while side > MAX_SIDE {
            side = side.div_ceil(2).next_multiple_of(align);
        }
        side
    };
    if (best.rows > MAX_SIDE || best.cols > MAX_SIDE) && MAX_SIDE * MAX_SIDE * k >= min_work {
        best = Grid {
            rows: halve(best.rows, ROW_ALIGN),
            cols: halve(best.cols, COL_ALIGN),
        };
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(m: usize, n: usize, g: Grid) -> usize {
        m.div_ceil(g.rows) * n.div_ceil(g.cols)
    }

    #[test]
    fn square_products_cut_into_four_tiles_a_thread() {
        let g = |rows, cols| Grid { rows, cols };
        assert_eq!(grid(512, 512, 512, 16, MIN_TILE_WORK), g(64, 64));
        assert_eq!(grid(2048, 2048, 2048, 16, MIN_TILE_WORK), g(256, 256));
        // Two threads: 4 × 2 tiles of 512 × 1024, cut to 512².
        assert_eq!(grid(2048, 2048, 2048, 2, MIN_TILE_WORK), g(512, 512));
        assert_eq!(grid(512, 512, 512, 2, MIN_TILE_WORK), g(128, 256));
    }

    #[test]
    fn small_products_and_one_thread_stay_whole() {
        assert_eq!(
            grid(64, 64, 64, 16, MIN_TILE_WORK),
            Grid { rows: 64, cols: 64 }
        );
        assert_eq!(
            grid(512, 512, 512, 1, MIN_TILE_WORK),
            Grid {
                rows: 512,
                cols: 512
            }
        );
        assert_eq!(grid(0, 5, 7, 8, 1), Grid { rows: 0, cols: 7 });
    }

    #[test]
    fn four_tiles_a_thread_and_no_side_over_the_maximum() {
        for (m, n) in [
            (1, 1000),
            (1000, 1),
            (7, 9),
            (333, 517),
            (4096, 3),
            (3, 4096),
        ] {
            for p in 1..=17 {
                let g = grid(m, 64, n, p, 1);
                assert!(g.rows >= 1 && g.rows <= m && g.cols >= 1 && g.cols <= n);
                // Four tiles a thread, more only where a side over MAX_SIDE was cut.
                let cuts = 4 * m.div_ceil(MAX_SIDE) * n.div_ceil(MAX_SIDE);
                assert!(
                    count(m, n, g) <= TILES_PER_THREAD * p * cuts,
                    "{m}x{n} on {p}: {g:?}"
                );
                if p > 1 {
                    assert!(
                        g.rows <= MAX_SIDE && g.cols <= MAX_SIDE,
                        "{m}x{n} on {p}: {g:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_work_bounds_the_tile_count() {
        // 8 tiles' worth of work on 16 threads: at most 8 tiles.
        let g = grid(256, 256, 256, 16, 256 * 256 * 256 / 8);
        assert!(count(256, 256, g) <= 8);
        assert_eq!(
            grid(64, 64, 64, 16, MIN_TILE_WORK),
            Grid { rows: 64, cols: 64 }
        );
    }
}
