% bytes: 402653184
% bound: compute
% Gamma correction of a 4096x4096x3 image with values 0..255, out of place: one read
% and one write of 4 bytes per element. pos = [row, column, channel]; the channel is
% the fastest-varying index in memory and the last index of pos (threadIdx.x), so
% neighbouring threads touch neighbouring floats.
%
% Bound by instruction issue, not memory, on an H100: the accurate powf is about 100
% SASS instructions per element (as in the CUDA C reference), so the 50.3 million
% elements take 157 million warp instructions, at least 0.150 ms at one instruction per
% clock on each of the 528 schedulers (1.98 GHz), while their 402 MB move in 0.134 ms
% at the measured copy bandwidth. The fastest hand-written variant measured (float4
% loads, 4 elements per thread) takes 0.165 ms (benches/experiments/memory_bound.cu).

% A synthetic image: integer intensities 0..255 computed from the position.
function [] = __kernel__ make_image(x : cube'unchecked, pos : ivec3)
    i = pos[0]
    j = pos[1]
    x[pos] = mod(i * 37 + j * 11 + pos[2] * 71 + i * j, 256)
endfunction

function [] = __kernel__ gamma_correct(x : cube'unchecked, y : cube'unchecked, g : scalar, pos : ivec3)
    y[pos] = 255 * (x[pos] * (1.0 / 255))^g
endfunction

reps = 30
x = zeros(4096, 4096, 3)
parallel_do(size(x), x, make_image)
y = zeros(size(x))
g = 0.45

% Warm-up: the first launch specialises and compiles the kernel.
parallel_do(size(y), x, y, g, gamma_correct)
for r = 1..reps
    tic()
    parallel_do(size(y), x, y, g, gamma_correct)
    toc("rep")
endfor
print "checksum: ", sum(y)
