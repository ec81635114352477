//! Types as the resolver understands them, built from written `TypeExpr`s.
//!
//! Types are used for declarations (conversion and checks), overload selection,
//! `type(x)` printing and `type(x, "cube[??]")` tests.

use blazar_syntax::{FnKind, TypeExpr, TypeKind};
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IntKind {
    I8,
    I16,
    I32,
    I64,
    U8,
    U16,
    U32,
    U64,
}

impl IntKind {
    pub fn from_name(name: &str) -> Option<IntKind> {
        Some(match name {
            "int8" => IntKind::I8,
            "int16" => IntKind::I16,
            "int" | "int32" => IntKind::I32,
            "int64" => IntKind::I64,
            "uint8" => IntKind::U8,
            "uint16" => IntKind::U16,
            "uint32" | "uint" => IntKind::U32,
            "uint64" => IntKind::U64,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            IntKind::I8 => "int8",
            IntKind::I16 => "int16",
            IntKind::I32 => "int",
            IntKind::I64 => "int64",
            IntKind::U8 => "uint8",
            IntKind::U16 => "uint16",
            IntKind::U32 => "uint32",
            IntKind::U64 => "uint64",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Ty {
    /// `??`: matches anything.
    Unknown,
    Scalar,
    CScalar,
    Int(IntKind),
    Str,
    /// `vec` = `Array { Scalar, Some(1) }`; `cube[??]`; `cube{4}`. `rank: None` is any.
    Array {
        elem: Box<Ty>,
        rank: Option<u32>,
    },
    /// `vec3`, `ivec2`, `cvec4`: fixed-length vectors.
    FixedVec {
        elem: Box<Ty>,
        len: u32,
    },
    Func {
        kind: FnKind,
        params: Vec<Ty>,
        results: Vec<Ty>,
    },
    Union(Vec<Ty>),
    /// A user class, by index into `Program::classes`.
    Class(u32, String),
    /// `object`: a dynamic object.
    Object,
    /// The type `type` itself (rare).
    Type,
}

impl Ty {
    pub fn array(elem: Ty, rank: u32) -> Ty {
        Ty::Array {
            elem: Box::new(elem),
            rank: Some(rank),
        }
    }

    /// Resolves a built-in type name (no parameters); `None` if it is not built in.
    pub fn builtin(name: &str) -> Option<Ty> {
        if let Some(k) = IntKind::from_name(name) {
            return Some(Ty::Int(k));
        }
        let arr = |e: Ty, r| Some(Ty::array(e, r));
        match name {
            "??" => return Some(Ty::Unknown),
            "scalar" | "float" | "double" | "single" => return Some(Ty::Scalar),
            "cscalar" | "complex" => return Some(Ty::CScalar),
            "string" => return Some(Ty::Str),
            // `qplot`: the handle of a plot (`f : qplot = disp.plot(x, y)`), which Quasar's
            // UI plugin types; Blazar's figure handles are objects.
            "object" | "qplot" => return Some(Ty::Object),
            "type" => return Some(Ty::Type),
            "vec" => return arr(Ty::Scalar, 1),
            "mat" => return arr(Ty::Scalar, 2),
            "cube" => return arr(Ty::Scalar, 3),
            "cvec" => return arr(Ty::CScalar, 1),
            "cmat" => return arr(Ty::CScalar, 2),
            "ccube" => return arr(Ty::CScalar, 3),
            "ivec" => return arr(Ty::Int(IntKind::I32), 1),
            "imat" => return arr(Ty::Int(IntKind::I32), 2),
            "icube" => return arr(Ty::Int(IntKind::I32), 3),
            _ => {}
        }
        // vecN, ivecN, cvecN for N = 1..32
        for (prefix, elem) in [
            ("ivec", Ty::Int(IntKind::I32)),
            ("cvec", Ty::CScalar),
            ("vec", Ty::Scalar),
        ] {
            if let Some(n) = name
                .strip_prefix(prefix)
                .and_then(|d| d.parse::<u32>().ok())
            {
                if (1..=32).contains(&n) && !name[prefix.len()..].starts_with('0') {
                    return Some(Ty::FixedVec {
                        elem: Box::new(elem),
                        len: n,
                    });
                }
            }
        }
        None
    }

    /// Whether a value of type `self` is accepted where `want` is expected.
    pub fn conforms_to(&self, want: &Ty) -> bool {
        match (self, want) {
            (_, Ty::Unknown) | (Ty::Unknown, _) => true,
            (t, Ty::Union(alts)) => alts.iter().any(|a| t.conforms_to(a)),
            (Ty::Union(alts), w) => alts.iter().all(|a| a.conforms_to(w)),
            (Ty::Array { elem: e1, rank: r1 }, Ty::Array { elem: e2, rank: r2 }) => {
                (r2.is_none() || r1 == r2) && e1.conforms_to(e2)
            }
            (Ty::FixedVec { elem: e1, len: n1 }, Ty::FixedVec { elem: e2, len: n2 }) => {
                n1 == n2 && e1.conforms_to(e2)
            }
            (Ty::FixedVec { elem: e1, .. }, Ty::Array { elem: e2, rank }) => {
                matches!(rank, None | Some(1)) && e1.conforms_to(e2)
            }
            (
                Ty::Func {
                    params: p1,
                    results: r1,
                    ..
                },
                Ty::Func {
                    params: p2,
                    results: r2,
                    ..
                },
            ) => {
                p1.len() == p2.len()
                    && p1.iter().zip(p2).all(|(a, b)| a.conforms_to(b))
                    && (r1.len() == r2.len() || r1.is_empty() || r2.is_empty())
                    && r1.iter().zip(r2).all(|(a, b)| a.conforms_to(b))
            }
            (a, b) => a == b,
        }
    }
}

fn write_list(f: &mut fmt::Formatter<'_>, tys: &[Ty]) -> fmt::Result {
    if tys.len() == 1 {
        return write!(f, "{}", tys[0]);
    }
    write!(f, "(")?;
    for (i, t) in tys.iter().enumerate() {
        if i > 0 {
            write!(f, ",")?;
        }
        write!(f, "{t}")?;
    }
    write!(f, ")")
}

impl fmt::Display for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ty::Unknown => write!(f, "??"),
            Ty::Scalar => write!(f, "scalar"),
            Ty::CScalar => write!(f, "cscalar"),
            Ty::Int(k) => write!(f, "{}", k.name()),
            Ty::Str => write!(f, "string"),
            Ty::Object => write!(f, "object"),
            Ty::Type => write!(f, "type"),
            Ty::Class(_, name) => write!(f, "{name}"),
            Ty::Array { elem, rank } => {
                let base = match rank {
                    Some(1) => "vec".to_string(),
                    Some(2) => "mat".to_string(),
                    Some(3) | None => "cube".to_string(),
                    Some(n) => format!("cube{{{n}}}"),
                };
                match **elem {
                    Ty::Scalar => write!(f, "{base}"),
                    Ty::CScalar if rank.is_some_and(|r| r <= 3) => write!(f, "c{base}"),
                    Ty::Func { .. } => write!(f, "{base}[ {elem} ]"),
                    _ => write!(f, "{base}[{elem}]"),
                }
            }
            Ty::FixedVec { elem, len } => match **elem {
                Ty::Scalar => write!(f, "vec{len}"),
                Ty::CScalar => write!(f, "cvec{len}"),
                Ty::Int(IntKind::I32) => write!(f, "ivec{len}"),
                _ => write!(f, "vec{len}[{elem}]"),
            },
            Ty::Func {
                kind,
                params,
                results,
            } => {
                write!(f, "[")?;
                match kind {
                    FnKind::Kernel => write!(f, "__kernel__ ")?,
                    FnKind::Device => write!(f, "__device__ ")?,
                    FnKind::Host => {}
                }
                if params.is_empty() {
                    write!(f, "()")?;
                } else {
                    write_list(f, params)?;
                }
                write!(f, "->")?;
                if results.is_empty() {
                    write!(f, "()")?;
                } else {
                    write_list(f, results)?;
                }
                write!(f, "]")
            }
            Ty::Union(alts) => {
                write!(f, "[")?;
                for (i, t) in alts.iter().enumerate() {
                    if i > 0 {
                        write!(f, "|")?;
                    }
                    write!(f, "{t}")?;
                }
                write!(f, "]")
            }
        }
    }
}

/// Looks up user-defined type names (aliases and classes) while resolving.
pub trait TypeNames {
    fn user_type(&self, name: &str) -> Option<Ty>;
}

/// Resolves a written type; `Err` names the unknown type.
pub fn resolve_type(
    t: &TypeExpr,
    names: &dyn TypeNames,
) -> Result<Ty, (String, blazar_syntax::Span)> {
    match &t.kind {
        TypeKind::Unknown => Ok(Ty::Unknown),
        TypeKind::Union(alts) => Ok(Ty::Union(
            alts.iter()
                .map(|a| resolve_type(a, names))
                .collect::<Result<_, _>>()?,
        )),
        TypeKind::Func {
            kind,
            params,
            results,
        } => Ok(Ty::Func {
            kind: *kind,
            params: params
                .iter()
                .map(|a| resolve_type(a, names))
                .collect::<Result<_, _>>()?,
            results: results
                .iter()
                .map(|a| resolve_type(a, names))
                .collect::<Result<_, _>>()?,
        }),
        TypeKind::Named { name, params, rank } => {
            let base = match Ty::builtin(name).or_else(|| names.user_type(name)) {
                Some(b) => b,
                None => return Err((format!("unknown type `{name}`"), t.span)),
            };
            let mut base = base;
            if let Some(r) = rank {
                match &mut base {
                    Ty::Array { rank, .. } => *rank = Some(*r),
                    _ => {
                        return Err((
                            format!("type `{name}` cannot take a dimension count"),
                            t.span,
                        ))
                    }
                }
            }
            if let Some(p) = params.first() {
                let elem = resolve_type(p, names)?;
                match &mut base {
                    Ty::Array { elem: e, .. } | Ty::FixedVec { elem: e, .. } => **e = elem,
                    _ => return Err((format!("type `{name}` takes no type parameter"), t.span)),
                }
            }
            Ok(base)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printing_matches_quasar() {
        let vi = Ty::array(Ty::Int(IntKind::I32), 1);
        assert_eq!(Ty::array(vi.clone(), 1).to_string(), "vec[vec[int]]");
        assert_eq!(
            Ty::array(Ty::array(Ty::Scalar, 2), 1).to_string(),
            "vec[mat]"
        );
        let f = Ty::Func {
            kind: FnKind::Host,
            params: vec![Ty::Int(IntKind::I32)],
            results: vec![Ty::Int(IntKind::I32)],
        };
        assert_eq!(f.to_string(), "[int->int]");
        assert_eq!(Ty::array(f, 1).to_string(), "vec[ [int->int] ]");
        assert_eq!(Ty::builtin("ivec3").unwrap().to_string(), "ivec3");
        assert_eq!(
            Ty::Array {
                elem: Box::new(Ty::Scalar),
                rank: Some(4)
            }
            .to_string(),
            "cube{4}"
        );
    }

    #[test]
    fn unknown_element_matches_any_array() {
        let want = Ty::Array {
            elem: Box::new(Ty::Unknown),
            rank: Some(3),
        };
        assert!(Ty::array(Ty::Int(IntKind::I32), 3).conforms_to(&want));
        assert!(!Ty::array(Ty::Int(IntKind::I32), 3).conforms_to(&Ty::array(Ty::Scalar, 3)));
    }
}
