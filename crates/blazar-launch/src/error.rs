//! Run-time errors of a kernel, as every backend reports them.

/// A run-time error of a kernel, located at a `.q` line, and at the column of the
/// element access that failed where the kernel knows it (`col`; 0: the line alone).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelError {
    pub line: u32,
    pub col: u32,
    pub kind: KernelErrorKind,
    pub message: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KernelErrorKind {
    AssertFailed,
    OutOfBounds,
    OutOfMemory,
    Divergence,
    /// An allocation with a negative extent.
    BadSize,
    /// The launch does not fit the kernel (plan, arguments, or an unsupported form).
    BadLaunch,
    /// A signal (Ctrl-C, SIGTERM) asked the run to stop.
    Interrupted,
}

impl KernelError {
    /// An error at `line` as error records carry it: a statement's line, or a failing
    /// access's line and column packed in one word ([`blazar_kir::Loc::record`]).
    pub fn new(line: u32, kind: KernelErrorKind, message: impl Into<String>) -> Self {
        let at = blazar_kir::Loc::from_record(line);
        KernelError {
            line: at.line,
            col: at.col,
            kind,
            message: message.into(),
        }
    }

    /// Whether the error is one thread's (a failed assertion, a `'checked` access
    /// outside an array): that thread stops and the others run on, and the launch
    /// reports the failing thread of lowest position. Other errors (memory, sizes,
    /// barriers, the launch itself) stop the work item that meets them.
    pub fn stops_one_thread(&self) -> bool {
        matches!(
            self.kind,
            KernelErrorKind::AssertFailed | KernelErrorKind::OutOfBounds
        )
    }

    /// An index out of range located at the access that failed (`at`, where the
    /// kernel's statement line alone would name the whole statement); other errors,
    /// and accesses without a known place, unchanged.
    pub fn at_access(mut self, at: blazar_kir::Loc) -> Self {
        if self.kind == KernelErrorKind::OutOfBounds && at.line > 0 {
            (self.line, self.col) = (at.line, at.col);
        }
        self
    }

    pub fn bad_launch(message: impl Into<String>) -> Self {
        KernelError::new(0, KernelErrorKind::BadLaunch, message)
    }
}

impl std::fmt::Display for KernelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.line > 0 {
            write!(f, "{} (line {})", self.message, self.line)
        } else {
            f.write_str(&self.message)
        }
    }
}

impl std::error::Error for KernelError {}
