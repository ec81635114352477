% Statements end at newlines or `;`; a trailing `,` is tolerated; one-line blocks; endfunction.
% ==
% stdout {
% pos
% 0
% 1
% 
% 9
% 3
% }
x = 1,
if x > 0; print "pos"; end
for i = 0..1; print i; end
print
function y = sq(x)
    y = x * x
endfunction
print sq(3)
a = 1; b = 2; print a + b
