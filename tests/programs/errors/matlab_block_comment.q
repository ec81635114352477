% MATLAB's block comment `%{ ... %}` is not one in Quasar: a warning at the `%{`, with
% the `%}` as a note, comes before the error the commented-out text gives.
% ==
% error: (?s)matlab_block_comment\.q:6:1: warning: `%\{ \.\.\. %\}` is MATLAB's block comment; in Quasar `%` comments out one line, so the lines up to `%\}` are code: start each of them with `%`.*matlab_block_comment\.q:9:1: note: the block was meant to end here.*matlab_block_comment\.q:7:6: error: expected end of statement, found `is`
x = 1
%{
this is not a comment
in Quasar
%}
print x
