//! The report of `blazar bench --suite arrays`: one row per operation (Blazar's median
//! repetition with its fastest and slowest, the NumPy or CuPy peer's, their ratio, the
//! checksums; on the CPU also the first run's median and ratio, with an empty kernel
//! cache), the median ratios over the suite, and JSON.

use super::arrays::Sizes;
use super::report::{checksums_agree, json_num, json_str, median, Side};

/// One operation: Blazar and its peer.
pub(super) struct ArrayRow {
    pub(super) name: String,
    /// The statement timed (`% statement:` in the head of `prog.q`).
    pub(super) statement: Option<String>,
    /// The first run with an empty kernel cache, when measured (the CPU); `ours` is
    /// then the second run.
    pub(super) first: Option<Side>,
    pub(super) ours: Side,
    pub(super) theirs: Side,
}

impl ArrayRow {
    /// Blazar's median over the peer's (lower is better).
    pub(super) fn ratio(&self) -> Option<f64> {
        Some(self.ours.ms? / self.theirs.ms?)
    }

    /// The first run's median over the peer's.
    pub(super) fn first_ratio(&self) -> Option<f64> {
        Some(self.first.as_ref()?.ms? / self.theirs.ms?)
    }

    pub(super) fn checksum_ok(&self) -> Option<bool> {
        let ours = Some(checksums_agree(self.ours.checksum?, self.theirs.checksum?));
        match self.first.as_ref().and_then(|f| f.checksum) {
            Some(c) => Some(ours? && checksums_agree(c, self.theirs.checksum?)),
            None => ours,
        }
    }
}

/// A time in milliseconds with as many decimals as it deserves.
fn ms(v: f64) -> String {
    if v >= 100.0 {
        format!("{v:.0}")
    } else if v >= 10.0 {
        format!("{v:.1}")
    } else if v >= 1.0 {
        format!("{v:.2}")
    } else {
        format!("{v:.3}")
    }
}

/// A side's median, or why it has none.
fn time(s: &Side) -> String {
    s.ms.map_or_else(|| s.note.clone().unwrap_or_else(|| "n/a".into()), ms)
}

/// A side's fastest and slowest repetitions, `lo-hi`.
fn spread(s: &Side) -> String {
    s.spread
        .map_or("-".into(), |(lo, hi)| format!("{}-{}", ms(lo), ms(hi)))
}

/// The table's head; `first` adds the columns of a first run.
pub(super) fn header(peer: &str, first: bool) -> String {
    let firsts = if first {
        format!("{:>10} {:>15} {:>7} ", "first ms", "min-max", "ratio")
    } else {
        String::new()
    };
    format!(
        "{:<14} {:<36} {firsts}{:>10} {:>15} {:>10} {:>7}  checksum",
        "operation",
        "statement",
        if first { "second ms" } else { "blazar ms" },
        "min-max",
        format!("{peer} ms"),
        "ratio"
    )
}

pub(super) fn table_line(r: &ArrayRow) -> String {
    let check = match (r.checksum_ok(), r.ours.checksum, r.theirs.checksum) {
        (Some(true), ..) => "ok".to_string(),
        (Some(false), Some(a), Some(b)) => format!("MISMATCH ({a} vs {b})"),
        (_, Some(a), None) => format!("{a} (no peer)"),
        _ => "n/a".to_string(),
    };
    let firsts = r.first.as_ref().map_or(String::new(), |f| {
        format!(
            "{:>10} {:>15} {:>7} ",
            time(f),
            spread(f),
            r.first_ratio().map_or("-".into(), |v| format!("{v:.2}"))
        )
    });
    format!(
        "{:<14} {:<36} {firsts}{:>10} {:>15} {:>10} {:>7}  {check}",
        r.name,
        r.statement.as_deref().unwrap_or("-"),
        time(&r.ours),
        spread(&r.ours),
        time(&r.theirs),
        r.ratio().map_or("-".into(), |v| format!("{v:.2}")),
    )
}

/// The median ratio of `ratios`, with the smallest and largest (`None`: empty).
fn ratio_line(mut ratios: Vec<f64>) -> Option<String> {
    if ratios.is_empty() {
        return None;
    }
    let n = ratios.len();
    let (lo, hi) = ratios.iter().fold((f64::INFINITY, 0.0f64), |(lo, hi), &v| {
        (lo.min(v), hi.max(v))
    });
    Some(format!(
        "over {n} operations: {:.2} (from {lo:.2} to {hi:.2})",
        median(&mut ratios)
    ))
}

pub(super) fn summary(rows: &[ArrayRow], peer: &str, say: &dyn Fn(&str)) {
    let firsts: Vec<f64> = rows.iter().filter_map(ArrayRow::first_ratio).collect();
    let two = rows.iter().any(|r| r.first.is_some());
    if let Some(line) = ratio_line(firsts) {
        say(&format!("median ratio, first run (blazar / {peer}) {line}"));
    }
    let run = if two { ", second run" } else { "" };
    match ratio_line(rows.iter().filter_map(ArrayRow::ratio).collect()) {
        Some(line) => say(&format!("median ratio{run} (blazar / {peer}) {line}")),
        None => say("median ratio: n/a (no operation has both times)"),
    }
    let bad: Vec<String> = rows
        .iter()
        .filter(|r| r.checksum_ok() == Some(false))
        .map(|r| r.name.clone())
        .collect();
    let failed: Vec<&str> = rows
        .iter()
        .filter(|r| r.ours.ms.is_none() || r.first.as_ref().is_some_and(|f| f.ms.is_none()))
        .map(|r| r.name.as_str())
        .collect();
    super::report::problems(&bad, &failed, say);
}

/// One object per operation; `peer` is the peer's module when it could run.
pub(super) fn to_json(
    rows: &[ArrayRow],
    device: &str,
    peer: Option<&str>,
    sizes: &Sizes,
) -> String {
    let lo = |s: &Side| json_num(s.spread.map(|p| p.0));
    let hi = |s: &Side| json_num(s.spread.map(|p| p.1));
    let items: Vec<String> = rows
        .iter()
        .map(|r| {
            let reference = match peer {
                Some(p) if r.theirs.ms.is_some() => json_str(p),
                _ => "null".into(),
            };
            let ok = r.checksum_ok().map_or("null".into(), |b| b.to_string());
            let statement = r.statement.as_deref().map_or("null".into(), json_str);
            let first = r.first.as_ref().map_or(String::new(), |f| {
                format!(
                    "\"first_run_ms\": {}, \"first_run_min_ms\": {}, \"first_run_max_ms\": {}, \
                     \"first_run_ratio\": {}, ",
                    json_num(f.ms),
                    lo(f),
                    hi(f),
                    json_num(r.first_ratio())
                )
            });
            format!(
                "  {{\"workload\": {}, \"suite\": {}, \"statement\": {statement}, \
                 \"device\": {}, \"size\": [{}, {}, {}], \"matrix_size\": {}, \
                 {first}\"blazar_ms\": {}, \"blazar_min_ms\": {}, \"blazar_max_ms\": {}, \
                 \"reference\": {reference}, \"reference_ms\": {}, \"reference_min_ms\": {}, \
                 \"reference_max_ms\": {}, \"ratio\": {}, \"blazar_reps\": {}, \
                 \"reference_reps\": {}, \"blazar_checksum\": {}, \"reference_checksum\": {}, \
                 \"checksum_ok\": {ok}}}",
                json_str(&r.name),
                json_str(sizes.suite),
                json_str(device),
                sizes.m,
                sizes.n,
                sizes.c,
                sizes.s,
                json_num(r.ours.ms),
                lo(&r.ours),
                hi(&r.ours),
                json_num(r.theirs.ms),
                lo(&r.theirs),
                hi(&r.theirs),
                json_num(r.ratio()),
                r.ours.reps,
                r.theirs.reps,
                json_num(r.ours.checksum),
                json_num(r.theirs.checksum),
            )
        })
        .collect();
    format!("[\n{}\n]", items.join(",\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn side(ms: f64, lo: f64, hi: f64, checksum: f64) -> Side {
        Side {
            ms: Some(ms),
            spread: Some((lo, hi)),
            reps: 10,
            checksum: Some(checksum),
            ..Side::default()
        }
    }

    fn row(name: &str, ours: Side, theirs: Side) -> ArrayRow {
        ArrayRow {
            name: name.into(),
            statement: Some("r = x + 1".into()),
            first: None,
            ours,
            theirs,
        }
    }

    #[test]
    fn line_shows_spread_ratio_and_checksum() {
        let r = row(
            "add",
            side(2.0, 1.5, 12.25, 10.0),
            side(4.0, 3.0, 5.0, 10.0),
        );
        let line = table_line(&r);
        assert!(line.starts_with("add "), "{line}");
        for part in ["r = x + 1", "2.00", "1.50-12.2", "4.00", "0.50", "ok"] {
            assert!(line.contains(part), "{part:?} not in {line}");
        }
        let skipped = Side {
            note: Some("skipped".into()),
            ..Side::default()
        };
        let alone = table_line(&row("sum", side(0.25, 0.2, 0.3, 7.0), skipped));
        assert!(
            alone.contains("skipped") && alone.contains("7 (no peer)"),
            "{alone}"
        );
    }

    #[test]
    fn a_first_run_has_its_own_columns_ratio_and_json() {
        let mut r = row("sum", side(0.5, 0.4, 0.6, 3.0), side(1.0, 0.9, 1.1, 3.0));
        r.first = Some(side(4.0, 3.0, 9.0, 3.0));
        assert_eq!((r.first_ratio(), r.ratio()), (Some(4.0), Some(0.5)));
        let line = table_line(&r);
        for part in ["4.00", "3.00-9.00", "0.500", "0.50", "ok"] {
            assert!(line.contains(part), "{part:?} not in {line}");
        }
        assert!(header("numpy", true).contains("first ms"));
        // A first run whose checksum differs is a mismatch too.
        r.first = Some(side(4.0, 3.0, 9.0, 5.0));
        assert_eq!(r.checksum_ok(), Some(false));
        let json = to_json(&[r], "cpu", Some("numpy"), &Sizes::new(false, None));
        assert!(
            json.contains("\"first_run_ms\": 4, \"first_run_min_ms\": 3, \"first_run_max_ms\": 9, \"first_run_ratio\": 4,"),
            "{json}"
        );
    }

    #[test]
    fn json_has_one_object_per_operation() {
        let rows = [
            row("a", side(2.0, 1.0, 3.0, 1.0), side(1.0, 1.0, 1.0, 2.0)),
            row("b", side(1.0, 1.0, 1.0, 1.0), Side::default()),
        ];
        let json = to_json(&rows, "cpu", Some("numpy"), &Sizes::new(false, None));
        assert_eq!(json.matches("\"suite\": \"arrays\"").count(), 2);
        assert!(json.contains("\"reference\": \"numpy\", \"reference_ms\": 1,"));
        assert!(json.contains("\"ratio\": 2,") && json.contains("\"checksum_ok\": false"));
        assert!(json.contains("\"reference\": null, \"reference_ms\": null"));
        assert!(json.contains("\"size\": [1024, 1024, 3], \"matrix_size\": 512"));
        assert_eq!(rows[0].checksum_ok(), Some(false));
    }
}
