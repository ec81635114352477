//! The factorizations of complex matrices, in the program's precision (`c32` by
//! default, `c64` with `--double`), as `dense.rs` does for real ones: the functions
//! MATLAB accepts complex matrices in (`inv det logdet linsolve chol svd` and the
//! Hermitian eigendecomposition; `eig` of a general matrix is computed in `c64` by the
//! caller). Operands and results travel as `c64` `Mat`s; `None` means the
//! factorization failed, which the caller reports.

macro_rules! in_precision {
    ($module:ident, $r:ty) => {
        #[allow(clippy::unnecessary_cast)]
        pub(in crate::builtins) mod $module {
            use faer::linalg::solvers::DenseSolveCore;
            use faer::prelude::*;
            use faer::{c64, Mat, MatRef, Side};
            use num_complex::Complex;

            type R = $r;
            type T = Complex<$r>;

            fn to(a: &Mat<c64>) -> Mat<T> {
                Mat::from_fn(a.nrows(), a.ncols(), |i, j| {
                    let z = a[(i, j)];
                    T::new(z.re as R, z.im as R)
                })
            }

            fn back(a: MatRef<'_, T>) -> Mat<c64> {
                Mat::from_fn(a.nrows(), a.ncols(), |i, j| {
                    let z = a[(i, j)];
                    c64::new(z.re as f64, z.im as f64)
                })
            }

            fn lu(a: &Mat<c64>) -> (faer::linalg::solvers::PartialPivLu<T>, bool) {
                let lu = to(a).partial_piv_lu();
                let u = lu.U();
                let singular = (0..u.nrows()).any(|i| u[(i, i)] == T::new(0.0, 0.0));
                (lu, singular)
            }

            /// The inverse; `None` when a pivot is exactly zero.
            pub fn inv(a: &Mat<c64>) -> Option<Mat<c64>> {
                let (lu, singular) = lu(a);
                (!singular).then(|| back(lu.inverse().as_ref()))
            }

            pub fn det(a: &Mat<c64>) -> c64 {
                let d = to(a).determinant();
                c64::new(d.re as f64, d.im as f64)
            }

            /// `log |det|` from the magnitudes of U's diagonal.
            pub fn logdet(a: &Mat<c64>) -> f64 {
                let (lu, _) = lu(a);
                let u = lu.U();
                (0..u.nrows()).map(|i| (u[(i, i)].norm() as f64).ln()).sum()
            }

            /// `A x = b`: LU for a square `A`, least squares (QR) for a tall one, the
            /// minimum-norm solution `A^H (A A^H)^-1 b` for a wide one.
            pub fn solve(a: &Mat<c64>, b: &Mat<c64>) -> Option<Mat<c64>> {
                let (at, bt) = (to(a), to(b));
                if a.nrows() == a.ncols() {
                    let (lu, singular) = lu(a);
                    return (!singular).then(|| back(lu.solve(&bt).as_ref()));
                }
                if a.nrows() > a.ncols() {
                    return Some(back(at.qr().solve_lstsq(&bt).as_ref()));
                }
                let tr: Mat<T> = at.adjoint().to_owned();
                let gram = &at * &tr;
                let lu = gram.partial_piv_lu();
                Some(back((tr * lu.solve(&bt)).as_ref()))
            }

            /// The upper factor R of a Hermitian positive definite matrix
            /// (`R^H R = A`, the lower triangle read); `None` when it is not one.
            pub fn chol_upper(a: &Mat<c64>) -> Option<Mat<c64>> {
                let llt = to(a).llt(Side::Lower).ok()?;
                let l = llt.L();
                let n = l.nrows();
                // The diagonal of a Hermitian matrix's factor is real and positive; the
                // factorization leaves rounding residue in its imaginary parts.
                Some(Mat::from_fn(n, n, |i, j| {
                    if i == j {
                        c64::new(l[(i, i)].re as f64, 0.0)
                    } else if i < j {
                        let z = l[(j, i)];
                        c64::new(z.re as f64, -(z.im as f64))
                    } else {
                        c64::new(0.0, 0.0)
                    }
                }))
            }

            /// The singular values (descending) and, with `vectors`, U and V (full, or
            /// `thin`: min(m, n) columns each).
            pub fn svd(
                a: &Mat<c64>,
                vectors: bool,
                thin: bool,
            ) -> Option<(Vec<f64>, Option<(Mat<c64>, Mat<c64>)>)> {
                let at = to(a);
                if !vectors {
                    let s = at.singular_values().ok()?;
                    return Some((s.into_iter().map(|x| x as f64).collect(), None));
                }
                let d = if thin { at.thin_svd() } else { at.svd() }.ok()?;
                let s = d.S().column_vector();
                let s = (0..s.nrows()).map(|i| s[i].re as f64).collect();
                Some((s, Some((back(d.U()), back(d.V())))))
            }

            /// The (real, ascending) eigenvalues of a Hermitian matrix, from its lower
            /// triangle, and with `vectors` the eigenvectors as columns.
            pub fn symeig(a: &Mat<c64>, vectors: bool) -> Option<(Vec<f64>, Option<Mat<c64>>)> {
                let at = to(a);
                if !vectors {
                    let d = at.self_adjoint_eigenvalues(Side::Lower).ok()?;
                    return Some((d.into_iter().map(|x| x as f64).collect(), None));
                }
                let e = at.self_adjoint_eigen(Side::Lower).ok()?;
                let s = e.S().column_vector();
                let d = (0..s.nrows()).map(|i| s[i].re as f64).collect();
                Some((d, Some(back(e.U()))))
            }
        }
    };
}

in_precision!(single, f32);
in_precision!(double, f64);

/// Calls `$f` of the complex module of precision `$prec`.
macro_rules! by_cprec {
    ($prec:expr, $f:ident($($arg:expr),*)) => {
        match $prec {
            crate::value::Prec::Single => crate::builtins::linalg::complex::single::$f($($arg),*),
            crate::value::Prec::Double => crate::builtins::linalg::complex::double::$f($($arg),*),
        }
    };
}
pub(super) use by_cprec;
