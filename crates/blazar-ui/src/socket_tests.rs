//! The server with a page's websocket: a minimal client (the handshake, unmasked frames
//! in, masked text frames out, over a plain `TcpStream`) that does what the page does,
//! to check what a page is sent and when.

use super::*;
use blazar_runtime::ui::Picture;
use std::io::{Read, Write};
use std::net::TcpStream;

struct Client {
    s: TcpStream,
}

enum Msg {
    Text(String),
    Binary(Vec<u8>),
}

impl Client {
    /// Opens the websocket of the page at `url` (`http://127.0.0.1:PORT/TOKEN/`).
    fn connect(url: &str) -> Client {
        let rest = url.strip_prefix("http://").unwrap();
        let (host, path) = rest.split_once('/').unwrap();
        let mut s = TcpStream::connect(host).unwrap();
        write!(
            s,
            "GET /{path}ws HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\n\
             Connection: Upgrade\r\nSec-WebSocket-Key: AAECAwQFBgcICQoLDA0ODw==\r\n\
             Sec-WebSocket-Version: 13\r\n\r\n"
        )
        .unwrap();
        let mut head = Vec::new();
        let mut b = [0u8; 1];
        while !head.ends_with(b"\r\n\r\n") {
            s.read_exact(&mut b).unwrap();
            head.push(b[0]);
        }
        let head = String::from_utf8_lossy(&head);
        assert!(head.starts_with("HTTP/1.1 101"), "{head}");
        Client { s }
    }

    /// The next message, or `None` when none comes within `wait`.
    fn next(&mut self, wait: Duration) -> Option<Msg> {
        self.s.set_read_timeout(Some(wait)).unwrap();
        let mut h = [0u8; 2];
        match self.s.read_exact(&mut h) {
            Ok(()) => {}
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                return None
            }
            Err(e) => panic!("{e}"),
        }
        self.s
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        assert_eq!(h[0] & 0x80, 0x80, "a fragmented message");
        assert_eq!(h[1] & 0x80, 0, "a masked frame from the server");
        let len = match h[1] & 0x7f {
            126 => {
                let mut b = [0u8; 2];
                self.s.read_exact(&mut b).unwrap();
                u16::from_be_bytes(b) as usize
            }
            127 => {
                let mut b = [0u8; 8];
                self.s.read_exact(&mut b).unwrap();
                u64::from_be_bytes(b) as usize
            }
            n => n as usize,
        };
        let mut data = vec![0u8; len];
        self.s.read_exact(&mut data).unwrap();
        match h[0] & 0x0f {
            1 => Some(Msg::Text(String::from_utf8(data).unwrap())),
            2 => Some(Msg::Binary(data)),
            op => panic!("an unexpected frame (opcode {op})"),
        }
    }

    fn send_text(&mut self, text: &str) {
        let mask = [3u8, 1, 4, 1];
        let len = text.len();
        assert!(len < 126);
        let mut f = vec![0x81, 0x80 | len as u8];
        f.extend_from_slice(&mask);
        f.extend(text.bytes().enumerate().map(|(i, b)| b ^ mask[i % 4]));
        self.s.write_all(&f).unwrap();
    }

    /// The next picture (texts before it are skipped), or `None` within `wait`.
    fn picture(&mut self, wait: Duration) -> Option<Vec<u8>> {
        loop {
            match self.next(wait)? {
                Msg::Binary(b) => return Some(b),
                Msg::Text(_) => {}
            }
        }
    }
}

/// A 2 x 2 picture of one gray level `v` (as RGB) for panel 0 of display 0.
fn level(v: u8) -> Frame {
    Frame {
        display: 0,
        panel: 0,
        picture: Picture::Rgb {
            width: 2,
            height: 2,
            rgb: vec![v; 12],
        },
    }
}

fn converted(b: &Browser) -> u64 {
    b.shared.state.lock().unwrap().converted
}

#[test]
fn a_page_gets_a_new_picture_only_after_it_drew_the_last() {
    let mut b = Browser::new(0, false);
    let url = b.start().unwrap().unwrap();
    b.send(ToPage::Form { title: "t".into() });
    b.send(ToPage::Display {
        id: 0,
        rows: 1,
        cols: 1,
    });
    b.frame(level(10));
    // Nothing is converted before a page connects.
    std::thread::sleep(Duration::from_millis(100));
    assert_eq!(converted(&b), 0);

    let mut page = Client::connect(&url);
    // The form as it stands: its title and display, then the waiting picture.
    let Some(Msg::Text(first)) = page.next(Duration::from_secs(10)) else {
        panic!("no title");
    };
    assert!(first.contains(r#""t":"form""#), "{first}");
    let Some(Msg::Text(second)) = page.next(Duration::from_secs(10)) else {
        panic!("no display");
    };
    assert!(second.contains(r#""t":"display""#), "{second}");
    let pic = page.picture(Duration::from_secs(10)).expect("no picture");
    assert_eq!(&pic[protocol::PICTURE_HEAD..], &[10; 12]);

    // The program shows four more pictures while the page has not drawn the first:
    // none is sent, none is converted; the newest waits.
    for v in [20, 30, 40, 50] {
        b.frame(level(v));
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(page.picture(Duration::from_millis(300)).is_none());
    assert_eq!(converted(&b), 1);
    assert!(b.shared.state.lock().unwrap().panels[&(0, 0)].raw.is_some());

    // Drawn: the newest picture is converted (once) and sent.
    page.send_text(r#"{"t":"ack","n":1}"#);
    let pic = page
        .picture(Duration::from_secs(10))
        .expect("no next picture");
    assert_eq!(&pic[protocol::PICTURE_HEAD..], &[50; 12]);
    assert_eq!(converted(&b), 2);

    // Acknowledged with nothing new, the page waits; the next picture goes at once.
    page.send_text(r#"{"t":"ack","n":1}"#);
    assert!(page.picture(Duration::from_millis(200)).is_none());
    b.frame(level(60));
    let pic = page
        .picture(Duration::from_secs(10))
        .expect("no picture after waiting");
    assert_eq!(&pic[protocol::PICTURE_HEAD..], &[60; 12]);
}

#[test]
fn a_second_page_gets_the_newest_picture_without_a_new_conversion() {
    let mut b = Browser::new(0, false);
    let url = b.start().unwrap().unwrap();
    b.send(ToPage::Display {
        id: 0,
        rows: 1,
        cols: 1,
    });
    b.frame(level(7));
    let mut one = Client::connect(&url);
    let pic = one.picture(Duration::from_secs(10)).expect("no picture");
    assert_eq!(&pic[protocol::PICTURE_HEAD..], &[7; 12]);
    let mut two = Client::connect(&url);
    let pic = two.picture(Duration::from_secs(10)).expect("no picture");
    assert_eq!(&pic[protocol::PICTURE_HEAD..], &[7; 12]);
    assert_eq!(converted(&b), 1);
}
