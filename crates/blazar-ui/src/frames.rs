//! Pictures for the page, on a thread of their own: the newest picture of each panel is
//! turned into its preview (8-bit gray or RGB, averaged down to at most [`MAX_SIDE`]
//! pixels on its longer side, in one pass over the samples) and its binary message,
//! at most once per [`MIN_INTERVAL`], and only while a page is ready for a picture
//! (connected, with every picture it was sent acknowledged). Newer pictures that arrive
//! meanwhile replace the waiting one, so a program refreshing a display every frame
//! pays for one conversion per picture a page draws, and for none without a page. The
//! program's thread only hands over the snapshot `imshow` took; the server's thread
//! sends each page the converted pictures it has not seen when it is ready for them.

use crate::protocol::picture;
use crate::Shared;
use std::sync::atomic::Ordering;
use std::sync::mpsc::Receiver;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The longest side of a picture on the page.
pub const MAX_SIDE: u32 = 1024;
/// The shortest time between two rounds of pictures converted (30 per second).
pub const MIN_INTERVAL: Duration = Duration::from_millis(33);

/// Starts the converter's thread; `wake` gets a message when a picture arrives or a
/// page becomes ready for one.
pub(crate) fn spawn(shared: Arc<Shared>, wake: Receiver<()>) -> Result<(), String> {
    std::thread::Builder::new()
        .name("blazar-ui-frames".into())
        .spawn(move || run(&shared, &wake))
        .map(|_| ())
        .map_err(|e| format!("cannot start the page's picture converter: {e}"))
}

/// Converts pictures as pages are ready for them, until the run ends.
fn run(shared: &Shared, wake: &Receiver<()>) {
    while wake.recv().is_ok() {
        if shared.ready.load(Ordering::SeqCst) == 0 {
            continue;
        }
        let start = Instant::now();
        if convert(shared) == 0 {
            continue;
        }
        // Tells the pages' tasks, which send what they have not seen.
        shared.pictures.send_replace(());
        if let Some(rest) = MIN_INTERVAL.checked_sub(start.elapsed()) {
            std::thread::sleep(rest);
        }
    }
}

/// Converts the waiting picture of each panel; returns how many there were.
pub(crate) fn convert(shared: &Shared) -> usize {
    let raw: Vec<_> = {
        let mut st = shared.state.lock().expect("ui state");
        st.panels
            .values_mut()
            .filter_map(|p| p.raw.take())
            .collect()
    };
    for f in &raw {
        let msg = picture(f.display, f.panel, &f.picture.preview(MAX_SIDE));
        let mut st = shared.state.lock().expect("ui state");
        st.put_converted(f.display, f.panel, msg);
    }
    raw.len()
}
