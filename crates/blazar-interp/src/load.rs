//! Loading a program: reading the file, splicing in `import`ed files, parsing and
//! resolving. All diagnostics of all files are collected before anything runs.

use blazar_diagnostics::{Diagnostic, FileId, SourceMap, Span};
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
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let (text, bad) = crate::source::decode(bytes);
    let mut loaded = check(
        &path.display().to_string(),
        &text,
        path.parent().map(Path::to_path_buf),
    );
    if let Some(at) = bad {
        // The main file is the first of the source map.
        loaded.diagnostics.insert(0, not_utf8(FileId(0), &text, at));
    }
    Ok(loaded)
}

/// The warning for a file read as Windows-1252, at its first such character.
fn not_utf8(file: FileId, text: &str, at: usize) -> Diagnostic {
    let len = text[at..].chars().next().map_or(0, char::len_utf8);
    Diagnostic::warning(
        Span::new(file, at, at + len),
        "this file is not UTF-8; it was read as Windows-1252",
    )
}

/// Parses and resolves program text; `dir` is where `import`s are looked up (none: imports
/// are errors).
pub fn check(name: &str, text: &str, dir: Option<PathBuf>) -> Loaded {
    let mut loaded = diagnose(name, text, dir);
    if !loaded.has_errors() {
        let sources = &loaded.sources;
        let name = |id: u32| blazar_runtime::builtins::get(id).name;
        let line_of = |s: blazar_diagnostics::Span| sources.line_of(s) as u32;
        let names = blazar_passes::Names {
            builtin_name: &name,
            builtin_id: &|n: &str| blazar_runtime::builtins::lookup(n),
            line_of: &line_of,
        };
        blazar_passes::apply_rules(&mut loaded.program);
        loaded.loops = blazar_passes::parallelize(&mut loaded.program, &names);
        blazar_passes::serialize_functions(&mut loaded.program, &names);
        blazar_passes::serialize(&mut loaded.program, &names, &mut loaded.loops);
        // `BLAZAR_FUSE_STATEMENTS=off`: every statement its own region (a comparison).
        if std::env::var("BLAZAR_FUSE_STATEMENTS").as_deref() != Ok("off") {
            blazar_passes::fuse_statements(&mut loaded.program);
        }
    }
    loaded
}

/// What [`check`] reports, without preparing the program to run (no rewrite rules, no
/// loop parallelizer, `loops` empty): the language server's check after a keystroke.
pub fn diagnose(name: &str, text: &str, dir: Option<PathBuf>) -> Loaded {
    let mut sources = SourceMap::new();
    let mut diagnostics = Vec::new();
    let file = sources.add(name, text);
    let (mut ast, diags) = syntax::parse(text, file);
    diagnostics.extend(diags);
    let mut seen = vec![name.to_string()];
    let mut plugins = Vec::new();
    splice_imports(
        &mut ast,
        dir.as_deref(),
        &mut Imports {
            sources: &mut sources,
            diags: &mut diagnostics,
            seen: &mut seen,
            plugins: &mut plugins,
        },
        0,
    );
    // After a syntax error, names assigned in the broken statements are missing: resolving
    // would report them as undefined. Only the syntax errors are reported then.
    if diagnostics.iter().any(|d| d.is_error()) {
        ast = syntax::Program::default();
    }
    let (program, diags) = lower_hinted(&ast, &plugins);
    diagnostics.extend(diags);
    let arity = |id: u32| {
        let b = blazar_runtime::builtins::get(id);
        (b.name.to_string(), b.min_args, b.max_args)
    };
    diagnostics.extend(blazar_hir::check_program(&program, &arity));
    if !diagnostics.iter().any(|d| d.is_error()) {
        diagnostics.extend(crate::precheck::check_kernels(&program, &sources));
    }
    Loaded {
        sources,
        program,
        diagnostics,
        loops: Vec::new(),
    }
}

/// Replaces the `import` statements of `ast` by the imported modules (files next to
/// `dir`, else bundled modules), adding their text to `sources` and their problems to
/// `diags`: what [`check`] does, for the interactive session's inputs.
pub fn splice_imports_of(
    ast: &mut syntax::Program,
    dir: Option<&Path>,
    sources: &mut SourceMap,
    diags: &mut Vec<Diagnostic>,
    seen: &mut Vec<String>,
) {
    let mut plugins = Vec::new();
    splice_imports(
        ast,
        dir,
        &mut Imports {
            sources,
            diags,
            seen,
            plugins: &mut plugins,
        },
        0,
    );
}

/// What splicing imports accumulates.
struct Imports<'a> {
    sources: &'a mut SourceMap,
    diags: &'a mut Vec<Diagnostic>,
    /// Files imported so far (each is spliced once).
    seen: &'a mut Vec<String>,
    /// Imported plugins, with their known names that Blazar does not provide.
    plugins: &'a mut Vec<(String, Vec<String>)>,
}

/// Replaces each `import "f.q"` by the statements of f.q (once per file): the file next
/// to the importing one, else Blazar's bundled module of that name. A .NET plugin is
/// dropped: one Blazar provides (`"Quasar.UI.dll"`, `"Quasar.Video.dll"`: their functions are builtins)
/// silently, any other with a warning; names of a plugin Blazar lacks are errors where
/// used.
fn splice_imports(ast: &mut syntax::Program, dir: Option<&Path>, im: &mut Imports, depth: usize) {
    let mut out = Vec::with_capacity(ast.stmts.len());
    for s in std::mem::take(&mut ast.stmts) {
        let StmtKind::Import(file) = &s.kind else {
            out.push(s);
            continue;
        };
        if crate::stdlib::is_plugin(file) {
            if !im.plugins.iter().any(|(p, _)| p == file) {
                // A plugin Blazar provides (`Quasar.UI.dll`: `form`) imports silently;
                // its names Blazar lacks still warn where they are used.
                if !crate::stdlib::plugin_provided(file) {
                    im.diags.push(Diagnostic::warning(
                        s.span,
                        format!("the plugin {file} is not available in Blazar; its functions cannot be used"),
                    ));
                }
                let names = crate::stdlib::plugin_names(file).iter();
                let missing = names.filter(|n| blazar_runtime::builtins::lookup(n).is_none());
                im.plugins
                    .push((file.clone(), missing.map(|n| n.to_string()).collect()));
            }
            continue;
        }
        // `import "D:\work\x.q"`: a Windows path names a file of another machine; the
        // file of that name beside the program (or in the bundled library) stands in.
        let file = match windows_base_name(file) {
            Some(base) if !dir.is_some_and(|d| d.join(file).is_file()) => {
                im.diags.push(Diagnostic::warning(
                    s.span,
                    format!(
                        "\"{file}\" is an absolute Windows path; importing \"{base}\" from \
                         beside the program or Blazar's bundled library instead"
                    ),
                ));
                base
            }
            _ => file,
        };
        let local = dir.map(|d| d.join(file)).filter(|p| p.is_file());
        let bundled = crate::stdlib::module(file);
        let (key, text, sub_dir) = match (&local, bundled) {
            (Some(path), _) => match std::fs::read(path) {
                Ok(bytes) => (
                    path.display().to_string(),
                    bytes,
                    path.parent().map(Path::to_path_buf),
                ),
                Err(e) => {
                    im.diags.push(Diagnostic::error(
                        s.span,
                        format!("cannot import \"{file}\": {e}"),
                    ));
                    continue;
                }
            },
            (None, Some(text)) => (format!("<blazar>/{file}"), text.as_bytes().to_vec(), None),
            (None, None) => {
                let msg = match dir {
                    None => "imports need the program to be a file".to_string(),
                    Some(_) if !file.contains(['/', '\\']) => format!(
                        "cannot import \"{file}\": there is no file {file} next to the program, \
                         and Blazar's bundled library has no module \"{file}\" yet"
                    ),
                    Some(d) => format!(
                        "cannot import \"{file}\": no file {}",
                        d.join(file).display()
                    ),
                };
                im.diags.push(Diagnostic::error(s.span, msg));
                continue;
            }
        };
        if im.seen.contains(&key) {
            continue;
        }
        im.seen.push(key.clone());
        if depth > 32 {
            im.diags
                .push(Diagnostic::error(s.span, "imports are nested too deeply"));
            continue;
        }
        let (text, bad) = crate::source::decode(text);
        let id: FileId = im.sources.add(key, text.clone());
        if let Some(at) = bad {
            im.diags.push(not_utf8(id, &text, at));
        }
        let (mut sub, d) = syntax::parse(&text, id);
        im.diags.extend(d);
        splice_imports(&mut sub, sub_dir.as_deref().or(dir), im, depth + 1);
        out.extend(sub.stmts);
    }
    ast.stmts = out;
}

/// The file name at the end of an absolute Windows path (`C:\dir\x.q`, `C:/dir/x.q`,
/// `\\server\share\x.q`); `None` for any other import.
fn windows_base_name(file: &str) -> Option<&str> {
    let b = file.as_bytes();
    let drive =
        b.len() > 3 && b[0].is_ascii_alphabetic() && b[1] == b':' && matches!(b[2], b'\\' | b'/');
    let unc = file.starts_with("\\\\");
    if !(drive || unc) {
        return None;
    }
    file.rsplit(['\\', '/']).next().filter(|n| !n.is_empty())
}

/// Resolves `ast` against the builtins, with did-you-mean and import hints drawn from
/// the builtins and the bundled modules' functions (for `run`, `check` and the REPL).
pub fn lower_hinted(
    ast: &syntax::Program,
    plugins: &[(String, Vec<String>)],
) -> (Program, Vec<Diagnostic>) {
    let lookup = |n: &str| blazar_runtime::builtins::lookup(n);
    let builtins: Vec<&str> = blazar_runtime::builtins::all()
        .iter()
        .map(|b| b.name)
        .collect();
    let hints = blazar_hir::Hints {
        builtins: &builtins,
        library: crate::stdlib::library_functions(),
    };
    blazar_hir::lower_program_hinted(ast, &lookup, plugins, hints)
}
