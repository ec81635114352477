% Updates at data-dependent indices (`hist[v] += 1`) run as atomic additions; with
% `!parallel for` (or `#pragma force_parallel`) a loop runs in parallel at any size and
% plain writes the analysis cannot prove distinct are taken on the user's word.
% ==
% stdout {
% hist: 1 65536 [4096,4096,4096,4096,4096,4096,4096,4096,4096,4096,4096,4096,4096,4096,4096,4096]
% weighted: 1 2147450880
% small: [2,2,1]
% perm: 1 4095 0
% }
function r = same(a, b)
    r = sum(a == b) == numel(a)
end
img = zeros(256, 256)
for y = 0..255
    for x = 0..255
        img[y, x] = mod(y * 7 + x * 3, 16)
    end
end
hist = zeros(16)
for y = 0..255
    for x = 0..255
        hist[int(img[y, x])] += 1
    end
end
hs = zeros(16)
#pragma force_serial
for y = 0..255
    for x = 0..255
        hs[int(img[y, x])] += 1
    end
end
print "hist: ", same(hist, hs), " ", sum(hist), " ", hist

% Weighted bins with `-=` and `+=` mixed, int bins.
wb = vec[int](8)
for y = 0..255
    for x = 0..255
        b = mod(x, 8)
        wb[b] += y * 256 + x
        wb[b] -= 0
    end
end
wbs = vec[int](8)
#pragma force_serial
for y = 0..255
    for x = 0..255
        b = mod(x, 8)
        wbs[b] += y * 256 + x
        wbs[b] -= 0
    end
end
print "weighted: ", same(wb, wbs), " ", sum(wb)

% Forced: three iterations still run as a kernel.
small = zeros(3)
idx = [0, 1, 0, 1, 2]
!parallel for
for i = 0..4
    small[idx[i]] += 1
end
print "small: ", small

% Forced: a permutation written through an index array (distinct, but not provable).
perm = zeros(4096)
dest = zeros(4096)
for i = 0..4095
    perm[i] = 4095 - i
end
#pragma force_parallel
for i = 0..4095
    dest[int(perm[i])] = i
end
print "perm: ", same(dest, 4095 - (0..4095)), " ", dest[0], " ", dest[4095]
