//! The session's commands: lines that start with `:`.

use crate::{Reply, Session};
use blazar_diagnostics::Diagnostic;
use std::time::Instant;

pub(crate) const HELP: &str = "\
Type Quasar statements; a block (function, for, if, while, ...) or an open bracket
continues on the next lines. The value of an expression is printed (and kept as `ans`);
variables and functions stay defined for later lines.

  :type EXPR    the type of an expression
  :time STMT    run a statement and print how long it took (kernels finished)
  :device       where kernels run, and the precision of `scalar`
  :who          the workspace variables
  :clear        forget every variable (functions stay)
  :help         this text
  :quit         leave (also Ctrl-D)
";

impl Session {
    /// Runs a `:` command.
    pub(crate) fn command(&mut self, line: &str) -> Reply {
        let (word, rest) = line
            .split_once(char::is_whitespace)
            .map_or((line, ""), |(w, r)| (w, r.trim()));
        match word {
            ":quit" | ":q" | ":exit" => Reply {
                quit: true,
                ..Reply::default()
            },
            ":help" | ":h" | ":?" => {
                self.say(HELP);
                Reply::default()
            }
            ":type" | ":t" if !rest.is_empty() => self.run_input(&format!("print type({rest})\n")),
            ":time" if !rest.is_empty() => {
                let start = Instant::now();
                let reply = self.run_input(&format!("{rest}\n"));
                let synced = self
                    .opts
                    .backend
                    .as_ref()
                    .and_then(|b| b.0.try_borrow_mut().ok().map(|mut b| b.synchronize()));
                let took = start.elapsed().as_secs_f64() * 1e3;
                if !reply.is_error() && !matches!(synced, Some(Err(_))) {
                    self.say(&format!("time: {took:.3} ms\n"));
                }
                reply
            }
            ":device" => {
                let device = self
                    .opts
                    .backend
                    .as_ref()
                    .and_then(|b| b.0.try_borrow().ok().map(|b| b.name()))
                    .unwrap_or("none (kernels cannot run)");
                let bits = match self.ctx.as_ref().map(|c| c.prec) {
                    Some(blazar_runtime::Prec::Double) => 64,
                    _ => 32,
                };
                self.say(&format!(
                    "kernels run on: {device}\nscalar: {bits}-bit float\n"
                ));
                Reply::default()
            }
            ":who" => {
                let names = self.variables();
                let text = if names.is_empty() {
                    "(no variables)\n".to_string()
                } else {
                    format!("{}\n", names.join(" "))
                };
                self.say(&text);
                Reply::default()
            }
            ":clear" => {
                self.workspace.clear();
                Reply::default()
            }
            _ => Reply {
                diagnostics: vec![Diagnostic::global(format!(
                    "unknown command `{line}` (`:help` lists the commands)"
                ))],
                quit: false,
            },
        }
    }
}
