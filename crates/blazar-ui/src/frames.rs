//! Pictures for the page, on a thread of their own: the newest of each panel is
//! converted to 8-bit RGB, downscaled to at most [`MAX_SIDE`] pixels on its longer
//! side and encoded as PNG here, at most once per [`MIN_INTERVAL`] (newer pictures that
//! arrive meanwhile replace the waiting one). The program's thread only hands over the
//! snapshot `imshow` took; the server's thread only forwards the encoded messages. With
//! no page connected nothing is converted: the newest pictures wait for a page.

use crate::protocol::{picture, Out};
use crate::Shared;
use image::codecs::png::{CompressionType, FilterType, PngEncoder};
use image::{ExtendedColorType, ImageEncoder};
use std::sync::atomic::Ordering;
use std::sync::mpsc::Receiver;
use std::sync::Arc;
use std::time::Duration;

/// The longest side of a picture on the page.
pub const MAX_SIDE: u32 = 1024;
/// The shortest time between two rounds of pictures sent (30 per second).
pub const MIN_INTERVAL: Duration = Duration::from_millis(33);

/// Starts the encoder's thread; `wake` gets a message when a picture arrives or a
/// page connects.
pub(crate) fn spawn(shared: Arc<Shared>, wake: Receiver<()>) -> Result<(), String> {
    std::thread::Builder::new()
        .name("blazar-ui-frames".into())
        .spawn(move || run(&shared, &wake))
        .map(|_| ())
        .map_err(|e| format!("cannot start the page's picture encoder: {e}"))
}

/// Encodes and sends pictures as they arrive, until the run ends.
fn run(shared: &Shared, wake: &Receiver<()>) {
    while wake.recv().is_ok() {
        if shared.clients.load(Ordering::SeqCst) == 0 {
            continue;
        }
        let raw: Vec<_> = {
            let mut st = shared.state.lock().expect("ui state");
            st.panels
                .values_mut()
                .filter_map(|p| p.raw.take())
                .collect()
        };
        for f in raw {
            let (w, h, rgb) = f.picture.rgb_fitting(MAX_SIDE);
            let Some(png) = encode(w, h, &rgb) else {
                continue;
            };
            let msg = picture(f.display, f.panel, &png);
            let mut st = shared.state.lock().expect("ui state");
            st.panels.entry((f.display, f.panel)).or_default().sent = Some(msg.clone());
            let _ = shared.tx.send(Out::Binary(msg));
        }
        std::thread::sleep(MIN_INTERVAL);
    }
}

fn encode(w: u32, h: u32, rgb: &[u8]) -> Option<Vec<u8>> {
    let mut png = Vec::new();
    PngEncoder::new_with_quality(&mut png, CompressionType::Fast, FilterType::Sub)
        .write_image(rgb, w, h, ExtendedColorType::Rgb8)
        .ok()?;
    Some(png)
}
