//! Run-time errors of host code and the control-flow signals of statements.

use blazar_diagnostics::{Diagnostic, Span};

/// A run-time error with the location of the expression that failed.
#[derive(Debug)]
pub struct RunError {
    pub span: Span,
    pub message: String,
    pub notes: Vec<String>,
}

impl RunError {
    pub fn new(span: Span, message: impl Into<String>) -> Box<RunError> {
        Box::new(RunError {
            span,
            message: message.into(),
            notes: vec![],
        })
    }

    pub fn into_diagnostic(self: Box<Self>) -> Diagnostic {
        let mut d = Diagnostic::error(self.span, self.message);
        d.notes = self.notes;
        d
    }
}

pub type R<T> = Result<T, Box<RunError>>;

/// How a statement ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Normal,
    /// Leave the loop this many levels out (0 = the innermost).
    Break(u32),
    Continue(u32),
    Return,
}

/// Attaches a location to a runtime-crate error.
pub trait At<T> {
    fn at(self, span: Span) -> R<T>;
}

impl<T> At<T> for Result<T, blazar_runtime::RtError> {
    #[inline]
    fn at(self, span: Span) -> R<T> {
        self.map_err(|e| RunError::new(span, e.message))
    }
}
