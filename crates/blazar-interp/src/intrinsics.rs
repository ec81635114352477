//! Intrinsics: functions that need the interpreter itself (`type`, `error`, `assert`)
//! and the kernel-launch functions, which host code without a kernel backend rejects
//! with a clear message.

use crate::error::{RunError, R};
use crate::interp::{Frame, Interp};
use blazar_diagnostics::Span;
use blazar_hir::{Expr, ExprKind, Intrinsic, Ty};
use blazar_runtime::Value;

impl<'p> Interp<'p> {
    pub fn intrinsic(
        &mut self,
        i: Intrinsic,
        args: &'p [Expr],
        frame: &mut Frame,
        span: Span,
    ) -> R<Option<Value>> {
        let arity = |lo: usize, hi: usize, name: &str| -> R<()> {
            if args.len() < lo || args.len() > hi {
                let want = if lo == hi {
                    format!("{lo}")
                } else {
                    format!("{lo} to {hi}")
                };
                return Err(RunError::new(
                    span,
                    format!("`{name}` takes {want} arguments, got {}", args.len()),
                ));
            }
            Ok(())
        };
        match i {
            Intrinsic::Type => {
                arity(1, 2, "type")?;
                let v = self.eval(&args[0], frame)?;
                let have = crate::typeof_::type_of(self.prog, &v);
                if args.len() == 1 {
                    return Ok(Some(Value::str(&have.to_string())));
                }
                let want = match &args[1].kind {
                    ExprKind::TypeValue(t) => t.clone(),
                    _ => {
                        let s = self.eval(&args[1], frame)?;
                        let Value::Str(s) = s else {
                            return Err(RunError::new(args[1].span, "the second argument of `type` must be a type or a string"));
                        };
                        parse_type(&s).ok_or_else(|| RunError::new(args[1].span, format!("`{s}` is not a type")))?
                    }
                };
                Ok(Some(Value::int(have.conforms_to(&want) as i64)))
            }
            Intrinsic::Error => {
                let parts = self.eval_args(args, frame)?;
                // MATLAB's `error(fmt, args...)` when the first argument is a format with
                // arguments for it; otherwise the parts joined, as `print` shows them.
                let formatted = match parts.as_slice() {
                    [Value::Str(f), rest @ ..] if !rest.is_empty() && f.contains('%') => {
                        blazar_runtime::format::sprintf(f, rest, self.prec).ok()
                    }
                    _ => None,
                };
                let msg: String = formatted.unwrap_or_else(|| parts.iter().map(|v| blazar_runtime::format::format_value(v, self.prec)).collect());
                Err(RunError::new(span, if msg.is_empty() { "error".to_string() } else { msg }))
            }
            Intrinsic::Assert => {
                arity(1, 2, "assert")?;
                if self.cond(&args[0], frame)? {
                    return Ok(None);
                }
                let mut msg = "assertion failed".to_string();
                if let Some(m) = args.get(1) {
                    let v = self.eval(m, frame)?;
                    msg = format!("assertion failed: {}", blazar_runtime::format::format_value(&v, self.prec));
                }
                Err(RunError::new(args[0].span, msg))
            }
            Intrinsic::IsDefined => {
                arity(1, 1, "isdefined")?;
                let defined = match &args[0].kind {
                    ExprKind::Var(v) => self.var_ref(*v, frame).is_some(),
                    _ => true,
                };
                Ok(Some(Value::int(defined as i64)))
            }
            Intrinsic::Target => Ok(Some(Value::int(0))),
            Intrinsic::Nullptr => Ok(Some(crate::coerce::null_object())),
            Intrinsic::ParallelDo | Intrinsic::SerialDo => {
                let outs = self.launch(args, frame, span, i == Intrinsic::SerialDo)?;
                Ok(match outs.len() {
                    0 => None,
                    1 => outs.into_iter().next(),
                    _ => Some(crate::coerce::build_matrix(outs, self.prec, false).map_err(|e| RunError::new(span, e.message))?),
                })
            }
            Intrinsic::MaxBlockSize | Intrinsic::OptBlockSize => {
                arity(2, 2, if i == Intrinsic::MaxBlockSize { "max_block_size" } else { "opt_block_size" })?;
                let d = self.eval(&args[1], frame)?;
                let dims: Vec<usize> = match &d {
                    Value::Array(a) => {
                        let a = a.borrow();
                        (0..a.len()).map(|k| a.get_f64(k).max(1.0) as usize).collect()
                    }
                    v => vec![v.as_f64().unwrap_or(1.0).max(1.0) as usize],
                };
                let b = if i == Intrinsic::MaxBlockSize { crate::dims::max_block(&dims) } else { crate::dims::default_block(&dims) };
                if b.len() == 1 {
                    return Ok(Some(Value::int(b[0] as i64)));
                }
                let data = b.iter().map(|&x| x as i32).collect();
                Ok(Some(Value::array(blazar_runtime::Array::from_ints(vec![b.len()], data))))
            }
            Intrinsic::Syncthreads | Intrinsic::Shared | Intrinsic::SharedZeros => Err(RunError::new(
                span,
                "`syncthreads`, `shared` and `shared_zeros` can only be used inside a kernel function",
            )),
        }
    }
}

/// Parses a type written in a string, as in `type(x, "cube[??]")`.
pub fn parse_type(text: &str) -> Option<Ty> {
    let src = format!("x : {text}\n");
    let (prog, diags) = blazar_syntax::parse(&src, blazar_diagnostics::FileId(0));
    if !diags.is_empty() {
        return None;
    }
    let stmt = prog.stmts.first()?;
    let blazar_syntax::StmtKind::Decl { ty, .. } = &stmt.kind else {
        return None;
    };
    struct NoUserTypes;
    impl blazar_hir::types::TypeNames for NoUserTypes {
        fn user_type(&self, _: &str) -> Option<Ty> {
            None
        }
    }
    blazar_hir::types::resolve_type(ty, &NoUserTypes).ok()
}
