//! KIR → C-family source, for every C-family backend: how KIR types, names, literals
//! and scalar operations are spelled in C (`names`, `spell`), and one module per
//! dialect: `cuda` (CUDA C++ for NVRTC, run by `blazar-cuda`) and `cpp` (host C++
//! for the native CPU tier, compiled and run by `blazar-native`). Pure: KIR in, text
//! out; the runtime crates compile, cache, load and launch.

pub mod cpp;
pub mod cuda;
pub mod names;
pub mod prelude;
mod printer;
pub mod spell;
