//! Reading program text: UTF-8 as is; other bytes (Windows-1252 comments are common in
//! published Quasar code) decoded as Windows-1252, with the offset of the first byte that
//! was not UTF-8 so the loader can warn there.

/// Windows-1252 characters of bytes 0x80..=0x9F (the rest is Latin-1); undefined bytes
/// become U+FFFD.
const CP1252_HIGH: [char; 32] = [
    '€', '\u{FFFD}', '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', '\u{FFFD}', 'Ž',
    '\u{FFFD}', '\u{FFFD}', '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', '\u{FFFD}',
    'ž', 'Ÿ',
];

/// The text of `bytes`, and where (a byte offset into the returned text) the first
/// byte that was not UTF-8 is, if any. Valid UTF-8 sequences stay as they are; each other
/// byte is read as Windows-1252.
pub fn decode(bytes: Vec<u8>) -> (String, Option<usize>) {
    let bytes = match String::from_utf8(bytes) {
        Ok(s) => return (s, None),
        Err(e) => e.into_bytes(),
    };
    let mut text = String::with_capacity(bytes.len() + 16);
    let mut first = None;
    for chunk in bytes.utf8_chunks() {
        text.push_str(chunk.valid());
        for &b in chunk.invalid() {
            first.get_or_insert(text.len());
            text.push(match b {
                0x80..=0x9F => CP1252_HIGH[(b - 0x80) as usize],
                _ => b as char,
            });
        }
    }
    (text, first)
}

#[cfg(test)]
mod tests {
    #[test]
    fn windows_1252_bytes_are_decoded() {
        let (t, at) = super::decode(b"% caf\xe9 \x80\nx = 1".to_vec());
        assert_eq!(t, "% café €\nx = 1");
        assert_eq!(at, Some(5));
        let (t, at) = super::decode("é".as_bytes().to_vec());
        assert_eq!((t.as_str(), at), ("é", None));
    }
}
