//! What the installed GPU offers per streaming multiprocessor, read through the driver
//! (for the debugger's `info kernel` occupancy).
//!
//! [`device_info`] opens GPU 0 and reads its attributes; [`DeviceInfo::from_attributes`]
//! builds the answer from any attribute reader, so the arithmetic is tested without a
//! GPU.

use cudarc::driver::sys::CUdevice_attribute as A;

/// The attributes [`DeviceInfo`] is made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Attr {
    Multiprocessors,
    ThreadsPerSm,
    BlocksPerSm,
    SharedPerSm,
    RegistersPerSm,
    Warp,
}

/// One GPU's name and per-multiprocessor limits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceInfo {
    pub name: String,
    pub multiprocessors: usize,
    pub threads_per_sm: usize,
    pub blocks_per_sm: usize,
    /// Bytes of shared memory per multiprocessor.
    pub shared_per_sm: usize,
    /// 32-bit registers per multiprocessor.
    pub registers_per_sm: usize,
    pub warp: usize,
}

impl DeviceInfo {
    /// From an attribute reader; an attribute it cannot read (or reads as not
    /// positive) is a message naming it.
    pub fn from_attributes(
        name: String,
        read: impl Fn(Attr) -> Option<i64>,
    ) -> Result<DeviceInfo, String> {
        let get = |a: Attr| match read(a) {
            Some(v) if v > 0 => Ok(v as usize),
            _ => Err(format!("the driver did not report {a:?} of {name}")),
        };
        Ok(DeviceInfo {
            multiprocessors: get(Attr::Multiprocessors)?,
            threads_per_sm: get(Attr::ThreadsPerSm)?,
            blocks_per_sm: get(Attr::BlocksPerSm)?,
            shared_per_sm: get(Attr::SharedPerSm)?,
            registers_per_sm: get(Attr::RegistersPerSm)?,
            warp: get(Attr::Warp)?,
            name: name.clone(),
        })
    }
}

/// GPU 0 as the driver describes it; the reason when there is no driver or GPU.
pub fn device_info() -> Result<DeviceInfo, String> {
    // SAFETY: only tries to open the shared library (cudarc panics without it).
    if !unsafe { cudarc::driver::sys::is_culib_present() } {
        return Err("the CUDA driver library (libcuda) was not found".into());
    }
    let ctx = cudarc::driver::CudaContext::new(0).map_err(|e| format!("no usable GPU ({e})"))?;
    let name = ctx.name().unwrap_or_else(|_| "GPU 0".into());
    DeviceInfo::from_attributes(name, |a| {
        let attr = match a {
            Attr::Multiprocessors => A::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
            Attr::ThreadsPerSm => A::CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR,
            Attr::BlocksPerSm => A::CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR,
            Attr::SharedPerSm => A::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR,
            Attr::RegistersPerSm => A::CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR,
            Attr::Warp => A::CU_DEVICE_ATTRIBUTE_WARP_SIZE,
        };
        ctx.attribute(attr).ok().map(i64::from)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attributes_make_a_device() {
        let h100 = |a| {
            Some(match a {
                Attr::Multiprocessors => 132,
                Attr::ThreadsPerSm => 2048,
                Attr::BlocksPerSm => 32,
                Attr::SharedPerSm => 233472,
                Attr::RegistersPerSm => 65536,
                Attr::Warp => 32,
            })
        };
        let d = DeviceInfo::from_attributes("NVIDIA H100".into(), h100).unwrap();
        assert_eq!(
            (d.multiprocessors, d.shared_per_sm, d.warp),
            (132, 233472, 32)
        );
        let no_regs = |a| (a != Attr::RegistersPerSm).then_some(1);
        let e = DeviceInfo::from_attributes("G".into(), no_regs).unwrap_err();
        assert_eq!(e, "the driver did not report RegistersPerSm of G");
    }

    #[test]
    fn without_a_gpu_the_query_says_why() {
        // This machine may or may not have a GPU; either way the query answers.
        match device_info() {
            Ok(d) => assert!(d.multiprocessors > 0 && d.warp > 0, "{d:?}"),
            Err(e) => assert!(e.contains("libcuda") || e.contains("no usable GPU"), "{e}"),
        }
    }
}
