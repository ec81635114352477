//! Where an array's elements live: the host copy, an optional device copy, and which
//! of the two is current (lazy residency).
//!
//! Every [`ArrayRef`](crate::ArrayRef) of an array, and of every reshaped view of it,
//! shares one [`Store`]. The store's host `Array` carries the dims the elements were
//! made with; a view's own dims live in its `ArrayRef`, so host code reads and writes
//! through [`ArrayRef::borrow`](crate::ArrayRef::borrow) and
//! [`ArrayRef::borrow_mut`](crate::ArrayRef::borrow_mut), which call
//! [`Store::read_host`] and [`Store::write_host`]: those first bring the host copy up to
//! date when a device holds newer data (one download), and a host write marks the
//! device copy stale. A backend (the CUDA runtime) attaches its own copy as a
//! [`DeviceCopy`] and says, after a kernel writes it, that the device is newer. Arrays
//! that never meet a device pay one `Cell` read per borrow.
//!
//! A failed download (a device fault surfacing at synchronisation) cannot be returned
//! through a borrow: it is kept in a per-thread slot that the interpreter checks after
//! every statement ([`take_device_fault`]), so it is reported where it surfaced.

use crate::array::{Array, Buffer};
use std::any::Any;
use std::cell::{BorrowError, BorrowMutError, Cell, Ref, RefCell, RefMut};
use std::fmt;

/// A copy of an array's elements held by a backend (device memory).
pub trait DeviceCopy: Any {
    /// Copies the device elements into `buf`, which has the array's length and type.
    fn download(&self, buf: &mut Buffer) -> Result<(), String>;
    /// For the backend to recover its own type.
    fn as_any(&self) -> &dyn Any;
    fn as_any_mut(&mut self) -> &mut dyn Any;
    /// Bytes of device memory held.
    fn bytes(&self) -> usize;
}

/// Which copy of the elements is current.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Residency {
    /// Only the host copy is current (no device copy, or a stale one).
    Host,
    /// Both copies hold the same elements.
    Both,
    /// The device copy is newer: the host copy is stale until the next host access.
    Device,
    /// No copy holds the elements yet: they are all zero (a fresh `zeros`). The host
    /// buffer is made on the first host access; a backend fills its copy on the device
    /// (a memset, not a copy of zeros across the bus).
    Zero,
}

/// The shared storage of one array.
pub struct Store {
    host: RefCell<Array>,
    device: RefCell<Option<Box<dyn DeviceCopy>>>,
    state: Cell<Residency>,
}

thread_local! {
    static FAULT: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// The first device fault recorded since the last call, if any.
pub fn take_device_fault() -> Option<String> {
    FAULT.with(|f| f.borrow_mut().take())
}

fn record_fault(message: String) {
    FAULT.with(|f| {
        let mut f = f.borrow_mut();
        if f.is_none() {
            *f = Some(message);
        }
    });
}

impl Store {
    pub fn new(a: Array) -> Store {
        Store {
            host: RefCell::new(a),
            device: RefCell::new(None),
            state: Cell::new(Residency::Host),
        }
    }

    /// An array of zeros whose elements are made where they are first used: on the
    /// host at its first host access, or on a device by the backend.
    pub fn new_zeros(dims: Vec<usize>, elem: crate::array::ElemType) -> Store {
        Store {
            host: RefCell::new(Array::device_only(dims, elem)),
            device: RefCell::new(None),
            state: Cell::new(Residency::Zero),
        }
    }

    /// Brings the host copy up to date (one download when the device is newer).
    fn sync_host(&self) {
        match self.state.get() {
            Residency::Device => {}
            Residency::Zero => {
                if let Ok(mut host) = self.host.try_borrow_mut() {
                    let n = host.len();
                    if host.buf.len() != n {
                        host.buf = Buffer::zeros(host.buf.elem(), n);
                    }
                    self.state.set(Residency::Host);
                }
                return;
            }
            Residency::Host | Residency::Both => return,
        }
        let (Ok(dev), Ok(mut host)) = (self.device.try_borrow(), self.host.try_borrow_mut()) else {
            return;
        };
        let n = host.len();
        if host.buf.len() != n {
            // A device-only array gets its host buffer on its first host read.
            host.buf = Buffer::zeros(host.buf.elem(), n);
        }
        if let Some(d) = dev.as_ref() {
            crate::traffic::record(
                crate::traffic::Direction::ToHost,
                n * host.buf.elem().size_bytes(),
            );
            if let Err(e) = d.download(&mut host.buf) {
                record_fault(e);
            }
        }
        self.state.set(Residency::Both);
    }

    /// Reads the elements on the host; the `dims` are the storage's, which a view's
    /// are not (read through [`ArrayRef::borrow`](crate::ArrayRef::borrow)).
    pub fn read_host(&self) -> Ref<'_, Array> {
        self.sync_host();
        self.host.borrow()
    }

    pub fn try_read_host(&self) -> Result<Ref<'_, Array>, BorrowError> {
        self.sync_host();
        self.host.try_borrow()
    }

    /// The storage's shape and element type, without synchronising: for backends that
    /// size device copies, which must not pull device data back to the host. The
    /// elements behind it may be stale; a reference's shape is
    /// [`ArrayRef::meta`](crate::ArrayRef::meta).
    pub fn meta_host(&self) -> Result<Ref<'_, Array>, BorrowError> {
        self.host.try_borrow()
    }

    /// Writes the elements on the host: the device copy becomes stale. The `dims` are
    /// the storage's (write through [`ArrayRef::borrow_mut`](crate::ArrayRef::borrow_mut)).
    pub fn write_host(&self) -> RefMut<'_, Array> {
        self.sync_host();
        self.mark_host_written();
        self.host.borrow_mut()
    }

    pub fn try_write_host(&self) -> Result<RefMut<'_, Array>, BorrowMutError> {
        self.sync_host();
        let r = self.host.try_borrow_mut()?;
        self.mark_host_written();
        Ok(r)
    }

    fn mark_host_written(&self) {
        if self.state.get() == Residency::Both {
            self.state.set(Residency::Host);
        }
    }

    /// The host array without synchronising: its `dims` and element type are always
    /// current (the storage's, not a view's), its elements only when [`Store::residency`] is not `Device`. For
    /// backends that move the elements themselves.
    pub fn host_unsynced(&self) -> &RefCell<Array> {
        &self.host
    }

    /// The host copy, owned exclusively (for teardown).
    pub(crate) fn host_mut(&mut self) -> &mut Array {
        self.host.get_mut()
    }

    /// The backend's copy of the elements.
    pub fn device(&self) -> &RefCell<Option<Box<dyn DeviceCopy>>> {
        &self.device
    }

    /// The host copy's cell, without the residency bookkeeping (for teardown).
    pub(crate) fn host_cell(&self) -> &RefCell<Array> {
        &self.host
    }

    pub fn residency(&self) -> Residency {
        self.state.get()
    }

    /// Sets which copy is current; called by the backend that owns the device copy.
    pub fn set_residency(&self, r: Residency) {
        self.state.set(r);
    }
}

impl fmt::Debug for Store {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Store")
            .field("host", &self.host)
            .field("state", &self.state.get())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::array::ElemType;

    struct Fake(Vec<f32>, bool);

    impl DeviceCopy for Fake {
        fn download(&self, buf: &mut Buffer) -> Result<(), String> {
            if self.1 {
                return Err("device fault".into());
            }
            if let Buffer::F32(v) = buf {
                v.copy_from_slice(&self.0);
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
            self.0.len() * 4
        }
    }

    #[test]
    fn host_reads_download_newer_device_data_once() {
        let s = Store::new(Array::zeros(vec![3], ElemType::F32));
        *s.device().borrow_mut() = Some(Box::new(Fake(vec![1.0, 2.0, 3.0], false)));
        s.set_residency(Residency::Device);
        assert_eq!(s.read_host().get_f64(2), 3.0);
        assert_eq!(s.residency(), Residency::Both);
        s.write_host().buf.set_f64(0, 9.0);
        assert_eq!(s.residency(), Residency::Host);
        assert_eq!(s.read_host().get_f64(0), 9.0);
    }

    #[test]
    fn a_failed_download_is_recorded_not_panicked() {
        let s = Store::new(Array::zeros(vec![2], ElemType::F32));
        *s.device().borrow_mut() = Some(Box::new(Fake(vec![], true)));
        s.set_residency(Residency::Device);
        assert_eq!(s.read_host().get_f64(0), 0.0);
        assert_eq!(take_device_fault().as_deref(), Some("device fault"));
        assert_eq!(take_device_fault(), None);
    }

    #[test]
    fn zeros_are_made_on_their_first_host_access() {
        let s = Store::new_zeros(vec![2, 3], ElemType::F64);
        assert_eq!(s.residency(), Residency::Zero);
        assert_eq!(
            s.meta_host().unwrap().len(),
            6,
            "the shape is known at once"
        );
        assert_eq!(s.meta_host().unwrap().buf.len(), 0, "no host elements yet");
        assert_eq!(s.read_host().get_f64(5), 0.0);
        assert_eq!(s.residency(), Residency::Host);
        s.write_host().buf.set_f64(1, 4.0);
        assert_eq!(s.read_host().get_f64(1), 4.0);
    }
}
