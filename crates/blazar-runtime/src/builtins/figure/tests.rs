//! Figures: handles, titles, holds, rasterizing and the files written at the end.

use super::*;
use crate::array::ElemType;
use crate::builtins::testing::Sink;
use crate::Prec;

fn unique_stem() -> String {
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    format!("blazar_fig_{}_{t}", std::process::id())
}

fn number(h: &Value) -> i64 {
    match h {
        Value::Object(o) => o.borrow().get("number").and_then(Value::as_i64).unwrap(),
        _ => panic!("not a handle"),
    }
}

fn reals_of(v: &[f64]) -> Value {
    Value::array(Array::from_reals(vec![v.len()], v.to_vec(), Prec::Single))
}

#[test]
fn imshow_rescales_and_finish_writes_files() {
    let dir = std::env::temp_dir();
    let sink = Sink::default();
    let stem = unique_stem();
    let mut c = Ctx::new(
        Prec::Single,
        Box::new(sink.clone()),
        dir.clone(),
        stem.clone(),
    );
    let x = Value::array(Array::from_reals(
        vec![2, 2],
        vec![-1.0, 0.0, 0.5, 1.0],
        Prec::Single,
    ));
    let empty = Value::array(Array::zeros(vec![0], ElemType::F32));
    let h1 = imshow(&mut c, &[x.clone(), empty]).unwrap();
    title(&mut c, &[Value::str("gray: min..max")]).unwrap();
    let h2 = imshow(&mut c, &[x]).unwrap();
    assert_eq!((number(&h1), number(&h2)), (1, 2));
    let r = rasterize(&mut c, std::slice::from_ref(&h1)).unwrap();
    let a = match &r {
        Value::Array(a) => a.borrow().clone(),
        _ => panic!(),
    };
    assert_eq!(a.dims, vec![2, 2, 3]);
    assert_eq!(a.elem(), ElemType::Int(crate::IntTy::U8));
    assert_eq!(a.to_f64_vec()[..6], [0.0, 0.0, 0.0, 128.0, 128.0, 128.0]);
    connect(&mut c, &[h1, h2]).unwrap();
    plot(&mut c, &[reals_of(&[0.0, 1.0, 4.0])]).unwrap();
    legend(&mut c, &[Value::str("squares")]).unwrap();
    finish(&mut c).unwrap();
    let text = String::from_utf8(sink.0.borrow().clone()).unwrap();
    assert_eq!(
        text,
        format!(
            "figure 1: wrote {stem}_figure1_gray_min_max.png (linked with figure 2)\n\
             figure 2: wrote {stem}_figure2.png (linked with figure 1)\n\
             figure 3: wrote {stem}_figure3.png, {stem}_figure3.svg\n"
        )
    );
    let p = dir.join(format!("{stem}_figure1_gray_min_max.png"));
    let img = image::open(&p).unwrap().to_luma8();
    assert_eq!(img.into_raw(), vec![0u8, 128, 191, 255]);
    let svg = std::fs::read_to_string(dir.join(format!("{stem}_figure3.svg"))).unwrap();
    assert!(svg.contains("squares"), "{svg}");
    for f in [
        "_figure1_gray_min_max.png",
        "_figure2.png",
        "_figure3.png",
        "_figure3.svg",
    ] {
        let _ = std::fs::remove_file(dir.join(format!("{stem}{f}")));
    }
}

#[test]
fn plots_hold_and_rasterize() {
    let (mut c, _) = crate::builtins::testing::ctx_capture(Prec::Single);
    let x = reals_of(&[0.0, 1.0, 2.0]);
    plot(&mut c, &[x.clone(), reals_of(&[1.0, 0.0, 1.0])]).unwrap();
    assert_eq!(
        hold(&mut c, &[Value::str("on")]).unwrap().as_f64(),
        Some(0.0)
    );
    let h = plot(
        &mut c,
        &[x.clone(), reals_of(&[2.0, 2.0, 0.0]), Value::str("r--")],
    )
    .unwrap();
    assert_eq!(number(&h), 1);
    match &c.figures.list[0].kind {
        Kind::Plot(p) => {
            assert_eq!(p.series.len(), 2);
            assert_eq!(p.series[1].color, Some('r'));
        }
        Kind::Image(_) => panic!("a plot"),
    }
    hold(&mut c, &[Value::str("off")]).unwrap();
    plot(&mut c, &[x.clone(), reals_of(&[5.0, 5.0, 5.0])]).unwrap();
    match &c.figures.list[0].kind {
        Kind::Plot(p) => assert_eq!(p.series.len(), 1),
        Kind::Image(_) => panic!("a plot"),
    }
    let r = rasterize(&mut c, &[h]).unwrap();
    let a = match &r {
        Value::Array(a) => a.borrow().clone(),
        _ => panic!(),
    };
    assert_eq!(a.dims, vec![480, 640, 3]);
    // Not all white: axes and a line were drawn.
    assert!(a.to_f64_vec().iter().any(|&v| v < 128.0));
    assert!(plot(&mut c, &[x, reals_of(&[1.0])]).is_err());
    assert!(hold(&mut c, &[Value::str("maybe")]).is_err());
    assert!(rasterize(&mut c, &[Value::int(9)]).is_err());
    assert!(title(&mut c, &[Value::Real(1.0)]).is_err());
}

#[test]
fn title_suffixes() {
    assert_eq!(render::title_suffix(""), "");
    assert_eq!(render::title_suffix("  PSNR: 31.2 dB!"), "_PSNR_31_2_dB");
    assert_eq!(render::title_suffix(&"a".repeat(60)).len(), 41);
}
