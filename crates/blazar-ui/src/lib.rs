//! The browser page of Blazar's forms (`form("title")`, `--ui browser`).
//!
//! [`Browser`] is the [`UiHost`] the command-line tool installs: on the first `form`
//! it binds 127.0.0.1 (a free port, or `--ui-port`), starts one thread running a
//! current-thread tokio runtime with an axum server, prints the page's address (with a
//! random per-run token in its path: any other path gets 403) and opens it in a
//! browser when one is available. The page (`page.html`, embedded) talks to the server
//! over a websocket (`protocol.rs`): the program's controls and values go to the page
//! as JSON text, pictures as binary messages of raw 8-bit pixels that the page draws
//! into a canvas; the user's changes come back as JSON and wait, with a flag set, for
//! the interpreter to apply them between statements. Pictures are kept newest-first per
//! panel and converted on a thread of their own at a bounded rate and size, only when
//! a page has drawn the pictures it was sent (`frames.rs`), so a program refreshing a
//! display every frame pays for the one copy of the samples `imshow` takes, and for at
//! most one conversion per picture a page draws.

mod frames;
mod protocol;
mod server;
#[cfg(test)]
mod socket_tests;

use blazar_runtime::ui::{Frame, FromPage, ToPage, UiHost};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::Duration;

pub use frames::{MAX_SIDE, MIN_INTERVAL};

/// What the program's thread and the server's thread share.
pub(crate) struct Shared {
    pub state: std::sync::Mutex<protocol::State>,
    /// The program's messages (JSON text) for every connected page.
    pub tx: tokio::sync::broadcast::Sender<String>,
    /// Wakes the picture converter when a picture arrives or a page becomes ready.
    pub wake: mpsc::SyncSender<()>,
    /// Pages ready for a picture: connected, with every picture sent acknowledged.
    pub ready: std::sync::atomic::AtomicUsize,
    /// Changed by the converter after each round, for the pages' tasks.
    pub pictures: tokio::sync::watch::Sender<()>,
    /// Events for the program, and the flag that tells the interpreter to look.
    pub events: mpsc::Sender<FromPage>,
    pub flag: Arc<AtomicBool>,
    /// Pages connected now; whether one ever was; whether the last one was closed.
    pub clients: std::sync::atomic::AtomicUsize,
    pub closed: AtomicBool,
}

impl Shared {
    /// Wakes the picture converter (a wake-up already waiting is enough).
    pub(crate) fn wake(&self) {
        let _ = self.wake.try_send(());
    }
}

/// The forms of a run, shown on a local web page.
pub struct Browser {
    port: u16,
    open_browser: bool,
    shared: Arc<Shared>,
    events: mpsc::Receiver<FromPage>,
    flag: Arc<AtomicBool>,
    /// The converter's end of `Shared::wake`, until `start` gives it to the converter.
    wake: Option<mpsc::Receiver<()>>,
}

impl Browser {
    /// A page served on `port` (0: a free one), opened in a browser when
    /// `open_browser` and one is available.
    pub fn new(port: u16, open_browser: bool) -> Browser {
        let (etx, erx) = mpsc::channel();
        let flag = Arc::new(AtomicBool::new(false));
        let (tx, _) = tokio::sync::broadcast::channel(1024);
        let (wake, wake_rx) = mpsc::sync_channel(1);
        let shared = Arc::new(Shared {
            state: Default::default(),
            tx,
            wake,
            ready: Default::default(),
            pictures: tokio::sync::watch::Sender::new(()),
            events: etx,
            flag: flag.clone(),
            clients: Default::default(),
            closed: AtomicBool::new(false),
        });
        Browser {
            port,
            open_browser,
            shared,
            events: erx,
            flag,
            wake: Some(wake_rx),
        }
    }

    /// The flag the server sets when the page sent something (for
    /// `UiState::set_host`).
    pub fn flag(&self) -> Arc<AtomicBool> {
        self.flag.clone()
    }

    fn take(&mut self, first: Option<FromPage>) -> Vec<FromPage> {
        let mut out: Vec<FromPage> = first.into_iter().collect();
        out.extend(self.events.try_iter());
        coalesce(out)
    }
}

/// Keeps, of the changes of one control that follow each other, the last: a slider
/// dragged across its range runs its callbacks once for where it stopped.
fn coalesce(events: Vec<FromPage>) -> Vec<FromPage> {
    let mut out: Vec<FromPage> = Vec::with_capacity(events.len());
    for e in events {
        if let (FromPage::Set { id, .. }, Some(FromPage::Set { id: last, .. })) = (&e, out.last()) {
            if id == last {
                out.pop();
            }
        }
        out.push(e);
    }
    out
}

impl UiHost for Browser {
    fn interactive(&self) -> bool {
        true
    }

    fn start(&mut self) -> Result<Option<String>, String> {
        let listener = std::net::TcpListener::bind(("127.0.0.1", self.port))
            .map_err(|e| format!("cannot listen on 127.0.0.1:{}: {e}", self.port))?;
        listener
            .set_nonblocking(true)
            .map_err(|e| format!("cannot listen: {e}"))?;
        let port = listener
            .local_addr()
            .map_err(|e| format!("cannot listen: {e}"))?
            .port();
        let token = token()?;
        let url = format!("http://127.0.0.1:{port}/{token}/");
        let wake = self
            .wake
            .take()
            .ok_or("the page's server was started twice")?;
        frames::spawn(self.shared.clone(), wake)?;
        server::spawn(listener, token, self.shared.clone())?;
        if self.open_browser {
            open_in_browser(&url);
        }
        Ok(Some(url))
    }

    fn send(&mut self, msg: ToPage) {
        // Recorded and sent under one lock, so a page connecting meanwhile gets it once.
        let mut st = self.shared.state.lock().expect("ui state");
        let out = st.record(&msg);
        let _ = self.shared.tx.send(out);
    }

    fn frame(&mut self, frame: Frame) {
        self.shared.state.lock().expect("ui state").put_frame(frame);
        self.shared.wake();
    }

    fn events(&mut self) -> Vec<FromPage> {
        self.take(None)
    }

    fn wait(&mut self, timeout: Duration) -> Vec<FromPage> {
        let first = self.events.recv_timeout(timeout).ok();
        self.take(first)
    }

    fn open(&self) -> bool {
        !self.shared.closed.load(Ordering::Relaxed)
    }
}

/// A random token of 32 hex digits.
fn token() -> Result<String, String> {
    let mut b = [0u8; 16];
    getrandom::fill(&mut b).map_err(|e| format!("no random token: {e}"))?;
    Ok(b.iter().map(|x| format!("{x:02x}")).collect())
}

/// Opens `url` with `$BROWSER`, else `xdg-open` (`open` on macOS), in the background;
/// nothing happens when neither works.
fn open_in_browser(url: &str) {
    let program = std::env::var("BROWSER")
        .ok()
        .filter(|b| !b.trim().is_empty())
        .unwrap_or_else(|| {
            if cfg!(target_os = "macos") {
                "open".into()
            } else {
                "xdg-open".into()
            }
        });
    let child = std::process::Command::new(program)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    if let Ok(mut child) = child {
        // Reaped in the background, so it leaves no zombie.
        std::thread::spawn(move || child.wait());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use blazar_runtime::ui::Picture;

    /// A 2 x 2 gray picture for panel 0 of display 0.
    fn gray_frame() -> Frame {
        Frame {
            display: 0,
            panel: 0,
            picture: Picture::Rgb {
                width: 2,
                height: 2,
                rgb: vec![9; 12],
            },
        }
    }

    #[test]
    fn pictures_wait_for_a_ready_page_then_are_converted_off_the_program_thread() {
        let mut b = Browser::new(0, false);
        let wake = b.wake.take().unwrap();
        frames::spawn(b.shared.clone(), wake).unwrap();
        let pictures = b.shared.pictures.subscribe();
        b.frame(gray_frame());
        std::thread::sleep(Duration::from_millis(100));
        {
            let st = b.shared.state.lock().unwrap();
            let p = &st.panels[&(0, 0)];
            assert!(
                p.raw.is_some() && p.ready.is_none(),
                "converted with no page"
            );
        }
        // A page is ready: the waiting picture is converted, and the pages' tasks told.
        b.shared.ready.fetch_add(1, Ordering::SeqCst);
        b.shared.wake();
        let end = std::time::Instant::now() + Duration::from_secs(10);
        while !pictures.has_changed().unwrap() {
            assert!(std::time::Instant::now() < end, "no picture converted");
            std::thread::sleep(Duration::from_millis(10));
        }
        let st = b.shared.state.lock().unwrap();
        let (all, _) = st.pictures_after(0);
        // Display 0, panel 0, 2 x 2, RGB, then the pixels.
        let head: Vec<u8> = [0u32, 0, 2, 2, 3]
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect();
        assert_eq!(all.len(), 1);
        assert_eq!(&all[0][..protocol::PICTURE_HEAD], &head[..]);
        assert_eq!(&all[0][protocol::PICTURE_HEAD..], &[9; 12]);
        assert!(st.panels[&(0, 0)].raw.is_none());
    }

    #[test]
    fn coalesce_keeps_the_last_of_a_run() {
        let s = |id, value| FromPage::Set { id, value };
        let got = coalesce(vec![
            s(1, 0.1),
            s(1, 0.2),
            s(2, 1.0),
            FromPage::Click { id: 3 },
            s(1, 0.3),
        ]);
        assert_eq!(
            got,
            vec![s(1, 0.2), s(2, 1.0), FromPage::Click { id: 3 }, s(1, 0.3)]
        );
    }
}
