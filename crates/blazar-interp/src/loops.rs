//! Host loops run as kernels: the run-time half of the loop parallelizer.
//!
//! `passes::parallelize` replaced a `for` nest by a [`ParallelLoop`]: a generated kernel
//! and the loop as written. Here the ranges are evaluated, and the kernel is launched
//! through the run's backend when it can be: integer ranges with enough iterations
//! (unless forced), arguments a kernel can take, no written array reachable through two
//! arguments, and a kernel that compiles for these types. Otherwise the loop runs
//! serially, exactly as written. Arrays of the default access mode are passed
//! `'checked`, so an index outside an array is an error as on the host.

use crate::error::{RunError, R};
use crate::interp::{Frame, Interp};
use crate::launch::Flat;
use blazar_diagnostics::SourceMap;
use blazar_hir::{IndexForm, ParallelLoop, Var};
use blazar_kir::Scalar;
use blazar_launch::{KValue, KernelError, KernelErrorKind, LaunchPlan};
use blazar_passes::{ArgSig, Signature};
use blazar_runtime::{ArrayRef, IntTy, Mode, Value};
use std::rc::Rc;

/// Loops with fewer iterations than this run serially unless forced (or unless
/// `--fuse-min` asks for kernels from smaller sizes): a launch costs about as much as a
/// few thousand iterations of the interpreter.
pub const LOOP_MIN: usize = 4096;

/// The evaluated range of one level.
struct Range {
    start: i64,
    step: i64,
    count: usize,
}

impl<'p> Interp<'p> {
    /// Runs a parallelised loop: as a kernel when it can, else serially.
    pub(crate) fn exec_parallel(
        &mut self,
        p: &'p ParallelLoop,
        frame: &mut Frame,
    ) -> R<crate::error::Flow> {
        if self.try_parallel(p, frame)? {
            return Ok(crate::error::Flow::Normal);
        }
        self.exec_block(std::slice::from_ref(&*p.serial), frame)
    }

    /// Launches the loop's kernel; `false` when the loop must run serially instead.
    fn try_parallel(&mut self, p: &'p ParallelLoop, frame: &mut Frame) -> R<bool> {
        if self.fuse_min == usize::MAX {
            return Ok(false);
        }
        let span = p.serial.span;
        // The ranges (pure expressions: the serial loop may evaluate them again).
        let mut ranges = Vec::new();
        for l in &p.levels {
            let start = self.eval(&l.start, frame)?;
            let step = match &l.step {
                Some(e) => self.eval(e, frame)?,
                None => Value::int(1),
            };
            let end = self.eval(&l.end, frame)?;
            let (Value::Int(a, _), Value::Int(st, _), Some(b)) = (&start, &step, end.as_f64())
            else {
                return Ok(false);
            };
            let (a, st) = (*a, *st);
            if st == 0 || !b.is_finite() {
                return Ok(false);
            }
            let n = ((b - a as f64) / st as f64).floor() + 1.0;
            if n < 1.0 || n > i32::MAX as f64 {
                return Ok(false);
            }
            let last = a as f64 + (n - 1.0) * st as f64;
            if last.abs() > i32::MAX as f64 || a.abs() > i32::MAX as i64 {
                return Ok(false);
            }
            ranges.push(Range {
                start: a,
                step: st,
                count: n as usize,
            });
        }
        let Some(total) = ranges
            .iter()
            .try_fold(1usize, |t, r| t.checked_mul(r.count))
        else {
            return Ok(false);
        };
        if !p.forced && total < self.fuse_min.min(LOOP_MIN) {
            return Ok(false);
        }
        // Arguments: the ranges, then the host values.
        let mut flat = Vec::new();
        let mut sig = Signature {
            args: vec![],
            captures: vec![],
            rank: ranges.len() as u8,
            outputs: vec![],
            extents: vec![],
        };
        // The ordinary arguments' values, in order (for kernels that need extents).
        let mut data = Vec::new();
        for (l, r) in p.levels.iter().zip(&ranges) {
            if l.literal().is_some() {
                continue;
            }
            for x in [r.start, r.step] {
                flat.push(Flat::Value(KValue::Int(x)));
                sig.args.push(ArgSig::Scalar(Scalar::I32));
                data.push(Value::Int(x, IntTy::I32));
            }
        }
        let mut arrays: Vec<(Var, ArrayRef)> = Vec::new();
        for &v in &p.args {
            let Some(val) = self.var_ref(v, frame).cloned() else {
                return Ok(false);
            };
            // A default-mode array reads as the host reads it (an error outside) and
            // ignores writes outside (the put mode `safe`), unless every access is
            // proven inside.
            let mut skip_writes = false;
            let val = match val {
                Value::Array(mut a) => {
                    if a.mode.mode == Mode::Default {
                        a.mode.mode = if inside(p, v, &a, &ranges) {
                            Mode::Unchecked
                        } else {
                            skip_writes = true;
                            Mode::Checked
                        };
                    }
                    arrays.push((v, a.clone()));
                    Value::Array(a)
                }
                Value::Func(_) | Value::Str(_) | Value::Object(_) => return Ok(false),
                v => v,
            };
            match self.arg_sig(&val, None, &mut flat) {
                Ok(mut s) => {
                    if let (true, ArgSig::Array(t)) = (skip_writes, &mut s) {
                        t.write = blazar_kir::WriteMode::Skip;
                    }
                    sig.args.push(s)
                }
                Err(_) => return Ok(false),
            }
            data.push(val);
        }
        // A written array must not be reachable through another argument.
        for (v, a) in &arrays {
            if p.written.contains(v)
                && arrays
                    .iter()
                    .any(|(w, b)| w != v && Rc::ptr_eq(&a.data, &b.data))
            {
                return Ok(false);
            }
        }
        for (_, init) in &p.outputs {
            let t = match self.var_ref(*init, frame) {
                Some(Value::Int(_, t)) => crate::launch::scalar_of(*t),
                Some(Value::Real(_)) => self.float_scalar(),
                Some(Value::Complex(_)) => self.complex_scalar(),
                Some(Value::Array(a)) => {
                    let meta = a.meta().ok();
                    match meta.and_then(|m| crate::launch::elem_scalar(m.elem())) {
                        Some(Scalar::C32 | Scalar::C64) => self.complex_scalar(),
                        Some(Scalar::F32 | Scalar::F64) => self.float_scalar(),
                        Some(s) => s,
                        None => return Ok(false),
                    }
                }
                _ => return Ok(false),
            };
            sig.outputs.push(t);
        }
        let kernel = match self.cached_kernel(p, frame) {
            Some(fid) => match self.specialize_quiet(fid, sig.clone(), &data) {
                Some(k) => Some(k),
                None => self.specialize_quiet(p.kernel, sig, &data),
            },
            None => self.specialize_quiet(p.kernel, sig, &data),
        };
        let Some(kernel) = kernel else {
            return Ok(false);
        };
        let rank = ranges.len();
        let mut d = [1usize; 4];
        let mut b = [1usize; 4];
        for (k, r) in ranges.iter().enumerate() {
            d[k] = r.count;
        }
        let tiled = self.tile(p, &d[..rank]);
        let block = tiled
            .clone()
            .unwrap_or_else(|| crate::dims::default_block(&d[..rank]));
        b[..rank].copy_from_slice(&block);
        let plan = LaunchPlan {
            block_given: tiled.is_some(),
            rank: rank as u8,
            data_dims: d,
            block_dims: b,
            serial: false,
        };
        self.spend(total as u64, span)?;
        let sources = self.sources;
        let fail = |e: KernelError| loop_error(sources, e, p);
        let outs = self.run_kernel_mapped(&kernel, &plan, flat, "loop", span, &fail)?;
        for (((tmp, _), v), o) in p.outputs.iter().zip(outs).zip(&kernel.outputs) {
            let v = crate::launch::kvalue_to_value(v, o.ty, self.prec);
            self.write_var(*tmp, frame, v);
        }
        for s in &p.combine {
            self.exec_block(std::slice::from_ref(s), frame)?;
        }
        // The loop variables end as the serial loop leaves them.
        for (l, r) in p.levels.iter().zip(&ranges) {
            let last = r.start + (r.count as i64 - 1) * r.step;
            self.write_var(l.var, frame, Value::Int(last, IntTy::I32));
        }
        Ok(true)
    }

    /// The block shape `!kernel_tiling` asks for on this target: each extent the largest
    /// divisor of the range under the one asked for, halved (largest first) until the
    /// block has at most 1024 threads.
    fn tile(&self, p: &ParallelLoop, dims: &[usize]) -> Option<Vec<usize>> {
        let (want, target) = p.tiling.as_ref()?;
        if !self.target_is(target.as_deref()) {
            return None;
        }
        let mut b: Vec<usize> = dims
            .iter()
            .zip(want)
            .map(|(&d, &w)| {
                (1..=w.min(d).max(1))
                    .rev()
                    .find(|x| d % x == 0)
                    .unwrap_or(1)
            })
            .collect();
        while b.iter().product::<usize>() > crate::dims::MAX_BLOCK {
            let (i, _) = b.iter().enumerate().max_by_key(|(_, x)| **x)?;
            let d = dims[i];
            b[i] = (1..b[i]).rev().find(|x| d % x == 0).unwrap_or(1);
        }
        Some(b)
    }

    /// Whether the run's device is `target` (`None`: any).
    fn target_is(&self, target: Option<&str>) -> bool {
        let gpu = self.device_arrays;
        match target {
            None => true,
            Some("gpu" | "nvidia_cuda" | "cuda") => gpu,
            Some("cpu") => !gpu,
            Some(_) => false,
        }
    }

    /// The shared-memory cached kernel, when it is for this target and the cached array
    /// has the element count the program gave.
    fn cached_kernel(&self, p: &ParallelLoop, frame: &Frame) -> Option<blazar_hir::FnId> {
        let c = p.cached.as_ref()?;
        let target_ok = self.target_is(c.target.as_deref());
        let numel_ok = match self.var_ref(c.array, frame) {
            Some(Value::Array(a)) => a.meta().is_ok_and(|m| m.len() as i64 == c.numel),
            _ => false,
        };
        (target_ok && numel_ok).then_some(c.kernel)
    }

    fn float_scalar(&self) -> Scalar {
        if self.prec == blazar_runtime::Prec::Double {
            Scalar::F64
        } else {
            Scalar::F32
        }
    }

    fn complex_scalar(&self) -> Scalar {
        if self.prec == blazar_runtime::Prec::Double {
            Scalar::C64
        } else {
            Scalar::C32
        }
    }
}

/// Whether every element access of array `v` stays inside it over these ranges (the
/// kernel then needs no bounds checks).
fn inside(p: &ParallelLoop, v: Var, a: &ArrayRef, ranges: &[Range]) -> bool {
    let Ok(meta) = a.meta() else {
        return false;
    };
    let dims = meta.dims.clone();
    let Some((_, lists)) = p.accesses.iter().find(|(x, _)| *x == v) else {
        return false;
    };
    lists.iter().all(|list| {
        list.len() == dims.len()
            && list.iter().zip(&dims).all(|(f, &d)| {
                let (lo, hi) = match *f {
                    IndexForm::Const(c) => (c, c),
                    IndexForm::Level { level, offset } => {
                        let r = &ranges[level];
                        let last = r.start + (r.count as i64 - 1) * r.step;
                        (r.start.min(last) + offset, r.start.max(last) + offset)
                    }
                    IndexForm::Unknown => return false,
                };
                lo >= 0 && hi < d as i64
            })
    })
}

/// A loop kernel's error, located at the loop's statement on its line (an index out of
/// range: at the access that failed, as the interpreter locates it).
fn loop_error(sources: &SourceMap, e: KernelError, p: &ParallelLoop) -> Box<RunError> {
    let loop_span = p.serial.span;
    let whole = std::slice::from_ref(&*p.serial);
    let access = (e.kind == KernelErrorKind::OutOfBounds)
        .then(|| crate::access_at::access_at(sources, whole, e.line, e.col))
        .flatten();
    let at = access
        .or_else(|| {
            (e.line > 0)
                .then(|| stmt_on_line(sources, whole, e.line))
                .flatten()
                .map(|s| s.span)
        })
        .unwrap_or(loop_span);
    let what = match e.kind {
        KernelErrorKind::AssertFailed => "assertion failed".to_string(),
        _ => e.message,
    };
    let mut err = RunError::new(at, what);
    err.notes.push(format!(
        "in the loop of line {}, which runs as a kernel (`#pragma force_serial` keeps it serial)",
        sources.line_of(loop_span)
    ));
    err
}

/// The innermost simple statement of `body` on source line `line`.
pub(crate) fn stmt_on_line<'a>(
    sources: &SourceMap,
    body: &'a [blazar_hir::Stmt],
    line: u32,
) -> Option<&'a blazar_hir::Stmt> {
    for s in body {
        if let Some(x) = blazar_hir::visit::blocks(s)
            .into_iter()
            .find_map(|b| stmt_on_line(sources, b, line))
        {
            return Some(x);
        }
        if sources.line_of(s.span) as u32 == line {
            return Some(s);
        }
    }
    None
}
