//! Run-time errors of host code and the control-flow signals of statements.

use blazar_diagnostics::{Diagnostic, Span};

/// A run-time error with the location of the expression that failed.
#[derive(Debug)]
pub struct RunError {
    pub span: Span,
    pub message: String,
    pub notes: Vec<String>,
    /// Located notes: the calls that led here (innermost first, at most
    /// [`MAX_FRAMES`]), or the launch of the kernel that failed.
    pub related: Vec<(Span, String)>,
    /// Calls left out of `related` beyond [`MAX_FRAMES`].
    pub hidden_frames: usize,
}

/// The most call-stack frames an error shows (deep recursion shows the innermost).
pub const MAX_FRAMES: usize = 12;

impl RunError {
    pub fn new(span: Span, message: impl Into<String>) -> Box<RunError> {
        Box::new(RunError {
            span,
            message: message.into(),
            notes: vec![],
            related: vec![],
            hidden_frames: 0,
        })
    }

    /// Records one more call on the way out of a failing call: `what` at `span`.
    pub fn add_frame(&mut self, span: Span, what: String) {
        if self.related.len() < MAX_FRAMES {
            self.related.push((span, what));
        } else {
            self.hidden_frames += 1;
        }
    }

    pub fn into_diagnostic(self: Box<Self>) -> Diagnostic {
        let mut d = Diagnostic::error(self.span, self.message);
        d.notes = self.notes;
        for (span, message) in self.related {
            d = d.with_related(span, message);
        }
        if self.hidden_frames > 0 {
            d.notes.push(format!(
                "{} more calls are not shown (the outermost)",
                self.hidden_frames
            ));
        }
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
