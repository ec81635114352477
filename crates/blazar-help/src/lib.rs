//! The documentation of every function a Quasar program can call, in one registry.
//!
//! Nothing here is written twice: a builtin's documentation is the [`blazar_ops::Doc`]
//! attached to its declaration (a row of `blazar_ops::MATH` or a builtin of
//! `blazar-runtime`), a bundled library function's is the `%` comment block above its
//! definition in the `.q` module (see [`library`]), and the language's own functions
//! (`print`, `parallel_do`, ...) are in [`language`]. `blazar help`, the REPL's
//! `help`/`?`, the generated reference in `docs/reference/` and the language server
//! read them through this API:
//!
//! - [`doc`]`(name)`: the entry of one function;
//! - [`search`]`(word)`: the entries whose name, signature or description mention it;
//! - [`all`], [`modules`], [`in_module`]: everything, by module;
//! - [`library_module_of`]`(name)`: the bundled module that defines a function (for the
//!   "add `import`" hint);
//! - [`Entry::render`] (terminal text) and [`reference`] (Markdown pages).

pub mod language;
pub mod library;
pub mod reference;
mod text;

pub use text::{help_text, overview, search_text};

use std::sync::OnceLock;

/// Where a documented function comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// A builtin of the runtime (or a math function of `blazar_ops::MATH`).
    Builtin,
    /// A function or statement of the language itself (`print`, `parallel_do`).
    Language,
    /// A function of a bundled library module, usable after `import "file.q"`.
    Library(&'static str),
}

/// The documentation of one function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub name: String,
    /// The reference page it is on: a builtin family (`"reduce"`), `"language"`, or the
    /// library file (`"imfilter.q"`).
    pub module: String,
    pub source: Source,
    /// The call forms, `·`-separated.
    pub sig: String,
    /// One paragraph.
    pub text: String,
    /// An example program (without the `import` a library function needs: see
    /// [`Entry::program`]).
    pub example: String,
    /// Exactly what the example prints.
    pub output: String,
}

impl Entry {
    fn from_doc(name: &str, module: &str, source: Source, d: &blazar_ops::Doc) -> Entry {
        Entry {
            name: name.to_string(),
            module: module.to_string(),
            source,
            sig: d.sig.to_string(),
            text: d.text.to_string(),
            example: d.example.to_string(),
            output: d.output.to_string(),
        }
    }

    /// The example as a complete program: a library function's starts with its import.
    pub fn program(&self) -> String {
        match self.source {
            Source::Library(file) => format!("import \"{file}\"\n{}", self.example),
            _ => self.example.clone(),
        }
    }

    /// The entry as `help NAME` prints it in a terminal.
    pub fn render(&self) -> String {
        let origin = match self.source {
            Source::Builtin => format!("builtin ({})", self.module),
            Source::Language => "part of the language".to_string(),
            Source::Library(f) => format!("defined in {f}: add `import \"{f}\"`"),
        };
        let mut s = format!("{}\n    {origin}\n\n", self.sig);
        for line in wrap(&self.text, 86) {
            s.push_str(&format!("  {line}\n"));
        }
        s.push_str("\n  Example:\n");
        for line in self.program().lines() {
            s.push_str(&format!("    {line}\n"));
        }
        if !self.output.is_empty() {
            s.push_str("  prints:\n");
            for line in self.output.lines() {
                s.push_str(&format!("    {line}\n"));
            }
        }
        s
    }
}

/// Words of `text` in lines of at most `width` characters.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut cur = String::new();
    for w in text.split_whitespace() {
        if !cur.is_empty() && cur.chars().count() + 1 + w.chars().count() > width {
            lines.push(std::mem::take(&mut cur));
        }
        if !cur.is_empty() {
            cur.push(' ');
        }
        cur.push_str(w);
    }
    if !cur.is_empty() {
        lines.push(cur);
    }
    lines
}

struct Registry {
    entries: Vec<Entry>,
    /// What is missing or malformed (reported by the tests, never at run time).
    problems: Vec<String>,
}

fn registry() -> &'static Registry {
    static R: OnceLock<Registry> = OnceLock::new();
    R.get_or_init(|| {
        let mut entries = Vec::new();
        let mut problems = Vec::new();
        for b in blazar_runtime::builtins::all() {
            let row = blazar_ops::MATH.iter().find(|d| d.name == b.name);
            let doc = match (b.doc.is_none(), row.map(|r| &r.doc)) {
                (false, Some(r)) if !r.is_none() && b.doc != *r => {
                    problems.push(format!(
                        "`{}` is documented twice: in blazar_ops::MATH and in its builtin",
                        b.name
                    ));
                    &b.doc
                }
                (false, _) => &b.doc,
                (true, Some(r)) => r,
                (true, None) => &b.doc,
            };
            if doc.is_none() {
                problems.push(format!("builtin `{}` has no documentation", b.name));
                continue;
            }
            let family = blazar_runtime::builtins::family(b.name).unwrap_or("math");
            entries.push(Entry::from_doc(b.name, family, Source::Builtin, doc));
        }
        for (name, d) in language::DOCS {
            entries.push(Entry::from_doc(name, "language", Source::Language, d));
        }
        for (file, text) in blazar_interp::stdlib::modules() {
            let (docs, errs) = library::parse_module(file, text);
            entries.extend(docs);
            problems.extend(errs);
        }
        Registry { entries, problems }
    })
}

/// Every documented function, builtins first, then the language's, then the library's.
pub fn all() -> &'static [Entry] {
    &registry().entries
}

/// The documentation of `name` (a builtin, language or bundled library function).
pub fn doc(name: &str) -> Option<&'static Entry> {
    all().iter().find(|e| e.name == name)
}

/// The entries that mention `word` (case-insensitive): first those whose name contains
/// it, then those whose signature or description does.
pub fn search(word: &str) -> Vec<&'static Entry> {
    let w = word.to_lowercase();
    let (mut by_name, mut by_text): (Vec<&Entry>, Vec<&Entry>) = (vec![], vec![]);
    for e in all() {
        if e.name.to_lowercase().contains(&w) {
            by_name.push(e);
        } else if e.sig.to_lowercase().contains(&w) || e.text.to_lowercase().contains(&w) {
            by_text.push(e);
        }
    }
    by_name.extend(by_text);
    by_name
}

/// The modules (reference pages), in order: builtin families, `language`, library files.
pub fn modules() -> Vec<&'static str> {
    let mut out: Vec<&str> = Vec::new();
    for e in all() {
        if !out.contains(&e.module.as_str()) {
            out.push(&e.module);
        }
    }
    out
}

/// The entries of one module, sorted by name.
pub fn in_module(module: &str) -> Vec<&'static Entry> {
    let mut v: Vec<&Entry> = all().iter().filter(|e| e.module == module).collect();
    v.sort_by(|a, b| a.name.cmp(&b.name));
    v
}

/// The bundled module that defines public function `name` (`"imfilter.q"`), if any.
pub fn library_module_of(name: &str) -> Option<&'static str> {
    all().iter().find_map(|e| match e.source {
        Source::Library(f) if e.name == name => Some(f),
        _ => None,
    })
}

/// Every public function of the bundled modules: (name, module file).
pub fn library_functions() -> Vec<(&'static str, &'static str)> {
    all()
        .iter()
        .filter_map(|e| match e.source {
            Source::Library(f) => Some((e.name.as_str(), f)),
            _ => None,
        })
        .collect()
}

/// Builtins without documentation, malformed doc blocks, library functions neither
/// documented nor marked `% internal`: empty when everything is documented.
pub fn problems() -> &'static [String] {
    &registry().problems
}

#[cfg(test)]
mod tests;
