//! Diagnostics as JSON, one object per diagnostic (`blazar check --format json`), for
//! editors and scripts: severity, message, the start (`file`, `line`, `col`, 1-based,
//! columns in characters), the `end` of the span, the plain `notes` and the located
//! `related` notes. A span-less diagnostic has `null` for its location fields.

use crate::{Diagnostic, Severity, SourceMap, Span};

/// One diagnostic as a single-line JSON object.
pub fn to_json(d: &Diagnostic, map: &SourceMap) -> String {
    let severity = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "note",
    };
    let notes: Vec<String> = d.notes.iter().map(|n| string(n)).collect();
    let related: Vec<String> = d
        .related
        .iter()
        .map(|r| {
            format!(
                "{{\"message\":{},{}}}",
                string(&r.message),
                place(Some(r.span), map)
            )
        })
        .collect();
    format!(
        "{{\"severity\":\"{severity}\",\"message\":{},{},\"notes\":[{}],\"related\":[{}]}}",
        string(&d.message),
        place(d.span, map),
        notes.join(","),
        related.join(",")
    )
}

/// Every diagnostic, one JSON object per line (JSON Lines).
pub fn to_json_lines(ds: &[Diagnostic], map: &SourceMap) -> String {
    ds.iter().map(|d| to_json(d, map) + "\n").collect()
}

/// `"file":...,"line":...,"col":...,"end":{"line":...,"col":...}` of a span.
fn place(span: Option<Span>, map: &SourceMap) -> String {
    let Some(span) = span.filter(|s| (s.file.0 as usize) < map.files().len()) else {
        return "\"file\":null,\"line\":null,\"col\":null,\"end\":null".to_string();
    };
    let f = map.get(span.file);
    let (line, col) = f.line_col(span.lo as usize);
    let (end_line, end_col) = f.line_col(span.hi as usize);
    format!(
        "\"file\":{},\"line\":{line},\"col\":{col},\"end\":{{\"line\":{end_line},\"col\":{end_col}}}",
        string(&f.name)
    )
}

/// A JSON string literal.
fn string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_object_with_location_and_end() {
        let mut map = SourceMap::new();
        let f = map.add("a \"b\".q", "x = 1\ny = x + z\n");
        let d = Diagnostic::error(Span::new(f, 14, 15), "undefined `z`")
            .with_note("did you mean `x`?")
            .with_related(Span::new(f, 0, 1), "x is here");
        assert_eq!(
            to_json(&d, &map),
            "{\"severity\":\"error\",\"message\":\"undefined `z`\",\"file\":\"a \\\"b\\\".q\",\
             \"line\":2,\"col\":9,\"end\":{\"line\":2,\"col\":10},\
             \"notes\":[\"did you mean `x`?\"],\"related\":[{\"message\":\"x is here\",\
             \"file\":\"a \\\"b\\\".q\",\"line\":1,\"col\":1,\"end\":{\"line\":1,\"col\":2}}]}"
        );
    }

    #[test]
    fn no_span_gives_nulls() {
        let d = Diagnostic::global("no file\nat all");
        let text = to_json(&d, &SourceMap::new());
        assert!(text.contains("\"message\":\"no file\\nat all\""), "{text}");
        assert!(text.contains("\"file\":null,\"line\":null"), "{text}");
        assert_eq!(
            to_json_lines(&[d.clone(), d], &SourceMap::new())
                .lines()
                .count(),
            2
        );
    }
}
