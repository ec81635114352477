//! `blazar run --profile`: where a run's time goes, per source line.
//!
//! With [`Options::profile`](crate::Options::profile) every kernel launch (a
//! `parallel_do` or a fused array statement) waits for its device and is timed (its
//! first compile apart; on a GPU also the kernel alone, from events), and the
//! copies between host and device (`blazar_runtime::traffic`) are charged to the
//! statement that caused them. [`Profile::render`] prints one table of kernels (line,
//! kernel, device, launches, total and mean time) and one of copies (line, direction,
//! count, bytes), for the CLI to show after the program's output.

use blazar_launch::LaunchTiming;
use blazar_runtime::traffic::Traffic;
use std::collections::BTreeMap;
use std::fmt::Write;
use std::time::Duration;

/// Launches and time of one kernel at one line.
#[derive(Default)]
struct Row {
    launches: u64,
    /// Wall time from the launch until its device finished, compiles excluded.
    total: Duration,
    /// The kernels alone, where the device measures them.
    device: Option<Duration>,
    compile: Duration,
}

/// What a profiled run measured.
pub struct Profile {
    device: &'static str,
    kernels: BTreeMap<(u32, String), Row>,
    copies: BTreeMap<u32, Traffic>,
    /// Per line of a loop the compiled host tier may run: iterations interpreted,
    /// iterations compiled, and why it stayed on the interpreter.
    loops: BTreeMap<u32, (u64, u64, Option<String>)>,
    /// Per fused statement group (first and last line): how often it ran, and the
    /// arrays its regions allocated.
    groups: BTreeMap<(u32, u32), (u64, u64)>,
    /// Per user function (its line and name): calls and time on the interpreter, on
    /// the compiled host tier, and why it stayed on the interpreter.
    functions: BTreeMap<(u32, String), FnRow>,
}

/// Calls and time (nested calls included) of one function on each tier.
type FnRow = ((u64, Duration), (u64, Duration), Option<String>);

impl Profile {
    pub fn new(device: &'static str) -> Profile {
        Profile {
            device,
            kernels: BTreeMap::new(),
            copies: BTreeMap::new(),
            loops: BTreeMap::new(),
            groups: BTreeMap::new(),
            functions: BTreeMap::new(),
        }
    }

    /// The calls of the user function `name` defined at `line`: `(calls, time)` on the
    /// interpreter and compiled, and why it stayed on the interpreter.
    pub fn host_fn(
        &mut self,
        line: u32,
        name: &str,
        interp: (u64, Duration),
        compiled: (u64, Duration),
        why: Option<&str>,
    ) {
        self.functions.insert(
            (line, name.to_string()),
            (interp, compiled, why.map(str::to_string)),
        );
    }

    /// One launch of `kernel` from `line`: `time` until its device finished, of which
    /// `t.compile` compiling it; `t.device` the kernel alone where measured.
    pub fn kernel(&mut self, line: u32, kernel: &str, time: Duration, t: LaunchTiming) {
        let row = self.kernels.entry((line, kernel.to_string())).or_default();
        row.launches += 1;
        row.total += time.saturating_sub(t.compile);
        row.compile += t.compile;
        if let Some(d) = t.device {
            *row.device.get_or_insert(Duration::ZERO) += d;
        }
    }

    /// A run of the serial host loop at `line`: its iterations on each tier.
    pub fn host_loop(&mut self, line: u32, interpreted: u64, compiled: u64, why: Option<&str>) {
        let row = self.loops.entry(line).or_default();
        row.0 += interpreted;
        row.1 += compiled;
        if let Some(w) = why {
            row.2 = Some(w.to_string());
        }
    }

    /// A run of the fused statement group of lines `first..=last` (one region: its
    /// kernel is listed at the line of the group's last statement).
    /// `arrays`: result arrays its regions allocated (none for intermediates).
    pub fn group(&mut self, first: u32, last: u32, arrays: u64) {
        let row = self.groups.entry((first, last)).or_default();
        row.0 += 1;
        row.1 += arrays;
    }

    /// Copies the statement at `line` caused.
    pub fn copies(&mut self, line: u32, t: Traffic) {
        self.copies.entry(line).or_default().add(t);
    }

    /// The two tables as text.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "profile: kernels (each launch waits for its device; compiles apart)"
        );
        let _ = writeln!(
            out,
            "{:>6}  {:<24} {:<6} {:>9} {:>11} {:>11} {:>13} {:>11}",
            "line",
            "kernel",
            "device",
            "launches",
            "total ms",
            "mean us",
            "kernel mean us",
            "compile ms"
        );
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        let (mut total, mut compile) = (Duration::ZERO, Duration::ZERO);
        for ((line, name), r) in &self.kernels {
            total += r.total;
            compile += r.compile;
            let per = |d: Duration| d.as_secs_f64() * 1e6 / r.launches.max(1) as f64;
            let alone = r
                .device
                .map_or("-".to_string(), |d| format!("{:.1}", per(d)));
            let _ = writeln!(
                out,
                "{line:>6}  {name:<24} {:<6} {:>9} {:>11.3} {:>11.1} {alone:>13} {:>11.1}",
                self.device,
                r.launches,
                ms(r.total),
                per(r.total),
                ms(r.compile)
            );
        }
        let _ = writeln!(
            out,
            "{:>6}  {:<24} {:<6} {:>9} {:>11.3} {:>11} {:>13} {:>11.1}",
            "",
            "all",
            "",
            "",
            ms(total),
            "",
            "",
            ms(compile)
        );
        if !self.functions.is_empty() {
            let _ = writeln!(
                out,
                "profile: host functions (tier: interpreter or compiled; time includes nested calls)"
            );
            let _ = writeln!(
                out,
                "{:>6}  {:<20} {:>12} {:>11} {:>12} {:>11}  why interpreted",
                "line", "function", "interp calls", "interp ms", "compiled", "compiled ms"
            );
            for ((line, name), ((ic, it), (cc, ct), why)) in &self.functions {
                let _ = writeln!(
                    out,
                    "{line:>6}  {name:<20} {ic:>12} {:>11.3} {cc:>12} {:>11.3}  {}",
                    ms(*it),
                    ms(*ct),
                    why.as_deref().unwrap_or("-")
                );
            }
        }
        if !self.loops.is_empty() {
            let _ = writeln!(out, "profile: host loops (tier: interpreter or compiled)");
            let _ = writeln!(
                out,
                "{:>6}  {:>14} {:>14}  why interpreted",
                "line", "interpreted", "compiled"
            );
            for (line, (i, c, why)) in &self.loops {
                let _ = writeln!(
                    out,
                    "{line:>6}  {i:>14} {c:>14}  {}",
                    why.as_deref().unwrap_or("-")
                );
            }
        }
        if !self.groups.is_empty() {
            let _ = writeln!(
                out,
                "profile: fused statements (each group one region, its kernels at its last line)"
            );
            let _ = writeln!(
                out,
                "{:>6}  {:>6} {:>9} {:>9}",
                "first", "last", "runs", "arrays"
            );
            for ((a, b), (n, arrays)) in &self.groups {
                let _ = writeln!(out, "{a:>6}  {b:>6} {n:>9} {arrays:>9}");
            }
        }
        let _ = writeln!(out, "profile: copies between host and device");
        if self.copies.is_empty() {
            let _ = writeln!(out, "  none");
        } else {
            let _ = writeln!(
                out,
                "{:>6}  {:>10} {:>12} {:>10} {:>12}",
                "line", "to device", "MB", "to host", "MB"
            );
            for (line, t) in &self.copies {
                let _ = writeln!(
                    out,
                    "{line:>6}  {:>10} {:>12.3} {:>10} {:>12.3}",
                    t.to_device,
                    t.to_device_bytes as f64 / 1e6,
                    t.to_host,
                    t.to_host_bytes as f64 / 1e6
                );
            }
        }
        out
    }
}
