//! Tab completion: names (workspace variables, functions, builtins, bundled library
//! functions, keywords), fields of workspace objects after `name.`, and file paths
//! inside a string.

use crate::Session;
use std::collections::BTreeMap;

/// What completion can offer, taken from a session after each input.
#[derive(Clone, Debug, Default)]
pub struct Completions {
    names: Vec<String>,
    /// Field names of each workspace object.
    fields: BTreeMap<String, Vec<String>>,
}

const KEYWORDS: &[&str] = &[
    "function", "end", "for", "while", "repeat", "until", "if", "elseif", "else", "match",
    "return", "break", "continue", "import", "print", "type", "class", "mutable",
];

impl Session {
    /// The names and fields completion offers now.
    pub fn completions(&self) -> Completions {
        let mut names: Vec<String> = self.workspace.keys().cloned().collect();
        names.extend(crate::defined_names(&self.defs));
        names.extend(blazar_help::all().iter().map(|e| e.name.clone()));
        names.extend(KEYWORDS.iter().map(|k| k.to_string()));
        names.sort();
        names.dedup();
        let mut fields = BTreeMap::new();
        for (name, v) in &self.workspace {
            if let blazar_runtime::Value::Object(o) = v {
                if let Ok(o) = o.try_borrow() {
                    let f = o.fields.iter().map(|(n, _)| n.to_string()).collect();
                    fields.insert(name.clone(), f);
                }
            }
        }
        Completions { names, fields }
    }
}

impl Completions {
    /// The completions of the word that ends at byte `pos` of `line`: where the word
    /// starts, and the candidates replacing it.
    pub fn complete(&self, line: &str, pos: usize) -> (usize, Vec<String>) {
        let before = &line[..pos.min(line.len())];
        if before.matches('"').count() % 2 == 1 {
            let start = before.rfind('"').map_or(0, |i| i + 1);
            return (start, paths(&before[start..]));
        }
        let start = before
            .rfind(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
            .map_or(0, |i| i + 1);
        let word = &before[start..];
        if let Some((base, prefix)) = word.rsplit_once('.') {
            let Some(fields) = self.fields.get(base) else {
                return (start, vec![]);
            };
            let found = fields
                .iter()
                .filter(|f| f.starts_with(prefix))
                .map(|f| format!("{base}.{f}"))
                .collect();
            return (start, found);
        }
        if word.is_empty() {
            return (start, vec![]);
        }
        let found = self
            .names
            .iter()
            .filter(|n| n.starts_with(word))
            .cloned()
            .collect();
        (start, found)
    }
}

/// Files and folders whose path starts with `partial` (folders end with `/`).
fn paths(partial: &str) -> Vec<String> {
    let (dir, prefix) = match partial.rfind('/') {
        Some(i) => (&partial[..=i], &partial[i + 1..]),
        None => ("", partial),
    };
    let read = if dir.is_empty() { "." } else { dir };
    let mut out: Vec<String> = std::fs::read_dir(read)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().to_string();
            if !name.starts_with(prefix) || (prefix.is_empty() && name.starts_with('.')) {
                return None;
            }
            let slash = if e.path().is_dir() { "/" } else { "" };
            Some(format!("{dir}{name}{slash}"))
        })
        .collect();
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_fields_and_paths() {
        let mut c = Completions::default();
        c.names = vec!["image_width".into(), "imfilter".into(), "sum".into()];
        c.fields
            .insert("o".into(), vec!["width".into(), "height".into()]);
        assert_eq!(
            c.complete("x = im", 6),
            (4, vec!["image_width".into(), "imfilter".into()])
        );
        assert_eq!(c.complete("print o.w", 9), (6, vec!["o.width".into()]));
        assert_eq!(c.complete("y = su", 6).1, vec!["sum".to_string()]);
        let dir = env!("CARGO_MANIFEST_DIR");
        let (start, found) = c.complete(&format!("x = imread(\"{dir}/Carg"), 17 + dir.len());
        assert_eq!(start, 12);
        assert_eq!(found, vec![format!("{dir}/Cargo.toml")]);
    }
}
