//! Array accesses and allocations: loads, stores, atomic updates, sizes, shared and
//! dynamic (local) memory.
//!
//! Indexing follows the CPU executor: `k` indices into an array of rank `r` use the
//! shape `dims` left-padded with 1s when `k > r`, and fold the trailing dims into the
//! last index when `k < r` (one index is linear). `bz_idx<MODE>` applies the boundary
//! mode per dimension and gives -1 for an element that does not exist, which reads as
//! zero and is skipped by writes.

use crate::cuda::kernel::{Gen, SharedSlot};
use crate::cuda::stop::Stops;
use crate::names::{self, scalar};
use crate::printer::Dialect;
use blazar_kir::{ArrId, ArrayTy, AtomicOp, Expr, Fill, Loc, Scalar, Space, Ty};

impl Gen<'_> {
    fn arr_ty(&self, a: ArrId) -> ArrayTy {
        match self.k.arrays.get(a as usize).map(|d| d.ty) {
            Some(Ty::Array(t)) => t,
            _ => ArrayTy {
                elem: Scalar::F32,
                rank: 1,
                read: Default::default(),
                write: Default::default(),
                is_const: false,
                space: Space::Global,
            },
        }
    }

    /// An index or extent as an i32 C expression (wider ints saturate).
    pub(crate) fn i32_of(&mut self, e: &Expr) -> String {
        let x = self.expr(e);
        match e.ty {
            Ty::Scalar(Scalar::I32) => x,
            Ty::Scalar(s) if s.size() < 4 && s.is_int() => format!("(i32){x}"),
            _ => format!("bz_ix({x})"),
        }
    }

    /// The extents used to index `@a` with `k` indices.
    pub(crate) fn shape(&self, a: ArrId, k: usize) -> Vec<String> {
        let name = names::arr(self.k, a);
        let r = (self.arr_ty(a).rank as usize).clamp(1, 4);
        let fixed = self.shared_dims.get(a as usize).copied().flatten();
        let dim = |i: usize| match fixed {
            Some(d) => d[i].to_string(),
            None => format!("{name}.dims[{i}]"),
        };
        crate::printer::index_extents(r, k, dim)
    }

    /// `bz_idx<MODE>(...)`: the element offset of `@a[index]` (written at `at`), or -1.
    fn offset(&mut self, a: ArrId, index: &[Expr], mode: u8, at: Loc) -> String {
        // 'checked accesses record an error outside the array, at the access's place
        // (an i32 in the record: the packed place may print negative).
        self.can_fail |= mode == 4;
        let shape = self.shape(a, index.len().max(1));
        let mut args = vec![
            "bz_e".to_string(),
            (at.record(self.line) as i32).to_string(),
            "0".into(),
            "0".into(),
        ];
        for (e, n) in index.iter().zip(shape) {
            args.push(self.i32_of(e));
            args.push(n);
        }
        let off = format!("bz_idx<{mode}>({})", args.join(", "));
        if mode == 4 && self.stops != Stops::Off {
            // Outside the array: the thread stops (`stop.rs`).
            return format!("bz_chk(bz_stop, {off})");
        }
        off
    }

    /// `i0, n0, i1, n1, ...`: each index with its extent (zero extension helpers).
    fn index_pairs(&mut self, a: ArrId, index: &[Expr]) -> String {
        let shape = self.shape(a, index.len().max(1));
        let mut args = Vec::new();
        for (e, n) in index.iter().zip(shape) {
            args.push(self.i32_of(e));
            args.push(n);
        }
        args.join(", ")
    }

    /// A load `@a[index]`, written at `at`.
    pub fn load(&mut self, a: ArrId, index: &[Expr], at: Loc) -> String {
        let t = self.arr_ty(a);
        let mode = names::read_mode(t.read);
        if mode == 0 && !index.is_empty() {
            if let Some(v) = self.vector_load(a, index) {
                return v;
            }
            let pairs = self.index_pairs(a, index);
            // In a coarsened kernel, loads from global arrays are unconditional so that
            // neighbouring positions' equal loads become one (global arrays always have
            // memory for element 0: `blazar-cuda` allocates at least 16 bytes; kernel
            // memory may have none when its allocation failed). Elsewhere predicated
            // loads measured faster (H100: box3x3 0.233 against 0.276 ms).
            let f = if t.space == blazar_kir::Space::Global && self.coarsen > 1 {
                "bz_getzu"
            } else {
                "bz_getz"
            };
            return format!("{f}({}.data, {pairs})", names::arr(self.k, a));
        }
        let off = self.offset(a, index, mode, at);
        if mode == 5 {
            // 'unchecked: the offset is always used as is.
            return format!("{}.data[{off}]", names::arr(self.k, a));
        }
        format!("bz_get({}.data, {off})", names::arr(self.k, a))
    }

    /// `size(@a, dim)` or, with `None`, `numel(@a)`.
    pub fn size(&mut self, a: ArrId, dim: Option<u8>) -> String {
        let name = names::arr(self.k, a);
        let r = (self.arr_ty(a).rank as usize).clamp(1, 4);
        match dim {
            Some(d) if (d as usize) < r => format!("{name}.dims[{d}]"),
            Some(_) => "1".into(),
            None => {
                let ds: Vec<String> = (0..r).map(|i| format!("{name}.dims[{i}]")).collect();
                format!("({})", ds.join(" * "))
            }
        }
    }

    /// A store (`op == None`) or an atomic update of `@a[index]`, written at `at`.
    pub fn store(
        &mut self,
        (a, at): (ArrId, Loc),
        index: &[Expr],
        value: &Expr,
        op: Option<AtomicOp>,
    ) {
        let t = self.arr_ty(a);
        let name = names::arr(self.k, a);
        let mode = names::write_mode(t.write);
        // With a stopped flag, a store whose operands may stop the thread tests it
        // after them (`stop.rs`).
        let stops = self.stops != Stops::Off && self.store_may_fail(a, index, value);
        if op.is_none() && !stops && self.chunk_stores.get(a as usize) == Some(&true) {
            // At `pos` in a row vector: gathered for the chunk (`vector.rs`).
            let x = self.expr(value);
            if self.chunk_store(a, &x) {
                return;
            }
        }
        if mode == 0 && op.is_none() && !index.is_empty() {
            let pairs = self.index_pairs(a, index);
            let x = self.expr(value);
            if stops {
                self.line_out(&format!("bz_putz_s(bz_stop, {name}.data, {x}, {pairs});"));
            } else {
                self.line_out(&format!("bz_putz({name}.data, {x}, {pairs});"));
            }
            return;
        }
        let off = self.offset(a, index, mode, at);
        let x = self.expr(value);
        let ct = scalar(t.elem);
        match op {
            None if mode == 5 && stops => self.line_out(&format!(
                "bz_put_u(bz_stop, {name}.data, {off}, ({ct})({x}));"
            )),
            None if mode == 5 => self.line_out(&format!("{name}.data[{off}] = ({ct})({x});")),
            None if stops => self.line_out(&format!("bz_put_s(bz_stop, {name}.data, {off}, {x});")),
            None => self.line_out(&format!("bz_put({name}.data, {off}, {x});")),
            Some(op) if stops => {
                let code = names::op_code(op);
                let update = if t.space == Space::Local {
                    format!("{name}.data[o] = bz_combine<{code}, {ct}>({name}.data[o], bz_v);")
                } else {
                    format!("bz_atomic<{code}, {ct}>({name}.data + o, bz_v);")
                };
                self.line_out(&format!(
                    "{{ const i32 o = {off}; const auto bz_v = {x}; if (o >= 0 && !bz_stop) {update} }}"
                ));
            }
            Some(op) => {
                let code = names::op_code(op);
                let update = if t.space == Space::Local {
                    // Private memory: a plain read-modify-write.
                    format!("{name}.data[o] = bz_combine<{code}, {ct}>({name}.data[o], {x});")
                } else {
                    format!("bz_atomic<{code}, {ct}>({name}.data + o, {x});")
                };
                self.line_out(&format!("{{ const i32 o = {off}; if (o >= 0) {update} }}"));
            }
        }
    }

    /// `const i32 bz_d[4] = {...}`: extents left-padded with 1s to the rank, then 1s.
    /// The extents of an allocation as `bz_d` (1s in front up to the rank, then 1s,
    /// negative ones 0), after statements that record a negative extent as an error of
    /// allocating builtin `what` (`blazar_kir::ALLOC_BUILTINS`); extents that cannot be
    /// negative are not tested.
    fn dims_decl(&mut self, a: ArrId, dims: &[Expr], what: usize) -> String {
        let r = (self.arr_ty(a).rank as usize).clamp(1, 4);
        let k = dims.len().min(r);
        let mut ds: Vec<String> = vec!["1".into(); r - k];
        let mut checks = String::new();
        let line = self.line;
        for (i, e) in dims[..k].iter().enumerate() {
            let x = self.i32_of(e);
            if blazar_kir::props::non_negative(e) {
                ds.push(format!("max({x}, 0)"));
            } else {
                self.can_fail = true;
                let abort = self.abort_stmt();
                checks.push_str(&format!(
                    "const i32 bz_x{i} = {x}; if (bz_x{i} < 0) {{ bz_fail(bz_e, 5, {line}, bz_x{i}, {what});{abort} }}\n"
                ));
                ds.push(format!("max(bz_x{i}, 0)"));
            }
        }
        while ds.len() < 4 {
            ds.push("1".into());
        }
        format!("{checks}const i32 bz_d[4] = {{{}}};", ds.join(", "))
    }

    /// `@a = shared(dims)` / `shared_zeros(dims)`.
    pub fn alloc_shared(&mut self, a: ArrId, dims: &[Expr], zero: bool) {
        let t = self.arr_ty(a);
        let name = names::arr(self.k, a);
        let line = self.line;
        self.line_out("{");
        self.o.depth += 1;
        let decl = self.dims_decl(a, dims, if zero { 4 } else { 3 });
        for l in decl.lines() {
            self.line_out(l);
        }
        match self.shared.get(a as usize).copied().flatten() {
            Some(SharedSlot::Static(_)) => {
                self.line_out(&format!("{name}.data = {name}_s;"));
                self.line_out(&format!(
                    "for (int k = 0; k < 4; k++) {name}.dims[k] = bz_d[k];"
                ));
            }
            _ => {
                self.can_fail = true;
                self.line_out(&format!(
                    "bz_shared_alloc({name}, {name}_cap, bz_smem_top, bz_smem, bz_d, bz_e, {line});"
                ));
                if let Some(check) = self.alloc_check(a) {
                    self.line_out(&check);
                }
            }
        }
        if zero {
            let count = format!("{name}.data ? bz_d[0] * bz_d[1] * bz_d[2] * bz_d[3] : 0");
            let zero = format!("{}{{}}", scalar(t.elem));
            for l in self.zero_fill_lines(&format!("{name}.data"), &count, &zero) {
                self.line_out(&l);
            }
        }
        self.o.depth -= 1;
        self.line_out("}");
    }

    /// `@a = zeros(dims)` (or `ones`, `uninit`) in per-thread dynamic memory.
    pub fn alloc_local(&mut self, a: ArrId, dims: &[Expr], fill: Fill) {
        let name = names::arr(self.k, a);
        let fill = match fill {
            Fill::Zero => 0,
            Fill::One => 1,
            Fill::Uninit => 2,
        };
        let decl = self.dims_decl(a, dims, fill);
        let line = self.line;
        self.can_fail = true;
        if let Some(check) = self.alloc_check(a) {
            self.line_out("{");
            self.o.depth += 1;
            for l in decl.lines() {
                self.line_out(l);
            }
            self.line_out(&format!(
                "bz_local_alloc({name}, {name}_cap, bz_pl, bz_d, {fill}, bz_e, {line});"
            ));
            self.line_out(&check);
            self.o.depth -= 1;
            self.line_out("}");
        } else if decl.contains('\n') {
            self.line_out("{");
            self.o.depth += 1;
            for l in decl.lines() {
                self.line_out(l);
            }
            self.line_out(&format!(
                "bz_local_alloc({name}, {name}_cap, bz_pl, bz_d, {fill}, bz_e, {line});"
            ));
            self.o.depth -= 1;
            self.line_out("}");
        } else {
            self.line_out(&format!(
                "{{ {decl} bz_local_alloc({name}, {name}_cap, bz_pl, bz_d, {fill}, bz_e, {line}); }}"
            ));
        }
    }
}
