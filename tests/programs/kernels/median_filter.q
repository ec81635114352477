% A brute-force median filter with per-thread dynamic memory: `r = zeros(...)` inside
% the kernel holds the window, and a __device__ function sorts it and returns the
% middle value. Windows of 3x3 and 5x5, against a host median with a 'safe view.
% ==
% stdout {
% 1
% 1
% 0 18
% }
function y = __device__ median(x : vec)
    n = numel(x)
    for i = 1..n - 1
        v = x[i]
        j = i - 1
        while j >= 0 && x[j] > v
            x[j + 1] = x[j]
            j -= 1
        endwhile
        x[j + 1] = v
    endfor
    y = x[int((n - 1) / 2)]
endfunction

function [] = __kernel__ median_filter(x : mat, y : mat, W : int, pos : ivec2)
    r = zeros((2 * W + 1)^2)
    k = 0
    for m = -W..W
        for n = -W..W
            r[k] = x[pos + [m, n]]
            k += 1
        endfor
    endfor
    y[pos] = median(r)
endfunction

function y = host_median(x, W)
    xs : mat'safe = x
    y = zeros(size(x))
    w = zeros((2 * W + 1)^2)
    for p = 0..size(x, 0) - 1
        for q = 0..size(x, 1) - 1
            k = 0
            for m = -W..W
                for n = -W..W
                    w[k] = xs[p + m, q + n]
                    k += 1
                end
            end
            % selection sort
            for i = 0..numel(w) - 2
                for j = i + 1..numel(w) - 1
                    if w[j] < w[i]
                        [w[i], w[j]] = [w[j], w[i]]
                    end
                end
            end
            y[p, q] = w[(numel(w) - 1) / 2]
        end
    end
end

x = zeros(12, 10)
for i = 0..11
    for j = 0..9
        x[i, j] = mod(i * 23 + j * 37 + i * j * 3, 50)
    end
end
y1 = zeros(size(x))
parallel_do(size(x), x, y1, 1, median_filter)
print sum(abs(y1 - host_median(x, 1))) == 0
y2 = zeros(size(x))
parallel_do(size(x), x, y2, 2, median_filter)
print sum(abs(y2 - host_median(x, 2))) == 0
print y2[0, 0], " ", y1[6, 5]
