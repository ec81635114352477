% Loops that each thread of a block runs over a row, starting at its own position
% (`for c = t + k..step..w - 1`, `t = blkpos[1]`): on the native tier a loop whose
% start is the thread's position plus a value alike in every thread, and whose step
% and end are alike too, runs in the interleaved affine form without the run-time test
% of every thread's bounds (`codegen-c/cpp/known_affine.rs`); when the values do not
% allow that form (a negative step, a block of two rows of threads) the run-time search
% runs. Each case of `rowsum` reads the loop variable after the loop (its last value), runs an
% assignment before the loop that reads what it assigns (`k = k + 1`, once), and uses a
% width (37) that is not a multiple of the block's threads (8).
% ==
% stdout {
% [ [35025,36022,29013,30021,31015,32017,33016,34012],
%   [35027,36024,29019,30027,31010,32023,33022,34018],
%   [35018,36026,29025,30011,31027,32018,33017,34024],
%   [35031,36017,29009,30028,31011,32013,33023,34008],
%   [35033,36030,29026,30023,31017,32030,33029,34014],
%   [0,0,0,0,0,0,0,0] ]
% [ [5013,6021,7015,17,1017,2016,3025,4022],
%   [5019,6027,7010,30,1030,2018,3027,4024],
%   [5025,6011,7027,21,1021,2031,3018,4026],
%   [5009,6028,7011,23,1023,2011,3031,4017],
%   [5026,6023,7017,36,1036,2024,3033,4030],
%   [0,0,0,0,0,0,0,0] ]
% [ [33017,34016,35025,36022,29013,30021,31015,32017],
%   [33030,34018,35027,36024,29019,30027,31010,32023],
%   [33021,34031,35018,36026,29025,30011,31027,32018],
%   [33023,34011,35031,36017,29009,30028,31011,32013],
%   [33036,34024,35033,36030,29026,30023,31017,32030],
%   [33016,34026,35013,36021,29021,30007,31023,32014] ]
% [70,46,31,33]
% [154,104,82,92]
% }
function [] = __kernel__ rowsum(x : mat, out : mat, off : int, step : int, e : int, _
                                pos : ivec2, blkpos : ivec2, blkdim : ivec2)
    t = blkpos[1]
    nt = blkdim[1]
    r = pos[0]
    k = off
    syncthreads
    k = k + 1
    acc = 0.0
    for c = t + k..step * nt..e
        acc = acc + x[r, c]
    endfor
    out[r, t] = acc + c * 1000
endfunction

function [] = __kernel__ colcount(x : mat, h : vec, pos : ivec2, blkpos : ivec2, blkdim : ivec2)
    bins = shared(4)
    t = blkpos[1]
    nt = blkdim[1]
    if t < 4 && blkpos[0] == 0
        bins[t] = 0.0
    endif
    syncthreads
    for c = 1 + t..nt..size(x, 1) - 1
        bins[mod(int(x[pos[0], c]), 4)] += 1
    endfor
    syncthreads
    if t < 4
        h[t] += bins[t]
    endif
endfunction

x = zeros(6, 37)
for i = 0..5
    for j = 0..36
        x[i, j] = mod(i * 7 + j * j, 11)
    endfor
endfor
out = zeros(6, 8)
parallel_do([[5, 8], [1, 8]], x, out, 2, 1, 36, rowsum)
print out
out = zeros(6, 8)
parallel_do([[5, 8], [1, 8]], x, out, 28, -1, 0, rowsum)
print out
out = zeros(6, 8)
parallel_do([[6, 8], [2, 8]], x, out, 0, 1, 36, rowsum)
print out
h = zeros(4)
parallel_do([[5, 8], [1, 8]], x, h, colcount)
print h
h = zeros(4)
parallel_do([[6, 4], [2, 4]], x, h, colcount)
print h
