//! KIR types: scalars, fixed-length vectors and arrays with their access modes.

use std::fmt;

/// Element and scalar types of kernel code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scalar {
    Bool,
    I8,
    I16,
    I32,
    I64,
    U8,
    U16,
    U32,
    U64,
    F32,
    F64,
    C32,
    C64,
}

impl Scalar {
    pub fn is_float(self) -> bool {
        matches!(self, Scalar::F32 | Scalar::F64)
    }

    pub fn is_complex(self) -> bool {
        matches!(self, Scalar::C32 | Scalar::C64)
    }

    pub fn is_int(self) -> bool {
        !self.is_float() && !self.is_complex() && self != Scalar::Bool
    }

    /// The range of an int type (`None` for the others).
    pub fn int_range(self) -> Option<(i128, i128)> {
        Some(match self {
            Scalar::I8 => (i8::MIN.into(), i8::MAX.into()),
            Scalar::I16 => (i16::MIN.into(), i16::MAX.into()),
            Scalar::I32 => (i32::MIN.into(), i32::MAX.into()),
            Scalar::I64 => (i64::MIN.into(), i64::MAX.into()),
            Scalar::U8 => (0, u8::MAX.into()),
            Scalar::U16 => (0, u16::MAX.into()),
            Scalar::U32 => (0, u32::MAX.into()),
            Scalar::U64 => (0, u64::MAX.into()),
            _ => return None,
        })
    }

    pub fn is_signed(self) -> bool {
        matches!(self, Scalar::I8 | Scalar::I16 | Scalar::I32 | Scalar::I64)
    }

    /// Size in bytes of one element.
    pub fn size(self) -> usize {
        match self {
            Scalar::Bool | Scalar::I8 | Scalar::U8 => 1,
            Scalar::I16 | Scalar::U16 => 2,
            Scalar::I32 | Scalar::U32 | Scalar::F32 => 4,
            Scalar::I64 | Scalar::U64 | Scalar::F64 | Scalar::C32 => 8,
            Scalar::C64 => 16,
        }
    }

    /// The real type of a complex type (itself otherwise).
    pub fn real_part(self) -> Scalar {
        match self {
            Scalar::C32 => Scalar::F32,
            Scalar::C64 => Scalar::F64,
            s => s,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Scalar::Bool => "bool",
            Scalar::I8 => "i8",
            Scalar::I16 => "i16",
            Scalar::I32 => "i32",
            Scalar::I64 => "i64",
            Scalar::U8 => "u8",
            Scalar::U16 => "u16",
            Scalar::U32 => "u32",
            Scalar::U64 => "u64",
            Scalar::F32 => "f32",
            Scalar::F64 => "f64",
            Scalar::C32 => "c32",
            Scalar::C64 => "c64",
        }
    }
}

/// Boundary handling of array reads (LANGUAGE.md §5). Kernels default to `Zero`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum ReadMode {
    /// Zero outside (`'safe` and the kernel default).
    #[default]
    Zero,
    Circular,
    Mirror,
    Clamped,
    /// An error record outside (`'checked`).
    Checked,
    /// No check at all (`'unchecked`): the caller promises to stay inside.
    Unchecked,
}

/// Boundary handling of array writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum WriteMode {
    /// Ignore writes outside (the default; also `'circular`, `'mirror`, `'clamped`).
    #[default]
    Skip,
    Checked,
    Unchecked,
}

/// Where an array lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Space {
    /// A kernel argument in global memory.
    Global,
    /// Per-block shared memory.
    Shared,
    /// Per-thread dynamic memory (`zeros` inside a kernel).
    Local,
}

/// The type of an array: element, rank, access.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ArrayTy {
    pub elem: Scalar,
    pub rank: u8,
    pub read: ReadMode,
    pub write: WriteMode,
    pub is_const: bool,
    pub space: Space,
}

/// The type of a KIR value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    Scalar(Scalar),
    /// A fixed-length vector (`vec3`, `ivec2`), held in registers.
    Vector(Scalar, u8),
    Array(ArrayTy),
}

impl Ty {
    pub const I32: Ty = Ty::Scalar(Scalar::I32);
    pub const BOOL: Ty = Ty::Scalar(Scalar::Bool);

    pub fn scalar(self) -> Option<Scalar> {
        match self {
            Ty::Scalar(s) => Some(s),
            _ => None,
        }
    }

    /// The element type of a scalar, vector or array.
    pub fn elem(self) -> Scalar {
        match self {
            Ty::Scalar(s) | Ty::Vector(s, _) => s,
            Ty::Array(a) => a.elem,
        }
    }
}

impl fmt::Display for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ty::Scalar(s) => write!(f, "{}", s.name()),
            Ty::Vector(s, n) => write!(f, "{}x{n}", s.name()),
            Ty::Array(a) => {
                let space = match a.space {
                    Space::Global => "global",
                    Space::Shared => "shared",
                    Space::Local => "local",
                };
                write!(
                    f,
                    "{space} [{}; rank {}] read={:?} write={:?}",
                    a.elem.name(),
                    a.rank,
                    a.read,
                    a.write
                )?;
                if a.is_const {
                    write!(f, " const")?;
                }
                Ok(())
            }
        }
    }
}
