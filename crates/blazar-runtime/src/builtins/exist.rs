//! `exist(name)` and `exist(name, kind)`: MATLAB's question "what is this name?", as far
//! as it applies to Blazar. The run-time part here answers for builtins and for files
//! and folders; a name that is a variable or a function of the program is answered when
//! the program is compiled (blazar-hir's `exist_rule`), because only the compiler knows
//! the program's names.
//!
//! | result | meaning                                                        |
//! |--------|----------------------------------------------------------------|
//! | 1      | a variable that holds a value (compiled programs only)         |
//! | 2      | a file (relative names from the program's folder), or a        |
//! |        | function of the program (compiled programs only)               |
//! | 5      | a builtin function                                             |
//! | 7      | a folder                                                       |
//! | 0      | none of these                                                  |
//!
//! `kind` narrows the question to `"var"`, `"file"`, `"dir"` or `"builtin"`, as in
//! MATLAB (`"file"` also answers 7 for a folder, as MATLAB's does).

use super::math::bi;
use super::{Builtin, Ctx};
use crate::{rt_bail, RtResult, Value};

/// The answer for a name that is not a variable or function of the program.
pub fn exist_outside(ctx: &Ctx, name: &str, kind: Option<&str>) -> RtResult<i64> {
    let builtin = || super::lookup(name).is_some();
    let path = || super::io::resolve_path(ctx, name);
    Ok(match kind {
        None => {
            if builtin() {
                5
            } else if !name.is_empty() && path().is_dir() {
                7
            } else if !name.is_empty() && path().is_file() {
                2
            } else {
                0
            }
        }
        Some("var") => 0,
        Some("builtin") => i64::from(builtin()) * 5,
        Some("dir") => i64::from(!name.is_empty() && path().is_dir()) * 7,
        Some("file") => {
            if name.is_empty() {
                0
            } else if path().is_dir() {
                7
            } else {
                i64::from(path().is_file()) * 2
            }
        }
        Some(other) => rt_bail!(
            "exist: unknown kind \"{other}\" (use \"var\", \"file\", \"dir\" or \"builtin\")"
        ),
    })
}

/// The kind argument of `exist`, checked.
pub fn exist_kind(args: &[Value]) -> RtResult<Option<&str>> {
    match args.get(1) {
        None => Ok(None),
        Some(Value::Str(k)) => Ok(Some(&**k)),
        Some(v) => rt_bail!("exist: the kind must be a string, got {}", v.kind_name()),
    }
}

fn exist(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let Value::Str(name) = &args[0] else {
        rt_bail!(
            "exist: the name must be a string, got {}",
            args[0].kind_name()
        );
    };
    let kind = exist_kind(args)?;
    Ok(Value::int(exist_outside(ctx, name, kind)?))
}

pub(super) static TABLE: &[Builtin] = &[bi("exist", exist, 1, 2).doc(
    "exist(name) · exist(name, kind)",
    "What a name is, as MATLAB's exist answers: 1 a variable that holds a value, 2 a function of the program or a file (relative names from the program's folder), 5 a builtin, 7 a folder, 0 none of these. kind (\"var\", \"file\", \"dir\", \"builtin\") asks one question only. Variables and the program's functions are recognised when the name is written as a string literal (`exist(\"x\")`); a name computed when the program runs is looked up among builtins, files and folders.",
    "x = 3\nfunction y = twice(a)\n    y = 2 * a\nend\nprint exist(\"x\"), \" \", exist(\"twice\"), \" \", exist(\"sin\"), \" \", exist(\"no_such_name\"), \" \", exist(\"x\", \"builtin\")",
    "1 2 5 0 0",
)];
