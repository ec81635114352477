//! A form in a real browser: `blazar run --ui browser --ui-no-open` serves a
//! thresholding tool; ChromeDriver drives headless Chromium through the WebDriver
//! protocol (JSON over HTTP, spoken here over a plain `TcpStream`) to open the page,
//! read the display's picture back, move the slider, click the button and close the
//! page, and the test checks that the picture and the program's output follow what
//! the program computes. Skips (printing SKIP) only when Chromium or ChromeDriver is
//! missing. With `BLAZAR_SCREENSHOTS=DIR`, screenshots of the page are written there
//! (the guide's pictures: `docs/guide/img/`).

mod webdriver;

use serde_json::json;
use std::path::Path;
use webdriver::{browser, http, session, until, Serve};

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

/// The number of white pixels of display 0's first panel as the page shows it, with
/// the number of pictures it got.
const COUNT_WHITE: &str = r#"
const c = document.querySelector('#display0 canvas');
if (!c || !Number(c.dataset.frames)) return null;
const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
let n = 0;
for (let i = 0; i < d.length; i += 4) if (d[i] > 128) n++;
return [n, c.width, c.height, Number(c.dataset.frames)];
"#;

#[test]
fn a_form_in_chromium() {
    let Some((chromium, chromedriver)) = browser() else {
        println!("SKIP forms_browser: chromium or chromedriver is not installed");
        return;
    };
    let dir = std::env::temp_dir().join(format!("blazar_forms_{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let prog = dir.join("threshold.q");
    std::fs::write(&prog, PROGRAM).unwrap();

    // The program, serving its page.
    let serve = Serve::start(&prog, &[]);
    let url = serve.url.clone();

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
    let (_driver, d) = session(&chromium, &chromedriver, &dir.join("profile"), 700);
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
    assert!(serve.printed("white 992"));
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
        serve.printed("white 1504").then_some(())
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
        serve.printed("clicked at 0.25: 1504").then_some(())
    });

    // Closing the page ends the run normally.
    d.cmd("DELETE", "", None);
    let mut serve = serve;
    let status = until(30, "the run to end", || {
        serve.run.0.try_wait().ok().flatten()
    });
    assert!(status.success(), "blazar exited with {status}");
    until(5, "the last line", || serve.printed("closed").then_some(()));
    let _ = std::fs::remove_dir_all(&dir);
}
