//! Documentation of builtins for hover, completion and signature help.
//!
//! [`doc_for`] is the one place the server asks. It answers from the documentation
//! registry (`blazar-help`: each builtin's documentation where it is declared, the
//! language's own functions, the bundled modules' comment blocks); a name the registry
//! lacks falls back to the builtin table's argument counts or the short line below.

use blazar_runtime::builtins;

/// What the server shows for a builtin.
#[derive(Clone, Debug, PartialEq)]
pub struct Doc {
    /// `zeros(a1[, a2, ...])`
    pub signature: String,
    /// The parameters of the signature, in order (for signature help).
    pub params: Vec<String>,
    /// A paragraph of Markdown (may be empty).
    pub summary: String,
}

/// Functions the interpreter implements itself (not in the builtin table), with their
/// parameters and a summary.
const INTRINSICS: &[(&str, &[&str], &str)] = &[
    ("print", &["values..."], "Prints its arguments on one line."),
    ("type", &["x", "T"], "With one argument, the type of `x` as a string; with two, whether `x` has type `T`."),
    ("error", &["message"], "Stops the program with a located error."),
    ("assert", &["cond"], "Stops the program with a located error when `cond` is false."),
    ("parallel_do", &["dims", "args...", "kernel"], "Launches `kernel` once per position of `dims`, passing `args` and the special parameters it declares (`pos`, `blkpos`, ...)."),
    ("serial_do", &["dims", "args...", "kernel"], "Runs `kernel` once per position of `dims`, in order, on the host."),
    ("syncthreads", &[], "A barrier between the threads of a block (kernel code)."),
    ("max_block_size", &["kernel", "dims"], "The largest block shape `kernel` can be launched with."),
    ("opt_block_size", &["kernel", "dims"], "A good block shape for `kernel` over `dims`."),
    ("shared", &["dims..."], "Shared memory of a block (kernel code)."),
    ("shared_zeros", &["dims..."], "Zero-filled shared memory of a block (kernel code)."),
    ("isdefined", &["name"], "Whether a variable of that name is defined."),
];

/// The documentation of builtin or intrinsic `name`, if it is one.
pub fn doc_for(name: &str) -> Option<Doc> {
    if let Some(e) = blazar_help::doc(name) {
        return Some(from_entry(e));
    }
    if let Some(&(_, params, summary)) = INTRINSICS.iter().find(|(n, _, _)| *n == name) {
        let params: Vec<String> = params.iter().map(|p| p.to_string()).collect();
        return Some(Doc {
            signature: format!("{name}({})", params.join(", ")),
            params,
            summary: summary.to_string(),
        });
    }
    let b = builtins::get(builtins::lookup(name)?);
    let params = arity_params(b.min_args, b.max_args);
    let signature = format!("{name}({})", params.join(", "));
    let count = match (b.min_args, b.max_args) {
        (lo, hi) if lo == hi => format!("{lo} argument{}", if lo == 1 { "" } else { "s" }),
        (lo, usize::MAX) => format!("at least {lo} argument{}", if lo == 1 { "" } else { "s" }),
        (lo, hi) => format!("{lo} to {hi} arguments"),
    };
    let outputs = builtins::multi(name)
        .map(|(_, k)| format!("; up to {k} outputs (`[a, b] = {name}(...)`)"))
        .unwrap_or_default();
    Some(Doc {
        signature,
        params,
        summary: format!("Builtin function: takes {count}{outputs}."),
    })
}

/// The registry's entry as hover and signature help show it: the first call form as
/// the signature, the paragraph, the other forms and the example.
fn from_entry(e: &blazar_help::Entry) -> Doc {
    let mut forms = e.sig.split(" · ").map(str::trim);
    let signature = forms.next().unwrap_or(&e.name).to_string();
    let params = signature
        .split_once('(')
        .and_then(|(_, rest)| rest.rsplit_once(')'))
        .map(|(inside, _)| {
            inside
                .split(',')
                .map(|p| p.trim().to_string())
                .filter(|p| !p.is_empty())
                .collect()
        })
        .unwrap_or_default();
    let mut summary = e.text.clone();
    let others: Vec<&str> = forms.collect();
    if !others.is_empty() {
        summary.push_str(&format!("\n\nAlso: `{}`", others.join("`, `")));
    }
    if let blazar_help::Source::Library(file) = e.source {
        summary.push_str(&format!("\n\nFrom `import \"{file}\"`."));
    }
    if !e.example.is_empty() {
        summary.push_str(&format!("\n\n```quasar\n{}\n```", e.example));
    }
    Doc {
        signature,
        params,
        summary,
    }
}

/// Every name [`doc_for`] knows, for completion.
pub fn names() -> impl Iterator<Item = &'static str> {
    INTRINSICS
        .iter()
        .map(|(n, _, _)| *n)
        .chain(builtins::all().iter().map(|b| b.name))
}

/// `x1, x2, [x3]` for an argument count of 2 to 3; variadic: `x1, ...`.
fn arity_params(lo: usize, hi: usize) -> Vec<String> {
    let mut out: Vec<String> = (1..=lo).map(|i| format!("x{i}")).collect();
    if hi == usize::MAX {
        out.push("...".into());
    } else {
        out.extend((lo + 1..=hi).map(|i| format!("[x{i}]")));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtins_read_the_documentation_registry() {
        let d = doc_for("sqrt").unwrap();
        assert_eq!(d.signature, "sqrt(x)");
        assert_eq!(d.params, vec!["x".to_string()]);
        assert!(d.summary.contains("square root"), "{}", d.summary);
        let z = doc_for("zeros").unwrap();
        assert!(z.summary.contains("Also:"), "{}", z.summary);
        assert!(doc_for("parallel_do").is_some());
        assert!(doc_for("no_such_function").is_none());
        assert!(names().any(|n| n == "zeros") && names().any(|n| n == "print"));
    }

    #[test]
    fn a_name_the_registry_lacks_falls_back_to_argument_counts() {
        assert_eq!(
            arity_params(1, 2),
            vec!["x1".to_string(), "[x2]".to_string()]
        );
        assert_eq!(
            arity_params(1, usize::MAX),
            vec!["x1".to_string(), "...".to_string()]
        );
    }
}
