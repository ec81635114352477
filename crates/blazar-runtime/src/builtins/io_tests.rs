//! Tests of `save`/`load`: exact round trips, and damaged files give errors, never panics.

use super::*;
use crate::Prec;

fn ctx() -> Ctx {
    Ctx::new(
        Prec::Single,
        Box::new(std::io::sink()),
        std::env::temp_dir(),
        "t".into(),
    )
}

fn unique() -> String {
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    format!("blazar_io_{}_{t}.qd", std::process::id())
}

/// Saves and loads `v`, returning the loaded value's debug text.
fn round_trip(v: Value) -> String {
    let mut c = ctx();
    let name = unique();
    save(&mut c, &[Value::str(&name), v]).unwrap();
    let back = load(&mut c, &[Value::str(&name)]);
    let _ = std::fs::remove_file(std::env::temp_dir().join(&name));
    format!("{:?}", back.unwrap())
}

#[test]
fn arrays_round_trip_exactly() {
    let cases = vec![
        Array::from_reals(
            vec![2, 3],
            vec![1.5, -2.0, 3.25, f64::INFINITY, 0.1, 7.0],
            Prec::Single,
        ),
        Array::from_reals(vec![4], vec![0.1, 0.2, 1e300, -0.0], Prec::Double),
        Array::from_ints(vec![1, 2, 2], vec![1, -2, i32::MAX, i32::MIN]),
        Array::new(vec![3], Buffer::U8(vec![0, 128, 255])),
        Array::new(vec![2], Buffer::U64(vec![u64::MAX, 3])),
        Array::new(vec![2], Buffer::I16(vec![-300, 300])),
        Array::from_complex(
            vec![2],
            vec![Complex64::new(1.0, -2.0), Complex64::new(0.5, 3.0)],
            Prec::Single,
        ),
        Array::from_complex(vec![1, 1], vec![Complex64::new(0.1, 1e-300)], Prec::Double),
        Array::from_reals(vec![0], vec![], Prec::Single),
    ];
    for a in cases {
        let want = format!("{:?}", Value::array(a.clone()));
        assert_eq!(round_trip(Value::array(a)), want);
    }
}

#[test]
fn scalars_strings_and_cells_round_trip() {
    let inner = Value::array(Array::from_ints(vec![2], vec![4, 5]));
    let cell = Array::cell(
        vec![2, 2],
        vec![
            Value::str("héllo\nworld"),
            Value::Int(200, IntTy::U8),
            Value::Complex(Complex64::new(1.0, 2.0)),
            inner,
        ],
    );
    let nested = Value::array(Array::cell(
        vec![2],
        vec![Value::array(cell), Value::Real(0.1)],
    ));
    for v in [
        Value::Real(3.5),
        Value::Int(-7, IntTy::I64),
        Value::str(""),
        Value::str("a b"),
        nested,
    ] {
        let want = format!("{v:?}");
        assert_eq!(round_trip(v), want);
    }
}

#[test]
fn mutated_files_never_panic() {
    let cell = Array::cell(
        vec![2],
        vec![
            Value::str("ab"),
            Value::array(Array::from_reals(vec![2, 1], vec![1.0, 2.0], Prec::Single)),
        ],
    );
    let mut good = MAGIC.to_vec();
    encode(&Value::array(cell), &mut good, 0).unwrap();
    let mut seed = 12345u64;
    for _ in 0..5000 {
        let mut b = good.clone();
        for _ in 0..3 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let i = (seed >> 33) as usize % b.len();
            b[i] = (seed >> 13) as u8;
        }
        let _ = decode_file(&b);
    }
}

#[test]
fn corrupt_files_give_errors() {
    let mut good = MAGIC.to_vec();
    encode(
        &Value::array(Array::from_ints(vec![3], vec![1, 2, 3])),
        &mut good,
        0,
    )
    .unwrap();
    assert!(decode_file(&good).is_ok());
    for n in 0..good.len() {
        assert!(decode_file(&good[..n]).is_err(), "prefix {n}");
    }
    let mut extra = good.clone();
    extra.push(0);
    assert!(decode_file(&extra).is_err());
    let bad: &[&[u8]] = &[
        b"BLAZAR1\narray f32 2 99999999999 99999999999\n",
        b"BLAZAR1\narray f32 0\n",
        b"BLAZAR1\narray q8 1 1\n\0",
        b"BLAZAR1\ncell 1 18446744073709551615\n",
        b"BLAZAR1\nstring 99999999999999999999\n",
        b"BLAZAR1\nint int7\n\0\0\0\0\0\0\0\0",
        b"BLAZAR1\nstring 2\n\xff\xfe",
        b"BLAZAR1\ncell 1 1\ncell 1 1\ncell 1 1\n",
        b"NOTBLAZAR\n",
    ];
    for b in bad {
        assert!(decode_file(b).is_err(), "{:?}", String::from_utf8_lossy(b));
    }
    let mut c = ctx();
    let name = unique();
    std::fs::write(
        std::env::temp_dir().join(&name),
        b"BLAZAR1\narray f32 1 4\n\0\0",
    )
    .unwrap();
    let e = load(&mut c, &[Value::str(&name)]).unwrap_err();
    let _ = std::fs::remove_file(std::env::temp_dir().join(&name));
    assert!(e.message.contains("truncated"), "{}", e.message);
    assert!(load(&mut c, &[Value::str("blazar_no_such_file.qd")]).is_err());
    assert!(save(&mut c, &[Value::Real(1.0), Value::Real(1.0)]).is_err());
}
