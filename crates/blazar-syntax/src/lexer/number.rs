//! Lexing of numeric literals: integers, reals, imaginary (`3j`) and binary (`1011b`).

use super::{is_ident_continue, is_ident_start, Lexer};
use crate::token::Tok;

impl Lexer<'_> {
    /// Reads a number starting at `lo` (a digit, or `.` followed by a digit).
    pub(super) fn number(&mut self, lo: usize) {
        let bytes = self.src.as_bytes();
        let at = |i: usize| bytes.get(i).copied().unwrap_or(0);
        let digits = |mut i: usize| {
            while at(i).is_ascii_digit() {
                i += 1;
            }
            i
        };
        let mut p = lo;
        let mut real = false;
        if at(p) == b'.' {
            real = true;
            p = digits(p + 1);
        } else {
            p = digits(p);
            if at(p) == b'.' && dot_is_fraction(at(p + 1), at(p + 2), at(p + 3)) {
                real = true;
                p = digits(p + 1);
            }
        }
        if matches!(at(p), b'e' | b'E')
            && (at(p + 1).is_ascii_digit()
                || (matches!(at(p + 1), b'+' | b'-') && at(p + 2).is_ascii_digit()))
        {
            real = true;
            p = digits(p + 2);
        }
        // Everything up to `p` is ASCII, so these slices are on char boundaries.
        let text = &self.src[lo..p];
        let suffix = at(p);
        let suffix_alone = !is_ident_continue(at(p + 1) as char);
        self.pos = p;
        if matches!(suffix, b'i' | b'j') && suffix_alone {
            self.pos += 1;
            let v = text.parse::<f64>().unwrap_or(f64::NAN);
            self.push(Tok::Imag(v), lo);
        } else if suffix == b'b'
            && suffix_alone
            && !real
            && text.bytes().all(|b| b == b'0' || b == b'1')
        {
            self.pos += 1;
            match i64::from_str_radix(text, 2) {
                Ok(v) => self.push(Tok::Int(v), lo),
                Err(_) => {
                    self.error(lo, self.pos, "binary literal too large");
                    self.push(Tok::Int(0), lo);
                }
            }
        } else if real {
            let v = text.parse::<f64>().unwrap_or(f64::NAN);
            self.push(Tok::Real(v), lo);
        } else {
            match text.parse::<i64>() {
                Ok(v) => self.push(Tok::Int(v), lo),
                // Too large for an integer: keep it as a real number.
                Err(_) => self.push(Tok::Real(text.parse::<f64>().unwrap_or(f64::INFINITY)), lo),
            }
        }
    }
}

/// After `5.`: whether the dot belongs to the number (`5.`, `5.5`, `5.e3`) rather than
/// to a following operator (`1..n`, `5.*x`) or field access.
fn dot_is_fraction(next: u8, next2: u8, next3: u8) -> bool {
    if next.is_ascii_digit() {
        return true;
    }
    if matches!(next, b'.' | b'*' | b'/' | b'^' | b'\'') {
        return false;
    }
    if is_ident_start(next as char) {
        return matches!(next, b'e' | b'E')
            && (next2.is_ascii_digit()
                || (matches!(next2, b'+' | b'-') && next3.is_ascii_digit()));
    }
    true
}
