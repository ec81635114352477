//! `blazar bench --suite stdlib`: calls of the bundled standard library
//! (`benches/stdlib/`: `imfilter` with a 9x9 Gaussian, `immedfilt` of radius 1,
//! `imresize` bilinear to half size) against SciPy's `scipy.ndimage` on the CPU and
//! CuPy's `cupyx.scipy.ndimage` on the GPU.
//!
//! The workloads follow the arrays suite's protocol (`prog.q` and `ref.py` per folder,
//! `% bench: size` lines, `rep:` and `checksum:` lines) and run through its runner;
//! only the peer differs. Without SciPy (or CuPy) the peer is skipped with a note.

use super::arrays::{run_suite, Peer, Sizes};
use super::{Outcome, Setup};
use crate::cli::Device;

pub(super) fn run(s: &Setup) -> Outcome {
    let cuda = s.args.device == Device::Cuda;
    let peer = if cuda {
        Peer {
            backend: "cupy",
            probe: "cupyx.scipy.ndimage",
            label: "cupyx",
        }
    } else {
        Peer {
            backend: "numpy",
            probe: "scipy.ndimage",
            label: "scipy",
        }
    };
    let sizes = Sizes::new(cuda, s.args.size);
    let what = format!("images {}x{}x{}", sizes.m, sizes.n, sizes.c);
    run_suite(s, "stdlib", &what, &peer)
}
