% Complex numbers print as re+imi / re-imi, also inside vectors.
% ==
% stdout {
% 5+5i
% 1-2i
% 0+1i
% 2.5-0.5i
% [1+1i,0-3i]
% }
print 5 + 5i
print 1 - 2i
print 1i
print 2.5 - 0.5i
print [1 + 1i, -3i]
