//! The work-item guard of the fast copy of a body: whether every access that the
//! kernel's range facts (`blazar_kir::affine`) describe lies inside its array for all
//! threads of the current work item.
//!
//! A work item is a run of consecutive threads in row-major order. Over it, component
//! `c` of `pos` lies between its values at the first and the last thread when the
//! components before `c` are the same at both, and anywhere in `0..kd[c]` otherwise;
//! an index `Σ coef[c]·pos[c] + rest` with `rest` in `lo..=hi` is then bounded by
//! adding each term's bound on the side of its sign. When the guard holds, the fast
//! copy addresses those accesses without checks or boundary modes, which is exact: an
//! index in range reads and writes the same element under every mode (and below 2^31
//! the kernel's wrapped `i32` index equals the form's exact value).

use crate::gen::Gen;
use crate::memory::Arr;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I64, I8};
use cranelift_codegen::ir::{InstBuilder, Value};

impl Gen<'_, '_> {
    /// The guard (an `i8` of 0 or 1) for the threads from position `first` to
    /// position `last` (both i64 per component); the kernel's variables must hold
    /// their initial values (the forms' bounds read only parameters).
    pub fn item_guard(&mut self, first: &[Value], last: &[Value]) -> Result<Value, String> {
        let Some(ranges) = self.proofs else {
            return Ok(self.b.ins().iconst(I8, 0));
        };
        // Per component, its bounds over the work item.
        let mut bounds = Vec::with_capacity(first.len());
        let mut same: Option<Value> = None;
        for c in 0..first.len() {
            let (s, e) = (first[c], last[c]);
            let (lo, hi) = match same {
                None => (s, e),
                Some(eq) => {
                    let z = self.b.ins().iconst(I64, 0);
                    let top = self.b.ins().iadd_imm(self.kd[c], -1);
                    (
                        self.b.ins().select(eq, s, z),
                        self.b.ins().select(eq, e, top),
                    )
                }
            };
            bounds.push((lo, hi));
            let eq = self.b.ins().icmp(IntCC::Equal, s, e);
            same = Some(match same {
                None => eq,
                Some(p) => self.b.ins().band(p, eq),
            });
        }
        let mut keys: Vec<usize> = ranges.accesses.keys().copied().collect();
        keys.sort_unstable();
        let mut ok = self.b.ins().iconst(I8, 1);
        for key in keys {
            let (arr, forms) = &ranges.accesses[&key];
            let a: Arr = self
                .arrs
                .get(*arr as usize)
                .cloned()
                .flatten()
                .ok_or_else(|| format!("array @{arr} is not a kernel argument"))?;
            let shape = self.logical_shape(&a, forms.len());
            for (f, &n) in forms.iter().zip(&shape) {
                let mut lo = self.scalar(&f.lo)?;
                let mut hi = self.scalar(&f.hi)?;
                for (c, &k) in f.coef.iter().enumerate() {
                    if k == 0 {
                        continue;
                    }
                    let Some(&(bl, bh)) = bounds.get(c) else {
                        return Err(format!("a range fact names pos component {c}"));
                    };
                    let (l, h) = if k > 0 { (bl, bh) } else { (bh, bl) };
                    let l = self.b.ins().imul_imm(l, k);
                    let h = self.b.ins().imul_imm(h, k);
                    lo = self.b.ins().iadd(lo, l);
                    hi = self.b.ins().iadd(hi, h);
                }
                let c1 = self
                    .b
                    .ins()
                    .icmp_imm(IntCC::SignedGreaterThanOrEqual, lo, 0);
                let c2 = self.b.ins().icmp(IntCC::SignedLessThan, hi, n);
                let c3 = self.b.ins().icmp_imm(
                    IntCC::SignedLessThanOrEqual,
                    hi,
                    blazar_kir::affine::I32_MAX,
                );
                ok = self.b.ins().band(ok, c1);
                ok = self.b.ins().band(ok, c2);
                ok = self.b.ins().band(ok, c3);
                for cond in &f.conds {
                    let c = self.scalar(cond)?;
                    let c = self.b.ins().icmp_imm(IntCC::NotEqual, c, 0);
                    ok = self.b.ins().band(ok, c);
                }
            }
        }
        Ok(ok)
    }
}
