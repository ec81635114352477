//! `blazar bench --suite linalg` at a tiny size: every `prog.q` of `benches/linalg` runs,
//! and, where NumPy is installed, every checksum agrees with its `ref.py` (the bench
//! exits non-zero on a Blazar failure or a mismatch). Without NumPy the peers are skipped
//! with a note and only the Blazar side is checked.

mod common;

#[test]
fn every_linalg_operation_runs_and_agrees_with_numpy() {
    let ops = common::workloads("linalg");
    assert!(ops >= 5, "only {ops} operations in benches/linalg");
    let r = common::bench("linalg");
    let runs = r.json.matches("\"suite\": \"linalg\"").count();
    assert_eq!(runs, ops, "{}", r.json);
    r.check(ops, "numpy");
}
