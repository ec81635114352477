//! Applies what a form's page reports (`blazar_runtime::ui`): between two statements,
//! when the page's host has flagged an event (or a callback was queued), each event
//! sets its control's `.value` and the control's callbacks run, in the program's own
//! thread, as Quasar's event loop runs them. After `frm.wait()`, and when the program
//! ends with a page open, the run serves the page here until it is closed or a signal
//! stops the run.

use crate::error::{RunError, R};
use crate::interp::Interp;
use blazar_diagnostics::Span;
use blazar_runtime::ui::FromPage;
use std::io::Write as _;
use std::time::Duration;

/// How long one wait for the page lasts before the run looks at its signals again.
const WAIT_SLICE: Duration = Duration::from_millis(50);

impl<'p> Interp<'p> {
    /// Runs what is due (see the module's text). `span`: where callbacks are called.
    pub(crate) fn ui_events(&mut self, span: Span) -> R<()> {
        if self.in_callbacks {
            return Ok(());
        }
        self.in_callbacks = true;
        let r = self.ui_serve(span);
        self.in_callbacks = false;
        r
    }

    fn ui_serve(&mut self, span: Span) -> R<()> {
        loop {
            self.ctx.ui.clear_due();
            let events = self.ctx.ui.host().events();
            self.ui_apply(events, span)?;
            if !self.ctx.ui.waiting {
                return Ok(());
            }
            if !self.ctx.ui.page_open() {
                self.ctx.ui.waiting = false;
                return Ok(());
            }
            self.ctx.ui.sync_values();
            blazar_runtime::builtins::figure::display::flush(&mut self.ctx)
                .map_err(|e| RunError::new(span, e.message))?;
            if let Some(sig) = &self.interrupt {
                let sig = sig.load(std::sync::atomic::Ordering::Relaxed);
                if sig != 0 {
                    return Err(RunError::new(span, crate::interp::interrupt_message(sig)));
                }
            }
            // What callbacks printed reaches a pipe while the page is served.
            let _ = self.ctx.out.flush();
            let events = self.ctx.ui.host().wait(WAIT_SLICE);
            self.ui_apply(events, span)?;
        }
    }

    /// Applies events to their controls, then runs the callbacks they (and earlier
    /// additions) queued, in order.
    fn ui_apply(&mut self, events: Vec<FromPage>, span: Span) -> R<()> {
        for e in &events {
            self.ctx.ui.apply(e);
        }
        while !self.ctx.ui.queue.is_empty() {
            let queue = std::mem::take(&mut self.ctx.ui.queue);
            for f in queue {
                self.call_value(&f, Vec::new(), 0, span)?;
            }
        }
        Ok(())
    }

    /// At the end of the program: runs the callbacks still queued and, with a page
    /// open, serves it until it is closed.
    pub(crate) fn ui_finish(&mut self, span: Span) -> R<()> {
        if self.ctx.ui.page_open() {
            self.ctx.ui.waiting = true;
        }
        if self.ctx.ui.waiting || !self.ctx.ui.queue.is_empty() || self.ctx.ui.due() {
            self.ui_events(span)?;
        }
        Ok(())
    }
}
