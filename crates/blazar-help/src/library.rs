//! Documentation comments of the bundled `.q` modules.
//!
//! A public function of a module documents itself with the `%` comment block directly
//! above its `function` line (no blank line between):
//!
//! ```text
//! % imresize(x, [M, N]) · imresize(x, [M, N], method)
//! %
//! % One paragraph: what it computes, for which arguments, what it gives.
//! %
//! % Example:
//! %     print size(imresize(ones(4, 4), [2, 2]))
//! % Output:
//! %     [2,2]
//! function y = imresize(x, sz, method : string)
//! ```
//!
//! The first line is the signature, and must name the function; the example is run by
//! the test suite (after `import "module.q"`) and must print exactly the output. A
//! helper that is not meant to be called by programs says so with `% internal` as the
//! last line of the comment block above it. Kernels and device functions are never public. An overloaded
//! function is documented once, above any of its definitions.

use crate::{Entry, Source};

/// The documented functions of one module, and what is wrong with its doc blocks.
pub fn parse_module(file: &'static str, text: &str) -> (Vec<Entry>, Vec<String>) {
    let mut entries: Vec<Entry> = Vec::new();
    let mut problems = Vec::new();
    let mut undocumented: Vec<(String, usize)> = Vec::new();
    let mut block: Vec<&str> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if let Some(c) = t.strip_prefix('%') {
            if !t.starts_with("%{") && !t.starts_with("%}") {
                block.push(c.strip_prefix(' ').unwrap_or(c));
                continue;
            }
        }
        if let Some(name) = blazar_interp::stdlib::function_name(t) {
            let here = format!("{file}:{}", i + 1);
            if block.last().is_some_and(|l| l.trim() == "internal") {
                // A helper.
            } else if block.first().is_some_and(|l| names(l, &name)) {
                match parse_block(&block) {
                    Ok((sig, text, example, output)) => {
                        if entries.iter().any(|e| e.name == name) {
                            problems.push(format!("{here}: `{name}` is documented twice"));
                        }
                        entries.push(Entry {
                            name: name.clone(),
                            module: file.to_string(),
                            source: Source::Library(file),
                            sig,
                            text,
                            example,
                            output,
                        });
                    }
                    Err(e) => problems.push(format!("{here}: the doc block of `{name}` {e}")),
                }
            } else {
                undocumented.push((name, i + 1));
            }
        }
        block.clear();
    }
    for (name, line) in undocumented {
        if !entries.iter().any(|e| e.name == name) {
            problems.push(format!(
                "{file}:{line}: function `{name}` has no doc block (or `% internal` above it)"
            ));
        }
    }
    (entries, problems)
}

/// Whether a signature line calls `name` (`imfilter(x, h)`, `y = imfilter(...)`).
fn names(line: &str, name: &str) -> bool {
    line.match_indices(name).any(|(i, _)| {
        let before = line[..i].chars().next_back();
        let after = line[i + name.len()..].chars().next();
        !before.is_some_and(|c| c.is_alphanumeric() || c == '_') && after == Some('(')
    })
}

type Parts = (String, String, String, String);

/// Signature, paragraph, example and output of a doc block (without its `%`).
fn parse_block(lines: &[&str]) -> Result<Parts, String> {
    let mut sig = Vec::new();
    let mut text = Vec::new();
    let mut example = Vec::new();
    let mut output = Vec::new();
    let mut part = 0;
    for l in lines {
        let t = l.trim();
        match (part, t) {
            (0, "") => part = 1,
            (0, _) => sig.push(t),
            (1, "Example:") => part = 2,
            (1, _) => text.push(t),
            (2, "Output:") => part = 3,
            (2, _) => example.push(dedent(l)?),
            (3, _) => output.push(dedent(l)?),
            _ => {}
        }
    }
    let text = text.join(" ").trim().to_string();
    if text.is_empty() {
        return Err("has no description paragraph".into());
    }
    if example.is_empty() || part < 3 {
        return Err("needs `Example:` and `Output:` sections".into());
    }
    let trim = |v: Vec<&str>| v.join("\n").trim_matches('\n').to_string();
    Ok((sig.join(" "), text, trim(example), trim(output)))
}

/// An example line without its four spaces of indentation.
fn dedent(l: &str) -> Result<&str, String> {
    if l.trim().is_empty() {
        return Ok("");
    }
    l.strip_prefix("    ")
        .ok_or_else(|| format!("has an example line not indented by four spaces: `{l}`"))
}
