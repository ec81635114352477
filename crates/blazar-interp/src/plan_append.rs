//! Running a plan's [`StepKind::Append`](crate::plan::StepKind::Append) step,
//! `s = strcat(s, ...)`, without copying `s`.
//!
//! The general path evaluates `strcat`'s arguments (the first a second reference to
//! `s`'s text), joins them into a new string and stores it in `s`: building a string
//! of n pieces in a loop copies n²/2 pieces' bytes. Here the arguments are evaluated
//! in the same order, and when the variable still holds the text read as the first
//! argument and nothing else shares it, the other pieces are appended to that text's
//! own buffer (`Text::get_mut`), whose capacity doubles as it fills. Otherwise a new
//! text is built, as `strcat` does. Both use `builtins::strings::strcat_onto`, so the
//! result, the length check and its error are those of `strcat`.

use crate::error::{At, Flow, R};
use crate::interp::{Frame, Interp};
use blazar_diagnostics::Span;
use blazar_hir::{Expr, Stmt, Var};
use blazar_runtime::builtins::strings::strcat_onto;
use blazar_runtime::{Text, Value};

impl<'p> Interp<'p> {
    #[inline(never)]
    pub(crate) fn run_append(
        &mut self,
        var: Var,
        rest: &'p [Expr],
        at: Span,
        s: &'p Stmt,
        frame: &mut Frame,
    ) -> R<Flow> {
        // The first argument, as the general path reads it.
        let first = match self.var_ref(var, frame) {
            Some(Value::Str(t)) => t.clone(),
            _ => return self.exec_stmt(s, frame),
        };
        let vals = self.eval_args(rest, frame)?;
        let prec = self.prec;
        // The variable's own reference, when it still holds that text: once it is
        // taken, `first` may be the text's only holder.
        let own = match self.slot_mut(var, frame) {
            Some(slot) => match slot {
                Some(Value::Str(t)) if Text::ptr_eq(t, &first) => slot.take(),
                _ => None,
            },
            None => None,
        };
        let took = own.is_some();
        drop(own);
        let mut text = first;
        let r = match text.get_mut() {
            Some(buf) => strcat_onto(buf, &vals, prec),
            None => {
                let mut buf = String::new();
                buf.push_str(&text);
                strcat_onto(&mut buf, &vals, prec).map(|()| text = Text::from(buf))
            }
        };
        self.give_vals(vals);
        // On an error the text is unchanged (`strcat_onto` checks before it appends):
        // the variable gets back what it held.
        if r.is_ok() || took {
            self.write_var(var, frame, Value::Str(text));
        }
        r.at(at)?;
        Ok(Flow::Normal)
    }
}
