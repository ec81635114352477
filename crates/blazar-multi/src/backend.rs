//! `MultiBackend`: one backend over several devices.
//!
//! Each launch is placed on one device ([`crate::place`]); every array it names is
//! brought up to date there first ([`MultiBackend::bring`]): nothing to do when that
//! device's copy is current, copies from the devices whose copies are (after waiting,
//! on the device's queue, for the events that end their writes), an upload when only
//! the host's is, a clear for fresh zeros. After the kernel, the arrays it wrote are
//! current on that device only (and no longer on the host), with the event that ends
//! the launch; those it only read are current there as well as wherever they were.
//! Nothing here waits for a device: launches and copies are queued on the devices, and
//! the host waits only when it reads an array (downloading from a device that holds
//! it) or a launch's outputs. Launches the devices cannot take (cell arrays, two views
//! of one array) run on the host executor, which reads and writes the host copies and
//! so makes every device copy stale through the store's residency.
//!
//! A launch that qualifies ([`crate::split`]) runs as bands of rows, band `p` on device
//! `p`: each device gets the rows of its band of every argument plus the halo rows it
//! reads (copied from the devices that hold them), the written arrays stay spread over
//! the devices band by band, and kernel outputs are combined from the bands' partials.

use crate::copy::{covers, join, MultiCopy, Span};
use crate::device::{CopyRoute, Device, DeviceBuffer, Event};
use crate::log::{DeviceLog, LogRef};
use crate::place::Placer;
use crate::split::Reach;
use blazar_kir::{Bind, Kernel};
use blazar_launch::{ArgVal, Backend, KValue, KernelError, KernelErrorKind, LaunchPlan};
use blazar_value::{ArrayRef, ElemType, Residency};
use std::collections::HashMap;
use std::rc::Rc;
use std::time::Instant;

/// A backend over `devices`, with `host` for the launches they cannot take.
pub struct MultiBackend {
    devices: Vec<Box<dyn Device>>,
    host: Box<dyn Backend>,
    placer: Placer,
    pinned: Option<usize>,
    log: LogRef,
    /// Band variants of split kernels, by the address of the kernel (kept alive here,
    /// so that no other kernel takes its address).
    variants: HashMap<usize, (Rc<Kernel>, Rc<Kernel>)>,
    split_min: usize,
}

fn bad(msg: impl Into<String>) -> KernelError {
    KernelError::new(0, KernelErrorKind::BadLaunch, msg)
}

const IN_USE: &str = "an array is in use and cannot be passed to a kernel";

/// The `MultiCopy` of a store's device slot.
fn multi(slot: &mut Option<Box<dyn blazar_value::DeviceCopy>>) -> Option<&mut MultiCopy> {
    slot.as_mut()
        .and_then(|c| c.as_any_mut().downcast_mut::<MultiCopy>())
}

impl MultiBackend {
    /// A backend over `devices` (at least one).
    pub fn new(devices: Vec<Box<dyn Device>>, host: Box<dyn Backend>) -> MultiBackend {
        assert!(!devices.is_empty(), "a multi-device backend needs a device");
        let log = DeviceLog::new(devices.iter().map(|d| d.name()).collect());
        MultiBackend {
            devices,
            host,
            placer: Placer::default(),
            pinned: None,
            log,
            variants: HashMap::new(),
            split_min: 0,
        }
    }

    /// The record of what each device did (shared: it can be read after the run).
    pub fn log(&self) -> LogRef {
        self.log.clone()
    }

    pub fn device_count(&self) -> usize {
        self.devices.len()
    }

    /// Runs every later launch on device `d` (`None`: placement decides again).
    pub fn pin(&mut self, d: Option<usize>) {
        self.pinned = d;
    }

    /// Bytes of each array's current elements held per device.
    fn resident(&self, arrays: &[ArrayRef]) -> Vec<usize> {
        let mut r = vec![0; self.devices.len()];
        for a in arrays {
            if matches!(a.data.residency(), Residency::Host | Residency::Zero) {
                continue;
            }
            let Ok(slot) = a.data.device().try_borrow() else {
                continue;
            };
            if let Some(mc) = slot
                .as_ref()
                .and_then(|c| c.as_any().downcast_ref::<MultiCopy>())
            {
                for (d, x) in r.iter_mut().enumerate() {
                    *x += mc.held_bytes(d);
                }
            }
        }
        r
    }

    /// Makes device `d` wait for the copies other devices queued out of its buffer
    /// `mc.bufs[d]`, before it writes that buffer.
    fn settle(
        devices: &mut [Box<dyn Device>],
        log: &LogRef,
        mc: &mut MultiCopy,
        d: usize,
    ) -> Result<(), String> {
        for e in std::mem::take(&mut mc.readers[d]) {
            devices[d].wait(&e)?;
            log.borrow_mut().devices[d].waits += 1;
        }
        Ok(())
    }

    /// Makes elements `need` of `a` (all of them: `None`) current on device `d`, and
    /// gives `d` a buffer for `a` whatever `need` is.
    fn bring(&mut self, a: &ArrayRef, d: usize, need: Option<Span>) -> Result<(), String> {
        let store = &a.data;
        let host = store.host_unsynced().try_borrow().map_err(|_| IN_USE)?;
        let (elem, len) = (host.buf.elem(), host.len());
        let mut slot = store.device().try_borrow_mut().map_err(|_| IN_USE)?;
        let fits = slot
            .as_ref()
            .and_then(|c| c.as_any().downcast_ref::<MultiCopy>())
            .is_some_and(|mc| mc.elem == elem && mc.len == len);
        if !fits {
            if store.residency() == Residency::Device {
                return Err("internal error: device data lost".into());
            }
            *slot = Some(Box::new(MultiCopy::new(
                self.devices.len(),
                elem,
                len,
                self.log.clone(),
            )));
        }
        let mc = multi(&mut slot).ok_or("internal error: no device copy")?;
        let res = store.residency();
        if res == Residency::Host || res == Residency::Zero {
            mc.invalidate();
        }
        let need = need.map_or((0, len), |(s, e)| (s.min(len), e.min(len)));
        if mc.bufs[d].is_some() && covers(mc.have[d], need) {
            return Ok(());
        }
        let mut buf = match mc.bufs[d].take() {
            Some(b) => b,
            None => self.devices[d].alloc(elem, len)?,
        };
        let r = self.fill(mc, &mut *buf, d, need, res, &host.buf);
        mc.bufs[d] = Some(buf);
        // An upload leaves the host and `d` current. A clear leaves the array `Zero`
        // (until a launch writes it): other devices clear their own buffers too,
        // rather than copy zeros from this one.
        if r? && res == Residency::Host {
            store.set_residency(Residency::Both);
        }
        Ok(())
    }

    /// Writes the elements `need` of the array `mc` into `buf`, device `d`'s buffer (out
    /// of `mc` meanwhile), from the other devices or the host; `Ok(true)` when the host
    /// copy or a clear was used (the whole buffer is then current).
    fn fill(
        &mut self,
        mc: &mut MultiCopy,
        buf: &mut dyn DeviceBuffer,
        d: usize,
        need: Span,
        res: Residency,
        host: &blazar_value::Buffer,
    ) -> Result<bool, String> {
        let size = mc.elem.size_bytes();
        if need.0 >= need.1 {
            return Ok(false);
        }
        Self::settle(&mut self.devices, &self.log, mc, d)?;
        let whole = (0, mc.len);
        let from_host = |this: &mut Self, mc: &mut MultiCopy, buf: &mut dyn DeviceBuffer| {
            let mut log = this.log.borrow_mut();
            if res == Residency::Zero {
                log.devices[d].zeroed += 1;
                this.devices[d].zero(buf)?;
            } else {
                log.devices[d].from_host += mc.size();
                blazar_value::traffic::record(
                    blazar_value::traffic::Direction::ToDevice,
                    mc.size(),
                );
                this.devices[d].upload(buf, host)?;
            }
            drop(log);
            mc.have[d] = Some(whole);
            mc.written[d] = Some(this.devices[d].record()?);
            Ok::<_, String>(true)
        };
        if res == Residency::Zero && mc.fresh {
            // A kernel result its launch writes whole: nothing to clear.
            mc.have[d] = Some(whole);
            return Ok(false);
        }
        if matches!(res, Residency::Host | Residency::Zero) {
            return from_host(self, mc, buf);
        }
        // The parts of `need` device `d` lacks, each copied from a device holding it.
        let mut missing = Vec::new();
        match mc.have[d] {
            Some((s, e)) if s < need.1 && need.0 < e => {
                if need.0 < s {
                    missing.push((need.0, s));
                }
                if e < need.1 {
                    missing.push((e, need.1));
                }
            }
            _ => missing.push(need),
        }
        let mut sources = Vec::new();
        let mut plan = Vec::new();
        for (start, end) in missing {
            let mut at = start;
            while at < end {
                let found = (0..self.devices.len())
                    .filter(|&e| e != d && mc.bufs[e].is_some())
                    .filter_map(|e| match mc.have[e] {
                        Some((s, x)) if s <= at && at < x => Some((e, x.min(end))),
                        _ => None,
                    })
                    .max_by_key(|&(_, x)| x);
                match found {
                    Some((e, upto)) => {
                        plan.push((e, at, upto));
                        at = upto;
                    }
                    None if res == Residency::Both => return from_host(self, mc, buf),
                    None => return Err("internal error: rows of an array are on no device".into()),
                }
            }
        }
        for &(e, start, end) in &plan {
            if !sources.contains(&e) {
                if let Some(ev) = mc.written[e].clone() {
                    self.devices[d].wait(&ev)?;
                    self.log.borrow_mut().devices[d].waits += 1;
                }
                sources.push(e);
            }
            let src = mc.bufs[e]
                .as_deref()
                .ok_or("internal error: a device copy marked current is missing")?;
            let route = self.devices[d].copy_range_from(buf, src, e, start, end - start)?;
            let mut log = self.log.borrow_mut();
            let stats = &mut log.devices[d];
            let map = match route {
                CopyRoute::Peer => &mut stats.from_peer,
                CopyRoute::Staged => &mut stats.staged,
            };
            *map.entry(e).or_default() += (end - start) * size;
        }
        let ev = self.devices[d].record()?;
        for e in sources {
            mc.readers[e].push(ev.clone());
        }
        mc.written[d] = Some(ev);
        mc.have[d] = Some(join(mc.have[d], need));
        Ok(false)
    }

    fn place(&mut self, arrays: &[ArrayRef]) -> usize {
        let busy: Vec<_> = self.log.borrow().devices.iter().map(|s| s.busy).collect();
        self.placer
            .choose(&self.resident(arrays), &busy, self.pinned)
    }

    /// Queues a launch on device `d`, whose copies of `arrays` hold what it reads;
    /// `start`: its outputs are left to `Device::finish`. Records it.
    fn run_on(
        &mut self,
        d: usize,
        kernel: &Rc<Kernel>,
        plan: &LaunchPlan,
        args: &[ArgVal],
        arrays: &[ArrayRef],
        start: bool,
    ) -> Result<Vec<KValue>, KernelError> {
        // The buffers leave their copies for the launch (no store stays borrowed).
        let mut bufs: Vec<(Vec<usize>, Box<dyn DeviceBuffer>)> = Vec::with_capacity(arrays.len());
        for a in arrays {
            let dims = a.meta().map_err(|_| bad(IN_USE))?.dims;
            let mut slot = a.data.device().try_borrow_mut().map_err(|_| bad(IN_USE))?;
            let mc = multi(&mut slot).ok_or_else(|| bad("internal error: no device copy"))?;
            let b = mc.bufs[d]
                .take()
                .ok_or_else(|| bad("internal error: no buffer on the chosen device"))?;
            bufs.push((dims, b));
        }
        let t = Instant::now();
        let r = {
            let mut views: Vec<(Vec<usize>, &mut dyn DeviceBuffer)> = bufs
                .iter_mut()
                .map(|(dims, b)| (dims.clone(), &mut **b))
                .collect();
            if start {
                self.devices[d]
                    .start(kernel, plan, args, &mut views)
                    .map(|_| Vec::new())
            } else {
                self.devices[d].launch(kernel, plan, args, &mut views)
            }
        };
        let took = t.elapsed();
        for (a, (_, b)) in arrays.iter().zip(bufs) {
            if let Some(mc) = multi(&mut a.data.device().borrow_mut()) {
                mc.bufs[d] = Some(b);
            }
        }
        let mut log = self.log.borrow_mut();
        let stats = &mut log.devices[d];
        stats.busy += took;
        *stats.kernels.entry(kernel.name.clone()).or_default() += 1;
        r
    }

    /// Before device `d` writes the arrays `written` (per array of the launch): it
    /// waits for other devices' copies out of its buffers of them.
    fn settle_written(
        &mut self,
        d: usize,
        arrays: &[ArrayRef],
        written: &[bool],
    ) -> Result<(), KernelError> {
        for (a, &w) in arrays.iter().zip(written) {
            if !w {
                continue;
            }
            let mut slot = a.data.device().try_borrow_mut().map_err(|_| bad(IN_USE))?;
            if let Some(mc) = multi(&mut slot) {
                Self::settle(&mut self.devices, &self.log, mc, d).map_err(bad)?;
            }
        }
        Ok(())
    }

    /// After device `d` wrote `span` of `a` (ended by `ev`): that span is the only
    /// current copy of those elements anywhere (with the bands other devices wrote in
    /// the same split launch, recorded by their own calls).
    fn mark_written(a: &ArrayRef, d: usize, span: Option<Span>, ev: &Event, first: bool) {
        if let Some(mc) = multi(&mut a.data.device().borrow_mut()) {
            let span = span.unwrap_or((0, mc.len));
            if first {
                mc.only(d, span);
            } else {
                mc.have[d] = Some(span);
            }
            mc.written[d] = Some(ev.clone());
            mc.fresh = false;
        }
        a.data.set_residency(Residency::Device);
    }

    /// Runs a launch as bands of rows over the devices when [`crate::split`] allows it:
    /// device `p` gets its band's rows (and the halo rows it reads) of every argument,
    /// runs the kernel's band variant over them, and keeps its band of each written
    /// array; kernel outputs combine the bands' partials. `None` (after noting why)
    /// when it does not split.
    fn try_split(
        &mut self,
        kernel: &Rc<Kernel>,
        plan: &LaunchPlan,
        args: &[ArgVal],
        arrays: &[ArrayRef],
    ) -> Result<Option<Vec<KValue>>, KernelError> {
        let n = self.devices.len();
        let items: usize = plan.data_dims[..plan.rank as usize].iter().product();
        if n < 2 || self.pinned.is_some() || items < 2 {
            return Ok(None);
        }
        let whole = |this: &mut Self, why: String| {
            *this
                .log
                .borrow_mut()
                .whole
                .entry((kernel.name.clone(), why))
                .or_default() += 1;
            Ok(None)
        };
        if items < self.split_min {
            let why = format!("under {} work items: kept on one device", self.split_min);
            return whole(self, why);
        }
        if plan.serial {
            return whole(self, "a serial launch".into());
        }
        let rows = plan.data_dims[0];
        let block = plan.block_dims[0].max(1);
        let blocks = rows / block;
        let parts = n.min(blocks);
        if parts < 2 || !rows.is_multiple_of(block) {
            return whole(self, "fewer row blocks than devices".into());
        }
        let params: Vec<Option<usize>> = kernel
            .params
            .iter()
            .zip(args)
            .map(|(_, a)| match a {
                ArgVal::Array(i) => Some(*i),
                ArgVal::Value(_) => None,
            })
            .collect();
        let mut dims = Vec::with_capacity(arrays.len());
        for a in arrays {
            dims.push(a.meta().map_err(|_| bad(IN_USE))?.dims);
        }
        let split = match crate::split::analyse(kernel, &dims, rows, &params) {
            Ok(s) => s,
            Err(why) => return whole(self, why),
        };
        let variant = self.variant(kernel);
        let bands: Vec<(usize, usize)> = (0..parts)
            .map(|p| (p * blocks / parts * block, (p + 1) * blocks / parts * block))
            .collect();
        // What each band's device needs of each array.
        let need = |i: usize, (r0, r1): (usize, usize)| -> Option<Span> {
            if let Some(&(_, per_row)) = split.written.iter().find(|w| w.0 == i) {
                return Some((r0 * per_row, r1 * per_row));
            }
            let reach: Option<Reach> = split.reads.iter().find(|r| r.0 == i).and_then(|r| r.1);
            let r = reach?;
            let lo = r0.checked_sub(r.below);
            let hi = r1 + r.above;
            if r.wraps && (lo.is_none() || hi > rows) {
                return None;
            }
            Some((lo.unwrap_or(0) * r.per_row, hi.min(rows) * r.per_row))
        };
        let mut written = vec![false; arrays.len()];
        for &(i, _) in &split.written {
            written[i] = true;
        }
        for (p, &band) in bands.iter().enumerate() {
            for (i, a) in arrays.iter().enumerate() {
                self.bring(a, p, need(i, band)).map_err(bad)?;
            }
        }
        let outputs = !kernel.outputs.is_empty();
        for (p, &(r0, r1)) in bands.iter().enumerate() {
            let mut band_plan = plan.clone();
            band_plan.data_dims[0] = r1 - r0;
            let mut band_args = args.to_vec();
            band_args.push(ArgVal::Value(KValue::Int(r0 as i64)));
            // On an error, the bands already started are finished (their outputs
            // dropped): no device is left with a launch whose read-back is pending.
            let abandon = |this: &mut Self, upto: usize, e: KernelError| {
                if outputs {
                    for q in 0..upto {
                        let _ = this.devices[q].finish();
                    }
                }
                e
            };
            if let Err(e) = self.settle_written(p, arrays, &written) {
                return Err(abandon(self, p, e));
            }
            if let Err(e) = self.run_on(p, &variant, &band_plan, &band_args, arrays, outputs) {
                return Err(abandon(self, p, e));
            }
            if split.written.is_empty() {
                continue;
            }
            let ev = match self.devices[p].record() {
                Ok(ev) => ev,
                Err(m) => return Err(abandon(self, p + 1, bad(m))),
            };
            for &(i, per_row) in &split.written {
                let span = (r0 * per_row, r1 * per_row);
                Self::mark_written(&arrays[i], p, Some(span), &ev, p == 0);
            }
        }
        *self
            .log
            .borrow_mut()
            .split
            .entry(kernel.name.clone())
            .or_default() += 1;
        if !outputs {
            return Ok(Some(Vec::new()));
        }
        // Every band was started before any is waited for: the devices run them at once.
        let mut total: Option<Vec<KValue>> = None;
        let mut first_err = None;
        for p in 0..parts {
            match self.devices[p].finish() {
                Ok(outs) => {
                    total = Some(match total {
                        None => outs,
                        Some(acc) => acc
                            .iter()
                            .zip(&outs)
                            .zip(&kernel.outputs)
                            .map(|((a, b), o)| crate::combine::combine(o, a, b))
                            .collect::<Option<Vec<_>>>()
                            .ok_or_else(|| bad("internal error: outputs that do not combine"))?,
                    })
                }
                Err(e) => {
                    first_err.get_or_insert(e);
                }
            }
        }
        match first_err {
            Some(e) => Err(e),
            None => Ok(Some(total.unwrap_or_default())),
        }
    }

    /// The band variant of `kernel`, made once per kernel.
    fn variant(&mut self, kernel: &Rc<Kernel>) -> Rc<Kernel> {
        let key = Rc::as_ptr(kernel) as usize;
        if let Some((_, v)) = self.variants.get(&key) {
            return v.clone();
        }
        let v = Rc::new(crate::variant::band_variant(kernel));
        self.variants.insert(key, (kernel.clone(), v.clone()));
        v
    }

    /// Launches over fewer work items than this run whole on one device (0: every
    /// launch that qualifies is split, as the simulated devices do to test it).
    pub fn set_split_min(&mut self, items: usize) {
        self.split_min = items;
    }

    /// Whether the devices can take a launch over `arrays`; the reason when not.
    fn unsupported(arrays: &[ArrayRef]) -> Option<&'static str> {
        for (i, a) in arrays.iter().enumerate() {
            if a.data
                .host_unsynced()
                .try_borrow()
                .is_ok_and(|h| h.elem() == ElemType::Cell)
            {
                return Some("cell arrays");
            }
            if arrays[..i].iter().any(|b| b.same_store(a)) {
                return Some("two views of one array");
            }
        }
        None
    }

    fn on_host(
        &mut self,
        why: &str,
        kernel: &Rc<Kernel>,
        plan: &LaunchPlan,
        args: &[ArgVal],
        arrays: &[ArrayRef],
    ) -> Result<Option<Vec<KValue>>, KernelError> {
        *self
            .log
            .borrow_mut()
            .on_host
            .entry(why.to_string())
            .or_default() += 1;
        self.host.launch(kernel, plan, args, arrays)
    }
}

/// Per array of a launch: whether the kernel writes it.
fn written(k: &Kernel, args: &[ArgVal], n: usize) -> Vec<bool> {
    let slots = &k.facts().written;
    let mut w = vec![false; n];
    for (p, a) in k.params.iter().zip(args) {
        if let (Bind::Array(slot), ArgVal::Array(i)) = (&p.bind, a) {
            if slots.get(*slot as usize).copied().unwrap_or(true) {
                if let Some(x) = w.get_mut(*i) {
                    *x = true;
                }
            }
        }
    }
    w
}

impl Backend for MultiBackend {
    fn name(&self) -> &'static str {
        "multi"
    }

    fn launch(
        &mut self,
        kernel: &Rc<Kernel>,
        plan: &LaunchPlan,
        args: &[ArgVal],
        arrays: &[ArrayRef],
    ) -> Result<Option<Vec<KValue>>, KernelError> {
        self.log.borrow_mut().start();
        if let Some(why) = Self::unsupported(arrays) {
            return self.on_host(why, kernel, plan, args, arrays);
        }
        if plan.serial && !self.devices[0].serial_launches() {
            return self.on_host("a serial launch", kernel, plan, args, arrays);
        }
        if let Some(why) = self.devices[0].declines(kernel) {
            return self.on_host(why, kernel, plan, args, arrays);
        }
        if let Some(outs) = self.try_split(kernel, plan, args, arrays)? {
            return Ok(Some(outs));
        }
        let d = self.place(arrays);
        for a in arrays {
            self.bring(a, d, None).map_err(bad)?;
        }
        let wrote = written(kernel, args, arrays.len());
        self.settle_written(d, arrays, &wrote)?;
        let r = self.run_on(d, kernel, plan, args, arrays, false);
        if wrote.iter().any(|&w| w) {
            let ev = self.devices[d].record().map_err(bad)?;
            for (a, &w) in arrays.iter().zip(&wrote) {
                if w {
                    Self::mark_written(a, d, None, &ev, true);
                }
            }
        }
        r.map(Some)
    }

    fn keeps_arrays(&self) -> bool {
        true
    }

    fn alloc(&mut self, dims: Vec<usize>, elem: ElemType) -> Result<ArrayRef, String> {
        blazar_value::alloc::result(&dims, elem.size_bytes()).map_err(|e| e.message)?;
        // Made on the device that first uses it (never uploaded; not cleared either:
        // the launch it is made for writes it whole).
        let len = dims.iter().product();
        let a = ArrayRef::zeros(dims, elem);
        let mut mc = MultiCopy::new(self.devices.len(), elem, len, self.log.clone());
        mc.fresh = true;
        *a.data.device().borrow_mut() = Some(Box::new(mc));
        Ok(a)
    }

    fn fuse_min(&self) -> usize {
        self.devices[0].fuse_min()
    }

    fn grid_stride_reductions(&self) -> bool {
        // Over several devices a reduction is a thread per element, so that each band of
        // a split reduction reads only its own elements.
        self.devices.len() == 1 && self.devices[0].grid_stride_reductions()
    }

    fn pin_device(&mut self, device: Option<usize>) -> Result<(), String> {
        match device {
            Some(d) if d >= self.devices.len() => Err(format!(
                "`gpu_index={d}`: this run has {} device{} (0 to {})",
                self.devices.len(),
                if self.devices.len() == 1 { "" } else { "s" },
                self.devices.len() - 1
            )),
            d => {
                self.pin(d);
                Ok(())
            }
        }
    }

    fn synchronize(&mut self) -> Result<(), KernelError> {
        let mut first = None;
        for (i, d) in self.devices.iter_mut().enumerate() {
            if let Err(e) = d.synchronize() {
                first.get_or_insert(e);
            }
            if let Some(busy) = d.busy() {
                self.log.borrow_mut().devices[i].busy = busy;
            }
        }
        if let Some(e) = first {
            return Err(e);
        }
        self.host.synchronize()
    }

    fn set_profiling(&mut self, on: bool) {
        for d in &mut self.devices {
            d.set_profiling(on);
        }
    }

    fn stats(&self) -> Option<String> {
        Some(self.log.borrow().summary())
    }
}
