//! The compiled host tier (`--host-tier`): serial host loops with a kernel form run as
//! one-thread kernels, say so in `blazar emit loops` and `--profile`, give the
//! interpreter's answers (errors included), and keep what must stay dynamic on the
//! interpreter with the reason.

use std::path::PathBuf;
use std::process::Command;

fn run(src: &str, args: &[&str]) -> (String, String, bool) {
    let dir = std::env::temp_dir().join(format!("blazar-host-tier-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let file: PathBuf = dir.join(format!("p{n}.q"));
    std::fs::write(&file, src).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_blazar"))
        .args(args)
        .arg(&file)
        .env("BLAZAR_QUIET", "1")
        .output()
        .expect("runs blazar");
    let _ = std::fs::remove_file(&file);
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.success(),
    )
}

const PROGRAM: &str = "\
s = 0
for i = 0..99999
    s = 0.5 * s + mod(i, 7)
end
print s
k = 0
while k * k < 5000
    k += 1
end
print k
for j = 0..2
    print j
end
";

#[test]
fn the_tiers_agree_and_profile_says_which_ran() {
    let (a, err, ok) = run(PROGRAM, &["run", "--host-tier", "interp"]);
    assert!(ok, "{err}");
    for tier in ["compiled", "auto"] {
        let (b, err, ok) = run(PROGRAM, &["run", "--host-tier", tier, "--profile"]);
        assert!(ok, "{err}");
        assert_eq!(a, b, "--host-tier {tier}");
        assert!(err.contains("profile: host loops"), "{err}");
    }
    let (_, err, _) = run(
        PROGRAM,
        &[
            "run",
            "--host-tier",
            "compiled",
            "--cpu-tier",
            "interp",
            "--profile",
        ],
    );
    // The recurrence and the while loop ran compiled from their first iteration.
    let rows: Vec<&str> = err
        .lines()
        .skip_while(|l| !l.starts_with("profile: host loops"))
        .collect();
    assert!(
        rows.iter()
            .any(|l| l.split_whitespace().collect::<Vec<_>>() == ["2", "0", "100000", "-"]),
        "{err}"
    );
    assert!(
        rows.iter()
            .any(|l| l.split_whitespace().collect::<Vec<_>>() == ["7", "0", "71", "-"]),
        "{err}"
    );
}

#[test]
fn emit_loops_gives_the_host_tier_and_why_not() {
    let (out, err, ok) = run(PROGRAM, &["emit", "loops"]);
    assert!(ok, "{err}");
    assert!(
        out.contains(":2: serial: line 3: `s` is read before it is assigned in an iteration, so its value is carried from one iteration to the next; host tier: compiled as a serial kernel"),
        "{out}"
    );
    assert!(
        out.contains(":7: serial: host tier: compiled as a serial kernel"),
        "{out}"
    );
    assert!(
        out.contains(":11: serial: line 12: it prints; host tier: interpreter, line 12: it prints"),
        "{out}"
    );
}

#[test]
fn an_index_out_of_range_is_the_interpreters_error() {
    let src = "A = zeros(4)\ns = 0.0\nfor i = 0..10\n    s = s + A[i]\nend\nprint s\n";
    let (_, a, ok_a) = run(src, &["run", "--host-tier", "interp"]);
    let (_, b, ok_b) = run(src, &["run", "--host-tier", "compiled"]);
    assert!(!ok_a && !ok_b);
    let first = |e: &str| e.lines().next().unwrap_or("").to_string();
    let (a, b) = (first(&a), first(&b));
    assert!(a.contains(":4:13: error: index 4 is out of bounds"), "{a}");
    assert_eq!(
        a.rsplit_once(".q").map(|x| x.1),
        b.rsplit_once(".q").map(|x| x.1)
    );
}

#[test]
fn what_stays_dynamic_runs_on_the_interpreter_with_its_reason() {
    // `name` holds a string when the loop starts: its kernel cannot take it.
    let src = "name = \"abc\"\nfor i = 1..3\n    y = name\nend\nprint y, i\n";
    let (out, err, ok) = run(src, &["run", "--host-tier", "compiled", "--profile"]);
    assert!(ok, "{err}");
    assert_eq!(out.trim(), "abc3");
    assert!(err.contains("`name` holds a"), "{err}");
}

#[test]
fn a_loop_of_long_iterations_switches_after_a_few() {
    // Each iteration of the outer loop runs a thousand inner ones: the clock is read
    // by steps spent, not by outer iterations, so the switch comes after a few
    // milliseconds, not after 256 outer iterations.
    let src = "\
s = 0
for sweep = 1..300
    for j = 1..1000
        s = mod(s * 3 + j, 1001)
    end
end
print s
";
    let (a, err, ok) = run(src, &["run", "--host-tier", "interp"]);
    assert!(ok, "{err}");
    let (b, err, ok) = run(
        src,
        &[
            "run",
            "--host-tier",
            "auto",
            "--cpu-tier",
            "jit",
            "--profile",
        ],
    );
    assert!(ok, "{err}");
    assert_eq!(a, b);
    let row: Vec<u64> = err
        .lines()
        .skip_while(|l| !l.starts_with("profile: host loops"))
        .find_map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            (w.len() == 4 && w[0] == "2")
                .then(|| vec![w[1].parse().unwrap(), w[2].parse().unwrap()])
        })
        .unwrap_or_else(|| panic!("no profile row for line 2: {err}"));
    assert_eq!(row[0] + row[1], 300, "{err}");
    assert!(row[0] < 100 && row[1] > 0, "{err}");
}

#[test]
fn what_follows_a_small_parallel_nest_is_checked_too() {
    // The inner loop is a small parallel nest the serial kernel would run as written;
    // the `print` after it keeps the outer loop on the interpreter.
    let src = "\
A = zeros(4)
s = 0.
for k = 1..10
    for j = 0..3
        A[j] = A[j] + k
    end
    s = s + 1
    print s
end
print A
";
    let (out, err, ok) = run(src, &["emit", "loops"]);
    assert!(ok, "{err}");
    assert!(
        out.contains(":3: serial: line 8: it prints; host tier: interpreter, line 8: it prints"),
        "{out}"
    );
    let (a, err, ok) = run(src, &["run", "--host-tier", "interp"]);
    assert!(ok, "{err}");
    let (b, err, ok) = run(src, &["run", "--host-tier", "compiled"]);
    assert!(ok, "{err}");
    assert_eq!(a, b);
}
