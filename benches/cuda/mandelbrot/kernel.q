% bytes: 67108864
% bound: compute
% Mandelbrot set on a 4096x4096 grid covering [-2, 1] x [-1.5, 1.5]: complex
% arithmetic and at most 256 iterations per pixel; the image holds iteration counts.

function [] = __kernel__ mandelbrot(im : mat'unchecked, s : scalar, t : cscalar, max_it : int, pos : ivec2)
    p = (float(pos) ./ size(im, 0..1)) - 0.5
    c = t + s * complex(p[1], p[0])
    z = 0i
    n = 0
    while n < max_it && abs(z) <= 2.0
        z = z * z + c
        n += 1
    endwhile
    im[pos] = n
endfunction

reps = 30
im = zeros(4096, 4096)
center = complex(-0.5, 0)

parallel_do(size(im), im, 3.0, center, 256, mandelbrot)
for r = 1..reps
    tic()
    parallel_do(size(im), im, 3.0, center, 256, mandelbrot)
    toc("rep")
endfor
print "checksum: ", sum(im)
