//! Tests of the CUDA report: table cells, summary lines against the targets, JSON pairs.

use super::*;
use std::cell::RefCell;

fn side(ms: Option<f64>, checksum: Option<f64>) -> Side {
    Side {
        ms,
        reps: if ms.is_some() { 30 } else { 0 },
        checksum,
        ..Side::default()
    }
}

fn stats(compiled: u64, cached: u64, compile_ms: f64) -> Option<Stats> {
    Some(Stats {
        compiled,
        cached,
        compile_ms,
    })
}

/// 1 GB per repetition; Blazar 0.48 ms (2083 GB/s), CUDA C 0.4 ms, CuPy 0.25 ms.
fn row(name: &str) -> CudaRow {
    CudaRow {
        name: name.into(),
        bytes: Some(1_000_000_000),
        compute_bound: false,
        ours: Side {
            stats: stats(0, 2, 0.0),
            ..side(Some(0.48), Some(100.0))
        },
        cuda: side(Some(0.4), Some(100.01)),
        cupy: Some(side(Some(0.25), Some(100.0))),
    }
}

/// 2 GB in 0.8 ms: 2500 GB/s.
fn copy() -> CopyCeiling {
    CopyCeiling {
        ms: Some(0.8),
        reps: 30,
        bytes: Some(2_000_000_000),
        method: Some("copy kernel".into()),
        note: None,
    }
}

fn summary_lines(rows: &[CudaRow], copy: &CopyCeiling) -> Vec<String> {
    let lines = RefCell::new(Vec::new());
    summary(rows, copy, &|l: &str| {
        lines.borrow_mut().push(l.to_string())
    });
    lines.into_inner()
}

#[test]
fn copy_from_its_program() {
    let stdout = "rep: 0.8 ms\nmethod: copy kernel (x)\nbytes: 2000000000\n";
    let c = CopyCeiling::from_output(stdout, side(Some(0.8), None));
    assert!((c.gbps().unwrap() - 2500.0).abs() < 1e-9);
    assert_eq!(c.method.as_deref(), Some("copy kernel (x)"));
    assert!(c.note.is_none());
    assert!(copy_line(&c).contains("2500.0 GB/s"));
    let no_bytes = CopyCeiling::from_output("rep: 1 ms\n", side(Some(1.0), None));
    assert_eq!(no_bytes.gbps(), None);
    assert!(copy_line(&no_bytes).contains("no `bytes:` line"));
}

#[test]
fn row_cells() {
    let line = table_line(&row("gamma"), copy().gbps());
    let cells: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(
        cells,
        ["gamma", "0.480", "0.400", "1.20", "0.250", "2083.3", "83", "0", "2", "0.0", "ok"]
    );
    let mut r = row("life");
    r.cupy = None;
    r.ours.stats = None;
    r.cuda = Side {
        note: Some("skipped".into()),
        ..Side::default()
    };
    let cells: Vec<String> = table_line(&r, None)
        .split_whitespace()
        .map(String::from)
        .collect();
    assert_eq!(
        cells,
        [
            "life",
            "0.480",
            "skipped",
            "-",
            "-",
            "2083.3",
            "-",
            "-",
            "-",
            "-",
            "100",
            "(no",
            "reference)"
        ]
    );
}

#[test]
fn checksum_cells() {
    let mut r = row("w");
    r.cupy.as_mut().unwrap().checksum = Some(90.0);
    assert_eq!(r.mismatches(), vec![("cupy", 100.0, 90.0)]);
    assert!(r.checksum_cell().starts_with("MISMATCH (cupy: 100 vs 90)"));
    r.cupy = None;
    r.cuda.checksum = None;
    assert_eq!(r.checksum_cell(), "100 (no reference)");
    r.ours.checksum = None;
    assert_eq!(r.checksum_cell(), "n/a");
    assert!(r.mismatches().is_empty());
}

#[test]
fn summary_against_the_targets() {
    let mut slow = row("slow");
    slow.ours.ms = Some(1.0); // ratio 2.5, 1000 GB/s = 40% of the copy
    let mut compute = row("compute");
    compute.compute_bound = true;
    compute.ours.ms = Some(2.0);
    compute.ours.stats = stats(3, 1, 250.0);
    let lines = summary_lines(&[row("fast"), slow, compute], &copy());
    assert_eq!(
        lines,
        [
            "kernel compilation: 3 compiled in 250.0 ms (not in the times), 5 from the cache; \
             compiled in compute",
            "over 1.25x the CUDA C reference: slow (2.50), compute (5.00)",
            "memory-bound under 80% of the copy bandwidth: slow (40%)",
            "median ratio (blazar / CuPy) over 3 workloads: 4.00",
            "median ratio (blazar / CUDA C reference) over 3 workloads: 2.50",
            "copy bandwidth (device to device, this run): 2500.0 GB/s",
        ]
    );
}

#[test]
fn summary_of_cache_hits_failures_and_mismatches() {
    let mut failed = row("failed");
    failed.ours = Side {
        note: Some("failed".into()),
        ..Side::default()
    };
    let mut wrong = row("wrong");
    wrong.cuda.checksum = Some(7.0);
    let lines = summary_lines(&[row("a"), failed, wrong], &CopyCeiling::default());
    assert_eq!(
        lines[0],
        "kernel compilation: none, all 4 kernels came from the cache"
    );
    assert!(lines[1].starts_with("!!! CHECKSUM MISMATCH in wrong (cuda-c)"));
    assert_eq!(lines[2], "failed on the Blazar side: failed");
    assert_eq!(lines.last().unwrap(), "copy bandwidth: not measured");
    let mut quiet = row("quiet");
    quiet.ours.stats = None;
    let lines = summary_lines(&[quiet, row("b")], &copy());
    assert_eq!(
        lines[0],
        "kernel compilation: none, all 2 kernels came from the cache (1 workloads did not report)"
    );
    let mut silent = row("silent");
    silent.ours.stats = None;
    assert!(summary_lines(&[silent], &copy())[0].contains("not reported"));
}

/// The number after `"key": ` in one JSON object (None for null).
fn field(object: &str, key: &str) -> Option<f64> {
    let at = object.find(&format!("\"{key}\": "))? + key.len() + 4;
    let text: String = object[at..]
        .chars()
        .take_while(|c| !matches!(c, ',' | '}'))
        .collect();
    text.parse().ok()
}

#[test]
fn json_has_one_object_per_reference() {
    let mut no_cuda = row("b");
    no_cuda.cupy = Some(Side {
        note: Some("skipped".into()),
        ..Side::default()
    });
    no_cuda.cuda = Side::default();
    let text = to_json(&[row("a"), no_cuda], &copy());
    assert!(text.starts_with("[\n") && text.ends_with("\n]"));
    let objects: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("\"workload\""))
        .collect();
    assert_eq!(objects.len(), 3);
    let a = objects[0];
    assert!(a.contains("\"workload\": \"a\", \"device\": \"cuda\", \"blazar_ms\": 0.48"));
    assert!(a.contains("\"reference\": \"cuda-c\", \"reference_ms\": 0.4,"));
    let near = |key, want: f64| (field(a, key).unwrap() - want).abs() < 1e-6;
    assert!(near("ratio", 1.2) && near("gbps", 2083.333333) && near("reference_gbps", 2500.0));
    assert!(near("copy_gbps", 2500.0) && near("copy_fraction", 0.833333333));
    assert!(near("reference_copy_fraction", 1.0) && near("bytes", 1e9));
    assert!(a.contains("\"bound\": \"memory\", \"blazar_reps\": 30, \"reference_reps\": 30"));
    assert!(a.contains("\"blazar_checksum\": 100, \"reference_checksum\": 100.01"));
    assert!(a.contains("\"checksum_ok\": true"));
    assert!(a.ends_with("\"compiled\": 0, \"cached\": 2, \"compile_ms\": 0},"));
    assert!(objects[1].contains("\"reference\": \"cupy\", \"reference_ms\": 0.25,"));
    assert!((field(objects[1], "ratio").unwrap() - 1.92).abs() < 1e-9);
    let b = objects[2];
    assert!(b.contains("\"workload\": \"b\""));
    assert!(b.contains("\"reference\": null, \"reference_ms\": null, \"ratio\": null"));
    assert!(b.contains("\"checksum_ok\": null"));
}
