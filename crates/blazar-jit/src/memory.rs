//! Array accesses: index shapes, boundary modes, `'checked` errors, loads, stores and
//! atomic updates of global arrays (the interpreter's `memory`).

use crate::abi::OUT_OF_BOUNDS;
use crate::gen::{args, cty, Gen};
use crate::helpers;
use blazar_kir::{ArrayTy, AtomicOp, Expr, Loc, ReadMode, Scalar, WriteMode};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::I64;
use cranelift_codegen::ir::{InstBuilder, MemFlags, Value};

/// A global array of the launch: data pointer and extents (loaded once per range).
#[derive(Clone, Debug)]
pub(crate) struct Arr {
    pub data: Value,
    pub dims: Vec<Value>,
    pub t: ArrayTy,
}

impl Gen<'_, '_> {
    /// The index expressions as i64 values (vectors give all their lanes).
    pub fn index_values(&mut self, index: &[Expr]) -> Result<Vec<Value>, String> {
        let mut out = Vec::new();
        for e in index {
            let s = e.ty.elem();
            for v in self.expr(e)? {
                out.push(self.widen(v, s)?);
            }
        }
        if out.is_empty() || out.len() > 8 {
            return Err(format!("{} indices", out.len()));
        }
        Ok(out)
    }

    /// The extents that `k` indices into `a` run over: its dims padded in front with
    /// 1s, or its trailing dims folded into the last index.
    pub fn logical_shape(&mut self, a: &Arr, k: usize) -> Vec<Value> {
        let r = a.dims.len();
        let mut shape = Vec::with_capacity(k);
        if k >= r {
            for i in 0..k {
                shape.push(if i < k - r {
                    self.b.ins().iconst(I64, 1)
                } else {
                    a.dims[i - (k - r)]
                });
            }
        } else {
            shape.extend_from_slice(&a.dims[..k - 1]);
            let mut p = a.dims[k - 1];
            for &d in &a.dims[k..] {
                p = self.b.ins().imul(p, d);
            }
            shape.push(p);
        }
        shape
    }

    /// The element offset of `idx` into `a` for an access the work item's guard
    /// proved in range (`key` its address in the kernel), if it is one: no checks.
    fn proven_offset(&mut self, key: usize, a: &Arr, idx: &[Value]) -> Option<Value> {
        let forms = self.proofs?.forms(key)?;
        if forms.len() != idx.len() {
            return None;
        }
        let shape = self.logical_shape(a, idx.len());
        let mut off = idx[0];
        for (&n, &i) in shape.iter().zip(idx).skip(1) {
            let scaled = self.b.ins().imul(off, n);
            off = self.b.ins().iadd(scaled, i);
        }
        Some(off)
    }

    /// The element offset of `idx` into `a` under `mode`, and whether it is inside
    /// (`None`: always, a `'checked` miss having stopped the range).
    fn offset(&mut self, a: &Arr, idx: &[Value], mode: ReadMode) -> (Value, Option<Value>) {
        let shape = self.logical_shape(a, idx.len());
        let mut off = self.b.ins().iconst(I64, 0);
        let mut ok: Option<Value> = None;
        for (d, (&n, &i)) in shape.iter().zip(idx).enumerate() {
            let inside = self.b.ins().icmp(IntCC::UnsignedLessThan, i, n);
            let j = match mode {
                ReadMode::Checked => {
                    let dv = self.b.ins().iconst(I64, d as i64);
                    self.check(inside, OUT_OF_BOUNDS, i, dv, n);
                    i
                }
                ReadMode::Zero | ReadMode::Unchecked => {
                    ok = Some(match ok {
                        Some(o) => self.b.ins().band(o, inside),
                        None => inside,
                    });
                    i
                }
                ReadMode::Clamped | ReadMode::Circular | ReadMode::Mirror => {
                    let empty = self.b.ins().icmp_imm(IntCC::Equal, n, 0);
                    let one = self.b.ins().iconst(I64, 1);
                    let nn = self.b.ins().select(empty, one, n);
                    let z = self.b.ins().iconst(I64, 0);
                    let neg = self.b.ins().icmp_imm(IntCC::SignedLessThan, i, 0);
                    let j = match mode {
                        ReadMode::Clamped => {
                            let last = self.b.ins().iadd_imm(nn, -1);
                            self.b.ins().select(neg, z, last)
                        }
                        ReadMode::Circular => {
                            let r = self.b.ins().srem(i, nn);
                            let rneg = self.b.ins().icmp_imm(IntCC::SignedLessThan, r, 0);
                            let rn = self.b.ins().iadd(r, nn);
                            self.b.ins().select(rneg, rn, r)
                        }
                        _ => {
                            let ni = self.b.ins().ineg(i);
                            let abs = self.b.ins().select(neg, ni, i);
                            let m = self.b.ins().ishl_imm(nn, 1);
                            let jj = self.b.ins().urem(abs, m);
                            let back = self.b.ins().icmp(IntCC::UnsignedGreaterThanOrEqual, jj, nn);
                            let m1 = self.b.ins().iadd_imm(m, -1);
                            let rev = self.b.ins().isub(m1, jj);
                            self.b.ins().select(back, rev, jj)
                        }
                    };
                    let nonempty = self.b.ins().bxor_imm(empty, 1);
                    ok = Some(match ok {
                        Some(o) => self.b.ins().band(o, nonempty),
                        None => nonempty,
                    });
                    self.b.ins().select(inside, i, j)
                }
            };
            let scaled = self.b.ins().imul(off, n);
            off = self.b.ins().iadd(scaled, j);
        }
        (off, ok)
    }

    fn arr(&self, arr: u32) -> Result<Arr, String> {
        self.arrs
            .get(arr as usize)
            .cloned()
            .flatten()
            .ok_or_else(|| format!("array @{arr} is not a kernel argument"))
    }

    fn address(&mut self, a: &Arr, off: Value) -> Value {
        let bytes = self.b.ins().imul_imm(off, a.t.elem.size() as i64);
        self.b.ins().iadd(a.data, bytes)
    }

    /// The element offset of `idx` into `a` under `mode` ([`Gen::offset`]), a
    /// `'checked` miss recording the access's place `at` (its line and column).
    fn offset_at(
        &mut self,
        a: &Arr,
        idx: &[Value],
        mode: ReadMode,
        at: Loc,
    ) -> (Value, Option<Value>) {
        let line = self.line;
        self.line = at.record(line);
        let r = self.offset(a, idx, mode);
        self.line = line;
        r
    }

    /// `arr[idx]` under the array's read mode (0 outside unless remapped); `key` is
    /// the address of the load in the kernel (for the range facts), `at` its place.
    pub fn load(&mut self, key: usize, arr: u32, idx: &[Value], at: Loc) -> Result<Value, String> {
        let a = self.arr(arr)?;
        let (off, ok) = match self.proven_offset(key, &a, idx) {
            Some(off) => (off, None),
            None => self.offset_at(&a, idx, a.t.read, at),
        };
        let ty = cty(a.t.elem);
        let fl = MemFlags::trusted();
        Ok(match ok {
            None => {
                let at = self.address(&a, off);
                self.b.ins().load(ty, fl, at, 0)
            }
            Some(ok) => {
                let (ld, merge) = (self.b.create_block(), self.b.create_block());
                let res = self.b.append_block_param(merge, ty);
                let z = self.zero(a.t.elem);
                self.b.ins().brif(ok, ld, &[], merge, &args(&[z]));
                self.b.switch_to_block(ld);
                let at = self.address(&a, off);
                let v = self.b.ins().load(ty, fl, at, 0);
                self.b.ins().jump(merge, &args(&[v]));
                self.b.switch_to_block(merge);
                res
            }
        })
    }

    /// `arr[idx] = x` (or `op=`) under the array's write mode (skipped outside);
    /// `key` is the address of the statement in the kernel (for the range facts), `at`
    /// the access's place.
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &mut self,
        key: usize,
        arr: u32,
        idx: &[Value],
        x: Value,
        s: Scalar,
        op: Option<AtomicOp>,
        at: Loc,
    ) -> Result<(), String> {
        let a = self.arr(arr)?;
        if s != a.t.elem {
            return Err("storing a value of another type".into());
        }
        let mode = if a.t.write == WriteMode::Checked {
            ReadMode::Checked
        } else {
            ReadMode::Zero
        };
        let (off, ok) = match self.proven_offset(key, &a, idx) {
            Some(off) => (off, None),
            None => self.offset_at(&a, idx, mode, at),
        };
        let merge = self.b.create_block();
        if let Some(ok) = ok {
            let st = self.b.create_block();
            self.b.ins().brif(ok, st, &[], merge, &[]);
            self.b.switch_to_block(st);
        }
        let at = self.address(&a, off);
        match op {
            None => {
                self.b.ins().store(MemFlags::trusted(), x, at, 0);
            }
            Some(op) => {
                let ty = cty(s);
                let bits = if s.is_float() {
                    let it = ty.as_int();
                    self.b.ins().bitcast(it, MemFlags::new(), x)
                } else {
                    x
                };
                let bits = if ty.bits() < 64 {
                    self.b.ins().uextend(I64, bits)
                } else {
                    bits
                };
                let e = self.b.ins().iconst(I64, helpers::elem_code(s));
                let o = self.b.ins().iconst(I64, helpers::op_code(op));
                self.call(
                    helpers::update as *const () as usize,
                    &[I64; 4],
                    None,
                    &[at, e, o, bits],
                );
            }
        }
        self.b.ins().jump(merge, &[]);
        self.b.switch_to_block(merge);
        Ok(())
    }
}
