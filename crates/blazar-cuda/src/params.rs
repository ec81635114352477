//! Packing a launch's parameters as the generated kernel declares them.
//!
//! `blazar_codegen_c::cuda::ParamLayout` lists every C parameter: KIR scalars and vectors
//! by value, arrays as a pointer and a `bz_ext` (`i32 d[4]`), then the hidden ones
//! (index space, error record, outputs, pool). Each becomes a [`ParamBytes`] whose
//! address the driver copies `size` bytes from.

use blazar_codegen_c::cuda::ParamLayout;
use blazar_kir::Scalar;
use blazar_launch::{ArgVal, KValue, LaunchPlan};
use blazar_runtime::ArrayRef;
use cudarc::driver::DeviceRepr;

/// One parameter's bytes, aligned for any C parameter type.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(16))]
pub struct ParamBytes(pub [u8; 32]);

// SAFETY: plain bytes with C layout; the driver copies the first `size` bytes of the
// parameter, laid out here exactly as the C ABI lays out the kernel's parameter type.
unsafe impl DeviceRepr for ParamBytes {}

impl ParamBytes {
    fn put(&mut self, at: usize, bytes: &[u8]) -> Result<(), String> {
        let end = at + bytes.len();
        if end > self.0.len() {
            return Err("internal error: a kernel parameter is larger than 32 bytes".into());
        }
        self.0[at..end].copy_from_slice(bytes);
        Ok(())
    }
}

/// The bytes of one scalar (at most 16), kept inline: packing a launch's parameters
/// allocates nothing per scalar.
#[derive(Clone, Copy, Debug)]
pub struct ScalarBytes {
    bytes: [u8; 16],
    len: u8,
}

impl ScalarBytes {
    fn of(parts: &[&[u8]]) -> ScalarBytes {
        let mut s = ScalarBytes {
            bytes: [0; 16],
            len: 0,
        };
        for p in parts {
            let at = s.len as usize;
            s.bytes[at..at + p.len()].copy_from_slice(p);
            s.len += p.len() as u8;
        }
        s
    }
}

impl std::ops::Deref for ScalarBytes {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        &self.bytes[..self.len as usize]
    }
}

/// The bytes of one scalar of type `ty`.
pub fn scalar_bytes(v: &KValue, ty: Scalar) -> ScalarBytes {
    let f = || match v {
        KValue::Float(x) => *x,
        KValue::Int(i) => *i as f64,
        KValue::Bool(b) => *b as i64 as f64,
        KValue::Complex(re, _) => *re,
        KValue::Vector(_) => 0.0,
    };
    let i = || match v {
        KValue::Int(i) => *i,
        KValue::Bool(b) => *b as i64,
        KValue::Float(x) => *x as i64,
        KValue::Complex(re, _) => *re as i64,
        KValue::Vector(_) => 0,
    };
    let c = || match v {
        KValue::Complex(re, im) => (*re, *im),
        _ => (f(), 0.0),
    };
    match ty {
        Scalar::Bool => ScalarBytes::of(&[&[(i() != 0) as u8]]),
        Scalar::I8 => ScalarBytes::of(&[&(i() as i8).to_le_bytes()]),
        Scalar::U8 => ScalarBytes::of(&[&(i() as u8).to_le_bytes()]),
        Scalar::I16 => ScalarBytes::of(&[&(i() as i16).to_le_bytes()]),
        Scalar::U16 => ScalarBytes::of(&[&(i() as u16).to_le_bytes()]),
        Scalar::I32 => ScalarBytes::of(&[&(i() as i32).to_le_bytes()]),
        Scalar::U32 => ScalarBytes::of(&[&(i() as u32).to_le_bytes()]),
        Scalar::I64 => ScalarBytes::of(&[&i().to_le_bytes()]),
        Scalar::U64 => ScalarBytes::of(&[&(i() as u64).to_le_bytes()]),
        Scalar::F32 => ScalarBytes::of(&[&(f() as f32).to_le_bytes()]),
        Scalar::F64 => ScalarBytes::of(&[&f().to_le_bytes()]),
        Scalar::C32 => {
            let (re, im) = c();
            ScalarBytes::of(&[&(re as f32).to_le_bytes(), &(im as f32).to_le_bytes()])
        }
        Scalar::C64 => {
            let (re, im) = c();
            ScalarBytes::of(&[&re.to_le_bytes(), &im.to_le_bytes()])
        }
    }
}

/// A scalar or vector parameter.
pub fn value_param(layout: &ParamLayout, v: &KValue) -> Result<ParamBytes, String> {
    let mut p = ParamBytes::default();
    match layout {
        ParamLayout::Scalar { ty, .. } => p.put(0, &scalar_bytes(v, *ty))?,
        ParamLayout::Vector { elem, len, .. } => {
            let KValue::Vector(lanes) = v else {
                return Err("internal error: a vector parameter got a scalar".into());
            };
            let size = layout.size_align().0 / *len as usize;
            for (k, lane) in lanes.iter().take(*len as usize).enumerate() {
                p.put(k * size, &scalar_bytes(lane, *elem))?;
            }
        }
        _ => return Err("internal error: not a value parameter".into()),
    }
    Ok(p)
}

/// `bz_ext`: an array's extents padded to four (1s in front up to the kernel's rank,
/// then 1s). The array's pointer is a parameter of its own (`pointer_param`).
pub fn extents_param(dims: &[usize], rank: u8) -> Result<ParamBytes, String> {
    let rank = rank as usize;
    let mut d = [1i32; 4];
    let lead = rank.saturating_sub(dims.len());
    for (k, &n) in dims.iter().enumerate() {
        let at = lead + k;
        if at >= 4 {
            return Err("arrays of more than 4 dimensions cannot be passed to CUDA kernels".into());
        }
        d[at] = i32::try_from(n)
            .map_err(|_| format!("an extent of {n} is too large for a CUDA kernel"))?;
    }
    let mut p = ParamBytes::default();
    for (k, x) in d.iter().enumerate() {
        p.put(4 * k, &x.to_le_bytes())?;
    }
    Ok(p)
}

/// `bz_space`: data and block extents of the index space.
pub fn space_param(data: &[usize; 4], block: &[usize; 4]) -> Result<ParamBytes, String> {
    let mut p = ParamBytes::default();
    for (k, &n) in data.iter().chain(block).enumerate() {
        let n = i32::try_from(n)
            .map_err(|_| format!("an extent of {n} is too large for a CUDA launch"))?;
        p.put(4 * k, &n.to_le_bytes())?;
    }
    Ok(p)
}

/// A device pointer (error record, output accumulator).
pub fn pointer_param(ptr: u64) -> ParamBytes {
    let mut p = ParamBytes::default();
    p.0[..8].copy_from_slice(&ptr.to_le_bytes());
    p
}

/// `bz_pool`: `{ u8* base; u64 cap; u64* top; }`.
pub fn pool_param(base: u64, cap: u64, top: u64) -> ParamBytes {
    let mut p = ParamBytes::default();
    p.0[..8].copy_from_slice(&base.to_le_bytes());
    p.0[8..16].copy_from_slice(&cap.to_le_bytes());
    p.0[16..24].copy_from_slice(&top.to_le_bytes());
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrays_pad_their_extents_to_the_kernel_rank() {
        let p = extents_param(&[5, 7], 3).unwrap();
        let dims: Vec<i32> = (0..4)
            .map(|k| i32::from_le_bytes(p.0[4 * k..4 + 4 * k].try_into().unwrap()))
            .collect();
        assert_eq!(dims, [1, 5, 7, 1]);
        assert!(extents_param(&[1, 2, 3, 4, 5], 5).is_err());
        assert_eq!(&pointer_param(0x1000).0[..8], &0x1000u64.to_le_bytes());
    }

    #[test]
    fn scalars_take_their_declared_width() {
        assert_eq!(
            &*scalar_bytes(&KValue::Float(1.5), Scalar::F32),
            &1.5f32.to_le_bytes()
        );
        assert_eq!(&*scalar_bytes(&KValue::Int(-1), Scalar::U8), &[255]);
        assert_eq!(
            &*scalar_bytes(&KValue::Complex(1.0, -2.0), Scalar::C64),
            &[1.0f64.to_le_bytes(), (-2.0f64).to_le_bytes()].concat()[..]
        );
        assert_eq!(
            scalar_bytes(&KValue::Complex(1.0, 2.0), Scalar::C32).len(),
            8
        );
        let v = KValue::Vector(vec![KValue::Int(1), KValue::Int(2), KValue::Int(3)]);
        let layout = ParamLayout::Vector {
            index: 0,
            elem: Scalar::I32,
            len: 3,
        };
        let p = value_param(&layout, &v).unwrap();
        assert_eq!(&p.0[..12], &[1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0]);
    }
}

/// Every C parameter of a launch, in the kernel's order: `args` as the interpreter
/// flattened them (`ArgVal::Array(i)` names `arrays[i]`, at device address `ptrs[i]`),
/// the index space of `plan`, the error record and output slots from `base`, and the
/// dynamic-memory pool where the kernel has one.
pub fn pack(
    layouts: &[ParamLayout],
    args: &[ArgVal],
    arrays: &[ArrayRef],
    ptrs: &[u64],
    plan: &LaunchPlan,
    base: u64,
    pool: Option<(u64, u64, u64)>,
) -> Result<Vec<ParamBytes>, String> {
    let mut params = Vec::with_capacity(layouts.len());
    for p in layouts {
        params.push(match p {
            ParamLayout::Scalar { index, .. } | ParamLayout::Vector { index, .. } => {
                let Some(ArgVal::Value(v)) = args.get(*index) else {
                    return Err("internal error: a scalar parameter got an array".into());
                };
                value_param(p, v)?
            }
            ParamLayout::ArrayData { index, .. } | ParamLayout::ArrayExtents { index, .. } => {
                let Some(ArgVal::Array(i)) = args.get(*index) else {
                    return Err("internal error: an array parameter got a value".into());
                };
                match p {
                    ParamLayout::ArrayExtents { rank, .. } => {
                        extents_param(&crate::memory::dims_of(&arrays[*i])?, *rank)?
                    }
                    _ => pointer_param(ptrs[*i]),
                }
            }
            ParamLayout::Space => space_param(&plan.data_dims, &plan.block_dims)?,
            ParamLayout::ErrorRecord => pointer_param(base),
            ParamLayout::Output { index, .. } => {
                pointer_param(base + crate::backend::REC as u64 + 16 * *index as u64)
            }
            ParamLayout::Pool => {
                let (b, cap, t) = pool.ok_or("internal error: no pool for the kernel")?;
                pool_param(b, cap, t)
            }
            // Filled in by the launch, which polls for it (`Slots::mirror_param`).
            ParamLayout::Mirror => ParamBytes::default(),
        });
    }
    Ok(params)
}
