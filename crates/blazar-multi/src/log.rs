//! What each device did, for `--profile` under several devices: the kernels placed on
//! it, the copies into and out of its memory, and how long it was busy.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::fmt::Write;
use std::rc::Rc;
use std::time::{Duration, Instant};

/// The record of one device.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DeviceStats {
    pub name: String,
    /// Launches per kernel name.
    pub kernels: BTreeMap<String, usize>,
    /// Time spent running kernels.
    pub busy: Duration,
    /// Bytes uploaded from the host.
    pub from_host: usize,
    /// Bytes downloaded to the host.
    pub to_host: usize,
    /// Bytes copied in from each other device (by index), peer to peer.
    pub from_peer: BTreeMap<usize, usize>,
    /// Bytes copied in from each other device, staged through the host.
    pub staged: BTreeMap<usize, usize>,
    /// Buffers cleared on the device (fresh zeros).
    pub zeroed: usize,
    /// Waits queued on the device for events of other devices (a copy waiting for the
    /// launch that wrote its source, a write waiting for copies out of its buffer).
    pub waits: usize,
}

impl DeviceStats {
    pub fn launches(&self) -> usize {
        self.kernels.values().sum()
    }
}

/// The records of every device of a run, from its first launch.
#[derive(Debug, Default)]
pub struct DeviceLog {
    pub devices: Vec<DeviceStats>,
    /// Launches run on the host because no device could take them, with the reason.
    pub on_host: BTreeMap<String, usize>,
    /// Launches split into bands of rows over several devices, per kernel.
    pub split: BTreeMap<String, usize>,
    /// Launches that ran whole on one device although several were there, per kernel
    /// and reason.
    pub whole: BTreeMap<(String, String), usize>,
    /// Bands of split launches whose interior rows ran before the halo rows their edge
    /// rows read had arrived from other devices.
    pub overlapped: usize,
    started: Option<Instant>,
}

/// The log shared by the backend, the arrays' copies and whoever prints it.
pub type LogRef = Rc<RefCell<DeviceLog>>;

impl DeviceLog {
    pub fn new(names: Vec<String>) -> LogRef {
        Rc::new(RefCell::new(DeviceLog {
            devices: names
                .into_iter()
                .map(|name| DeviceStats {
                    name,
                    ..DeviceStats::default()
                })
                .collect(),
            on_host: BTreeMap::new(),
            split: BTreeMap::new(),
            whole: BTreeMap::new(),
            overlapped: 0,
            started: None,
        }))
    }

    pub(crate) fn start(&mut self) {
        self.started.get_or_insert_with(Instant::now);
    }

    /// The wall time since the first launch.
    pub fn span(&self) -> Duration {
        self.started.map_or(Duration::ZERO, |t| t.elapsed())
    }

    /// The table `--profile` prints: one row per device, then the copies between them.
    pub fn render(&self) -> String {
        let span = self.span();
        let mut s = String::new();
        let _ = writeln!(
            s,
            "devices ({}): {:.3} ms from the first launch",
            self.devices.len(),
            span.as_secs_f64() * 1e3
        );
        let _ = writeln!(
            s,
            "{:<8} {:>8} {:>10} {:>10} {:>12} {:>12} {:>12} {:>6}",
            "device",
            "kernels",
            "busy ms",
            "idle ms",
            "from host B",
            "to host B",
            "from peers B",
            "waits"
        );
        for d in &self.devices {
            let idle = span.saturating_sub(d.busy);
            let peers: usize = d.from_peer.values().chain(d.staged.values()).sum();
            let _ = writeln!(
                s,
                "{:<8} {:>8} {:>10.3} {:>10.3} {:>12} {:>12} {:>12} {:>6}",
                d.name,
                d.launches(),
                d.busy.as_secs_f64() * 1e3,
                idle.as_secs_f64() * 1e3,
                d.from_host,
                d.to_host,
                peers,
                d.waits
            );
        }
        for d in &self.devices {
            for (route, map) in [("peer", &d.from_peer), ("staged", &d.staged)] {
                for (from, bytes) in map {
                    let src = self.devices.get(*from).map_or("?", |x| x.name.as_str());
                    let _ = writeln!(s, "copy {src} -> {}: {bytes} B ({route})", d.name);
                }
            }
        }
        for d in &self.devices {
            for (k, n) in &d.kernels {
                let _ = writeln!(s, "kernel {k} on {}: {n}", d.name);
            }
        }
        for (k, n) in &self.split {
            let _ = writeln!(s, "kernel {k} split over the devices by rows: {n}");
        }
        if self.overlapped > 0 {
            let _ = writeln!(
                s,
                "bands whose interior ran while their halo rows were copied: {}",
                self.overlapped
            );
        }
        for ((k, why), n) in &self.whole {
            let _ = writeln!(s, "kernel {k} whole on one device ({why}): {n}");
        }
        for (why, n) in &self.on_host {
            let _ = writeln!(s, "on the host ({why}): {n}");
        }
        s
    }

    /// One line for `BLAZAR_STATS=1`.
    pub fn summary(&self) -> String {
        let parts: Vec<String> = self
            .devices
            .iter()
            .map(|d| {
                let peers: usize = d.from_peer.values().chain(d.staged.values()).sum();
                format!(
                    "{} {} launches, {} B from host, {} B from peers",
                    d.name,
                    d.launches(),
                    d.from_host,
                    peers
                )
            })
            .collect();
        format!("multi: {}", parts.join("; "))
    }
}
