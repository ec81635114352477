//! Broadcasting of two operands' shapes, as the host evaluator and AIR apply it.

/// The shape of an element-wise result of operands with shapes `a` and `b` (row-major
/// dims; empty: a scalar), or `None` where they do not broadcast. Shapes are aligned at
/// their last dimension; a missing dimension counts as 1, and a dimension of 1 takes the
/// other operand's extent. A scalar takes the other operand's shape.
pub fn shape(a: &[usize], b: &[usize]) -> Option<Vec<usize>> {
    if a.is_empty() {
        return Some(b.to_vec());
    }
    if b.is_empty() {
        return Some(a.to_vec());
    }
    let r = a.len().max(b.len());
    let at = |d: &[usize], k: usize| {
        if k + d.len() >= r {
            d[k + d.len() - r]
        } else {
            1
        }
    };
    (0..r)
        .map(|k| {
            let (p, q) = (at(a, k), at(b, k));
            if p == q || q == 1 {
                Some(p)
            } else if p == 1 {
                Some(q)
            } else {
                None
            }
        })
        .collect()
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
        assert_eq!(shape(&[2, 3], &[3, 2]), None);
        assert_eq!(shape(&[3], &[4]), None);
    }
}
