//! Counts of copies between host and device memory, for `blazar run --profile`.
//!
//! Whoever moves an array's elements across (a host read of device data in
//! [`Store`](crate::Store), a backend's upload) calls [`record`]; the interpreter takes
//! the counts after each statement ([`take`]) and charges them to its line. Counting
//! costs one thread-local addition per copy, so it is always on.

use std::cell::Cell;

/// Copies and bytes moved in each direction.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Traffic {
    pub to_device: u64,
    pub to_device_bytes: u64,
    pub to_host: u64,
    pub to_host_bytes: u64,
}

impl Traffic {
    pub fn is_empty(&self) -> bool {
        self.to_device == 0 && self.to_host == 0
    }

    pub fn add(&mut self, o: Traffic) {
        self.to_device += o.to_device;
        self.to_device_bytes += o.to_device_bytes;
        self.to_host += o.to_host;
        self.to_host_bytes += o.to_host_bytes;
    }
}

/// Which way a copy went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    ToDevice,
    ToHost,
}

thread_local! {
    static COUNTS: Cell<Traffic> = const { Cell::new(Traffic { to_device: 0, to_device_bytes: 0, to_host: 0, to_host_bytes: 0 }) };
}

/// Counts one copy of `bytes` bytes.
pub fn record(dir: Direction, bytes: usize) {
    COUNTS.with(|c| {
        let mut t = c.get();
        match dir {
            Direction::ToDevice => {
                t.to_device += 1;
                t.to_device_bytes += bytes as u64;
            }
            Direction::ToHost => {
                t.to_host += 1;
                t.to_host_bytes += bytes as u64;
            }
        }
        c.set(t);
    });
}

/// The copies counted since the last call.
pub fn take() -> Traffic {
    COUNTS.with(|c| c.replace(Traffic::default()))
}
