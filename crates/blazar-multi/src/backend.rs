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

use crate::copy::{covers, join, overlaps, MultiCopy, Span};
use crate::device::{CopyRoute, Device, DeviceBuffer, Event};
use crate::log::{DeviceLog, LogRef};
use crate::place::Placer;
use crate::split::Reach;
use blazar_kir::{Bind, Kernel};
use blazar_launch::{ArgVal, ArrayOp, Backend, KValue, KernelError, KernelErrorKind, LaunchPlan};
use blazar_value::{ArrayRef, ElemType, Residency, Value};
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
    spread_min: u64,
    overlap: bool,
}

fn bad(msg: impl Into<String>) -> KernelError {
    KernelError::new(0, KernelErrorKind::BadLaunch, msg)
}

const IN_USE: &str = "an array is in use and cannot be passed to a kernel";

/// Copies out of one buffer remembered one by one; past this many, a write waits for
/// them all.
const MAX_READERS: usize = 16;

/// Elements each operand of a library operation needs, when no device holds either, for
/// the operation to run on a device (the single-GPU backend's rule for cuBLAS).
const ARRAY_OP_MIN: usize = 1 << 14;

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
            spread_min: 0,
            overlap: true,
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

    /// Makes device `d` wait for the copies other devices queued out of elements
    /// `span` of its buffer `mc.bufs[d]` (all of them: `None`), before it writes them.
    /// Copies of other elements go on unwaited: a device filling in its halo rows does
    /// not wait for its neighbour to finish copying the device's own band.
    fn settle(
        devices: &mut [Box<dyn Device>],
        log: &LogRef,
        mc: &mut MultiCopy,
        d: usize,
        span: Option<Span>,
    ) -> Result<(), String> {
        let readers = std::mem::take(&mut mc.readers[d]);
        // A long list (a buffer whose other rows are copied again and again) is
        // waited for whole rather than searched.
        let all = span.is_none() || readers.len() > MAX_READERS;
        for (e, read) in readers {
            if all || span.is_some_and(|s| overlaps(s, read)) {
                devices[d].wait(&e)?;
                log.borrow_mut().devices[d].waits += 1;
            } else {
                mc.readers[d].push((e, read));
            }
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
        let whole = (0, mc.len);
        // An upload or a clear writes the whole buffer (after the copies reading it).
        let from_host = |this: &mut Self, mc: &mut MultiCopy, buf: &mut dyn DeviceBuffer| {
            Self::settle(&mut this.devices, &this.log, mc, d, None)?;
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
            let ev = this.devices[d].record()?;
            mc.wrote(d, ev, whole, true);
            Ok::<_, String>(true)
        };
        if res == Residency::Zero && mc.fresh {
            // A kernel result its launch writes whole: nothing to clear (the launch
            // waits for copies out of the buffer, `settle_written`).
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
        let mut waited = Vec::new();
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
        // The copies write only the missing elements: copies out of others go on.
        for &(_, start, end) in &plan {
            Self::settle(&mut self.devices, &self.log, mc, d, Some((start, end)))?;
        }
        for &(e, start, end) in &plan {
            // The source's last write of these elements (its launch, or the copy that
            // brought them there), not a later copy into its other elements.
            if let Some(ev) = mc.write_event(e, (start, end)) {
                if !waited.iter().any(|w: &Event| Rc::ptr_eq(w, &ev)) {
                    self.devices[d].wait(&ev)?;
                    self.log.borrow_mut().devices[d].waits += 1;
                    waited.push(ev);
                }
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
        for &(e, start, end) in &plan {
            mc.readers[e].push((ev.clone(), (start, end)));
            mc.wrote(d, ev.clone(), (start, end), false);
        }
        mc.have[d] = Some(join(mc.have[d], need));
        Ok(false)
    }

    /// The device for a launch over `arrays` of `work` (estimated statements).
    /// Whether device `d` holds elements `need` (all: `None`) of `a` current, or will
    /// get them without another device (an upload, a clear).
    fn holds(a: &ArrayRef, d: usize, need: Option<Span>) -> bool {
        if !matches!(a.data.residency(), Residency::Device | Residency::Both) {
            return true;
        }
        let Ok(slot) = a.data.device().try_borrow() else {
            return true;
        };
        let Some(mc) = slot
            .as_ref()
            .and_then(|c| c.as_any().downcast_ref::<MultiCopy>())
        else {
            return true;
        };
        let need = need.unwrap_or((0, mc.len));
        mc.bufs[d].is_some() && covers(mc.have[d], need)
    }

    fn place(&mut self, arrays: &[ArrayRef], work: u64) -> usize {
        let busy: Vec<_> = self.log.borrow().devices.iter().map(|s| s.busy).collect();
        let spread = work >= self.spread_min;
        self.placer
            .choose(&self.resident(arrays), &busy, self.pinned, spread)
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
        self.give_back(d, arrays, bufs);
        let mut log = self.log.borrow_mut();
        let stats = &mut log.devices[d];
        stats.busy += took;
        *stats.kernels.entry(kernel.name.clone()).or_default() += 1;
        r
    }

    /// Before device `d` writes the arrays `written` (per array of the launch: the
    /// elements it writes, `None` for all): it waits for other devices' copies out of
    /// those elements of its buffers.
    fn settle_written(
        &mut self,
        d: usize,
        arrays: &[ArrayRef],
        written: &[Option<Option<Span>>],
    ) -> Result<(), KernelError> {
        for (a, w) in arrays.iter().zip(written) {
            let Some(span) = *w else { continue };
            let mut slot = a.data.device().try_borrow_mut().map_err(|_| bad(IN_USE))?;
            if let Some(mc) = multi(&mut slot) {
                Self::settle(&mut self.devices, &self.log, mc, d, span).map_err(bad)?;
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
            mc.wrote(d, ev.clone(), span, true);
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
        let outputs = !kernel.outputs.is_empty();
        // Per band, the rows at its edges whose reads reach halo rows that other
        // devices hold (a multiple of the row block; `(0, 0)`: none, or a reduction,
        // whose band is one launch). The rows between run first, while the halo rows
        // are copied in behind them; then the edges.
        let edges: Vec<(usize, usize)> = bands
            .iter()
            .enumerate()
            .map(|(p, &(r0, r1))| {
                if outputs || !self.overlap {
                    return (0, 0);
                }
                let (mut lo, mut hi) = (0, 0);
                for &(i, reach) in &split.reads {
                    let Some(r) = reach else { continue };
                    if Self::holds(&arrays[i], p, need(i, (r0, r1))) {
                        continue;
                    }
                    if r.below > 0 && (r0 > 0 || r.wraps) {
                        lo = lo.max(r.below.div_ceil(block) * block);
                    }
                    if r.above > 0 && (r1 < rows || r.wraps) {
                        hi = hi.max(r.above.div_ceil(block) * block);
                    }
                }
                if lo + hi + block > r1 - r0 {
                    return (0, 0);
                }
                (lo, hi)
            })
            .collect();
        let halo_later = |p: usize, i: usize| {
            edges[p] != (0, 0) && split.reads.iter().any(|r| r.0 == i && r.1.is_some())
        };
        for (p, &band) in bands.iter().enumerate() {
            for (i, a) in arrays.iter().enumerate() {
                // Arrays read with a halo: the band's own rows now, the halo later.
                let now = if halo_later(p, i) {
                    split
                        .reads
                        .iter()
                        .find(|r| r.0 == i)
                        .and_then(|r| r.1)
                        .map(|r| (band.0 * r.per_row, band.1 * r.per_row))
                } else {
                    need(i, band)
                };
                self.bring(a, p, now).map_err(bad)?;
            }
        }
        let writes = |(r0, r1): (usize, usize)| -> Vec<Option<Option<Span>>> {
            let mut w = vec![None; arrays.len()];
            for &(i, per_row) in &split.written {
                w[i] = Some(Some((r0 * per_row, r1 * per_row)));
            }
            w
        };
        // Queues the variant over rows `r0..r1` on device `p`.
        let rows_on = |this: &mut Self, p: usize, (r0, r1): (usize, usize), start: bool| {
            let mut band_plan = plan.clone();
            band_plan.data_dims[0] = r1 - r0;
            let mut band_args = args.to_vec();
            band_args.push(ArgVal::Value(KValue::Int(r0 as i64)));
            this.run_on(p, &variant, &band_plan, &band_args, arrays, start)
        };
        let mut ends: Vec<Option<Event>> = vec![None; parts];
        for (p, &(r0, r1)) in bands.iter().enumerate() {
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
            if let Err(e) = self.settle_written(p, arrays, &writes((r0, r1))) {
                return Err(abandon(self, p, e));
            }
            let (lo, hi) = edges[p];
            if let Err(e) = rows_on(self, p, (r0 + lo, r1 - hi), outputs) {
                return Err(abandon(self, p, e));
            }
            if split.written.is_empty() || edges[p] != (0, 0) {
                continue;
            }
            match self.devices[p].record() {
                Ok(ev) => ends[p] = Some(ev),
                Err(m) => return Err(abandon(self, p + 1, bad(m))),
            }
        }
        // The halo rows, then the edge rows that read them (never a reduction).
        for (p, &band) in bands.iter().enumerate() {
            for (i, a) in arrays.iter().enumerate() {
                if halo_later(p, i) {
                    self.bring(a, p, need(i, band)).map_err(bad)?;
                }
            }
        }
        for (p, &(r0, r1)) in bands.iter().enumerate() {
            let (lo, hi) = edges[p];
            if (lo, hi) == (0, 0) {
                continue;
            }
            self.log.borrow_mut().overlapped += 1;
            for piece in [(r0, r0 + lo), (r1 - hi, r1)] {
                if piece.0 < piece.1 {
                    rows_on(self, p, piece, false)?;
                }
            }
            if !split.written.is_empty() {
                ends[p] = Some(self.devices[p].record().map_err(bad)?);
            }
        }
        for (p, &(r0, r1)) in bands.iter().enumerate() {
            let Some(ev) = &ends[p] else { continue };
            for &(i, per_row) in &split.written {
                let span = (r0 * per_row, r1 * per_row);
                Self::mark_written(&arrays[i], p, Some(span), ev, p == 0);
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

    /// Launches of less work than this (work items times the statements of one,
    /// estimated) that depend on no device's data go where the previous launch went
    /// instead of taking the next device in turn (0: every independent launch spreads,
    /// as the simulated devices do to test it).
    pub fn set_spread_min(&mut self, work: u64) {
        self.spread_min = work;
    }

    /// Whether a split launch whose halo rows are on other devices runs each band's
    /// interior rows before their copies (the default), or waits for the copies first.
    pub fn set_overlap(&mut self, on: bool) {
        self.overlap = on;
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

    /// Runs `op` over `arrays` on device `d`; the result is an array held there alone.
    /// `None` when the device leaves it to the host after all (operands it does not
    /// take: the host then computes it, or reports why it cannot).
    fn array_op_on(
        &mut self,
        d: usize,
        op: ArrayOp,
        arrays: &[ArrayRef],
    ) -> Option<Result<Value, String>> {
        for a in arrays {
            if let Err(e) = self.bring(a, d, None) {
                return Some(Err(e));
            }
        }
        let mut bufs = Vec::with_capacity(arrays.len());
        for a in arrays {
            let taken = a.meta().ok().and_then(|m| {
                let mut slot = a.data.device().try_borrow_mut().ok()?;
                Some((m.dims, multi(&mut slot)?.bufs[d].take()?))
            });
            match taken {
                Some(b) => bufs.push(b),
                None => {
                    self.give_back(d, arrays, bufs);
                    return Some(Err("internal error: no buffer on the chosen device".into()));
                }
            }
        }
        let t = Instant::now();
        let r = {
            let mut views: Vec<(Vec<usize>, &mut dyn DeviceBuffer)> = bufs
                .iter_mut()
                .map(|(dims, b)| (dims.clone(), &mut **b))
                .collect();
            self.devices[d].array_op(op, &mut views)
        };
        let took = t.elapsed();
        self.give_back(d, arrays, bufs);
        let (dims, elem, buf) = match r? {
            Ok(r) => r,
            Err(e) => return Some(Err(e)),
        };
        {
            let mut log = self.log.borrow_mut();
            log.devices[d].busy += took;
            *log.devices[d].kernels.entry(format!("{op:?}")).or_default() += 1;
        }
        let len = dims.iter().product();
        let out = ArrayRef::zeros(dims, elem);
        let mut mc = MultiCopy::new(self.devices.len(), elem, len, self.log.clone());
        mc.bufs[d] = Some(buf);
        mc.have[d] = Some((0, len));
        match self.devices[d].record() {
            Ok(ev) => mc.wrote(d, ev, (0, len), true),
            Err(e) => return Some(Err(e)),
        }
        *out.data.device().borrow_mut() = Some(Box::new(mc));
        out.data.set_residency(Residency::Device);
        Some(Ok(Value::Array(out)))
    }

    /// Returns the buffers a launch on device `d` took out of `arrays`' copies.
    fn give_back(
        &self,
        d: usize,
        arrays: &[ArrayRef],
        bufs: Vec<(Vec<usize>, Box<dyn DeviceBuffer>)>,
    ) {
        for (a, (_, b)) in arrays.iter().zip(bufs) {
            if let Some(mc) = multi(&mut a.data.device().borrow_mut()) {
                mc.bufs[d] = Some(b);
            }
        }
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
        let items = plan.data_dims[..plan.rank.clamp(1, 4) as usize]
            .iter()
            .fold(1u64, |n, &x| n.saturating_mul(x as u64));
        let work = items.saturating_mul(blazar_kir::cost::work_per_item(kernel));
        let d = self.place(arrays, work);
        for a in arrays {
            self.bring(a, d, None).map_err(bad)?;
        }
        let wrote = written(kernel, args, arrays.len());
        let spans: Vec<Option<Option<Span>>> = wrote.iter().map(|&w| w.then_some(None)).collect();
        self.settle_written(d, arrays, &spans)?;
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

    fn array_op(&mut self, op: ArrayOp, args: &[Value]) -> Option<Result<Value, String>> {
        if !self.devices[0].array_ops() {
            return None;
        }
        let arrays: Vec<ArrayRef> = args
            .iter()
            .map(|v| match v {
                Value::Array(a) => Some(a.clone()),
                _ => None,
            })
            .collect::<Option<_>>()?;
        if Self::unsupported(&arrays).is_some() {
            return None;
        }
        // Host operands that no device holds and that are small stay on the host (the
        // devices decide the same for the arrays they are handed).
        let placed = self.resident(&arrays).iter().any(|&b| b > 0);
        let large = arrays
            .iter()
            .all(|a| a.meta().is_ok_and(|m| m.len() >= ARRAY_OP_MIN));
        if !placed && !large {
            return None;
        }
        self.log.borrow_mut().start();
        let d = self.place(&arrays, u64::MAX);
        self.array_op_on(d, op, &arrays)
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

    fn compiled_ready(&mut self, kernel: &Rc<Kernel>, plan: &LaunchPlan) -> bool {
        // Serial launches the devices leave to the host executor (GPUs) are compiled
        // there, as on one GPU chained with the CPU.
        !self.devices[0].serial_launches() && self.host.compiled_ready(kernel, plan)
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
