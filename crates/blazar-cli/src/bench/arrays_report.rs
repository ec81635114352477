//! The report of `blazar bench --suite arrays`: one row per operation (Blazar's median
//! repetition with its fastest and slowest, the NumPy or CuPy peer's, their ratio, the
//! checksums), the median ratio over the suite, and JSON.

use super::arrays::Sizes;
use super::report::{checksums_agree, json_num, json_str, median, Side};

/// One operation: Blazar and its peer.
pub(super) struct ArrayRow {
    pub(super) name: String,
    /// The statement timed (`% statement:` in the head of `prog.q`).
    pub(super) statement: Option<String>,
    pub(super) ours: Side,
    pub(super) theirs: Side,
}

impl ArrayRow {
    /// Blazar's median over the peer's (lower is better).
    pub(super) fn ratio(&self) -> Option<f64> {
        Some(self.ours.ms? / self.theirs.ms?)
    }

    pub(super) fn checksum_ok(&self) -> Option<bool> {
        Some(checksums_agree(self.ours.checksum?, self.theirs.checksum?))
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

pub(super) fn header(peer: &str) -> String {
    format!(
        "{:<14} {:<36} {:>10} {:>15} {:>10} {:>7}  checksum",
        "operation",
        "statement",
        "blazar ms",
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
    format!(
        "{:<14} {:<36} {:>10} {:>15} {:>10} {:>7}  {check}",
        r.name,
        r.statement.as_deref().unwrap_or("-"),
        time(&r.ours),
        spread(&r.ours),
        time(&r.theirs),
        r.ratio().map_or("-".into(), |v| format!("{v:.2}")),
    )
}

pub(super) fn summary(rows: &[ArrayRow], peer: &str, say: &dyn Fn(&str)) {
    let mut ratios: Vec<f64> = rows.iter().filter_map(ArrayRow::ratio).collect();
    if ratios.is_empty() {
        say("median ratio: n/a (no operation has both times)");
    } else {
        let n = ratios.len();
        let (lo, hi) = ratios.iter().fold((f64::INFINITY, 0.0f64), |(lo, hi), &v| {
            (lo.min(v), hi.max(v))
        });
        say(&format!(
            "median ratio (blazar / {peer}) over {n} operations: {:.2} (from {lo:.2} to {hi:.2})",
            median(&mut ratios)
        ));
    }
    let bad: Vec<String> = rows
        .iter()
        .filter(|r| r.checksum_ok() == Some(false))
        .map(|r| r.name.clone())
        .collect();
    let failed: Vec<&str> = rows
        .iter()
        .filter(|r| r.ours.ms.is_none())
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
            format!(
                "  {{\"workload\": {}, \"suite\": {}, \"statement\": {statement}, \
                 \"device\": {}, \"size\": [{}, {}, {}], \"matrix_size\": {}, \
                 \"blazar_ms\": {}, \"blazar_min_ms\": {}, \"blazar_max_ms\": {}, \
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
