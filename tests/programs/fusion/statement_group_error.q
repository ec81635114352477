% An error inside a fused statement group names the statement that failed, as when
% the statements run one by one.
% ==
% options { --fuse-min 0 }
% error: statement_group_error\.q:8:5: error: cannot combine arrays of size \[40,30\] and \[30,40\]
x = ones(40, 30)
y = x .* 2
t = y + ones(30, 40)
e = sum(t)
print e
