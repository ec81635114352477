//! Running a region: its result array, its kernel (lowered once per region) and the
//! launch through the backend.

use super::*;

impl<'p> Interp<'p> {
    /// The value of an operand: a node's region runs as a kernel.
    pub(super) fn force(&mut self, o: Operand, f: &mut Fusion, span: Span) -> R<Value> {
        let n = match o {
            Operand::Val(v, _) => return Ok(v),
            Operand::Node(n) => n,
        };
        let Some(done) = f.b.finish(n, None) else {
            return Err(RunError::new(
                span,
                "internal error: a region without an array",
            ));
        };
        if let Some(copied) = self.block_copy(&done, f) {
            return Ok(Value::Array(copied));
        }
        let elem = elem_type(done.region.elem());
        let out = match self.recyclable(&done, elem, f) {
            Some(r) => r,
            None => self.alloc_out(done.dims.clone(), elem, span)?,
        };
        if done.dims.iter().product::<usize>() > 0 {
            self.launch_region(&done, Some(out.clone()), f, span)?;
        }
        Ok(Value::Array(out))
    }

    /// A new result array from the backend (device memory on a GPU).
    pub(super) fn alloc_out(&self, dims: Vec<usize>, elem: ElemType, span: Span) -> R<ArrayRef> {
        self.fused.allocs.set(self.fused.allocs.get() + 1);
        self.backend_ref(span)?
            .0
            .try_borrow_mut()
            .map_err(|_| RunError::new(span, "an array operation inside a kernel"))?
            .alloc(dims, elem)
            .map_err(|m| RunError::new(span, m))
    }

    pub(super) fn backend_ref(&self, span: Span) -> R<crate::BackendRef> {
        self.backend
            .clone()
            .ok_or_else(|| RunError::new(span, "no backend to run array operations was given"))
    }

    /// Launches the kernel of a finished region: over its result array `out`, or, for
    /// a reduction, returning the kernel's output.
    pub(super) fn launch_region(
        &mut self,
        done: &Finished,
        out: Option<ArrayRef>,
        f: &Fusion,
        span: Span,
    ) -> R<Vec<KValue>> {
        let mut flat = Vec::with_capacity(done.args.len() + 1);
        flat.extend(out.map(Flat::Array));
        flat.extend(self.region_args(done, f, span)?);
        let numel: usize = done.dims.iter().product();
        if done.region.along.is_some() {
            flat.push(Flat::Value(KValue::Int(done.along_len as i64)));
        }
        let strided = self.fused.grid_stride;
        let space: Vec<usize> = if strided && done.region.flat && done.region.reduce.is_some() {
            // Grid-stride reduction: a fixed pool of threads (every CPU work item and
            // enough warps to fill a GPU), each summing numel/threads elements.
            let threads = numel.min(REDUCE_THREADS);
            flat.push(Flat::Value(KValue::Int(numel as i64)));
            flat.push(Flat::Value(KValue::Int(threads as i64)));
            vec![threads]
        } else if done.region.flat {
            vec![numel]
        } else if let Some(a) = done.region.along.filter(|a| a.scan) {
            // A thread per lane of the scanned dimension.
            let mut d = done.dims.clone();
            d.remove(a.axis as usize);
            d
        } else {
            done.dims.clone()
        };
        self.launch_space(done, flat, &space, span)
    }

    /// The kernel arguments of a finished region's inputs, in order.
    pub(super) fn region_args(&self, done: &Finished, f: &Fusion, span: Span) -> R<Vec<Flat>> {
        let mut flat = Vec::with_capacity(done.args.len());
        for a in &done.args {
            flat.push(match a {
                Arg::Array(k) => match f.arrays.iter().find(|(key, _)| key == k) {
                    Some((_, arr)) => Flat::Array(arr.clone()),
                    None => return Err(RunError::new(span, "internal error: a lost array")),
                },
                Arg::View(k, params) => {
                    match f.arrays.iter().find(|(key, _)| key == k) {
                        Some((_, arr)) => flat.push(Flat::Array(arr.clone())),
                        None => return Err(RunError::new(span, "internal error: a lost array")),
                    }
                    flat.extend(params.iter().map(|p| Flat::Value(KValue::Int(*p))));
                    continue;
                }
                Arg::Scalar(ScalarArg::Int(i)) => Flat::Value(KValue::Int(*i)),
                Arg::Scalar(ScalarArg::Real(x)) => Flat::Value(KValue::Float(*x)),
            });
        }
        Ok(flat)
    }

    /// Launches the kernel of `done` with arguments `flat` over index space `space`.
    pub(super) fn launch_space(
        &mut self,
        done: &Finished,
        flat: Vec<Flat>,
        space: &[usize],
        span: Span,
    ) -> R<Vec<KValue>> {
        let kernel = self.fused_kernel(&done.region, span)?;
        let mut plan = LaunchPlan {
            rank: kernel.rank,
            data_dims: [1; 4],
            block_dims: [1; 4],
            serial: false,
            block_given: false,
        };
        plan.data_dims[..space.len()].copy_from_slice(space);
        let block = crate::dims::default_block(space);
        plan.block_dims[..block.len()].copy_from_slice(&block);
        let name = kernel.name.clone();
        // A region's kernel fails only where the host would (an index outside a
        // gather's array): the host's message at the statement, the kernel as a note.
        let fail = |e: blazar_launch::KernelError| {
            let mut err = RunError::new(span, e.message.clone());
            err.related.push((
                span,
                format!("raised by `{name}`, the kernel this expression runs as"),
            ));
            err
        };
        self.run_kernel_mapped(&kernel, &plan, flat, &name, span, &fail)
    }

    /// The kernel of `region`, lowered once (a new region is verified first in debug
    /// builds).
    pub(super) fn fused_kernel(&mut self, region: &Region, span: Span) -> R<Rc<Kernel>> {
        if let Some(k) = self.fused.map.get(region) {
            return Ok(k.clone());
        }
        if cfg!(debug_assertions) {
            if let Err(errs) = blazar_air::verify(region) {
                return Err(RunError::new(
                    span,
                    format!(
                        "internal error: invalid AIR region:\n  {}\n{}",
                        errs.join("\n  "),
                        blazar_air::print_region("?", region)
                    ),
                ));
            }
        }
        let line = self.sources.line_of(span) as u32;
        let n = self.fused.per_line.entry(line).or_insert(0);
        *n += 1;
        let name = match *n {
            1 => format!("array_line{line}"),
            n => format!("array_line{line}_{n}"),
        };
        let k = blazar_passes::lower_region(region, &name, line, self.fused.grid_stride)
            .map_err(|d| RunError::new(span, d.message))?;
        let k = Rc::new(k);
        self.fused.map.insert(region.clone(), k.clone());
        let shown = match self.fused.group {
            Some((a, b)) => format!("{name} (fused statements, lines {a}-{b})"),
            None => name,
        };
        self.fused.regions.push((shown, region.clone()));
        self.kernels.record(k.clone());
        Ok(k)
    }
}
