% immedfilt.q: Blazar's bundled median-filter module.
%
% immedfilt(x, r) replaces every pixel of every slice x[:, :, k] of a mat or cube by the
% median of its (2r+1) x (2r+1) window. Outside its borders x is read 'clamped (the
% nearest border pixel, as MATLAB's medfilt2 with "symmetric" would for r = 1; medfilt2's
% default pads with zeros, which darkens the borders, so Blazar does not). The window has
% an odd number of pixels, so the median is its middle value. Each thread counts, for
% every pixel of its window, how many are smaller and equal, so no per-thread sorting
% memory is needed; meant for small radii (r <= 3). Radius 1 uses a sorting network.

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

% Radius 1: the median of the 9 values by a network of 19 compare-exchanges (the
% smaller value to the first name, the larger to the second; Devillard's median-of-9
% network), each value read once.
function [] = __kernel__ immedfilt3_kernel(x : cube'clamped, y : cube'unchecked, pos : ivec3)
    i = pos[0]
    j = pos[1]
    k = pos[2]
    p0 = x[i - 1, j - 1, k]
    p1 = x[i - 1, j, k]
    p2 = x[i - 1, j + 1, k]
    p3 = x[i, j - 1, k]
    p4 = x[i, j, k]
    p5 = x[i, j + 1, k]
    p6 = x[i + 1, j - 1, k]
    p7 = x[i + 1, j, k]
    p8 = x[i + 1, j + 1, k]
    t = min(p1, p2)
    p2 = max(p1, p2)
    p1 = t
    t = min(p4, p5)
    p5 = max(p4, p5)
    p4 = t
    t = min(p7, p8)
    p8 = max(p7, p8)
    p7 = t
    t = min(p0, p1)
    p1 = max(p0, p1)
    p0 = t
    t = min(p3, p4)
    p4 = max(p3, p4)
    p3 = t
    t = min(p6, p7)
    p7 = max(p6, p7)
    p6 = t
    t = min(p1, p2)
    p2 = max(p1, p2)
    p1 = t
    t = min(p4, p5)
    p5 = max(p4, p5)
    p4 = t
    t = min(p7, p8)
    p8 = max(p7, p8)
    p7 = t
    t = min(p0, p3)
    p3 = max(p0, p3)
    p0 = t
    t = min(p5, p8)
    p8 = max(p5, p8)
    p5 = t
    t = min(p4, p7)
    p7 = max(p4, p7)
    p4 = t
    t = min(p3, p6)
    p6 = max(p3, p6)
    p3 = t
    t = min(p1, p4)
    p4 = max(p1, p4)
    p1 = t
    t = min(p2, p5)
    p5 = max(p2, p5)
    p2 = t
    t = min(p4, p7)
    p7 = max(p4, p7)
    p4 = t
    t = min(p4, p2)
    p2 = max(p4, p2)
    p4 = t
    t = min(p6, p4)
    p4 = max(p6, p4)
    p6 = t
    t = min(p4, p2)
    p2 = max(p4, p2)
    p4 = t
    y[pos] = p4
end

% immedfilt(x, r)
%
% Replaces every pixel of every slice of x by the median of its (2r+1)×(2r+1) window,
% reading clamped outside the borders (MATLAB's medfilt2 pads with zeros instead). Meant
% for small radii (r up to 3).
%
% Example:
%     x = [[1, 1, 1], [1, 100, 1], [1, 1, 1]]
%     print immedfilt(x, 1)
% Output:
%     [ [1,1,1],
%       [1,1,1],
%       [1,1,1] ]
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
    if r == 1
        parallel_do([size(x, 0), size(x, 1), size(x, 2)], x, y, immedfilt3_kernel)
    else
        parallel_do([size(x, 0), size(x, 1), size(x, 2)], x, int(r), y, immedfilt_kernel)
    end
end
