% An int literal vector passed where a vec is expected is converted to scalars.
% ==
% stdout {
% vec
% [0.5,1,1.5]
% 2
% }
function y = halves(v : vec)
    y = v / 2
end
function t = vtype(v : vec)
    t = type(v)
end
print vtype([1, 2, 3])
print halves([1, 2, 3])
x : vec = [4, 5]
print x[0] / 2
