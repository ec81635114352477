//! Unit tests of the CPU executor: kernels built by hand, checked by the KIR verifier.

mod basic;
mod build;
mod control;
mod data;
mod reports;
mod steps;
