// The VS Code side of Blazar's language server: starts `blazar lsp` for .q files and
// talks to it over standard input and output (vscode-languageclient does the protocol).
// Highlighting comes from quasar.tmLanguage.json, debugging from `blazar debug --dap`
// (package.json); this file only starts the server.

const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration("blazar").get("path") || "blazar";
  const server = { command, args: ["lsp"], transport: TransportKind.stdio };
  client = new LanguageClient(
    "blazar",
    "Blazar language server",
    { run: server, debug: server },
    { documentSelector: [{ scheme: "file", language: "quasar" }] }
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
