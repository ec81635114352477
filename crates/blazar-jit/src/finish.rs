//! The `finish` entry point: folds the partials of every work item in item order and
//! applies each output's final op (`-=` negates, `/=` inverts, `^=` gives 1), as the
//! interpreter's `finish` does.

use crate::abi::PARTIAL_BYTES;
use crate::gen::{cty, partial_op};
use blazar_kir::{AtomicOp, BinOp, Const, Kernel};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::I64;
use cranelift_codegen::ir::{AbiParam, InstBuilder, MemFlags};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use cranelift_jit::JITModule;
use cranelift_module::{FuncId, Module};

/// Defines `finish` for kernel `k` in `module`.
pub(crate) fn define_finish(module: &mut JITModule, k: &Kernel) -> Result<FuncId, String> {
    let mut sig = module.make_signature();
    for _ in 0..3 {
        sig.params.push(AbiParam::new(I64));
    }
    let id = module
        .declare_anonymous_function(&sig)
        .map_err(|e| format!("cranelift: {e}"))?;
    let mut ctx = module.make_context();
    ctx.func.signature = sig;
    let mut fctx = FunctionBuilderContext::new();
    let b = FunctionBuilder::new(&mut ctx.func, &mut fctx);
    // The combining code is the run function's: a generator over this builder.
    let mut g = crate::gen::Gen::for_finish(k, b);
    let tr = MemFlags::trusted();
    let entry = g.b.create_block();
    g.b.append_block_params_for_function_params(entry);
    g.b.switch_to_block(entry);
    let p = g.b.block_params(entry).to_vec();
    let (parts, items, out) = (p[0], p[1], p[2]);
    let nout = k.outputs.len() as i64;
    for (o, def) in k.outputs.iter().enumerate() {
        let (s, ty) = (def.ty, cty(def.ty));
        let acc = g.b.declare_var(ty);
        let i = g.b.declare_var(I64);
        let id = g.identity(def.op, s);
        g.b.def_var(acc, id);
        let z = g.b.ins().iconst(I64, 0);
        g.b.def_var(i, z);
        let (head, body, done) = (g.b.create_block(), g.b.create_block(), g.b.create_block());
        g.b.ins().jump(head, &[]);
        g.b.switch_to_block(head);
        let iv = g.b.use_var(i);
        let more = g.b.ins().icmp(IntCC::SignedLessThan, iv, items);
        g.b.ins().brif(more, body, &[], done, &[]);
        g.b.switch_to_block(body);
        let slot = g.b.ins().imul_imm(iv, nout * PARTIAL_BYTES);
        let at = g.b.ins().iadd(parts, slot);
        let x =
            g.b.ins()
                .load(ty, tr, at, (o as i64 * PARTIAL_BYTES) as i32);
        let a = g.b.use_var(acc);
        let n = g.combine(partial_op(def.op), s, a, x);
        g.b.def_var(acc, n);
        let nx = g.b.ins().iadd_imm(iv, 1);
        g.b.def_var(i, nx);
        g.b.ins().jump(head, &[]);
        g.b.switch_to_block(done);
        let a = g.b.use_var(acc);
        let a = match def.op {
            AtomicOp::Sub => {
                let z = g.zero(s);
                g.binop(BinOp::Sub, s, z, a)?
            }
            AtomicOp::Div => {
                let one = g.konst(&Const::Int(1), s);
                g.binop(BinOp::Div, s, one, a)?
            }
            AtomicOp::Pow => g.konst(&Const::Int(1), s),
            _ => a,
        };
        g.b.ins()
            .store(tr, a, out, (o as i64 * PARTIAL_BYTES) as i32);
    }
    g.b.ins().return_(&[]);
    g.b.seal_all_blocks();
    g.b.finalize();
    module
        .define_function(id, &mut ctx)
        .map_err(|e| format!("cranelift: {e:?}"))?;
    Ok(id)
}
