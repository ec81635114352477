//! Signature help: the call the cursor is in, and which argument.

use crate::analysis::Analysis;
use crate::index::DefKind;
use crate::resolve::{self, Target};
use lsp_types::{ParameterInformation, ParameterLabel, SignatureHelp, SignatureInformation};

/// The call around byte `offset`: the text is read backwards on the current line, so
/// that a call being typed (not parsed yet) is found.
pub fn signature_help(a: &Analysis, offset: usize) -> Option<SignatureHelp> {
    let text = &a.doc.text;
    let offset = offset.min(text.len());
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let (open, commas) = open_call(&text[line_start..offset])?;
    let head = text[line_start..line_start + open].trim_end();
    let len = head.len()
        - head
            .trim_end_matches(|c: char| c.is_ascii_alphanumeric() || c == '_')
            .len();
    let name = &head[head.len() - len..];
    if name.is_empty() {
        return None;
    }
    let (label, params, doc) = describe(a, name, (line_start + open) as u32)?;
    let parameters = params
        .iter()
        .map(|p| ParameterInformation {
            label: ParameterLabel::Simple(p.clone()),
            documentation: None,
        })
        .collect();
    let active = (commas as u32).min(params.len().saturating_sub(1) as u32);
    Some(SignatureHelp {
        signatures: vec![SignatureInformation {
            label,
            documentation: doc.map(lsp_types::Documentation::String),
            parameters: Some(parameters),
            active_parameter: Some(active),
        }],
        active_signature: Some(0),
        active_parameter: Some(active),
    })
}

/// The byte of the unclosed `(` in `line`, and the commas after it at its level.
fn open_call(line: &str) -> Option<(usize, usize)> {
    let mut depth = 0usize;
    let mut commas = 0;
    let mut in_string = None;
    // Strings are skipped: walk forwards once to find where they are.
    let mut quoted = vec![false; line.len()];
    for (i, c) in line.char_indices() {
        match in_string {
            Some(q) if c == q => in_string = None,
            Some(_) => quoted[i] = true,
            None if c == '"' => in_string = Some('"'),
            None => {}
        }
    }
    for (i, c) in line.char_indices().rev() {
        if quoted[i] {
            continue;
        }
        match c {
            ')' | ']' | '}' => depth += 1,
            '[' | '{' if depth == 0 => return None,
            '(' if depth == 0 => return Some((i, commas)),
            '(' | '[' | '{' => depth -= 1,
            ',' if depth == 0 => commas += 1,
            _ => {}
        }
    }
    None
}

/// The label, parameters and documentation of the function `name` as seen at `at`.
fn describe(a: &Analysis, name: &str, at: u32) -> Option<(String, Vec<String>, Option<String>)> {
    let ix = &a.doc.index;
    let target = match ix.lookup(name, ix.scope_at(at)) {
        Some(d) => Target::Local(d),
        None => resolve::global(a, name)?,
    };
    let from_def = |s: &crate::analysis::Source, d: usize| {
        let def = &s.index.defs[d];
        (def.kind == DefKind::Function).then(|| {
            let label = format!("{}({})", def.name, def.params.join(", "));
            let comment = resolve::comment_above(s, def.full.lo);
            (
                label,
                def.params.clone(),
                (!comment.is_empty()).then_some(comment),
            )
        })
    };
    match target {
        Target::Local(d) => from_def(&a.doc, d),
        Target::Module(m, d) => from_def(&a.modules[m].source, d),
        Target::Builtin(n) => {
            let doc = crate::docs::doc_for(n)?;
            Some((doc.signature, doc.params, Some(doc.summary)))
        }
        Target::Import(_) | Target::Field(_) => None,
    }
}
