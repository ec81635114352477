//! Run-time errors of a kernel, as every backend reports them.

/// A run-time error of a kernel, located at a `.q` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelError {
    pub line: u32,
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
}

impl KernelError {
    pub fn new(line: u32, kind: KernelErrorKind, message: impl Into<String>) -> Self {
        KernelError {
            line,
            kind,
            message: message.into(),
        }
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
