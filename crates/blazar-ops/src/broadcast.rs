//! Broadcasting of two operands' shapes, as the host evaluator and AIR apply it.

/// The shape of an element-wise result of operands with shapes `a` and `b` (row-major
/// dims; empty: a scalar), or `None` where they do not broadcast.
///
/// MATLAB's and Quasar's rule: shapes are compared from the first dimension, a vec of N
/// counts as 1×N, and missing trailing dimensions count as 1, so an M×N mat and an
/// M×N×1 cube are the same shape and a vec against an M×N mat repeats over rows. An
/// extent of 1 takes the other operand's extent; any other difference does not
/// broadcast. A scalar takes the other operand's shape; two vecs give a vec; otherwise
/// the result has the larger rank.
pub fn shape(a: &[usize], b: &[usize]) -> Option<Vec<usize>> {
    if a.is_empty() {
        return Some(b.to_vec());
    }
    if b.is_empty() {
        return Some(a.to_vec());
    }
    if a.len() == 1 && b.len() == 1 {
        return combine(a[0], b[0]).map(|n| vec![n]);
    }
    let r = a.len().max(b.len()).max(2);
    let (x, y) = (aligned(a, r), aligned(b, r));
    (0..r).map(|k| combine(x[k], y[k])).collect()
}

/// Dims `d` of an array operand as they line up against a result of rank `r` (at
/// least `d`'s): a vec of N as 1×N, then 1s for the missing trailing dimensions.
/// Row-major strides over these dims address the operand's own elements.
pub fn aligned(d: &[usize], r: usize) -> Vec<usize> {
    let mut out = if d.len() == 1 && r >= 2 {
        vec![1, d[0]]
    } else {
        d.to_vec()
    };
    out.resize(r.max(out.len()), 1);
    out
}

/// The dimension of a result of rank `r` that dimension `j` of an operand of rank
/// `rank` lines up with (see [`aligned`]).
pub fn result_dim(rank: usize, r: usize, j: usize) -> usize {
    if rank == 1 && r >= 2 {
        1
    } else {
        j
    }
}

fn combine(p: usize, q: usize) -> Option<usize> {
    if p == q || q == 1 {
        Some(p)
    } else if p == 1 {
        Some(q)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::shape;

    #[test]
    fn shapes() {
        assert_eq!(shape(&[], &[2, 3]), Some(vec![2, 3]));
        assert_eq!(shape(&[4], &[]), Some(vec![4]));
        assert_eq!(shape(&[], &[]), Some(vec![]));
        assert_eq!(shape(&[2, 3], &[3]), Some(vec![2, 3]));
        assert_eq!(shape(&[2, 1], &[1, 3]), Some(vec![2, 3]));
        assert_eq!(shape(&[2, 1], &[3]), Some(vec![2, 3]));
        assert_eq!(shape(&[2, 3], &[3, 2]), None);
        assert_eq!(shape(&[3], &[4]), None);
        assert_eq!(shape(&[3], &[3]), Some(vec![3]));
    }

    #[test]
    fn leading_dimensions_align() {
        // An M×N mat and an M×N×1 cube are the same shape (never M×N×M).
        assert_eq!(shape(&[4, 4], &[4, 4, 1]), Some(vec![4, 4, 1]));
        assert_eq!(shape(&[4, 5, 1], &[4, 5]), Some(vec![4, 5, 1]));
        // A mat against a cube of channels repeats over the channels.
        assert_eq!(shape(&[4, 5], &[4, 5, 3]), Some(vec![4, 5, 3]));
        // A vec is a row: it lines up with the second dimension, not the last.
        assert_eq!(shape(&[5], &[4, 5, 3]), Some(vec![4, 5, 3]));
        assert_eq!(shape(&[3], &[4, 5, 3]), None);
        assert_eq!(shape(&[5, 3], &[4, 5, 3]), None);
        assert_eq!(shape(&[4, 1, 3], &[1, 5]), Some(vec![4, 5, 3]));
    }

    #[test]
    fn operands_line_up() {
        use super::{aligned, result_dim};
        assert_eq!(aligned(&[5], 3), vec![1, 5, 1]);
        assert_eq!(aligned(&[5], 1), vec![5]);
        assert_eq!(aligned(&[4, 5], 3), vec![4, 5, 1]);
        assert_eq!(result_dim(1, 3, 0), 1);
        assert_eq!(result_dim(1, 1, 0), 0);
        assert_eq!(result_dim(2, 3, 1), 1);
    }
}
