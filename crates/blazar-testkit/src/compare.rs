//! Comparison of a program's stdout with the expected text: exact, or token by token
//! with numbers equal within a relative tolerance (`% tolerance { ... }`).
//!
//! Both texts are split into lines, each trimmed, with leading and trailing blank lines
//! dropped. Without a tolerance the lines must be equal. With a tolerance `t`, each line
//! is cut into numbers (`-12`, `3.5`, `.5`, `1e-05`, with their sign) and the text
//! between them; the text must be equal and each pair of numbers `a` (expected) and `b`
//! (actual) must satisfy `|a - b| <= t * max(|a|, |b|, 1)`: relative for magnitudes
//! above 1, an absolute floor of `t` near 0. `Inf` and `NaN` are text.

use std::fmt;

/// Lines trimmed, without leading and trailing blank lines.
pub fn normalise(text: &str) -> Vec<&str> {
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let start = lines
        .iter()
        .position(|l| !l.is_empty())
        .unwrap_or(lines.len());
    let end = lines
        .iter()
        .rposition(|l| !l.is_empty())
        .map_or(start, |e| e + 1);
    lines[start..end].to_vec()
}

/// The first place where the actual output departs from the expected one.
#[derive(Clone, Debug, PartialEq)]
pub struct Difference {
    /// 1-based line number in the normalised output.
    pub line: usize,
    /// The expected line, `None` when the actual output is longer.
    pub expected: Option<String>,
    /// The actual line, `None` when the actual output is shorter.
    pub actual: Option<String>,
    /// Byte offset in both lines where they start to differ.
    pub column: usize,
    /// The two numbers that differ beyond the tolerance, if that is the difference.
    pub numbers: Option<(f64, f64)>,
}

/// How much of a long line the one-line summary shows around the difference.
const WINDOW: usize = 60;

fn excerpt(line: &str, column: usize) -> String {
    if line.chars().count() <= WINDOW {
        return format!("`{line}`");
    }
    let mut start = column.saturating_sub(WINDOW / 3).min(line.len());
    while !line.is_char_boundary(start) {
        start -= 1;
    }
    let body: String = line[start..].chars().take(WINDOW).collect();
    let pre = if start > 0 { "..." } else { "" };
    let post = if line[start..].chars().count() > WINDOW {
        "..."
    } else {
        ""
    };
    format!("`{pre}{body}{post}`")
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "stdout line {}: ", self.line)?;
        match (&self.expected, &self.actual) {
            (Some(e), Some(a)) => write!(
                f,
                "expected {}, got {}",
                excerpt(e, self.column),
                excerpt(a, self.column)
            )?,
            (Some(e), None) => write!(f, "expected {}, got no more lines", excerpt(e, 0))?,
            (None, Some(a)) => write!(f, "expected no more lines, got {}", excerpt(a, 0))?,
            (None, None) => write!(f, "differs")?,
        }
        if let Some((e, a)) = self.numbers {
            write!(f, " ({e} vs {a} is beyond the tolerance)")?;
        }
        Ok(())
    }
}

/// The first difference between `expected` and `actual` (both whole outputs), or `None`
/// when they agree: exactly, or within `tolerance` for numbers.
pub fn first_difference(
    expected: &str,
    actual: &str,
    tolerance: Option<f64>,
) -> Option<Difference> {
    let (want, got) = (normalise(expected), normalise(actual));
    for i in 0..want.len().max(got.len()) {
        let (w, g) = (want.get(i).copied(), got.get(i).copied());
        let found = match (w, g) {
            (Some(w), Some(g)) => match tolerance {
                None => (w != g).then(|| (common_prefix(w, g), None)),
                Some(t) => line_difference(w, g, t),
            },
            _ => Some((0, None)),
        };
        if let Some((column, numbers)) = found {
            return Some(Difference {
                line: i + 1,
                expected: w.map(String::from),
                actual: g.map(String::from),
                column,
                numbers,
            });
        }
    }
    None
}

fn common_prefix(a: &str, b: &str) -> usize {
    a.char_indices()
        .zip(b.chars())
        .find(|((_, x), y)| x != y)
        .map_or(a.len().min(b.len()), |((i, _), _)| i)
}

/// One piece of a line: a number (with its value) or the text between numbers.
#[derive(Clone, Debug, PartialEq)]
enum Token<'a> {
    Num(&'a str, f64),
    Text(&'a str),
}

/// Cuts a line into numbers and text; each token comes with its byte offset.
fn tokens(line: &str) -> Vec<(usize, Token<'_>)> {
    let b = line.as_bytes();
    let mut out = Vec::new();
    let (mut i, mut text_start) = (0, 0);
    while i < b.len() {
        match number_at(b, i) {
            Some(end) => {
                if text_start < i {
                    out.push((text_start, Token::Text(&line[text_start..i])));
                }
                let s = &line[i..end];
                out.push((i, Token::Num(s, s.parse().unwrap_or(f64::NAN))));
                i = end;
                text_start = end;
            }
            None => i += 1,
        }
    }
    if text_start < b.len() {
        out.push((text_start, Token::Text(&line[text_start..])));
    }
    out
}

/// The end of the number that starts at `i`, if one does.
fn number_at(b: &[u8], i: usize) -> Option<usize> {
    let digits = |mut j: usize| {
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
        j
    };
    let mut j = i;
    if matches!(b[j], b'-' | b'+') {
        j += 1;
    }
    let int_end = digits(j);
    let mut end = int_end;
    if end < b.len() && b[end] == b'.' {
        let frac_end = digits(end + 1);
        if frac_end > end + 1 || int_end > j {
            end = frac_end;
        }
    }
    if end == j {
        return None;
    }
    if end < b.len() && matches!(b[end], b'e' | b'E') {
        let mut k = end + 1;
        if k < b.len() && matches!(b[k], b'-' | b'+') {
            k += 1;
        }
        let exp_end = digits(k);
        if exp_end > k {
            end = exp_end;
        }
    }
    Some(end)
}

/// Whether `a` (expected) and `b` (actual) agree within the relative tolerance `t`.
pub fn close(a: f64, b: f64, t: f64) -> bool {
    a == b || (a - b).abs() <= t * a.abs().max(b.abs()).max(1.0)
}

/// Where two lines first differ under tolerance `t`: the byte offset, and the numbers
/// when two numbers are too far apart.
fn line_difference(want: &str, got: &str, t: f64) -> Option<(usize, Option<(f64, f64)>)> {
    let (w, g) = (tokens(want), tokens(got));
    for k in 0..w.len().max(g.len()) {
        match (w.get(k), g.get(k)) {
            (Some((_, Token::Num(_, x))), Some((_, Token::Num(_, y)))) if close(*x, *y, t) => {}
            (Some((_, Token::Text(x))), Some((_, Token::Text(y)))) if x == y => {}
            (Some((at, Token::Num(_, x))), Some((_, Token::Num(_, y)))) => {
                return Some((*at, Some((*x, *y))))
            }
            (Some((at, _)), _) => return Some((*at, None)),
            (None, Some((at, _))) => return Some((*at, None)),
            (None, None) => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nums(line: &str) -> Vec<f64> {
        tokens(line)
            .into_iter()
            .filter_map(|(_, t)| match t {
                Token::Num(_, v) => Some(v),
                Token::Text(_) => None,
            })
            .collect()
    }

    #[test]
    fn cuts_lines_into_numbers_and_text() {
        assert_eq!(
            nums("[ [1.5,-2], [.25,3e-05] ]"),
            vec![1.5, -2.0, 0.25, 3e-5]
        );
        assert_eq!(nums("1-2i"), vec![1.0, -2.0]);
        assert_eq!(nums("x = 4. done."), vec![4.0]);
        assert_eq!(nums("Inf NaN - . -."), Vec::<f64>::new());
        assert_eq!(nums("vec3"), vec![3.0]);
        assert_eq!(nums("2e"), vec![2.0]);
        let t = tokens("ab 12 cd");
        assert_eq!(t[0], (0, Token::Text("ab ")));
        assert_eq!(t[1], (3, Token::Num("12", 12.0)));
        assert_eq!(t[2], (5, Token::Text(" cd")));
    }

    #[test]
    fn exact_comparison_trims_lines_and_blank_ends() {
        assert_eq!(first_difference("\n  a b \n c\n\n", "a b\nc", None), None);
        let d = first_difference("a\nb 1.5", "a\nb 1.50001", None).unwrap();
        assert_eq!((d.line, d.column), (2, 5));
        assert_eq!(
            d.to_string(),
            "stdout line 2: expected `b 1.5`, got `b 1.50001`"
        );
    }

    #[test]
    fn tolerance_accepts_close_numbers_only() {
        let want = "sum = 1000.0, [0.5,-2]\nmean 0";
        assert_eq!(
            first_difference(want, "sum = 1000.05, [0.50001,-2]\nmean -3e-07", Some(1e-4)),
            None
        );
        let d = first_difference(want, "sum = 1000.2, [0.5,-2]\nmean 0", Some(1e-4)).unwrap();
        assert_eq!(d.numbers, Some((1000.0, 1000.2)));
        assert_eq!(
            d.to_string(),
            "stdout line 1: expected `sum = 1000.0, [0.5,-2]`, got `sum = 1000.2, [0.5,-2]` \
             (1000 vs 1000.2 is beyond the tolerance)"
        );
        // Near zero the floor is absolute: 2e-4 away from 0 is too far for 1e-4.
        assert!(first_difference("0", "0.0002", Some(1e-4)).is_some());
        // Signs count: a flipped sign on a large number is a difference.
        assert!(first_difference("1-2i", "1+2i", Some(1e-4)).is_some());
    }

    #[test]
    fn tolerance_keeps_text_exact() {
        assert!(first_difference("x = 1", "y = 1", Some(0.5)).is_some());
        assert!(first_difference("[1,2]", "[1;2]", Some(0.5)).is_some());
        assert!(first_difference("1 2", "1 2 3", Some(0.5)).is_some());
        assert!(first_difference("Inf", "1e38", Some(0.5)).is_some());
        assert_eq!(first_difference("NaN", "NaN", Some(0.5)), None);
    }

    #[test]
    fn reports_missing_and_extra_lines() {
        let d = first_difference("a\nb", "a", None).unwrap();
        assert_eq!(
            d.to_string(),
            "stdout line 2: expected `b`, got no more lines"
        );
        let d = first_difference("a", "a\nc", Some(1e-3)).unwrap();
        assert_eq!(
            d.to_string(),
            "stdout line 2: expected no more lines, got `c`"
        );
    }

    #[test]
    fn long_lines_are_shown_around_the_difference() {
        let want = format!("{}1{}", "x".repeat(100), "y".repeat(100));
        let got = format!("{}2{}", "x".repeat(100), "y".repeat(100));
        let d = first_difference(&want, &got, None).unwrap();
        assert_eq!(d.column, 100);
        let shown = d.to_string();
        assert!(shown.contains(&format!("`...{}1{}...`", "x".repeat(20), "y".repeat(39))));
        assert!(shown.len() < 200, "{shown}");
    }

    #[test]
    fn close_is_symmetric_and_relative() {
        assert!(close(1e6, 1e6 + 50.0, 1e-4));
        assert!(!close(1e6, 1e6 + 200.0, 1e-4));
        assert!(close(-1e-9, 1e-9, 1e-6));
        assert!(!close(f64::NAN, f64::NAN, 1.0));
        assert!(close(f64::INFINITY, f64::INFINITY, 1e-4));
    }
}
