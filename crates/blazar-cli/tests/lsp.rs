//! `blazar lsp` speaks the Language Server Protocol on standard input and output: the
//! binary is started as an editor starts it, and messages go through its pipes with
//! their `Content-Length` headers.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

fn send(to: &mut impl Write, msg: Value) {
    let body = msg.to_string();
    write!(to, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
    to.flush().unwrap();
}

fn recv(from: &mut impl BufRead) -> Value {
    let mut len = 0;
    loop {
        let mut line = String::new();
        assert!(from.read_line(&mut line).unwrap() > 0, "the server hung up");
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(n) = line.strip_prefix("Content-Length: ") {
            len = n.parse().unwrap();
        }
    }
    let mut body = vec![0; len];
    from.read_exact(&mut body).unwrap();
    serde_json::from_slice(&body).unwrap()
}

#[test]
fn blazar_lsp_answers_over_stdio_and_exits() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_blazar"))
        .arg("lsp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let mut output = BufReader::new(child.stdout.take().unwrap());
    send(
        &mut input,
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}),
    );
    let init = recv(&mut output);
    assert_eq!(init["id"], 1);
    assert_eq!(init["result"]["capabilities"]["hoverProvider"], true);
    send(
        &mut input,
        json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
    );
    let uri = "file:///nonexistent-dir/prog.q";
    send(
        &mut input,
        json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
        "textDocument": {"uri": uri, "languageId": "quasar", "version": 1, "text": "x = 1\nprint x + y\n"}}}),
    );
    let diags = recv(&mut output);
    assert_eq!(diags["method"], "textDocument/publishDiagnostics");
    assert_eq!(
        diags["params"]["diagnostics"][0]["range"]["start"],
        json!({"line": 1, "character": 10})
    );
    send(
        &mut input,
        json!({"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover", "params": {
        "textDocument": {"uri": uri}, "position": {"line": 1, "character": 6}}}),
    );
    let hover = recv(&mut output);
    assert_eq!(hover["id"], 2);
    assert!(hover["result"]["contents"]["value"]
        .as_str()
        .unwrap()
        .contains("x : int"));
    send(
        &mut input,
        json!({"jsonrpc": "2.0", "id": 3, "method": "shutdown"}),
    );
    assert_eq!(recv(&mut output)["id"], 3);
    send(&mut input, json!({"jsonrpc": "2.0", "method": "exit"}));
    let status = child.wait().unwrap();
    assert!(status.success(), "{status}");
}
