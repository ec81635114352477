% `min` and `max` of all elements over sizes around the CPU strip's 64 lanes, with NaNs
% at the first element, at a lane boundary and at the end, and the extreme values in
% one lane only: the C++ tier's lane accumulators take a value only when it is smaller
% or larger (they start at +-Inf and never hold a NaN), which gives the interpreter's
% results. Ints and doubles too.
% ==
% options { --fuse-min 0 }
% stdout {
% 63: 50 -50 50 -48 50 -50
% 64: 50 -50 50 -48 50 -50
% 65: 50 -50 50 -48 50 -50
% 200: 50 -50 99 -77 50 -50
% 4099: 50 -50 99 -77 50 -50
% 99 -77 -Inf Inf
% }
nan = 0 / 0
for n = [63, 64, 65, 200, 4099]
    x = zeros(n)
    for i = 0..n-1
        x[i] = mod(i * 37, 101) - 50
    endfor
    y = copy(x)
    y[0] = nan
    y[63] = nan
    y[n - 1] = nan
    if n > 130
        y[130] = 99
        y[129] = -77
    endif
    print n, ": ", max(x), " ", min(x), " ", max(y), " ", min(y), " ", max(int32(x)), " ", min(double(x))
endfor
d = double(zeros(1000)) + nan
d[999] = 99
d[0] = -77
e = zeros(200) - 1 / 0
e[100] = nan
print max(d), " ", min(d), " ", max(e), " ", min(-e)
