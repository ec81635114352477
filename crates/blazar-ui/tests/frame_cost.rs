//! What one refreshed display costs, step by step, for the picture of
//! `benches/ui/refresh.q` (720 × 1280 samples in [-1, 1]): the copy `imshow` takes on
//! the program's thread, and the preview the page's host makes on its own thread (8-bit
//! levels averaged down to 640 × 360 in one pass) with its message. A measurement, not
//! a check: `cargo test --release -p blazar-ui --test frame_cost -- --ignored --nocapture`.

use blazar_runtime::ui::{Picture, Snapshot};
use blazar_runtime::{Array, Buffer, Value};
use std::sync::Arc;
use std::time::Instant;

/// The median of `reps` timings of `f`, in milliseconds.
fn median_ms(reps: usize, mut f: impl FnMut()) -> f64 {
    let mut t: Vec<f64> = (0..reps)
        .map(|_| {
            let s = Instant::now();
            f();
            s.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    t.sort_by(f64::total_cmp);
    t[reps / 2]
}

#[test]
#[ignore = "a measurement: run with --ignored --nocapture on a release build"]
fn frame_cost() {
    let (h, w) = (720usize, 1280usize);
    let samples: Vec<f64> = (0..h * w)
        .map(|i| ((i % w) as f64 * 0.05).sin() * ((i / w) as f64 * 0.03).cos())
        .collect();
    let v = Value::array(Array::new(vec![h, w], Buffer::F64(samples)));
    let reps = 51;
    let range = Some(Some((-1.0, 1.0)));
    let take = median_ms(reps, || {
        std::hint::black_box(Snapshot::take("imshow", &v, range).unwrap());
    });
    let picture = Picture::Image(Arc::new(Snapshot::take("imshow", &v, range).unwrap()));
    let preview = median_ms(reps, || {
        std::hint::black_box(picture.preview(blazar_ui::MAX_SIDE));
    });
    let p = picture.preview(blazar_ui::MAX_SIDE);
    let bytes = 20 + p.pixels.len();
    let message = median_ms(reps, || {
        let mut b = Vec::with_capacity(bytes);
        b.extend_from_slice(&[0u8; 20]);
        b.extend_from_slice(&p.pixels);
        std::hint::black_box(b);
    });
    println!("frame_cost: a {h} x {w} f64 picture shown as {} x {} ({} channel(s), {bytes} bytes a message); median of {reps}:", p.width, p.height, p.chans);
    println!("  program's thread: imshow's copy of the samples  {take:.3} ms");
    println!("  converter thread: preview (levels + averaging)  {preview:.3} ms");
    println!("  converter thread: the message                   {message:.3} ms");
}
