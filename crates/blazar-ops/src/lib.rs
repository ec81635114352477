//! The element-wise operations of Quasar, declared once.
//!
//! Every layer that names, types, computes or spells an element-wise math function
//! reads [`MATH`]: the host evaluator (`blazar-runtime`), AIR (fusion of whole-array
//! expressions), KIR (its printer and verifier), kernel lowering (`blazar-passes`), the
//! SIMT interpreter (`blazar-cpu`) and the C spelling (`blazar-codegen-c`). Adding a
//! function is a variant of [`MathFn`] and a row of [`MATH`]; see `math.rs`.
//!
//! [`scalar`] holds the scalar semantics of the operators on each element type, which
//! every Rust evaluator calls (one implementation); [`int`] the integer `mod`;
//! [`promote`] and [`broadcast`] the typing and shape rules of element-wise operations
//! that the host evaluator and AIR share.

pub mod broadcast;
mod doc;
pub mod int;
mod math;
mod op;
pub mod promote;
pub mod scalar;

pub use doc::Doc;
pub use math::{Eval, Fuse, MathDef, MathFn, Promote, Sig, MATH};
pub use op::{BinOp, Binary, UnOp};
