% Two int types of different kinds compute in the type the host gives them (their own
% type when equal, int64 when either is 64 bits wide, else int32) in kernels, in loops
% that become kernels and on the host alike (issue 32, item 3).
% ==
% stdout {
% -5 -5 -5
% -5000 -4999 -1
% [-5,-5,-5] vec[int64]
% }
function [] = __kernel__ k(y : vec[int64], pos : int)
    y[pos] = uint16(0) - int8(5)
end
y = int64(zeros(3))
parallel_do(3, y, k)
print y[0], " ", int(uint16(0) - int8(5)), " ", uint16(0) - int8(5)
z = int64(zeros(5000))
for p = 0..4999
    z[p] = uint64(p) - 5000
end
print z[0], " ", z[1], " ", z[4999]
w = int64(zeros(3))
for p = 0..2
    w[p] = uint8(p) * 0 + (uint16(0) - int8(5))
end
print w, " ", type(w)
