//! The editor grammar (`editors/quasar.tmLanguage.json`) is valid JSON, every regular
//! expression in it compiles, every keyword of the parser is highlighted as one, and it
//! highlights a few lines of Quasar as expected; the VS Code manifest points at it.

use serde_json::Value;
use std::path::PathBuf;

fn editors() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../editors")
}

fn grammar() -> Value {
    let text = std::fs::read_to_string(editors().join("quasar.tmLanguage.json")).unwrap();
    serde_json::from_str(&text).expect("the grammar is valid JSON")
}

/// Every `match`, `begin` and `end` regex of the grammar, with its JSON path.
fn regexes(v: &Value, path: &str, out: &mut Vec<(String, String)>) {
    match v {
        Value::Object(map) => {
            for (k, child) in map {
                let here = format!("{path}/{k}");
                match (k.as_str(), child) {
                    ("match" | "begin" | "end", Value::String(re)) => out.push((here, re.clone())),
                    _ => regexes(child, &here, out),
                }
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                regexes(child, &format!("{path}/{i}"), out);
            }
        }
        _ => {}
    }
}

fn compiled() -> Vec<(String, regex::Regex)> {
    let mut all = Vec::new();
    regexes(&grammar(), "", &mut all);
    all.into_iter()
        .map(|(path, re)| {
            let r = regex::Regex::new(&re)
                .unwrap_or_else(|e| panic!("{path}: `{re}` does not compile: {e}"));
            (path, r)
        })
        .collect()
}

/// The regex at `path` (a repository entry, and a pattern index for lists).
fn rule(path: &str) -> regex::Regex {
    compiled()
        .into_iter()
        .find(|(p, _)| p == path)
        .unwrap_or_else(|| panic!("no rule at {path}"))
        .1
}

#[test]
fn every_regex_compiles() {
    assert!(compiled().len() > 15);
}

#[test]
fn the_parser_keywords_are_keywords() {
    let control = rule("/repository/keyword/patterns/0/match");
    let other = rule("/repository/keyword/patterns/1/match");
    // Words the statement parser reads as keywords besides the reserved ones.
    let statement = [
        "function",
        "print",
        "import",
        "macro",
        "match",
        "with",
        "type",
        "class",
        "mutable",
        "reduction",
        "concealed",
    ];
    for word in blazar_syntax::RESERVED.iter().chain(&statement) {
        let whole = |r: &regex::Regex| r.find(word).is_some_and(|m| m.as_str() == *word);
        assert!(
            whole(&control) || whole(&other),
            "`{word}` is not highlighted"
        );
    }
    assert!(!control.is_match("endless") && !control.is_match("format"));
}

#[test]
fn highlights_quasar_lines() {
    let def = rule("/repository/function-definition/match");
    let caps = def
        .captures("function [] = __kernel__ blur(x : cube'clamped, pos : ivec3)")
        .expect("a kernel definition");
    assert_eq!(&caps[4], "__kernel__");
    assert_eq!(&caps[5], "blur");
    let caps = def.captures("function y : mat = smooth(x)").unwrap();
    assert_eq!(&caps[5], "smooth");
    let modifier = rule("/repository/access-modifier/match");
    assert!(modifier.is_match("x : vec'clamped") && !modifier.is_match("'clam'"));
    let comment = rule("/repository/comment/match");
    assert_eq!(
        comment.find("y = 1 % the rest").unwrap().as_str(),
        "% the rest"
    );
    let number = rule("/repository/number/patterns/1/match");
    for n in ["3", "0.5", "1e-4", "2.5e3", "3j"] {
        assert_eq!(number.find(n).unwrap().as_str(), n);
    }
    let types = rule("/repository/type/match");
    assert!(types.is_match("cube") && types.is_match("ivec3") && !types.is_match("vector"));
}

#[test]
fn the_vscode_manifest_points_at_the_grammar() {
    let text = std::fs::read_to_string(editors().join("package.json")).unwrap();
    let manifest: Value = serde_json::from_str(&text).unwrap();
    let g = &manifest["contributes"]["grammars"][0];
    assert_eq!(g["scopeName"], grammar()["scopeName"]);
    let path = g["path"].as_str().unwrap();
    assert!(editors().join(path).is_file());
    assert_eq!(
        manifest["contributes"]["languages"][0]["extensions"][0],
        ".q"
    );
    let config = manifest["contributes"]["languages"][0]["configuration"]
        .as_str()
        .unwrap();
    let text = std::fs::read_to_string(editors().join(config)).unwrap();
    serde_json::from_str::<Value>(&text).expect("the language configuration is JSON");
}

#[test]
fn the_vscode_manifest_registers_the_debug_adapter() {
    let text = std::fs::read_to_string(editors().join("package.json")).unwrap();
    let manifest: Value = serde_json::from_str(&text).unwrap();
    let d = &manifest["contributes"]["debuggers"][0];
    assert_eq!(d["type"], "blazar");
    assert_eq!(d["args"], serde_json::json!(["debug", "--dap"]));
    assert_eq!(d["initialConfigurations"][0]["request"], "launch");
    assert_eq!(
        manifest["contributes"]["breakpoints"][0]["language"],
        "quasar"
    );
}
