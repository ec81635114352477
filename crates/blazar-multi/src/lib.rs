//! Several devices behind one [`Backend`](blazar_launch::Backend): the device-generic
//! part of running a program on more than one GPU of a host (issue 30).
//!
//! A [`Device`] holds buffers of its own memory and runs specialised kernels on them.
//! [`MultiBackend`] is a backend over a list of devices: it attaches a
//! [`MultiCopy`] to every array a kernel touches (one optional buffer per device and
//! which of them hold the current elements; whether the host copy is current stays the
//! `Store`'s `Residency`), places each launch by data locality and load
//! ([`place`]), brings the arguments' current elements to the chosen device (a peer
//! copy from another device, an upload from the host, or a memset for fresh zeros),
//! runs the kernel there, and marks what it wrote valid on that device only. A host
//! read downloads from a device that holds the current elements.
//!
//! Devices queue their work (a CUDA stream each): nothing in the backend waits for a
//! device, and work on two devices is ordered by events ([`Event`]) recorded where an
//! array's write ends and waited for where another device copies it.
//!
//! [`SimDevice`] is a device whose memory is plain host buffers private to it, running
//! kernels through a CPU backend: `blazar run --devices sim:N` runs a program on N of
//! them, so a copy the bookkeeping forgets shows up as a wrong answer on a machine
//! without GPUs; `sim:N:lag` runs each device's queue only when something waits for
//! it, so a wait the bookkeeping forgets shows up too. [`DeviceLog`] records per device the kernels, the copies and the busy
//! time for `--profile`.
//!
//! `docs/internals/multi-device.md` describes the design.

mod backend;
pub mod combine;
mod copy;
mod device;
mod log;
pub mod place;
mod sim;
mod spec;
pub mod split;
pub mod variant;

pub use backend::MultiBackend;
pub use copy::{MultiCopy, Span};
pub use device::{
    event_of, own_buffer, CopyRoute, Device, DeviceBuffer, DeviceEvent, Event, OpResult,
};
pub use log::{DeviceLog, DeviceStats, LogRef};
pub use sim::{SimBuffer, SimDevice};
pub use spec::DeviceSpec;

#[cfg(test)]
mod tests;
