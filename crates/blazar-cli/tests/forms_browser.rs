//! A form in a real browser: `blazar run --ui browser --ui-no-open` serves a
//! thresholding tool; ChromeDriver drives headless Chromium through the WebDriver
//! protocol (JSON over HTTP, spoken here over a plain `TcpStream`) to open the page,
//! read the display's picture back, move the slider, click the button and close the
//! page, and the test checks that the picture and the program's output follow what
//! the program computes. Skips (printing SKIP) only when Chromium or ChromeDriver is
//! missing. With `BLAZAR_SCREENSHOTS=DIR`, screenshots of the page are written there
//! (the guide's pictures: `docs/guide/img/`).

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A gradient 32 × 64 (column j is j / 64) thresholded by a slider: white where above.
/// At 0.5: columns 33..63, 31 × 32 = 992 white pixels; at 0.25: columns 17..63, 47 × 32
/// = 1504.
const PROGRAM: &str = r#"import "Quasar.UI.dll"
[X, Y] = meshgrid(0..63, 0..31)
img = X / 64
frm = form("Threshold")
frm.add_heading("Parameters")
t = frm.add_slider("threshold", 0.5, 0, 1)
inv = frm.add_checkbox("invert", false)
go = frm.add_button("Count")
disp = frm.add_display()
function [] = update()
    mask = img > t.value
    if inv.value
        mask = !mask
    endif
    disp.imshow(mask * 255)
    print "white ", sum(mask)
end
function [] = count()
    print "clicked at ", t.value, ": ", sum(img > t.value)
end
t.onchange.add(update)
inv.onchange.add(update)
go.onclick.add(count)
update()
frm.wait()
print "closed"
"#;

fn find(names: &[&str]) -> Option<PathBuf> {
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

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// One HTTP/1.1 request to 127.0.0.1:`port`: (status, body).
fn http(
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

fn dechunk(mut s: &str) -> String {
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
struct Driver {
    port: u16,
    session: String,
}

impl Driver {
    fn cmd(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let path = format!("/session/{}{path}", self.session);
        let (status, text) = http(self.port, method, &path, body.as_ref()).expect("webdriver");
        let v: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
        assert_eq!(status, 200, "{method} {path}: {text}");
        v["value"].clone()
    }

    fn script(&self, code: &str) -> Value {
        self.cmd(
            "POST",
            "/execute/sync",
            Some(json!({"script": code, "args": []})),
        )
    }

    fn element(&self, css: &str) -> String {
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

    fn screenshot(&self, file: &Path) {
        let v = self.cmd("GET", "/screenshot", None);
        let png = base64(v.as_str().expect("base64 PNG"));
        std::fs::write(file, png).expect("write the screenshot");
    }
}

fn base64(s: &str) -> Vec<u8> {
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
struct Reap(Child);

impl Drop for Reap {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Polls `f` until it gives a value or `secs` pass.
fn until<T>(secs: u64, what: &str, mut f: impl FnMut() -> Option<T>) -> T {
    let end = Instant::now() + Duration::from_secs(secs);
    loop {
        if let Some(v) = f() {
            return v;
        }
        assert!(Instant::now() < end, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The number of white pixels of display 0's first panel as the page shows it, with
/// the number of pictures it got.
const COUNT_WHITE: &str = r#"
const img = document.querySelector('#display0 img');
if (!img || !img.complete || !img.naturalWidth) return null;
const c = document.createElement('canvas');
c.width = img.naturalWidth; c.height = img.naturalHeight;
const g = c.getContext('2d'); g.drawImage(img, 0, 0);
const d = g.getImageData(0, 0, c.width, c.height).data;
let n = 0;
for (let i = 0; i < d.length; i += 4) if (d[i] > 128) n++;
return [n, c.width, c.height, Number(img.dataset.frames)];
"#;

#[test]
fn a_form_in_chromium() {
    let (Some(chromium), Some(chromedriver)) = (
        find(&["chromium", "chromium-browser", "google-chrome"]),
        find(&["chromedriver"]),
    ) else {
        println!("SKIP forms_browser: chromium or chromedriver is not installed");
        return;
    };
    let dir = std::env::temp_dir().join(format!("blazar_forms_{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let prog = dir.join("threshold.q");
    std::fs::write(&prog, PROGRAM).unwrap();

    // The program, serving its page.
    let mut run = Command::new(env!("CARGO_BIN_EXE_blazar"))
        .args(["run", "--ui", "browser", "--ui-no-open"])
        .arg(&prog)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start blazar");
    let stdout = run.stdout.take().unwrap();
    let stderr = run.stderr.take().unwrap();
    let run = Reap(run);
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
            }
        }
    });
    let url = urx
        .recv_timeout(Duration::from_secs(60))
        .expect("blazar prints the form's address");
    let printed = |s: &str| lines.lock().unwrap().iter().any(|l| l == s);

    // Only the page's own path answers.
    let rest = url.strip_prefix("http://127.0.0.1:").unwrap();
    let (port, path) = rest.split_once('/').unwrap();
    let port: u16 = port.parse().unwrap();
    assert_eq!(http(port, "GET", &format!("/{path}"), None).unwrap().0, 200);
    assert_eq!(http(port, "GET", "/", None).unwrap().0, 403);
    assert_eq!(
        http(port, "GET", "/0123456789abcdef/", None).unwrap().0,
        403
    );
    // A plain GET of a websocket path is refused before its token is looked at (400:
    // no handshake); a handshake with a wrong token gets 403.
    let ws = http(port, "GET", "/0123456789abcdef/ws", None).unwrap().0;
    assert!(ws == 400 || ws == 403, "got {ws}");

    // ChromeDriver and a session of headless Chromium.
    let dport = free_port();
    let driver = Command::new(&chromedriver)
        .arg(format!("--port={dport}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start chromedriver");
    let _driver = Reap(driver);
    until(30, "chromedriver", || {
        http(dport, "GET", "/status", None)
            .ok()
            .filter(|(s, b)| *s == 200 && b.contains("\"ready\":true"))
    });
    let profile = dir.join("profile");
    let caps = json!({"capabilities": {"alwaysMatch": {
        "browserName": "chrome",
        "goog:chromeOptions": {
            "binary": chromium.display().to_string(),
            "args": ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                     "--no-first-run", "--disable-background-networking",
                     "--disable-component-update", "--disable-sync",
                     "--window-size=900,700",
                     format!("--user-data-dir={}", profile.display())]
        }
    }}});
    let (status, text) = http(dport, "POST", "/session", Some(&caps)).unwrap();
    assert_eq!(status, 200, "new session: {text}");
    let v: Value = serde_json::from_str(&text).unwrap();
    let session = v["value"]["sessionId"].as_str().unwrap().to_string();
    let d = Driver {
        port: dport,
        session,
    };
    d.cmd("POST", "/url", Some(json!({"url": url})));

    // The form as the program built it, and the display's first picture.
    until(30, "the slider", || {
        d.script("return document.getElementById('control0') ? 1 : null")
            .as_u64()
    });
    let labels = d.script(
        "return [...document.querySelectorAll('label, h1, h2, button')].map(e => e.textContent)",
    );
    for want in ["Threshold", "Parameters", "threshold", "invert", "Count"] {
        assert!(
            labels.as_array().unwrap().iter().any(|l| l == want),
            "{want} not on the page: {labels}"
        );
    }
    let first = until(30, "the first picture", || {
        let v = d.script(COUNT_WHITE);
        (v[0].as_u64() == Some(992)).then_some(v)
    });
    assert_eq!((first[1].as_u64(), first[2].as_u64()), (Some(64), Some(32)));
    assert!(printed("white 992"));
    if let Some(shots) = std::env::var_os("BLAZAR_SCREENSHOTS") {
        std::fs::create_dir_all(&shots).unwrap();
        d.screenshot(&Path::new(&shots).join("forms-threshold-0.5.png"));
    }

    // Moving the slider reruns the callback; the new picture reaches the page.
    d.script(
        "const s = document.getElementById('control0'); s.value = 0.25; \
         s.dispatchEvent(new Event('input')); return 1",
    );
    until(30, "the picture at threshold 0.25", || {
        let v = d.script(COUNT_WHITE);
        (v[0].as_u64() == Some(1504)).then_some(())
    });
    until(10, "the program's output at 0.25", || {
        printed("white 1504").then_some(())
    });

    // Ticking the box through a real click inverts the mask: 2048 - 1504 = 544.
    let bx = d.element("#control1");
    d.cmd("POST", &format!("/element/{bx}/click"), Some(json!({})));
    until(30, "the inverted picture", || {
        (d.script(COUNT_WHITE)[0].as_u64() == Some(544)).then_some(())
    });
    if let Some(shots) = std::env::var_os("BLAZAR_SCREENSHOTS") {
        d.screenshot(&Path::new(&shots).join("forms-threshold-inverted.png"));
    }

    // A click on the button runs its callback.
    let button = d.element("#control2");
    d.cmd("POST", &format!("/element/{button}/click"), Some(json!({})));
    until(10, "the button's callback", || {
        printed("clicked at 0.25: 1504").then_some(())
    });

    // Closing the page ends the run normally.
    d.cmd("DELETE", "", None);
    let mut run = run;
    let status = until(30, "the run to end", || run.0.try_wait().ok().flatten());
    assert!(status.success(), "blazar exited with {status}");
    until(5, "the last line", || printed("closed").then_some(()));
    let _ = std::fs::remove_dir_all(&dir);
}
