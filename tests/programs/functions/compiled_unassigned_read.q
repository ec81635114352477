% A host function that may read a variable before anything is assigned to it stays on
% the interpreter (a kernel's variables start at 0): the call that reads it reports the
% read, on every host tier, instead of computing with a 0.
% ==
% stdout {
% 6
% }
% error: compiled_unassigned_read\.q:15:13: error: variable `t` is used before it is assigned
function y = f(x)
    for k = 0..x
        if k > 2
            t = k
        end
    end
    y = x + t
end
print f(3)
print f(1)
