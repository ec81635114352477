//! The `run` entry point: the work-item and thread loops around the kernel body, and
//! the body's statements (structured control flow onto Cranelift blocks).

use crate::abi::*;
use crate::memory::Arr;
use blazar_kir::affine::Ranges;
use blazar_kir::{AtomicOp, Bind, Expr, Kernel, Scalar, Stmt, StmtKind, Ty};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I32, I64, I8};
use cranelift_codegen::ir::{
    AbiParam, Block, BlockArg, InstBuilder, MemFlags, SigRef, Signature, Type, Value,
};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext, Variable};
use cranelift_jit::JITModule;
use cranelift_module::{FuncId, Module};
use std::collections::HashMap;

/// The Cranelift type holding a scalar of type `s` (bool: an `i8` of 0 or 1).
pub(crate) fn cty(s: Scalar) -> Type {
    use cranelift_codegen::ir::types::{F32, F64, I16};
    match s {
        Scalar::Bool | Scalar::I8 | Scalar::U8 => I8,
        Scalar::I16 | Scalar::U16 => I16,
        Scalar::I32 | Scalar::U32 => I32,
        Scalar::I64 | Scalar::U64 => I64,
        Scalar::F32 => F32,
        // Complex types never reach code generation (`support`).
        Scalar::F64 | Scalar::C32 | Scalar::C64 => F64,
    }
}

pub(crate) fn args(vs: &[Value]) -> Vec<BlockArg> {
    vs.iter().map(|&v| BlockArg::Value(v)).collect()
}

/// The state of one function being generated.
pub(crate) struct Gen<'a, 'f> {
    pub k: &'a Kernel,
    pub b: FunctionBuilder<'f>,
    /// Per KIR variable, one Cranelift variable per lane.
    pub vars: Vec<Vec<Variable>>,
    /// Per array slot bound to a kernel argument: its data and extents.
    pub arrs: Vec<Option<Arr>>,
    /// The thread's position, per index-space component (i64).
    pub pos: Vec<Variable>,
    pub kd: Vec<Value>,
    pub kb: Vec<Value>,
    /// The work item's partial of each kernel output.
    pub accs: Vec<Variable>,
    /// Per enclosing loop: where `break` and `continue` go.
    pub loops: Vec<(Block, Block)>,
    /// The end of the current thread (`return`).
    pub next_thread: Block,
    /// Records an error (code, a, b, c, line) and returns it.
    pub abort: Block,
    pub line: u32,
    /// The range facts of the fast copy of the body (`None`: the checked copy).
    pub proofs: Option<&'a Ranges>,
    /// In the current strip: each array's vector already loaded (`strip`).
    pub strip_loads: HashMap<u32, Value>,
    /// In the current strip: the vectors of calls already made (`^` and math
    /// functions), by expression, so that a value a fused group reads twice (`y` in
    /// `t = y > 128; e = sum(t .* y)`) is computed once.
    pub strip_calls: Vec<(Expr, Value)>,
    /// In an outlined host function (`blazar_kir::calls::Calls::budget`): the address
    /// of the interrupt flag and the budget variable, which its loops poll by.
    pub sig: Option<(Value, Variable)>,
    sigs: HashMap<(Vec<Type>, Type), SigRef>,
}

impl<'a, 'f> Gen<'a, 'f> {
    /// A generator for code outside any thread (`finish`): no variables, arrays or
    /// positions.
    pub fn for_finish(k: &'a Kernel, mut b: FunctionBuilder<'f>) -> Gen<'a, 'f> {
        let (next_thread, abort) = (b.create_block(), b.create_block());
        Gen {
            k,
            b,
            sig: None,
            vars: Vec::new(),
            arrs: Vec::new(),
            pos: Vec::new(),
            kd: Vec::new(),
            kb: Vec::new(),
            accs: Vec::new(),
            loops: Vec::new(),
            next_thread,
            abort,
            line: 0,
            proofs: None,
            strip_loads: HashMap::new(),
            strip_calls: Vec::new(),
            sigs: HashMap::new(),
        }
    }

    /// Continues in a fresh block after a jump (code there is unreachable).
    pub fn dead(&mut self) {
        let blk = self.b.create_block();
        self.b.switch_to_block(blk);
    }

    /// Goes on when `ok` holds, else stops the range with error `code` (`a b c` its
    /// values) at the current line.
    pub fn check(&mut self, ok: Value, code: i32, a: Value, bb: Value, c: Value) {
        let (fail, cont) = (self.b.create_block(), self.b.create_block());
        self.b.ins().brif(ok, cont, &[], fail, &[]);
        self.b.switch_to_block(fail);
        let code = self.b.ins().iconst(I32, code as i64);
        let line = self.b.ins().iconst(I32, self.line as i64);
        self.b
            .ins()
            .jump(self.abort, &args(&[code, a, bb, c, line]));
        self.b.switch_to_block(cont);
    }

    /// At the start of a loop iteration of an outlined host function: when its budget
    /// is a multiple of 65536, a load of the interrupt flag, and the range stopped with
    /// [`INTERRUPTED`] when a signal set it.
    fn poll(&mut self) {
        let Some((sig, left)) = self.sig else {
            return;
        };
        let l = self.b.use_var(left);
        let low = self.b.ins().band_imm(l, 0xffff);
        let due = self.b.ins().icmp_imm(IntCC::Equal, low, 0);
        let (look, cont) = (self.b.create_block(), self.b.create_block());
        self.b.ins().brif(due, look, &[], cont, &[]);
        self.b.switch_to_block(look);
        let flag = self.b.ins().load(I64, MemFlags::trusted(), sig, 0);
        let ok = self.b.ins().icmp_imm(IntCC::Equal, flag, 0);
        let zero = self.b.ins().iconst(I64, 0);
        self.check(ok, INTERRUPTED, flag, zero, zero);
        self.b.ins().jump(cont, &[]);
        self.b.switch_to_block(cont);
    }

    /// Calls the host function at `addr` (`extern "C"`) with `params` and one result.
    pub fn call(&mut self, addr: usize, params: &[Type], ret: Option<Type>, a: &[Value]) -> Value {
        let key = (
            params.to_vec(),
            ret.unwrap_or(cranelift_codegen::ir::types::INVALID),
        );
        let sig = match self.sigs.get(&key) {
            Some(s) => *s,
            None => {
                let mut sig = Signature::new(self.b.func.signature.call_conv);
                sig.params.extend(params.iter().map(|&t| AbiParam::new(t)));
                sig.returns.extend(ret.map(AbiParam::new));
                let s = self.b.import_signature(sig);
                self.sigs.insert(key, s);
                s
            }
        };
        let callee = self.b.ins().iconst(I64, addr as i64);
        let inst = self.b.ins().call_indirect(sig, callee, a);
        self.b.inst_results(inst).first().copied().unwrap_or(callee)
    }

    pub fn block(&mut self, b: &[Stmt]) -> Result<(), String> {
        for s in b {
            self.line = s.line;
            self.stmt(s)?;
        }
        Ok(())
    }

    fn var_scalar(&self, v: u32) -> Result<Scalar, String> {
        match self.k.vars.get(v as usize).map(|d| d.ty) {
            Some(Ty::Scalar(s)) => Ok(s),
            _ => Err(format!("%{v} is not a scalar variable")),
        }
    }

    fn stmt(&mut self, s: &Stmt) -> Result<(), String> {
        let key = s as *const Stmt as usize;
        match &s.kind {
            StmtKind::Assign { var, value } => {
                let vals = self.expr(value)?;
                let vs = self.vars.get(*var as usize).cloned().unwrap_or_default();
                if vals.len() != vs.len() {
                    return Err(format!("assigning {} lanes to %{var}", vals.len()));
                }
                for (v, x) in vs.into_iter().zip(vals) {
                    self.b.def_var(v, x);
                }
            }
            StmtKind::SetLane { var, lane, value } => {
                let l = self.scalar(lane)?;
                let l = self.widen(l, lane.ty.elem())?;
                let x = self.scalar(value)?;
                let vs = self.vars.get(*var as usize).cloned().unwrap_or_default();
                for (k, v) in vs.into_iter().enumerate() {
                    let cur = self.b.use_var(v);
                    let hit = self.b.ins().icmp_imm(IntCC::Equal, l, k as i64);
                    let n = self.b.ins().select(hit, x, cur);
                    self.b.def_var(v, n);
                }
            }
            StmtKind::Store {
                arr,
                index,
                value,
                at,
            } => {
                let idx = self.index_values(index)?;
                let x = self.scalar(value)?;
                self.store(key, *arr, &idx, x, value.ty.elem(), None, *at)?;
            }
            StmtKind::Update {
                arr,
                index,
                op,
                value,
                at,
            } => {
                let idx = self.index_values(index)?;
                let x = self.scalar(value)?;
                self.store(key, *arr, &idx, x, value.ty.elem(), Some(*op), *at)?;
            }
            StmtKind::Accumulate { output, value } => {
                let o = self
                    .k
                    .outputs
                    .get(*output as usize)
                    .ok_or("unknown output")?;
                let (op, ty) = (o.op, o.ty);
                let x = self.scalar(value)?;
                if value.ty.elem() != ty {
                    return Err("accumulating a value of another type".into());
                }
                let acc = self.accs[*output as usize];
                let a = self.b.use_var(acc);
                let n = self.combine(op, ty, a, x);
                self.b.def_var(acc, n);
            }
            StmtKind::If { cond, then, els } => {
                let c = self.scalar(cond)?;
                let (t, e, m) = (
                    self.b.create_block(),
                    self.b.create_block(),
                    self.b.create_block(),
                );
                self.b.ins().brif(c, t, &[], e, &[]);
                self.b.switch_to_block(t);
                self.block(then)?;
                self.b.ins().jump(m, &[]);
                self.b.switch_to_block(e);
                self.block(els)?;
                self.b.ins().jump(m, &[]);
                self.b.switch_to_block(m);
            }
            StmtKind::While { cond, body } => {
                let (head, bod, exit) = (
                    self.b.create_block(),
                    self.b.create_block(),
                    self.b.create_block(),
                );
                self.b.ins().jump(head, &[]);
                self.b.switch_to_block(head);
                let c = self.scalar(cond)?;
                self.b.ins().brif(c, bod, &[], exit, &[]);
                self.b.switch_to_block(bod);
                self.poll();
                self.loops.push((exit, head));
                let r = self.block(body);
                self.loops.pop();
                r?;
                self.b.ins().jump(head, &[]);
                self.b.switch_to_block(exit);
            }
            StmtKind::For {
                var,
                start,
                step,
                end,
                body,
            } => {
                let s = self.var_scalar(*var)?;
                let st = self.scalar(start)?;
                let sp = self.scalar(step)?;
                let en = self.scalar(end)?;
                let v = self.vars[*var as usize][0];
                self.b.def_var(v, st);
                let (head, bod, latch, exit) = (
                    self.b.create_block(),
                    self.b.create_block(),
                    self.b.create_block(),
                    self.b.create_block(),
                );
                self.b.ins().jump(head, &[]);
                self.b.switch_to_block(head);
                let x = self.b.use_var(v);
                let zero = self.zero(s);
                let up = self.compare(blazar_kir::BinOp::Lt, s, zero, sp);
                let c_up = self.compare(blazar_kir::BinOp::Le, s, x, en);
                let c_down = self.compare(blazar_kir::BinOp::Le, s, en, x);
                let c = self.b.ins().select(up, c_up, c_down);
                self.b.ins().brif(c, bod, &[], exit, &[]);
                self.b.switch_to_block(bod);
                self.poll();
                self.loops.push((exit, latch));
                let r = self.block(body);
                self.loops.pop();
                r?;
                self.b.ins().jump(latch, &[]);
                self.b.switch_to_block(latch);
                let x = self.b.use_var(v);
                let n = self.binop(blazar_kir::BinOp::Add, s, x, sp)?;
                self.b.def_var(v, n);
                self.b.ins().jump(head, &[]);
                self.b.switch_to_block(exit);
            }
            StmtKind::Break(n) | StmtKind::Continue(n) => {
                let at = self
                    .loops
                    .len()
                    .checked_sub(*n as usize + 1)
                    .ok_or("break or continue outside a loop")?;
                let (brk, cont) = self.loops[at];
                let to = if matches!(s.kind, StmtKind::Break(_)) {
                    brk
                } else {
                    cont
                };
                self.b.ins().jump(to, &[]);
                self.dead();
            }
            StmtKind::Return => {
                self.b.ins().jump(self.next_thread, &[]);
                self.dead();
            }
            StmtKind::Assert { cond } => {
                let c = self.scalar(cond)?;
                let z = self.b.ins().iconst(I64, 0);
                self.check(c, ASSERT, z, z, z);
            }
            StmtKind::Barrier | StmtKind::AllocShared { .. } | StmtKind::AllocLocal { .. } => {
                return Err("barriers and kernel memory".into())
            }
            StmtKind::Call { .. } => return Err("calls of functions".into()),
        }
        Ok(())
    }

    /// `a op x` as kernel outputs combine partials (`partial_op` already applied by
    /// the caller where needed): bit operations on ints, nothing on reals.
    pub fn combine(&mut self, op: AtomicOp, s: Scalar, a: Value, x: Value) -> Value {
        use blazar_kir::BinOp as B;
        let bin = match partial_op(op) {
            AtomicOp::Add => B::Add,
            AtomicOp::Sub => B::Sub,
            AtomicOp::Mul => B::Mul,
            AtomicOp::Div => B::Div,
            AtomicOp::Pow => B::Pow,
            AtomicOp::Min => B::Min,
            AtomicOp::Max => B::Max,
            AtomicOp::And if s.is_int() => B::BitAnd,
            AtomicOp::Or if s.is_int() => B::BitOr,
            AtomicOp::Xor if s.is_int() => B::BitXor,
            _ => return a,
        };
        self.binop(bin, s, a, x).unwrap_or(a)
    }

    /// The identity of output op `op` on `s` (the interpreter's `identity`).
    pub fn identity(&mut self, op: AtomicOp, s: Scalar) -> Value {
        use blazar_kir::Const;
        let c = match partial_op(op) {
            AtomicOp::Mul => Const::Int(1),
            AtomicOp::And => Const::Int(-1),
            AtomicOp::Min if s.is_float() => Const::Float(f64::INFINITY),
            AtomicOp::Max if s.is_float() => Const::Float(f64::NEG_INFINITY),
            AtomicOp::Min | AtomicOp::Max => {
                let (lo, hi) = s.int_range().unwrap_or((0, 0));
                let v = if partial_op(op) == AtomicOp::Min {
                    hi
                } else {
                    lo
                };
                Const::Int(v as i64)
            }
            _ => Const::Int(0),
        };
        self.konst(&c, s)
    }
}

/// The op partials of output op `op` combine with (the interpreter's `partial_op`).
pub(crate) fn partial_op(op: AtomicOp) -> AtomicOp {
    match op {
        AtomicOp::Sub => AtomicOp::Add,
        AtomicOp::Div | AtomicOp::Pow => AtomicOp::Mul,
        op => op,
    }
}

/// Defines `run` for kernel `k` in `module`.
pub(crate) fn define_run(
    module: &mut JITModule,
    k: &Kernel,
    offs: &[usize],
) -> Result<FuncId, String> {
    let mut sig = module.make_signature();
    for _ in 0..5 {
        sig.params.push(AbiParam::new(I64));
    }
    sig.returns.push(AbiParam::new(I32));
    let id = module
        .declare_anonymous_function(&sig)
        .map_err(|e| format!("cranelift: {e}"))?;
    let mut ctx = module.make_context();
    ctx.func.signature = sig;
    let mut fctx = FunctionBuilderContext::new();
    let b = FunctionBuilder::new(&mut ctx.func, &mut fctx);
    build_run(b, k, offs)?;
    module
        .define_function(id, &mut ctx)
        .map_err(|e| format!("cranelift: {e:?}"))?;
    Ok(id)
}

fn build_run(mut b: FunctionBuilder, k: &Kernel, offs: &[usize]) -> Result<(), String> {
    let tr = MemFlags::trusted();
    let entry = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.switch_to_block(entry);
    let p = b.block_params(entry).to_vec();
    let (call, lo, hi, parts, err) = (p[0], p[1], p[2], p[3], p[4]);
    let r = k.rank as usize;
    let kd: Vec<Value> = (0..r)
        .map(|c| b.ins().load(I64, tr, call, CALL_KD + 8 * c as i32))
        .collect();
    let kb: Vec<Value> = (0..r)
        .map(|c| b.ins().load(I64, tr, call, CALL_KB + 8 * c as i32))
        .collect();
    let total = b.ins().load(I64, tr, call, CALL_TOTAL);
    let chunk = b.ins().load(I64, tr, call, CALL_CHUNK);
    let stop = b.ins().load(I64, tr, call, CALL_STOP);
    let sig_p = b.ins().load(I64, tr, call, CALL_SIG);
    let arrs_p = b.ins().load(I64, tr, call, CALL_ARRS);
    let params_p = b.ins().load(I64, tr, call, CALL_PARAMS);
    // Arrays bound to arguments: data pointers and extents.
    let mut arrs = vec![None; k.arrays.len()];
    for prm in &k.params {
        if let Bind::Array(a) = prm.bind {
            let Ty::Array(t) = k.arrays[a as usize].ty else {
                return Err("array slot is not an array".into());
            };
            let base = GARR_SIZE * a as i32;
            let data = b.ins().load(I64, tr, arrs_p, base + GARR_DATA);
            let dims = (0..t.rank as i32)
                .map(|d| b.ins().load(I64, tr, arrs_p, base + GARR_DIMS + 8 * d))
                .collect();
            arrs[a as usize] = Some(Arr { data, dims, t });
        }
    }
    // Parameters bound to variables: read once.
    let mut init: Vec<Option<Vec<Value>>> = vec![None; k.vars.len()];
    let unaligned = MemFlags::new().with_notrap();
    for (i, prm) in k.params.iter().enumerate() {
        if let Bind::Var(v) = prm.bind {
            let (s, n) = match k.vars[v as usize].ty {
                Ty::Scalar(s) => (s, 1),
                Ty::Vector(s, n) => (s, n as usize),
                Ty::Array(_) => return Err("a variable holds an array".into()),
            };
            let vals = (0..n)
                .map(|l| {
                    let off = (offs[i] + l * s.size()) as i32;
                    b.ins().load(cty(s), unaligned, params_p, off)
                })
                .collect();
            init[v as usize] = Some(vals);
        }
    }
    let mut vars = Vec::with_capacity(k.vars.len());
    for d in &k.vars {
        let (s, n) = match d.ty {
            Ty::Scalar(s) => (s, 1),
            Ty::Vector(s, n) => (s, n as usize),
            Ty::Array(_) => return Err("a variable holds an array".into()),
        };
        vars.push((0..n).map(|_| b.declare_var(cty(s))).collect::<Vec<_>>());
    }
    let pos: Vec<Variable> = (0..r).map(|_| b.declare_var(I64)).collect();
    let accs: Vec<Variable> = k.outputs.iter().map(|o| b.declare_var(cty(o.ty))).collect();
    let item = b.declare_var(I64);
    let t = b.declare_var(I64);
    b.def_var(item, lo);

    let item_head = b.create_block();
    let item_go = b.create_block();
    let item_run = b.create_block();
    let item_end = b.create_block();
    let exit = b.create_block();
    let abort = b.create_block();
    for ty in [I32, I64, I64, I64, I32] {
        b.append_block_param(abort, ty);
    }
    let t1 = b.declare_var(I64);
    b.ins().jump(item_head, &[]);

    // Work items.
    b.switch_to_block(item_head);
    let it = b.use_var(item);
    let more = b.ins().icmp(IntCC::SignedLessThan, it, hi);
    b.ins().brif(more, item_go, &[], exit, &[]);
    b.switch_to_block(item_go);
    let s = b.ins().atomic_load(I64, tr, stop);
    let stopped = b.ins().icmp(IntCC::SignedLessThan, s, it);
    b.ins().brif(stopped, exit, &[], item_run, &[]);
    b.switch_to_block(item_run);
    let t0 = b.ins().imul(it, chunk);
    let end = b.ins().iadd(t0, chunk);
    let end = {
        let lt = b.ins().icmp(IntCC::SignedLessThan, end, total);
        b.ins().select(lt, end, total)
    };
    b.def_var(t1, end);
    b.def_var(t, t0);
    // A thread index below `total` (the product of the extents) in row-major
    // components: what remains for component 0 is already below its extent, so a rank-1
    // kernel's work item starts with no division at all.
    let decompose = |b: &mut FunctionBuilder, mut rest: Value| {
        let mut out = vec![rest; r];
        for c in (1..r).rev() {
            out[c] = b.ins().urem(rest, kd[c]);
            rest = b.ins().udiv(rest, kd[c]);
        }
        if let Some(o) = out.first_mut() {
            *o = rest;
        }
        out
    };
    let first = decompose(&mut b, t0);
    for (c, &o) in first.iter().enumerate() {
        b.def_var(pos[c], o);
    }
    let ranges = k.ranges();
    let last = if ranges.accesses.is_empty() {
        None
    } else {
        let e1 = b.ins().iadd_imm(end, -1);
        Some(decompose(&mut b, e1))
    };
    // An outlined host function polls the interrupt flag as its loops spend its budget.
    let sig = k
        .calls
        .budget
        .filter(|&v| k.vars.get(v as usize).map(|d| d.ty) == Some(Ty::Scalar(Scalar::I64)))
        .map(|v| (sig_p, vars[v as usize][0]));
    let mut g = Gen {
        k,
        b,
        sig,
        vars,
        arrs,
        pos,
        kd,
        kb,
        accs,
        loops: Vec::new(),
        next_thread: item_end,
        abort,
        line: 0,
        proofs: None,
        strip_loads: HashMap::new(),
        strip_calls: Vec::new(),
        sigs: HashMap::new(),
    };
    for (i, o) in k.outputs.iter().enumerate() {
        let id = g.identity(o.op, o.ty);
        g.b.def_var(g.accs[i], id);
    }
    let slow = g.b.create_block();
    match last {
        None => {
            g.b.ins().jump(slow, &[]);
        }
        Some(last) => {
            // The fast copy when the item's accesses are all proven in range.
            let fast = g.b.create_block();
            init_vars(&mut g, &init);
            g.proofs = Some(ranges);
            let ok = g.item_guard(&first, &last)?;
            g.b.ins().brif(ok, fast, &[], slow, &[]);
            let scalar = match crate::strip::plan(k) {
                Some(plan) => strips(&mut g, &plan, fast, &init, t, t1)?,
                None => fast,
            };
            thread_loop(&mut g, scalar, &init, t, t1, item_end)?;
            g.proofs = None;
        }
    }
    thread_loop(&mut g, slow, &init, t, t1, item_end)?;

    // The item's partials.
    g.b.switch_to_block(item_end);
    let it = g.b.use_var(item);
    let nout = k.outputs.len() as i64;
    for i in 0..k.outputs.len() {
        let a = g.b.use_var(g.accs[i]);
        let slot = g.b.ins().imul_imm(it, nout * PARTIAL_BYTES);
        let at = g.b.ins().iadd(parts, slot);
        g.b.ins()
            .store(tr, a, at, (i as i64 * PARTIAL_BYTES) as i32);
    }
    let nx = g.b.ins().iadd_imm(it, 1);
    g.b.def_var(item, nx);
    g.b.ins().jump(item_head, &[]);

    g.b.switch_to_block(exit);
    let z = g.b.ins().iconst(I32, 0);
    g.b.ins().return_(&[z]);

    g.b.switch_to_block(abort);
    let ap = g.b.block_params(abort).to_vec();
    let it = g.b.use_var(item);
    g.b.ins().store(tr, ap[0], err, ERR_CODE);
    g.b.ins().store(tr, ap[4], err, ERR_LINE);
    g.b.ins().store(tr, it, err, ERR_ITEM);
    g.b.ins().store(tr, ap[1], err, ERR_A);
    g.b.ins().store(tr, ap[2], err, ERR_B);
    g.b.ins().store(tr, ap[3], err, ERR_C);
    g.b.ins().return_(&[ap[0]]);

    g.b.seal_all_blocks();
    g.b.finalize();
    Ok(())
}

/// The variables at the start of a thread: parameters' values, else zero.
fn init_vars(g: &mut Gen, init: &[Option<Vec<Value>>]) {
    for (v, d) in g.k.vars.iter().enumerate() {
        let vals = match &init[v] {
            Some(vals) => vals.clone(),
            None => {
                let z = g.zero(d.ty.elem());
                vec![z; g.vars[v].len()]
            }
        };
        for (x, val) in g.vars[v].clone().into_iter().zip(vals) {
            g.b.def_var(x, val);
        }
    }
}

/// The loop over the threads of a work item, entered at block `head` (thread `t`
/// below `t1`, its position in `g.pos`), running the body as `g.proofs` selects;
/// it leaves to `item_end`.
fn thread_loop(
    g: &mut Gen,
    head: Block,
    init: &[Option<Vec<Value>>],
    t: Variable,
    t1: Variable,
    item_end: Block,
) -> Result<(), String> {
    let (body, next) = (g.b.create_block(), g.b.create_block());
    g.next_thread = next;
    g.b.switch_to_block(head);
    let tv = g.b.use_var(t);
    let t1v = g.b.use_var(t1);
    let more = g.b.ins().icmp(IntCC::SignedLessThan, tv, t1v);
    g.b.ins().brif(more, body, &[], item_end, &[]);
    g.b.switch_to_block(body);
    init_vars(g, init);
    g.block(&g.k.body)?;
    g.b.ins().jump(next, &[]);

    // The next thread: its position by a carry from the last component.
    g.b.switch_to_block(next);
    let tv = g.b.use_var(t);
    let tn = g.b.ins().iadd_imm(tv, 1);
    g.b.def_var(t, tn);
    let mut carry: Option<Value> = None;
    for c in (0..g.pos.len()).rev() {
        let o = g.b.use_var(g.pos[c]);
        let o = match carry {
            None => g.b.ins().iadd_imm(o, 1),
            Some(w) => {
                let w = g.b.ins().uextend(I64, w);
                g.b.ins().iadd(o, w)
            }
        };
        if c > 0 {
            let wrap = g.b.ins().icmp(IntCC::Equal, o, g.kd[c]);
            let z = g.b.ins().iconst(I64, 0);
            let o2 = g.b.ins().select(wrap, z, o);
            g.b.def_var(g.pos[c], o2);
            carry = Some(wrap);
        } else {
            g.b.def_var(g.pos[c], o);
        }
    }
    g.b.ins().jump(head, &[]);
    Ok(())
}

/// Strips run per step of the strip loop.
const STRIPS_PER_STEP: usize = 4;

/// Vector strips from block `head` while a whole step fits before thread `t1` (when
/// the arrays do not overlap in part), their outputs folded into the item's partials
/// at the end; returns the block where the remaining threads go on one by one.
fn strips(
    g: &mut Gen,
    plan: &crate::strip::Plan,
    head: Block,
    init: &[Option<Vec<Value>>],
    t: Variable,
    t1: Variable,
) -> Result<Block, String> {
    let (strip_head, strip_body, fold, rest) = (
        g.b.create_block(),
        g.b.create_block(),
        g.b.create_block(),
        g.b.create_block(),
    );
    g.b.switch_to_block(head);
    let apart = g.strip_disjoint(plan)?;
    // Several strips per step, each with accumulators of its own, so that a
    // reduction is not bound by the latency of one chain of vector operations.
    let accs: Vec<_> = (0..STRIPS_PER_STEP).map(|_| g.strip_accs(plan)).collect();
    g.b.ins().brif(apart, strip_head, &[], rest, &[]);
    g.b.switch_to_block(strip_head);
    let tv = g.b.use_var(t);
    let t1v = g.b.use_var(t1);
    let step = plan.lanes * STRIPS_PER_STEP as i64;
    let te = g.b.ins().iadd_imm(tv, step);
    let fits = g.b.ins().icmp(IntCC::SignedLessThanOrEqual, te, t1v);
    g.b.ins().brif(fits, strip_body, &[], fold, &[]);
    // The strips' outputs into the item's partials, then the rest thread by thread.
    g.b.switch_to_block(fold);
    for a in &accs {
        g.strip_fold(plan, a);
    }
    g.b.ins().jump(rest, &[]);
    g.b.switch_to_block(strip_body);
    init_vars(g, init);
    for (i, a) in accs.iter().enumerate() {
        g.strip_body(plan, a, i as i64 * plan.lanes)?;
    }
    let tv = g.b.use_var(t);
    let tn = g.b.ins().iadd_imm(tv, step);
    g.b.def_var(t, tn);
    let p = g.b.use_var(g.pos[0]);
    let pn = g.b.ins().iadd_imm(p, step);
    g.b.def_var(g.pos[0], pn);
    g.b.ins().jump(strip_head, &[]);
    Ok(rest)
}
