% Several syntax errors in one file are all reported, each at its location, and nothing else.
% ==
% error: (?s)syntax_several_errors\.q:4:9: error: .*syntax_several_errors\.q:6:5: error: .*syntax_several_errors\.q:8:7: error: .*blazar: 3 errors found
a = 3 * * 4
print a
c = ]
print c
g = 4 )
print g
