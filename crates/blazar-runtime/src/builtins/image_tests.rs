//! Unit tests of `image.rs`: reading and writing images, 16-bit files, JPEG.

use super::*;
use crate::{ElemType, Prec};

fn unique(ext: &str) -> String {
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    format!("blazar_img_{}_{t}.{ext}", std::process::id())
}

fn arr(v: &Value) -> Array {
    match v {
        Value::Array(a) => a.borrow().clone(),
        _ => panic!("not an array"),
    }
}

fn round_trip(ext: &str, chans: usize) {
    let mut c = Ctx::new(
        Prec::Single,
        Box::new(std::io::sink()),
        std::env::temp_dir(),
        "t".into(),
    );
    let n = 3 * 4 * chans;
    let data: Vec<f64> = (0..n).map(|i| ((i * 37) % 256) as f64).collect();
    let x = Value::array(Array::from_reals(
        vec![3, 4, chans],
        data.clone(),
        Prec::Single,
    ));
    let name = unique(ext);
    imwrite(&mut c, &[Value::str(&name), x]).unwrap();
    let y = arr(&imread(&mut c, &[Value::str(&name)]).unwrap());
    let _ = std::fs::remove_file(std::env::temp_dir().join(&name));
    assert_eq!(y.dims, vec![3, 4, chans]);
    assert_eq!(y.elem(), ElemType::F32);
    assert_eq!(y.to_f64_vec(), data);
}

#[test]
fn png_and_tiff_round_trip() {
    round_trip("png", 3);
    round_trip("png", 1);
    round_trip("tiff", 3);
    round_trip("tif", 1);
}

#[test]
fn reads_16_bit_and_writes_jpeg() {
    let mut c = Ctx::new(
        Prec::Double,
        Box::new(std::io::sink()),
        std::env::temp_dir(),
        "t".into(),
    );
    let name = unique("png");
    let path = std::env::temp_dir().join(&name);
    let img = image::ImageBuffer::<image::Luma<u16>, _>::from_raw(2, 1, vec![0u16, 65535]).unwrap();
    img.save(&path).unwrap();
    let y = arr(&imread(&mut c, &[Value::str(&name)]).unwrap());
    let _ = std::fs::remove_file(&path);
    assert_eq!(y.dims, vec![1, 2, 1]);
    assert_eq!(y.to_f64_vec(), vec![0.0, 255.0]);
    for chans in [1, 3, 4] {
        let x = Value::array(Array::from_reals(
            vec![8, 8, chans],
            vec![100.0; 64 * chans],
            Prec::Double,
        ));
        let name = unique("jpg");
        imwrite(&mut c, &[Value::str(&name), x]).unwrap();
        let y = arr(&imread(&mut c, &[Value::str(&name)]).unwrap());
        let _ = std::fs::remove_file(std::env::temp_dir().join(&name));
        assert_eq!(y.dims, vec![8, 8, if chans == 1 { 1 } else { 3 }]);
        assert!(y.to_f64_vec().iter().all(|v| (v - 100.0).abs() <= 3.0));
    }
}

#[test]
fn write_clamps_and_drops_alpha_on_read() {
    let mut c = Ctx::new(
        Prec::Double,
        Box::new(std::io::sink()),
        std::env::temp_dir(),
        "t".into(),
    );
    let data = vec![-5.0, 300.0, 1.4, 9.0, 1.6, f64::NAN, 7.0, 8.0];
    let x = Value::array(Array::from_reals(vec![1, 2, 4], data, Prec::Double));
    let name = unique("png");
    imwrite(&mut c, &[Value::str(&name), x]).unwrap();
    let y = arr(&imread(&mut c, &[Value::str(&name)]).unwrap());
    let _ = std::fs::remove_file(std::env::temp_dir().join(&name));
    assert_eq!(y.dims, vec![1, 2, 3]);
    assert_eq!(y.to_f64_vec(), vec![0.0, 255.0, 1.0, 2.0, 0.0, 7.0]);
}

#[test]
fn a_corrupt_file_is_reported_in_printable_characters() {
    let mut c = Ctx::new(
        Prec::Single,
        Box::new(std::io::sink()),
        std::env::temp_dir(),
        "t".into(),
    );
    // A PNG signature and a header, then a chunk whose name is not ASCII.
    let mut bytes = b"\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR".to_vec();
    bytes.extend([
        0, 0, 0, 4, 0, 0, 0, 4, 8, 2, 0, 0, 0, 0x26, 0x93, 0x09, 0x29,
    ]);
    bytes.extend([
        0, 0, 0, 4, b'I', 0xff, b'A', b'T', 0x80, 0xfe, 0, 0, 0, 0, 0, 0,
    ]);
    let name = unique("png");
    std::fs::write(std::env::temp_dir().join(&name), &bytes).unwrap();
    let e = imread(&mut c, &[Value::str(&name)]).unwrap_err();
    let _ = std::fs::remove_file(std::env::temp_dir().join(&name));
    assert!(
        e.message.starts_with("imread: cannot read"),
        "{}",
        e.message
    );
    assert!(
        e.message.chars().all(|c| c.is_ascii_graphic() || c == ' '),
        "{}",
        e.message
    );
}

#[test]
fn errors_are_reported() {
    let mut c = Ctx::new(
        Prec::Single,
        Box::new(std::io::sink()),
        std::env::temp_dir(),
        "t".into(),
    );
    let e = imread(&mut c, &[Value::str("no_such_file_blazar.png")]).unwrap_err();
    assert!(
        e.message
            .starts_with("imread: cannot read 'no_such_file_blazar.png': "),
        "{}",
        e.message
    );
    let x = Value::array(Array::zeros(vec![2, 2], ElemType::F32));
    assert!(imwrite(&mut c, &[Value::str("a.bmpx"), x.clone()]).is_err());
    assert!(imwrite(&mut c, &[Value::Real(1.0), x]).is_err());
    let two = Value::array(Array::zeros(vec![2, 2, 2], ElemType::F32));
    assert!(imwrite(&mut c, &[Value::str(&unique("png")), two]).is_err());
}
