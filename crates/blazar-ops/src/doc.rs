//! [`Doc`]: the documentation of one function, written once where the function is
//! declared (a row of [`crate::MATH`], a builtin of `blazar-runtime`), and read by
//! `blazar help`, the REPL's `help`/`?`, the generated function reference in `docs/` and
//! the language server (through `blazar-help`).

/// The documentation of one function. Every field is plain text; `example` is Quasar
/// code (lines joined by `\n`) that the test suite runs, and `output` is exactly what it
/// prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Doc {
    /// The call forms, `·`-separated: `sort(x) · sort(x, dim)`.
    pub sig: &'static str,
    /// One paragraph: what it computes, for which arguments, what it returns.
    pub text: &'static str,
    /// A program that shows it (run by the test suite).
    pub example: &'static str,
    /// What `example` prints.
    pub output: &'static str,
}

impl Doc {
    /// No documentation yet (a test fails on a builtin that keeps it).
    pub const NONE: Doc = Doc {
        sig: "",
        text: "",
        example: "",
        output: "",
    };

    pub const fn new(
        sig: &'static str,
        text: &'static str,
        example: &'static str,
        output: &'static str,
    ) -> Doc {
        Doc {
            sig,
            text,
            example,
            output,
        }
    }

    pub const fn is_none(&self) -> bool {
        self.sig.is_empty()
    }
}
