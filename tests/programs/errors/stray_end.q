% An `end` that follows a statement, not another `end`, closes nothing and is an error
% (a block's opening word is missing).
% ==
% error: (?s)stray_end\.q:9:1: error: unexpected `end`
if 1 > 0
    print 1
end
x = 2
end
