//! Blazar's language server: `blazar lsp` speaks the Language Server Protocol on
//! standard input and output.
//!
//! Diagnostics are those of `blazar check` (`blazar_interp::check`, run on the editor's
//! text), published after every change; hover shows what the checker infers of a
//! variable's type, a function's signature and comment, and a builtin's documentation
//! ([`docs::doc_for`]); go to definition follows functions, variables and `import`s
//! (resolved as `blazar run` resolves them); completion offers the names in scope,
//! imported functions, builtins, keywords, fields and module names; signature help
//! and document symbols complete the set.
//!
//! The protocol is `lsp-server` (a synchronous loop) with `lsp-types`.

mod analysis;
mod complete;
pub mod docs;
mod goto;
mod hover;
mod index;
mod lines;
mod resolve;
mod server;
mod signature;
mod types;

pub use lsp_server::Connection;
pub use server::{capabilities, serve, Error};

/// Serves one editor on standard input and output until it exits.
pub fn run_stdio() -> Result<(), Error> {
    let (conn, io) = Connection::stdio();
    serve(&conn)?;
    drop(conn);
    io.join()?;
    Ok(())
}
