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
  :who          the workspace variables (`whos`: with sizes, types and bytes)
  help NAME     the documentation of a function (also `?NAME`); `help` alone lists
                them all, `help --search WORD` searches them
  :clear        forget every variable (functions stay)
  :help         this text
  :quit         leave (also Ctrl-D)
";

impl Session {
    /// `help`, `help NAME`, `?NAME`, `help --search WORD` and `whos`: what MATLAB and
    /// IPython users type, answered as commands (`None`: the line is Quasar code).
    pub(crate) fn help_line(&mut self, line: &str) -> Option<Reply> {
        let t = line.trim();
        let topic = if let Some(rest) = t.strip_prefix('?') {
            Some(rest.trim())
        } else if t == "help" {
            Some("")
        } else {
            t.strip_prefix("help ").map(str::trim)
        };
        let text = match topic {
            Some("") => Ok(blazar_help::overview()),
            Some(rest) => match rest.strip_prefix("--search") {
                Some(word) if !word.trim().is_empty() => {
                    let hits = blazar_help::search_text(word.trim());
                    if hits.is_empty() {
                        Err(format!("no function mentions `{}`", word.trim()))
                    } else {
                        Ok(hits)
                    }
                }
                _ => {
                    blazar_help::help_text(rest.trim_matches(|c| c == '(' || c == ')' || c == '"'))
                }
            },
            None if t == "whos" => Ok(self.whos()),
            None => return None,
        };
        Some(match text {
            Ok(text) => {
                self.say(&text);
                Reply::default()
            }
            Err(msg) => Reply {
                diagnostics: vec![Diagnostic::global(msg)],
                quit: false,
            },
        })
    }

    /// The workspace as a table: name, size, type and bytes of each variable.
    pub(crate) fn whos(&self) -> String {
        if self.workspace.is_empty() {
            return "(no variables)\n".to_string();
        }
        let prec = self
            .ctx
            .as_ref()
            .map_or(blazar_runtime::Prec::Single, |c| c.prec);
        let rows: Vec<[String; 4]> = self
            .workspace
            .iter()
            .map(|(name, v)| {
                let (size, ty, bytes) = describe(v, prec);
                [name.clone(), size, ty, bytes.to_string()]
            })
            .collect();
        let head = ["name", "size", "type", "bytes"];
        let mut w = head.map(str::len);
        for r in &rows {
            for (k, c) in r.iter().enumerate() {
                w[k] = w[k].max(c.chars().count());
            }
        }
        let line = |r: [&str; 4]| {
            format!(
                "  {:<a$}  {:<b$}  {:<c$}  {:>d$}\n",
                r[0],
                r[1],
                r[2],
                r[3],
                a = w[0],
                b = w[1],
                c = w[2],
                d = w[3]
            )
        };
        let mut s = line(head);
        for r in &rows {
            s.push_str(&line([&r[0], &r[1], &r[2], &r[3]]));
        }
        s
    }

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
            ":whos" => {
                let text = self.whos();
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

/// The size (`2x3`), type and bytes of a workspace value, as `whos` shows them.
fn describe(v: &blazar_runtime::Value, prec: blazar_runtime::Prec) -> (String, String, usize) {
    use blazar_runtime::Value;
    let real = match prec {
        blazar_runtime::Prec::Single => 4,
        blazar_runtime::Prec::Double => 8,
    };
    match v {
        Value::Real(_) => ("1x1".into(), "scalar".into(), real),
        Value::Int(_, t) => (
            "1x1".into(),
            t.name().into(),
            blazar_runtime::ElemType::Int(*t).size_bytes(),
        ),
        Value::Complex(_) => ("1x1".into(), "cscalar".into(), 2 * real),
        Value::Str(s) => (format!("1x{}", s.chars().count()), "string".into(), s.len()),
        Value::Array(a) => {
            let a = a.borrow();
            let dims: Vec<String> = a.dims().iter().map(usize::to_string).collect();
            let size = match a.dims().len() {
                1 => format!("1x{}", dims[0]),
                _ => dims.join("x"),
            };
            let elem = a.elem();
            let kind = match a.dims().len() {
                1 => "vec",
                2 => "mat",
                3 => "cube",
                _ => "cube{N}",
            };
            let ty = match elem {
                blazar_runtime::ElemType::Cell => "cell".to_string(),
                e if e.name() == "scalar" => kind.to_string(),
                e => format!("{kind}[{}]", e.name()),
            };
            let n: usize = a.dims().iter().product();
            let bytes = match elem {
                blazar_runtime::ElemType::Cell => 8 * n,
                e => e.size_bytes() * n,
            };
            (size, ty, bytes)
        }
        Value::Func(_) => ("1x1".into(), "function".into(), 0),
        Value::Object(_) => ("1x1".into(), "object".into(), 0),
    }
}
