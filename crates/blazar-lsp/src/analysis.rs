//! Everything the server knows about one version of a document: its diagnostics (the
//! same checking as `blazar check`: `blazar_interp::check`), its names (the AST
//! [`Index`]), the types the checker infers, and the modules it imports.

use crate::index::Index;
use crate::lines::{path_to_uri, Lines};
use crate::types::TypeMap;
use blazar_diagnostics::{FileId, Severity, SourceMap, Span};
use lsp_types::{DiagnosticRelatedInformation, DiagnosticSeverity, Location, Uri};
use std::cell::OnceCell;
use std::path::{Path, PathBuf};

/// One analysed text: a document, or a module it imports.
pub struct Source {
    pub text: String,
    pub lines: Lines,
    pub index: Index,
}

impl Source {
    pub fn new(text: String, file: FileId) -> Source {
        let (ast, _) = blazar_syntax::parse(&text, file);
        let index = Index::build(&ast, Span::new(file, 0, text.len()));
        Source {
            lines: Lines::new(&text),
            text,
            index,
        }
    }

    pub fn range(&self, span: Span) -> lsp_types::Range {
        self.lines
            .range(&self.text, span.lo as usize, span.hi as usize)
    }
}

/// An imported module, found as `blazar run` finds it: the file next to the importing
/// one, else Blazar's bundled module of that name.
pub struct Module {
    /// The name as `import` wrote it.
    pub file: String,
    /// Where it is: the local file, or where the server wrote the bundled text.
    pub uri: Option<Uri>,
    pub bundled: bool,
    pub source: Source,
    /// The import statement of the document that brought it in (directly or through
    /// other modules): its place in the document's `imports`.
    pub import: usize,
}

pub struct Analysis {
    pub doc: Source,
    pub modules: Vec<Module>,
    path: Option<PathBuf>,
    uri: Uri,
    /// Computed when first asked for: what needs the checker.
    checked: OnceCell<Checked>,
}

/// What `blazar check` finds: diagnostics, and the types it infers.
pub struct Checked {
    pub diagnostics: Vec<lsp_types::Diagnostic>,
    pub types: TypeMap,
    /// The types of builtin calls, by the start of the call.
    pub calls: crate::types::CallTypes,
}

impl Analysis {
    /// Parses and indexes `text`, the document at `path` (imports resolve next to it).
    /// The modules of `previous` are kept when the document imports the same files;
    /// checking waits until [`Analysis::checked`] is asked for.
    pub fn new(text: &str, path: Option<&Path>, uri: &Uri, previous: Option<Analysis>) -> Analysis {
        let doc = Source::new(text.to_string(), FileId(0));
        let dir = path.and_then(Path::parent);
        let same_imports = |p: &Analysis| {
            let files = |s: &Source| {
                s.index
                    .imports
                    .iter()
                    .map(|i| i.file.clone())
                    .collect::<Vec<_>>()
            };
            files(&p.doc) == files(&doc)
        };
        let modules = match previous {
            Some(p) if same_imports(&p) => p.modules,
            _ => modules(&doc.index, dir),
        };
        Analysis {
            doc,
            modules,
            path: path.map(Path::to_path_buf),
            uri: uri.clone(),
            checked: OnceCell::new(),
        }
    }

    /// The checker's diagnostics and types (the same checking as `blazar check`).
    pub fn checked(&self) -> &Checked {
        self.checked.get_or_init(|| {
            let path = self.path.as_deref();
            let name = path.map_or_else(|| "untitled.q".to_string(), |p| p.display().to_string());
            let dir = path.and_then(Path::parent).map(Path::to_path_buf);
            // `blazar check`'s diagnostics, without preparing the program to run.
            let loaded = blazar_interp::diagnose(&name, &self.doc.text, dir);
            let diagnostics = loaded
                .diagnostics
                .iter()
                .map(|d| convert(d, &loaded.sources, self))
                .collect();
            let (types, calls) = crate::types::collect(&loaded.program);
            Checked {
                diagnostics,
                types,
                calls,
            }
        })
    }

    /// The `import` statement that brought module `m` in.
    pub fn import_of(&self, m: &Module) -> Option<&crate::index::ImportStmt> {
        self.doc.index.imports.get(m.import)
    }
}

/// Every module the document imports, transitively, each once.
fn modules(index: &Index, dir: Option<&Path>) -> Vec<Module> {
    let mut out: Vec<Module> = Vec::new();
    let mut todo: Vec<(String, Option<PathBuf>, usize)> = index
        .imports
        .iter()
        .enumerate()
        .map(|(n, i)| (i.file.clone(), dir.map(Path::to_path_buf), n))
        .collect();
    todo.reverse();
    let mut next_id = 1;
    while let Some((file, dir, import)) = todo.pop() {
        if blazar_interp::stdlib::is_plugin(&file) || out.len() > 64 {
            continue;
        }
        let local = dir.as_ref().map(|d| d.join(&file)).filter(|p| p.is_file());
        let (text, uri, sub_dir, bundled) = match &local {
            Some(p) => match std::fs::read(p) {
                Ok(bytes) => (
                    String::from_utf8_lossy(&bytes).into_owned(),
                    path_to_uri(&std::fs::canonicalize(p).unwrap_or(p.clone())),
                    p.parent().map(Path::to_path_buf),
                    false,
                ),
                Err(_) => continue,
            },
            None => match blazar_interp::stdlib::module(&file) {
                Some(text) => (
                    text.to_string(),
                    bundled_uri(&file, text),
                    dir.clone(),
                    true,
                ),
                None => continue,
            },
        };
        let same = |m: &Module| match (&m.uri, &uri) {
            (Some(a), Some(b)) => a == b,
            _ => m.file == file,
        };
        if out.iter().any(same) {
            continue;
        }
        let source = Source::new(text, FileId(next_id));
        next_id += 1;
        for i in source.index.imports.iter().rev() {
            todo.push((i.file.clone(), sub_dir.clone(), import));
        }
        out.push(Module {
            file,
            uri,
            bundled,
            source,
            import,
        });
    }
    out
}

/// The bundled module's text written once under the temporary folder, so that an
/// editor can open it (go to definition).
fn bundled_uri(file: &str, text: &str) -> Option<Uri> {
    let dir = std::env::temp_dir().join("blazar-lsp").join("stdlib");
    let path = dir.join(file);
    let current = std::fs::read_to_string(&path).is_ok_and(|t| t == text);
    if !current {
        std::fs::create_dir_all(&dir).ok()?;
        std::fs::write(&path, text).ok()?;
    }
    path_to_uri(&path)
}

/// A checker diagnostic as the protocol's: in an imported file it is shown at the
/// `import` that brought the file in, with the file and line in its message.
fn convert(
    d: &blazar_diagnostics::Diagnostic,
    sources: &SourceMap,
    a: &Analysis,
) -> lsp_types::Diagnostic {
    let (doc, uri) = (&a.doc, &a.uri);
    let mut message = d.message.clone();
    let range = match d.span {
        Some(s) if s.file == FileId(0) => doc.range(s),
        Some(s) if (s.file.0 as usize) < sources.files().len() => {
            let f = sources.get(s.file);
            let (line, col) = f.line_col(s.lo as usize);
            message = format!("{}:{line}:{col}: {message}", f.name);
            let short = f.name.rsplit(['/', '\\']).next().unwrap_or(&f.name);
            let at = a
                .modules
                .iter()
                .find(|m| m.file.rsplit(['/', '\\']).next() == Some(short))
                .and_then(|m| a.import_of(m));
            at.map_or_else(Default::default, |i| doc.range(i.span))
        }
        _ => Default::default(),
    };
    for n in &d.notes {
        message += "\nnote: ";
        message += n;
    }
    let mut related = Vec::new();
    for r in &d.related {
        if r.span.file == FileId(0) {
            related.push(DiagnosticRelatedInformation {
                location: Location::new(uri.clone(), doc.range(r.span)),
                message: r.message.clone(),
            });
        } else if (r.span.file.0 as usize) < sources.files().len() {
            let f = sources.get(r.span.file);
            let (line, col) = f.line_col(r.span.lo as usize);
            message += &format!("\nnote: {}:{line}:{col}: {}", f.name, r.message);
        }
    }
    lsp_types::Diagnostic {
        range,
        severity: Some(match d.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
            Severity::Note => DiagnosticSeverity::INFORMATION,
        }),
        source: Some("blazar".into()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        ..Default::default()
    }
}
