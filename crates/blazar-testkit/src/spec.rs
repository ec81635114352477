//! Parsing of the `% ==` test block of a golden program.

use std::fmt;

/// The expectations of one golden program.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Spec {
    pub stdout: Option<String>,
    pub error: Option<String>,
    pub options: Vec<String>,
    /// Backends to run on; empty means all.
    pub backends: Vec<String>,
    pub tags: Vec<String>,
    /// Relative tolerances for numbers in `stdout`: `(None, t)` for every backend,
    /// `(Some(b), t)` for backend `b` alone. Empty means exact comparison.
    pub tolerance: Vec<(Option<String>, f64)>,
    /// Programs the test needs on `PATH` (`requires { ffmpeg ffprobe }`): without one,
    /// the program is a SKIP on every backend.
    pub requires: Vec<String>,
}

impl Spec {
    /// The tolerance that applies on `backend`: its own entry, else the general one.
    pub fn tolerance_for(&self, backend: &str) -> Option<f64> {
        let own = self
            .tolerance
            .iter()
            .find(|(b, _)| b.as_deref() == Some(backend));
        own.or_else(|| self.tolerance.iter().find(|(b, _)| b.is_none()))
            .map(|&(_, t)| t)
    }

    /// Why this program cannot run here: a program of its `requires { }` is not on
    /// `PATH`.
    pub fn missing(&self) -> Option<String> {
        let path = std::env::var_os("PATH").unwrap_or_default();
        let found = |p: &str| std::env::split_paths(&path).any(|d| d.join(p).is_file());
        self.requires
            .iter()
            .find(|p| !found(p))
            .map(|p| format!("needs `{p}`, which is not installed"))
    }

    /// Why this program does not run on `backend` (its `backends { }` leaves it out).
    pub fn excludes(&self, backend: &str) -> Option<String> {
        if self.backends.is_empty() || self.backends.iter().any(|b| b == backend) {
            None
        } else {
            Some(format!(
                "`backends {{ {} }}` excludes {backend}",
                self.backends.join(" ")
            ))
        }
    }
}

#[derive(Debug)]
pub struct SpecError(pub String);

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// The comment lines after `% ==`, with the `%` and one space removed.
fn block_lines(text: &str) -> Option<Vec<String>> {
    let mut lines = text.lines();
    lines.by_ref().find(|l| l.trim() == "% ==")?;
    Some(
        lines
            .take_while(|l| l.trim_start().starts_with('%'))
            .map(|l| {
                let l = l.trim_start().strip_prefix('%').unwrap_or("");
                l.strip_prefix(' ').unwrap_or(l).to_string()
            })
            .collect(),
    )
}

/// Takes a `{ ... }` group from the start of `s`, returning its inside and the rest.
fn braced(s: &str) -> Option<(String, &str)> {
    let s = s.trim_start();
    let rest = s.strip_prefix('{')?;
    let mut depth = 1;
    for (i, c) in rest.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return Some((rest[..i].to_string(), &rest[i + 1..]));
                }
            }
            _ => {}
        }
    }
    None
}

pub fn parse_spec(text: &str) -> Result<Spec, SpecError> {
    let lines = block_lines(text).ok_or_else(|| SpecError("no `% ==` test block".into()))?;
    let body = lines.join("\n");
    let mut spec = Spec::default();
    let mut rest = body.as_str();
    loop {
        rest = rest.trim_start();
        if rest.is_empty() {
            break;
        }
        let word_end = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        let (word, after) = rest.split_at(word_end);
        if word == "error" {
            let after = after
                .strip_prefix(':')
                .ok_or_else(|| SpecError("expected `error: REGEX`".into()))?;
            let (line, more) = after.split_once('\n').unwrap_or((after, ""));
            spec.error = Some(line.trim().to_string());
            rest = more;
            continue;
        }
        let (inside, more) =
            braced(after).ok_or_else(|| SpecError(format!("expected `{word} {{ ... }}`")))?;
        match word {
            "stdout" => spec.stdout = Some(inside),
            "options" => spec.options = inside.split_whitespace().map(String::from).collect(),
            "backends" => spec.backends = inside.split_whitespace().map(String::from).collect(),
            "tags" => spec.tags = inside.split_whitespace().map(String::from).collect(),
            "tolerance" => spec.tolerance = parse_tolerance(&inside)?,
            "requires" => spec.requires = inside.split_whitespace().map(String::from).collect(),
            other => return Err(SpecError(format!("unknown test case `{other}`"))),
        }
        rest = more;
    }
    if spec.stdout.is_none() && spec.error.is_none() {
        return Err(SpecError(
            "the test block has neither `stdout { }` nor `error:`".into(),
        ));
    }
    Ok(spec)
}

/// The inside of `tolerance { ... }`: `T` (every backend) and `BACKEND T` pairs, where
/// `T` is a positive relative tolerance such as `1e-4`.
fn parse_tolerance(inside: &str) -> Result<Vec<(Option<String>, f64)>, SpecError> {
    let bad = |what: &str| {
        SpecError(format!(
            "bad `tolerance {{{inside}}}`: {what} (write `tolerance {{ 1e-4 }}` or `tolerance {{ cuda 1e-4 }}`)"
        ))
    };
    let mut out: Vec<(Option<String>, f64)> = Vec::new();
    let mut words = inside.split_whitespace();
    while let Some(w) = words.next() {
        let (backend, value) = if w.parse::<f64>().is_ok() {
            (None, w)
        } else if crate::ALL_BACKENDS.contains(&w) {
            let v = words
                .next()
                .ok_or_else(|| bad(&format!("no value after `{w}`")))?;
            (Some(w.to_string()), v)
        } else {
            return Err(bad(&format!("`{w}` is neither a number nor a backend")));
        };
        let t: f64 = value
            .parse()
            .map_err(|_| bad(&format!("`{value}` is not a number")))?;
        if !(t.is_finite() && t > 0.0) {
            return Err(bad(&format!("`{value}` is not a positive number")));
        }
        if out.iter().any(|(b, _)| *b == backend) {
            return Err(bad("a backend is given twice"));
        }
        out.push((backend, t));
    }
    if out.is_empty() {
        return Err(bad("no value"));
    }
    Ok(out)
}

/// Replaces (or adds) the `stdout { }` case of the test block in `text`.
pub fn replace_stdout(text: &str, actual: &str) -> String {
    let mut out = String::new();
    let mut lines = text.lines().peekable();
    let mut in_block = false;
    let mut skipping = false;
    let mut depth = 0i32;
    let mut wrote = false;
    let new_case = || {
        let body: Vec<&str> = actual.trim_end().lines().collect();
        let mut s = String::from("% stdout {");
        if body.len() == 1 {
            s.push_str(&format!(" {} }}\n", body[0]));
        } else {
            s.push('\n');
            for l in body {
                s.push_str(&format!("% {l}\n"));
            }
            s.push_str("% }\n");
        }
        s
    };
    while let Some(l) = lines.next() {
        if l.trim() == "% ==" {
            in_block = true;
            out.push_str(l);
            out.push('\n');
            continue;
        }
        if in_block && !skipping && l.trim_start().starts_with("% stdout") {
            skipping = true;
            depth = 0;
        }
        if skipping {
            for c in l.chars() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    _ => {}
                }
            }
            if depth <= 0 {
                skipping = false;
                out.push_str(&new_case());
                wrote = true;
            }
            continue;
        }
        if in_block && !wrote && !l.trim_start().starts_with('%') {
            out.push_str(&new_case());
            wrote = true;
            in_block = false;
        }
        out.push_str(l);
        out.push('\n');
        if lines.peek().is_none() && in_block && !wrote {
            out.push_str(&new_case());
            wrote = true;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_multiline_stdout_with_nested_braces() {
        let text = "print 1\n% about\n% ==\n% stdout { [ [2,4],\n%            [6,8] ] {x} }\n% options { --double }\n";
        let s = parse_spec(text).unwrap();
        assert_eq!(
            s.stdout.as_deref(),
            Some(" [ [2,4],\n           [6,8] ] {x} ")
        );
        assert_eq!(s.options, vec!["--double"]);
    }

    #[test]
    fn parses_error_regex() {
        let s = parse_spec("% ==\n% error: line 3.*undefined\n").unwrap();
        assert_eq!(s.error.as_deref(), Some("line 3.*undefined"));
    }

    #[test]
    fn rejects_unknown_cases() {
        assert!(parse_spec("% ==\n% stdin { 1 }\n").is_err());
    }

    #[test]
    fn parses_tolerances() {
        let s = parse_spec("% ==\n% stdout { 1 }\n% tolerance { 1e-6 cuda 1e-4 }\n").unwrap();
        assert_eq!(s.tolerance_for("cpu"), Some(1e-6));
        assert_eq!(s.tolerance_for("cuda"), Some(1e-4));
        let s = parse_spec("% ==\n% stdout { 1 }\n% tolerance { cuda 1e-3 }\n").unwrap();
        assert_eq!(s.tolerance_for("cpu"), None);
        assert_eq!(s.tolerance_for("cuda"), Some(1e-3));
        let s = parse_spec("% ==\n% stdout { 1 }\n").unwrap();
        assert_eq!(s.tolerance_for("cpu"), None);
    }

    #[test]
    fn rejects_bad_tolerances() {
        for t in [
            "",
            "x",
            "cuda",
            "-1",
            "0",
            "1e-4 1e-5",
            "cuda 1e-4 cuda 1e-3",
            "gpu 1",
        ] {
            let text = format!("% ==\n% stdout {{ 1 }}\n% tolerance {{ {t} }}\n");
            assert!(parse_spec(&text).is_err(), "accepted `{t}`");
        }
    }

    #[test]
    fn says_which_backends_are_excluded() {
        let s = parse_spec("% ==\n% stdout { 1 }\n% backends { cpu }\n").unwrap();
        assert_eq!(s.excludes("cpu"), None);
        assert_eq!(
            s.excludes("cuda").as_deref(),
            Some("`backends { cpu }` excludes cuda")
        );
    }

    #[test]
    fn bless_replaces_the_stdout_case() {
        let text = "print 1\n% ==\n% stdout {\n% 2\n% }\n% tags { a }\n";
        let new = replace_stdout(text, "1\n");
        assert_eq!(new, "print 1\n% ==\n% stdout { 1 }\n% tags { a }\n");
        assert_eq!(parse_spec(&new).unwrap().stdout.as_deref(), Some(" 1 "));
    }
}
