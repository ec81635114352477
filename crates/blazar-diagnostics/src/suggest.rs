//! "Did you mean ...?": the names close to a misspelt one, by edit distance.

/// The Damerau-Levenshtein distance (insertions, deletions, substitutions and swaps of
/// two adjacent characters) between `a` and `b`, ignoring case.
pub fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.to_lowercase().chars().collect();
    let b: Vec<char> = b.to_lowercase().chars().collect();
    let (n, m) = (a.len(), b.len());
    let mut d = vec![vec![0usize; m + 1]; n + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=n {
        for j in 1..=m {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = v;
        }
    }
    d[n][m]
}

/// The candidates closest to `name` (all those at the smallest distance), if that
/// distance is small for the name's length: 1 edit for names of up to 4 characters, 2
/// up to 8, 3 beyond. A candidate equal to `name` is not a suggestion.
pub fn closest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Vec<&'a str> {
    let len = name.chars().count();
    let limit = match len {
        0..=2 => 0,
        3..=4 => 1,
        5..=8 => 2,
        _ => 3,
    };
    let mut best: Vec<&str> = Vec::new();
    let mut best_d = limit + 1;
    for c in candidates {
        if c == name || best.contains(&c) {
            continue;
        }
        let dist = distance(name, c);
        if dist < best_d {
            best_d = dist;
            best.clear();
        }
        if dist == best_d {
            best.push(c);
        }
    }
    best.sort();
    best
}

/// `did you mean `a`?` / `did you mean `a` or `b`?` for the closest candidates (at most
/// three), or `None`.
pub fn did_you_mean<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<String> {
    let best = closest(name, candidates);
    if best.is_empty() {
        return None;
    }
    let shown: Vec<String> = best.iter().take(3).map(|c| format!("`{c}`")).collect();
    Some(format!("did you mean {}?", shown.join(" or ")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        assert_eq!(distance("linspcae", "linspace"), 1);
        assert_eq!(distance("sqrtt", "sqrt"), 1);
        assert_eq!(distance("image_widht", "image_width"), 1);
        assert_eq!(distance("abc", "xyz"), 3);
        assert_eq!(distance("Sum", "sum"), 0);
    }

    #[test]
    fn suggestions() {
        let names = ["linspace", "length", "sqrt", "sort", "sum"];
        assert_eq!(closest("linspcae", names), vec!["linspace"]);
        assert_eq!(closest("sqrtt", names), vec!["sqrt"]);
        assert!(closest("zz", names).is_empty());
        assert!(closest("completely_different", names).is_empty());
        assert_eq!(
            did_you_mean("srt", names).as_deref(),
            Some("did you mean `sort` or `sqrt`?")
        );
    }
}
