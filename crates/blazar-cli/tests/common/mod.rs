//! What the benchmark-suite tests share: `blazar bench --suite S` at a tiny size on the
//! CPU, its JSON report read back, and the checks every suite's report must pass.

use std::path::PathBuf;
use std::process::Command;

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// How many `prog.q` workloads the folder `benches/<suite>` holds.
pub fn workloads(suite: &str) -> usize {
    let dir = root().join("benches").join(suite);
    std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .filter(|e| e.path().join("prog.q").is_file())
        .count()
}

/// What one run of a suite printed and reported.
pub struct Report {
    pub stdout: String,
    pub json: String,
}

/// Runs `blazar bench --suite SUITE` at size 24 on 2 CPU threads over `benches/SUITE`;
/// the bench must succeed (it fails on a Blazar error or a checksum mismatch).
pub fn bench(suite: &str) -> Report {
    let dir = root().join("benches").join(suite);
    let json = std::env::temp_dir().join(format!("blazar-{suite}-{}.json", std::process::id()));
    let out = Command::new(env!("CARGO_BIN_EXE_blazar"))
        .args(["bench", "--suite", suite, "--device", "cpu", "--size", "24"])
        .args(["--threads", "2", "--timeout", "120", "--dir"])
        .arg(&dir)
        .arg("--json")
        .arg(&json)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "bench failed:\n{stdout}\n{stderr}");
    let text = std::fs::read_to_string(&json).unwrap();
    let _ = std::fs::remove_file(&json);
    Report { stdout, json: text }
}

impl Report {
    /// Every Blazar side ran and no checksum disagreed; where the peer (named by
    /// `peer`, e.g. `numpy`) is installed, all `n` checksums agreed.
    pub fn check(&self, n: usize, peer: &str) {
        let text = &self.json;
        assert!(!text.contains("\"blazar_ms\": null"), "{text}");
        assert!(!text.contains("\"checksum_ok\": false"), "{text}");
        if self.stdout.contains(&format!("note: {peer} peers skipped")) {
            println!("SKIP checksum comparison: {peer} is not installed here");
        } else {
            assert_eq!(text.matches("\"checksum_ok\": true").count(), n, "{text}");
        }
    }
}
