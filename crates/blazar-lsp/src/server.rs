//! The server loop: JSON-RPC messages in, responses and diagnostics out, one at a time
//! on one thread (`lsp-server`'s synchronous connection).
//!
//! A document is analysed when something asks for it, at most once per version, in two
//! steps: parsing and indexing (all that completion, definition, signature help and
//! symbols need), and checking (diagnostics and the types hover shows), which runs
//! when hover asks or when diagnostics are published: once no message is waiting, so
//! that a keystroke's request is answered first and a burst of keystrokes is checked
//! once, after the last. Imported modules are kept while the imports stay the same.

use crate::analysis::Analysis;
use crate::lines::{uri_to_path, Lines};
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use lsp_types::notification::{self as note, Notification as _};
use lsp_types::request::{self as req, Request as _};
use lsp_types::*;
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

pub type Error = Box<dyn std::error::Error + Send + Sync>;

/// What the server can do, as `initialize` answers.
pub fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Options(
            TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(TextDocumentSyncKind::INCREMENTAL),
                save: Some(TextDocumentSyncSaveOptions::Supported(true)),
                ..Default::default()
            },
        )),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        document_symbol_provider: Some(OneOf::Left(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec![".".into(), "\"".into()]),
            ..Default::default()
        }),
        signature_help_provider: Some(SignatureHelpOptions {
            trigger_characters: Some(vec!["(".into(), ",".into()]),
            retrigger_characters: None,
            work_done_progress_options: Default::default(),
        }),
        ..Default::default()
    }
}

/// Serves one client on `conn` until it sends `shutdown` and `exit` (or hangs up).
pub fn serve(conn: &Connection) -> Result<(), Error> {
    let caps = serde_json::to_value(capabilities())?;
    let (id, _params) = conn.initialize_start()?;
    conn.initialize_finish(
        id,
        serde_json::json!({
            "capabilities": caps,
            "serverInfo": { "name": "blazar", "version": env!("CARGO_PKG_VERSION") },
        }),
    )?;
    let mut state = State::default();
    while let Ok(msg) = conn.receiver.recv() {
        match msg {
            Message::Request(r) => {
                if conn.handle_shutdown(&r)? {
                    return Ok(());
                }
                let response = state.request(r);
                conn.sender.send(response.into())?;
            }
            Message::Notification(n) if n.method == note::Exit::METHOD => return Ok(()),
            Message::Notification(n) => {
                for (uri, diagnostics) in state.notification(n) {
                    publish(conn, uri, diagnostics, None)?;
                }
            }
            Message::Response(_) => {}
        }
        if conn.receiver.is_empty() {
            for (uri, version, diagnostics) in state.pending_diagnostics() {
                publish(conn, uri, diagnostics, version)?;
            }
        }
    }
    Ok(())
}

fn publish(
    conn: &Connection,
    uri: Uri,
    diagnostics: Vec<Diagnostic>,
    version: Option<i32>,
) -> Result<(), Error> {
    let params = PublishDiagnosticsParams {
        uri,
        diagnostics,
        version,
    };
    let n = Notification::new(note::PublishDiagnostics::METHOD.into(), params);
    conn.sender.send(n.into())?;
    Ok(())
}

struct Document {
    text: String,
    version: i32,
    path: Option<PathBuf>,
    /// The analysis of the text, or of an older text when `stale`.
    analysis: Option<Analysis>,
    stale: bool,
}

#[derive(Default)]
struct State {
    docs: HashMap<Uri, Document>,
    /// Documents whose diagnostics are not published for their current version.
    dirty: HashSet<Uri>,
}

impl State {
    fn analysis(&mut self, uri: &Uri) -> Option<&Analysis> {
        let doc = self.docs.get_mut(uri)?;
        if doc.stale {
            let previous = doc.analysis.take();
            doc.analysis = Some(Analysis::new(&doc.text, doc.path.as_deref(), uri, previous));
            doc.stale = false;
        }
        doc.analysis.as_ref()
    }

    fn pending_diagnostics(&mut self) -> Vec<(Uri, Option<i32>, Vec<Diagnostic>)> {
        let mut out = Vec::new();
        for uri in std::mem::take(&mut self.dirty) {
            let version = self.docs.get(&uri).map(|d| d.version);
            // A bug while checking must not stop the server: that version gets none.
            let checked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                self.analysis(&uri).map(|a| a.checked().diagnostics.clone())
            }));
            match checked {
                Ok(Some(diagnostics)) => out.push((uri, version, diagnostics)),
                Ok(None) => {}
                Err(_) => {
                    if let Some(doc) = self.docs.get_mut(&uri) {
                        doc.analysis = None;
                        doc.stale = true;
                    }
                }
            }
        }
        out
    }

    /// Handles a notification; returns diagnostics to publish at once (a closed
    /// document's are cleared).
    fn notification(&mut self, n: Notification) -> Vec<(Uri, Vec<Diagnostic>)> {
        match n.method.as_str() {
            note::DidOpenTextDocument::METHOD => {
                if let Ok(p) = serde_json::from_value::<DidOpenTextDocumentParams>(n.params) {
                    let d = p.text_document;
                    self.docs.insert(
                        d.uri.clone(),
                        Document {
                            path: uri_to_path(&d.uri),
                            text: d.text,
                            version: d.version,
                            analysis: None,
                            stale: true,
                        },
                    );
                    self.dirty.insert(d.uri);
                }
            }
            note::DidChangeTextDocument::METHOD => {
                if let Ok(p) = serde_json::from_value::<DidChangeTextDocumentParams>(n.params) {
                    let uri = p.text_document.uri;
                    if let Some(doc) = self.docs.get_mut(&uri) {
                        for change in p.content_changes {
                            apply(&mut doc.text, change);
                        }
                        doc.version = p.text_document.version;
                        doc.stale = true;
                        self.dirty.insert(uri);
                    }
                }
            }
            note::DidSaveTextDocument::METHOD => {
                // Imported files may have changed on disk: check again.
                if let Ok(p) = serde_json::from_value::<DidSaveTextDocumentParams>(n.params) {
                    let uri = p.text_document.uri;
                    if let Some(doc) = self.docs.get_mut(&uri) {
                        if let Some(text) = p.text {
                            doc.text = text;
                        }
                        // Imported files may have changed: find them again.
                        doc.analysis = None;
                        doc.stale = true;
                        self.dirty.insert(uri);
                    }
                }
            }
            note::DidCloseTextDocument::METHOD => {
                if let Ok(p) = serde_json::from_value::<DidCloseTextDocumentParams>(n.params) {
                    let uri = p.text_document.uri;
                    self.docs.remove(&uri);
                    self.dirty.remove(&uri);
                    return vec![(uri, Vec::new())];
                }
            }
            _ => {}
        }
        Vec::new()
    }

    fn request(&mut self, r: Request) -> Response {
        let id = r.id.clone();
        let method = r.method.clone();
        // A bug in one answer must not stop the server: it answers with an error.
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.answer(r)));
        match result {
            Ok(Ok(value)) => Response {
                id,
                result: Some(value),
                error: None,
            },
            Ok(Err((code, msg))) => Response::new_err(id, code as i32, msg),
            Err(_) => Response::new_err(
                id,
                ErrorCode::InternalError as i32,
                format!("internal error while answering {method} (this is a bug in Blazar)"),
            ),
        }
    }

    fn answer(&mut self, r: Request) -> Result<serde_json::Value, (ErrorCode, String)> {
        macro_rules! params {
            ($r:expr, $t:ty) => {
                serde_json::from_value::<$t>($r.params)
                    .map_err(|e| (ErrorCode::InvalidParams, e.to_string()))?
            };
        }
        let json = |v: serde_json::Value| Ok(v);
        match r.method.as_str() {
            req::HoverRequest::METHOD => {
                let p = params!(r, HoverParams);
                let at = p.text_document_position_params;
                let Some((a, offset)) = self.at(&at.text_document.uri, at.position) else {
                    return json(serde_json::Value::Null);
                };
                json(serde_json::to_value(crate::hover::hover(a, offset as u32)).unwrap())
            }
            req::GotoDefinition::METHOD => {
                let p = params!(r, GotoDefinitionParams);
                let at = p.text_document_position_params;
                let uri = at.text_document.uri.clone();
                let Some((a, offset)) = self.at(&uri, at.position) else {
                    return json(serde_json::Value::Null);
                };
                let loc = crate::goto::definition(a, &uri, offset as u32);
                json(serde_json::to_value(loc.map(GotoDefinitionResponse::Scalar)).unwrap())
            }
            req::Completion::METHOD => {
                let p = params!(r, CompletionParams);
                let at = p.text_document_position;
                let dir = self
                    .docs
                    .get(&at.text_document.uri)
                    .and_then(|d| d.path.as_ref()?.parent().map(PathBuf::from));
                let Some((a, offset)) = self.at(&at.text_document.uri, at.position) else {
                    return json(serde_json::Value::Null);
                };
                let items = crate::complete::complete(a, offset, dir.as_deref());
                json(serde_json::to_value(CompletionResponse::Array(items)).unwrap())
            }
            req::SignatureHelpRequest::METHOD => {
                let p = params!(r, SignatureHelpParams);
                let at = p.text_document_position_params;
                let Some((a, offset)) = self.at(&at.text_document.uri, at.position) else {
                    return json(serde_json::Value::Null);
                };
                json(serde_json::to_value(crate::signature::signature_help(a, offset)).unwrap())
            }
            req::DocumentSymbolRequest::METHOD => {
                let p = params!(r, DocumentSymbolParams);
                let Some(a) = self.analysis(&p.text_document.uri) else {
                    return json(serde_json::Value::Null);
                };
                let symbols = DocumentSymbolResponse::Nested(crate::goto::symbols(a));
                json(serde_json::to_value(symbols).unwrap())
            }
            other => Err((
                ErrorCode::MethodNotFound,
                format!("unsupported request {other}"),
            )),
        }
    }

    /// The analysis of a document and the byte offset of a position in it.
    fn at(&mut self, uri: &Uri, pos: Position) -> Option<(&Analysis, usize)> {
        let a = self.analysis(uri)?;
        let offset = a.doc.lines.offset(&a.doc.text, pos);
        Some((a, offset))
    }
}

/// Applies one change to a document's text (a range edit, or the whole text).
fn apply(text: &mut String, change: TextDocumentContentChangeEvent) {
    match change.range {
        None => *text = change.text,
        Some(range) => {
            let lines = Lines::new(text);
            let lo = lines.offset(text, range.start);
            let hi = lines.offset(text, range.end).max(lo);
            text.replace_range(lo..hi, &change.text);
        }
    }
}
