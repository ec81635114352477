% An `if` without its `end` is reported at the end of the file, naming the line of the `if`.
% ==
% error: syntax_unclosed_block\.q:7:1: error: expected `end` to close `if` started at line 5
x = 1
if x > 0
    print x
