//! The published-style video denoising tool in a real browser (the interactive twin of
//! `tests/programs/ui/denoise_video_tool.q`): the program writes a small noisy clip,
//! plays it in a loop (`repeat ... until !hold("on")`) with a strength slider and
//! before/after displays, and ChromeDriver drives headless Chromium to set the
//! strength; the test reads the after-display's picture back and checks that its
//! roughness (the mean absolute difference between horizontal neighbours, computed in
//! the page from the 8-bit pixels) is what the program computes for that strength, and
//! that the before-display did not change. Skips (printing SKIP) when Chromium,
//! ChromeDriver or FFmpeg is missing. With `BLAZAR_SCREENSHOTS=DIR`, a screenshot of
//! the page is written there (the guide's picture).

mod webdriver;

use serde_json::json;
use std::path::Path;
use webdriver::{browser, find, session, until, Serve};

/// Every frame of the clip is the same 16 × 24 ramp with a fixed noise pattern (values
/// 10..225, so the 8-bit video keeps them exactly); the strength's callback is a
/// statement body continued on the next line, as published tools write them.
const PROGRAM: &str = r#"import "Quasar.UI.dll"
import "Quasar.Video.dll"

function frame = make()
    frame = zeros(16, 24, 3)
    for r = 0..15
        for c = 0..23
            noise = mod(r * 7 + c * 13, 11) * 6 - 30
            for ch = 0..2
                frame[r, c, ch] = 40 + 5 * c + 20 * ch + noise
            end
        end
    end
end

% A 3x3 box blur (shifted copies, circular borders) mixed with the frame.
function y = denoise(x, s)
    b = zeros(size(x))
    for dr = -1..1
        for dc = -1..1
            b = b + circshift(x, [dr, dc, 0])
        end
    end
    y = (1 - s) * x + s * b / 9
end

% Roughness: the mean absolute difference between horizontal neighbours.
function r = roughness(x)
    r = mean(abs(x[:, 1..23, :] - x[:, 0..22, :]))
end

w = vidwrite("clip.avi", 25, "rawvideo")
for k = 0..3
    vidwriteframe(w, make())
end
vidclose(w)

frm = form("Video denoiser")
frm.add_heading("Parameters")
strength = frm.add_slider("strength", 0, 0, 1)
before = frm.add_display()
after = frm.add_display()

params = object()
params.s = strength.value
params.changes = 0
strength.onchange.add(() -> (params.s = strength.value;)
                             params.changes = params.changes + 1)

stream = vidopen("clip.avi")
sync_framerate(stream.avg_frame_rate)
shown = -1
repeat
    if !vidreadframe(stream)
        vidseek(stream, 0)
        vidreadframe(stream)
    endif
    x = float(stream.rgb_data)
    y = denoise(x, params.s)
    before.imshow(x, [0, 255])
    after.imshow(y, [0, 255])
    if params.s != shown
        shown = params.s
        print sprintf("strength %.2f: roughness %.2f", shown, roughness(y))
    endif
until !hold("on")
print "played, ", params.changes, " change(s)"
"#;

/// The roughness of display `d`'s picture as the page shows it (over the three colour
/// channels), with its size; null until a picture is there.
fn roughness_js(d: usize) -> String {
    format!(
        r#"
const c = document.querySelector('#display{d} canvas');
if (!c || !Number(c.dataset.frames)) return null;
const w = c.width, h = c.height;
const p = c.getContext('2d').getImageData(0, 0, w, h).data;
let s = 0, n = 0;
for (let y = 0; y < h; y++)
  for (let x = 0; x + 1 < w; x++)
    for (let k = 0; k < 3; k++) {{
      s += Math.abs(p[(y * w + x + 1) * 4 + k] - p[(y * w + x) * 4 + k]); n++;
    }}
return [s / n, w, h];
"#
    )
}

/// The roughness the program printed for `strength` ("strength 1.00: roughness 9.43").
fn printed_roughness(serve: &Serve, strength: &str) -> Option<f64> {
    let head = format!("strength {strength}: roughness ");
    serve
        .output()
        .iter()
        .find_map(|l| l.strip_prefix(&head).and_then(|r| r.parse().ok()))
}

#[test]
fn the_video_denoiser_in_chromium() {
    let Some((chromium, chromedriver)) = browser() else {
        println!("SKIP video_tool_browser: chromium or chromedriver is not installed");
        return;
    };
    if find(&["ffmpeg"]).is_none() || find(&["ffprobe"]).is_none() {
        println!("SKIP video_tool_browser: ffmpeg or ffprobe is not installed");
        return;
    }
    let dir = std::env::temp_dir().join(format!("blazar_video_tool_{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let prog = dir.join("denoiser.q");
    std::fs::write(&prog, PROGRAM).unwrap();

    let serve = Serve::start(&prog, &["--device", "cpu"]);
    let (_driver, d) = session(&chromium, &chromedriver, &dir.join("profile"), 900);
    d.cmd("POST", "/url", Some(json!({"url": serve.url})));

    // The page shows the slider and both displays; at strength 0 the after-display is
    // the frame itself, as rough as the program says.
    until(30, "the slider", || {
        d.script("return document.getElementById('control0') ? 1 : null")
            .as_u64()
    });
    let labels =
        d.script("return [...document.querySelectorAll('label, h1, h2')].map(e => e.textContent)");
    for want in ["Video denoiser", "Parameters", "strength"] {
        assert!(
            labels.as_array().unwrap().iter().any(|l| l == want),
            "{want} not on the page: {labels}"
        );
    }
    let rough0 = until(30, "the program's roughness at strength 0", || {
        printed_roughness(&serve, "0.00")
    });
    let before0 = until(30, "the before picture", || {
        let v = d.script(&roughness_js(0));
        v[0].as_f64().map(|r| (r, v[1].as_u64(), v[2].as_u64()))
    });
    assert_eq!((before0.1, before0.2), (Some(24), Some(16)));
    assert!(
        (before0.0 - rough0).abs() < 0.01,
        "the before picture's roughness {} is not the frame's {rough0}",
        before0.0
    );
    let after0 = until(30, "the after picture", || {
        d.script(&roughness_js(1))[0].as_f64()
    });
    assert!(
        (after0 - rough0).abs() < 0.01,
        "after {after0}, frame {rough0}"
    );

    // Full strength: the program denoises the playing frames with it, and the
    // after-display shows the smoother picture it computed.
    d.script(
        "const s = document.getElementById('control0'); s.value = 1; \
         s.dispatchEvent(new Event('input')); return 1",
    );
    let rough1 = until(30, "the program's roughness at strength 1", || {
        printed_roughness(&serve, "1.00")
    });
    assert!(
        rough1 < rough0 - 5.0,
        "strength 1: {rough1}, frame: {rough0}"
    );
    until(30, "the denoised picture", || {
        let r = d.script(&roughness_js(1))[0].as_f64()?;
        // The page's pixels are the program's values rounded to 8 bits.
        ((r - rough1).abs() < 0.6).then_some(())
    });
    let before1 = d.script(&roughness_js(0))[0].as_f64().unwrap();
    assert!(
        (before1 - rough0).abs() < 0.01,
        "the before picture changed: {before1}"
    );
    if let Some(shots) = std::env::var_os("BLAZAR_SCREENSHOTS") {
        std::fs::create_dir_all(&shots).unwrap();
        d.screenshot(&Path::new(&shots).join("forms-video-denoiser.png"));
    }

    // Closing the page ends the playing loop (`hold("on")` is 0 then) and the run.
    d.cmd("DELETE", "", None);
    let mut serve = serve;
    let status = until(30, "the run to end", || {
        serve.run.0.try_wait().ok().flatten()
    });
    assert!(status.success(), "blazar exited with {status}");
    until(5, "the last line", || {
        serve.printed("played, 1 change(s)").then_some(())
    });
    let _ = std::fs::remove_dir_all(&dir);
}
