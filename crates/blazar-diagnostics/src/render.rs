//! Rendering of diagnostics to text with codespan-reporting.
//!
//! The first line is always `file:line:col: severity: message` (the "short" style),
//! followed by the source line with a caret under the span and any notes; each located
//! note ([`crate::Related`]: a frame of the call stack, a kernel's launch) follows as
//! one more `file:line:col: note: message` line.

use crate::{Diagnostic, FileId, Severity, SourceMap};
use codespan_reporting::diagnostic as cs;
use codespan_reporting::files::{Error, Files};
use codespan_reporting::term::{self, Chars, Config, DisplayStyle};
use std::ops::Range;

impl<'a> Files<'a> for SourceMap {
    type FileId = FileId;
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, id: FileId) -> Result<&'a str, Error> {
        self.files()
            .get(id.0 as usize)
            .map(|f| f.name.as_str())
            .ok_or(Error::FileMissing)
    }

    fn source(&'a self, id: FileId) -> Result<&'a str, Error> {
        self.files()
            .get(id.0 as usize)
            .map(|f| f.text.as_str())
            .ok_or(Error::FileMissing)
    }

    fn line_index(&'a self, id: FileId, byte_index: usize) -> Result<usize, Error> {
        Ok(self
            .files()
            .get(id.0 as usize)
            .ok_or(Error::FileMissing)?
            .line_index(byte_index))
    }

    fn line_range(&'a self, id: FileId, line_index: usize) -> Result<Range<usize>, Error> {
        let file = self.files().get(id.0 as usize).ok_or(Error::FileMissing)?;
        // codespan wants the range to include the line terminator when there is one.
        let r = file.line_range(line_index);
        let end = if r.end < file.text.len() {
            r.end + 1
        } else {
            r.end
        };
        Ok(r.start..end)
    }
}

fn to_codespan(d: &Diagnostic, map: &SourceMap) -> cs::Diagnostic<FileId> {
    let severity = match d.severity {
        Severity::Error => cs::Severity::Error,
        Severity::Warning => cs::Severity::Warning,
        Severity::Note => cs::Severity::Note,
    };
    let mut out = cs::Diagnostic::new(severity).with_message(d.message.clone());
    if let Some(span) = d.span {
        if (span.file.0 as usize) < map.files().len() {
            let len = map.get(span.file).text.len();
            let lo = (span.lo as usize).min(len);
            let hi = (span.hi as usize).clamp(lo, len);
            out = out.with_labels(vec![cs::Label::primary(span.file, lo..hi)]);
        }
    }
    out.with_notes(d.notes.clone())
}

/// Renders one diagnostic as plain text (no colours), ending with a newline.
pub fn render(d: &Diagnostic, map: &SourceMap) -> String {
    let diag = to_codespan(d, map);
    let mut config = Config {
        chars: Chars::ascii(),
        ..Config::default()
    };
    let mut text = Vec::new();
    if diag.labels.is_empty() {
        config.display_style = DisplayStyle::Rich;
        let _ = term::emit(&mut text, &config, map, &diag);
        return String::from_utf8_lossy(&text).into_owned();
    }
    config.display_style = DisplayStyle::Short;
    let short = cs::Diagnostic {
        notes: vec![],
        ..diag.clone()
    };
    let _ = term::emit(&mut text, &config, map, &short);
    config.display_style = DisplayStyle::Rich;
    let mut rich = Vec::new();
    let _ = term::emit(&mut rich, &config, map, &diag);
    let rich = String::from_utf8_lossy(&rich);
    // The rich style repeats the message on its first line; the short line already has it.
    let body = rich.split_once('\n').map_or("", |(_, rest)| rest);
    let mut out = String::from_utf8_lossy(&text).into_owned();
    out.push_str(body);
    for r in &d.related {
        out.push_str(&format!("{}: note: {}\n", location(r.span, map), r.message));
    }
    out
}

/// `file:line:col` of a span's start (`?` for a span outside the map).
pub(crate) fn location(span: crate::Span, map: &SourceMap) -> String {
    match map.files().get(span.file.0 as usize) {
        Some(f) => {
            let (line, col) = f.line_col(span.lo as usize);
            format!("{}:{line}:{col}", f.name)
        }
        None => "?".to_string(),
    }
}

/// Renders every diagnostic, errors and warnings in the order given.
pub fn render_all(ds: &[Diagnostic], map: &SourceMap) -> String {
    ds.iter().map(|d| render(d, map)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Span;

    #[test]
    fn first_line_is_file_line_col() {
        let mut map = SourceMap::new();
        let f = map.add("prog.q", "x = 1\ny = x + z\n");
        let d = Diagnostic::error(Span::new(f, 14, 15), "undefined variable `z`");
        let text = render(&d, &map);
        let first = text.lines().next().unwrap();
        assert_eq!(first, "prog.q:2:9: error: undefined variable `z`");
        assert!(text.contains("y = x + z"), "{text}");
        assert!(text.contains('^'), "{text}");
    }

    #[test]
    fn related_notes_follow_as_located_lines() {
        let mut map = SourceMap::new();
        let f = map.add("p.q", "function y = f(x)\n  y = x[5]\nend\nz = f(1)\n");
        let d = Diagnostic::error(Span::new(f, 24, 28), "out of bounds")
            .with_related(Span::new(f, 37, 41), "`f` was called here: f(1)");
        let text = render(&d, &map);
        assert!(
            text.starts_with("p.q:2:7: error: out of bounds\n"),
            "{text}"
        );
        assert!(
            text.ends_with("p.q:4:5: note: `f` was called here: f(1)\n"),
            "{text}"
        );
    }

    #[test]
    fn spans_past_the_end_do_not_panic() {
        let mut map = SourceMap::new();
        let f = map.add("p.q", "abc");
        let d = Diagnostic::error(Span::new(f, 10, 20), "eof");
        assert!(render(&d, &map).starts_with("p.q:1:4: error: eof"));
    }
}
