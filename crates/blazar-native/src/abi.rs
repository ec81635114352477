//! The C ABI between the launcher and generated code: `#[repr(C)]` mirrors of the
//! prelude's `bz_garr`, `bz_call` and `bz_err`, and the entry points' types.

/// A global array: data, element count, rank and extents (`bz_garr`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub(crate) struct GArr {
    pub data: *mut u8,
    pub len: i64,
    pub rank: i64,
    pub dims: [i64; 8],
}

impl Default for GArr {
    fn default() -> Self {
        GArr {
            data: std::ptr::null_mut(),
            len: 0,
            rank: 0,
            dims: [0; 8],
        }
    }
}

/// One launch (`bz_call`): arrays by slot, the parameter block, the shared stop mark,
/// the kernel's index space and its work items.
#[repr(C)]
#[derive(Debug)]
pub(crate) struct Call {
    pub arrs: *const GArr,
    pub params: *const u8,
    pub stop: *const i64,
    pub kd: [i64; 4],
    pub kb: [i64; 4],
    pub total: i64,
    pub items: i64,
    pub chunk: i64,
    /// The process's interrupt flag (`blazar_runtime::interrupt::flag_ptr`), which
    /// compiled host functions poll.
    pub sig: *const std::sync::atomic::AtomicUsize,
    /// A word of the launch's own, null at its start, for state its ranges share: the
    /// private copies of global arrays that the last range to finish merges
    /// (`codegen-c/cpp/private.rs`).
    pub shared: std::sync::atomic::AtomicPtr<std::ffi::c_void>,
}

/// The first error of a range (`bz_err`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Err {
    pub code: i32,
    pub line: i32,
    pub item: i64,
    pub a: u64,
    pub b: i64,
    pub c: i64,
    /// Under fission: the linear position (row-major in the index space) of the
    /// failing thread.
    pub pos: i64,
}

/// Error codes of [`Err::code`].
pub(crate) use blazar_codegen_c::cpp::code;

/// `int bz_run(const bz_call*, i64 lo, i64 hi, u8* partials, bz_err* err)`.
pub(crate) type RunFn = unsafe extern "C" fn(*const Call, i64, i64, *mut u8, *mut Err) -> i32;

/// `void bz_finish(const u8* partials, i64 items, u8* out)`.
pub(crate) type FinishFn = unsafe extern "C" fn(*const u8, i64, *mut u8);
