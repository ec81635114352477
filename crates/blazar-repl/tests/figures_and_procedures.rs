//! Figures written after each input that draws into them, and calls made for what they
//! do (`tic()`, `plot(y)`, `disp(x)`) that show no value.

use blazar_repl::{Session, Step};
use blazar_runtime::builtins::Ctx;
use blazar_runtime::Prec;
use std::cell::RefCell;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::rc::Rc;

#[derive(Clone, Default)]
struct Shared(Rc<RefCell<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A session whose figures go into `dir` (as `blazar repl` in that folder).
fn session(dir: &Path) -> (Session, Shared) {
    let out = Shared::default();
    let mut ctx = Ctx::new(
        Prec::Single,
        Box::new(out.clone()),
        dir.to_path_buf(),
        "repl".into(),
    );
    ctx.figures.dir = None;
    (Session::new(ctx, Default::default()), out)
}

/// Runs one line; its output, and its diagnostics rendered.
fn line(s: &mut Session, out: &Shared, text: &str) -> (String, String) {
    let Step::Done(reply) = s.feed(text) else {
        panic!("`{text}` waits for more")
    };
    let printed = String::from_utf8(std::mem::take(&mut *out.0.borrow_mut())).unwrap();
    (printed, s.render(&reply.diagnostics))
}

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("blazar-repl-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn figures_are_written_after_each_input_that_draws() {
    let dir = temp("figures");
    let (mut s, out) = session(&dir);
    // `plot` as a statement shows no handle; its files are written at once.
    let (printed, errs) = line(&mut s, &out, "plot([0, 1, 4, 9])");
    assert_eq!(errs, "");
    assert_eq!(
        printed,
        "figure 1: wrote repl_figure1.png, repl_figure1.svg\n"
    );
    let png = dir.join("repl_figure1.png");
    let first = std::fs::read(&png).unwrap();
    assert!(first.starts_with(b"\x89PNG"));
    // An input that draws nothing writes nothing.
    assert_eq!(line(&mut s, &out, "x = 3"), (String::new(), String::new()));
    // The figure stays open: a second line on it (hold) rewrites its files.
    line(&mut s, &out, "hold(\"on\")");
    let (printed, _) = line(&mut s, &out, "plot([9, 4, 1, 0], \"r\")");
    assert_eq!(
        printed,
        "figure 1: wrote repl_figure1.png, repl_figure1.svg\n"
    );
    assert_ne!(
        std::fs::read(&png).unwrap(),
        first,
        "the PNG shows both lines"
    );
    // A title renames the files, as `blazar run` names them.
    let (printed, _) = line(&mut s, &out, "title(\"both\")");
    assert_eq!(
        printed,
        "figure 1: wrote repl_figure1_both.png, repl_figure1_both.svg\n"
    );
    // A second figure is written alone, after the input's own output.
    let (printed, _) = line(&mut s, &out, "h = imshow(zeros(4, 4)); print \"shown\"");
    assert_eq!(printed, "shown\nfigure 2: wrote repl_figure2.png\n");
    assert!(dir.join("repl_figure2.png").is_file());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn calls_made_for_what_they_do_show_no_value() {
    let dir = temp("procedures");
    let (mut s, out) = session(&dir);
    // `tic()` alone prints nothing (MATLAB's `tic` neither) and sets no `ans`.
    assert_eq!(line(&mut s, &out, "tic()"), (String::new(), String::new()));
    assert!(s.variable("ans").is_none());
    // `t = toc()` prints nothing; `toc()` alone prints its line only.
    assert_eq!(
        line(&mut s, &out, "t = toc()"),
        (String::new(), String::new())
    );
    let (printed, _) = line(&mut s, &out, "toc()");
    assert!(printed.starts_with("Elapsed time: "), "{printed}");
    assert_eq!(printed.lines().count(), 1, "{printed}");
    // `disp(x)` and `printf` print what they print, and no 0 after it.
    assert_eq!(line(&mut s, &out, "disp(7)").0, "7\n");
    assert_eq!(line(&mut s, &out, "printf(\"%d\\n\", 5)").0, "5\n");
    // A function that computes still shows its value.
    assert_eq!(line(&mut s, &out, "sum([1, 2])").0, "3\n");
    assert!(s.variable("ans").is_some());
    std::fs::remove_dir_all(&dir).unwrap();
}
