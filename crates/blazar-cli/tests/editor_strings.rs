//! How the editor grammar (`editors/quasar.tmLanguage.json`) cuts whole lines: a small
//! TextMate scanner (match rules, begin/end rules over several lines, includes; the
//! earliest match wins, an end pattern before the inner patterns at the same place) runs
//! the grammar over Quasar text. Strings end at their quote or at the end of the line
//! (a backslash escapes nothing), single-quoted strings are strings, modifiers are not.

use regex::Regex;
use serde_json::Value;

fn grammar() -> Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../editors/quasar.tmLanguage.json"
    );
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// A rule with its includes resolved.
enum Rule {
    Match(String, Regex),
    Begin {
        name: String,
        begin: Regex,
        end: Regex,
        inner: Vec<usize>,
    },
}

struct Grammar {
    rules: Vec<Rule>,
    top: Vec<usize>,
}

impl Grammar {
    fn load() -> Grammar {
        let g = grammar();
        let mut out = Grammar {
            rules: Vec::new(),
            top: Vec::new(),
        };
        out.top = out.list(&g["patterns"], &g);
        out
    }

    /// The rules of a `patterns` list, includes and groups flattened.
    fn list(&mut self, patterns: &Value, g: &Value) -> Vec<usize> {
        let mut ids = Vec::new();
        for p in patterns.as_array().unwrap() {
            ids.extend(self.rule(p, g));
        }
        ids
    }

    fn rule(&mut self, p: &Value, g: &Value) -> Vec<usize> {
        if let Some(inc) = p["include"].as_str() {
            let entry = &g["repository"][inc.trim_start_matches('#')];
            assert!(!entry.is_null(), "missing {inc}");
            return self.rule(entry, g);
        }
        let name = p["name"].as_str().unwrap_or("").to_string();
        if let Some(m) = p["match"].as_str() {
            self.rules.push(Rule::Match(name, Regex::new(m).unwrap()));
            return vec![self.rules.len() - 1];
        }
        if let Some(b) = p["begin"].as_str() {
            let slot = self.rules.len();
            // A placeholder while the inner rules are loaded (no rule includes itself here).
            self.rules
                .push(Rule::Match(String::new(), Regex::new("$^").unwrap()));
            let inner = if p["patterns"].is_null() {
                vec![]
            } else {
                self.list(&p["patterns"], g)
            };
            self.rules[slot] = Rule::Begin {
                name,
                begin: Regex::new(b).unwrap(),
                end: Regex::new(p["end"].as_str().unwrap()).unwrap(),
                inner,
            };
            return vec![slot];
        }
        self.list(&p["patterns"], g)
    }

    /// Every token as (scope, text); a begin/end rule's text runs from its begin to its
    /// end, over lines.
    fn tokens(&self, text: &str) -> Vec<(String, String)> {
        let mut out = Vec::new();
        // Open begin/end rules: rule and the text so far.
        let mut stack: Vec<(usize, String)> = Vec::new();
        for line in text.lines() {
            let mut pos = 0;
            loop {
                let (pats, end) = match stack.last() {
                    Some((r, _)) => match &self.rules[*r] {
                        Rule::Begin { inner, end, .. } => (inner.clone(), Some(end)),
                        Rule::Match(..) => unreachable!(),
                    },
                    None => (self.top.clone(), None),
                };
                let mut best: Option<(usize, usize, Option<usize>)> = None;
                if let Some(m) = end.and_then(|e| e.find_at(line, pos)) {
                    best = Some((m.start(), m.end(), None));
                }
                for &id in &pats {
                    let re = match &self.rules[id] {
                        Rule::Match(_, re) => re,
                        Rule::Begin { begin, .. } => begin,
                    };
                    if let Some(m) = re.find_at(line, pos) {
                        if best.is_none_or(|(s, _, _)| m.start() < s) {
                            best = Some((m.start(), m.end(), Some(id)));
                        }
                    }
                }
                let Some((s, e, rule)) = best else { break };
                // The open rule's text grows up to here (a nested begin/end rule's
                // text joins it when that rule ends).
                let opens = rule.is_some_and(|id| matches!(self.rules[id], Rule::Begin { .. }));
                if let Some((_, acc)) = stack.last_mut() {
                    acc.push_str(&line[pos..if opens { s } else { e }]);
                }
                match rule {
                    None => {
                        let (r, acc) = stack.pop().unwrap();
                        if let Some((_, outer)) = stack.last_mut() {
                            outer.push_str(&acc);
                        }
                        if let Rule::Begin { name, .. } = &self.rules[r] {
                            out.push((name.clone(), acc));
                        }
                    }
                    Some(id) => match &self.rules[id] {
                        Rule::Match(name, _) => out.push((name.clone(), line[s..e].to_string())),
                        Rule::Begin { .. } => stack.push((id, line[s..e].to_string())),
                    },
                }
                if e == line.len() && rule.is_none() {
                    break;
                }
                pos = if e > pos { e } else { e + 1 };
                if pos > line.len() {
                    break;
                }
            }
            if let Some((_, acc)) = stack.last_mut() {
                acc.push('\n');
            }
        }
        out
    }
}

fn strings(tokens: &[(String, String)]) -> Vec<String> {
    tokens
        .iter()
        .filter(|(n, _)| n.starts_with("string"))
        .map(|(_, t)| t.clone())
        .collect()
}

#[test]
fn a_trailing_backslash_does_not_swallow_the_file() {
    let g = Grammar::load();
    let toks = g.tokens("path = \"C:\\out\\\"\nx = 12\nprint x\n");
    assert_eq!(strings(&toks), ["\"C:\\out\\\""]);
    assert!(toks.contains(&("constant.numeric.quasar".into(), "12".into())));
    assert!(toks.contains(&("keyword.other.quasar".into(), "print".into())));
}

#[test]
fn an_unclosed_string_ends_with_its_line() {
    let g = Grammar::load();
    let toks = g.tokens("s = \"abc\ny = 2\n");
    assert_eq!(strings(&toks), ["\"abc"]);
    assert!(toks.contains(&("constant.numeric.quasar".into(), "2".into())));
}

#[test]
fn printf_escapes_and_placeholders_inside_strings() {
    let g = Grammar::load();
    let toks = g.tokens("printf(\"%5.2f\\n\", x)\n");
    assert!(toks.contains(&("constant.other.placeholder.quasar".into(), "%5.2f".into())));
    assert!(toks.contains(&("constant.character.escape.quasar".into(), "\\n".into())));
}

#[test]
fn single_quoted_strings_are_strings_and_modifiers_are_not() {
    let g = Grammar::load();
    let toks = g.tokens("ok = type(x, 'vec[??]')\ny : cube'unchecked'const = 0\n");
    assert_eq!(strings(&toks), ["'vec[??]'"]);
    let quoted: Vec<_> = toks
        .iter()
        .filter(|(n, _)| n.starts_with("string.quoted.single"))
        .collect();
    assert_eq!(quoted.len(), 1);
    let modifiers: Vec<&str> = toks
        .iter()
        .filter(|(n, _)| n == "storage.modifier.access.quasar")
        .map(|(_, t)| t.as_str())
        .collect();
    assert_eq!(modifiers, ["'unchecked", "'const"]);
}

#[test]
fn a_cell_literal_closes_at_its_apostrophe() {
    let g = Grammar::load();
    let toks = g.tokens("c = `1, \"a\", 3'\nd = 'x'\n");
    assert_eq!(strings(&toks), ["\"a\"", "'x'"]);
    assert!(toks
        .iter()
        .any(|(n, t)| n == "meta.cell.quasar" && t == "`1, \"a\", 3'"));
}
