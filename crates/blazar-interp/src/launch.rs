//! Kernel launches from host code: `parallel_do` and `serial_do`.
//!
//! A launch reads the index space (`dims`), builds the argument signature from the run-
//! time values, specialises the kernel once per signature (cached), lays the index space
//! out in blocks (the launch plan, data kept apart from the kernel) and runs it on the
//! CPU executor or the backend. Kernel outputs come back as the call's value. The
//! index space itself is read in `dims.rs`.

use crate::dims::{default_block, read_dims, MAX_BLOCK};
use crate::error::{RunError, R};
use crate::interp::{Frame, Interp};
use blazar_diagnostics::Span;
use blazar_hir::{Expr, FnId, FnKind, Ty as HTy};
use blazar_kir::{Kernel, Scalar};
use blazar_launch::{KValue, KernelError, KernelErrorKind, LaunchPlan};
use blazar_passes::{ArgSig, Signature};
use blazar_runtime::{Buffer, FuncRef, Prec, Value};
use std::collections::HashMap;
use std::rc::Rc;

use crate::launch_values::{array_ty, extents_of, kernel_line_span};
pub(crate) use crate::launch_values::{elem_scalar, int_of, kvalue_to_value, scalar_of};

/// Specialised kernels by (function, signature), remembering the order of first use.
#[derive(Default)]
pub struct KernelCache {
    map: HashMap<(FnId, Signature), Rc<Kernel>>,
    /// Loop kernels that did not compile for a signature (those loops run serially).
    failed: std::collections::HashSet<(FnId, Signature)>,
    order: Vec<Rc<Kernel>>,
    /// Kernels that index with `:`: their signatures carry the arrays' extents.
    needs_extents: std::collections::HashSet<FnId>,
}

impl KernelCache {
    pub fn in_order(&self) -> Vec<Kernel> {
        self.order.iter().map(|k| (**k).clone()).collect()
    }

    /// Lists a kernel made elsewhere (from a whole-array expression) in launch order.
    pub fn record(&mut self, k: Rc<Kernel>) {
        self.order.push(k);
    }
}

/// Launch extents for a kernel whose positions have `rank` components: trailing, then
/// leading extents of 1 drop (`[1, N]` and `[4, 8, 1]` are 1-d and 2-d), and missing
/// dimensions are 1 (`size(img2d)` for `pos : ivec3` is M×N×1).
fn fit_launch_rank(dims: &mut Vec<usize>, rank: usize) {
    while dims.len() > rank && dims.last() == Some(&1) {
        dims.pop();
    }
    while dims.len() > rank && dims[0] == 1 {
        dims.remove(0);
    }
    if !dims.is_empty() {
        dims.resize(rank.max(dims.len()), 1);
    }
}

pub(crate) use crate::launch_values::Flat;

impl<'p> Interp<'p> {
    /// The signature entry of one argument, and its flattened values.
    pub(crate) fn arg_sig(
        &self,
        v: &Value,
        declared: Option<&HTy>,
        out: &mut Vec<Flat>,
    ) -> Result<ArgSig, String> {
        Ok(match v {
            Value::Real(x) => {
                out.push(Flat::Value(KValue::Float(*x)));
                ArgSig::Scalar(if self.prec == Prec::Double {
                    Scalar::F64
                } else {
                    Scalar::F32
                })
            }
            Value::Int(x, t) => {
                out.push(Flat::Value(KValue::Int(*x)));
                ArgSig::Scalar(scalar_of(*t))
            }
            Value::Complex(z) => {
                out.push(Flat::Value(KValue::Complex(z.re, z.im)));
                ArgSig::Scalar(if self.prec == Prec::Double {
                    Scalar::C64
                } else {
                    Scalar::C32
                })
            }
            Value::Array(a) if matches!(declared, Some(HTy::FixedVec { .. })) => {
                let arr = a.borrow();
                let e = elem_scalar(arr.elem())
                    .ok_or("a cell cannot be passed as a fixed-length vector")?;
                let n = arr.len();
                if n == 0 || n > 32 {
                    return Err(format!(
                        "a vector of {n} elements cannot be a fixed-length vector"
                    ));
                }
                let lanes = (0..n)
                    .map(|i| match arr.get_value(i) {
                        Value::Int(x, _) => KValue::Int(x),
                        Value::Complex(z) => KValue::Complex(z.re, z.im),
                        v => KValue::Float(v.as_f64().unwrap_or(0.0)),
                    })
                    .collect();
                out.push(Flat::Value(KValue::Vector(lanes)));
                ArgSig::Vector(e, n as u8)
            }
            Value::Array(a) => {
                if let Some(t) = array_ty(a) {
                    out.push(Flat::Array(a.clone()));
                    return Ok(ArgSig::Array(t));
                }
                // A cell of arrays of one type (`vec[mat]`).
                let arr = a.borrow();
                let Buffer::Cell(items) = &arr.buf else {
                    return Err("unsupported array".into());
                };
                let mut ty = None;
                for it in items {
                    let Value::Array(inner) = it else {
                        return Err("only cells of arrays can be passed to kernels".into());
                    };
                    let t = array_ty(inner).ok_or("nested cells cannot be passed to kernels")?;
                    if ty.is_some_and(|x| x != t) {
                        return Err(
                            "the arrays of a cell passed to a kernel must have one type".into()
                        );
                    }
                    ty = Some(t);
                    out.push(Flat::Array(inner.clone()));
                }
                let t = ty.ok_or("an empty cell cannot be passed to a kernel")?;
                ArgSig::ArrayList(t, items.len() as u32)
            }
            Value::Func(c) => {
                let FuncRef::User(f) = c.func else {
                    return Err("builtin functions cannot be passed to kernels".into());
                };
                let mut caps = Vec::new();
                for v in &c.captures {
                    caps.push(self.arg_sig(v, None, out)?);
                }
                ArgSig::Func(f, caps)
            }
            Value::Str(_) => return Err("strings cannot be passed to kernels".into()),
            Value::Object(_) => return Err("objects cannot be passed to kernels".into()),
        })
    }

    /// `parallel_do(dims, args..., kernel)` and `serial_do`.
    pub fn launch(
        &mut self,
        args: &'p [Expr],
        frame: &mut Frame,
        span: Span,
        serial: bool,
    ) -> R<Vec<Value>> {
        let name = if serial { "serial_do" } else { "parallel_do" };
        if args.len() < 2 {
            return Err(RunError::new(
                span,
                format!("`{name}` takes the dimensions, the arguments and a kernel"),
            ));
        }
        let vals = self.eval_args(args, frame)?;
        if let Some(h) = self.host_hook.clone() {
            let at = crate::hook::HostStop {
                interp: self,
                frame,
                span,
            };
            h.0.borrow_mut().launching(&at);
        }
        let (dims_v, rest) = vals.split_first().expect("checked above");
        let (kernel_v, data) = rest.split_last().expect("checked above");
        let Value::Func(clo) = kernel_v else {
            return Err(RunError::new(
                args[args.len() - 1].span,
                format!("the last argument of `{name}` must be a kernel function"),
            ));
        };
        let FuncRef::User(fid) = clo.func else {
            return Err(RunError::new(span, "a builtin function cannot be launched"));
        };
        let f = &self.prog.functions[fid as usize];
        if f.kind != FnKind::Kernel {
            return Err(RunError::new(
                span,
                format!(
                    "`{}` is not a kernel function (declare it `__kernel__`)",
                    f.name
                ),
            ));
        }
        let fail = |m: String| RunError::new(span, format!("({name}) {} - {m}", f.name));
        let (mut ddims, block) = read_dims(dims_v).map_err(fail)?;
        let rank = self.kernel_rank(fid, ddims.len());
        fit_launch_rank(&mut ddims, rank);
        if ddims.is_empty() || ddims.len() > 4 || ddims.len() != rank {
            return Err(fail(format!("an index space of {} dimensions does not fit the kernel's {rank}-dimensional positions", ddims.len())));
        }
        if let Some(d) = ddims.iter().find(|&&d| d > blazar_passes::MAX_EXTENT) {
            return Err(fail(format!(
                "an extent of {d} is past what the kernel's positions hold: `pos` is int, so each extent is at most {}",
                blazar_passes::MAX_EXTENT
            )));
        }
        let block_given = block.is_some();
        let block = match block {
            Some(mut b) => {
                fit_launch_rank(&mut b, rank);
                if b.len() != rank || b.iter().zip(&ddims).any(|(&b, &d)| b == 0 || d % b != 0) {
                    return Err(fail(format!(
                        "the block dimensions {b:?} must divide the data dimensions {ddims:?}"
                    )));
                }
                if b.iter().product::<usize>() > MAX_BLOCK {
                    return Err(fail(format!(
                        "a block of {} threads is larger than {MAX_BLOCK}",
                        b.iter().product::<usize>()
                    )));
                }
                b
            }
            None => default_block(&ddims),
        };
        // Signature and flattened arguments.
        let (names, ordinary): (Vec<&str>, Vec<Option<HTy>>) = f
            .params
            .iter()
            .filter(|p| !blazar_passes::is_special(&p.name))
            .map(|p| (p.name.as_str(), p.ty.as_ref().map(|a| a.ty.clone())))
            .unzip();
        if data.len() != ordinary.len() {
            return Err(fail(format!(
                "the kernel takes {} arguments, {} were given",
                ordinary.len(),
                data.len()
            )));
        }
        let mut flat = Vec::new();
        let mut sig = Signature {
            args: vec![],
            captures: vec![],
            rank: rank as u8,
            outputs: vec![],
            extents: vec![],
        };
        // A kernel that indexes with `:` is compiled for its arrays' extents too.
        let needs_extents = self.kernels.needs_extents.contains(&fid);
        let mut converted = Vec::new();
        for (i, (orig, decl)) in data.iter().zip(&ordinary).enumerate() {
            let v = match decl {
                Some(t) => crate::coerce::coerce(
                    orig.clone(),
                    &blazar_hir::Annot {
                        ty: match t {
                            // A kernel's `x : vec` accepts any array, read in linear order.
                            HTy::Array {
                                elem,
                                rank: Some(1),
                            } if matches!(orig, Value::Array(_)) => HTy::Array {
                                elem: elem.clone(),
                                rank: None,
                            },
                            t => t.clone(),
                        },
                        mode: None,
                        is_const: false,
                    },
                    self.prec,
                )
                .map_err(|e| fail(e.message))?,
                None => orig.clone(),
            };
            converted.extend(crate::launch_values::Converted::of(
                i, names[i], orig, &v, decl,
            ));
            if needs_extents {
                sig.extents.push(extents_of(&v));
            }
            sig.args
                .push(self.arg_sig(&v, decl.as_ref(), &mut flat).map_err(fail)?);
        }
        for v in &clo.captures {
            sig.captures
                .push(self.arg_sig(v, None, &mut flat).map_err(fail)?);
        }
        let kernel = self.specialize(fid, sig, data, span)?;
        if let Some((c, message)) = crate::launch_values::written_copy(&kernel, &converted) {
            return Err(RunError::new(args[c.arg + 1].span, message));
        }
        let plan = {
            let mut d = [1usize; 4];
            let mut b = [1usize; 4];
            d[..rank].copy_from_slice(&ddims);
            b[..rank].copy_from_slice(&block);
            LaunchPlan {
                block_given,
                rank: rank as u8,
                data_dims: d,
                block_dims: b,
                serial,
            }
        };
        self.spend(plan.data_dims.iter().product::<usize>() as u64, span)?;
        self.run_kernel(&kernel, &plan, flat, name, span)
    }

    /// The rank a kernel's special parameters declare (or the given default).
    fn kernel_rank(&self, fid: FnId, default: usize) -> usize {
        let f = &self.prog.functions[fid as usize];
        for p in &f.params {
            if matches!(
                p.name.as_str(),
                "pos" | "blkpos" | "blkdim" | "blkidx" | "blkcnt"
            ) {
                match p.ty.as_ref().map(|a| &a.ty) {
                    Some(HTy::Int(_)) => return 1,
                    Some(HTy::FixedVec { len, .. }) => return *len as usize,
                    _ => {}
                }
            }
        }
        default
    }

    /// The kernel `fid` compiled for `sig` (cached). A kernel that asks for its arrays'
    /// extents (`:` in its code) is compiled again with those of `data`, and is given
    /// them from then on.
    fn specialize(
        &mut self,
        fid: FnId,
        sig: Signature,
        data: &[Value],
        span: Span,
    ) -> R<Rc<Kernel>> {
        let key = (fid, sig);
        if let Some(k) = self.kernels.map.get(&key) {
            return Ok(k.clone());
        }
        let sources = self.sources;
        let line_of = |s: Span| sources.line_of(s) as u32;
        let col_of = |s: Span| sources.col_of(s) as u32;
        let name = |id: u32| blazar_runtime::builtins::get(id).name;
        let env = blazar_passes::Env {
            prog: self.prog,
            builtin_name: &name,
            double: self.prec == Prec::Double,
            line_of: &line_of,
            col_of: &col_of,
        };
        let k = match blazar_passes::specialize(&env, fid, &key.1) {
            Err(d) if d.message == blazar_passes::NEEDS_EXTENTS && key.1.extents.is_empty() => {
                self.kernels.needs_extents.insert(fid);
                let mut sig = key.1;
                sig.extents = data.iter().map(extents_of).collect();
                return self.specialize(fid, sig, data, span);
            }
            r => r,
        };
        let k = k.map_err(|d| {
            let mut e = RunError::new(d.span.unwrap_or(span), d.message);
            e.notes.push(format!(
                "while compiling kernel `{}` for this launch",
                self.prog.functions[fid as usize].name
            ));
            e
        })?;
        let k = Rc::new(k);
        self.kernels.map.insert(key, k.clone());
        self.kernels.order.push(k.clone());
        Ok(k)
    }

    /// Specialises a kernel made from a host loop; `None` (remembered) when it does not
    /// compile for these types, and the loop then runs serially.
    pub(crate) fn specialize_quiet(
        &mut self,
        fid: FnId,
        sig: Signature,
        data: &[Value],
    ) -> Option<Rc<Kernel>> {
        let key = (fid, sig);
        if self.kernels.failed.contains(&key) {
            return None;
        }
        let span = self.prog.functions[fid as usize].span;
        match self.specialize(fid, key.1.clone(), data, span) {
            Ok(k) => Some(k),
            Err(_) => {
                self.kernels.failed.insert(key);
                None
            }
        }
    }

    pub(crate) fn run_kernel(
        &mut self,
        k: &Rc<Kernel>,
        plan: &LaunchPlan,
        flat: Vec<Flat>,
        name: &str,
        span: Span,
    ) -> R<Vec<Value>> {
        let outs = self.run_kernel_raw(k, plan, flat, name, span)?;
        Ok(outs
            .into_iter()
            .zip(&k.outputs)
            .map(|(v, o)| kvalue_to_value(v, o.ty, self.prec))
            .collect())
    }

    /// As [`Interp::run_kernel`], with the outputs as the kernel gives them.
    pub(crate) fn run_kernel_raw(
        &mut self,
        k: &Rc<Kernel>,
        plan: &LaunchPlan,
        flat: Vec<Flat>,
        name: &str,
        span: Span,
    ) -> R<Vec<KValue>> {
        let (prog, sources) = (self.prog, self.sources);
        let fail = |e: KernelError| {
            let what = match e.kind {
                KernelErrorKind::AssertFailed => format!("assertion failed: line {}", e.line),
                KernelErrorKind::Interrupted => e.message.clone(),
                _ if e.line > 0 => format!("{}: line {}", e.message, e.line),
                _ => e.message.clone(),
            };
            let mut err = RunError::new(span, format!("({name}) {} - {what}", k.name));
            // Located at the kernel's own line (an index out of range: at the access
            // that failed), with the launch as a note.
            let home = prog
                .functions
                .iter()
                .find(|f| f.name == k.name)
                .map_or(span, |f| f.span);
            let access = (e.kind == KernelErrorKind::OutOfBounds)
                .then(|| crate::access_at::access_in_program(prog, sources, home, e.line, e.col))
                .flatten();
            if let Some(at) =
                access.or_else(|| kernel_line_span(prog, sources, &k.name, e.line, span))
            {
                err.span = at;
                err.related
                    .push((span, format!("`{}` was launched here", k.name)));
            }
            err
        };
        self.run_kernel_mapped(k, plan, flat, name, span, &fail)
    }

    /// Runs a kernel; `fail` turns a kernel's error into the run's error.
    pub(crate) fn run_kernel_mapped(
        &mut self,
        k: &Rc<Kernel>,
        plan: &LaunchPlan,
        flat: Vec<Flat>,
        name: &str,
        span: Span,
        fail: &dyn Fn(KernelError) -> Box<RunError>,
    ) -> R<Vec<KValue>> {
        let (args, distinct) = crate::launch_values::distinct_arrays(flat)
            .map_err(|what| RunError::new(span, format!("({name}) {}: {what}", k.name)))?;
        let Some(backend) = self.backend.clone() else {
            return Err(RunError::new(
                span,
                format!("({name}) {}: no backend to run kernels was given", k.name),
            ));
        };
        let mut b = backend
            .0
            .try_borrow_mut()
            .map_err(|_| RunError::new(span, "a kernel cannot be launched from inside another"))?;
        let start = self.profile.is_some().then(std::time::Instant::now);
        let outs = b
            .launch(k, plan, &args, &distinct)
            .map_err(fail)?
            .ok_or_else(|| {
                RunError::new(
                    span,
                    format!("({name}) {}: no backend ran this kernel", k.name),
                )
            })?;
        if let Some(t0) = start {
            // Profiling: the launch ends when its device has finished.
            b.synchronize().map_err(fail)?;
            let timing = b.last_timing();
            drop(b);
            let line = self.sources.line_of(span) as u32;
            if let Some(p) = self.profile.as_mut() {
                p.kernel(line, &k.name, t0.elapsed(), timing);
            }
        }
        Ok(outs)
    }
}
