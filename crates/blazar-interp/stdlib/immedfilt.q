% immedfilt.q: Blazar's bundled median-filter module.
%
% immedfilt(x, r) replaces every pixel of every slice x[:, :, k] of a mat or cube by the
% median of its (2r+1) x (2r+1) window. Outside its borders x is read 'clamped (the
% nearest border pixel, as MATLAB's medfilt2 with "symmetric" would for r = 1; medfilt2's
% default pads with zeros, which darkens the borders, so Blazar does not). The window has
% an odd number of pixels, so the median is its middle value. Each thread counts, for
% every pixel of its window, how many are smaller and equal, so no per-thread sorting
% memory is needed; meant for small radii (r <= 3).

function [] = __kernel__ immedfilt_kernel(x : cube'clamped, r : int, y : cube'unchecked, _
        pos : ivec3)
    half = 2 * r * r + 2 * r
    med = x[pos]
    for a0 = -r..r
        for a1 = -r..r
            v = x[pos[0] + a0, pos[1] + a1, pos[2]]
            less = 0
            same = 0
            for b0 = -r..r
                for b1 = -r..r
                    u = x[pos[0] + b0, pos[1] + b1, pos[2]]
                    if u < v
                        less += 1
                    elseif u == v
                        same += 1
                    end
                end
            end
            if less <= half && half < less + same
                med = v
            end
        end
    end
    y[pos] = med
end

function y = immedfilt(x, r)
    if ndims(x) == 1
        % a vec as a 1 x N mat: kernels then read its rows through the access modifier
        % of a mat (a promoted vec's boundary reads are not per dimension yet)
        x = [x]
    end
    if r < 0
        error("immedfilt: the radius must not be negative")
    end
    y = zeros(size(x))
    parallel_do([size(x, 0), size(x, 1), size(x, 2)], x, int(r), y, immedfilt_kernel)
end
