//! Cells, objects and closures that refer to themselves are reclaimed (issue 16): a
//! loop that builds thousands of cycles, each holding 16 KB of arrays, stays within a
//! memory bound (without the collector it grows by about 320 MB).

use blazar_interp::{check, run, Options};
use blazar_runtime::builtins::Ctx;

/// The resident memory of this process, in KiB.
fn rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

#[test]
fn cyclic_cells_objects_and_closures_are_reclaimed_in_a_loop() {
    let src = "\
for i = 0..19999
    c = cell(3)
    c[0] = c
    c[1] = zeros(2000)
    f = x -> c
    c[2] = f
    o = object()
    o.self = o
    o.data = zeros(2000)
    o.f = f
    o.cells = `c, c'
end
print size(c), size(o.self.self.data), size(o.f(1)[0][1])
";
    let loaded = check("t.q", src, None);
    assert!(!loaded.has_errors(), "{:?}", loaded.diagnostics);
    let before = rss_kib();
    let out = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    struct Sink(std::rc::Rc<std::cell::RefCell<Vec<u8>>>);
    impl std::io::Write for Sink {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.borrow_mut().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let ctx = Ctx::new(
        blazar_runtime::Prec::Single,
        Box::new(Sink(out.clone())),
        std::env::temp_dir(),
        "t".into(),
    );
    run(&loaded, ctx, Options::default()).expect("the program runs");
    let grown = rss_kib().saturating_sub(before);
    assert_eq!(
        String::from_utf8_lossy(&out.borrow()),
        "[1,3][1,2000][1,2000]\n"
    );
    let stats = blazar_runtime::cycles::stats();
    assert!(stats.reclaimed >= 19_000 * 3, "{stats:?}");
    assert!(stats.tracked < 4096, "{stats:?}");
    assert!(grown < 100 * 1024, "memory grew by {grown} KiB");
}
