//! The report of `blazar bench`: per-workload results, the table, the summary and JSON.

/// Relative tolerance for the checksums of the two sides.
const CHECKSUM_RTOL: f64 = 1e-3;

/// What one side of a workload measured.
#[derive(Default, Debug)]
pub(super) struct Side {
    /// Median repetition in milliseconds.
    pub(super) ms: Option<f64>,
    /// Fastest and slowest repetition in milliseconds (with `ms`).
    pub(super) spread: Option<(f64, f64)>,
    pub(super) reps: usize,
    pub(super) checksum: Option<f64>,
    /// Why there is no time (a failure or a skip), shown in the table.
    pub(super) note: Option<String>,
    /// Kernel compilation reported by a Blazar child (`stats:` on stderr).
    pub(super) stats: Option<Stats>,
    /// Other stderr lines of a successful child (the first few), shown under its row.
    pub(super) extra: Vec<String>,
}

/// Kernel compilation in one Blazar run: never part of the timed repetitions.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Stats {
    /// Kernel specialisations compiled in this run.
    pub(super) compiled: u64,
    /// Kernel specialisations found in the cache.
    pub(super) cached: u64,
    pub(super) compile_ms: f64,
}

/// Whether two checksums agree within [`CHECKSUM_RTOL`].
pub(super) fn checksums_agree(a: f64, b: f64) -> bool {
    let scale = a.abs().max(b.abs()).max(f64::MIN_POSITIVE);
    a == b || (a - b).abs() / scale <= CHECKSUM_RTOL
}

pub(super) struct Row {
    pub(super) name: String,
    pub(super) bytes: Option<u64>,
    pub(super) ours: Side,
    pub(super) theirs: Side,
}

impl Row {
    pub(super) fn ratio(&self) -> Option<f64> {
        Some(self.ours.ms? / self.theirs.ms?)
    }

    pub(super) fn checksum_ok(&self) -> Option<bool> {
        Some(checksums_agree(self.ours.checksum?, self.theirs.checksum?))
    }
}

pub(super) fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// A side's repetitions spread widely when the slowest took more than this many times
/// the fastest: its median, and any ratio built on it, is then not to be trusted.
pub(super) const WIDE_SPREAD: f64 = 2.0;

/// Whether a side's repetitions spread widely (see [`WIDE_SPREAD`]).
pub(super) fn is_wide(s: &Side) -> bool {
    s.spread
        .is_some_and(|(lo, hi)| hi > WIDE_SPREAD * lo.max(f64::MIN_POSITIVE))
}

/// A side's median with the fastest and slowest repetition, `1.23 (1.10-1.52)`, and a
/// `!` after a wide spread; or why it has no time.
pub(super) fn ms_spread(s: &Side, p: usize) -> String {
    match (s.ms, s.spread) {
        (Some(m), Some((lo, hi))) => format!(
            "{m:.p$} ({lo:.p$}-{hi:.p$}){}",
            if is_wide(s) { "!" } else { "" }
        ),
        (Some(m), None) => format!("{m:.p$}"),
        _ => s.note.clone().unwrap_or_else(|| "n/a".into()),
    }
}

/// The closing line that names the sides whose spread is wide (`None`: none is).
pub(super) fn wide_line(names: &[String]) -> Option<String> {
    (!names.is_empty()).then(|| {
        format!(
            "! wide spread (slowest repetition over {WIDE_SPREAD}x the fastest): {}; \
             their ratios are unreliable, rerun on a quieter machine",
            names.join(", ")
        )
    })
}

pub(super) fn gbps(bytes: Option<u64>, ms: Option<f64>) -> Option<f64> {
    Some(bytes? as f64 / (ms? * 1e-3) / 1e9)
}

pub(super) fn header() -> String {
    format!(
        "{:<18} {:>22} {:>22} {:>8} {:>8} {:>8}  checksum",
        "workload", "blazar ms (min-max)", "ref ms (min-max)", "ratio", "GB/s", "ref GB/s"
    )
}

pub(super) fn table_line(r: &Row) -> String {
    let ms = |s: &Side| ms_spread(s, 2);
    let num = |v: Option<f64>, p: usize| v.map_or("-".to_string(), |x| format!("{x:.p$}"));
    let check = match (r.checksum_ok(), r.ours.checksum, r.theirs.checksum) {
        (Some(true), ..) => "ok".to_string(),
        (Some(false), Some(a), Some(b)) => format!("MISMATCH ({a} vs {b})"),
        (_, Some(a), None) => format!("{a} (no reference)"),
        _ => "n/a".to_string(),
    };
    format!(
        "{:<18} {:>22} {:>22} {:>8} {:>8} {:>8}  {check}",
        r.name,
        ms(&r.ours),
        ms(&r.theirs),
        num(r.ratio(), 2),
        num(gbps(r.bytes, r.ours.ms), 2),
        num(gbps(r.bytes, r.theirs.ms), 2),
    )
}

pub(super) fn summary(rows: &[Row], say: &dyn Fn(&str)) {
    let mut ratios: Vec<f64> = rows.iter().filter_map(Row::ratio).collect();
    if ratios.is_empty() {
        say("median ratio: n/a (no workload has both times)");
    } else {
        let n = ratios.len();
        say(&format!(
            "median ratio (blazar / reference) over {n} workloads: {:.2}",
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
    let mut wide = Vec::new();
    for r in rows {
        if is_wide(&r.ours) {
            wide.push(format!("{} (blazar)", r.name));
        }
        if is_wide(&r.theirs) {
            wide.push(format!("{} (reference)", r.name));
        }
    }
    if let Some(line) = wide_line(&wide) {
        say(&line);
    }
    problems(&bad, &failed, say);
}

/// The lines every suite's summary ends with: workloads whose checksums disagree, and
/// workloads whose Blazar side failed.
pub(super) fn problems(bad: &[String], failed: &[&str], say: &dyn Fn(&str)) {
    if !bad.is_empty() {
        say(&format!(
            "!!! CHECKSUM MISMATCH in {}: the two sides do not compute the same thing !!!",
            bad.join(", ")
        ));
    }
    if !failed.is_empty() {
        say(&format!("failed on the Blazar side: {}", failed.join(", ")));
    }
}

pub(super) fn json_num(v: Option<f64>) -> String {
    match v {
        Some(x) if x.is_finite() => format!("{x}"),
        _ => "null".into(),
    }
}

pub(super) fn json_str(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

pub(super) fn to_json(rows: &[Row]) -> String {
    let items: Vec<String> = rows
        .iter()
        .map(|r| {
            let reference = if r.theirs.ms.is_some() { json_str("c-openmp") } else { "null".into() };
            let ok = r.checksum_ok().map_or("null".into(), |b| b.to_string());
            format!(
                "  {{\"workload\": {}, \"device\": \"cpu\", \"blazar_ms\": {}, \"reference\": {reference}, \
                 \"reference_ms\": {}, \"ratio\": {}, \"gbps\": {}, \"reference_gbps\": {}, \
                 \"bytes\": {}, \"blazar_reps\": {}, \"reference_reps\": {}, \
                 \"blazar_checksum\": {}, \"reference_checksum\": {}, \"checksum_ok\": {ok}}}",
                json_str(&r.name),
                json_num(r.ours.ms),
                json_num(r.theirs.ms),
                json_num(r.ratio()),
                json_num(gbps(r.bytes, r.ours.ms)),
                json_num(gbps(r.bytes, r.theirs.ms)),
                r.bytes.map_or("null".into(), |b| b.to_string()),
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

    #[test]
    fn median_of_odd_and_even() {
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&mut [4.0, 1.0, 2.0, 3.0]), 2.5);
    }

    #[test]
    fn times_show_their_spread_and_wide_ones_are_marked() {
        let side = |m, lo, hi| Side {
            ms: Some(m),
            spread: Some((lo, hi)),
            reps: 5,
            ..Side::default()
        };
        assert_eq!(ms_spread(&side(1.0, 0.9, 1.2), 2), "1.00 (0.90-1.20)");
        // The CPU histogram reference of issue 15: 0.71 to 13.6 ms.
        assert_eq!(ms_spread(&side(8.0, 0.71, 13.6), 2), "8.00 (0.71-13.60)!");
        assert!(is_wide(&side(8.0, 0.71, 13.6)));
        assert!(!is_wide(&side(1.0, 1.0, 2.0)));
        let failed = Side {
            note: Some("failed".into()),
            ..Side::default()
        };
        assert_eq!(ms_spread(&failed, 2), "failed");
        assert_eq!(wide_line(&[]), None);
        assert!(wide_line(&["hist (reference)".into()])
            .unwrap()
            .contains("hist (reference)"));
    }

    #[test]
    fn checksums_compare_relatively() {
        let side = |c: f64| Side {
            checksum: Some(c),
            ..Side::default()
        };
        let row = |a, b| Row {
            name: "w".into(),
            bytes: None,
            ours: side(a),
            theirs: side(b),
        };
        assert_eq!(row(1000.0, 1000.5).checksum_ok(), Some(true));
        assert_eq!(row(1000.0, 1002.0).checksum_ok(), Some(false));
        assert_eq!(row(0.0, 0.0).checksum_ok(), Some(true));
    }

    #[test]
    fn json_escapes_strings() {
        assert_eq!(json_str("a\"b\\\n"), "\"a\\\"b\\\\\\u000a\"");
        assert_eq!(json_num(Some(f64::NAN)), "null");
    }
}
