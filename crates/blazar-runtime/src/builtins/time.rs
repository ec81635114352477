//! Timing: `tic()` and `toc()` / `toc(label)`.
//!
//! `tic` pushes the current time on a stack. `toc` measures from the most recent `tic`:
//! it pops that entry when an outer `tic` remains below it (so nested pairs match up),
//! and otherwise keeps the last one, so `tic; ...; toc; ...; toc` measures twice from
//! the same start as in MATLAB. It prints `Elapsed time: 12.3456 ms` (or
//! `label: 12.3456 ms`) and returns the milliseconds.
//!
//! When a device runs the kernels (`Ctx::device_timer`), `tic` also records a device
//! event and `toc` measures device time, as CUDA C code does with events: from the
//! `tic` to the end of the device work issued before the `toc` (waiting for it). Host
//! time between the two counts only while the device has work to come (the launch
//! overhead before a kernel counts; the host's latency after its last wait does not),
//! so GPU timings are neither launch-queue times nor host wake-up times.

use super::{Builtin, Ctx};
use crate::{rt_bail, RtError, RtResult, Value};
use std::io::Write as _;
use std::time::Instant;

use super::math::bi;

pub(super) static TABLE: &[Builtin] = &[
    bi("tic", tic, 0, 0).doc(
        "tic()",
        "Starts a timer that `toc` reads (timers nest: each `toc` pops the latest `tic`).",
        "tic()\nt = toc()\nprint t >= 0",
        "1",
    ),
    bi("toc", toc, 0, 1).doc(
        "toc() · t = toc() · toc(label)",
        "The milliseconds since the latest `tic` (on a GPU, up to the end of the kernels launched in between). As a statement of its own, it prints `Elapsed time: ... ms` (or the label); when its value is used, it prints nothing.",
        "tic()\nx = sum(1..1000)\nms = toc()\nprint ms >= 0, \" \", x",
        "1 500500",
    ),
];

/// Device-side timing for `tic`/`toc` (CUDA events on a GPU).
pub trait DeviceTimer {
    /// Records a point in the device's work queue; returns its id.
    fn mark(&mut self) -> Result<u64, String>;
    /// Waits for the device work issued so far and returns the milliseconds from `from`
    /// to its end.
    fn elapsed_ms(&mut self, from: u64) -> Result<f64, String>;
}

/// A `tic`: host time and, with a device timer, the device mark.
#[derive(Clone, Copy, Debug)]
pub struct Mark {
    pub at: Instant,
    pub device: Option<u64>,
}

fn tic(ctx: &mut Ctx, _args: &[Value]) -> RtResult<Value> {
    let device = match ctx.device_timer.as_mut() {
        Some(t) => Some(t.mark().map_err(|e| RtError::new(format!("tic: {e}")))?),
        None => None,
    };
    ctx.timers.push(Mark {
        at: Instant::now(),
        device,
    });
    Ok(Value::Real(0.0))
}

/// `toc()` whose value is used (`t = toc()`): the milliseconds, printing nothing.
fn toc(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    toc_ms(ctx, args).map(|(_, ms)| ms)
}

/// `toc()` as a statement of its own (no output asked for): prints the line
/// `Elapsed time: ... ms` (or the label), as MATLAB's `toc` does.
pub(super) fn toc_all(ctx: &mut Ctx, args: &[Value], nout: usize) -> RtResult<Vec<Value>> {
    let (line, ms) = toc_ms(ctx, args)?;
    if nout == 0 {
        writeln!(ctx.out, "{line}").map_err(|e| RtError::new(format!("toc: cannot print: {e}")))?;
    }
    Ok(vec![ms])
}

/// The milliseconds since the latest `tic`, and the line that reports them.
fn toc_ms(ctx: &mut Ctx, args: &[Value]) -> RtResult<(String, Value)> {
    // The time first: the label and the line are not part of what is measured.
    let now = Instant::now();
    let label = match args.first() {
        None => "Elapsed time".to_string(),
        Some(Value::Str(s)) => s.to_string(),
        Some(v) => rt_bail!("toc: the label must be a string, got {}", v.kind_name()),
    };
    let start = match ctx.timers.len() {
        0 => rt_bail!("toc without tic"),
        1 => ctx.timers[0],
        _ => ctx.timers.pop().unwrap_or(Mark {
            at: now,
            device: None,
        }),
    };
    let ms = match (start.device, ctx.device_timer.as_mut()) {
        (Some(m), Some(t)) => t
            .elapsed_ms(m)
            .map_err(|e| RtError::new(format!("toc: {e}")))?,
        _ => now.saturating_duration_since(start.at).as_secs_f64() * 1000.0,
    };
    Ok((format_line(&label, ms), Value::Real(ctx.prec.round(ms))))
}

fn format_line(label: &str, ms: f64) -> String {
    format!("{label}: {ms:.4} ms")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Prec;

    use crate::builtins::testing::Sink;

    #[test]
    fn tic_toc_prints_as_a_statement_and_returns_ms() {
        let sink = Sink::default();
        let mut c = Ctx::new(
            Prec::Double,
            Box::new(sink.clone()),
            std::env::temp_dir(),
            "t".into(),
        );
        assert_eq!(toc(&mut c, &[]).unwrap_err().message, "toc without tic");
        tic(&mut c, &[]).unwrap();
        tic(&mut c, &[]).unwrap();
        std::thread::sleep(std::time::Duration::from_millis(5));
        let Value::Real(inner) = toc_all(&mut c, &[Value::str("inner")], 0).unwrap()[0] else {
            panic!()
        };
        assert!(inner >= 5.0);
        assert_eq!(c.timers.len(), 1);
        let Value::Real(outer) = toc_all(&mut c, &[], 0).unwrap()[0] else {
            panic!()
        };
        assert!(outer >= inner);
        assert_eq!(c.timers.len(), 1);
        // Its value used (`t = toc()`): nothing printed.
        let Value::Real(used) = toc(&mut c, &[]).unwrap() else {
            panic!()
        };
        assert!(used >= outer);
        let Value::Real(_) = toc_all(&mut c, &[], 1).unwrap()[0] else {
            panic!()
        };
        assert!(toc(&mut c, &[Value::Real(1.0)]).is_err());
        let text = String::from_utf8(sink.0.borrow().clone()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2);
        assert!(
            lines[0].starts_with("inner: ") && lines[0].ends_with(" ms"),
            "{text}"
        );
        assert!(lines[1].starts_with("Elapsed time: "), "{text}");
        assert_eq!(format_line("x", 1.5), "x: 1.5000 ms");
    }
}
