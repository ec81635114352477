% A gather that fails inside a fused statement group: its statement is materialised
% where it stands, so the error names it.
% ==
% options { --fuse-min 0 }
% error: statement_group_gather\.q:9:5: error: (linear )?index 5000 is out of bounds
x = ones(40, 30)
idx = int(x) * 5000
y = x .* 2
t = x[idx] + y
e = sum(t)
print e
