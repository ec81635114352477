//! `blazar bench --suite arrays` (and `--suite stdlib`) at a tiny size: every `prog.q` of `benches/arrays` runs,
//! and, where NumPy is installed, every checksum agrees with its `ref.py` (the bench
//! exits non-zero on a Blazar failure or a mismatch). Without NumPy the peers are skipped
//! with a note and only the Blazar side is checked.

mod common;

#[test]
fn every_array_operation_runs_and_agrees_with_numpy() {
    let ops = common::workloads("arrays");
    assert!(ops >= 19, "only {ops} operations in benches/arrays");
    let r = common::bench("arrays");
    assert_eq!(r.json.matches("\"workload\"").count(), ops, "{}", r.json);
    r.check(ops, "numpy");
}

/// `blazar bench --suite stdlib` at a tiny size: imfilter, immedfilt and imresize run,
/// and, where SciPy is installed, agree with `scipy.ndimage`.
#[test]
fn every_stdlib_call_runs_and_agrees_with_scipy() {
    let r = common::bench("stdlib");
    assert_eq!(r.json.matches("\"workload\"").count(), 3, "{}", r.json);
    r.check(3, "scipy");
}
