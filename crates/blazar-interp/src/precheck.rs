//! Kernels compiled at check time: each kernel whose parameters all have declared types
//! that fix a signature (scalars, fixed-length vectors, arrays of a given rank) is
//! specialised and lowered for them while the program is checked, so what would stop a
//! launch (a form kernels cannot compile) is reported by `blazar check` and before any
//! host work runs. Kernels with untyped parameters or captures are compiled at their
//! launches only.

use blazar_diagnostics::{Diagnostic, SourceMap};
use blazar_hir::{FnKind, Program, Ty};
use blazar_kir::{ArrayTy, Scalar, Space};
use blazar_passes::{int_scalar, ArgSig, Signature};

fn scalar(t: &Ty) -> Option<Scalar> {
    Some(match t {
        Ty::Scalar => Scalar::F32,
        Ty::CScalar => Scalar::C32,
        Ty::Int(k) => int_scalar(*k),
        _ => return None,
    })
}

/// The signature entry a declared parameter type fixes, if it fixes one.
fn arg_sig(t: &Ty) -> Option<ArgSig> {
    Some(match t {
        Ty::FixedVec { elem, len } => ArgSig::Vector(scalar(elem)?, u8::try_from(*len).ok()?),
        Ty::Array {
            elem,
            rank: Some(r),
        } => ArgSig::Array(ArrayTy {
            elem: scalar(elem)?,
            rank: u8::try_from(*r).ok().filter(|r| (1..=4).contains(r))?,
            read: Default::default(),
            write: Default::default(),
            is_const: false,
            space: Space::Global,
        }),
        t => ArgSig::Scalar(scalar(t)?),
    })
}

/// The signature of kernel `f` from its declared types, if they fix one.
fn signature(p: &Program, f: &blazar_hir::Function) -> Option<Signature> {
    if !f.capture_slots.is_empty() {
        return None;
    }
    let mut rank = 1u8;
    let mut args = Vec::new();
    for par in &f.params {
        let ty = &par.ty.as_ref()?.ty;
        if blazar_passes::is_special(&par.name) {
            if let Ty::FixedVec { len, .. } = ty {
                if par.name != "warpsize" {
                    rank = u8::try_from(*len).ok()?;
                }
            }
            continue;
        }
        args.push(arg_sig(ty)?);
    }
    let _ = p;
    Some(Signature {
        args,
        captures: vec![],
        rank,
        extents: vec![],
        outputs: vec![],
    })
}

/// Compiles every kernel whose declared types fix a signature; their errors.
pub fn check_kernels(p: &Program, sources: &SourceMap) -> Vec<Diagnostic> {
    let line_of = |s: blazar_diagnostics::Span| sources.line_of(s) as u32;
    let col_of = |s: blazar_diagnostics::Span| sources.col_of(s) as u32;
    let name = |id: u32| blazar_runtime::builtins::get(id).name;
    let env = blazar_passes::Env {
        prog: p,
        builtin_name: &name,
        double: false,
        line_of: &line_of,
        col_of: &col_of,
    };
    let mut out = Vec::new();
    for (id, f) in p.functions.iter().enumerate() {
        if f.kind != FnKind::Kernel {
            continue;
        }
        let Some(sig) = signature(p, f) else { continue };
        if let Err(d) = blazar_passes::specialize(&env, id as u32, &sig) {
            if d.message == blazar_passes::NEEDS_EXTENTS || d.span.is_none() {
                continue;
            }
            out.push(d.with_note(format!(
                "while compiling kernel `{}` for its declared parameter types",
                f.name
            )));
        }
    }
    out
}
