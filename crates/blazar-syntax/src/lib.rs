//! Lexer, parser and AST of the Quasar language.
//!
//! [`parse`] turns source text into a [`Program`] and a list of diagnostics. It never
//! panics and never stops at the first error: a broken statement is skipped to the end
//! of its line and parsing goes on, so one run reports every syntax error.

pub mod ast;
pub mod lexer;
mod parser;
pub mod printer;
mod token;

pub use ast::*;
pub use blazar_diagnostics::{Diagnostic, FileId, Span};
/// Words that can never be names (block words, loop control): what an editor's grammar
/// must highlight as keywords.
pub use parser::RESERVED;

/// Parses one source file.
pub fn parse(text: &str, file: FileId) -> (Program, Vec<Diagnostic>) {
    parser::parse_program(text, file)
}
