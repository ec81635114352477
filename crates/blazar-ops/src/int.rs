//! Integer semantics shared by every Rust evaluator (the host and the SIMT
//! interpreter); the C preludes spell the same rules as `bz_*` helpers.

/// Integer types with C-like wrapping arithmetic.
pub trait Int: Copy + PartialEq + Default {
    fn wrapping_rem(self, b: Self) -> Self;
}

macro_rules! int {
    ($($t:ty),*) => {$(
        impl Int for $t {
            #[inline(always)]
            fn wrapping_rem(self, b: Self) -> Self {
                <$t>::wrapping_rem(self, b)
            }
        }
    )*};
}
int!(i8, i16, i32, i64, i128, u8, u16, u32, u64);

/// `a mod b` on ints: the remainder with the sign of the dividend (C `%`), 0 for a
/// divisor of 0, and 0 for `MIN mod -1` (it wraps).
#[inline(always)]
pub fn rem<T: Int>(a: T, b: T) -> T {
    if b == T::default() {
        T::default()
    } else {
        a.wrapping_rem(b)
    }
}

#[cfg(test)]
mod tests {
    use super::rem;

    #[test]
    fn rem_follows_c() {
        assert_eq!(rem(7i32, 3), 1);
        assert_eq!(rem(-7i32, 3), -1);
        assert_eq!(rem(7i32, -3), 1);
        assert_eq!(rem(5i64, 0), 0);
        assert_eq!(rem(i64::MIN, -1), 0);
        assert_eq!(rem(7u8, 0), 0);
        assert_eq!(rem(u64::MAX, 10), 5);
    }
}
