//! The GPUs of this host, for `blazar info` and `--devices`: name, memory, and which
//! other GPUs each can reach peer to peer.

use cudarc::driver::result;
use cudarc::driver::sys;

/// One GPU as the driver reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GpuInfo {
    pub index: usize,
    pub name: String,
    /// Bytes of device memory.
    pub memory: usize,
    /// The other GPUs this one can read and write directly (`cuDeviceCanAccessPeer`).
    pub peers: Vec<usize>,
}

/// Every GPU of the host; the reason when CUDA cannot be used (no driver, no GPU).
pub fn list() -> Result<Vec<GpuInfo>, String> {
    // SAFETY: only tries to open the shared library.
    if !unsafe { sys::is_culib_present() } {
        return Err("the CUDA driver library (libcuda) was not found".into());
    }
    result::init().map_err(|e| format!("the CUDA driver did not start ({e})"))?;
    let n = result::device::get_count().map_err(|e| format!("cannot count GPUs ({e})"))?;
    let mut devs = Vec::new();
    for i in 0..n {
        devs.push(result::device::get(i).map_err(|e| format!("GPU {i}: {e}"))?);
    }
    let mut out = Vec::new();
    for (i, &dev) in devs.iter().enumerate() {
        let name = result::device::get_name(dev).unwrap_or_else(|_| "GPU".into());
        // SAFETY: `dev` came from `cuDeviceGet`.
        let memory = unsafe { result::device::total_mem(dev) }.unwrap_or(0);
        let mut peers = Vec::new();
        for (j, &other) in devs.iter().enumerate() {
            if i == j {
                continue;
            }
            let mut can = 0;
            // SAFETY: both handles came from `cuDeviceGet`; `can` is a valid out pointer.
            let r = unsafe { sys::cuDeviceCanAccessPeer(&mut can, dev, other) };
            if r == sys::CUresult::CUDA_SUCCESS && can != 0 {
                peers.push(j);
            }
        }
        out.push(GpuInfo {
            index: i,
            name,
            memory,
            peers,
        });
    }
    Ok(out)
}
