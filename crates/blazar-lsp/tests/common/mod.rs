//! An editor's side of the protocol: the server runs its loop on a thread over
//! in-memory channels, and the test sends and reads JSON-RPC messages as an editor does.

#![allow(dead_code)]

use lsp_server::{Connection, Message, Notification, Request, RequestId};
use serde_json::{json, Value};
use std::time::Duration;

pub struct Client {
    conn: Connection,
    server: Option<std::thread::JoinHandle<()>>,
    next: i32,
    /// Notifications received while waiting for responses.
    notes: Vec<Notification>,
}

impl Client {
    /// Starts a server and goes through `initialize`/`initialized`; returns the
    /// server's capabilities too.
    pub fn start() -> (Client, Value) {
        let (server, conn) = Connection::memory();
        let handle = std::thread::Builder::new()
            .stack_size(64 << 20)
            .spawn(move || blazar_lsp::serve(&server).expect("the server loop ends cleanly"))
            .unwrap();
        let mut c = Client {
            conn,
            server: Some(handle),
            next: 0,
            notes: Vec::new(),
        };
        let init = c.request("initialize", json!({ "capabilities": {} }));
        c.notify("initialized", json!({}));
        (c, init)
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        let n = Notification::new(method.to_string(), params);
        self.conn.sender.send(n.into()).unwrap();
    }

    /// Sends a request and waits for its response's result (panics on an error).
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let resp = self.request_raw(method, params);
        if let Some(e) = resp.error {
            panic!("{method} failed: {} ({})", e.message, e.code);
        }
        resp.result.unwrap_or(Value::Null)
    }

    /// Sends a request and waits for its response.
    pub fn request_raw(&mut self, method: &str, params: Value) -> lsp_server::Response {
        self.next += 1;
        let id = RequestId::from(self.next);
        let r = Request::new(id.clone(), method.to_string(), params);
        self.conn.sender.send(r.into()).unwrap();
        loop {
            match self.recv() {
                Message::Response(resp) if resp.id == id => return resp,
                Message::Notification(n) => self.notes.push(n),
                other => panic!("unexpected message {other:?}"),
            }
        }
    }

    fn recv(&self) -> Message {
        self.conn
            .receiver
            .recv_timeout(Duration::from_secs(60))
            .expect("the server answers within a minute")
    }

    /// The next `publishDiagnostics` for `uri`: its `diagnostics` array.
    pub fn diagnostics(&mut self, uri: &str) -> Vec<Value> {
        loop {
            let found = self.notes.iter().position(|n| {
                n.method == "textDocument/publishDiagnostics" && n.params["uri"] == uri
            });
            if let Some(i) = found {
                let n = self.notes.remove(i);
                return n.params["diagnostics"].as_array().unwrap().clone();
            }
            match self.recv() {
                Message::Notification(n) => self.notes.push(n),
                other => panic!("unexpected message {other:?}"),
            }
        }
    }

    pub fn open(&mut self, uri: &str, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": uri, "languageId": "quasar", "version": 1, "text": text } }),
        );
    }

    /// `shutdown`, then `exit`; the server's loop must end.
    pub fn shutdown(mut self) {
        assert_eq!(self.request("shutdown", Value::Null), Value::Null);
        self.notify("exit", Value::Null);
        self.server.take().unwrap().join().unwrap();
    }
}

/// `{ textDocument, position }` parameters.
pub fn at(uri: &str, line: u32, character: u32) -> Value {
    json!({ "textDocument": { "uri": uri }, "position": { "line": line, "character": character } })
}

/// A fresh folder under the system's temporary one.
pub fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("blazar-lsp-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub fn uri_of(path: &std::path::Path) -> String {
    format!("file://{}", path.display())
}
