% Shared by the programs of benches/multi: images made on the device from integer
% formulas of the position (nothing is uploaded), a denoiser (a 5x5 bilateral filter:
% compute-bound) and a smoother (a 3x3 box blur and an element-wise step: memory-bound).

% x[i, j] = mod(a*i + b*j + 7*t + i*j, 256)
function [] = __kernel__ fill(x : mat'unchecked, a : int, b : int, t : int, pos : ivec2)
    i = pos[0]
    j = pos[1]
    x[pos] = mod(a * i + b * j + 7 * t + i * j, 256)
endfunction

function x = make(M, N, a, b, t)
    x = uninit(M, N)
    parallel_do(size(x), x, a, b, t, fill)
endfunction

% y = the mean of the 3x3 neighbourhood of x (clamped at the borders)
function [] = __kernel__ blur3(x : mat'clamped, y : mat'unchecked, pos : ivec2)
    s = 0.0
    for di = -1..1
        for dj = -1..1
            s += x[pos[0] + di, pos[1] + dj]
        endfor
    endfor
    y[pos] = s / 9
endfunction

% Four rounds of a blur pulled back towards the input: an element-wise step and a
% 3x3 stencil per round.
function u = smooth(x)
    y = uninit(size(x))
    u = x
    for k = 1..4
        parallel_do(size(u), u, y, blur3)
        u = 0.75 * y + 0.25 * x
    endfor
endfunction

% y = a 5x5 bilateral filter of x: neighbours weighted by distance and by likeness
function [] = __kernel__ bilateral5(x : mat'clamped, y : mat'unchecked, sr : scalar, pos : ivec2)
    c = x[pos[0], pos[1]]
    s = 0.0
    w = 0.0
    for di = -2..2
        for dj = -2..2
            v = x[pos[0] + di, pos[1] + dj]
            d = v - c
            k = exp(-(di * di + dj * dj) * 0.125 - d * d / sr)
            s += k * v
            w += k
        endfor
    endfor
    y[pos] = s / w
endfunction

% Two rounds of the bilateral filter, each pulled back towards the input.
function u = denoise(x)
    y = uninit(size(x))
    u = x
    for k = 1..2
        parallel_do(size(u), u, y, 400.0, bilateral5)
        u = 0.8 * y + 0.2 * x
    endfor
endfunction
