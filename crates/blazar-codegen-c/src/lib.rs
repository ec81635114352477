//! The C-family printer core shared by both generators: how KIR types, names, literals
//! and scalar operations are spelled in C (`names`, `spell`). `blazar-codegen-cuda`
//! prints CUDA C with it and `blazar-native` host C++; each prints its own memory
//! accesses, specials and launch frame around these spellings, over a prelude that
//! defines the same `bz_*` helpers with the same semantics. Pure: KIR in, text out.

pub mod names;
pub mod spell;
