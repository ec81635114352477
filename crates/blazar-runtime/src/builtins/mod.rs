//! The table of builtin functions that need no interpreter: numerics, array
//! construction, reductions, FFTs, image and file I/O, timing and formatting.
//!
//! Each submodule contributes a `TABLE` of [`Builtin`]s; [`lookup`] finds one by name.
//! Builtins that need the interpreter (`print`, `type`, `error`, `assert`,
//! `parallel_do`, ...) live in the interpreter instead.

pub use construct::dims_from_args;

mod arrange;
#[cfg(test)]
mod arrange_tests;
pub mod construct;
mod csv;
mod exist;
mod fft;
pub mod figure;
mod form;
mod formats;
mod image;
mod io;
mod linalg;
mod math;
mod random;
mod reduce;
mod signal;
mod sort;
mod stats;
pub mod strings;
#[cfg(test)]
mod testing;
pub mod time;
pub mod video;

use crate::{Prec, RtResult, Value};
pub use blazar_ops::Doc;
use blazar_ops::{MathFn, Promote};
use rand::rngs::SmallRng;
use rand::SeedableRng;
use std::io::Write;
use std::path::PathBuf;
use std::sync::OnceLock;

/// What a builtin may use besides its arguments.
pub struct Ctx {
    pub prec: Prec,
    pub rng: SmallRng,
    /// Start times pushed by `tic` and popped by `toc`.
    pub timers: Vec<time::Mark>,
    /// Device-side timing when kernels run on a device.
    pub device_timer: Option<Box<dyn time::DeviceTimer>>,
    /// Program output (stdout in the command-line tool, a buffer in tests).
    pub out: Box<dyn Write>,
    /// Directory of the running program: relative file names resolve against it.
    pub base_dir: PathBuf,
    /// File stem of the running program, used to name figure files.
    pub program_stem: String,
    /// The figures shown so far (`imshow`, `plot`), written when the run ends.
    pub figures: figure::Figures,
    /// Open videos and the newest `hdr_imshow` frame, finished when the run ends.
    pub video: video::Videos,
    /// The forms of the run (`form`) and what shows them.
    pub ui: crate::ui::UiState,
}

impl Ctx {
    pub fn new(prec: Prec, out: Box<dyn Write>, base_dir: PathBuf, program_stem: String) -> Ctx {
        Ctx {
            prec,
            rng: SmallRng::seed_from_u64(0x5eed),
            timers: Vec::new(),
            device_timer: None,
            out,
            base_dir,
            program_stem,
            figures: figure::Figures::default(),
            video: video::Videos::default(),
            ui: crate::ui::UiState::default(),
        }
    }
}

pub type BuiltinFn = fn(&mut Ctx, &[Value]) -> RtResult<Value>;

/// How a builtin computes.
pub enum Func {
    Native(BuiltinFn),
    /// A math function of reals computed from its row of `blazar_ops::MATH`
    /// (`Promote::Real`).
    Math(MathFn),
}

/// One builtin function with the number of arguments it accepts.
pub struct Builtin {
    pub name: &'static str,
    pub func: Func,
    pub min_args: usize,
    /// `usize::MAX` for variadic builtins.
    pub max_args: usize,
    /// Its documentation (`help name`), attached with [`Builtin::doc`]; a builtin
    /// computed from a row of `blazar_ops::MATH` carries that row's.
    pub doc: Doc,
}

impl Builtin {
    /// This builtin with its documentation: the call forms, one paragraph, an example
    /// program and exactly what it prints (the test suite runs it).
    pub const fn doc(
        self,
        sig: &'static str,
        text: &'static str,
        example: &'static str,
        output: &'static str,
    ) -> Builtin {
        Builtin {
            doc: Doc::new(sig, text, example, output),
            ..self
        }
    }

    /// Calls it on arguments of a count it accepts.
    pub fn call(&self, ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
        match &self.func {
            Func::Native(f) => f(ctx, args),
            Func::Math(f) => math::by_row(*f, ctx, args),
        }
    }
}

/// The builtins by family (one module each), as the function reference groups them.
/// The math functions of reals computed from `blazar_ops::MATH` rows follow, in the
/// family `"math"`.
const FAMILIES: &[(&str, &[Builtin])] = &[
    ("math", math::TABLE),
    ("math", math::binary::TABLE),
    ("math", math::convert::TABLE),
    ("construct", construct::TABLE),
    ("shape", construct::shape::TABLE),
    ("reduce", reduce::TABLE),
    ("stats", stats::TABLE),
    ("sort", sort::TABLE),
    ("arrange", arrange::TABLE),
    ("linalg", linalg::TABLE),
    ("files", csv::TABLE),
    ("strings", strings::TABLE),
    ("fft", fft::TABLE),
    ("signal", signal::convolve::TABLE),
    ("signal", signal::filters::TABLE),
    ("signal", signal::interp::TABLE),
    ("signal", signal::hist::TABLE),
    ("image", image::TABLE),
    ("figure", figure::TABLE),
    ("figure", form::TABLE),
    ("figure", figure::display::TABLE),
    ("files", formats::TABLE),
    ("files", io::TABLE),
    ("files", exist::TABLE),
    ("random", random::TABLE),
    ("time", time::TABLE),
    ("video", video::TABLE),
    ("video", video::HDR_TABLE),
];

/// The family of builtin `name` (`"reduce"` for `sum`): the module of the function
/// reference that documents it.
pub fn family(name: &str) -> Option<&'static str> {
    FAMILIES
        .iter()
        .find(|(_, t)| t.iter().any(|b| b.name == name))
        .map(|(f, _)| *f)
        .or_else(|| {
            blazar_ops::MATH
                .iter()
                .any(|d| d.name == name)
                .then_some("math")
        })
}

fn table() -> &'static [&'static Builtin] {
    static ALL: OnceLock<Vec<&'static Builtin>> = OnceLock::new();
    ALL.get_or_init(|| {
        let parts = FAMILIES.iter().map(|(_, t)| *t);
        let rows = blazar_ops::MATH
            .iter()
            .filter(|d| d.promote == Promote::Real);
        let rows = rows.map(|d| -> &'static Builtin {
            Box::leak(Box::new(Builtin {
                name: d.name,
                func: Func::Math(d.f),
                min_args: d.arity,
                max_args: d.arity,
                doc: d.doc,
            }))
        });
        parts.flat_map(|t| t.iter()).chain(rows).collect()
    })
}

/// A builtin with several outputs (`[s, idx] = sort(x)`): called with the number of
/// outputs asked for, it returns at least that many values. A builtin whose most is 1
/// is one that behaves differently as a statement of its own (0 outputs: `toc`). The one-output call goes
/// through the builtin of the same name in the ordinary table.
pub type MultiFn = fn(&mut Ctx, &[Value], usize) -> RtResult<Vec<Value>>;

/// The builtins with several outputs and the most outputs each gives.
const MULTI: &[(&str, MultiFn, usize)] = &[
    ("sort", sort::sort_all, 2),
    ("find", stats::find_all, 4),
    ("unique", sort::unique_all, 3),
    ("meshgrid", arrange::meshgrid_all, 2),
    ("svd", linalg::svd_all, 3),
    ("symeig", linalg::symeig_all, 2),
    ("eig", linalg::eig_all, 2),
    ("toc", time::toc_all, 1),
];

/// The several-output form of builtin `name` and its most outputs, if it has one.
pub fn multi(name: &str) -> Option<(MultiFn, usize)> {
    MULTI
        .iter()
        .find(|(n, _, _)| *n == name)
        .map(|&(_, f, k)| (f, k))
}

/// Builtins called for what they do, not for a value: as a statement of their own they
/// give none worth showing (0, or a figure's handle), so the interactive session prints
/// nothing for them, as MATLAB prints nothing for `tic`, `plot(y)` or `disp(x)`.
const PROCEDURES: &[&str] = &[
    "tic",
    "toc",
    "plot",
    "imshow",
    "figure",
    "title",
    "xlabel",
    "ylabel",
    "legend",
    "hold",
    "pause",
    "connect",
    "printf",
    "fprintf",
    "disp",
    "printfull",
    "warning",
    "save",
    "imwrite",
    "csvwrite",
    "exrwrite",
    "vidwriteframe",
    "vidclose",
    "vidseek",
    "sync_framerate",
    "hdr_imshow",
];

/// Whether builtin `id` is called for what it does ([`PROCEDURES`]).
pub fn is_procedure(id: u32) -> bool {
    PROCEDURES.contains(&get(id).name)
}

/// The id of a builtin by name.
pub fn lookup(name: &str) -> Option<u32> {
    table()
        .iter()
        .position(|b| b.name == name)
        .map(|i| i as u32)
}

pub fn get(id: u32) -> &'static Builtin {
    table()[id as usize]
}

/// Every builtin, for listings and tests.
pub fn all() -> &'static [&'static Builtin] {
    table()
}
