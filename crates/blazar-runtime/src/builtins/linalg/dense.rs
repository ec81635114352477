//! The factorizations in the program's precision: `single` (f32, the default, as NumPy
//! computes in an f32 array's precision) and `double` (`--double`), the same code
//! instantiated for each element type. Operands and results travel as f64 `Mat`s;
//! `None` means the factorization failed (a zero pivot, not positive definite, no
//! convergence), which the caller reports.

macro_rules! in_precision {
    ($module:ident, $t:ty) => {
        #[allow(clippy::unnecessary_cast)]
        pub(in crate::builtins) mod $module {
            use faer::linalg::solvers::DenseSolveCore;
            use faer::prelude::*;
            use faer::{Mat, MatRef, Side};

            type T = $t;

            fn to(a: &Mat<f64>) -> Mat<T> {
                Mat::from_fn(a.nrows(), a.ncols(), |i, j| a[(i, j)] as T)
            }

            fn back(a: MatRef<'_, T>) -> Mat<f64> {
                Mat::from_fn(a.nrows(), a.ncols(), |i, j| a[(i, j)] as f64)
            }

            fn lu(a: &Mat<f64>) -> (faer::linalg::solvers::PartialPivLu<T>, bool) {
                let lu = to(a).partial_piv_lu();
                let u = lu.U();
                let singular = (0..u.nrows()).any(|i| u[(i, i)] == 0.0);
                (lu, singular)
            }

            /// The inverse; `None` when a pivot is exactly zero.
            pub fn inv(a: &Mat<f64>) -> Option<Mat<f64>> {
                let (lu, singular) = lu(a);
                (!singular).then(|| back(lu.inverse().as_ref()))
            }

            pub fn det(a: &Mat<f64>) -> f64 {
                to(a).determinant() as f64
            }

            /// `log |det|` from the diagonal of U.
            pub fn logdet(a: &Mat<f64>) -> f64 {
                let (lu, _) = lu(a);
                let u = lu.U();
                (0..u.nrows()).map(|i| (u[(i, i)] as f64).abs().ln()).sum()
            }

            /// `A x = b` for a square `A` (LU), least squares for a tall one (QR), the
            /// minimum-norm solution `A' (A A')^-1 b` for a wide one; `None` when the LU
            /// has a zero pivot.
            pub fn solve(a: &Mat<f64>, b: &Mat<f64>) -> Option<Mat<f64>> {
                let (at, bt) = (to(a), to(b));
                if a.nrows() == a.ncols() {
                    let (lu, singular) = lu(a);
                    return (!singular).then(|| back(lu.solve(&bt).as_ref()));
                }
                if a.nrows() > a.ncols() {
                    return Some(back(at.qr().solve_lstsq(&bt).as_ref()));
                }
                let tr = at.transpose().to_owned();
                let gram = &at * &tr;
                let lu = gram.partial_piv_lu();
                Some(back((tr * lu.solve(&bt)).as_ref()))
            }

            /// The upper Cholesky factor R (`R' R = A`); `None` when `A` is not
            /// positive definite.
            pub fn chol_upper(a: &Mat<f64>) -> Option<Mat<f64>> {
                let llt = to(a).llt(Side::Lower).ok()?;
                let l = llt.L();
                let n = l.nrows();
                Some(Mat::from_fn(n, n, |i, j| {
                    if i <= j {
                        l[(j, i)] as f64
                    } else {
                        0.0
                    }
                }))
            }

            /// The singular values (descending) and, with `vectors`, U and V (full, or
            /// `thin`: min(m, n) columns each).
            pub fn svd(
                a: &Mat<f64>,
                vectors: bool,
                thin: bool,
            ) -> Option<(Vec<f64>, Option<(Mat<f64>, Mat<f64>)>)> {
                let at = to(a);
                if !vectors {
                    let s = at.singular_values().ok()?;
                    return Some((s.into_iter().map(|x| x as f64).collect(), None));
                }
                let d = if thin { at.thin_svd() } else { at.svd() }.ok()?;
                let s = d.S().column_vector();
                let s = (0..s.nrows()).map(|i| s[i] as f64).collect();
                Some((s, Some((back(d.U()), back(d.V())))))
            }

            /// The eigenvalues of a symmetric matrix (ascending, from its lower
            /// triangle) and, with `vectors`, the eigenvectors as columns.
            pub fn symeig(a: &Mat<f64>, vectors: bool) -> Option<(Vec<f64>, Option<Mat<f64>>)> {
                let at = to(a);
                if !vectors {
                    let d = at.self_adjoint_eigenvalues(Side::Lower).ok()?;
                    return Some((d.into_iter().map(|x| x as f64).collect(), None));
                }
                let e = at.self_adjoint_eigen(Side::Lower).ok()?;
                let s = e.S().column_vector();
                let d = (0..s.nrows()).map(|i| s[i] as f64).collect();
                Some((d, Some(back(e.U()))))
            }
        }
    };
}

in_precision!(single, f32);
in_precision!(double, f64);

/// Calls `$f` of the module of precision `$prec` (`Prec::Single` → `single`).
macro_rules! by_prec {
    ($prec:expr, $f:ident($($arg:expr),*)) => {
        match $prec {
            crate::value::Prec::Single => crate::builtins::linalg::dense::single::$f($($arg),*),
            crate::value::Prec::Double => crate::builtins::linalg::dense::double::$f($($arg),*),
        }
    };
}
pub(super) use by_prec;
