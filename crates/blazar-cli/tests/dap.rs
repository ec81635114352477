//! `blazar debug --dap` driven by scripted Debug Adapter Protocol messages on the filter
//! kernel of `tests/debug`: breakpoints, a stop, threads, frames, scopes, variables,
//! evaluation, stepping, the end of the program.

use serde_json::{json, Value};
use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};

fn program(name: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/debug")
        .join(name);
    p.canonicalize().expect("program").display().to_string()
}

/// Sends `requests` (numbered from 1) and returns every message the adapter sent.
fn session(requests: &[Value]) -> Vec<Value> {
    let mut input = Vec::new();
    for (i, r) in requests.iter().enumerate() {
        let mut r = r.clone();
        r["seq"] = json!(i + 1);
        r["type"] = json!("request");
        let body = r.to_string();
        write!(input, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_blazar"))
        .args(["debug", "--dap"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("blazar starts");
    child.stdin.take().unwrap().write_all(&input).unwrap();
    let mut out = Vec::new();
    child.stdout.take().unwrap().read_to_end(&mut out).unwrap();
    child.wait().unwrap();
    let text = String::from_utf8(out).expect("UTF-8");
    let mut msgs = Vec::new();
    let mut rest = text.as_str();
    while let Some(i) = rest.find("Content-Length: ") {
        rest = &rest[i + 16..];
        let end = rest.find("\r\n\r\n").expect("header end");
        let n: usize = rest[..end].trim().parse().expect("length");
        let body = &rest[end + 4..end + 4 + n];
        msgs.push(serde_json::from_str(body).expect("JSON body"));
        rest = &rest[end + 4 + n..];
    }
    msgs
}

fn response(msgs: &[Value], seq: u64) -> &Value {
    msgs.iter()
        .find(|m| m["type"] == "response" && m["request_seq"] == seq)
        .unwrap_or_else(|| panic!("no response to request {seq} in {msgs:#?}"))
}

fn events<'a>(msgs: &'a [Value], name: &str) -> Vec<&'a Value> {
    msgs.iter().filter(|m| m["event"] == name).collect()
}

#[test]
fn a_session_on_the_filter_kernel() {
    let p = program("row_filter.q");
    let msgs = session(&[
        json!({"command": "initialize", "arguments": {"adapterID": "blazar"}}),
        json!({"command": "launch", "arguments": {"program": p}}),
        json!({"command": "setBreakpoints", "arguments": {"source": {"path": p},
               "breakpoints": [{"line": 12}, {"line": 999}]}}),
        json!({"command": "configurationDone"}),
        json!({"command": "threads"}),
        json!({"command": "stackTrace", "arguments": {"threadId": 2}}),
        json!({"command": "scopes", "arguments": {"frameId": 1}}),
        json!({"command": "variables", "arguments": {"variablesReference": 1}}),
        json!({"command": "variables", "arguments": {"variablesReference": 2}}),
        json!({"command": "variables", "arguments": {"variablesReference": 3}}),
        json!({"command": "evaluate", "arguments": {"expression": "tile[0, 2] + 1"}}),
        json!({"command": "evaluate", "arguments": {"expression": "nosuch"}}),
        json!({"command": "next", "arguments": {"threadId": 2}}),
        json!({"command": "evaluate", "arguments": {"expression": "blkpos"}}),
        json!({"command": "setBreakpoints", "arguments": {"source": {"path": p},
               "breakpoints": []}}),
        json!({"command": "continue", "arguments": {"threadId": 2}}),
        json!({"command": "disconnect"}),
    ]);
    assert_eq!(
        response(&msgs, 1)["body"]["supportsConditionalBreakpoints"],
        true
    );
    assert_eq!(response(&msgs, 2)["success"], true);
    assert_eq!(events(&msgs, "initialized").len(), 1);
    let bps = &response(&msgs, 3)["body"]["breakpoints"];
    assert_eq!(bps[0]["verified"], true);
    assert_eq!(bps[1]["verified"], false);
    let stops = events(&msgs, "stopped");
    assert_eq!(stops.len(), 2);
    assert_eq!(stops[0]["body"]["reason"], "breakpoint");
    assert_eq!(stops[1]["body"]["reason"], "step");
    assert_eq!(stops[1]["body"]["threadId"], 2);
    let threads = response(&msgs, 5)["body"]["threads"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(threads.len(), 4);
    assert_eq!(
        threads[1],
        json!({"id": 2, "name": "pos [0,1] (blkpos [0,1]) active"})
    );
    let frame = &response(&msgs, 6)["body"]["stackFrames"][0];
    assert_eq!(frame["name"], "smooth_rows");
    assert_eq!(frame["line"], 12);
    assert_eq!(frame["source"]["name"], "row_filter.q");
    let scopes = &response(&msgs, 7)["body"]["scopes"];
    assert_eq!(scopes[2]["name"], "Shared memory");
    let locals = &response(&msgs, 8)["body"]["variables"];
    assert_eq!(locals[0]["name"], "acc");
    let builtins = &response(&msgs, 9)["body"]["variables"];
    assert_eq!(
        builtins[0],
        json!({"name": "pos", "value": "[0,1]", "variablesReference": 0})
    );
    assert_eq!(builtins[5]["name"], "barrier");
    let shared = &response(&msgs, 10)["body"]["variables"];
    assert_eq!(shared[0]["value"], "[0,0,1,2,3,4]");
    assert_eq!(response(&msgs, 11)["body"]["result"], "2");
    let bad = response(&msgs, 12);
    assert_eq!(bad["success"], false);
    assert_eq!(bad["message"], "no variable `nosuch` here");
    assert_eq!(response(&msgs, 14)["body"]["result"], "[0,1]");
    assert_eq!(response(&msgs, 16)["success"], true);
    let out = events(&msgs, "output");
    assert!(out.iter().any(|e| e["body"]["category"] == "stdout"
        && e["body"]["output"]
            .as_str()
            .unwrap()
            .starts_with("[ [0.33333334,1,2,3")));
    assert_eq!(events(&msgs, "exited")[0]["body"]["exitCode"], 0);
    assert_eq!(response(&msgs, 17)["success"], true);
}

#[test]
fn bad_requests_get_error_responses() {
    let msgs = session(&[
        json!({"command": "threads"}),
        json!({"command": "launch", "arguments": {"program": "/no/such/file.q"}}),
        json!({"command": "disconnect"}),
    ]);
    assert_eq!(response(&msgs, 1)["success"], false);
    let launch = response(&msgs, 2);
    assert_eq!(launch["success"], false);
    assert!(launch["message"].as_str().unwrap().contains("file.q"));
}

#[test]
fn host_stops_and_stepping_into_the_kernel() {
    let p = program("histogram.q");
    let msgs = session(&[
        json!({"command": "initialize"}),
        json!({"command": "launch", "arguments": {"program": p}}),
        json!({"command": "setBreakpoints", "arguments": {"source": {"path": p},
               "breakpoints": [{"line": 12, "condition": "numel(vals) > 0"}, {"line": 13}]}}),
        json!({"command": "configurationDone"}),
        json!({"command": "threads"}),
        json!({"command": "stackTrace", "arguments": {"threadId": 1}}),
        json!({"command": "scopes", "arguments": {"frameId": 1}}),
        json!({"command": "variables", "arguments": {"variablesReference": 4}}),
        json!({"command": "stepIn", "arguments": {"threadId": 1}}),
        json!({"command": "stackTrace", "arguments": {"threadId": 1}}),
        json!({"command": "continue", "arguments": {"threadId": 1}}),
        json!({"command": "evaluate", "arguments": {"expression": "bins[1]"}}),
        json!({"command": "continue", "arguments": {"threadId": 1}}),
        json!({"command": "disconnect"}),
    ]);
    let stops = events(&msgs, "stopped");
    assert_eq!(stops.len(), 3, "{msgs:#?}");
    // The condition calls a function the debugger does not evaluate: it says so and
    // stops there.
    assert!(events(&msgs, "output")
        .iter()
        .any(|e| e["body"]["category"] == "console"
            && e["body"]["output"]
                .as_str()
                .unwrap()
                .contains("condition `numel(vals) > 0`")));
    assert_eq!(response(&msgs, 5)["body"]["threads"][0]["name"], "host");
    let frame = &response(&msgs, 6)["body"]["stackFrames"][0];
    assert_eq!(
        (frame["name"].as_str(), frame["line"].as_u64()),
        (Some("script"), Some(12))
    );
    assert_eq!(response(&msgs, 7)["body"]["scopes"][0]["name"], "Variables");
    let vars = response(&msgs, 8)["body"]["variables"]
        .as_array()
        .unwrap()
        .clone();
    assert!(vars
        .iter()
        .any(|v| v["name"] == "vals" && v["value"] == "[3,1,3,0,2,3,1,9]"));
    let kernel = &response(&msgs, 10)["body"]["stackFrames"][0];
    assert_eq!(
        (kernel["name"].as_str(), kernel["line"].as_u64()),
        (Some("count_values"), Some(4))
    );
    assert_eq!(response(&msgs, 12)["body"]["result"], "2");
    assert!(events(&msgs, "output")
        .iter()
        .any(|e| e["body"]["output"] == "[1,2,1,3]\n"));
}

#[test]
fn module_breakpoints_and_the_host_call_stack() {
    let p = program("modules.q");
    let lib = program("modules_lib.q");
    let msgs = session(&[
        json!({"command": "initialize"}),
        json!({"command": "launch", "arguments": {"program": p}}),
        json!({"command": "setBreakpoints", "arguments": {"source": {"path": lib},
               "breakpoints": [{"line": 7}, {"line": 3}]}}),
        json!({"command": "setBreakpoints", "arguments": {"source": {"path": "/no/such.q"},
               "breakpoints": [{"line": 1}]}}),
        json!({"command": "configurationDone"}),
        json!({"command": "stackTrace", "arguments": {"threadId": 1}}),
        json!({"command": "scopes", "arguments": {"frameId": 2}}),
        json!({"command": "variables", "arguments": {"variablesReference": 5}}),
        json!({"command": "evaluate", "arguments": {"expression": "factor * 2", "frameId": 2}}),
        json!({"command": "continue", "arguments": {"threadId": 1}}),
        json!({"command": "stackTrace", "arguments": {"threadId": 1}}),
        json!({"command": "scopes", "arguments": {"frameId": 3}}),
        json!({"command": "continue", "arguments": {"threadId": 1}}),
        json!({"command": "disconnect"}),
    ]);
    let bps = &response(&msgs, 3)["body"]["breakpoints"];
    assert_eq!(
        (bps[0]["verified"].as_bool(), bps[1]["verified"].as_bool()),
        (Some(true), Some(true))
    );
    let bad = &response(&msgs, 4)["body"]["breakpoints"][0];
    assert_eq!(bad["verified"], false);
    assert!(bad["message"]
        .as_str()
        .unwrap()
        .starts_with("no file `/no/such.q` in the program"));
    // The host stop in the module: three frames, innermost first.
    let host = &response(&msgs, 6)["body"];
    assert_eq!(host["totalFrames"], 3);
    let names: Vec<&str> = (host["stackFrames"].as_array().unwrap().iter())
        .map(|f| f["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["launch_times", "scaled", "script"]);
    assert_eq!(host["stackFrames"][0]["source"]["name"], "modules_lib.q");
    assert_eq!(host["stackFrames"][1]["line"], 13);
    assert_eq!(host["stackFrames"][2]["source"]["name"], "modules.q");
    assert_eq!(
        response(&msgs, 7)["body"]["scopes"][0]["variablesReference"],
        5
    );
    let vars = response(&msgs, 8)["body"]["variables"]
        .as_array()
        .unwrap()
        .clone();
    assert!(
        vars.iter()
            .any(|v| v["name"] == "factor" && v["value"] == "3"),
        "{vars:?}"
    );
    assert_eq!(response(&msgs, 9)["body"]["result"], "6");
    // The kernel stop: the kernel's frame above the host frames of its launch.
    let k = &response(&msgs, 11)["body"];
    let names: Vec<&str> = (k["stackFrames"].as_array().unwrap().iter())
        .map(|f| f["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["times_k", "launch_times", "scaled", "script"]);
    assert_eq!(k["stackFrames"][0]["line"], 3);
    assert_eq!(k["stackFrames"][1]["line"], 8);
    assert_eq!(response(&msgs, 12)["body"]["scopes"], json!([]));
    assert_eq!(events(&msgs, "exited")[0]["body"]["exitCode"], 0);
}

/// The random schedule from the launch configuration (`"seed"`): at a breakpoint on
/// `c[0] = c[0] + 1` in a block of 16 threads (`tests/races/block_counter.q`), the
/// threads that run are `active` at line 7; the others wait, each at its own line.
#[test]
fn the_random_schedule_gives_each_thread_its_own_line() {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/races/block_counter.q")
        .canonicalize()
        .expect("program")
        .display()
        .to_string();
    let run = |seed: u64| {
        let mut reqs = vec![
            json!({"command": "initialize", "arguments": {"adapterID": "blazar"}}),
            json!({"command": "launch", "arguments": {"program": p, "seed": seed}}),
            json!({"command": "setBreakpoints", "arguments": {"source": {"path": p},
                   "breakpoints": [{"line": 7}]}}),
            json!({"command": "configurationDone"}),
            json!({"command": "threads"}),
        ];
        for t in 1..=16 {
            reqs.push(json!({"command": "stackTrace", "arguments": {"threadId": t}}));
        }
        reqs.push(json!({"command": "disconnect"}));
        session(&reqs)
    };
    let (seed, msgs) = (1..=16)
        .map(|s| (s, run(s)))
        .find(|(_, m)| {
            response(m, 5)["body"]["threads"]
                .as_array()
                .is_some_and(|ts| {
                    ts.iter()
                        .any(|t| t["name"].as_str().unwrap_or("").ends_with("waiting"))
                })
        })
        .expect("a seed whose stop has waiting threads");
    assert_eq!(run(seed), msgs, "seed {seed} is reproducible");
    let stops = events(&msgs, "stopped");
    assert_eq!(stops[0]["body"]["reason"], "breakpoint");
    let threads = response(&msgs, 5)["body"]["threads"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(threads.len(), 16);
    let current = stops[0]["body"]["threadId"].as_u64().unwrap() as usize;
    for (i, t) in threads.iter().enumerate() {
        let name = t["name"].as_str().unwrap();
        let line = &response(&msgs, 6 + i as u64)["body"]["stackFrames"][0]["line"];
        if name.ends_with("active") {
            assert_eq!(line, 7, "{name}");
        } else {
            assert!(line == 6 || line == 7, "{name}: line {line}");
        }
        if i + 1 == current {
            assert!(name.ends_with("active"), "{name}");
        }
    }
}
