//! What comes back from the device: the error record decoded into the CPU executor's
//! messages, and kernel outputs finished exactly as the CPU finishes them.

use blazar_codegen_c::cuda::{ErrorKind, OutputLayout};
use blazar_kir::{AtomicOp, Kernel, Scalar};
use blazar_launch::{KValue, KernelError, KernelErrorKind};

/// The error of a non-zero record `[code, line, a, b]`.
pub fn decode(rec: [i32; 4]) -> KernelError {
    let [code, line, a, b] = rec;
    // The line, or a failing access's line and column (`blazar_kir::Loc::record`).
    let line = line as u32;
    match ErrorKind::decode(code) {
        Some((ErrorKind::AssertFailed, _)) => {
            KernelError::new(line, KernelErrorKind::AssertFailed, "assertion failed")
        }
        Some((ErrorKind::OutOfBounds, dim)) => KernelError::new(
            line,
            KernelErrorKind::OutOfBounds,
            blazar_launch::out_of_bounds_message(a as i64, dim as usize, b as usize),
        ),
        Some((ErrorKind::OutOfMemory, _)) if b == 32768 => KernelError::new(
            line,
            KernelErrorKind::OutOfMemory,
            format!(
                "dynamic kernel memory: an allocation of {a} bytes exceeds the 32768-byte limit"
            ),
        ),
        Some((ErrorKind::OutOfMemory, _)) => KernelError::new(
            line,
            KernelErrorKind::OutOfMemory,
            format!("kernel memory: {a} bytes do not fit in the {b} bytes available"),
        ),
        Some((ErrorKind::NegativeExtent, _)) => KernelError::new(
            line,
            KernelErrorKind::BadSize,
            blazar_kir::negative_extent_message(b.max(0) as usize, a as i64),
        ),
        None => KernelError::new(
            line,
            KernelErrorKind::BadLaunch,
            format!("unknown device error {code}"),
        ),
    }
}

/// The identity of an output's device accumulator.
pub fn identity(op: AtomicOp, ty: Scalar) -> KValue {
    let float = matches!(ty, Scalar::F32 | Scalar::F64);
    match op {
        AtomicOp::Mul | AtomicOp::Div | AtomicOp::Pow => KValue::Int(1),
        AtomicOp::And => KValue::Int(-1),
        AtomicOp::Min if float => KValue::Float(f64::INFINITY),
        AtomicOp::Max if float => KValue::Float(f64::NEG_INFINITY),
        AtomicOp::Min => KValue::Int(int_extreme(ty, true)),
        AtomicOp::Max => KValue::Int(int_extreme(ty, false)),
        _ => KValue::Int(0),
    }
}

fn int_extreme(ty: Scalar, max: bool) -> i64 {
    match (ty, max) {
        (Scalar::I8, true) => i8::MAX as i64,
        (Scalar::I8, false) => i8::MIN as i64,
        (Scalar::I16, true) => i16::MAX as i64,
        (Scalar::I16, false) => i16::MIN as i64,
        (Scalar::I32, true) => i32::MAX as i64,
        (Scalar::I32, false) => i32::MIN as i64,
        (Scalar::U8, true) => u8::MAX as i64,
        (Scalar::U16, true) => u16::MAX as i64,
        (Scalar::U32, true) => u32::MAX as i64,
        (Scalar::U64, true) => -1,
        (Scalar::U8 | Scalar::U16 | Scalar::U32 | Scalar::U64, false) => 0,
        (_, true) => i64::MAX,
        (_, false) => i64::MIN,
    }
}

fn read(bytes: &[u8], ty: Scalar) -> KValue {
    let get = |n: usize| -> [u8; 8] {
        let mut b = [0u8; 8];
        b[..n.min(bytes.len())].copy_from_slice(&bytes[..n.min(bytes.len())]);
        b
    };
    let f32_at = |at: usize| -> f64 {
        bytes.get(at..at + 4).map_or(0.0, |b| {
            f32::from_le_bytes(b.try_into().unwrap_or([0; 4])) as f64
        })
    };
    let f64_at = |at: usize| -> f64 {
        bytes
            .get(at..at + 8)
            .map_or(0.0, |b| f64::from_le_bytes(b.try_into().unwrap_or([0; 8])))
    };
    match ty {
        Scalar::Bool => KValue::Bool(get(1)[0] != 0),
        Scalar::I8 => KValue::Int(get(1)[0] as i8 as i64),
        Scalar::U8 => KValue::Int(get(1)[0] as i64),
        Scalar::I16 => KValue::Int(i16::from_le_bytes([get(2)[0], get(2)[1]]) as i64),
        Scalar::U16 => KValue::Int(u16::from_le_bytes([get(2)[0], get(2)[1]]) as i64),
        Scalar::I32 => {
            KValue::Int(i32::from_le_bytes(get(4)[..4].try_into().unwrap_or([0; 4])) as i64)
        }
        Scalar::U32 => {
            KValue::Int(u32::from_le_bytes(get(4)[..4].try_into().unwrap_or([0; 4])) as i64)
        }
        Scalar::I64 | Scalar::U64 => KValue::Int(i64::from_le_bytes(get(8))),
        Scalar::F32 => KValue::Float(f32_at(0)),
        Scalar::F64 => KValue::Float(f64_at(0)),
        Scalar::C32 => KValue::Complex(f32_at(0), f32_at(4)),
        Scalar::C64 => KValue::Complex(f64_at(0), f64_at(8)),
    }
}

/// The value of an output from its accumulator: `-=` is `0 - acc`, `/=` is `1 / acc`,
/// `^=` is 1 (as on the CPU).
pub fn finish(o: &OutputLayout, bytes: &[u8]) -> KValue {
    let acc = read(bytes, o.ty);
    match (o.finish, acc) {
        (AtomicOp::Sub, KValue::Float(x)) => KValue::Float(round(o.ty, 0.0 - x)),
        (AtomicOp::Sub, KValue::Int(i)) => wrap(o.ty, 0i64.wrapping_sub(i)),
        (AtomicOp::Sub, KValue::Complex(re, im)) => KValue::Complex(-re, -im),
        (AtomicOp::Div, KValue::Float(x)) => KValue::Float(round(o.ty, 1.0 / x)),
        (AtomicOp::Div, KValue::Int(i)) => KValue::Int(if i == 0 { 0 } else { 1 / i }),
        (AtomicOp::Div, KValue::Complex(re, im)) => {
            let d = re * re + im * im;
            KValue::Complex(re / d, -im / d)
        }
        (AtomicOp::Pow, KValue::Float(_)) => KValue::Float(1.0),
        (AtomicOp::Pow, KValue::Complex(..)) => KValue::Complex(1.0, 0.0),
        (AtomicOp::Pow, _) => KValue::Int(1),
        (_, v) => v,
    }
}

fn round(ty: Scalar, x: f64) -> f64 {
    if ty == Scalar::F32 {
        x as f32 as f64
    } else {
        x
    }
}

fn wrap(ty: Scalar, i: i64) -> KValue {
    let bytes = i.to_le_bytes();
    read(&bytes, ty)
}

/// The outputs of a launch over an empty index space: each output's finished identity.
pub fn empty_outputs(k: &Kernel) -> Vec<KValue> {
    k.outputs
        .iter()
        .map(|o| {
            let layout = OutputLayout {
                name: o.name.clone(),
                ty: o.ty,
                combine: o.op,
                finish: o.op,
            };
            let init = crate::params::scalar_bytes(&identity(o.op, o.ty), o.ty);
            finish(&layout, &init)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_records_read_like_cpu_errors() {
        let e = decode([1, 6, 0, 0]);
        assert_eq!((e.kind, e.line), (KernelErrorKind::AssertFailed, 6));
        let e = decode([2 | (1 << 8), 7, 9, 8]);
        assert_eq!(
            e.message,
            "index 9 is out of bounds for dimension 1 of size 8"
        );
        let e = decode([3, 4, 40000, 32768]);
        assert!(e.message.contains("32768"), "{}", e.message);
    }

    #[test]
    fn outputs_finish_like_the_cpu() {
        let o = |op, ty| OutputLayout {
            name: "y".into(),
            ty,
            combine: AtomicOp::Add,
            finish: op,
        };
        let b = 5.0f32.to_le_bytes();
        assert_eq!(
            finish(&o(AtomicOp::Add, Scalar::F32), &b),
            KValue::Float(5.0)
        );
        assert_eq!(
            finish(&o(AtomicOp::Sub, Scalar::F32), &b),
            KValue::Float(-5.0)
        );
        assert_eq!(
            finish(&o(AtomicOp::Sub, Scalar::U8), &[3]),
            KValue::Int(253)
        );
        assert_eq!(identity(AtomicOp::Min, Scalar::U8), KValue::Int(255));
    }
}
