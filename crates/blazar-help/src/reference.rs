//! The function reference in `docs/reference/`: one Markdown page per module, generated
//! from the registry (`blazar help --reference docs/reference` writes it; a test checks
//! that the committed pages are up to date, and the documentation test runs every
//! example in them).

use crate::{in_module, modules, Entry, Source};

/// The file name of a module's page (`reduce.md`, `imfilter.md`).
pub fn page_name(module: &str) -> String {
    format!("{}.md", module.trim_end_matches(".q"))
}

/// Every page: (file name, Markdown), the index `README.md` first.
pub fn pages() -> Vec<(String, String)> {
    let mut out = vec![("README.md".to_string(), index())];
    for m in modules() {
        out.push((page_name(m), page(m)));
    }
    out
}

const GENERATED: &str = "<!-- Generated from the documentation in the sources by \
`blazar help --reference docs/reference`; do not edit. -->";

fn index() -> String {
    let mut s = format!(
        "{GENERATED}\n\n# Function reference\n\nEvery function a program can call, by \
         module, with an example that the test suite runs. The same text is shown by \
         `blazar help NAME`, by `help NAME` or `?NAME` in the interactive session, and \
         `blazar help --search WORD` searches it.\n\n"
    );
    s.push_str("| module | functions |\n|---|---|\n");
    for m in modules() {
        let names: Vec<String> = in_module(m)
            .iter()
            .map(|e| format!("`{}`", e.name))
            .collect();
        s.push_str(&format!(
            "| [{}]({}) | {} |\n",
            title(m),
            page_name(m),
            names.join(", ")
        ));
    }
    s
}

fn title(module: &str) -> String {
    if module.ends_with(".q") {
        format!("{module} (library)")
    } else {
        module.to_string()
    }
}

/// The Markdown page of one module.
pub fn page(module: &str) -> String {
    let entries = in_module(module);
    let mut s = format!("{GENERATED}\n\n# {}\n\n", title(module));
    match entries.first().map(|e| e.source) {
        Some(Source::Library(f)) => s.push_str(&format!(
            "Functions of the bundled module `{f}`: a program uses them after \
             `import \"{f}\"`.\n\n"
        )),
        Some(Source::Language) => s.push_str(
            "Statements and functions that are part of the language: the kernel launch \
             and what only kernels use, the checks and the printing statement.\n\n",
        ),
        _ => s.push_str("Builtin functions: always available, no `import` needed.\n\n"),
    }
    for e in entries {
        s.push_str(&section(e));
    }
    s
}

fn section(e: &Entry) -> String {
    let mut s = format!("## `{}`\n\n`{}`\n\n{}\n\n", e.name, e.sig, e.text);
    s.push_str(&format!("```quasar\n{}\n```\n", e.program()));
    if !e.output.is_empty() {
        s.push_str(&format!("```output\n{}\n```\n", e.output));
    }
    s.push('\n');
    s
}
