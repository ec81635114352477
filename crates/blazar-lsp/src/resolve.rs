//! What the name at a position means: a definition of the document, a top-level
//! definition of an imported module, a builtin, an imported module itself, or a field.

use crate::analysis::{Analysis, Source};
use crate::index::{DefId, DefKind};

pub enum Target<'a> {
    /// A definition in the document.
    Local(DefId),
    /// A top-level definition of module `.0`.
    Module(usize, DefId),
    Builtin(&'a str),
    /// The module an `import` statement names.
    Import(usize),
    /// `a.name`: the fields of that name in the classes known.
    Field(&'a str),
}

/// What is at byte `offset` of the document.
pub fn at(a: &Analysis, offset: u32) -> Option<Target<'_>> {
    if let Some(u) = a.doc.index.use_at(offset) {
        if u.field {
            return Some(Target::Field(&u.name));
        }
        if let Some(d) = u.def {
            return Some(Target::Local(d));
        }
        return global(a, &u.name);
    }
    let import = a
        .doc
        .index
        .imports
        .iter()
        .position(|i| i.span.lo <= offset && offset <= i.span.hi)?;
    let file = &a.doc.index.imports[import].file;
    a.modules
        .iter()
        .position(|m| m.file == *file && m.import == import)
        .map(Target::Import)
}

/// A name the document does not define: an imported module's function, else a builtin.
pub fn global<'a>(a: &'a Analysis, name: &'a str) -> Option<Target<'a>> {
    for (i, m) in a.modules.iter().enumerate() {
        if let Some(d) = top_level(&m.source, name) {
            return Some(Target::Module(i, d));
        }
    }
    crate::docs::doc_for(name).map(|_| Target::Builtin(name))
}

/// The top-level definition `name` of a source (functions and types only: a module's
/// variables are its own).
pub fn top_level(s: &Source, name: &str) -> Option<DefId> {
    s.index.scopes.first()?.defs.iter().copied().find(|&d| {
        let def = &s.index.defs[d];
        def.name == name && def.kind != DefKind::Variable
    })
}

/// The `%` comment lines right above line of `offset` (a function's documentation).
pub fn comment_above(s: &Source, offset: u32) -> String {
    let line = s.lines.position(&s.text, offset as usize).line as usize;
    let all: Vec<&str> = s.text.lines().collect();
    let mut start = line;
    while start > 0 && all[start - 1].trim_start().starts_with('%') {
        start -= 1;
    }
    all[start..line]
        .iter()
        .map(|l| l.trim_start().trim_start_matches('%').trim())
        .collect::<Vec<_>>()
        .join("\n")
}
