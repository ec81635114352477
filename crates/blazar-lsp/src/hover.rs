//! Hover: the type the checker knows for a variable, a function's signature and
//! comment, a builtin's documentation ([`crate::docs::doc_for`]).

use crate::analysis::{Analysis, Source};
use crate::index::{Def, DefKind};
use crate::resolve::{self, Target};
use lsp_types::{Hover, HoverContents, MarkupContent, MarkupKind};

pub fn hover(a: &Analysis, offset: u32) -> Option<Hover> {
    let text = match resolve::at(a, offset)? {
        Target::Local(d) => describe(&a.doc, &a.doc.index.defs[d], Some(a)),
        Target::Module(m, d) => {
            let m = &a.modules[m];
            format!(
                "{}\n\n*from `{}`*",
                describe(&m.source, &m.source.index.defs[d], None),
                m.file
            )
        }
        Target::Builtin(name) => {
            let doc = crate::docs::doc_for(name)?;
            // The type this call gives, where the checker knows it.
            let here = a
                .doc
                .index
                .use_at(offset)
                .and_then(|u| a.checked().calls.get(&u.span.lo))
                .map(|t| format!("\n% this call gives: {t}"))
                .unwrap_or_default();
            format!("```quasar\n{}{here}\n```\n{}", doc.signature, doc.summary)
        }
        Target::Import(m) => {
            let m = &a.modules[m];
            let funcs: Vec<&str> = m
                .source
                .index
                .top
                .iter()
                .map(|&d| &m.source.index.defs[d])
                .filter(|d| d.kind == DefKind::Function)
                .map(|d| d.name.as_str())
                .collect();
            let place = if m.bundled {
                "Blazar's bundled module"
            } else {
                "the file next to this one"
            };
            format!("`{}`: {place}; functions: {}", m.file, funcs.join(", "))
        }
        Target::Field(name) => {
            let ix = &a.doc.index;
            let owners: Vec<String> = ix
                .defs
                .iter()
                .filter(|c| c.kind == DefKind::Class)
                .filter_map(|c| {
                    let f = ix
                        .fields_of(&c.name)
                        .into_iter()
                        .find(|&f| ix.defs[f].name == name)?;
                    let ty = ix.defs[f].detail.clone().unwrap_or_else(|| "??".into());
                    Some(format!("{name} : {ty}  (field of {})", c.name))
                })
                .collect();
            if owners.is_empty() {
                return None;
            }
            format!("```quasar\n{}\n```", owners.join("\n"))
        }
    };
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: text,
        }),
        range: None,
    })
}

/// Markdown for a definition of `s`; with the analysis, variables show inferred types.
fn describe(s: &Source, d: &Def, a: Option<&Analysis>) -> String {
    match d.kind {
        DefKind::Function => {
            let sig = d.detail.clone().unwrap_or_else(|| d.name.clone());
            let ty = a
                .and_then(|a| a.checked().types.get(&(d.full.lo, d.full.hi)))
                .filter(|t| **t != blazar_hir::Ty::Unknown)
                .map(|t| format!("\n% type: {t}"))
                .unwrap_or_default();
            let comment = crate::resolve::comment_above(s, d.full.lo);
            let mut out = format!("```quasar\n{sig}{ty}\n```");
            if !comment.is_empty() {
                out += "\n";
                out += &comment;
            }
            out
        }
        DefKind::Variable | DefKind::Parameter | DefKind::Output => {
            let what = match d.kind {
                DefKind::Parameter => "parameter ",
                DefKind::Output => "output ",
                _ => "",
            };
            let (ty, how) = match (&d.detail, a) {
                (Some(t), _) => (t.clone(), ""),
                (None, Some(a)) => inferred(a, d),
                (None, None) => ("??".to_string(), ""),
            };
            format!("```quasar\n{what}{} : {ty}\n```{how}", d.name)
        }
        DefKind::Class => {
            let fields: Vec<String> = s
                .index
                .fields_of(&d.name)
                .iter()
                .map(|&f| {
                    let f = &s.index.defs[f];
                    format!("    {} : {}", f.name, f.detail.as_deref().unwrap_or("??"))
                })
                .collect();
            let kind = d.detail.as_deref().unwrap_or("class");
            format!(
                "```quasar\ntype {} : {kind}\n{}\nend\n```",
                d.name,
                fields.join("\n")
            )
        }
        DefKind::TypeAlias => format!(
            "```quasar\ntype {} : {}\n```",
            d.name,
            d.detail.as_deref().unwrap_or("??")
        ),
        DefKind::Field => format!(
            "```quasar\n{} : {}\n```",
            d.name,
            d.detail.as_deref().unwrap_or("??")
        ),
        DefKind::Macro => format!("```quasar\nmacro {}\n```", d.name),
    }
}

/// The type of an undeclared variable from its assignments: one type when they all
/// agree, else each of them (`??` where the checker cannot tell).
fn inferred(a: &Analysis, d: &Def) -> (String, &'static str) {
    let mut tys: Vec<String> = Vec::new();
    for s in &d.sites {
        let t = a
            .checked()
            .types
            .get(&(s.lo, s.hi))
            .map_or_else(|| "??".to_string(), |t| t.to_string());
        if !tys.contains(&t) {
            tys.push(t);
        }
    }
    match tys.as_slice() {
        [] => ("??".into(), ""),
        [one] if one == "??" => (one.clone(), "\n\n(type not known before it runs)"),
        [one] => (one.clone(), "\n\n(inferred)"),
        many => (many.join(" | "), "\n\n(assigned values of different types)"),
    }
}
