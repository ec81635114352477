//! The arguments of the code attributes that steer kernels (`!kernel_tiling dims=[8,8];
//! target="gpu"`, `!kernel_arg`, `!kernel_transform`): `key=value` items separated by
//! `;` or `,`, a value being a quoted string, a bracketed list or a bare word. Read once
//! here, so `check` and the passes agree on what an attribute says.

/// The attributes whose arguments are `key=value` items.
pub const KEYED: &[&str] = &["kernel_tiling", "kernel_arg", "kernel_transform"];

/// Parsed arguments: the items in order (quotes removed, lists kept with their brackets)
/// and whether a stray `}` ended the text (printed in some published code after the last
/// value, and ignored with a warning).
#[derive(Clone, Debug, PartialEq)]
pub struct AttrArgs {
    pub pairs: Vec<(String, String)>,
    pub stray_brace: bool,
}

impl AttrArgs {
    pub fn get(&self, key: &str) -> Option<&str> {
        self.pairs
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// Parses `args`; an error says what is wrong in words.
pub fn parse(args: &str) -> Result<AttrArgs, String> {
    let mut text = args.trim();
    let mut stray_brace = false;
    if let Some(t) = text.strip_suffix('}') {
        if !t.contains('{') {
            text = t.trim_end();
            stray_brace = true;
        }
    }
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    let mut pairs = Vec::new();
    let skip_ws = |i: &mut usize| {
        while *i < chars.len() && chars[*i].is_whitespace() {
            *i += 1;
        }
    };
    loop {
        skip_ws(&mut i);
        if i >= chars.len() {
            break;
        }
        if matches!(chars[i], ';' | ',') {
            i += 1;
            continue;
        }
        let k0 = i;
        while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
            i += 1;
        }
        let key: String = chars[k0..i].iter().collect();
        if key.is_empty() {
            return Err(format!("expected a name, found `{}`", chars[i]));
        }
        skip_ws(&mut i);
        if i >= chars.len() || chars[i] != '=' {
            return Err(format!("expected `=` after `{key}`"));
        }
        i += 1;
        skip_ws(&mut i);
        let value: String = match chars.get(i) {
            Some('"') => {
                let v0 = i + 1;
                let Some(len) = chars[v0..].iter().position(|&c| c == '"') else {
                    return Err(format!("the value of `{key}` has no closing quote"));
                };
                i = v0 + len + 1;
                chars[v0..v0 + len].iter().collect()
            }
            Some('[') => {
                let v0 = i;
                let Some(len) = chars[v0..].iter().position(|&c| c == ']') else {
                    return Err(format!("the value of `{key}` has no closing `]`"));
                };
                i = v0 + len + 1;
                chars[v0..i].iter().collect()
            }
            _ => {
                let v0 = i;
                while i < chars.len() && !chars[i].is_whitespace() && !matches!(chars[i], ';' | ',')
                {
                    i += 1;
                }
                chars[v0..i].iter().collect()
            }
        };
        if value.is_empty() {
            return Err(format!("`{key}` has no value"));
        }
        skip_ws(&mut i);
        if i < chars.len() && !matches!(chars[i], ';' | ',') {
            return Err(format!(
                "unexpected `{}` after the value of `{key}`",
                chars[i..].iter().collect::<String>()
            ));
        }
        pairs.push((key, value));
    }
    Ok(AttrArgs { pairs, stray_brace })
}

/// The extents of a list value `[a, b, c]` (each a positive integer).
pub fn extents(value: &str) -> Option<Vec<usize>> {
    let inner = value.strip_prefix('[')?.strip_suffix(']')?;
    inner
        .split(',')
        .map(|d| d.trim().parse::<usize>().ok().filter(|&d| d > 0))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_parse_to_what_they_say() {
        let a = parse("dims=[128,256,1]; mode=\"global\"; target=\"gpu\"").unwrap();
        assert_eq!(a.get("dims"), Some("[128,256,1]"));
        assert_eq!(a.get("target"), Some("gpu"));
        assert!(!a.stray_brace);
        assert_eq!(extents(a.get("dims").unwrap()), Some(vec![128, 256, 1]));
        let b = parse("dims=[8, 8]; target=\"gpu\"}").unwrap();
        assert_eq!(b.get("target"), Some("gpu"));
        assert!(b.stray_brace);
        let c = parse("name=y, op=+=, numel=256").unwrap();
        assert_eq!(c.get("op"), Some("+="));
        assert_eq!(c.get("numel"), Some("256"));
    }

    #[test]
    fn malformed_values_are_errors() {
        assert!(parse("target=\"gpu")
            .unwrap_err()
            .contains("no closing quote"));
        assert!(parse("target=\"gpu\"x")
            .unwrap_err()
            .contains("unexpected `x`"));
        assert!(parse("dims=[8, 8").unwrap_err().contains("no closing `]`"));
        assert!(parse("dims").unwrap_err().contains("expected `=`"));
        assert!(parse("target=").unwrap_err().contains("no value"));
    }
}
