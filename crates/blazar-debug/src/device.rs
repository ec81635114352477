//! The device `info kernel` computes occupancy for: the installed GPU when the front
//! end could query one (`blazar debug` asks `blazar_cuda::device_info`), else a
//! documented default model.
//!
//! The default model is an H100-class streaming multiprocessor: 2048 resident
//! threads, 32 resident blocks, 228 KiB of shared memory, 65536 registers and warps of
//! 32 threads (132 of them on the device). Per-thread register use is not counted:
//! the interpreter has no register allocation to report, so occupancy is bounded by
//! threads, blocks and shared memory.

/// The per-multiprocessor limits occupancy is computed from.
#[derive(Clone, Debug, PartialEq)]
pub struct DeviceModel {
    /// The GPU's name, or `None` for the default model.
    pub name: Option<String>,
    pub multiprocessors: usize,
    pub threads_per_sm: usize,
    pub blocks_per_sm: usize,
    pub shared_per_sm: usize,
    pub registers_per_sm: usize,
    pub warp: usize,
}

impl DeviceModel {
    /// The documented default (see the module documentation).
    pub fn default_model() -> DeviceModel {
        DeviceModel {
            name: None,
            multiprocessors: 132,
            threads_per_sm: 2048,
            blocks_per_sm: 32,
            shared_per_sm: 228 * 1024,
            registers_per_sm: 65536,
            warp: 32,
        }
    }

    /// One line: what the occupancy was computed on.
    pub fn describe(&self) -> String {
        let what = match &self.name {
            Some(n) => format!("the installed GPU, {n} ({} SMs)", self.multiprocessors),
            None => "the default device model".to_string(),
        };
        format!(
            "{what}: {} threads, {} blocks, {} KiB shared memory and {} registers per SM",
            self.threads_per_sm,
            self.blocks_per_sm,
            self.shared_per_sm / 1024,
            self.registers_per_sm
        )
    }
}

/// Resident blocks per SM for one block shape, and what bounds them.
#[derive(Clone, Debug, PartialEq)]
pub struct Occupancy {
    pub blocks: usize,
    pub warps_per_block: usize,
    /// Resident warps over the SM's maximum, in percent.
    pub percent: f64,
    pub limit: &'static str,
}

/// The occupancy of blocks of `threads` threads using `shared` bytes of shared memory.
pub fn occupancy(d: &DeviceModel, threads: usize, shared: usize) -> Occupancy {
    let warp = d.warp.max(1);
    let warps = threads.div_ceil(warp).max(1);
    let by_threads = d.threads_per_sm / (warps * warp);
    let by_shared = d
        .shared_per_sm
        .checked_div(shared)
        .unwrap_or(d.blocks_per_sm);
    let blocks = d.blocks_per_sm.min(by_threads).min(by_shared);
    let percent = 100.0 * (blocks * warps * warp) as f64 / d.threads_per_sm.max(1) as f64;
    let limit = if blocks == by_shared && shared > 0 {
        "shared memory"
    } else if blocks == by_threads {
        "threads per SM"
    } else {
        "blocks per SM"
    };
    Occupancy {
        blocks,
        warps_per_block: warps,
        percent,
        limit,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn occupancy_on_the_default_model() {
        let d = DeviceModel::default_model();
        let o = occupancy(&d, 256, 0);
        assert_eq!(
            (o.blocks, o.warps_per_block, o.limit),
            (8, 8, "threads per SM")
        );
        assert_eq!(o.percent, 100.0);
        // 64 KiB per block: three fit in 228 KiB.
        let o = occupancy(&d, 128, 64 * 1024);
        assert_eq!((o.blocks, o.limit), (3, "shared memory"));
        let o = occupancy(&d, 32, 0);
        assert_eq!((o.blocks, o.limit, o.percent), (32, "blocks per SM", 50.0));
    }

    #[test]
    fn a_queried_device_changes_the_answer() {
        let small = DeviceModel {
            name: Some("Tiny GPU".into()),
            multiprocessors: 2,
            threads_per_sm: 1024,
            blocks_per_sm: 16,
            shared_per_sm: 48 * 1024,
            registers_per_sm: 32768,
            warp: 32,
        };
        let o = occupancy(&small, 256, 0);
        assert_eq!(o.blocks, 4);
        assert_eq!(occupancy(&small, 128, 20 * 1024).blocks, 2);
        assert!(small
            .describe()
            .starts_with("the installed GPU, Tiny GPU (2 SMs)"));
        assert!(DeviceModel::default_model()
            .describe()
            .starts_with("the default device model: 2048 threads"));
    }
}
