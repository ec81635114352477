//! How long the language server takes to answer a keystroke in a 2,000-line file
//! (`benches/README.md`, "Language server"). Not a test: it prints times.
//!
//! The server runs its loop over in-memory channels, as in the protocol tests. The
//! program is generated: host functions with loops and lambdas, kernels launched with
//! `parallel_do`, a class, and a script calling them, importing a bundled module. Each
//! keystroke is an incremental `didChange` of one character followed by a request
//! (completion, hover or signature help, in turn), as an editor sends them while
//! typing; a keystroke's time runs from sending the change to receiving the response,
//! and to receiving the diagnostics published for it.

use lsp_server::{Connection, Message, Notification, Request, RequestId};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// About `lines` lines of Quasar that check without errors.
fn program(lines: usize) -> String {
    let mut s = String::from(
        "import \"imfilter.q\"\n\ntype particle : class\n    pos : vec\n    mass : scalar\nend\n\n",
    );
    let mut i = 0;
    while s.lines().count() < lines.saturating_sub(12) {
        s += &format!(
            "% Smooths x with weight w (block {i}).
function y : vec = smooth{i}(x : vec, w : scalar)
    n = numel(x)
    y = zeros(n)
    for k = 1..n - 2
        y[k] = w * x[k - 1] + (1 - 2 * w) * x[k] + w * x[k + 1]
    end
    g = (t : scalar) -> t * w
    y = y + g(0.5)
end

function [] = __kernel__ scale{i}(a : vec'unchecked, f : scalar, pos : int)
    a[pos] = a[pos] * f
end

v{i} = linspace(0, 1, 64)
r{i} = smooth{i}(v{i}, 0.25)
parallel_do(numel(r{i}), r{i}, 2.0, scale{i})
p{i} = particle(pos := r{i}, mass := 1.0)
total{i} = sum(p{i}.pos) * p{i}.mass

"
        );
        i += 1;
    }
    s += "print total0\n";
    s
}

const METHODS: [&str; 3] = [
    "textDocument/completion",
    "textDocument/hover",
    "textDocument/signatureHelp",
];

/// The CPU time this process has used (user and system), immune to other processes
/// taking the cores that wall-clock times suffer from.
fn cpu_time() -> Duration {
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: getrusage writes the struct it is given.
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) };
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    tv(u.ru_utime) + tv(u.ru_stime)
}

struct Client {
    conn: Connection,
    next: i32,
}

impl Client {
    fn send(&self, m: Message) {
        self.conn.sender.send(m).unwrap();
    }

    fn notify(&self, method: &str, params: Value) {
        self.send(Notification::new(method.into(), params).into());
    }

    fn request(&mut self, method: &str, params: Value) -> RequestId {
        self.next += 1;
        let id = RequestId::from(self.next);
        self.send(Request::new(id.clone(), method.into(), params).into());
        id
    }

    /// Waits for the response to `id`, then for the diagnostics of that version;
    /// the times of both since `start`.
    fn wait(&self, id: &RequestId, version: i32, start: Instant) -> (Duration, Duration) {
        let mut response = None;
        loop {
            match self
                .conn
                .receiver
                .recv_timeout(Duration::from_secs(60))
                .unwrap()
            {
                Message::Response(r) if &r.id == id => {
                    assert!(r.error.is_none(), "{:?}", r.error);
                    response = Some(start.elapsed());
                }
                Message::Notification(n)
                    if n.method == "textDocument/publishDiagnostics"
                        && n.params["version"] == version =>
                {
                    return (response.expect("the response comes first"), start.elapsed());
                }
                _ => {}
            }
        }
    }
}

fn stats(name: &str, mut times: Vec<Duration>) {
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let at = |q: f64| ms(times[((times.len() - 1) as f64 * q).round() as usize]);
    println!(
        "{name:<40} median {:6.2} ms   p90 {:6.2} ms   max {:6.2} ms   ({} keystrokes)",
        at(0.5),
        at(0.9),
        ms(*times.last().unwrap()),
        times.len()
    );
}

fn main() {
    let lines: usize = std::env::var("BLAZAR_LSP_BENCH_LINES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2000);
    let text = program(lines);
    let n_lines = text.lines().count();
    let dir = std::env::temp_dir().join(format!("blazar-lsp-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("big.q");
    std::fs::write(&path, &text).unwrap();
    let uri = format!("file://{}", path.display());

    let (server, conn) = Connection::memory();
    let handle = std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || blazar_lsp::serve(&server).unwrap())
        .unwrap();
    let mut c = Client { conn, next: 0 };
    let id = c.request("initialize", json!({ "capabilities": {} }));
    loop {
        if let Message::Response(r) = c.conn.receiver.recv().unwrap() {
            assert_eq!(r.id, id);
            break;
        }
    }
    c.notify("initialized", json!({}));
    let start = Instant::now();
    c.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": uri, "languageId": "quasar", "version": 1, "text": text } }),
    );
    let id = c.request(
        "textDocument/documentSymbol",
        json!({ "textDocument": { "uri": uri } }),
    );
    let (open, _) = c.wait(&id, 1, start);
    println!(
        "blazar-lsp keystroke benchmark: {n_lines} lines, {} bytes",
        text.len()
    );
    println!(
        "{:<40} {:6.2} ms",
        "open (first analysis)",
        open.as_secs_f64() * 1e3
    );

    // Type `q = smooth0(v0, 0.5)` on a new line in the middle of the file, one
    // character per keystroke, then delete it again, twice; each keystroke asks one
    // question (completion, hover, signature help in turn).
    let line = (n_lines / 2) as u32;
    let typed = "q = smooth0(v0, 0.5)";
    let mut version = 1;
    let edit = |c: &mut Client, version: &mut i32, range: Value, text: &str| {
        *version += 1;
        c.notify(
            "textDocument/didChange",
            json!({
                "textDocument": { "uri": uri, "version": *version },
                "contentChanges": [{ "range": range, "text": text }]
            }),
        );
    };
    let point = |col: usize| json!({ "line": line, "character": col });
    edit(
        &mut c,
        &mut version,
        json!({ "start": point(0), "end": point(0) }),
        "\n",
    );
    let mut respond: [Vec<Duration>; 3] = Default::default();
    let mut diagnose = Vec::new();
    let mut k = 0;
    let cpu_start = cpu_time();
    for _ in 0..2 {
        let steps = (0..typed.len())
            .map(|i| (i, true))
            .chain((0..typed.len()).rev().map(|i| (i, false)));
        for (i, typing) in steps {
            let start = Instant::now();
            if typing {
                edit(
                    &mut c,
                    &mut version,
                    json!({ "start": point(i), "end": point(i) }),
                    &typed[i..i + 1],
                );
            } else {
                edit(
                    &mut c,
                    &mut version,
                    json!({ "start": point(i), "end": point(i + 1) }),
                    "",
                );
            }
            let col = if typing { i + 1 } else { i };
            let pos = json!({ "textDocument": { "uri": uri }, "position": point(col) });
            let method = METHODS[k % 3];
            let id = c.request(method, pos);
            let (r, d) = c.wait(&id, version, start);
            respond[k % 3].push(r);
            diagnose.push(d);
            k += 1;
        }
    }
    let cpu = cpu_time() - cpu_start;
    for (m, times) in METHODS.iter().zip(respond) {
        stats(
            &format!(
                "keystroke -> {} response",
                m.trim_start_matches("textDocument/")
            ),
            times,
        );
    }
    stats("keystroke -> diagnostics published", diagnose);
    println!(
        "{:<40} {:6.2} ms   (server and client, all threads, over {k} keystrokes)",
        "CPU time per keystroke",
        cpu.as_secs_f64() * 1e3 / k as f64
    );
    let id = c.request("shutdown", Value::Null);
    loop {
        if let Message::Response(r) = c.conn.receiver.recv().unwrap() {
            if r.id == id {
                break;
            }
        }
    }
    c.notify("exit", Value::Null);
    handle.join().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}
