//! The report of `blazar bench --device cuda`: the copy ceiling, per-workload rows
//! (Blazar against the CUDA C and CuPy references, bandwidth as a fraction of the copy,
//! kernel compilation), the summary against the targets, and JSON.

use super::report::{checksums_agree, gbps, json_num, json_str, median, Side, Stats};

/// Slowest acceptable ratio to the hand-written CUDA reference.
const RATIO_TARGET: f64 = 1.25;
/// Smallest acceptable fraction of the copy bandwidth for a memory-bound workload.
const COPY_TARGET: f64 = 0.8;

/// The device-to-device copy measured at the start of the run.
#[derive(Default, Debug)]
pub(super) struct CopyCeiling {
    /// Median repetition in milliseconds.
    pub(super) ms: Option<f64>,
    pub(super) reps: usize,
    /// Bytes read plus bytes written by one repetition.
    pub(super) bytes: Option<u64>,
    /// How the copy was made (the faster of `cudaMemcpyAsync` and a kernel).
    pub(super) method: Option<String>,
    /// Why there is no bandwidth.
    pub(super) note: Option<String>,
}

impl CopyCeiling {
    /// The copy from its program's stdout (`bytes:`, `method:`) and parsed repetitions.
    pub(super) fn from_output(stdout: &str, side: Side) -> CopyCeiling {
        let field = |key: &str| {
            stdout
                .lines()
                .find_map(|l| Some(l.trim().strip_prefix(key)?.trim().to_string()))
        };
        let bytes = field("bytes:").and_then(|b| b.parse().ok());
        let note = match (&side.note, bytes) {
            (Some(n), _) => Some(format!("not measured: {n}")),
            (None, None) => Some("not measured: no `bytes:` line".into()),
            _ => None,
        };
        CopyCeiling {
            ms: side.ms,
            reps: side.reps,
            bytes,
            method: field("method:"),
            note,
        }
    }

    pub(super) fn gbps(&self) -> Option<f64> {
        gbps(self.bytes, self.ms)
    }
}

/// One workload: Blazar and its references.
pub(super) struct CudaRow {
    pub(super) name: String,
    /// Bytes read and written by one repetition.
    pub(super) bytes: Option<u64>,
    /// Limited by arithmetic: the copy bandwidth is no target.
    pub(super) compute_bound: bool,
    pub(super) ours: Side,
    /// The hand-written CUDA C reference.
    pub(super) cuda: Side,
    /// The CuPy reference, where the workload has one.
    pub(super) cupy: Option<Side>,
}

impl CudaRow {
    /// Blazar's time over the CUDA C reference's.
    pub(super) fn ratio(&self) -> Option<f64> {
        ratio(&self.ours, &self.cuda)
    }

    /// Blazar's time over CuPy's.
    pub(super) fn cupy_ratio(&self) -> Option<f64> {
        ratio(&self.ours, self.cupy.as_ref()?)
    }

    /// Blazar's achieved bandwidth in GB/s.
    pub(super) fn gbps(&self) -> Option<f64> {
        gbps(self.bytes, self.ours.ms)
    }

    /// The references with their JSON names.
    fn references(&self) -> impl Iterator<Item = (&'static str, &Side)> {
        std::iter::once(("cuda-c", &self.cuda)).chain(self.cupy.iter().map(|s| ("cupy", s)))
    }

    /// The references whose checksum disagrees with Blazar's: (name, ours, theirs).
    pub(super) fn mismatches(&self) -> Vec<(&'static str, f64, f64)> {
        let Some(a) = self.ours.checksum else {
            return Vec::new();
        };
        self.references()
            .filter_map(|(n, s)| Some((n, a, s.checksum?)))
            .filter(|&(_, a, b)| !checksums_agree(a, b))
            .collect()
    }

    fn checksum_cell(&self) -> String {
        let bad = self.mismatches();
        let compared = self.references().any(|(_, s)| s.checksum.is_some());
        match self.ours.checksum {
            None => "n/a".into(),
            Some(_) if !bad.is_empty() => {
                let each: Vec<String> = bad
                    .iter()
                    .map(|(n, a, b)| format!("{n}: {a} vs {b}"))
                    .collect();
                format!("MISMATCH ({})", each.join("; "))
            }
            Some(_) if compared => "ok".into(),
            Some(a) => format!("{a} (no reference)"),
        }
    }
}

fn ratio(ours: &Side, theirs: &Side) -> Option<f64> {
    Some(ours.ms? / theirs.ms?)
}

fn fraction(part: Option<f64>, whole: Option<f64>) -> Option<f64> {
    Some(part? / whole?)
}

fn ms_cell(s: &Side) -> String {
    super::report::ms_spread(s, 3)
}

fn num(v: Option<f64>, p: usize) -> String {
    v.map_or("-".to_string(), |x| format!("{x:.p$}"))
}

pub(super) fn header() -> String {
    format!(
        "{:<18} {:>24} {:>24} {:>7} {:>24} {:>8} {:>6} {:>8} {:>6} {:>10}  checksum",
        "workload",
        "blazar ms (min-max)",
        "cuda ms (min-max)",
        "ratio",
        "cupy ms (min-max)",
        "GB/s",
        "%copy",
        "compiled",
        "cached",
        "compile ms"
    )
}

pub(super) fn table_line(r: &CudaRow, copy_gbps: Option<f64>) -> String {
    let cupy = r.cupy.as_ref().map_or("-".to_string(), ms_cell);
    let stat = |f: fn(&Stats) -> String| r.ours.stats.as_ref().map_or("-".into(), f);
    format!(
        "{:<18} {:>24} {:>24} {:>7} {:>24} {:>8} {:>6} {:>8} {:>6} {:>10}  {}",
        r.name,
        ms_cell(&r.ours),
        ms_cell(&r.cuda),
        num(r.ratio(), 2),
        cupy,
        num(r.gbps(), 1),
        num(fraction(r.gbps(), copy_gbps).map(|f| f * 100.0), 0),
        stat(|s| s.compiled.to_string()),
        stat(|s| s.cached.to_string()),
        stat(|s| format!("{:.1}", s.compile_ms)),
        r.checksum_cell(),
    )
}

pub(super) fn copy_line(c: &CopyCeiling) -> String {
    match (c.gbps(), &c.note) {
        (Some(g), None) => format!(
            "copy (device to device): {g:.1} GB/s, median {:.3} ms of {} repetitions moving {} bytes{}",
            c.ms.unwrap_or_default(),
            c.reps,
            c.bytes.unwrap_or_default(),
            c.method
                .as_ref()
                .map(|m| format!(" ({m})"))
                .unwrap_or_default()
        ),
        (_, note) => format!(
            "copy (device to device): {}",
            note.as_deref().unwrap_or("not measured")
        ),
    }
}

pub(super) fn summary(rows: &[CudaRow], copy: &CopyCeiling, say: &dyn Fn(&str)) {
    say(&compile_line(rows));
    let mut wide = Vec::new();
    for r in rows {
        let sides = [
            ("blazar", Some(&r.ours)),
            ("cuda", Some(&r.cuda)),
            ("cupy", r.cupy.as_ref()),
        ];
        for (who, side) in sides {
            if side.is_some_and(super::report::is_wide) {
                wide.push(format!("{} ({who})", r.name));
            }
        }
    }
    if let Some(line) = super::report::wide_line(&wide) {
        say(&line);
    }
    let slow: Vec<String> = rows
        .iter()
        .filter_map(|r| Some((r, r.ratio()?)))
        .filter(|(_, q)| *q > RATIO_TARGET)
        .map(|(r, q)| format!("{} ({q:.2})", r.name))
        .collect();
    if !slow.is_empty() {
        say(&format!(
            "over {RATIO_TARGET}x the CUDA C reference: {}",
            slow.join(", ")
        ));
    }
    let copy_gbps = copy.gbps();
    let low: Vec<String> = rows
        .iter()
        .filter(|r| !r.compute_bound)
        .filter_map(|r| Some((r, fraction(r.gbps(), copy_gbps)?)))
        .filter(|(_, f)| *f < COPY_TARGET)
        .map(|(r, f)| format!("{} ({:.0}%)", r.name, f * 100.0))
        .collect();
    if !low.is_empty() {
        say(&format!(
            "memory-bound under {:.0}% of the copy bandwidth: {}",
            COPY_TARGET * 100.0,
            low.join(", ")
        ));
    }
    let bad: Vec<String> = rows
        .iter()
        .filter(|r| !r.mismatches().is_empty())
        .map(|r| {
            let refs: Vec<&str> = r.mismatches().iter().map(|m| m.0).collect();
            format!("{} ({})", r.name, refs.join(", "))
        })
        .collect();
    let failed: Vec<&str> = rows
        .iter()
        .filter(|r| r.ours.ms.is_none())
        .map(|r| r.name.as_str())
        .collect();
    super::report::problems(&bad, &failed, say);
    let mut cupy: Vec<f64> = rows.iter().filter_map(CudaRow::cupy_ratio).collect();
    if !cupy.is_empty() {
        let n = cupy.len();
        say(&format!(
            "median ratio (blazar / CuPy) over {n} workloads: {:.2}",
            median(&mut cupy)
        ));
    }
    let mut ratios: Vec<f64> = rows.iter().filter_map(CudaRow::ratio).collect();
    if ratios.is_empty() {
        say("median ratio (blazar / CUDA C reference): n/a (no workload has both times)");
    } else {
        let n = ratios.len();
        say(&format!(
            "median ratio (blazar / CUDA C reference) over {n} workloads: {:.2}",
            median(&mut ratios)
        ));
    }
    say(&match copy_gbps {
        Some(g) => format!("copy bandwidth (device to device, this run): {g:.1} GB/s"),
        None => format!(
            "copy bandwidth: {}",
            copy.note.as_deref().unwrap_or("not measured")
        ),
    });
}

/// Whether any kernel was compiled in this run, or all came from the cache.
fn compile_line(rows: &[CudaRow]) -> String {
    let ran = rows.iter().filter(|r| r.ours.ms.is_some()).count();
    let stats: Vec<(&str, &Stats)> = rows
        .iter()
        .filter_map(|r| Some((r.name.as_str(), r.ours.stats.as_ref()?)))
        .collect();
    if stats.is_empty() {
        return "kernel compilation: not reported (no `stats:` line from `blazar run` \
                with BLAZAR_STATS=1)"
            .into();
    }
    let compiled: u64 = stats.iter().map(|(_, s)| s.compiled).sum();
    let cached: u64 = stats.iter().map(|(_, s)| s.cached).sum();
    let ms: f64 = stats.iter().map(|(_, s)| s.compile_ms).sum();
    let unreported = ran.saturating_sub(stats.len());
    let missing = if unreported > 0 {
        format!(" ({unreported} workloads did not report)")
    } else {
        String::new()
    };
    if compiled == 0 {
        return format!(
            "kernel compilation: none, all {cached} kernels came from the cache{missing}"
        );
    }
    let names: Vec<&str> = stats
        .iter()
        .filter(|(_, s)| s.compiled > 0)
        .map(|(n, _)| *n)
        .collect();
    format!(
        "kernel compilation: {compiled} compiled in {ms:.1} ms (not in the times), {cached} \
         from the cache{missing}; compiled in {}",
        names.join(", ")
    )
}

/// One object per (workload, reference) pair: the CUDA C reference always (with a null
/// `reference` when it has no time, as on the CPU), CuPy where it produced a time.
pub(super) fn to_json(rows: &[CudaRow], copy: &CopyCeiling) -> String {
    let copy_gbps = copy.gbps();
    let mut items = Vec::new();
    for r in rows {
        for (name, side) in r.references() {
            if name == "cupy" && side.ms.is_none() {
                continue;
            }
            items.push(pair_json(r, name, side, copy_gbps));
        }
    }
    format!("[\n{}\n]", items.join(",\n"))
}

fn pair_json(r: &CudaRow, name: &str, theirs: &Side, copy_gbps: Option<f64>) -> String {
    let reference = if theirs.ms.is_some() {
        json_str(name)
    } else {
        "null".into()
    };
    let ok = match (r.ours.checksum, theirs.checksum) {
        (Some(a), Some(b)) => checksums_agree(a, b).to_string(),
        _ => "null".into(),
    };
    let theirs_gbps = gbps(r.bytes, theirs.ms);
    let stats = r.ours.stats;
    format!(
        "  {{\"workload\": {}, \"device\": \"cuda\", \"blazar_ms\": {}, \"reference\": {reference}, \
         \"reference_ms\": {}, \"ratio\": {}, \"gbps\": {}, \"reference_gbps\": {}, \
         \"copy_gbps\": {}, \"copy_fraction\": {}, \"reference_copy_fraction\": {}, \
         \"bytes\": {}, \"bound\": \"{}\", \"blazar_reps\": {}, \"reference_reps\": {}, \
         \"blazar_checksum\": {}, \"reference_checksum\": {}, \"checksum_ok\": {ok}, \
         \"compiled\": {}, \"cached\": {}, \"compile_ms\": {}}}",
        json_str(&r.name),
        json_num(r.ours.ms),
        json_num(theirs.ms),
        json_num(ratio(&r.ours, theirs)),
        json_num(r.gbps()),
        json_num(theirs_gbps),
        json_num(copy_gbps),
        json_num(fraction(r.gbps(), copy_gbps)),
        json_num(fraction(theirs_gbps, copy_gbps)),
        r.bytes.map_or("null".into(), |b| b.to_string()),
        if r.compute_bound { "compute" } else { "memory" },
        r.ours.reps,
        theirs.reps,
        json_num(r.ours.checksum),
        json_num(theirs.checksum),
        stats.map_or("null".into(), |s| s.compiled.to_string()),
        stats.map_or("null".into(), |s| s.cached.to_string()),
        json_num(stats.map(|s| s.compile_ms)),
    )
}

#[cfg(test)]
mod tests;
