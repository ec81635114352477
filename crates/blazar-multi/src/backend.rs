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
use std::rc::Rc;
use std::time::Instant;

/// A backend over `devices`, with `host` for the launches they cannot take.
pub struct MultiBackend {
    devices: Vec<Box<dyn Device>>,
    host: Box<dyn Backend>,
    placer: Placer,
    pinned: Option<usize>,
    log: LogRef,
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
        let busy: Vec<_> = self.log.borrow().devices.iter().map(|s| s.busy).collect();
        let d = self
            .placer
            .choose(&self.resident(arrays), &busy, self.pinned);
        for a in arrays {
            self.bring(a, d).map_err(bad)?;
        }
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
        let w = written(kernel, args, arrays.len());
        for ((a, (_, b)), wrote) in arrays.iter().zip(bufs).zip(w) {
            let mut slot = a.data.device().borrow_mut();
            if let Some(mc) = slot
                .as_mut()
                .and_then(|c| c.as_any_mut().downcast_mut::<MultiCopy>())
            {
                mc.bufs[d] = Some(b);
                if wrote {
                    mc.only(d);
                    a.data.set_residency(Residency::Device);
                }
            }
        }
        let mut log = self.log.borrow_mut();
        let stats = &mut log.devices[d];
        stats.busy += took;
        *stats.kernels.entry(kernel.name.clone()).or_default() += 1;
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
