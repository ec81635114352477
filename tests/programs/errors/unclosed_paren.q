% A `(` left open is reported at the `(`, with the token where the list ran on as a note.
% ==
% error: (?s)unclosed_paren\.q:4:8: error: this `\(` is never closed.*unclosed_paren\.q:6:1: note: expected `,` or `\)`, found `y`
x = max(1,
    2
y = 3
