//! How many kernels a whole-array program makes, read from `blazar run --profile`: a
//! chain of element-wise operations is one kernel, a reduction of it is one kernel,
//! a slice feeding arithmetic is part of its kernel, and a loop compiles its statements
//! once (launches counted per line). Fusion must not silently regress into one kernel
//! per operation.

use std::collections::BTreeMap;
use std::process::Command;

/// Kernel launches per (line, kernel) and the copies table of a `--profile` run of
/// `src` with every array expression fused, on the CPU's interpreter tier.
fn profile(src: &str) -> (String, BTreeMap<(u32, String), u64>, String) {
    let dir = std::env::temp_dir().join(format!("blazar-structure-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join(format!("p{}.q", src.len()));
    std::fs::write(&file, src).expect("write program");
    let out = Command::new(env!("CARGO_BIN_EXE_blazar"))
        .args([
            "run",
            "--device",
            "cpu",
            "--cpu-tier",
            "interp",
            "--fuse-min",
            "0",
            "--profile",
        ])
        .arg(&file)
        .output()
        .expect("runs blazar");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let mut kernels = BTreeMap::new();
    let mut lines = stderr
        .lines()
        .skip_while(|l| !l.starts_with("profile: kernels"));
    lines.next();
    lines.next();
    for l in lines.by_ref() {
        let f: Vec<&str> = l.split_whitespace().collect();
        match f.as_slice() {
            [line, name, _device, launches, ..] if line.parse::<u32>().is_ok() => {
                kernels.insert(
                    (line.parse().unwrap(), name.to_string()),
                    launches.parse().unwrap(),
                );
            }
            _ => break,
        }
    }
    let copies = stderr
        .split("profile: copies between host and device")
        .nth(1)
        .unwrap_or("")
        .trim()
        .to_string();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        kernels,
        copies,
    )
}

fn launches_on(k: &BTreeMap<(u32, String), u64>, line: u32) -> Vec<u64> {
    k.iter()
        .filter(|((l, _), _)| *l == line)
        .map(|(_, n)| *n)
        .collect()
}

#[test]
fn a_chain_of_element_wise_operations_is_one_kernel() {
    let (out, k, copies) = profile(
        "x = 255 * rand(64, 48, 3)\n\
         y = 255 * (x / 255) .^ 0.45 + sqrt(abs(x - 100)) .* (x > 128) - max(x, 3)\n\
         print size(y)\n",
    );
    assert_eq!(out, "[64,48,3]\n");
    assert_eq!(launches_on(&k, 2), vec![1], "{k:?}");
    assert_eq!(copies, "none", "the CPU copies nothing");
}

#[test]
fn a_reduction_absorbs_its_producer() {
    let (_, k, _) = profile(
        "x = rand(100, 100)\ny = rand(100, 100)\ns = sum((x - y) .^ 2) + max(x .* y)\nprint s > 0\n",
    );
    // Two reductions on line 3, each one kernel reading x and y once.
    assert_eq!(launches_on(&k, 3), vec![1, 1], "{k:?}");
}

#[test]
fn slices_and_data_movement_join_the_kernel_around_them() {
    let (out, k, _) = profile(
        "x = rand(32, 16, 3)\n\
         g = 0.3 * x[:, :, 0] + 0.6 * x[:, :, 1] + 0.1 * x[:, :, 2]\n\
         t = transpose(g) .* 2 + 1\n\
         print size(g), size(t)\n",
    );
    assert_eq!(out, "[32,16][16,32]\n");
    assert_eq!(launches_on(&k, 2), vec![1], "{k:?}");
    assert_eq!(launches_on(&k, 3), vec![1], "{k:?}");
}

#[test]
fn a_loop_launches_each_statement_per_iteration_with_one_kernel() {
    let (_, k, _) = profile(
        "x = rand(50, 50)\n\
         for i = 1..10\n\
             x = x * 0.5 + 1\n\
         end\n\
         print sum(x) > 0\n",
    );
    assert_eq!(launches_on(&k, 3), vec![10], "{k:?}");
}

#[test]
fn a_join_is_one_kernel_with_its_producers_and_consumers() {
    let (out, k, copies) = profile(
        "x = rand(40, 30)\n\
         y = rand(40, 20)\n\
         z = [x, 2 * x] + 1\n\
         h = horzcat(x, y .^ 2) .* 3\n\
         s = sum(cat(0, x, x + 1))\n\
         print size(z), size(h), s > 0\n",
    );
    assert_eq!(out, "[2,40,30][40,50]1\n");
    for line in [3, 4, 5] {
        assert_eq!(launches_on(&k, line), vec![1], "line {line}: {k:?}");
    }
    assert_eq!(copies, "none", "the CPU copies nothing");
}

#[test]
fn a_reshape_is_read_in_place_by_the_kernel_around_it() {
    let (out, k, _) = profile(
        "x = rand(40, 30, 3)\n\
         r = 2 * reshape(x, [40, 90]) + 1\n\
         s = sum(reshape(x, 1200, 3) .^ 2)\n\
         v = x[:] * 3\n\
         print size(r), s > 0, size(v)\n",
    );
    assert_eq!(out, "[40,90]1[1,3600]\n");
    for line in [2, 3, 4] {
        assert_eq!(launches_on(&k, line), vec![1], "line {line}: {k:?}");
    }
}

#[test]
fn a_reshape_statement_is_a_view_and_launches_nothing() {
    let (out, k, copies) = profile(
        "x = rand(40, 30, 3)\n\
         y = reshape(x, [40, 90])\n\
         y[0, 89] = -1\n\
         v = reshape(y, 3600)\n\
         print size(y), x[0, 29, 2], size(v), v[89]\n",
    );
    assert_eq!(out, "[40,90]-1[1,3600]-1\n");
    for line in [2, 4] {
        assert_eq!(
            launches_on(&k, line),
            Vec::<u64>::new(),
            "line {line}: {k:?}"
        );
    }
    assert_eq!(copies, "none", "the CPU copies nothing");
}

/// The fused statement groups of a `--profile` run of `src` (as [`profile`] runs it):
/// per group its first and last lines, runs, and the arrays its regions allocated.
fn fused_groups(src: &str) -> Vec<(u32, u32, u64, u64)> {
    let dir = std::env::temp_dir().join(format!("blazar-structure-g{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join(format!("g{}.q", src.len()));
    std::fs::write(&file, src).expect("write program");
    let out = Command::new(env!("CARGO_BIN_EXE_blazar"))
        .args(["run", "--device", "cpu", "--cpu-tier", "interp"])
        .args(["--fuse-min", "0", "--profile"])
        .arg(&file)
        .output()
        .expect("runs blazar");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let mut lines = stderr
        .lines()
        .skip_while(|l| !l.starts_with("profile: fused statements"));
    lines.next();
    lines.next();
    lines
        .map_while(|l| {
            let f: Vec<u64> = l
                .split_whitespace()
                .map(|w| w.parse().ok())
                .collect::<Option<_>>()?;
            match f.as_slice() {
                [a, b, runs, arrays] => Some((*a as u32, *b as u32, *runs, *arrays)),
                _ => None,
            }
        })
        .collect()
}

const PIPELINE: &str = "x = 255 * rand(64, 48, 3)\n\
                        y = 255 * (x / 255) .^ 0.45\n\
                        t = y > 128\n\
                        e = sum(t .* y)\n\
                        print e > 0, size(x)\n";

#[test]
fn a_three_statement_pipeline_is_one_kernel_with_no_intermediate_array() {
    let (out, k, _) = profile(PIPELINE);
    assert_eq!(out.trim(), "1[64,48,3]");
    assert!(launches_on(&k, 2).is_empty(), "{k:?}");
    assert!(launches_on(&k, 3).is_empty(), "{k:?}");
    assert_eq!(launches_on(&k, 4), vec![1], "{k:?}");
    // Lines 2 to 4 ran once as one group and allocated no array (`y` and `t` are
    // values of the region, `e` a reduction).
    assert_eq!(fused_groups(PIPELINE), vec![(2, 4, 1, 0)]);
}

#[test]
fn a_live_intermediate_ends_its_group() {
    let src = "x = 255 * rand(64, 48, 3)\n\
               y = 255 * (x / 255) .^ 0.45\n\
               t = y > 128\n\
               e = sum(t .* y)\n\
               print e > 0, size(x), size(y)\n";
    let (_, k, _) = profile(src);
    // `y` is printed: its own kernel and array; `t` and `e` one kernel.
    assert_eq!(launches_on(&k, 2), vec![1], "{k:?}");
    assert!(launches_on(&k, 3).is_empty(), "{k:?}");
    assert_eq!(launches_on(&k, 4), vec![1], "{k:?}");
    assert_eq!(fused_groups(src), vec![(3, 4, 1, 0)]);
}

#[test]
fn a_fused_group_in_a_loop_is_one_kernel_per_iteration() {
    let src = "x = rand(50, 50)\n\
               acc = 0\n\
               for i = 1..10\n\
                   y = x * i\n\
                   t = y > 2\n\
                   e = sum(t .* y)\n\
                   acc = acc + e\n\
               end\n\
               print acc >= 0, size(x)\n";
    let (_, k, _) = profile(src);
    assert!(launches_on(&k, 4).is_empty(), "{k:?}");
    assert_eq!(launches_on(&k, 6), vec![10], "{k:?}");
    assert_eq!(fused_groups(src), vec![(4, 7, 10, 0)]);
}
