//! `MultiCopy`: an array's copies on several devices, attached to its `Store` as the
//! one device copy the store knows of.
//!
//! The store's `Residency` keeps saying whether the host copy is current (`Host`,
//! `Both`) or not (`Device`, `Zero`); the `MultiCopy` says which devices hold the
//! current elements. The two are kept consistent by [`MultiBackend`](crate::MultiBackend):
//! under `Host` no device copy counts (a host write made them stale, whatever the mask
//! says), under `Device` and `Both` every device marked valid holds the current
//! elements, and under `Device` at least one does.

use crate::device::DeviceBuffer;
use crate::log::LogRef;
use blazar_value::{Buffer, DeviceCopy, ElemType};
use std::any::Any;

/// One optional buffer per device and which of them are current.
pub struct MultiCopy {
    pub(crate) bufs: Vec<Option<Box<dyn DeviceBuffer>>>,
    pub(crate) valid: Vec<bool>,
    pub(crate) elem: ElemType,
    pub(crate) len: usize,
    log: LogRef,
}

impl MultiCopy {
    pub fn new(devices: usize, elem: ElemType, len: usize, log: LogRef) -> MultiCopy {
        MultiCopy {
            bufs: (0..devices).map(|_| None).collect(),
            valid: vec![false; devices],
            elem,
            len,
            log,
        }
    }

    /// The devices whose copy is current (meaningful unless the store says `Host`).
    pub fn valid(&self) -> &[bool] {
        &self.valid
    }

    /// Bytes of the array's elements.
    pub fn size(&self) -> usize {
        self.len * self.elem.size_bytes()
    }

    /// Marks only `device` as holding the current elements (after it wrote them).
    pub(crate) fn only(&mut self, device: usize) {
        self.valid.iter_mut().for_each(|v| *v = false);
        self.valid[device] = true;
    }

    pub(crate) fn invalidate(&mut self) {
        self.valid.iter_mut().for_each(|v| *v = false);
    }
}

impl DeviceCopy for MultiCopy {
    fn download(&self, buf: &mut Buffer) -> Result<(), String> {
        let Some(d) = self.valid.iter().position(|&v| v) else {
            return Err("internal error: no device holds the array's elements".into());
        };
        let b = self.bufs[d]
            .as_ref()
            .ok_or("internal error: a device copy marked valid is missing")?;
        b.download(buf)?;
        if let Ok(mut log) = self.log.try_borrow_mut() {
            log.devices[d].to_host += self.size();
        }
        Ok(())
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }

    fn bytes(&self) -> usize {
        self.bufs.iter().flatten().map(|b| b.bytes()).sum()
    }
}
