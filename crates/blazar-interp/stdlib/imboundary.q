% imboundary.q: Blazar's bundled image-boundary module: extending an image beyond its
% borders and taking the extension off again.
%
% y = imboundary_extend(x, pad, mode) gives every slice x[:, :, k] of a mat or cube a
% border: pad is [rows, columns] (the same on both sides; a scalar pads both by it) or
% [top, bottom, left, right], and the result is
%     y[i, j, k] = x(i - top, j - left, k)
% with x read outside its borders by Quasar's access modifiers (the kernels of this
% module read x through them): "mirror" (Quasar's mirror_ext: -1 reads 1, -2 reads 2,
% N reads N-1, N+1 reads N-2), "circular" (periodic: NumPy's pad mode "wrap"),
% "clamped" (the nearest border sample: "edge") or "zero" (zeros outside: "constant").
% x = imboundary_crop(y, pad) takes a border of that size off again.
% v = imboundary_read(x, i, j, mode) reads one sample (also outside) by the same rule.

function [] = __kernel__ imboundary_mirror(x : cube'mirror, y : cube'unchecked, _
        top : int, left : int, pos : ivec3)
    y[pos] = x[pos[0] - top, pos[1] - left, pos[2]]
end

function [] = __kernel__ imboundary_circular(x : cube'circular, y : cube'unchecked, _
        top : int, left : int, pos : ivec3)
    y[pos] = x[pos[0] - top, pos[1] - left, pos[2]]
end

function [] = __kernel__ imboundary_clamped(x : cube'clamped, y : cube'unchecked, _
        top : int, left : int, pos : ivec3)
    y[pos] = x[pos[0] - top, pos[1] - left, pos[2]]
end

function [] = __kernel__ imboundary_zero(x : cube'safe, y : cube'unchecked, _
        top : int, left : int, pos : ivec3)
    y[pos] = x[pos[0] - top, pos[1] - left, pos[2]]
end

% The border [top, bottom, left, right] from a scalar, [rows, columns] or four sizes.
% internal
function p = imboundary_pad(pad, who : string)
    if numel(pad) == 1
        p = [pad[0], pad[0], pad[0], pad[0]]
    elseif numel(pad) == 2
        p = [pad[0], pad[0], pad[1], pad[1]]
    elseif numel(pad) == 4
        p = [pad[0], pad[1], pad[2], pad[3]]
    else
        error(sprintf("%s: the border is a scalar, [rows, columns] or [top, bottom, left, right]", who))
    end
    if any(p < 0) || any(p != round(p))
        error(sprintf("%s: border sizes must be non-negative integers", who))
    end
end

% imboundary_extend(x, pad) · imboundary_extend(x, pad, mode)
%
% x (a mat, or each slice of a cube) with a border of pad samples ([rows, columns], a
% scalar, or [top, bottom, left, right]) filled by the boundary mode: "mirror" (the
% default; Quasar's mirror_ext: -1 reads 1, N reads N-1), "circular", "clamped" or
% "zero".
%
% Example:
%     print imboundary_extend([[1, 2, 3]], [0, 2], "mirror")
%     print imboundary_extend([[1, 2, 3]], [0, 0, 1, 2], "circular")
% Output:
%     [3,2,1,2,3,3,2]
%     [3,1,2,3,1,2]
function y = imboundary_extend(x, pad, mode : string)
    if ndims(x) > 3 || ndims(x) < 2
        error("imboundary_extend: expected a mat or a cube")
    end
    p = imboundary_pad(pad, "imboundary_extend")
    dims = [size(x, 0) + p[0] + p[1], size(x, 1) + p[2] + p[3], size(x, 2)]
    y = zeros(dims)
    top = int(p[0])
    left = int(p[2])
    if numel(x) > 0
        match mode with
        | "mirror" -> parallel_do(dims, x, y, top, left, imboundary_mirror)
        | "circular" -> parallel_do(dims, x, y, top, left, imboundary_circular)
        | "clamped" -> parallel_do(dims, x, y, top, left, imboundary_clamped)
        | "zero" -> parallel_do(dims, x, y, top, left, imboundary_zero)
        | _ -> error(sprintf("imboundary_extend: unknown boundary mode %s (use mirror, circular, clamped or zero)", mode))
        end
    end
    if ndims(x) == 2
        y = y[:, :, 0]
    end
end

function y = imboundary_extend(x, pad)
    y = imboundary_extend(x, pad, "mirror")
end

% imboundary_crop(y, pad)
%
% Takes a border of pad samples (as `imboundary_extend` takes it) off a mat or each
% slice of a cube: the inverse of `imboundary_extend`.
%
% Example:
%     x = [[1, 2], [3, 4]]
%     print imboundary_crop(imboundary_extend(x, 3, "clamped"), 3)
% Output:
%     [ [1,2],
%       [3,4] ]
function x = imboundary_crop(y, pad)
    p = imboundary_pad(pad, "imboundary_crop")
    M = size(y, 0) - p[0] - p[1]
    N = size(y, 1) - p[2] - p[3]
    if M < 0 || N < 0
        error(sprintf("imboundary_crop: a %d x %d image has no border of that size", _
            size(y, 0), size(y, 1)))
    end
    x = y[p[0]..p[0] + M - 1, p[2]..p[2] + N - 1, :]
    if ndims(y) == 2
        x = x[:, :, 0]
    end
end

% imboundary_read(x, i, j, mode)
%
% The sample of mat x at row i and column j (0-based, possibly outside x) under the
% boundary mode ("mirror", "circular", "clamped" or "zero").
%
% Example:
%     x = [[1, 2, 3], [4, 5, 6]]
%     print imboundary_read(x, -1, 4, "mirror"), " ", imboundary_read(x, 2, -1, "circular")
% Output:
%     5 3
function v = imboundary_read(x, i, j, mode : string)
    y = imboundary_extend(x, [max(0, -i), max(0, i - size(x, 0) + 1), _
        max(0, -j), max(0, j - size(x, 1) + 1)], mode)
    v = y[max(0, i), max(0, j)]
end
