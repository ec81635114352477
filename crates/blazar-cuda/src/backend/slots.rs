//! The device memory a launch gives back to the host (the error record and the kernel
//! outputs' accumulators) and its read-back: the path of `s = s + sum(x)` in a host
//! loop, one launch and one scalar read back per iteration.
//!
//! The memory is a ring of [`RING`] regions, each an error record (`REC` bytes) followed
//! by `MAX_OUTPUTS` 16-byte accumulators. A launch with outputs uses the current region,
//! whose accumulators hold zeros (the identity of a sum: nothing to set up); its
//! read-back moves to the next region, so no clearing is issued on the host's path after
//! each read; the whole ring is cleared with one asynchronous memset when it wraps.
//! (Outputs of other identities, `max` and the like, are set up by a copy.) A region's
//! error record is only written by a launch that is read back at once, and reset when
//! it held an error.
//!
//! The read-back is two driver calls: an asynchronous copy into page-locked host memory
//! that is not write-combined (the host reads it) and a wait for the stream. Kernels
//! generated with `CodegenOptions::mirror` need neither: their last block writes the
//! region and the launch's sequence number into mapped page-locked memory ([`Mirror`]),
//! and the host polls that memory (`BLAZAR_CUDA_MIRROR=0`: the copy and the wait).

use super::{MAX_OUTPUTS, REC};
use crate::memory::driver;
use crate::queue::Queue;
use cudarc::driver::PinnedHostSlice;
use cudarc::driver::{sys, CudaContext, CudaSlice, CudaStream, DevicePtr, DriverError};
use std::sync::Arc;

/// Bytes of one region: an error record and every output's accumulator.
pub(crate) const REGION: usize = REC + 16 * MAX_OUTPUTS;
/// Regions in the ring (64: 34 KB of device memory).
pub(crate) const RING: usize = 64;

pub(crate) struct Slots {
    /// `RING` regions.
    dev: CudaSlice<u8>,
    /// Its device address.
    base: u64,
    /// The region in use.
    at: usize,
    /// Whether the current region's accumulators hold zeros.
    zero: bool,
    /// Page-locked host memory of one region (kept alive for `host`).
    _pinned: PinnedHostSlice<u8>,
    host: *mut u8,
    /// Mapped memory for kernels that hand their outputs over themselves (`None` when
    /// the driver gave none).
    mirror: Option<Mirror>,
}

/// Page-locked host memory that kernels write through its device address: the launch's
/// sequence number in the first 32-bit word, the region's bytes from byte 16.
struct Mirror {
    _pinned: PinnedHostSlice<u8>,
    host: *mut u8,
    dev: u64,
    /// The last sequence number given to a launch.
    seq: u32,
    /// The launch whose read-back polls this memory, by its sequence number.
    expect: Option<u32>,
}

/// How long the host polls mapped memory before it waits for the stream as usual: a
/// long kernel then costs no busy core.
const POLL: std::time::Duration = std::time::Duration::from_millis(1);

impl Mirror {
    fn new(ctx: &Arc<CudaContext>) -> Result<Mirror, DriverError> {
        // SAFETY: plain bytes; the first word is zeroed below before any launch can see
        // the memory, and the rest are read only after a launch's sequence number.
        let mut pinned = unsafe {
            ctx.alloc_pinned_with_flags::<u8>(16 + REGION, sys::CU_MEMHOSTALLOC_DEVICEMAP)
        }?;
        let host = pinned.as_mut_ptr()?;
        let mut dev: sys::CUdeviceptr = 0;
        // SAFETY: `host` is mapped page-locked memory of this context (DEVICEMAP).
        unsafe {
            ctx.bind_to_thread()?;
            sys::cuMemHostGetDevicePointer_v2(&mut dev, host as *mut _, 0).result()?;
            std::ptr::write_bytes(host, 0, 16 + REGION);
        }
        Ok(Mirror {
            _pinned: pinned,
            host,
            dev: dev as u64,
            seq: 0,
            expect: None,
        })
    }

    /// The sequence number the GPU has published, read with acquire order: the words
    /// the last block wrote before it (a system-scope fence between) are read after it.
    fn published(&self) -> u32 {
        // SAFETY: the first word of live mapped memory, 4-byte aligned (page-locked
        // allocations are page aligned), written by the GPU while the host reads it.
        let word = unsafe { &*(self.host as *const std::sync::atomic::AtomicU32) };
        word.load(std::sync::atomic::Ordering::Acquire)
    }
}

impl Slots {
    pub fn new(ctx: &Arc<CudaContext>, stream: &Arc<CudaStream>) -> Result<Slots, String> {
        let dev = stream
            .alloc_zeros::<u8>(REGION * RING)
            .map_err(|e| driver("an allocation", e))?;
        let base = dev.device_ptr(stream).0;
        // Flags 0: cached page-locked memory. (`alloc_pinned` makes it write-combined,
        // which the host reads uncached.)
        // SAFETY: plain bytes, read only after a copy into them has completed.
        let mut pinned = unsafe { ctx.alloc_pinned_with_flags::<u8>(REGION, 0) }
            .map_err(|e| driver("a pinned host allocation", e))?;
        let host = pinned
            .as_mut_ptr()
            .map_err(|e| driver("a pinned host allocation", e))?;
        let mirror = if crate::module::mirror_on() {
            Mirror::new(ctx).ok()
        } else {
            None
        };
        Ok(Slots {
            dev,
            base,
            at: 0,
            zero: true,
            _pinned: pinned,
            host,
            mirror,
        })
    }

    /// Whether kernels may hand their outputs over through mapped memory.
    pub fn can_mirror(&self) -> bool {
        self.mirror.is_some()
    }

    /// The `bz_mirror` parameter of a launch whose `words` 32-bit words of the current
    /// region are read back through mapped memory: its read-back polls for it.
    pub fn mirror_param(&mut self, words: u32) -> Option<crate::params::ParamBytes> {
        let m = self.mirror.as_mut()?;
        m.seq = m.seq.wrapping_add(1).max(1);
        m.expect = Some(m.seq);
        let mut p = crate::params::ParamBytes::default();
        p.0[..8].copy_from_slice(&m.dev.to_le_bytes());
        p.0[8..12].copy_from_slice(&m.seq.to_le_bytes());
        p.0[12..16].copy_from_slice(&words.to_le_bytes());
        Some(p)
    }

    /// The device address of the current region's error record (its accumulators
    /// follow: `params::pack`).
    pub fn base(&self) -> u64 {
        self.base + (self.at * REGION) as u64
    }

    /// Sets up the accumulators of a launch with outputs: `init` holds their starting
    /// values (16 bytes each). Zeros already there are not written again.
    pub fn prepare(&mut self, stream: &Arc<CudaStream>, init: &[u8]) -> Result<(), DriverError> {
        let zero = init.iter().all(|&b| b == 0);
        if !(zero && self.zero) {
            let from = self.at * REGION + REC;
            let mut slots = self.dev.slice_mut(from..from + init.len());
            if zero {
                stream.memset_zeros(&mut slots)?;
            } else {
                stream.memcpy_htod(init, &mut slots)?;
            }
        }
        // The launch writes them.
        self.zero = false;
        Ok(())
    }

    /// Copies the current region's first `n` bytes to the host, waits for the stream
    /// (and so for the launches before), and returns them.
    pub fn read(&mut self, queue: &Queue, n: usize) -> Result<[u8; REGION], DriverError> {
        let stream = queue.stream();
        let n = n.min(REGION);
        if let Some(seq) = self
            .mirror
            .as_mut()
            .and_then(|m| mirrored(&mut m.expect, n))
        {
            if let Some(bytes) = self.read_mirrored(queue, seq, n)? {
                return Ok(bytes);
            }
        }
        // SAFETY: `host` is `REGION` bytes of page-locked memory owned by `self`, not
        // read until the stream has finished the copy (the synchronisation below); the
        // source is `n` bytes of `dev`, which lives as long as `self`. The stream is the
        // context's legacy stream, current on this thread (`bind_to_thread`).
        unsafe {
            stream.context().bind_to_thread()?;
            sys::cuMemcpyDtoHAsync_v2(
                self.host as *mut _,
                self.base() as sys::CUdeviceptr,
                n,
                stream.cu_stream(),
            )
            .result()?;
            queue.before_wait()?;
            sys::cuStreamSynchronize(stream.cu_stream()).result()?;
        }
        let mut bytes = [0u8; REGION];
        // SAFETY: the copy above has completed; `n` bytes at `host` are initialised.
        bytes[..n].copy_from_slice(unsafe { std::slice::from_raw_parts(self.host, n) });
        Ok(bytes)
    }

    /// A launch given a `bz_mirror` parameter was not issued: nothing to poll for.
    pub fn forget_mirror(&mut self) {
        if let Some(m) = self.mirror.as_mut() {
            m.expect = None;
        }
    }

    /// The region as the last block of launch `seq` wrote it into mapped memory: polled
    /// for [`POLL`], then after a wait for the stream (which reports a failed kernel).
    /// `None` when the stream finished without the launch's sequence number there (the
    /// caller copies the region as usual).
    fn read_mirrored(
        &mut self,
        queue: &Queue,
        seq: u32,
        n: usize,
    ) -> Result<Option<[u8; REGION]>, DriverError> {
        let Some(m) = self.mirror.as_ref() else {
            return Ok(None);
        };
        queue.before_wait()?;
        let stream = queue.stream();
        let seen = poll(
            || m.published(),
            seq,
            POLL,
            // SAFETY: the context's stream the launch was issued on, current on this
            // thread.
            || unsafe {
                stream.context().bind_to_thread()?;
                sys::cuStreamSynchronize(stream.cu_stream()).result()
            },
        )?;
        if !seen {
            return Ok(None);
        }
        let mut bytes = [0u8; REGION];
        // SAFETY: `16 + REGION` bytes of live mapped memory; the launch wrote its `n`
        // bytes before publishing `seq` (read above with acquire order). Read volatile:
        // the GPU writes this memory behind the compiler's back.
        for (i, b) in bytes[..n].iter_mut().enumerate() {
            *b = unsafe { std::ptr::read_volatile(m.host.add(16 + i)) };
        }
        Ok(Some(bytes))
    }

    /// Moves to the next region after the outputs of the current one were read; the
    /// whole ring is cleared (asynchronously, after the reads issued before) when it
    /// wraps.
    pub fn advance(&mut self, stream: &Arc<CudaStream>) -> Result<(), DriverError> {
        self.at += 1;
        self.zero = true;
        if self.at == RING {
            self.at = 0;
            let cleared = stream.memset_zeros(&mut self.dev);
            self.zero = cleared.is_ok();
            cleared?;
        }
        Ok(())
    }

    /// Resets the current region's error record after it reported an error.
    pub fn clear_record(&mut self, stream: &Arc<CudaStream>) -> Result<(), DriverError> {
        let from = self.at * REGION;
        stream.memset_zeros(&mut self.dev.slice_mut(from..from + REC))
    }
}

/// The sequence number to poll for when `n` bytes of the region are read back, taken
/// from `expect`: only a read-back of outputs (past the record) is answered by the
/// hand-over. A wait for the device with a launch still unread (`synchronize` while a
/// `start_only` launch is pending) waits for the stream, so that it also covers the
/// work issued after that launch, and leaves the number to the launch's own read-back.
fn mirrored(expect: &mut Option<u32>, n: usize) -> Option<u32> {
    if n > REC {
        expect.take()
    } else {
        None
    }
}

/// Polls `published` until it reads `seq`; after `limit` (checked every 64 reads) it
/// waits for the stream with `sync` (which reports a failed kernel as its error) and
/// looks once more. `false`: the stream finished without `seq` published (a kernel
/// whose last block did not hand the outputs over: the caller reads them the usual
/// way).
fn poll<E>(
    published: impl Fn() -> u32,
    seq: u32,
    limit: std::time::Duration,
    sync: impl FnOnce() -> Result<(), E>,
) -> Result<bool, E> {
    let start = std::time::Instant::now();
    let mut spins = 0u32;
    while published() != seq {
        spins = spins.wrapping_add(1);
        if spins.is_multiple_of(64) && start.elapsed() > limit {
            sync()?;
            return Ok(published() == seq);
        }
        std::hint::spin_loop();
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::{mirrored, poll, REC};
    use std::cell::Cell;
    use std::time::Duration;

    #[test]
    fn polling_sees_the_launch_number_without_a_wait() {
        // Published after 100 reads: no wait for the stream.
        let reads = Cell::new(0u32);
        let published = || {
            reads.set(reads.get() + 1);
            if reads.get() > 100 {
                7
            } else {
                6
            }
        };
        let r: Result<bool, ()> = poll(published, 7, Duration::from_secs(60), || {
            panic!("no wait for the stream")
        });
        assert_eq!(r, Ok(true));
        assert_eq!(reads.get(), 101);
    }

    #[test]
    fn polling_falls_back_to_the_stream_and_its_error() {
        // A stale number (the previous launch's) is never taken for this launch's.
        let waited = Cell::new(false);
        let r: Result<bool, &str> = poll(
            || 6,
            7,
            Duration::ZERO,
            || {
                waited.set(true);
                Ok(())
            },
        );
        assert_eq!(r, Ok(false), "finished without the number: copy as usual");
        assert!(waited.get());
        // The number published by the time the stream finished (a slow kernel).
        let done = Cell::new(false);
        let r: Result<bool, &str> = poll(
            || if done.get() { 7 } else { 6 },
            7,
            Duration::ZERO,
            || {
                done.set(true);
                Ok(())
            },
        );
        assert_eq!(r, Ok(true));
        // A kernel that failed (trapped): the stream's error, not a value.
        let r: Result<bool, &str> = poll(|| 6, 7, Duration::ZERO, || Err("illegal address"));
        assert_eq!(r, Err("illegal address"));
    }

    #[test]
    fn only_a_read_back_of_outputs_takes_the_launch_number() {
        let mut expect = Some(9);
        assert_eq!(mirrored(&mut expect, REC), None, "a plain wait");
        assert_eq!(expect, Some(9), "left for the launch's read-back");
        assert_eq!(mirrored(&mut expect, REC + 16), Some(9));
        assert_eq!(expect, None, "polled for once");
        assert_eq!(mirrored(&mut expect, REC + 16), None);
    }
}
