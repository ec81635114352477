//! When is an input complete? The session reads more lines while a block (`function`,
//! `for`, `if`, `while`, `repeat`, `match`, a class `type`) or a bracket is still open:
//! the parser then reports an error at the end of the text ("... found end of file").

use blazar_diagnostics::FileId;

/// Whether `text` is a statement list that stops in the middle: an open block or
/// bracket, or a line ending in the continuation mark `_`.
pub fn needs_more(text: &str) -> bool {
    let trimmed = text.trim_end();
    if trimmed.is_empty() {
        return false;
    }
    if trimmed.ends_with(" _") || trimmed == "_" {
        return true;
    }
    let (_, diags) = blazar_syntax::parse(text, FileId(0));
    diags
        .iter()
        .any(|d| d.message.contains("found end of file"))
}

#[cfg(test)]
mod tests {
    use super::needs_more;

    #[test]
    fn open_blocks_and_brackets_continue() {
        assert!(needs_more("function y = f(x)\n"));
        assert!(needs_more("function y = f(x)\n  y = 2*x\n"));
        assert!(!needs_more("function y = f(x)\n  y = 2*x\nend\n"));
        assert!(needs_more("for i = 0..3\n"));
        assert!(needs_more("if x > 0\n  print 1\nelse\n"));
        assert!(needs_more("a = [1, 2,\n"));
        assert!(needs_more("x = f(1,\n"));
        assert!(!needs_more("a = [1, 2, 3]\n"));
        assert!(!needs_more("\n"));
    }

    #[test]
    fn other_errors_do_not_wait() {
        assert!(!needs_more("x = )\n"));
        assert!(!needs_more("end\n"));
    }
}
