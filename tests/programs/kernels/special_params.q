% The special kernel parameters pos, blkpos, blkdim, blkidx, blkcnt and warpsize in
% 1-, 2- and 3-d launches with explicit blocks: every thread checks
% pos == blkidx .* blkdim + blkpos and records its block and thread coordinates.
% ==
% stdout {
% 1
% 1
% 1
% 1
% }
function [] = __kernel__ coords2(out : mat, pos : ivec2, blkpos : ivec2, blkdim : ivec2, blkidx : ivec2, blkcnt : ivec2)
    p = blkidx .* blkdim + blkpos
    ok = p[0] == pos[0] && p[1] == pos[1] && blkcnt[0] == 2 && blkcnt[1] == 2 && blkdim[0] == 3 && blkdim[1] == 4
    out[pos] = ok ? 1000 * blkidx[0] + 100 * blkidx[1] + 10 * blkpos[0] + blkpos[1] : -1
endfunction
out = zeros(6, 8)
parallel_do([[6, 8], [3, 4]], out, coords2)
ok = 1
for r = 0..5
    for c = 0..7
        ok = ok && out[r, c] == 1000 * floor(r / 3) + 100 * floor(c / 4) + 10 * mod(r, 3) + mod(c, 4)
    end
end
print ok

function [] = __kernel__ coords1(out : vec, pos : int, blkpos : int, blkdim : int, blkidx : int, blkcnt : int)
    out[pos] = pos == blkidx * blkdim + blkpos && blkcnt == 3 ? 100 * blkidx + blkpos : -1
endfunction
v = zeros(12)
parallel_do([[12], [4]], v, coords1)
ok = 1
for i = 0..11
    ok = ok && v[i] == 100 * floor(i / 4) + mod(i, 4)
end
print ok

function [] = __kernel__ coords3(out : cube, pos : ivec3, blkpos : ivec3, blkdim : ivec3, blkidx : ivec3, blkcnt : ivec3)
    good = sum(blkidx .* blkdim + blkpos == pos) == 3 && sum(blkcnt == [2, 1, 3]) == 3
    out[pos] = good ? 100 * blkidx[0] + 10 * blkidx[1] + blkidx[2] : -1
endfunction
C = zeros(4, 3, 6)
parallel_do([[4, 3, 6], [2, 3, 2]], C, coords3)
ok = 1
for i = 0..3
    for j = 0..2
        for k = 0..5
            ok = ok && C[i, j, k] == 100 * floor(i / 2) + floor(k / 2)
        end
    end
end
print ok

function n : int = __kernel__ warp_count(warpsize : int, pos : int)
    if mod(pos, warpsize) == 0
        n += 1
    endif
endfunction
print parallel_do(256, warp_count) == 256 / 32
