//! The VS Code extension in `editors/` starts the language server: its manifest names
//! `extension.js`, activates on Quasar files and depends on the language client, and
//! the script runs `blazar lsp` (the command from the `blazar.path` setting).

use serde_json::Value;
use std::path::PathBuf;

fn editors() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../editors")
}

#[test]
fn the_extension_starts_blazar_lsp() {
    let text = std::fs::read_to_string(editors().join("package.json")).unwrap();
    let manifest: Value = serde_json::from_str(&text).unwrap();
    let main = manifest["main"].as_str().unwrap();
    let script = std::fs::read_to_string(editors().join(main)).unwrap();
    assert!(manifest["activationEvents"]
        .as_array()
        .unwrap()
        .contains(&"onLanguage:quasar".into()));
    assert!(manifest["dependencies"]["vscode-languageclient"].is_string());
    let path = &manifest["contributes"]["configuration"]["properties"]["blazar.path"];
    assert_eq!(path["default"], "blazar");
    assert!(script.contains("require(\"vscode-languageclient/node\")"));
    assert!(script.contains("get(\"path\")"));
    assert!(script.contains("args: [\"lsp\"]"));
    assert!(script.contains("language: \"quasar\""));
    assert!(script.contains("module.exports = { activate, deactivate }"));
}
