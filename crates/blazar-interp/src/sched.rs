//! `{!sched gpu_index=N}`: the launches after it run on device N of a run over several
//! devices (`--devices`), until the next `{!sched ...}`; `{!sched gpu_index=auto}`
//! gives placement back. A run on one device ignores it.

use crate::error::{RunError, R};
use crate::interp::Interp;
use blazar_diagnostics::Span;

/// The device `args` names: `Some(N)` for `gpu_index=N`, `None` for `gpu_index=auto`.
pub fn parse(args: &str) -> Result<Option<usize>, String> {
    let args = args.trim().trim_end_matches('}').trim();
    let Some(v) = args
        .strip_prefix("gpu_index")
        .map(|r| r.trim_start())
        .and_then(|r| r.strip_prefix('='))
    else {
        return Err(format!(
            "`{{!sched {args}}}`: expected `gpu_index=N` (a device index) or `gpu_index=auto`"
        ));
    };
    match v.trim() {
        "auto" => Ok(None),
        n => n.parse().map(Some).map_err(|_| {
            format!("`{{!sched {args}}}`: `{n}` is neither a device index nor `auto`")
        }),
    }
}

impl Interp<'_> {
    pub(crate) fn sched(&mut self, args: &str, span: Span) -> R<()> {
        let device = parse(args).map_err(|m| RunError::new(span, m))?;
        if let Some(b) = &self.backend {
            let mut b =
                b.0.try_borrow_mut()
                    .map_err(|_| RunError::new(span, "internal error: the backend is busy"))?;
            b.pin_device(device).map_err(|m| RunError::new(span, m))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::parse;

    #[test]
    fn parses_an_index_or_auto() {
        assert_eq!(parse("gpu_index=1"), Ok(Some(1)));
        assert_eq!(parse(" gpu_index = 0 "), Ok(Some(0)));
        assert_eq!(parse("gpu_index=auto"), Ok(None));
        assert!(parse("gpu=1")
            .unwrap_err()
            .contains("expected `gpu_index=N`"));
        assert!(parse("gpu_index=x")
            .unwrap_err()
            .contains("neither a device index"));
    }
}
