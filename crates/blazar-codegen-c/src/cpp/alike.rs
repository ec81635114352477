//! A test that every thread of a block satisfies a condition, as loop fission asks it
//! before choosing a form of an interleaved loop (`interleave`: are every running
//! thread's bounds alike, do the threads start at consecutive values?).
//!
//! The threads are tested in groups of [`GROUP`]: within a group the condition's
//! negation is or-ed into one word, a loop without a branch that the C++ compiler
//! turns into vector compares; the test stops after the first group with a thread
//! that fails. A histogram's block of 256 threads walking image columns (`for c =
//! t..nt..w-1`) asks both questions once per image row of the block: the first fails
//! at thread 1, so it now costs one group, and the second holds, so it costs four
//! vector loops instead of 256 branches (together half the time that fission spent
//! around the counting loop of `benches/cpu/histogram`).

use super::Gen;
use crate::printer::Dialect;

/// Threads tested together.
pub const GROUP: usize = 64;

impl Gen<'_> {
    /// Emits code that leaves `flag` (a `bool` declared and set before) false unless
    /// `bad` (a C condition on `bz_tid`, without side effects) is false for every
    /// thread `0 <= bz_tid < bz_nt`.
    pub(crate) fn all_threads(&mut self, flag: &str, bad: &str) {
        self.line_out(&format!(
            "for (i64 bz_g = 0; {flag} && bz_g < bz_nt; bz_g += {GROUP}) {{"
        ));
        self.o.depth += 1;
        self.line_out(&format!(
            "const i64 bz_ge = bz_g + {GROUP} < bz_nt ? bz_g + {GROUP} : bz_nt;"
        ));
        self.line_out("u32 bz_bad = 0;");
        self.line_out(&format!(
            "for (i64 bz_tid = bz_g; bz_tid < bz_ge; bz_tid++) bz_bad |= (u32)({bad});"
        ));
        self.line_out(&format!("{flag} = bz_bad == 0;"));
        self.o.depth -= 1;
        self.line_out("}");
    }
}
