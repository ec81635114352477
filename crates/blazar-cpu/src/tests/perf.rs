//! Speed checks against plain Rust loops (ignored: run with `--release -- --ignored
//! --nocapture`). Timings are medians of several runs on 2 threads.

use super::build::*;
use crate::*;
use blazar_kir::*;
use blazar_runtime::Buffer;
use rayon::prelude::*;
use std::time::Instant;

fn median_ms(mut f: impl FnMut()) -> f64 {
    f();
    let mut t: Vec<f64> = (0..7)
        .map(|_| {
            let s = Instant::now();
            f();
            s.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    t.sort_by(f64::total_cmp);
    t[3]
}

fn report(name: &str, ours: f64, native: f64) {
    println!(
        "{name}: blazar-cpu {ours:.2} ms, plain Rust {native:.2} ms, ratio {:.2}",
        ours / native
    );
}

#[test]
#[ignore]
fn perf_gamma_2048x2048x3() {
    let dims = [2048usize, 2048, 3];
    let n: usize = dims.iter().product();
    let mut b = KB::new(3);
    let x = b.garr(Scalar::F32, 3);
    let y = b.garr(Scalar::F32, 3);
    let g = b.param(F32);
    let p = pos(3);
    let idx: Vec<Expr> = (0..3).map(|d| lane(p.clone(), d)).collect();
    let k = b.build(vec![y.set(idx.clone(), bin(BinOp::Pow, x.at(idx), g))]);
    let xs: Vec<f32> = (0..n).map(|i| (i % 255) as f32 / 255.0).collect();
    let mut xb = Buffer::F32(xs.clone());
    let mut yb = Buffer::F32(vec![0.0; n]);
    let plan = LaunchPlan {
        rank: 3,
        data_dims: [2048, 2048, 3, 1],
        block_dims: [1, 32, 3, 1],
        serial: false,
    };
    let args = vec![
        ArgVal::Array(0),
        ArgVal::Array(1),
        ArgVal::Value(KValue::Float(0.45)),
    ];
    let ours = median_ms(|| {
        let mut arrs = vec![
            ArrayArg {
                dims: dims.to_vec(),
                buf: &mut xb,
            },
            ArrayArg {
                dims: dims.to_vec(),
                buf: &mut yb,
            },
        ];
        launch(&k, &plan, &args, &mut arrs, &ExecOptions { threads: 2 }).unwrap();
    });
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let mut out = vec![0f32; n];
    let native = median_ms(|| {
        pool.install(|| {
            out.par_chunks_mut(4096)
                .zip(xs.par_chunks(4096))
                .for_each(|(o, i)| {
                    for (o, &i) in o.iter_mut().zip(i) {
                        *o = i.powf(0.45);
                    }
                })
        })
    });
    assert_eq!(f32s(&yb), &out[..]);
    report("gamma 2048x2048x3", ours, native);
}

#[test]
#[ignore]
fn perf_box3x3_2048x2048() {
    let (h, w) = (2048usize, 2048usize);
    let mut b = KB::new(2);
    let x = b.garr(Scalar::F32, 2);
    let y = b.garr(Scalar::F32, 2);
    let s = b.var(F32);
    let p = pos(2);
    let (i, j) = (lane(p.clone(), 0), lane(p.clone(), 1));
    let mut body = vec![assign(&s, cf(0.0))];
    for di in -1..=1 {
        for dj in -1..=1 {
            let v = x.at(vec![add(i.clone(), ci(di)), add(j.clone(), ci(dj))]);
            body.push(assign(&s, add(s.clone(), v)));
        }
    }
    body.push(y.set(vec![i, j], mul(s, cf(1.0 / 9.0))));
    let k = b.build(body);
    let xs: Vec<f32> = (0..h * w).map(|i| (i % 251) as f32).collect();
    let mut xb = Buffer::F32(xs.clone());
    let mut yb = Buffer::F32(vec![0.0; h * w]);
    let plan = LaunchPlan {
        rank: 2,
        data_dims: [h, w, 1, 1],
        block_dims: [16, 16, 1, 1],
        serial: false,
    };
    let ours = median_ms(|| {
        let mut arrs = vec![
            ArrayArg {
                dims: vec![h, w],
                buf: &mut xb,
            },
            ArrayArg {
                dims: vec![h, w],
                buf: &mut yb,
            },
        ];
        launch(
            &k,
            &plan,
            &arrays(2),
            &mut arrs,
            &ExecOptions { threads: 2 },
        )
        .unwrap();
    });
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let mut out = vec![0f32; h * w];
    let native = median_ms(|| {
        pool.install(|| {
            out.par_chunks_mut(w).enumerate().for_each(|(i, row)| {
                for (j, o) in row.iter_mut().enumerate() {
                    let mut s = 0.0f32;
                    for di in -1i64..=1 {
                        for dj in -1i64..=1 {
                            let (a, b) = (i as i64 + di, j as i64 + dj);
                            if a >= 0 && a < h as i64 && b >= 0 && b < w as i64 {
                                s += xs[a as usize * w + b as usize];
                            }
                        }
                    }
                    *o = s * (1.0 / 9.0);
                }
            })
        })
    });
    assert_eq!(f32s(&yb), &out[..]);
    report("box 3x3 2048x2048", ours, native);
}
