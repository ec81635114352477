//! Completion: names in scope, imported functions, builtins, keywords and types; fields
//! after `.`; module names inside `import "..."`.

use crate::analysis::Analysis;
use crate::index::DefKind;
use lsp_types::{CompletionItem, CompletionItemKind, Documentation, MarkupContent, MarkupKind};
use std::path::Path;

/// Words the parser reads as statements besides the reserved ones, and literals.
const WORDS: &[&str] = &[
    "print",
    "import",
    "macro",
    "endmacro",
    "match",
    "with",
    "type",
    "class",
    "mutable",
    "reduction",
    "concealed",
    "__kernel__",
    "__device__",
    "true",
    "false",
    "pi",
];

/// Type names a declaration can use.
const TYPES: &[&str] = &[
    "scalar", "cscalar", "int", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
    "uint64", "string", "object", "vec", "mat", "cube", "cvec", "cmat", "ccube", "ivec", "imat",
    "icube", "vec2", "vec3", "vec4", "ivec2", "ivec3", "ivec4",
];

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '$'
}

/// Completions at byte `offset`; `dir` is the document's folder (for imports).
pub fn complete(a: &Analysis, offset: usize, dir: Option<&Path>) -> Vec<CompletionItem> {
    let text = &a.doc.text;
    let offset = offset.min(text.len());
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let before = &text[line_start..offset];
    if let Some(partial) = import_prefix(before) {
        return imports(partial, dir);
    }
    let prefix_len = before.len() - before.trim_end_matches(is_ident).len();
    let prefix = &before[before.len() - prefix_len..];
    let head = &before[..before.len() - prefix_len];
    if let Some(base) = head.strip_suffix('.') {
        if base.ends_with(|c: char| is_ident(c) || c == ')' || c == ']') {
            return fields(a, base, offset as u32);
        }
    }
    let wanted = |name: &str| {
        name.get(..prefix.len())
            .is_some_and(|p| p.eq_ignore_ascii_case(prefix))
    };
    let mut out = Vec::new();
    let ix = &a.doc.index;
    for d in ix.visible(ix.scope_at(offset as u32)) {
        let def = &ix.defs[d];
        if wanted(&def.name) {
            out.push(item(&def.name, kind_of(def.kind), def.detail.clone(), None));
        }
    }
    for m in &a.modules {
        for &d in &m.source.index.top {
            let def = &m.source.index.defs[d];
            if def.kind == DefKind::Function && wanted(&def.name) {
                let from = format!("from `{}`", m.file);
                out.push(item(
                    &def.name,
                    CompletionItemKind::FUNCTION,
                    def.detail.clone(),
                    Some(from),
                ));
            }
        }
    }
    for name in crate::docs::names() {
        if wanted(name) && !out.iter().any(|i| i.label == name) {
            let doc = crate::docs::doc_for(name);
            let (sig, summary) = doc.map_or((None, None), |d| (Some(d.signature), Some(d.summary)));
            out.push(item(name, CompletionItemKind::FUNCTION, sig, summary));
        }
    }
    let keywords = blazar_syntax::RESERVED.iter().chain(WORDS);
    for &k in keywords {
        if wanted(k) {
            out.push(item(k, CompletionItemKind::KEYWORD, None, None));
        }
    }
    for &t in TYPES {
        if wanted(t) {
            out.push(item(t, CompletionItemKind::TYPE_PARAMETER, None, None));
        }
    }
    out
}

/// Inside `import "pre|`: the part of the name typed so far.
fn import_prefix(before: &str) -> Option<&str> {
    let rest = before.trim_start().strip_prefix("import")?;
    let rest = rest.trim_start().strip_prefix('"')?;
    (!rest.contains('"')).then_some(rest)
}

/// Bundled modules and the `.q` files next to the document.
fn imports(partial: &str, dir: Option<&Path>) -> Vec<CompletionItem> {
    let mut names: Vec<(String, &str)> = blazar_interp::stdlib::module_names()
        .map(|n| (n.to_string(), "bundled module"))
        .collect();
    if let Some(entries) = dir.and_then(|d| std::fs::read_dir(d).ok()) {
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.ends_with(".q") && !names.iter().any(|(n, _)| *n == name) {
                names.push((name, "file next to this one"));
            }
        }
    }
    names.sort();
    names
        .into_iter()
        .filter(|(n, _)| n.starts_with(partial))
        .map(|(n, what)| item(&n, CompletionItemKind::FILE, Some(what.into()), None))
        .collect()
}

/// After `base.`: the fields of the class the base is declared as, else every field of
/// the classes of the file.
fn fields(a: &Analysis, base: &str, offset: u32) -> Vec<CompletionItem> {
    let ix = &a.doc.index;
    let name_len = base.len() - base.trim_end_matches(is_ident).len();
    let name = &base[base.len() - name_len..];
    let class = ix
        .lookup(name, ix.scope_at(offset))
        .and_then(|d| ix.defs[d].detail.clone())
        .filter(|t| {
            ix.defs
                .iter()
                .any(|c| c.kind == DefKind::Class && c.name == *t)
        });
    ix.defs
        .iter()
        .filter(|c| c.kind == DefKind::Class && class.as_ref().is_none_or(|k| *k == c.name))
        .flat_map(|c| ix.fields_of(&c.name))
        .map(|f| {
            let f = &ix.defs[f];
            item(&f.name, CompletionItemKind::FIELD, f.detail.clone(), None)
        })
        .collect()
}

fn kind_of(k: DefKind) -> CompletionItemKind {
    match k {
        DefKind::Function => CompletionItemKind::FUNCTION,
        DefKind::Variable | DefKind::Parameter | DefKind::Output => CompletionItemKind::VARIABLE,
        DefKind::Class => CompletionItemKind::CLASS,
        DefKind::TypeAlias => CompletionItemKind::TYPE_PARAMETER,
        DefKind::Field => CompletionItemKind::FIELD,
        DefKind::Macro => CompletionItemKind::SNIPPET,
    }
}

fn item(
    label: &str,
    kind: CompletionItemKind,
    detail: Option<String>,
    doc: Option<String>,
) -> CompletionItem {
    CompletionItem {
        label: label.to_string(),
        kind: Some(kind),
        detail,
        documentation: doc.map(|value| {
            Documentation::MarkupContent(MarkupContent {
                kind: MarkupKind::Markdown,
                value,
            })
        }),
        ..Default::default()
    }
}
