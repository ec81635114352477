//! `SimDevice`: a simulated device for machines without GPUs. Its memory is host
//! buffers that only it holds ([`SimBuffer`]); kernels run on them through a CPU
//! backend handed in by the embedding program, over temporary arrays that own the
//! buffers for the duration of the launch. Nothing reaches its memory but an explicit
//! upload, clear or copy, so a copy the multi-device bookkeeping forgets is a wrong
//! answer, not a lucky read of shared memory.
//!
//! Like a GPU, a simulated device has a queue ([`SimQueue`]): launches, uploads,
//! clears, copies and waits for other devices' events are operations executed in
//! order. By default each runs as soon as it is queued. A *lagging* device
//! (`--devices sim:N:lag`) runs its queue only when something needs it: a download
//! of one of its buffers, a launch's outputs, another device's wait for one of its
//! events, the end of the run. Every device then runs as late as the dependencies the
//! multi-device backend recorded allow, so a missing wait (a copy that does not wait for
//! the launch writing its source, a write that does not wait for a copy reading the old
//! elements) reads the wrong elements and shows as a wrong answer.

use crate::device::{event_of, own_buffer, CopyRoute, Device, DeviceBuffer, DeviceEvent, Event};
use blazar_kir::Kernel;
use blazar_launch::{ArgVal, Backend, KValue, KernelError, KernelErrorKind, LaunchPlan};
use blazar_value::{Array, ArrayRef, Buffer, ElemType};
use std::any::Any;
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::rc::Rc;
use std::time::{Duration, Instant};

type Op = Box<dyn FnOnce() -> Result<(), KernelError>>;
type Outputs = Rc<RefCell<Option<Result<Vec<KValue>, KernelError>>>>;

/// The operations queued on one simulated device, executed in order.
pub struct SimQueue {
    index: usize,
    lag: bool,
    ops: RefCell<VecDeque<Op>>,
    /// Operations queued so far, and executed so far.
    queued: Cell<u64>,
    done: Cell<u64>,
    /// Time spent running kernels.
    busy: Cell<Duration>,
    /// An error an operation raised, reported by the next wait for this queue.
    error: RefCell<Option<KernelError>>,
    exec: RefCell<Box<dyn Backend>>,
}

impl SimQueue {
    /// Queues `op`; runs it at once unless the device lags.
    fn push(&self, op: Op) -> Result<(), KernelError> {
        self.ops.borrow_mut().push_back(op);
        self.queued.set(self.queued.get() + 1);
        if self.lag {
            return Ok(());
        }
        self.run_to(self.queued.get())
    }

    /// Runs the queue up to its `n`-th operation (counted from 1 since the start).
    fn run_to(&self, n: u64) -> Result<(), KernelError> {
        while self.done.get() < n {
            let op = self.ops.borrow_mut().pop_front();
            let Some(op) = op else { break };
            let r = op();
            self.done.set(self.done.get() + 1);
            if let Err(e) = r {
                self.error.borrow_mut().get_or_insert(e);
            }
        }
        match self.error.borrow_mut().take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    fn drain(&self) -> Result<(), KernelError> {
        self.run_to(self.queued.get())
    }
}

/// A point in a simulated device's queue.
struct SimEvent {
    queue: Rc<SimQueue>,
    at: u64,
}

impl DeviceEvent for SimEvent {
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// A buffer of a simulated device.
pub struct SimBuffer {
    data: Rc<RefCell<Buffer>>,
    /// The index of the device that owns it.
    pub owner: usize,
    queue: Rc<SimQueue>,
}

impl SimBuffer {
    /// The elements, after the owning device has run everything queued so far.
    pub fn data(&self) -> Result<std::cell::Ref<'_, Buffer>, String> {
        self.queue.drain().map_err(|e| e.message)?;
        Ok(self.data.borrow())
    }
}

impl DeviceBuffer for SimBuffer {
    fn download(&self, buf: &mut Buffer) -> Result<(), String> {
        let data = self.data()?;
        if buf.len() != data.len() || buf.elem() != data.elem() {
            return Err("internal error: a download into a buffer of another size".into());
        }
        buf.clone_from(&data);
        Ok(())
    }

    fn download_range(&self, buf: &mut Buffer, start: usize, len: usize) -> Result<(), String> {
        let data = self.data()?;
        if buf.len() != data.len() {
            return Err("internal error: a download into a buffer of another size".into());
        }
        copy_range(buf, &data, start, start + len)
    }

    fn bytes(&self) -> usize {
        let d = self.data.borrow();
        d.len() * d.elem().size_bytes()
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

/// Elements `start..end` of `src` into the same elements of `dst`.
fn copy_range(dst: &mut Buffer, src: &Buffer, start: usize, end: usize) -> Result<(), String> {
    use blazar_value::Buffer as B;
    if dst.len() != src.len() || end > src.len() {
        return Err("internal error: a band copy outside its buffers".into());
    }
    match (dst, src) {
        (B::F32(d), B::F32(s)) => d[start..end].copy_from_slice(&s[start..end]),
        (B::F64(d), B::F64(s)) => d[start..end].copy_from_slice(&s[start..end]),
        (B::C32(d), B::C32(s)) => d[start..end].copy_from_slice(&s[start..end]),
        (B::C64(d), B::C64(s)) => d[start..end].copy_from_slice(&s[start..end]),
        (B::I8(d), B::I8(s)) => d[start..end].copy_from_slice(&s[start..end]),
        (B::I16(d), B::I16(s)) => d[start..end].copy_from_slice(&s[start..end]),
        (B::I32(d), B::I32(s)) => d[start..end].copy_from_slice(&s[start..end]),
        (B::I64(d), B::I64(s)) => d[start..end].copy_from_slice(&s[start..end]),
        (B::U8(d), B::U8(s)) => d[start..end].copy_from_slice(&s[start..end]),
        (B::U16(d), B::U16(s)) => d[start..end].copy_from_slice(&s[start..end]),
        (B::U32(d), B::U32(s)) => d[start..end].copy_from_slice(&s[start..end]),
        (B::U64(d), B::U64(s)) => d[start..end].copy_from_slice(&s[start..end]),
        _ => return Err("internal error: a band copy between buffers of different types".into()),
    }
    Ok(())
}

/// A simulated device: index `index` of its set, running kernels on an executor.
pub struct SimDevice {
    index: usize,
    queue: Rc<SimQueue>,
    /// The outputs of the launch `start` queued, and its place in the queue.
    started: Option<(Outputs, u64)>,
}

impl SimDevice {
    /// A device that runs each operation as soon as it is queued.
    pub fn new(index: usize, exec: Box<dyn Backend>) -> SimDevice {
        SimDevice::with_lag(index, exec, false)
    }

    /// A device that runs its queue only when something waits for it (`lag`).
    pub fn with_lag(index: usize, exec: Box<dyn Backend>, lag: bool) -> SimDevice {
        SimDevice {
            index,
            queue: Rc::new(SimQueue {
                index,
                lag,
                ops: RefCell::new(VecDeque::new()),
                queued: Cell::new(0),
                done: Cell::new(0),
                busy: Cell::new(Duration::ZERO),
                error: RefCell::new(None),
                exec: RefCell::new(exec),
            }),
            started: None,
        }
    }

    fn mine<'a>(&self, b: &'a mut dyn DeviceBuffer) -> Result<&'a mut SimBuffer, String> {
        own_buffer(b, self.index, |s: &SimBuffer| s.owner)
    }

    /// Queues a launch; its outputs land in the returned slot when it runs.
    fn enqueue(
        &mut self,
        kernel: &Rc<Kernel>,
        plan: &LaunchPlan,
        args: &[ArgVal],
        arrays: &mut [(Vec<usize>, &mut dyn DeviceBuffer)],
    ) -> Result<Outputs, KernelError> {
        let mut bufs = Vec::with_capacity(arrays.len());
        for (dims, b) in arrays.iter_mut() {
            let b = self.mine(&mut **b).map_err(bad)?;
            bufs.push((dims.clone(), b.data.clone()));
        }
        let slot: Outputs = Rc::new(RefCell::new(None));
        let (kernel, plan, args) = (kernel.clone(), plan.clone(), args.to_vec());
        let (queue, out) = (Rc::downgrade(&self.queue), slot.clone());
        self.queue.push(Box::new(move || {
            let queue = queue
                .upgrade()
                .ok_or_else(|| bad("a device was closed".into()))?;
            // The buffers move into temporary arrays for the launch and back after it.
            let refs: Vec<ArrayRef> = bufs
                .iter()
                .map(|(dims, b)| {
                    let mut b = b.borrow_mut();
                    let elem = b.elem();
                    let data = std::mem::replace(&mut *b, Buffer::zeros(elem, 0));
                    ArrayRef::new(Array::new(dims.clone(), data))
                })
                .collect();
            let t = Instant::now();
            let r = queue.exec.borrow_mut().launch(&kernel, &plan, &args, &refs);
            queue.busy.set(queue.busy.get() + t.elapsed());
            for ((_, b), a) in bufs.iter().zip(&refs) {
                let mut host = a.data.host_unsynced().borrow_mut();
                let elem = host.buf.elem();
                *b.borrow_mut() = std::mem::replace(&mut host.buf, Buffer::zeros(elem, 0));
            }
            let r = match r {
                Ok(Some(outs)) => Ok(outs),
                Ok(None) => Err(bad(format!(
                    "internal error: the executor of sim{} declined a launch",
                    queue.index
                ))),
                Err(e) => Err(e),
            };
            let failed = r.as_ref().err().cloned();
            *out.borrow_mut() = Some(r);
            failed.map_or(Ok(()), Err)
        }))?;
        Ok(slot)
    }
}

/// A fresh buffer full of a value no program computes by chance (NaN, or the most
/// negative integer): a read of elements that were never copied in shows in the output,
/// where recycled memory might hold the right values by luck.
pub fn poisoned(elem: ElemType, len: usize) -> Buffer {
    use blazar_value::Buffer as B;
    use num_complex::Complex;
    match Buffer::zeros(elem, 0) {
        B::F32(_) => B::F32(vec![f32::NAN; len]),
        B::F64(_) => B::F64(vec![f64::NAN; len]),
        B::C32(_) => B::C32(vec![Complex::new(f32::NAN, f32::NAN); len]),
        B::C64(_) => B::C64(vec![Complex::new(f64::NAN, f64::NAN); len]),
        B::I8(_) => B::I8(vec![i8::MIN; len]),
        B::I16(_) => B::I16(vec![i16::MIN; len]),
        B::I32(_) => B::I32(vec![i32::MIN; len]),
        B::I64(_) => B::I64(vec![i64::MIN; len]),
        B::U8(_) => B::U8(vec![0xA5; len]),
        B::U16(_) => B::U16(vec![0xA5A5; len]),
        B::U32(_) => B::U32(vec![0xA5A5_A5A5; len]),
        B::U64(_) => B::U64(vec![0xA5A5_A5A5_A5A5_A5A5; len]),
        b => b,
    }
}

fn bad(msg: String) -> KernelError {
    KernelError::new(0, KernelErrorKind::BadLaunch, msg)
}

fn msg(e: KernelError) -> String {
    e.message
}

impl Device for SimDevice {
    fn name(&self) -> String {
        format!("sim{}", self.index)
    }

    fn alloc(&mut self, elem: ElemType, len: usize) -> Result<Box<dyn DeviceBuffer>, String> {
        Ok(Box::new(SimBuffer {
            data: Rc::new(RefCell::new(poisoned(elem, len))),
            owner: self.index,
            queue: self.queue.clone(),
        }))
    }

    fn upload(&mut self, dst: &mut dyn DeviceBuffer, src: &Buffer) -> Result<(), String> {
        let dst = self.mine(dst)?.data.clone();
        if dst.borrow().len() != src.len() || dst.borrow().elem() != src.elem() {
            return Err("internal error: an upload into a buffer of another size".into());
        }
        // The host's elements as they are now (a GPU copies them out before returning).
        let src = src.clone();
        self.queue
            .push(Box::new(move || {
                *dst.borrow_mut() = src;
                Ok(())
            }))
            .map_err(msg)
    }

    fn zero(&mut self, dst: &mut dyn DeviceBuffer) -> Result<(), String> {
        let dst = self.mine(dst)?.data.clone();
        self.queue
            .push(Box::new(move || {
                let mut d = dst.borrow_mut();
                *d = Buffer::zeros(d.elem(), d.len());
                Ok(())
            }))
            .map_err(msg)
    }

    fn copy_range_from(
        &mut self,
        dst: &mut dyn DeviceBuffer,
        src: &dyn DeviceBuffer,
        from: usize,
        start: usize,
        len: usize,
    ) -> Result<CopyRoute, String> {
        let src = src
            .as_any()
            .downcast_ref::<SimBuffer>()
            .filter(|s| s.owner == from)
            .ok_or("internal error: a peer copy from a buffer of another device")?
            .data
            .clone();
        let dst = self.mine(dst)?.data.clone();
        // Reads the source as it is when the copy runs on this device's queue: whatever
        // its own device has run by then.
        self.queue
            .push(Box::new(move || {
                copy_range(&mut dst.borrow_mut(), &src.borrow(), start, start + len).map_err(bad)
            }))
            .map_err(msg)?;
        Ok(CopyRoute::Peer)
    }

    fn launch(
        &mut self,
        kernel: &Rc<Kernel>,
        plan: &LaunchPlan,
        args: &[ArgVal],
        arrays: &mut [(Vec<usize>, &mut dyn DeviceBuffer)],
    ) -> Result<Vec<KValue>, KernelError> {
        let slot = self.enqueue(kernel, plan, args, arrays)?;
        if kernel.outputs.is_empty() && slot.borrow().is_none() {
            // Queued on a lagging device: it runs when something needs it.
            return Ok(Vec::new());
        }
        self.queue.drain()?;
        let r = slot.borrow_mut().take();
        r.unwrap_or_else(|| Err(bad("internal error: a launch did not run".into())))
    }

    fn start(
        &mut self,
        kernel: &Rc<Kernel>,
        plan: &LaunchPlan,
        args: &[ArgVal],
        arrays: &mut [(Vec<usize>, &mut dyn DeviceBuffer)],
    ) -> Result<(), KernelError> {
        let slot = self.enqueue(kernel, plan, args, arrays);
        match slot {
            Ok(slot) => {
                self.started = Some((slot, self.queue.queued.get()));
                Ok(())
            }
            // An eager device ran it already: its error comes with `finish`.
            Err(e) => {
                self.started = Some((Rc::new(RefCell::new(Some(Err(e)))), 0));
                Ok(())
            }
        }
    }

    fn finish(&mut self) -> Result<Vec<KValue>, KernelError> {
        let (slot, at) = self
            .started
            .take()
            .ok_or_else(|| bad("internal error: no launch was started".into()))?;
        self.queue.run_to(at)?;
        let r = slot.borrow_mut().take();
        r.unwrap_or_else(|| Err(bad("internal error: a launch did not run".into())))
    }

    fn record(&mut self) -> Result<Event, String> {
        Ok(Rc::new(SimEvent {
            queue: self.queue.clone(),
            at: self.queue.queued.get(),
        }))
    }

    fn wait(&mut self, event: &Event) -> Result<(), String> {
        let e = event_of::<SimEvent>(event)?;
        let (queue, at) = (e.queue.clone(), e.at);
        self.queue
            .push(Box::new(move || queue.run_to(at)))
            .map_err(msg)
    }

    fn synchronize(&mut self) -> Result<(), KernelError> {
        self.queue.drain()?;
        self.queue.exec.borrow_mut().synchronize()
    }

    fn busy(&mut self) -> Option<Duration> {
        Some(self.queue.busy.get())
    }

    fn fuse_min(&self) -> usize {
        self.queue.exec.borrow().fuse_min()
    }
}
