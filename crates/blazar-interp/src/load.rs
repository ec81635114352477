//! Loading a program: reading the file, splicing in `import`ed files, parsing and
//! resolving. All diagnostics of all files are collected before anything runs.

use blazar_diagnostics::{Diagnostic, FileId, SourceMap};
use blazar_hir::Program;
use blazar_syntax::{self as syntax, StmtKind};
use std::path::{Path, PathBuf};

/// A parsed and resolved program with its sources.
pub struct Loaded {
    pub sources: SourceMap,
    pub program: Program,
    pub diagnostics: Vec<Diagnostic>,
    /// What the loop parallelizer decided for each `for` loop (`blazar emit loops`).
    pub loops: Vec<blazar_hir::LoopReport>,
}

impl Loaded {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(|d| d.is_error())
    }
}

/// Reads, parses and resolves the program in `path`.
pub fn load(path: &Path) -> Result<Loaded, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Ok(check(
        &path.display().to_string(),
        &text,
        path.parent().map(Path::to_path_buf),
    ))
}

/// Parses and resolves program text; `dir` is where `import`s are looked up (none: imports
/// are errors).
pub fn check(name: &str, text: &str, dir: Option<PathBuf>) -> Loaded {
    let mut sources = SourceMap::new();
    let mut diagnostics = Vec::new();
    let file = sources.add(name, text);
    let (mut ast, diags) = syntax::parse(text, file);
    diagnostics.extend(diags);
    let mut seen = vec![name.to_string()];
    splice_imports(
        &mut ast,
        dir.as_deref(),
        &mut sources,
        &mut diagnostics,
        &mut seen,
        0,
    );
    // After a syntax error, names assigned in the broken statements are missing: resolving
    // would report them as undefined. Only the syntax errors are reported then.
    if diagnostics.iter().any(|d| d.is_error()) {
        ast = syntax::Program::default();
    }
    let lookup = |n: &str| blazar_runtime::builtins::lookup(n);
    let (program, diags) = blazar_hir::lower_program(&ast, &lookup);
    diagnostics.extend(diags);
    let arity = |id: u32| {
        let b = blazar_runtime::builtins::get(id);
        (b.name.to_string(), b.min_args, b.max_args)
    };
    diagnostics.extend(blazar_hir::check_program(&program, &arity));
    let mut program = program;
    let mut loops = Vec::new();
    if !diagnostics.iter().any(|d| d.is_error()) {
        let name = |id: u32| blazar_runtime::builtins::get(id).name;
        let line_of = |s: blazar_diagnostics::Span| sources.line_of(s) as u32;
        let names = blazar_passes::Names {
            builtin_name: &name,
            builtin_id: &|n: &str| blazar_runtime::builtins::lookup(n),
            line_of: &line_of,
        };
        blazar_passes::apply_rules(&mut program);
        loops = blazar_passes::parallelize(&mut program, &names);
    }
    Loaded {
        sources,
        program,
        diagnostics,
        loops,
    }
}

/// Replaces each `import "f.q"` by the statements of f.q (once per file).
fn splice_imports(
    ast: &mut syntax::Program,
    dir: Option<&Path>,
    sources: &mut SourceMap,
    diags: &mut Vec<Diagnostic>,
    seen: &mut Vec<String>,
    depth: usize,
) {
    let mut out = Vec::with_capacity(ast.stmts.len());
    for s in std::mem::take(&mut ast.stmts) {
        let StmtKind::Import(file) = &s.kind else {
            out.push(s);
            continue;
        };
        let Some(dir) = dir else {
            diags.push(Diagnostic::error(
                s.span,
                "imports need the program to be a file",
            ));
            continue;
        };
        let path = dir.join(file);
        let key = path.display().to_string();
        if seen.contains(&key) {
            continue;
        }
        seen.push(key.clone());
        if depth > 32 {
            diags.push(Diagnostic::error(s.span, "imports are nested too deeply"));
            continue;
        }
        match std::fs::read_to_string(&path) {
            Ok(text) => {
                let id: FileId = sources.add(key, text.clone());
                let (mut sub, d) = syntax::parse(&text, id);
                diags.extend(d);
                splice_imports(&mut sub, path.parent(), sources, diags, seen, depth + 1);
                out.extend(sub.stmts);
            }
            Err(e) => diags.push(Diagnostic::error(
                s.span,
                format!("cannot import \"{file}\": {e}"),
            )),
        }
    }
    ast.stmts = out;
}
