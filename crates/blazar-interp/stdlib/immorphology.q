% immorphology.q: Blazar's bundled grey-level morphology module.
%
% Each function works on every slice x[:, :, k] of a mat or cube with a structuring
% element given as a mat `mask` (its nonzero entries are the element) and the mask's
% origin `origin` (0-based [row, column], an ivec2 or a vec; ceil(size(mask) / 2) - 1
% is the centre of an odd mask).
%   imerode(x, mask, origin):  y[p] = min over mask[m] != 0 of x[p + (m - origin)]
%   imdilate(x, mask, origin): y[p] = max over mask[m] != 0 of x[p - (m - origin)]
%   imopen(x, mask, origin)  = imdilate(imerode(x, mask, origin), mask, origin)
%   imclose(x, mask, origin) = imerode(imdilate(x, mask, origin), mask, origin)
% As in MATLAB, dilation uses the reflected element (so imopen never increases a value
% and imclose never decreases one), and pixels outside the image are left out of the
% min or max (erosion pads with +inf, dilation with -inf). A pixel whose window holds no
% pixel of the image keeps its value.

function [] = __kernel__ imerode_kernel(x : cube'unchecked, mask : mat'unchecked, _
        c0 : int, c1 : int, y : cube'unchecked, pos : ivec3)
    best = x[pos]
    found = false
    for m = 0..size(mask, 0) - 1
        for n = 0..size(mask, 1) - 1
            i = pos[0] + m - c0
            j = pos[1] + n - c1
            if mask[m, n] != 0 && i >= 0 && i < size(x, 0) && j >= 0 && j < size(x, 1)
                v = x[i, j, pos[2]]
                if !found || v < best
                    best = v
                    found = true
                end
            end
        end
    end
    y[pos] = best
end

function [] = __kernel__ imdilate_kernel(x : cube'unchecked, mask : mat'unchecked, _
        c0 : int, c1 : int, y : cube'unchecked, pos : ivec3)
    best = x[pos]
    found = false
    for m = 0..size(mask, 0) - 1
        for n = 0..size(mask, 1) - 1
            i = pos[0] - m + c0
            j = pos[1] - n + c1
            if mask[m, n] != 0 && i >= 0 && i < size(x, 0) && j >= 0 && j < size(x, 1)
                v = x[i, j, pos[2]]
                if !found || v > best
                    best = v
                    found = true
                end
            end
        end
    end
    y[pos] = best
end

% imerode(x, mask, origin)
%
% Grey-level erosion: each pixel becomes the minimum of x over the nonzero entries of
% the structuring element mask placed at its origin (0-based [row, column]); pixels
% outside the image are left out.
%
% Example:
%     x = [[5, 5, 5], [5, 1, 5], [5, 5, 5]]
%     print imerode(x, ones(3, 3), [1, 1])
% Output:
%     [ [1,1,1],
%       [1,1,1],
%       [1,1,1] ]
function y = imerode(x, mask, origin)
    if numel(origin) != 2
        error("imerode: the origin must be [row, column]")
    end
    y = zeros(size(x))
    dims = [size(x, 0), size(x, 1), size(x, 2)]
    parallel_do(dims, x, mask, int(origin[0]), int(origin[1]), y, imerode_kernel)
end

% imdilate(x, mask, origin)
%
% Grey-level dilation: each pixel becomes the maximum of x over the reflected
% structuring element mask (nonzero entries) placed at its origin.
%
% Example:
%     x = [[0, 0, 0], [0, 9, 0], [0, 0, 0]]
%     print imdilate(x, ones(3, 3), [1, 1])
% Output:
%     [ [9,9,9],
%       [9,9,9],
%       [9,9,9] ]
function y = imdilate(x, mask, origin)
    if numel(origin) != 2
        error("imdilate: the origin must be [row, column]")
    end
    y = zeros(size(x))
    dims = [size(x, 0), size(x, 1), size(x, 2)]
    parallel_do(dims, x, mask, int(origin[0]), int(origin[1]), y, imdilate_kernel)
end

% imopen(x, mask, origin)
%
% Morphological opening, `imdilate(imerode(x, mask, origin), mask, origin)`: removes
% bright details smaller than the element; never increases a value.
%
% Example:
%     x = [[0, 0, 0, 0], [0, 9, 0, 0], [0, 0, 0, 0]]
%     print max(imopen(x, ones(2, 2), [0, 0]))
% Output:
%     0
function y = imopen(x, mask, origin)
    y = imdilate(imerode(x, mask, origin), mask, origin)
end

% imclose(x, mask, origin)
%
% Morphological closing, `imerode(imdilate(x, mask, origin), mask, origin)`: fills dark
% details smaller than the element; never decreases a value.
%
% Example:
%     x = [[9, 9, 9], [9, 0, 9], [9, 9, 9]]
%     print imclose(x, ones(2, 2), [0, 0])[1, 1]
% Output:
%     9
function y = imclose(x, mask, origin)
    y = imerode(imdilate(x, mask, origin), mask, origin)
end
