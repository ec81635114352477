% A `for` that lost its `end` inside a function: the `end` written lines up with the
% `function`, so the error is at the `for`, with the end of the file as a note.
% ==
% error: (?s)syntax_unclosed_inner_block\.q:7:5: error: this `for` \(line 7\) has no `end`: the `end` on line 9 is indented as the `function` of line 5, which it closes instead.*syntax_unclosed_inner_block\.q:12:1: note: end of file is reached here, and the `function` is still open
function total = add_all(x)
    total = 0
    for i = 0..numel(x) - 1
        total += x[i]
end

print add_all([1, 2, 3])
