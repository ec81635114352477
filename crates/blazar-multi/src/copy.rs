//! `MultiCopy`: an array's copies on several devices, attached to its `Store` as the
//! one device copy the store knows of.
//!
//! The store's `Residency` keeps saying whether the host copy is current (`Host`,
//! `Both`) or not (`Device`, `Zero`); the `MultiCopy` says which elements each device
//! holds current: the whole array, a band of it (after a launch split over the devices
//! wrote its rows there), or nothing. Under `Host` no device copy counts (a host write
//! made them stale, whatever the record says); under `Device` and `Both` the devices'
//! current elements are the array's, and under `Device` together they cover it. The two
//! are kept consistent by [`MultiBackend`](crate::MultiBackend).
//!
//! Per device it also keeps the [`Event`] that ends the last write into that device's
//! buffer (another device copying out of it waits for that event first) and the events
//! of copies other devices have queued out of it (the device waits for them before it
//! writes the buffer again, and so does the buffer's memory before it is reused).

use crate::device::{DeviceBuffer, Event};
use crate::log::LogRef;
use blazar_value::{Buffer, DeviceCopy, ElemType};
use std::any::Any;

/// A range of elements, `start..end`.
pub type Span = (usize, usize);

/// Writes remembered per device buffer; past this many they are merged into one.
const MAX_WRITES: usize = 8;

/// One optional buffer per device, which elements of each are current, and the events
/// that order work on them across devices.
pub struct MultiCopy {
    pub(crate) bufs: Vec<Option<Box<dyn DeviceBuffer>>>,
    /// Per device: the elements its buffer holds current.
    pub(crate) have: Vec<Option<Span>>,
    /// Per device: the events after the writes into its buffer since the last one that
    /// wrote all its current elements (a launch, an upload), with the elements each
    /// wrote (a launch's, then the halo rows copied in beside them).
    written: Vec<Vec<(Event, Span)>>,
    /// Per device: events of other devices whose queued copies read its buffer, with
    /// the elements each copy read.
    pub(crate) readers: Vec<Vec<(Event, Span)>>,
    pub(crate) elem: ElemType,
    pub(crate) len: usize,
    /// A kernel result not yet written (`Backend::alloc`): the kernel writes it whole,
    /// so a device's buffer for it needs no clearing.
    pub(crate) fresh: bool,
    log: LogRef,
}

impl MultiCopy {
    pub fn new(devices: usize, elem: ElemType, len: usize, log: LogRef) -> MultiCopy {
        MultiCopy {
            bufs: (0..devices).map(|_| None).collect(),
            have: vec![None; devices],
            written: vec![Vec::new(); devices],
            readers: vec![Vec::new(); devices],
            elem,
            len,
            fresh: false,
            log,
        }
    }

    /// Per device, whether its copy holds every current element (meaningful unless the
    /// store says `Host`).
    pub fn valid(&self) -> Vec<bool> {
        (0..self.have.len()).map(|d| self.whole(d)).collect()
    }

    /// Per device, the current elements it holds, if any.
    pub fn held(&self) -> &[Option<Span>] {
        &self.have
    }

    pub(crate) fn whole(&self, d: usize) -> bool {
        covers(self.have[d], (0, self.len))
    }

    /// Bytes of the array's elements.
    pub fn size(&self) -> usize {
        self.len * self.elem.size_bytes()
    }

    /// Bytes of current elements device `d` holds.
    pub(crate) fn held_bytes(&self, d: usize) -> usize {
        self.have[d].map_or(0, |(a, b)| (b - a) * self.elem.size_bytes())
    }

    /// Marks `span` of `device` as the only current elements on any device (after
    /// `device` wrote them; `span` is the whole array unless a split launch wrote one
    /// band of it, whose other bands other devices hold).
    pub(crate) fn only(&mut self, device: usize, span: Span) {
        self.have.iter_mut().for_each(|h| *h = None);
        self.have[device] = Some(span);
    }

    /// Device `d` queued a write of `span` of its buffer, ended by `ev`; `replace`: it
    /// wrote every element the buffer holds current (earlier writes are over by `ev`).
    pub(crate) fn wrote(&mut self, d: usize, ev: Event, span: Span, replace: bool) {
        let list = &mut self.written[d];
        if replace || list.len() >= MAX_WRITES {
            // Events of one device pass in the order queued: the last ends them all.
            let span = list.iter().fold(span, |acc, (_, s)| {
                if replace {
                    acc
                } else {
                    (acc.0.min(s.0), acc.1.max(s.1))
                }
            });
            list.clear();
            list.push((ev, span));
        } else {
            list.push((ev, span));
        }
    }

    /// The event a copy of `span` out of device `d`'s buffer waits for: the last write
    /// there that touched those elements.
    pub(crate) fn write_event(&self, d: usize, span: Span) -> Option<Event> {
        self.written[d]
            .iter()
            .rev()
            .find(|(_, s)| overlaps(*s, span))
            .map(|(e, _)| e.clone())
    }

    pub(crate) fn invalidate(&mut self) {
        self.have.iter_mut().for_each(|h| *h = None);
    }
}

/// Whether `have` contains every element of `need`.
pub(crate) fn covers(have: Option<Span>, need: Span) -> bool {
    need.0 >= need.1 || have.is_some_and(|(a, b)| a <= need.0 && need.1 <= b)
}

/// Whether `a` and `b` share an element.
pub(crate) fn overlaps(a: Span, b: Span) -> bool {
    a.0 < b.1 && b.0 < a.1 && a.0 < a.1 && b.0 < b.1
}

/// `a` and `b` as one span when they overlap or touch; `b` alone otherwise.
pub(crate) fn join(a: Option<Span>, b: Span) -> Span {
    match a {
        Some((s, e)) if s <= b.1 && b.0 <= e => (s.min(b.0), e.max(b.1)),
        _ => b,
    }
}

impl DeviceCopy for MultiCopy {
    fn download(&self, buf: &mut Buffer) -> Result<(), String> {
        let lost = || "internal error: no device holds the array's elements".to_string();
        let missing = || "internal error: a device copy marked current is missing".to_string();
        if let Some(d) = (0..self.have.len()).find(|&d| self.whole(d)) {
            self.bufs[d].as_ref().ok_or_else(missing)?.download(buf)?;
            if let Ok(mut log) = self.log.try_borrow_mut() {
                log.devices[d].to_host += self.size();
            }
            return Ok(());
        }
        // Bands on several devices: each downloads its part.
        let mut at = 0;
        while at < self.len {
            let (d, end) = (0..self.have.len())
                .filter_map(|d| match self.have[d] {
                    Some((s, e)) if s <= at && at < e => Some((d, e)),
                    _ => None,
                })
                .max_by_key(|&(_, e)| e)
                .ok_or_else(lost)?;
            let b = self.bufs[d].as_ref().ok_or_else(missing)?;
            b.download_range(buf, at, end - at)?;
            if let Ok(mut log) = self.log.try_borrow_mut() {
                log.devices[d].to_host += (end - at) * self.elem.size_bytes();
            }
            at = end;
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

impl Drop for MultiCopy {
    fn drop(&mut self) {
        for (b, readers) in self.bufs.iter_mut().zip(&self.readers) {
            if let Some(b) = b {
                if !readers.is_empty() {
                    let events: Vec<Event> = readers.iter().map(|(e, _)| e.clone()).collect();
                    b.retire(&events);
                }
            }
        }
    }
}
