//! Pictures for the page: the newest of each panel, downscaled to at most
//! [`MAX_SIDE`] pixels on its longer side and encoded as PNG on the server's thread,
//! at most once per [`MIN_INTERVAL`] (newer pictures that arrive meanwhile replace
//! the waiting one).

use crate::protocol::{picture, Out};
use crate::Shared;
use image::codecs::png::{CompressionType, FilterType, PngEncoder};
use image::{ExtendedColorType, ImageEncoder};
use std::sync::Arc;
use std::time::Duration;

/// The longest side of a picture on the page.
pub const MAX_SIDE: u32 = 1024;
/// The shortest time between two pictures sent (30 per second).
pub const MIN_INTERVAL: Duration = Duration::from_millis(33);

/// Encodes and sends pictures as they arrive, until the runtime ends.
pub(crate) async fn run(shared: Arc<Shared>) {
    loop {
        shared.frames.notified().await;
        let raw: Vec<_> = {
            let mut st = shared.state.lock().expect("ui state");
            st.panels
                .values_mut()
                .filter_map(|p| p.raw.take())
                .collect()
        };
        for f in raw {
            let (w, h, rgb) = downscale(f.width, f.height, &f.rgb);
            let Some(png) = encode(w, h, &rgb) else {
                continue;
            };
            let msg = picture(f.display, f.panel, &png);
            let mut st = shared.state.lock().expect("ui state");
            st.panels.entry((f.display, f.panel)).or_default().sent = Some(msg.clone());
            let _ = shared.tx.send(Out::Binary(msg));
        }
        tokio::time::sleep(MIN_INTERVAL).await;
    }
}

fn encode(w: u32, h: u32, rgb: &[u8]) -> Option<Vec<u8>> {
    let mut png = Vec::new();
    PngEncoder::new_with_quality(&mut png, CompressionType::Fast, FilterType::Sub)
        .write_image(rgb, w, h, ExtendedColorType::Rgb8)
        .ok()?;
    Some(png)
}

/// RGB pixels `w` × `h` averaged over square blocks so that the longer side is at most
/// [`MAX_SIDE`]; returned as they are when they fit.
pub fn downscale(w: u32, h: u32, rgb: &[u8]) -> (u32, u32, Vec<u8>) {
    let k = w.max(h).div_ceil(MAX_SIDE).max(1);
    if k == 1 {
        return (w, h, rgb.to_vec());
    }
    let (nw, nh) = (w.div_ceil(k), h.div_ceil(k));
    let mut out = vec![0u8; (nw * nh * 3) as usize];
    for oy in 0..nh {
        for ox in 0..nw {
            let mut sum = [0u32; 3];
            let mut n = 0;
            for y in oy * k..((oy + 1) * k).min(h) {
                for x in ox * k..((ox + 1) * k).min(w) {
                    let i = ((y * w + x) * 3) as usize;
                    for c in 0..3 {
                        sum[c] += rgb[i + c] as u32;
                    }
                    n += 1;
                }
            }
            let o = ((oy * nw + ox) * 3) as usize;
            for c in 0..3 {
                out[o + c] = ((sum[c] + n / 2) / n) as u8;
            }
        }
    }
    (nw, nh, out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn large_pictures_are_averaged_down() {
        let (w, h) = (2 * MAX_SIDE + 2, 4);
        let mut rgb = vec![0u8; (w * h * 3) as usize];
        // The first block of 3 x 3 pixels: one white pixel of nine.
        rgb[..3].copy_from_slice(&[255, 255, 255]);
        let (nw, nh, out) = downscale(w, h, &rgb);
        assert_eq!((nw, nh), (w.div_ceil(3), 2));
        assert_eq!(&out[..3], &[28, 28, 28]);
        assert!(out[3..].iter().all(|&x| x == 0));
    }

    #[test]
    fn small_pictures_are_kept() {
        let rgb = vec![7u8; 2 * 3 * 3];
        assert_eq!(downscale(2, 3, &rgb), (2, 3, rgb.clone()));
    }
}
