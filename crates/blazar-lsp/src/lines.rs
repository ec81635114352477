//! Positions: LSP's (0-based line, UTF-16 column) against the byte offsets of spans.

use lsp_types::{Position, Range};

/// The start of every line of a text.
#[derive(Clone, Debug)]
pub struct Lines {
    starts: Vec<usize>,
}

impl Lines {
    pub fn new(text: &str) -> Lines {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Lines { starts }
    }

    /// The byte offset of `pos`, clamped to its line and to the text.
    pub fn offset(&self, text: &str, pos: Position) -> usize {
        let Some(&start) = self.starts.get(pos.line as usize) else {
            return text.len();
        };
        let end = self
            .starts
            .get(pos.line as usize + 1)
            .map_or(text.len(), |e| e - 1);
        let mut units = 0u32;
        for (i, c) in text[start..end].char_indices() {
            if units >= pos.character {
                return start + i;
            }
            units += c.len_utf16() as u32;
        }
        end
    }

    /// The position of byte `offset`.
    pub fn position(&self, text: &str, offset: usize) -> Position {
        let offset = offset.min(text.len());
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let start = self.starts[line];
        let col: usize = text
            .get(start..offset)
            .map_or(offset - start, |s| s.chars().map(char::len_utf16).sum());
        Position::new(line as u32, col as u32)
    }

    pub fn range(&self, text: &str, lo: usize, hi: usize) -> Range {
        Range::new(self.position(text, lo), self.position(text, hi))
    }
}

/// The file path of a `file:` URI (percent escapes decoded).
pub fn uri_to_path(uri: &lsp_types::Uri) -> Option<std::path::PathBuf> {
    let s = uri.as_str();
    let rest = s.strip_prefix("file://")?;
    // `file:///home/x` (empty authority) or `file://localhost/home/x`.
    let path = rest.strip_prefix("localhost").unwrap_or(rest);
    let bytes = path.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    let mut path = String::from_utf8(out).ok()?;
    // `file:///C:/x` on Windows.
    if cfg!(windows) && path.len() > 2 && path.as_bytes()[2] == b':' {
        path.remove(0);
    }
    Some(path.into())
}

/// The `file:` URI of an absolute path.
pub fn path_to_uri(path: &std::path::Path) -> Option<lsp_types::Uri> {
    let mut s = String::from("file://");
    let text = path.to_string_lossy().replace('\\', "/");
    if !text.starts_with('/') {
        s.push('/');
    }
    for b in text.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'/' | b'-' | b'_' | b'.' | b'~' | b':' => {
                s.push(b as char)
            }
            _ => s.push_str(&format!("%{b:02X}")),
        }
    }
    s.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_and_positions_round_trip_in_utf16() {
        let text = "x = 1\ns = \"é😀\" % c\n";
        let lines = Lines::new(text);
        let at = text.find('%').unwrap();
        let pos = lines.position(text, at);
        // `é` is one UTF-16 unit, the emoji two.
        assert_eq!(pos, Position::new(1, 10));
        assert_eq!(lines.offset(text, pos), at);
        assert_eq!(lines.offset(text, Position::new(0, 99)), 5);
        assert_eq!(lines.offset(text, Position::new(9, 0)), text.len());
    }

    #[test]
    fn file_uris_decode_and_encode() {
        let uri: lsp_types::Uri = "file:///tmp/my%20dir/a.q".parse().unwrap();
        let path = uri_to_path(&uri).unwrap();
        assert_eq!(path, std::path::PathBuf::from("/tmp/my dir/a.q"));
        assert_eq!(
            path_to_uri(&path).unwrap().as_str(),
            "file:///tmp/my%20dir/a.q"
        );
    }
}
