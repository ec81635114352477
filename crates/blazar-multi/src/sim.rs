//! `SimDevice`: a simulated device for machines without GPUs. Its memory is host
//! buffers that only it holds ([`SimBuffer`]); kernels run on them through a CPU
//! backend handed in by the embedding program, over temporary arrays that own the
//! buffers for the duration of the launch. Nothing reaches its memory but an explicit
//! upload, clear or copy, so a copy the multi-device bookkeeping forgets is a wrong
//! answer, not a lucky read of shared memory.

use crate::device::{CopyRoute, Device, DeviceBuffer};
use blazar_kir::Kernel;
use blazar_launch::{ArgVal, Backend, KValue, KernelError, KernelErrorKind, LaunchPlan};
use blazar_value::{Array, ArrayRef, Buffer, ElemType};
use std::any::Any;
use std::rc::Rc;

/// A buffer of a simulated device.
pub struct SimBuffer {
    pub data: Buffer,
    /// The index of the device that owns it.
    pub owner: usize,
}

impl DeviceBuffer for SimBuffer {
    fn download(&self, buf: &mut Buffer) -> Result<(), String> {
        if buf.len() != self.data.len() || buf.elem() != self.data.elem() {
            return Err("internal error: a download into a buffer of another size".into());
        }
        buf.clone_from(&self.data);
        Ok(())
    }

    fn bytes(&self) -> usize {
        self.data.len() * self.data.elem().size_bytes()
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

/// A simulated device: index `index` of its set, running kernels on `exec`.
pub struct SimDevice {
    index: usize,
    exec: Box<dyn Backend>,
}

impl SimDevice {
    pub fn new(index: usize, exec: Box<dyn Backend>) -> SimDevice {
        SimDevice { index, exec }
    }

    fn mine<'a>(&self, b: &'a mut dyn DeviceBuffer) -> Result<&'a mut SimBuffer, String> {
        match b.as_any_mut().downcast_mut::<SimBuffer>() {
            Some(s) if s.owner == self.index => Ok(s),
            Some(s) => Err(format!(
                "internal error: sim{} was handed a buffer of sim{}",
                self.index, s.owner
            )),
            None => Err("internal error: a simulated device got another device's buffer".into()),
        }
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

impl Device for SimDevice {
    fn name(&self) -> String {
        format!("sim{}", self.index)
    }

    fn alloc(&mut self, elem: ElemType, len: usize) -> Result<Box<dyn DeviceBuffer>, String> {
        Ok(Box::new(SimBuffer {
            data: poisoned(elem, len),
            owner: self.index,
        }))
    }

    fn upload(&mut self, dst: &mut dyn DeviceBuffer, src: &Buffer) -> Result<(), String> {
        let dst = self.mine(dst)?;
        if dst.data.len() != src.len() || dst.data.elem() != src.elem() {
            return Err("internal error: an upload into a buffer of another size".into());
        }
        dst.data.clone_from(src);
        Ok(())
    }

    fn zero(&mut self, dst: &mut dyn DeviceBuffer) -> Result<(), String> {
        let dst = self.mine(dst)?;
        dst.data = Buffer::zeros(dst.data.elem(), dst.data.len());
        Ok(())
    }

    fn copy_from(
        &mut self,
        dst: &mut dyn DeviceBuffer,
        src: &dyn DeviceBuffer,
        from: usize,
    ) -> Result<CopyRoute, String> {
        let src = src
            .as_any()
            .downcast_ref::<SimBuffer>()
            .filter(|s| s.owner == from)
            .ok_or("internal error: a peer copy from a buffer of another device")?;
        let dst = self.mine(dst)?;
        if dst.data.len() != src.data.len() || dst.data.elem() != src.data.elem() {
            return Err("internal error: a peer copy between buffers of different sizes".into());
        }
        dst.data.clone_from(&src.data);
        Ok(CopyRoute::Peer)
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
            .ok_or("internal error: a peer copy from a buffer of another device")?;
        let dst = self.mine(dst)?;
        let end = start + len;
        if dst.data.len() != src.data.len() || end > src.data.len() {
            return Err("internal error: a band copy outside its buffers".into());
        }
        use blazar_value::Buffer as B;
        match (&mut dst.data, &src.data) {
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
            _ => {
                return Err("internal error: a band copy between buffers of different types".into())
            }
        }
        Ok(CopyRoute::Peer)
    }

    fn launch(
        &mut self,
        kernel: &Rc<Kernel>,
        plan: &LaunchPlan,
        args: &[ArgVal],
        arrays: &mut [(Vec<usize>, &mut dyn DeviceBuffer)],
    ) -> Result<Vec<KValue>, KernelError> {
        // The buffers move into temporary arrays for the launch and back after it.
        let mut refs = Vec::with_capacity(arrays.len());
        for (dims, b) in arrays.iter_mut() {
            let b = self.mine(&mut **b).map_err(bad)?;
            let elem = b.data.elem();
            let data = std::mem::replace(&mut b.data, Buffer::zeros(elem, 0));
            refs.push(ArrayRef::new(Array::new(dims.clone(), data)));
        }
        let r = self.exec.launch(kernel, plan, args, &refs);
        for ((_, b), a) in arrays.iter_mut().zip(&refs) {
            let b = self.mine(&mut **b).map_err(bad)?;
            let mut host = a.data.host_unsynced().borrow_mut();
            let elem = host.buf.elem();
            b.data = std::mem::replace(&mut host.buf, Buffer::zeros(elem, 0));
        }
        match r? {
            Some(outs) => Ok(outs),
            None => Err(bad(format!(
                "internal error: the executor of sim{} declined a launch",
                self.index
            ))),
        }
    }

    fn synchronize(&mut self) -> Result<(), KernelError> {
        self.exec.synchronize()
    }

    fn grid_stride_reductions(&self) -> bool {
        self.exec.grid_stride_reductions()
    }

    fn fuse_min(&self) -> usize {
        self.exec.fuse_min()
    }
}
