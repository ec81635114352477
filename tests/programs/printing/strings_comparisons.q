% Strings print raw (no quotes); comparisons print 0/1, also element-wise.
% ==
% stdout {
% it's raw
% 1
% 0
% [1,0,1]
% ok
% }
print "it's raw"
print 2 > 1
print 2 == 1
print [1, 2, 3] != 2
print 'ok'
