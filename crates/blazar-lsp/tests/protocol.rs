//! The language server driven over JSON-RPC as an editor drives it: initialize, open a
//! document, read its diagnostics, ask for hover, definition, completion, signature
//! help and symbols, change it, shut down.

mod common;

use common::{at, temp_dir, uri_of, Client};
use serde_json::{json, Value};

const MAIN: &str = r#"import "helper.q"

% Scales a vector by k.
function y : vec = scale(x : vec, k : scalar)
    y = x * k
end

n = 4
v = linspace(0, 1, n)
w = scale(v, 2.0)
z = twice(3)
f = (a : int) -> 2 * a
print sum(w), z, f(2)
h = 1.5 * n
for i = 0..n - 1
    m = i * 2
end
"#;

const HELPER: &str = "function y = twice(x)\n    y = 2 * x\nend\n";

/// A folder with main.q and the helper.q it imports; the server, started; main.q open.
fn setup(name: &str) -> (Client, String, String) {
    let dir = temp_dir(name);
    std::fs::write(dir.join("main.q"), MAIN).unwrap();
    std::fs::write(dir.join("helper.q"), HELPER).unwrap();
    let (mut c, _) = Client::start();
    let uri = uri_of(&dir.join("main.q"));
    c.open(&uri, MAIN);
    (c, uri, uri_of(&dir.join("helper.q")))
}

fn hover_text(c: &mut Client, uri: &str, line: u32, col: u32) -> String {
    let h = c.request("textDocument/hover", at(uri, line, col));
    h["contents"]["value"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

#[test]
fn initialize_announces_the_features() {
    let (c, init) = Client::start();
    let caps = &init["capabilities"];
    assert_eq!(caps["hoverProvider"], true);
    assert_eq!(caps["definitionProvider"], true);
    assert_eq!(caps["documentSymbolProvider"], true);
    assert_eq!(caps["textDocumentSync"]["change"], 2, "incremental sync");
    assert!(caps["completionProvider"]["triggerCharacters"]
        .as_array()
        .unwrap()
        .contains(&json!(".")));
    assert!(caps["signatureHelpProvider"].is_object());
    assert_eq!(init["serverInfo"]["name"], "blazar");
    c.shutdown();
}

#[test]
fn a_clean_program_has_no_diagnostics() {
    let (mut c, uri, _) = setup("clean");
    assert_eq!(c.diagnostics(&uri), Vec::<Value>::new());
    c.shutdown();
}

#[test]
fn diagnostics_are_those_of_check_and_follow_changes() {
    let dir = temp_dir("diags");
    let path = dir.join("bad.q");
    let text = "x = 1\ny = x + undefined_name\nprint y\n";
    let (mut c, _) = Client::start();
    let uri = uri_of(&path);
    c.open(&uri, text);
    let diags = c.diagnostics(&uri);
    // The same diagnostics as `blazar check` (the same checking code) ...
    let checked = blazar_interp::check(&path.display().to_string(), text, Some(dir.clone()));
    assert_eq!(diags.len(), checked.diagnostics.len());
    assert_eq!(diags[0]["message"], checked.diagnostics[0].message.as_str());
    assert_eq!(diags[0]["severity"], 1);
    assert_eq!(diags[0]["source"], "blazar");
    // ... with the range of the name: line 1, columns 8..22.
    assert_eq!(
        diags[0]["range"],
        json!({ "start": { "line": 1, "character": 8 }, "end": { "line": 1, "character": 22 } })
    );
    // Typing the fix (an incremental edit) clears them.
    c.notify(
        "textDocument/didChange",
        json!({
            "textDocument": { "uri": uri, "version": 2 },
            "contentChanges": [{
                "range": { "start": { "line": 1, "character": 8 }, "end": { "line": 1, "character": 22 } },
                "text": "2"
            }]
        }),
    );
    assert_eq!(c.diagnostics(&uri), Vec::<Value>::new());
    // A syntax error as it is typed.
    c.notify(
        "textDocument/didChange",
        json!({
            "textDocument": { "uri": uri, "version": 3 },
            "contentChanges": [{ "text": "x = (1 +\nprint x\n" }]
        }),
    );
    let diags = c.diagnostics(&uri);
    assert!(!diags.is_empty() && diags[0]["severity"] == 1, "{diags:?}");
    // Saving checks again; closing clears.
    c.notify(
        "textDocument/didSave",
        json!({ "textDocument": { "uri": uri } }),
    );
    assert!(!c.diagnostics(&uri).is_empty());
    c.notify(
        "textDocument/didClose",
        json!({ "textDocument": { "uri": uri } }),
    );
    assert_eq!(c.diagnostics(&uri), Vec::<Value>::new());
    c.shutdown();
}

#[test]
fn an_error_in_an_imported_file_shows_at_its_import() {
    let dir = temp_dir("imported-error");
    std::fs::write(
        dir.join("lib.q"),
        "function y = g(x)\n    y = x + nope\nend\n",
    )
    .unwrap();
    let text = "import \"lib.q\"\nprint g(1)\n";
    let (mut c, _) = Client::start();
    let uri = uri_of(&dir.join("main.q"));
    c.open(&uri, text);
    let diags = c.diagnostics(&uri);
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(
        diags[0]["range"]["start"],
        json!({ "line": 0, "character": 0 })
    );
    let msg = diags[0]["message"].as_str().unwrap();
    assert!(msg.contains("lib.q:2:13:"), "{msg}");
    c.shutdown();
}

#[test]
fn hover_shows_inferred_types_signatures_and_builtins() {
    let (mut c, uri, _) = setup("hover");
    // `n` in `linspace(0, 1, n)`: an int, inferred from `n = 4`.
    let h = hover_text(&mut c, &uri, 8, 19);
    assert!(h.contains("n : int"), "{h}");
    // `w`: the declared output type of `scale`.
    let h = hover_text(&mut c, &uri, 9, 0);
    assert!(h.contains("w : vec"), "{h}");
    // A lambda's type.
    let h = hover_text(&mut c, &uri, 11, 0);
    assert!(h.contains("f : [int->int]"), "{h}");
    // A parameter's declared type.
    let h = hover_text(&mut c, &uri, 4, 8);
    assert!(h.contains("parameter x : vec"), "{h}");
    // A function: its signature and its comment.
    let h = hover_text(&mut c, &uri, 9, 5);
    assert!(
        h.contains("function y : vec = scale(x : vec, k : scalar)"),
        "{h}"
    );
    assert!(h.contains("Scales a vector by k."), "{h}");
    // A builtin: its documentation (`docs::doc_for`) and the type this call gives.
    let h = hover_text(&mut c, &uri, 8, 5);
    assert_eq!(
        blazar_lsp::docs::doc_for("linspace").map(|d| h.contains(&d.signature)),
        Some(true),
        "{h}"
    );
    assert!(h.contains("this call gives: vec"), "{h}");
    // A variable a builtin call gives: that call's type.
    let h = hover_text(&mut c, &uri, 8, 0);
    assert!(h.contains("v : vec"), "{h}");
    // A builtin whose result depends on values (`sum`): no type is guessed.
    let h = hover_text(&mut c, &uri, 12, 7);
    assert!(h.contains("sum") && !h.contains("this call gives"), "{h}");
    // An imported function.
    let h = hover_text(&mut c, &uri, 10, 5);
    assert!(
        h.contains("function y = twice(x)") && h.contains("helper.q"),
        "{h}"
    );
    // Through other variables of the script and a loop (one the parallelizer takes).
    let h = hover_text(&mut c, &uri, 13, 0);
    assert!(h.contains("h : scalar"), "{h}");
    let h = hover_text(&mut c, &uri, 14, 4);
    assert!(h.contains("i : int"), "{h}");
    let h = hover_text(&mut c, &uri, 15, 4);
    assert!(h.contains("m : int"), "{h}");
    // Nothing on a number.
    assert_eq!(c.request("textDocument/hover", at(&uri, 7, 4)), Value::Null);
    c.shutdown();
}

#[test]
fn definition_finds_functions_variables_and_modules() {
    let (mut c, uri, helper) = setup("definition");
    // `scale` at its call: its name in `function ... scale(`.
    let loc = c.request("textDocument/definition", at(&uri, 9, 5));
    assert_eq!(loc["uri"], uri.as_str());
    assert_eq!(loc["range"]["start"], json!({ "line": 3, "character": 19 }));
    // `v` in `scale(v, 2.0)`: its assignment.
    let loc = c.request("textDocument/definition", at(&uri, 9, 10));
    assert_eq!(loc["range"]["start"], json!({ "line": 8, "character": 0 }));
    // `k` in the body: the parameter.
    let loc = c.request("textDocument/definition", at(&uri, 4, 12));
    assert_eq!(loc["range"]["start"], json!({ "line": 3, "character": 34 }));
    // `twice`, defined in the imported file.
    let loc = c.request("textDocument/definition", at(&uri, 10, 5));
    assert_eq!(loc["uri"], helper.as_str());
    assert_eq!(loc["range"]["start"], json!({ "line": 0, "character": 13 }));
    // The import statement opens the module.
    let loc = c.request("textDocument/definition", at(&uri, 0, 10));
    assert_eq!(loc["uri"], helper.as_str());
    // A bundled module: the server writes its text where the editor can open it.
    let bundled = "import \"imfilter.q\"\n";
    let uri2 = uri.replace("main.q", "bundled.q");
    c.open(&uri2, bundled);
    let loc = c.request("textDocument/definition", at(&uri2, 0, 10));
    let target = loc["uri"].as_str().unwrap();
    assert!(target.ends_with("/imfilter.q"), "{target}");
    c.shutdown();
}

fn labels(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap().to_string())
        .collect()
}

/// Replaces the whole document's text (as an editor with full sync would).
fn set_text(c: &mut Client, uri: &str, version: i32, text: &str) {
    c.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": uri, "version": version }, "contentChanges": [{ "text": text }] }),
    );
}

#[test]
fn completion_offers_scope_builtins_keywords_fields_and_modules() {
    let (mut c, uri, _) = setup("completion");
    // While typing `sc` on a new last line (a line that does not parse yet).
    let text = format!("{MAIN}q = sc");
    set_text(&mut c, &uri, 2, &text);
    let got = labels(&c.request("textDocument/completion", at(&uri, 17, 6)));
    for want in ["scale", "scalar"] {
        assert!(
            got.contains(&want.to_string()),
            "{want} missing from {got:?}"
        );
    }
    assert!(!got.contains(&"linspace".to_string()));
    // Names in scope, imported functions, builtins and keywords.
    let text = format!("{MAIN}q = ");
    set_text(&mut c, &uri, 3, &text);
    let got = labels(&c.request("textDocument/completion", at(&uri, 17, 4)));
    for want in [
        "n",
        "w",
        "scale",
        "twice",
        "linspace",
        "zeros",
        "parallel_do",
        "while",
        "end",
    ] {
        assert!(
            got.contains(&want.to_string()),
            "{want} missing from {got:?}"
        );
    }
    // Inside a function: its parameters.
    let got = labels(&c.request("textDocument/completion", at(&uri, 4, 8)));
    assert!(got.contains(&"k".to_string()), "{got:?}");
    // Fields after `.`.
    let text = "type point : class\n    px : scalar\n    py : int\nend\np : point = point(px := 1.0, py := 2)\nq = p.\n";
    set_text(&mut c, &uri, 4, text);
    let got = labels(&c.request("textDocument/completion", at(&uri, 5, 6)));
    assert_eq!(got, ["px", "py"]);
    // Module names inside an import.
    set_text(&mut c, &uri, 5, "import \"imf\n");
    let got = labels(&c.request("textDocument/completion", at(&uri, 0, 11)));
    assert_eq!(got, ["imfilter.q"]);
    set_text(&mut c, &uri, 6, "import \"hel\n");
    let got = labels(&c.request("textDocument/completion", at(&uri, 0, 11)));
    assert_eq!(got, ["helper.q"]);
    c.shutdown();
}

#[test]
fn signature_help_follows_the_argument_being_typed() {
    let (mut c, uri, _) = setup("signature");
    let text = format!("{MAIN}q = scale(v, ");
    set_text(&mut c, &uri, 2, &text);
    let s = c.request("textDocument/signatureHelp", at(&uri, 17, 15));
    assert_eq!(s["signatures"][0]["label"], "scale(x : vec, k : scalar)");
    assert_eq!(s["activeParameter"], 1);
    assert_eq!(s["signatures"][0]["documentation"], "Scales a vector by k.");
    // A builtin, first argument; a nested call's parentheses are skipped.
    let text = format!("{MAIN}q = zeros(size(v, 0)");
    set_text(&mut c, &uri, 3, &text);
    let s = c.request("textDocument/signatureHelp", at(&uri, 17, 21));
    let label = s["signatures"][0]["label"].as_str().unwrap();
    assert!(label.starts_with("zeros("), "{label}");
    assert_eq!(s["activeParameter"], 0);
    // Outside any call.
    assert_eq!(
        c.request("textDocument/signatureHelp", at(&uri, 7, 3)),
        Value::Null
    );
    c.shutdown();
}

#[test]
fn document_symbols_outline_the_file() {
    let (mut c, uri, _) = setup("symbols");
    let s = c.request(
        "textDocument/documentSymbol",
        json!({ "textDocument": { "uri": uri } }),
    );
    let names: Vec<(String, i64)> = s
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["name"].as_str().unwrap().to_string(),
                s["kind"].as_i64().unwrap(),
            )
        })
        .collect();
    let function = 12;
    let variable = 13;
    assert_eq!(
        names,
        [
            ("scale".to_string(), function),
            ("n".into(), variable),
            ("v".into(), variable),
            ("w".into(), variable),
            ("z".into(), variable),
            ("f".into(), variable),
            ("h".into(), variable),
            ("i".into(), variable),
            ("m".into(), variable),
        ]
    );
    let scale = &s[0];
    assert_eq!(scale["range"]["start"]["line"], 3);
    assert_eq!(scale["range"]["end"]["line"], 5);
    assert_eq!(
        scale["selectionRange"]["start"],
        json!({ "line": 3, "character": 19 })
    );
    c.shutdown();
}

#[test]
fn unknown_requests_get_an_error_and_the_server_goes_on() {
    let (mut c, uri, _) = setup("unknown");
    c.notify("$/unknownNotification", json!({}));
    let r = c.request_raw("textDocument/noSuchThing", json!({}));
    assert_eq!(r.error.unwrap().code, -32601, "method not found");
    let r = c.request_raw("textDocument/hover", json!({ "nonsense": 1 }));
    assert_eq!(r.error.unwrap().code, -32602, "invalid params");
    c.notify("textDocument/didOpen", json!({})); // malformed: ignored
                                                 // Hover on a document that is not open is null, not an error.
    let h = c.request("textDocument/hover", at("file:///nowhere/x.q", 0, 0));
    assert_eq!(h, Value::Null);
    assert!(hover_text(&mut c, &uri, 7, 0).contains("n : int"));
    c.shutdown();
}
