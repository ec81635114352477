//! The session driven line by line, as the terminal front end drives it: multi-line
//! blocks, printed values, an error that leaves the session usable, the workspace.

use blazar_repl::{Session, Step};
use blazar_runtime::builtins::Ctx;
use blazar_runtime::Prec;
use std::cell::RefCell;
use std::io::Write;
use std::rc::Rc;

/// A writer whose bytes the test reads back.
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

impl Shared {
    fn take(&self) -> String {
        String::from_utf8(std::mem::take(&mut *self.0.borrow_mut())).unwrap()
    }
}

fn session() -> (Session, Shared) {
    let out = Shared::default();
    let ctx = Ctx::new(
        Prec::Single,
        Box::new(out.clone()),
        ".".into(),
        "repl".into(),
    );
    let opts = blazar_interp::Options {
        backend: Some(blazar_interp::BackendRef::new(
            blazar_native::CpuBackend::new(blazar_native::CpuTier::Interp, 1),
        )),
        ..Default::default()
    };
    (Session::new(ctx, opts), out)
}

/// Feeds lines; every line but the last must ask for more, the last must complete.
/// Returns the output and the rendered diagnostics.
fn input(s: &mut Session, out: &Shared, lines: &[&str]) -> (String, String) {
    for (i, line) in lines.iter().enumerate() {
        match s.feed(line) {
            Step::More => assert!(i + 1 < lines.len(), "`{line}` still waits for more"),
            Step::Done(reply) => {
                assert_eq!(i + 1, lines.len(), "`{line}` completed the input early");
                return (out.take(), s.render(&reply.diagnostics));
            }
        }
    }
    unreachable!()
}

#[test]
fn blocks_errors_and_the_workspace() {
    let (mut s, out) = session();
    assert_eq!(
        input(&mut s, &out, &["x = [1, 2, 3]"]),
        (String::new(), String::new())
    );
    // A function over several lines, then used on a later line.
    let def = ["function y = twice(v)", "    y = 2 * v", "end"];
    assert_eq!(input(&mut s, &out, &def).1, "");
    assert_eq!(input(&mut s, &out, &["twice(x)"]).0, "[2,4,6]\n");
    // A loop over several lines sees the workspace.
    let (printed, errs) = input(&mut s, &out, &["for i = 0..1", "  print x[i]", "end"]);
    assert_eq!((printed.as_str(), errs.as_str()), ("1\n2\n", ""));
    // A run-time error is reported, located in its input...
    let (_, errs) = input(&mut s, &out, &["y = x[7]"]);
    assert!(
        errs.starts_with("In[5]:1:5: error: index 7 is out of bounds"),
        "{errs}"
    );
    // ... and so is a compile-time one, after which nothing is lost.
    let (_, errs) = input(&mut s, &out, &["z = undefined_thing + 1"]);
    assert!(
        errs.contains("undefined variable or function `undefined_thing`"),
        "{errs}"
    );
    assert_eq!(input(&mut s, &out, &["x[2] + 1"]).0, "4\n");
    assert_eq!(input(&mut s, &out, &["ans * 10"]).0, "40\n");
    assert_eq!(s.variables(), ["ans", "i", "x"]);
}

#[test]
fn commands() {
    let (mut s, out) = session();
    input(&mut s, &out, &["a = ones(2, 3)"]);
    assert_eq!(input(&mut s, &out, &[":type a"]).0, "mat\n");
    assert!(input(&mut s, &out, &[":device"])
        .0
        .starts_with("kernels run on: cpu"));
    let (printed, _) = input(&mut s, &out, &[":time b = a + 1"]);
    assert!(
        printed.starts_with("time: ") && printed.ends_with(" ms\n"),
        "{printed}"
    );
    assert_eq!(input(&mut s, &out, &["sum(b)"]).0, "12\n");
    assert!(input(&mut s, &out, &[":help"]).0.contains(":quit"));
    let (_, errs) = input(&mut s, &out, &[":nope"]);
    assert!(errs.contains("unknown command `:nope`"), "{errs}");
    assert!(matches!(s.feed(":quit"), Step::Done(r) if r.quit));
}

#[test]
fn redefinition_replaces_and_kernels_run() {
    let (mut s, out) = session();
    input(&mut s, &out, &["function y = f(x)", "  y = x + 1", "end"]);
    input(&mut s, &out, &["function y = f(x)", "  y = x + 100", "end"]);
    assert_eq!(input(&mut s, &out, &["f(1)"]).0, "101\n");
    input(&mut s, &out, &["v = zeros(4)"]);
    let lines = [
        "parallel_do(4, v, __kernel__ (v : vec, pos : int) -> _",
        "    v[pos] = pos * pos)",
    ];
    let (_, errs) = input(&mut s, &out, &lines);
    assert_eq!(errs, "");
    assert_eq!(input(&mut s, &out, &["v"]).0, "[0,1,4,9]\n");
    // An unfinished input at the end is run, and its error reported.
    assert!(matches!(s.feed("for k = 0..2"), Step::More));
    let reply = s.finish().expect("a pending input");
    assert!(s.render(&reply.diagnostics).contains("found end of file"));
}

#[test]
fn names_that_change_kind_do_not_break_the_session() {
    let (mut s, out) = session();
    input(&mut s, &out, &["f = 3"]);
    // A function named like a workspace variable: reported or accepted, never a panic,
    // and the session goes on.
    let _ = input(&mut s, &out, &["function y = f(x)", "  y = x", "end"]);
    assert_eq!(input(&mut s, &out, &["1 + 1"]).0, "2\n");
    // A call of a function with no outputs prints nothing.
    input(&mut s, &out, &["function [] = noop()", "end"]);
    assert_eq!(
        input(&mut s, &out, &["noop()"]),
        (String::new(), String::new())
    );
}

#[test]
fn function_values_of_earlier_inputs_can_be_called() {
    let (mut s, out) = session();
    // A lambda of an earlier input (it used to index the new program's function table).
    assert_eq!(input(&mut s, &out, &["f = x -> 2*x"]).1, "");
    assert_eq!(
        input(&mut s, &out, &["f(3)"]),
        ("6\n".into(), String::new())
    );
    // Captures are values taken when the lambda was made, as in a program.
    input(&mut s, &out, &["a = 5"]);
    input(&mut s, &out, &["g = x -> a*x + f(x)"]);
    input(&mut s, &out, &["a = 1"]);
    assert_eq!(input(&mut s, &out, &["g(2)"]).0, "14\n");
    // Inside a cell and an object, and a lambda that returns a lambda.
    input(&mut s, &out, &["c = cell(2)"]);
    input(&mut s, &out, &["c[0] = g"]);
    input(&mut s, &out, &["o = object()"]);
    input(&mut s, &out, &["o.h = f"]);
    input(&mut s, &out, &["mk = k -> (x -> x + k)"]);
    input(&mut s, &out, &["add3 = mk(3)"]);
    assert_eq!(
        input(&mut s, &out, &["c[0](2) + o.h(1) + add3(1)"]).0,
        "20\n"
    );
    // A named function as a value; after its definition is replaced it is an error,
    // never a call of another function.
    input(
        &mut s,
        &out,
        &["function y = h(x)", "    y = x + 100", "end"],
    );
    input(&mut s, &out, &["k = h"]);
    assert_eq!(input(&mut s, &out, &["k(1)"]).0, "101\n");
    input(
        &mut s,
        &out,
        &["function y = h(x)", "    y = x + 200", "end"],
    );
    let (_, errs) = input(&mut s, &out, &["k(1)"]);
    assert!(errs.contains("no longer exists"), "{errs}");
    // The session goes on.
    assert_eq!(input(&mut s, &out, &["f(4) + h(0)"]).0, "208\n");
}

/// A host hook that panics once when armed: a stand-in for a bug in Blazar.
struct Boom(Rc<std::cell::Cell<bool>>);

impl blazar_interp::HostHook for Boom {
    fn stmt(&mut self, _at: &blazar_interp::HostStop) {
        if self.0.replace(false) {
            panic!("boom");
        }
    }
}

#[test]
fn an_internal_error_is_reported_and_the_session_kept() {
    let out = Shared::default();
    let ctx = Ctx::new(
        Prec::Single,
        Box::new(out.clone()),
        ".".into(),
        "repl".into(),
    );
    let armed = Rc::new(std::cell::Cell::new(false));
    let opts = blazar_interp::Options {
        host_hook: Some(blazar_interp::HostHookRef(Rc::new(RefCell::new(Boom(
            armed.clone(),
        ))))),
        ..Default::default()
    };
    let mut s = Session::new(ctx, opts);
    input(&mut s, &out, &["x = 41"]);
    armed.set(true);
    let (_, errs) = input(&mut s, &out, &["y = 1"]);
    assert!(
        errs.contains("error: internal error in Blazar: boom"),
        "{errs}"
    );
    assert_eq!(
        input(&mut s, &out, &["x + 1"]),
        ("42\n".into(), String::new())
    );
}

#[test]
fn help_whos_import_and_completion() {
    let (mut s, out) = session();
    let (text, errs) = input(&mut s, &out, &["help sum"]);
    assert!(text.starts_with("sum(x) · sum(x, d)"), "{text}{errs}");
    let (text, _) = input(&mut s, &out, &["?linspace"]);
    assert!(text.contains("linspace(a, b, n)"), "{text}");
    let (_, errs) = input(&mut s, &out, &["help linspcae"]);
    assert!(errs.contains("did you mean `linspace`?"), "{errs}");
    let (text, _) = input(&mut s, &out, &["help --search fourier"]);
    assert!(text.contains("fft2"), "{text}");
    input(&mut s, &out, &["A = zeros(2, 3)"]);
    input(&mut s, &out, &["n = int8(3)"]);
    input(&mut s, &out, &["o = object()"]);
    input(&mut s, &out, &["o.width = 2"]);
    let (text, _) = input(&mut s, &out, &["whos"]);
    let rows: Vec<Vec<&str>> = text
        .lines()
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert!(rows.contains(&vec!["A", "2x3", "mat", "24"]), "{text}");
    assert!(rows.contains(&vec!["n", "1x1", "int8", "1"]), "{text}");
    assert!(rows.contains(&vec!["o", "1x1", "object", "0"]), "{text}");
    // `import` brings a bundled module's functions in.
    let (_, errs) = input(&mut s, &out, &["import \"inttypes.q\""]);
    assert!(errs.is_empty(), "{errs}");
    let (text, errs) = input(&mut s, &out, &["print float_to_uint8([2.5, 300])"]);
    assert_eq!(text, "[3,255]\n", "{errs}");
    // `t = toc()` prints nothing.
    input(&mut s, &out, &["tic()"]);
    let (text, _) = input(&mut s, &out, &["t = toc()"]);
    assert_eq!(text, "");
    let c = s.completions();
    assert_eq!(
        c.complete("x = float_to_u", 14).1,
        vec!["float_to_uint16", "float_to_uint8"]
    );
    assert_eq!(c.complete("print o.wi", 10).1, vec!["o.width"]);
}
