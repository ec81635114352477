% An `if` without its `end` is reported at the `if`, with a note where the file ends.
% ==
% error: (?s)syntax_unclosed_block\.q:5:1: error: expected `end` to close `if` started at line 5, found end of file.*syntax_unclosed_block\.q:7:1: note: end of file is reached here, and the `if` is still open
x = 1
if x > 0
    print x
