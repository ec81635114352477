% A declared output type is checked when the function returns, not at each assignment:
% on the way the output may hold a value of another type (a cube where a mat is
% declared, a real where an int is), as long as what it holds at the end converts.
% ==
% stdout {
% [ [2,2],
%   [2,2] ]
% 12 int
% [1,0,0] 0 1
% }
function y : mat = channel_sum(x : mat)
    y = repmat(x, [1, 1, 2])
    y = y[:, :, 0] + y[:, :, 1]
end
function n : int = count_halves(k)
    n = k / 2
    n = n * 4
end
function v : vec'circular = ring()
    v = zeros(3)
    v[0] = 1
    v[-1] = 5
end
print channel_sum(ones(2, 2))
m = count_halves(6)
print m, " ", type(m)
r = ring()
print r, " ", r[4], " ", r[-3]
