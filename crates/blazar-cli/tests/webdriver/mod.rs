//! What the browser tests share: a WebDriver client for ChromeDriver (JSON over HTTP,
//! spoken over a plain `TcpStream`), a `blazar run --ui browser` serving a program, and
//! small helpers. Each test file that drives a page declares `mod webdriver;`.

#![allow(dead_code)]

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub fn find(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    for dir in std::env::split_paths(&path) {
        for n in names {
            let p = dir.join(n);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    None
}

pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// One HTTP/1.1 request to 127.0.0.1:`port`: (status, body).
pub fn http(
    port: u16,
    method: &str,
    path: &str,
    body: Option<&Value>,
) -> std::io::Result<(u16, String)> {
    let mut s = TcpStream::connect(("127.0.0.1", port))?;
    s.set_read_timeout(Some(Duration::from_secs(60)))?;
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )?;
    // Read the head, then as many bytes as it announces (a server may keep the
    // connection open), or to the end.
    let mut raw = Vec::new();
    let mut buf = [0u8; 65536];
    loop {
        let n = s.read(&mut buf)?;
        if n == 0 {
            break;
        }
        raw.extend_from_slice(&buf[..n]);
        let text = String::from_utf8_lossy(&raw).to_string();
        if let Some((head, rest)) = text.split_once("\r\n\r\n") {
            let len = head.lines().find_map(|l| {
                let (k, v) = l.split_once(':')?;
                k.eq_ignore_ascii_case("content-length")
                    .then(|| v.trim().parse::<usize>().ok())
                    .flatten()
            });
            if len.is_some_and(|len| rest.len() >= len) {
                break;
            }
        }
    }
    let text = String::from_utf8_lossy(&raw).to_string();
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let (head, rest) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let body = if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        dechunk(rest)
    } else {
        rest.to_string()
    };
    Ok((status, body))
}

pub fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(&rest[..n]);
        s = rest[n..].trim_start_matches("\r\n");
    }
    out
}

/// A WebDriver session of ChromeDriver on `port`.
pub struct Driver {
    pub port: u16,
    pub session: String,
}

impl Driver {
    pub fn cmd(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let path = format!("/session/{}{path}", self.session);
        let (status, text) = http(self.port, method, &path, body.as_ref()).expect("webdriver");
        let v: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
        assert_eq!(status, 200, "{method} {path}: {text}");
        v["value"].clone()
    }

    pub fn script(&self, code: &str) -> Value {
        self.cmd(
            "POST",
            "/execute/sync",
            Some(json!({"script": code, "args": []})),
        )
    }

    pub fn element(&self, css: &str) -> String {
        let v = self.cmd(
            "POST",
            "/element",
            Some(json!({"using": "css selector", "value": css})),
        );
        v.as_object()
            .and_then(|o| o.values().next())
            .and_then(Value::as_str)
            .expect("an element id")
            .to_string()
    }

    pub fn screenshot(&self, file: &Path) {
        let v = self.cmd("GET", "/screenshot", None);
        let png = base64(v.as_str().expect("base64 PNG"));
        std::fs::write(file, png).expect("write the screenshot");
    }
}

pub fn base64(s: &str) -> Vec<u8> {
    let val = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let bytes: Vec<u8> = s
        .bytes()
        .filter(|c| !b"=\r\n ".contains(c))
        .map(val)
        .collect();
    let mut out = Vec::with_capacity(bytes.len() * 3 / 4);
    for chunk in bytes.chunks(4) {
        let mut n = 0u32;
        for (i, &b) in chunk.iter().enumerate() {
            n |= (b as u32) << (18 - 6 * i);
        }
        let k = chunk.len() - 1;
        out.extend_from_slice(&n.to_be_bytes()[1..1 + k]);
    }
    out
}

/// Kills and reaps a child of the test when dropped.
pub struct Reap(pub Child);

impl Drop for Reap {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Polls `f` until it gives a value or `secs` pass.
pub fn until<T>(secs: u64, what: &str, mut f: impl FnMut() -> Option<T>) -> T {
    let end = Instant::now() + Duration::from_secs(secs);
    loop {
        if let Some(v) = f() {
            return v;
        }
        assert!(Instant::now() < end, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Chromium and ChromeDriver, when both are installed.
pub fn browser() -> Option<(PathBuf, PathBuf)> {
    Some((
        find(&["chromium", "chromium-browser", "google-chrome"])?,
        find(&["chromedriver"])?,
    ))
}

/// `blazar run --ui browser --ui-no-open PROGRAM`, serving its page: the process, its
/// output lines so far, and the page's address.
pub struct Serve {
    pub run: Reap,
    pub lines: Arc<Mutex<Vec<String>>>,
    pub url: String,
}

impl Serve {
    pub fn start(prog: &Path, extra: &[&str]) -> Serve {
        let mut run = Command::new(env!("CARGO_BIN_EXE_blazar"))
            .args(["run", "--ui", "browser", "--ui-no-open"])
            .args(extra)
            .arg(prog)
            .current_dir(prog.parent().expect("the program's folder"))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start blazar");
        let stdout = run.stdout.take().unwrap();
        let stderr = run.stderr.take().unwrap();
        let lines = Arc::new(Mutex::new(Vec::<String>::new()));
        let out = lines.clone();
        std::thread::spawn(move || {
            for l in BufReader::new(stdout).lines().map_while(Result::ok) {
                out.lock().unwrap().push(l);
            }
        });
        let (utx, urx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for l in BufReader::new(stderr).lines().map_while(Result::ok) {
                if let Some(url) = l.strip_prefix("blazar: the form is at ") {
                    let _ = utx.send(url.to_string());
                } else {
                    eprintln!("blazar: {l}");
                }
            }
        });
        let url = urx
            .recv_timeout(Duration::from_secs(60))
            .expect("blazar prints the form's address");
        Serve {
            run: Reap(run),
            lines,
            url,
        }
    }

    /// Whether the program printed the line `s`.
    pub fn printed(&self, s: &str) -> bool {
        self.lines.lock().unwrap().iter().any(|l| l == s)
    }

    /// The lines printed so far.
    pub fn output(&self) -> Vec<String> {
        self.lines.lock().unwrap().clone()
    }
}

/// ChromeDriver on a free port and a session of headless Chromium (its profile in
/// `profile`), 900 × `height` pixels.
pub fn session(
    chromium: &Path,
    chromedriver: &Path,
    profile: &Path,
    height: u32,
) -> (Reap, Driver) {
    let dport = free_port();
    let driver = Command::new(chromedriver)
        .arg(format!("--port={dport}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start chromedriver");
    let driver = Reap(driver);
    until(30, "chromedriver", || {
        http(dport, "GET", "/status", None)
            .ok()
            .filter(|(s, b)| *s == 200 && b.contains("\"ready\":true"))
    });
    let caps = json!({"capabilities": {"alwaysMatch": {
        "browserName": "chrome",
        "goog:chromeOptions": {
            "binary": chromium.display().to_string(),
            "args": ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                     "--no-first-run", "--disable-background-networking",
                     "--disable-component-update", "--disable-sync",
                     format!("--window-size=900,{height}"),
                     format!("--user-data-dir={}", profile.display())]
        }
    }}});
    let (status, text) = http(dport, "POST", "/session", Some(&caps)).unwrap();
    assert_eq!(status, 200, "new session: {text}");
    let v: Value = serde_json::from_str(&text).unwrap();
    let session = v["value"]["sessionId"].as_str().unwrap().to_string();
    (
        driver,
        Driver {
            port: dport,
            session,
        },
    )
}
