% The Mandelbrot set computed by a kernel (one thread per pixel) and saved as a PNG.
% The smooth colouring uses the normalised iteration count.

function [] = __kernel__ mandelbrot(img : mat, scale : scalar, centre : cscalar, iters : int, pos : ivec2)
    p = (float(pos) - 0.5 * size(img, 0..1)) / size(img, 0)
    c = centre + scale * complex(p[1], p[0])
    z = 0i
    n = 0
    while n < iters && abs(z) <= 4
        z = z * z + c
        n += 1
    end
    if n < iters
        img[pos] = n + 1 - log2(log(abs(z)))
    else
        img[pos] = 0
    end
end

img = zeros(360, 480)
tic()
parallel_do(size(img), img, 3.0, -0.6 + 0i, 200, mandelbrot)
toc("mandelbrot kernel")
inside = sum(img == 0)
print "pixels inside the set: ", inside, " of ", numel(img)
imwrite("mandelbrot.png", 255 * sqrt(img / max(img)))
print "wrote mandelbrot.png"
