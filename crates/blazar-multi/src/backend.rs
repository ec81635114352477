//! `MultiBackend`: one backend over several devices.
//!
//! Each launch is placed on one device ([`crate::place`]); every array it names is
//! brought up to date there first ([`MultiBackend::bring`]): nothing to do when that
//! device's copy is current, a peer copy from a device whose copy is, an upload when
//! only the host's is, a clear for fresh zeros. After the kernel, the arrays it wrote
//! are current on that device only (and no longer on the host); those it only read are
//! current there as well as wherever they were. Launches the devices cannot take (cell
//! arrays, two views of one array) run on the host executor, which reads and writes the
//! host copies and so makes every device copy stale through the store's residency.

use crate::copy::MultiCopy;
use crate::device::{CopyRoute, Device, DeviceBuffer};
use crate::log::{DeviceLog, LogRef};
use crate::place::Placer;
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
                for (d, &v) in mc.valid().iter().enumerate() {
                    if v {
                        r[d] += mc.size();
                    }
                }
            }
        }
        r
    }

    /// Makes device `d`'s copy of `a` current.
    fn bring(&mut self, a: &ArrayRef, d: usize) -> Result<(), String> {
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
        let mc = slot
            .as_mut()
            .and_then(|c| c.as_any_mut().downcast_mut::<MultiCopy>())
            .ok_or("internal error: no device copy")?;
        let size = mc.size();
        let res = store.residency();
        if res == Residency::Host || res == Residency::Zero {
            mc.invalidate();
        }
        if mc.valid[d] {
            return Ok(());
        }
        let mut buf = match mc.bufs[d].take() {
            Some(b) => b,
            None => self.devices[d].alloc(elem, len)?,
        };
        let mut log = self.log.borrow_mut();
        let from = mc.valid.iter().position(|&v| v);
        let r = match (res, from) {
            (Residency::Zero, _) => {
                log.devices[d].zeroed += 1;
                self.devices[d].zero(&mut *buf)
            }
            (Residency::Device | Residency::Both, Some(e)) => {
                let src = mc.bufs[e]
                    .as_deref()
                    .ok_or("internal error: a device copy marked valid is missing")?;
                self.devices[d].copy_from(&mut *buf, src, e).map(|route| {
                    let map = match route {
                        CopyRoute::Peer => &mut log.devices[d].from_peer,
                        CopyRoute::Staged => &mut log.devices[d].staged,
                    };
                    *map.entry(e).or_default() += size;
                })
            }
            (Residency::Device, None) => {
                Err("internal error: no device holds the array's elements".to_string())
            }
            (Residency::Host | Residency::Both, _) => {
                log.devices[d].from_host += size;
                blazar_value::traffic::record(blazar_value::traffic::Direction::ToDevice, size);
                self.devices[d].upload(&mut *buf, &host.buf)
            }
        };
        mc.bufs[d] = Some(buf);
        r?;
        mc.valid[d] = true;
        match res {
            Residency::Zero => store.set_residency(Residency::Device),
            Residency::Host => store.set_residency(Residency::Both),
            _ => {}
        }
        Ok(())
    }

    fn place(&mut self, arrays: &[ArrayRef]) -> usize {
        let busy: Vec<_> = self.log.borrow().devices.iter().map(|s| s.busy).collect();
        self.placer
            .choose(&self.resident(arrays), &busy, self.pinned)
    }

    /// Runs a launch on device `d`, whose copies of `arrays` are current; records it.
    fn run_on(
        &mut self,
        d: usize,
        kernel: &Rc<Kernel>,
        plan: &LaunchPlan,
        args: &[ArgVal],
        arrays: &[ArrayRef],
    ) -> Result<Vec<KValue>, KernelError> {
        // The buffers leave their copies for the launch (no store stays borrowed).
        let mut bufs: Vec<(Vec<usize>, Box<dyn DeviceBuffer>)> = Vec::with_capacity(arrays.len());
        for a in arrays {
            let dims = a.meta().map_err(|_| bad(IN_USE))?.dims;
            let mut slot = a.data.device().try_borrow_mut().map_err(|_| bad(IN_USE))?;
            let mc = slot
                .as_mut()
                .and_then(|c| c.as_any_mut().downcast_mut::<MultiCopy>())
                .ok_or_else(|| bad("internal error: no device copy"))?;
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
            self.devices[d].launch(kernel, plan, args, &mut views)
        };
        let took = t.elapsed();
        for (a, (_, b)) in arrays.iter().zip(bufs) {
            if let Some(mc) = a
                .data
                .device()
                .borrow_mut()
                .as_mut()
                .and_then(|c| c.as_any_mut().downcast_mut::<MultiCopy>())
            {
                mc.bufs[d] = Some(b);
            }
        }
        let mut log = self.log.borrow_mut();
        let stats = &mut log.devices[d];
        stats.busy += took;
        *stats.kernels.entry(kernel.name.clone()).or_default() += 1;
        r
    }

    /// Runs a launch as bands of rows over several devices when [`crate::split`]
    /// allows it: every device gets current copies of the arguments, runs the kernel's
    /// band variant over its rows, and the home device (the one placement picks)
    /// gathers the written bands. `None` (after noting why) when it does not split.
    fn try_split(
        &mut self,
        kernel: &Rc<Kernel>,
        plan: &LaunchPlan,
        args: &[ArgVal],
        arrays: &[ArrayRef],
    ) -> Result<Option<Vec<KValue>>, KernelError> {
        let n = self.devices.len();
        let items: usize = plan.data_dims[..plan.rank as usize].iter().product();
        if n < 2 || self.pinned.is_some() || items < self.split_min.max(2) {
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
        let params: Vec<Option<usize>> = args
            .iter()
            .map(|a| match a {
                ArgVal::Array(i) => Some(*i),
                ArgVal::Value(_) => None,
            })
            .collect();
        let mut dims = Vec::with_capacity(arrays.len());
        for a in arrays {
            dims.push(a.meta().map_err(|_| bad(IN_USE))?.dims);
        }
        let written = match crate::split::analyse(kernel, &dims, rows, &params) {
            Ok(w) => w,
            Err(why) => return whole(self, why),
        };
        let variant = self.variant(kernel);
        let home = self.place(arrays);
        let device = |p: usize| (home + p) % n;
        for p in 0..parts {
            for a in arrays {
                self.bring(a, device(p)).map_err(bad)?;
            }
        }
        let mut bands = Vec::with_capacity(parts);
        for p in 0..parts {
            let (b0, b1) = (p * blocks / parts, (p + 1) * blocks / parts);
            let (r0, r1) = (b0 * block, b1 * block);
            let mut band_plan = plan.clone();
            band_plan.data_dims[0] = r1 - r0;
            let mut band_args = args.to_vec();
            band_args.push(ArgVal::Value(KValue::Int(r0 as i64)));
            self.run_on(device(p), &variant, &band_plan, &band_args, arrays)?;
            bands.push((r0, r1));
        }
        // The home device gathers the other devices' bands of every written array.
        for &(i, row) in &written {
            let a = &arrays[i];
            let mut slot = a.data.device().try_borrow_mut().map_err(|_| bad(IN_USE))?;
            let mc = slot
                .as_mut()
                .and_then(|c| c.as_any_mut().downcast_mut::<MultiCopy>())
                .ok_or_else(|| bad("internal error: no device copy"))?;
            let mut dst = mc.bufs[home]
                .take()
                .ok_or_else(|| bad("internal error: no buffer on the home device"))?;
            let elem = mc.elem.size_bytes();
            let mut r = Ok(());
            for (p, &(r0, r1)) in bands.iter().enumerate().skip(1) {
                let from = device(p);
                let Some(src) = mc.bufs[from].as_deref() else {
                    r = Err("internal error: a band's buffer is missing".to_string());
                    break;
                };
                let (start, len) = (r0 * row, (r1 - r0) * row);
                match self.devices[home].copy_range_from(&mut *dst, src, from, start, len) {
                    Ok(route) => {
                        let mut log = self.log.borrow_mut();
                        let stats = &mut log.devices[home];
                        let map = match route {
                            CopyRoute::Peer => &mut stats.from_peer,
                            CopyRoute::Staged => &mut stats.staged,
                        };
                        *map.entry(from).or_default() += len * elem;
                    }
                    Err(e) => {
                        r = Err(e);
                        break;
                    }
                }
            }
            mc.bufs[home] = Some(dst);
            r.map_err(bad)?;
            mc.only(home);
            drop(slot);
            a.data.set_residency(Residency::Device);
        }
        *self
            .log
            .borrow_mut()
            .split
            .entry(kernel.name.clone())
            .or_default() += 1;
        Ok(Some(Vec::new()))
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
            self.bring(a, d).map_err(bad)?;
        }
        let r = self.run_on(d, kernel, plan, args, arrays);
        for (a, wrote) in arrays.iter().zip(written(kernel, args, arrays.len())) {
            if wrote {
                if let Some(mc) = a
                    .data
                    .device()
                    .borrow_mut()
                    .as_mut()
                    .and_then(|c| c.as_any_mut().downcast_mut::<MultiCopy>())
                {
                    mc.only(d);
                }
                a.data.set_residency(Residency::Device);
            }
        }
        r.map(Some)
    }

    fn keeps_arrays(&self) -> bool {
        true
    }

    fn alloc(&mut self, dims: Vec<usize>, elem: ElemType) -> Result<ArrayRef, String> {
        blazar_value::alloc::result(&dims, elem.size_bytes()).map_err(|e| e.message)?;
        // Made on the device that first uses it (cleared there, never uploaded).
        Ok(ArrayRef::zeros(dims, elem))
    }

    fn fuse_min(&self) -> usize {
        self.devices[0].fuse_min()
    }

    fn grid_stride_reductions(&self) -> bool {
        self.devices[0].grid_stride_reductions()
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
        for d in &mut self.devices {
            d.synchronize()?;
        }
        self.host.synchronize()
    }

    fn stats(&self) -> Option<String> {
        Some(self.log.borrow().summary())
    }
}
