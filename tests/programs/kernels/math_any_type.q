% Math builtins in kernels on ints, booleans and complex values mean what they mean in
% host code (each kernel result is printed next to the host's): ints stay ints for floor,
% ceil, round, abs, sign and periodize (never negative, also for a negative period);
% booleans are the ints 0 and 1; complex floor, ceil and round act on both parts,
% isnan/isinf/isfinite look at both parts, sign(z) is z / abs(z).
% ==
% stdout {
% [ [-2,-2,-2,0,0,2,-1,0,1,1,-1.5707964,1],
%   [0,0,0,0,0,0,0,0,0,0,0,1],
%   [3,3,3,0,0,3,1,0,0,0,1.5707964,1] ]
% [ [-2,-2,-2,0,0,2,-1,0,1,1,-1.5707964,1],
%   [0,0,0,0,0,0,0,0,0,0,0,1],
%   [3,3,3,0,0,3,1,0,0,0,1.5707964,1] ]
% [ [0,0,0,0,0,0,0,0,0,0,0,1],
%   [0,0,0,0,0,0,0,0,0,0,0,1],
%   [1,1,1,0,0,1,1,0,1,1,1.5707964,1] ]
% [ [0,0,0,0,0,0,0,0,0,0,0,1],
%   [0,0,0,0,0,0,0,0,0,0,0,1],
%   [1,1,1,0,0,1,1,0,1,1,1.5707964,1] ]
% [ [2-2i,3-1i,3-2i],
%   [-1+0i,0+1i,-1+1i],
%   [0+0i,0+0i,0+0i],
%   [3+4i,3+4i,3+4i] ]
% [ [0,0,1,2.9154758],
%   [0,0,1,0.70710677],
%   [0,0,1,0],
%   [0,0,1,5],
%   [1,0,0,NaN],
%   [0,1,0,Inf],
%   [0,1,0,Inf],
%   [0,0,1,2] ]
% [2-2i,3-1i,3-2i]
% [-1+0i,0+1i,-1+1i]
% [0+0i,0+0i,0+0i]
% [3+4i,3+4i,3+4i]
% [-0.70710677+0.70710677i,0+0i,0.6+0.8i,0-1i]
% [-0.70710677+0.70710677i,0+0i,0.6+0.8i,0-1i]
% [0,0,1,2.9154758]
% [0,0,1,0.70710677]
% [0,0,1,0]
% [0,0,1,5]
% [1,0,0,NaN]
% [0,1,0,Inf]
% [0,1,0,Inf]
% [0,0,1,2]
% }
function [] = __kernel__ on_ints(x : vec[int], y : mat, pos : int)
    v = x[pos]
    y[pos, 0] = floor(v)
    y[pos, 1] = ceil(v)
    y[pos, 2] = round(v)
    y[pos, 3] = isnan(v)
    y[pos, 4] = isinf(v)
    y[pos, 5] = abs(v)
    y[pos, 6] = sign(v)
    y[pos, 7] = frac(v)
    y[pos, 8] = periodize(v, 3)
    y[pos, 9] = periodize(v, -3)
    y[pos, 10] = atan2(v, 0)
    y[pos, 11] = isfinite(v)
end

function [] = __kernel__ on_bools(x : vec[int], y : mat, pos : int)
    b = x[pos] > 0
    y[pos, 0] = floor(b)
    y[pos, 1] = ceil(b)
    y[pos, 2] = round(b)
    y[pos, 3] = isnan(b)
    y[pos, 4] = isinf(b)
    y[pos, 5] = abs(b)
    y[pos, 6] = sign(b)
    y[pos, 7] = frac(b)
    y[pos, 8] = periodize(b, 2)
    y[pos, 9] = periodize(-b, 2)
    y[pos, 10] = atan2(b, false)
    y[pos, 11] = isfinite(b)
end

function [] = __kernel__ on_complex(z : cvec, w : mat, r : cmat, pos : int)
    v = z[pos]
    r[pos, 0] = floor(v)
    r[pos, 1] = ceil(v)
    r[pos, 2] = round(v)
    r[pos, 3] = sign(v)
    w[pos, 0] = isnan(v)
    w[pos, 1] = isinf(v)
    w[pos, 2] = isfinite(v)
    w[pos, 3] = abs(v)
end

x = [-2, 0, 3]
y = zeros(3, 12)
parallel_do(3, x, y, on_ints)
print y
h = zeros(3, 12)
for i = 0..2
    v = x[i]
    h[i, :] = [floor(v), ceil(v), round(v), isnan(v), isinf(v), abs(v), sign(v), frac(v), _
               periodize(v, 3), periodize(v, -3), atan2(v, 0), isfinite(v)]
end
print h
parallel_do(3, x, y, on_bools)
print y
for i = 0..2
    b = int(x[i] > 0)
    h[i, :] = [floor(b), ceil(b), round(b), isnan(b), isinf(b), abs(b), sign(b), frac(b), _
               periodize(b, 2), periodize(-b, 2), atan2(b, 0), isfinite(b)]
end
print h
z = [2.5-1.5i, -0.5+0.5i, 0i, 3+4i, complex(0/0, 1), complex(1/0, 2), complex(1, -1/0), -2i]
w = zeros(8, 4)
r = complex(zeros(8, 4))
parallel_do(8, z, w, r, on_complex)
print r[0..3, 0..2]
print w
for i = 0..3
    v = z[i]
    print [floor(v), ceil(v), round(v)]
end
% sign(z) = z / abs(z): compared where single precision gives the host's value.
print [r[1, 3], r[2, 3], r[3, 3], r[7, 3]]
print [sign(z[1]), sign(z[2]), sign(z[3]), sign(z[7])]
for i = 0..7
    v = z[i]
    print [isnan(v), isinf(v), isfinite(v), abs(v)]
end
