% Mandelbrot iteration counts: complex arithmetic, a for loop left with break, a float
% position vector; compared pixel by pixel with the same iteration in host code.
% ==
% options { --double }
% stdout {
% 1
% 25 13 14
% 7165
% }
function [] = __kernel__ mandelbrot(im : mat'unchecked, s : scalar, t : cscalar, num_it : int, pos : ivec2)
    p = (float(pos) ./ size(im, 0..1)) - 0.5
    c = t + s * complex(p[1], p[0])
    z = 0i
    count = 0
    for n = 1..num_it
        if abs(z) > 2.0
            break
        endif
        z = z * z + c
        count = n
    endfor
    im[pos] = count
endfunction

[M, N] = [24, 32]
num_it = 32
im = zeros(M, N)
parallel_do(size(im), im, 3.0, complex(-0.5, 0), num_it, mandelbrot)

expected = zeros(M, N)
for r = 0..M - 1
    for q = 0..N - 1
        c = complex(-0.5 + 3.0 * (q / N - 0.5), 3.0 * (r / M - 0.5))
        z = 0i
        count = 0
        n = 1
        while n <= num_it && abs(z) <= 2.0
            z = z * z + c
            count = n
            n += 1
        end
        expected[r, q] = count
    end
end
print sum(abs(im - expected)) == 0
print im[7, 15], " ", im[4, 20], " ", im[9, 8]
print sum(im)
