//! Array accesses and allocations: loads, stores, read-modify-write updates, sizes and
//! per-thread dynamic memory.
//!
//! Indexing follows the CPU executor: `k` indices into an array of rank `r` use the
//! shape `dims` left-padded with 1s when `k > r`, and fold the trailing dims into the
//! last index when `k < r` (one index is linear). Each index is an i64; an element that
//! does not exist (outside under zero/unchecked/skip modes, or an empty dimension) reads
//! as zero and is not written; circular, mirror and clamped reads remap the index;
//! `'checked` accesses record the error of the first dimension outside. Accesses are
//! GCC statement expressions, so every index is evaluated once.

use super::Gen;
use crate::printer::Dialect;
use crate::spell::{self, scalar};
use blazar_kir::{
    ArrId, ArrayTy, AtomicOp, Expr, ExprKind, Fill, Loc, ReadMode, Space, Ty, WriteMode,
};
use std::fmt::Write;

impl Gen<'_> {
    fn arr_ty(&self, a: ArrId) -> Option<ArrayTy> {
        match self.k.arrays.get(a as usize).map(|d| d.ty) {
            Some(Ty::Array(t)) => Some(t),
            _ => None,
        }
    }

    /// The extents used to index `@a` with `k` indices.
    pub(crate) fn shape(&self, a: ArrId, r: usize, k: usize) -> Vec<String> {
        let name = self.arr_name(a);
        let dim = |i: usize| format!("{name}_d{i}");
        crate::printer::index_extents(r, k, dim)
    }

    /// Statements (inside a statement expression or block) that compute `bz_ok` and
    /// `bz_off` for `@a[index]` under `mode`; returns them as one string. A `'checked`
    /// miss records the access's place `at` (its line and column, `Loc::record`).
    fn offset_code(
        &mut self,
        key: usize,
        (a, at): (ArrId, Loc),
        t: ArrayTy,
        index: &[Expr],
        mode: ReadMode,
        scatter: bool,
    ) -> String {
        let k = index.len().max(1);
        let proven = if self.fast {
            self.proofs.forms(key)
        } else {
            None
        };
        let shape = self.shape(a, (t.rank as usize).max(1), k);
        let mut code = String::new();
        let mut names = Vec::new();
        // A single index from a thread loop's counter: its i32 form (`widen.rs`).
        let mut narrow = None;
        for (d, e) in index.iter().enumerate() {
            let x = self.expr(e);
            let i = self.tmp();
            let wide = match (&e.kind, &self.wide) {
                (ExprKind::Var(v), Some((w, x64))) if v == w => Some(x64.clone()),
                _ => None,
            };
            let exact = if wide.is_none() {
                self.thread_index(t, mode, e)
            } else {
                None
            };
            if let Some(x) = &exact {
                code.push_str(&x.pre);
                if k == 1 && matches!(t.space, Space::Shared | Space::Global) {
                    narrow = Some(x.narrow.clone());
                }
            }
            let icast = if scatter {
                self.index_cast(e, &shape[d])
            } else {
                None
            };
            let conv = if let Some(x64) = wide.or(exact.map(|x| x.exact)) {
                x64
            } else if let Some(c) = icast {
                // An update's index converted from a real (`index_cast`).
                c
            } else if e.ty.elem().is_int() {
                format!("(i64)({x})")
            } else {
                format!("bz_cast<i64>({x})")
            };
            let _ = write!(code, "i64 {i} = {conv}; ");
            names.push((i, shape[d].clone(), d));
        }
        if let Some(forms) = proven {
            return self.proven_offset(a, &names, forms, code);
        }
        // Proven in range for the thread loop being generated (`descend`).
        if mode != ReadMode::Checked && k == 1 && self.in_range.contains(&key) {
            let _ = write!(
                code,
                "const bool bz_ok = true; const i64 bz_off = {};",
                names[0].0
            );
            return code;
        }
        let in_range = match &self.wide {
            Some((w, _)) if mode != ReadMode::Checked => self
                .direct_index(index, *w)
                .is_some_and(|atoms| self.wide_in_range.contains(&(a, atoms))),
            _ => false,
        };
        if in_range {
            let mut off = names[0].0.clone();
            for (i, n, _) in &names[1..] {
                off = format!("({off}) * {n} + {i}");
            }
            let _ = write!(code, "const bool bz_ok = true; const i64 bz_off = {off};");
            return code;
        }
        let mut oks = Vec::new();
        for (i, n, d) in &names {
            match mode {
                ReadMode::Circular | ReadMode::Mirror | ReadMode::Clamped => {
                    let m = match mode {
                        ReadMode::Circular => 1,
                        ReadMode::Mirror => 2,
                        _ => 3,
                    };
                    let _ = write!(code, "{i} = bz_remap<{m}>({i}, {n}); ");
                    oks.push(format!("{i} >= 0"));
                }
                ReadMode::Checked => {
                    // (An i32 in the record: the packed place may print negative.)
                    let line = at.record(self.line) as i32;
                    let _ = write!(
                        code,
                        "if (!bz_in({i}, {n})) bz_oob(bz_e, {line}, {i}, {d}, {n}); "
                    );
                    oks.push(format!("bz_in({i}, {n})"));
                }
                ReadMode::Zero | ReadMode::Unchecked => match &narrow {
                    Some(x) => oks.push(format!("(u32){x} < (u32)({n})")),
                    None => oks.push(format!("bz_in({i}, {n})")),
                },
            }
        }
        let mut off = String::from("0");
        for (i, n, _) in &names {
            off = if off == "0" {
                i.clone()
            } else {
                format!("({off}) * {n} + {i}")
            };
        }
        let ok = if oks.is_empty() {
            "true".to_string()
        } else {
            oks.join(" & ")
        };
        let _ = write!(code, "const bool bz_ok = {ok}; const i64 bz_off = {off};");
        code
    }

    /// The offset of an access proven in range for the row: no checks; in flattened
    /// rows, from `bz_f` when the last two indices allow it.
    fn proven_offset(
        &self,
        a: ArrId,
        names: &[(String, String, usize)],
        forms: &[blazar_kir::affine::Aff],
        mut code: String,
    ) -> String {
        let n = names.len();
        let fold = |names: &[(String, String, usize)]| {
            let mut off = String::new();
            for (i, d, _) in names {
                off = if off.is_empty() {
                    i.clone()
                } else {
                    format!("({off}) * {d} + {i}")
                };
            }
            off
        };
        let off = match (self.row_access(a, forms), self.flat) {
            (true, Some(k)) => {
                let pre = fold(&names[..n - 2]);
                let inner = self.row_inv(&forms[n - 2]);
                let head = if pre.is_empty() {
                    inner
                } else {
                    format!("({pre}) * {} + {inner}", names[n - 2].1)
                };
                format!("({head}) * {k} + {} + bz_f", self.row_inv(&forms[n - 1]))
            }
            (true, None) => {
                let pre = fold(&names[..n - 1]);
                let inv = self.row_inv(&forms[n - 1]);
                if pre.is_empty() {
                    format!("{inv} + bz_f")
                } else {
                    format!("({pre}) * {} + {inv} + bz_f", names[n - 1].1)
                }
            }
            // The last extent is the flattened row's (`rowsplit`).
            (false, Some(k)) if self.channel_access(a, forms) => {
                // i64 affine indices where they can be printed (`flat_index`).
                let wide: Vec<(String, String, usize)> = names
                    .iter()
                    .zip(forms)
                    .map(|((i, d, u), f)| {
                        (
                            self.flat_index(f).unwrap_or_else(|| i.clone()),
                            d.clone(),
                            *u,
                        )
                    })
                    .collect();
                format!("({}) * {k} + {}", fold(&wide[..n - 1]), wide[n - 1].0)
            }
            _ => fold(names),
        };
        let _ = write!(code, "const bool bz_ok = true; const i64 bz_off = {off};");
        code
    }

    /// A load `@a[index]` written at `at` (`key`: the address of the load, for the
    /// row proofs).
    pub fn load(&mut self, key: usize, a: ArrId, index: &[Expr], at: Loc) -> String {
        let Some(t) = self.arr_ty(a) else {
            return "0".into();
        };
        let code = self.offset_code(key, (a, at), t, index, t.read, false);
        let name = self.arr_name(a);
        format!(
            "({{ {code} bz_ok ? {name}[bz_off] : {}{{}}; }})",
            scalar(t.elem)
        )
    }

    /// `size(@a, dim)` or, with `None`, `numel(@a)`, as i32.
    pub fn size(&mut self, a: ArrId, dim: Option<u8>) -> String {
        let Some(t) = self.arr_ty(a) else {
            return "0".into();
        };
        let name = self.arr_name(a);
        let r = t.rank as usize;
        match dim {
            Some(d) if (d as usize) < r => format!("((i32){name}_d{d})"),
            Some(_) => "1".into(),
            None if r == 0 => "0".into(),
            None => {
                let ds: Vec<String> = (0..r).map(|i| format!("{name}_d{i}")).collect();
                format!("((i32)({}))", ds.join(" * "))
            }
        }
    }

    /// A store (`op == None`) or a read-modify-write update of `@a[index]`, written at
    /// `at`.
    pub fn store(
        &mut self,
        key: usize,
        (a, at): (ArrId, Loc),
        index: &[Expr],
        value: &Expr,
        op: Option<AtomicOp>,
    ) {
        self.store_of(key, (a, at), index, op, false, |g| {
            let x = g.expr(value);
            (x, value.ty.elem(), g.has_checked(value))
        })
    }

    /// `store` of a value that `value` prints (after the index, as C text of its
    /// scalar type, and whether it may record a `'checked` error). A plain store of an
    /// `inline` value writes the text itself under the range test (for a select of
    /// values already computed, GCC then keeps a branch-free conditional store).
    pub(crate) fn store_of(
        &mut self,
        key: usize,
        (a, at): (ArrId, Loc),
        index: &[Expr],
        op: Option<AtomicOp>,
        inline: bool,
        value: impl FnOnce(&mut Self) -> (String, blazar_kir::Scalar, bool),
    ) {
        let Some(t) = self.arr_ty(a) else {
            return;
        };
        let name = self.arr_name(a);
        let mode = match t.write {
            WriteMode::Checked => ReadMode::Checked,
            _ => ReadMode::Zero,
        };
        let code = self.offset_code(key, (a, at), t, index, mode, op.is_some());
        let (x, from, value_checked) = value(self);
        let checked =
            mode == ReadMode::Checked || index.iter().any(|e| self.has_checked(e)) || value_checked;
        let x = spell::cast(t.elem, from, &x);
        let ct = scalar(t.elem);
        self.line_out(&format!("{{ {code}"));
        self.o.depth += 1;
        let inline = inline && op.is_none();
        if !inline {
            self.line_out(&format!("const {ct} bz_x = {x};"));
        }
        if checked {
            self.line_out("if (bz_e.code) goto bz_abort;");
        }
        let update = match op {
            None if inline => format!("{name}[bz_off] = {x};"),
            None => format!("{name}[bz_off] = bz_x;"),
            Some(op) if t.space == Space::Global => {
                let atomic = format!(
                    "bz_atomic<{}, {ct}>({name} + bz_off, bz_x);",
                    spell::op_code(op)
                );
                match self.private_name(a) {
                    // Only `+=` reaches a private copy (`private`).
                    Some(pv) => format!(
                        "{{ if ({pv}) {pv}[bz_off] = bz_combine<0, {ct}>({pv}[bz_off], bz_x); else {atomic} }}"
                    ),
                    None => atomic,
                }
            }
            Some(op) => format!(
                "{name}[bz_off] = bz_combine<{}, {ct}>({name}[bz_off], bz_x);",
                spell::op_code(op)
            ),
        };
        self.line_out(&format!("if (bz_ok) {update}"));
        self.o.depth -= 1;
        self.line_out("}");
    }

    /// Evaluates the extents of a kernel-memory allocation (given dims left-padded with
    /// 1s to `rank`) into temporaries, stops on a checked-access error among them or on
    /// a negative extent (an error of allocating builtin `what`, numbered as
    /// `blazar_kir::ALLOC_BUILTINS`), and declares `bz_n`, their saturating product.
    /// Returns the names.
    pub fn alloc_extents(&mut self, dims: &[Expr], rank: usize, what: usize) -> Vec<String> {
        let mut ds: Vec<String> = vec!["1".into(); rank.saturating_sub(dims.len())];
        for e in dims {
            let x = self.expr(e);
            let v = self.tmp();
            let conv = if e.ty.elem().is_int() {
                format!("(i64)({x})")
            } else {
                format!("bz_cast<i64>({x})")
            };
            self.line_out(&format!("const i64 {v} = {conv};"));
            ds.push(v);
        }
        if dims.iter().any(|e| self.has_checked(e)) {
            self.line_out("if (bz_e.code) goto bz_abort;");
        }
        let line = self.line;
        for v in &ds[rank.saturating_sub(dims.len())..] {
            self.line_out(&format!(
                "if ({v} < 0) {{ bz_e.code = 5; bz_e.line = {line}; bz_e.a = (u64){v}; bz_e.b = {what}; goto bz_abort; }}"
            ));
        }
        let mut n = String::from("1ull");
        for d in &ds {
            n = format!("bz_mul_sat({n}, (u64){d})");
        }
        self.line_out(&format!("const u64 bz_n = {n};"));
        ds
    }

    /// `@a = zeros(dims)` (or `ones`, `uninit`, which also zero-fills) in per-thread
    /// dynamic memory, with the executor's size rules.
    pub fn alloc_local(&mut self, a: ArrId, dims: &[Expr], fill: Fill) {
        let Some(t) = self.arr_ty(a) else {
            return;
        };
        let name = self.arr_name(a);
        let ct = scalar(t.elem);
        let r = t.rank as usize;
        self.line_out("{");
        self.o.depth += 1;
        let what = blazar_kir::alloc_builtin(&blazar_kir::StmtKind::AllocLocal {
            arr: a,
            dims: Vec::new(),
            fill,
        })
        .unwrap_or(0);
        let ds = self.alloc_extents(dims, r, what);
        let line = self.line;
        self.line_out(&format!(
            "if (!bz_local_bytes(bz_mul_sat(bz_n, sizeof({ct})), {name}_bytes, bz_live, bz_e, {line})) goto bz_abort;"
        ));
        let x = match fill {
            Fill::One => format!("bz_cast<{ct}>(1)"),
            Fill::Zero | Fill::Uninit => format!("{ct}{{}}"),
        };
        self.line_out(&format!(
            "for (u64 bz_q = 0; bz_q < bz_n; bz_q++) {name}[bz_q] = {x};"
        ));
        for (d, v) in ds.iter().take(r).enumerate() {
            self.line_out(&format!("{name}_d{d} = {v};"));
        }
        self.o.depth -= 1;
        self.line_out("}");
    }
}
