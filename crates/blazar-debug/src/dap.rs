//! `blazar debug --dap`: the Debug Adapter Protocol on standard input and output.
//!
//! Messages are JSON bodies after a `Content-Length` header. The session: `initialize`
//! (capabilities), `launch` (`arguments.program`), then the `initialized` event and
//! configuration (`setBreakpoints` with conditions, `setExceptionBreakpoints`) until
//! `configurationDone`, when the program runs. At each stop the adapter sends a
//! `stopped` event and answers `threads` (one per kernel thread of the stopped block,
//! named by position), `stackTrace` (the kernel at its line, then the host frames
//! that launched it), `scopes` (locals, kernel built-ins, shared memory),
//! `variables`, `evaluate` (as `print`), `continue`, `next`, `stepIn`, `stepOut` (to
//! the end of the kernel) and `disconnect`. Host code stops too (breakpoints on host
//! lines of any of the program's files, stepping out of a kernel): one thread `host`,
//! a frame per call under way, each with a `Variables` scope, and `evaluate` in the
//! frame it names. One handler answers both kinds of stop (`Stop`). `setBreakpoints`
//! replaces the breakpoints of its `source` only. Program output and debugger
//! messages become `output` events; the end
//! of the program sends `terminated` and `exited`. Unknown requests get an error
//! response, never a crash.

use crate::{Command, Debugger, StopHandler};
use blazar_cpu::observe::ItemView;
use blazar_interp::HostStop;
use serde_json::{json, Value};
use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};

/// The protocol stream: framed reads and writes, with the outgoing sequence number.
struct Io {
    input: Box<dyn BufRead + Send>,
    output: Box<dyn Write + Send>,
    seq: i64,
}

impl Io {
    /// The next message; `None` at the end of the input or on a malformed frame.
    fn read(&mut self) -> Option<Value> {
        let mut len = None;
        loop {
            let mut line = String::new();
            if self.input.read_line(&mut line).ok()? == 0 {
                return None;
            }
            let line = line.trim();
            if line.is_empty() {
                if len.is_some() {
                    break;
                }
                continue;
            }
            if let Some(n) = line.strip_prefix("Content-Length:") {
                len = n.trim().parse::<usize>().ok();
            }
        }
        let mut body = vec![0u8; len?];
        self.input.read_exact(&mut body).ok()?;
        serde_json::from_slice(&body).ok()
    }

    fn send(&mut self, mut v: Value) {
        self.seq += 1;
        v["seq"] = json!(self.seq);
        let text = v.to_string();
        let _ = write!(self.output, "Content-Length: {}\r\n\r\n{text}", text.len());
        let _ = self.output.flush();
    }
}

/// A DAP session (cheap to clone: the stream is shared).
#[derive(Clone)]
pub struct Dap {
    io: Arc<Mutex<Io>>,
}

fn command_of(req: &Value) -> &str {
    req["command"].as_str().unwrap_or("")
}

impl Dap {
    pub fn new(input: Box<dyn BufRead + Send>, output: Box<dyn Write + Send>) -> Dap {
        Dap {
            io: Arc::new(Mutex::new(Io {
                input,
                output,
                seq: 0,
            })),
        }
    }

    fn io(&self) -> std::sync::MutexGuard<'_, Io> {
        self.io.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn read(&self) -> Option<Value> {
        self.io().read()
    }

    /// Answers request `req`; `Err` sends a failed response with that message.
    pub fn respond(&self, req: &Value, body: Result<Value, String>) {
        let mut v = json!({
            "type": "response",
            "request_seq": req["seq"],
            "command": command_of(req),
            "success": body.is_ok(),
        });
        match body {
            Ok(b) => v["body"] = b,
            Err(m) => v["message"] = json!(m),
        }
        self.io().send(v);
    }

    pub fn event(&self, name: &str, body: Value) {
        self.io()
            .send(json!({"type": "event", "event": name, "body": body}));
    }

    /// Answers `initialize` and requests before `launch`; returns the `launch` request
    /// (to be answered with [`Dap::respond`] once the program is loaded), or `None`
    /// when the client leaves first.
    pub fn start(&self) -> Option<Value> {
        loop {
            let req = self.read()?;
            match command_of(&req) {
                "initialize" => self.respond(
                    &req,
                    Ok(json!({
                        "supportsConfigurationDoneRequest": true,
                        "supportsConditionalBreakpoints": true,
                        "supportsEvaluateForHovers": true,
                    })),
                ),
                "launch" => return Some(req),
                "disconnect" => {
                    self.respond(&req, Ok(json!({})));
                    return None;
                }
                c => self.respond(&req, Err(format!("`{c}` before `launch`"))),
            }
        }
    }

    /// After a successful launch: the `initialized` event, then configuration requests
    /// until `configurationDone` (true) or `disconnect` (false).
    pub fn configure(&self, dbg: &mut Debugger) -> bool {
        self.event("initialized", json!({}));
        loop {
            let Some(req) = self.read() else { return false };
            match command_of(&req) {
                "setBreakpoints" => {
                    let body = set_breakpoints(dbg, &req);
                    self.respond(&req, Ok(body));
                }
                "setExceptionBreakpoints" => self.respond(&req, Ok(json!({}))),
                "threads" => self.respond(&req, Ok(json!({"threads": []}))),
                "configurationDone" => {
                    self.respond(&req, Ok(json!({})));
                    return true;
                }
                "disconnect" => {
                    self.respond(&req, Ok(json!({})));
                    return false;
                }
                c => self.respond(&req, Err(format!("`{c}` is not available before the run"))),
            }
        }
    }

    /// The handler that answers requests at each stop.
    pub fn handler(&self) -> Box<dyn StopHandler> {
        Box::new(self.clone())
    }

    /// A writer whose lines become `output` events of `category` (`stdout`, `console`).
    pub fn output(&self, category: &'static str) -> Box<dyn Write + Send> {
        Box::new(Output {
            dap: self.clone(),
            category,
            buf: Vec::new(),
        })
    }

    /// The program has ended with `code`: `terminated` and `exited`, then requests are
    /// answered (with nothing to show) until `disconnect` or the end of the input.
    pub fn finish(&self, code: i64) {
        self.event("terminated", json!({}));
        self.event("exited", json!({"exitCode": code}));
        while let Some(req) = self.read() {
            match command_of(&req) {
                "disconnect" => {
                    self.respond(&req, Ok(json!({})));
                    return;
                }
                "threads" => self.respond(&req, Ok(json!({"threads": []}))),
                _ => self.respond(&req, Err("the program has finished".into())),
            }
        }
    }
}

fn set_breakpoints(dbg: &mut Debugger, req: &Value) -> Value {
    let wanted: Vec<(u32, Option<String>)> = req["arguments"]["breakpoints"]
        .as_array()
        .map(|bs| {
            bs.iter()
                .map(|b| {
                    let line = b["line"].as_u64().unwrap_or(0).min(u32::MAX as u64) as u32;
                    let cond = b["condition"].as_str().filter(|c| !c.trim().is_empty());
                    (line, cond.map(str::to_string))
                })
                .collect()
        })
        .unwrap_or_default();
    let source = &req["arguments"]["source"];
    let path = (source["path"].as_str())
        .or(source["name"].as_str())
        .unwrap_or_default();
    let ok = dbg.set_breaks(path, &wanted);
    let list: Vec<Value> = (wanted.iter().enumerate())
        .map(|(i, (line, _))| {
            let v = ok.as_ref().is_ok_and(|ok| ok[i]);
            let mut b = json!({"verified": v, "line": line});
            match &ok {
                Ok(_) if !v => b["message"] = json!(format!("no line {line} in {path}")),
                Err(m) => b["message"] = json!(m),
                Ok(_) => {}
            }
            b
        })
        .collect();
    json!({ "breakpoints": list })
}

fn base_name(path: &str) -> String {
    let p = std::path::Path::new(path);
    p.file_name()
        .map_or(path.to_string(), |n| n.to_string_lossy().into_owned())
}

/// Variable references of the kernel scopes.
const LOCALS: i64 = 1;
const BUILTINS: i64 = 2;
const SHARED: i64 = 3;
/// The variables of host frame `n` are reference `HOST + n`.
const HOST: i64 = 4;

fn vars(list: Vec<(String, String)>) -> Value {
    let v: Vec<Value> = (list.into_iter())
        .map(|(n, v)| json!({"name": n, "value": v, "variablesReference": 0}))
        .collect();
    json!({ "variables": v })
}

/// Where the run is stopped: a kernel thread or a host statement.
#[derive(Clone, Copy)]
enum Stop<'s, 'a, 'o, 'h, 'p> {
    Kernel(&'s ItemView<'a, 'o>),
    Host(&'s HostStop<'h, 'p>),
}

impl Dap {
    /// One request at a stop; true when it resumes the run.
    fn at(&self, dbg: &mut Debugger, stop: Stop, req: &Value) -> bool {
        let args = &req["arguments"];
        // The frame a request names (0: the innermost).
        let frame = (args["frameId"].as_u64()).map_or(0, |f| (f as usize).saturating_sub(1));
        if let (Stop::Kernel(view), Some(id)) = (stop, args["threadId"].as_u64()) {
            dbg.set_lane(view, (id as usize).saturating_sub(1));
        }
        let resume = |dbg: &mut Debugger, c: Command| match stop {
            Stop::Kernel(view) => dbg.command(c, Some(view)),
            Stop::Host(at) => dbg.host_command(c, at),
        };
        match command_of(req) {
            "threads" => {
                let ts: Vec<Value> = match stop {
                    Stop::Kernel(view) => (dbg.thread_states(view).into_iter())
                        .map(|t| {
                            let name = format!(
                                "pos {} (blkpos {}) {}",
                                crate::show::list(&t.pos),
                                crate::show::list(&t.blkpos),
                                t.state
                            );
                            json!({"id": t.lane + 1, "name": name})
                        })
                        .collect(),
                    Stop::Host(_) => vec![json!({"id": 1, "name": "host"})],
                };
                self.respond(req, Ok(json!({ "threads": ts })));
            }
            "stackTrace" => {
                let frames = match stop {
                    Stop::Kernel(view) => dbg.kernel_frames(view),
                    Stop::Host(at) => dbg.host_stack(at),
                };
                let list: Vec<Value> = (frames.iter().enumerate())
                    .map(|(i, f)| {
                        json!({
                            "id": i + 1,
                            "name": f.name,
                            "line": f.line,
                            "column": 1,
                            "source": {"name": base_name(&f.file), "path": f.file},
                        })
                    })
                    .collect();
                let n = list.len();
                self.respond(req, Ok(json!({"stackFrames": list, "totalFrames": n})));
            }
            "scopes" => {
                let s = |name: &str, r: i64| json!({"name": name, "variablesReference": r, "expensive": false});
                let scopes = match stop {
                    Stop::Kernel(_) if frame == 0 => vec![
                        s("Locals", LOCALS),
                        s("Kernel built-ins", BUILTINS),
                        s("Shared memory", SHARED),
                    ],
                    // Host frames under a kernel: read when the host stops again.
                    Stop::Kernel(_) => Vec::new(),
                    Stop::Host(_) => vec![s("Variables", HOST + frame as i64)],
                };
                self.respond(req, Ok(json!({ "scopes": scopes })));
            }
            "variables" => {
                let r = args["variablesReference"].as_i64().unwrap_or(0);
                let list = match stop {
                    Stop::Kernel(view) if r == LOCALS => dbg.locals(view),
                    Stop::Kernel(view) if r == BUILTINS => dbg.builtins(view),
                    Stop::Kernel(view) if r == SHARED => (view.shared().into_iter())
                        .map(|a| {
                            let v: Vec<String> = a.values.iter().map(crate::eval::show).collect();
                            (a.name, format!("[{}]", v.join(",")))
                        })
                        .collect(),
                    Stop::Host(at) if r >= HOST => at.variables_in((r - HOST) as usize),
                    _ => Vec::new(),
                };
                self.respond(req, Ok(vars(list)));
            }
            "evaluate" => {
                let text = args["expression"].as_str().unwrap_or("");
                let r = match stop {
                    Stop::Kernel(view) => dbg.evaluate(view, text),
                    Stop::Host(at) => {
                        let scope = crate::eval::HostScope { at, frame };
                        crate::eval::eval(text, &scope).map(|v| crate::eval::show(&v))
                    }
                };
                let r = r.map(|v| json!({"result": v, "variablesReference": 0}));
                self.respond(req, r);
            }
            "setBreakpoints" => {
                let body = set_breakpoints(dbg, req);
                self.respond(req, Ok(body));
            }
            "continue" => {
                self.respond(req, Ok(json!({"allThreadsContinued": true})));
                return resume(dbg, Command::Continue);
            }
            "next" | "stepIn" | "stepOut" => {
                self.respond(req, Ok(json!({})));
                let c = match command_of(req) {
                    "next" => Command::Next,
                    "stepIn" => Command::Step,
                    _ => Command::Finish,
                };
                return resume(dbg, c);
            }
            "pause" => self.respond(req, Ok(json!({}))),
            "disconnect" => {
                self.respond(req, Ok(json!({})));
                return resume(dbg, Command::Quit);
            }
            c => self.respond(req, Err(format!("`{c}` is not supported"))),
        }
        false
    }

    fn stop_event(&self, why: &str, thread: usize) {
        let reason = if why.starts_with("breakpoint") {
            "breakpoint"
        } else {
            "step"
        };
        self.event(
            "stopped",
            json!({
                "reason": reason,
                "description": why,
                "threadId": thread,
                "allThreadsStopped": true,
            }),
        );
    }
}

impl StopHandler for Dap {
    fn stopped(&mut self, dbg: &mut Debugger, view: &ItemView, why: &str) {
        self.stop_event(why, dbg.lane() + 1);
        loop {
            let Some(req) = self.read() else {
                dbg.command(Command::Quit, Some(view));
                return;
            };
            if self.at(dbg, Stop::Kernel(view), &req) {
                return;
            }
        }
    }

    fn host_stopped(&mut self, dbg: &mut Debugger, at: &HostStop, why: &str) {
        self.stop_event(why, 1);
        loop {
            let Some(req) = self.read() else {
                dbg.command(Command::Quit, None);
                return;
            };
            if self.at(dbg, Stop::Host(at), &req) {
                return;
            }
        }
    }
}

/// Lines written become `output` events.
struct Output {
    dap: Dap,
    category: &'static str,
    buf: Vec<u8>,
}

impl Write for Output {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.buf.extend_from_slice(b);
        if self.buf.ends_with(b"\n") {
            self.flush()?;
        }
        Ok(b.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if !self.buf.is_empty() {
            let text = String::from_utf8_lossy(&self.buf).into_owned();
            self.buf.clear();
            self.dap
                .event("output", json!({"category": self.category, "output": text}));
        }
        Ok(())
    }
}
