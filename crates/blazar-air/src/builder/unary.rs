//! Unary nodes: negation, logical not, one-argument math builtins and conversions, and
//! the complex functions (`real`, `imag`, `abs`, `angle`, `conj`).

use super::*;
use blazar_ops::Sig;

impl Builder {
    /// `-a`: the operand's type (ints wrap).
    pub fn neg(&mut self, a: NodeRef) -> Option<NodeRef> {
        let t = self.ty(a);
        if t.is_int() && !int_arith(t) {
            return None;
        }
        let (dims, clean) = (self.dims(a).to_vec(), self.clean[a.0 as usize]);
        Some(self.push(NodeKind::Neg(a.0), t, dims, clean))
    }

    /// `!a`: a 0/1 real.
    pub fn not(&mut self, a: NodeRef) -> Option<NodeRef> {
        if self.ty(a).is_complex() {
            return None;
        }
        let b = self.truth(a);
        let dims = self.dims(a).to_vec();
        let v = self.push(NodeKind::Not(b.0), Scalar::Bool, dims, false);
        Some(self.cast(v, self.prec.real()))
    }

    /// A one-argument math builtin by name, on a real or int operand (ints convert to
    /// reals first, except where the host keeps them).
    pub fn math(&mut self, name: &str, a: NodeRef) -> Option<NodeRef> {
        if self.ty(a).is_complex() {
            return self.complex_math(name, a);
        }
        if let Some(t) = conversion(name, self.prec) {
            let from = self.ty(a);
            if t.is_int() && name != "int" {
                // MATLAB's `int8(x)` .. `uint64(x)`, as the host's: reals round halves
                // away from zero before the saturating cast; ints saturate, which the
                // host does where the range does not fit.
                if from.is_float() {
                    let dims = self.dims(a).to_vec();
                    let r = self.push(
                        NodeKind::Math(MathFn::Round, a.0),
                        from,
                        dims,
                        from == Scalar::F32,
                    );
                    return Some(self.cast(r, t));
                }
                let fits = match (from.int_range(), t.int_range()) {
                    (Some((fl, fh)), Some((tl, th))) => fl >= tl && fh <= th,
                    _ => from == Scalar::Bool,
                };
                if !fits {
                    return None;
                }
            }
            // `int(x)`: reals truncate toward zero and saturate (NaN gives 0), ints wrap:
            // KIR's casts, as the host's conversion.
            let v = self.cast(a, t);
            if v == a {
                // Already of that type: the value itself, as a node of its own.
                let dims = self.dims(a).to_vec();
                let clean = self.clean[a.0 as usize];
                return Some(self.push(NodeKind::Cast(a.0), t, dims, clean));
            }
            return Some(v);
        }
        let f = MathFn::from_name(name, 1).filter(|f| f.def().fuses(false))?;
        if self.ty(a).is_int() {
            // abs, floor, ceil, round and sign keep ints on the host.
            return None;
        }
        let c = if self.prec == Prec::Single && f.in_f32() {
            Scalar::F32
        } else {
            self.real_compute(a, None)
        };
        let x = self.cast(a, c);
        let dims = self.dims(a).to_vec();
        let test = matches!(f, MathFn::IsNan | MathFn::IsInf | MathFn::IsFinite);
        let ty = if test { Scalar::Bool } else { c };
        let v = self.push(NodeKind::Math(f, x.0), ty, dims, ty == Scalar::F32);
        Some(self.cast(v, self.prec.real()))
    }

    /// `real`, `imag`, `abs`, `angle` (reals) and `conj` of a complex operand, as the
    /// host computes them: in complex f64, rounded to the precision's type.
    fn complex_math(&mut self, name: &str, a: NodeRef) -> Option<NodeRef> {
        let f = MathFn::from_name(name, 1).filter(|f| f.def().fuses(true))?;
        let ty = match f.def().sig {
            Sig::RealPart => Scalar::F64,
            Sig::Number => Scalar::C64,
            _ => return None,
        };
        let x = self.cast(a, Scalar::C64);
        let dims = self.dims(a).to_vec();
        let v = self.push(NodeKind::Math(f, x.0), ty, dims, false);
        let out = if ty == Scalar::C64 {
            complex_of(self.prec)
        } else {
            self.prec.real()
        };
        Some(self.cast(v, out))
    }
}
