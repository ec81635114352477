% imresize.q: Blazar's bundled image-resizing module.
%
% imresize(x, factor, method) scales a mat or cube by `factor` (the result has
% ceil(factor * rows) rows and ceil(factor * columns) columns, as MATLAB's);
% imresize(x, [rows, cols], method) gives that size. Channels are kept. The scale of each
% axis is (output size) / (input size) for a size and `factor` for a factor, and output
% pixel d samples the input at the pixel-centre position s = (d + 0.5) / scale - 0.5 (as
% MATLAB and OpenCV).
%   "nearest":  the input pixel floor(s + 0.5), clamped to the image (MATLAB's rule).
%   "bilinear": linear interpolation between the pixels floor(s) and floor(s) + 1 on each
%               axis, with s clamped to [0, size - 1] (OpenCV's INTER_LINEAR). There is
%               no antialiasing when shrinking (MATLAB's "Antialiasing", false).
%   "bicubic":  Keys' cubic convolution with a = -0.5 (MATLAB's) over the 4 x 4 pixels
%               floor(s) - 1 .. floor(s) + 2, the image extended symmetrically outside
%               its borders (-1 reads 0, N reads N-1, as MATLAB); no antialiasing either.
%               Values may overshoot the input's range, as MATLAB's do.
% imresize(x, factor) and imresize(x, [rows, cols]) use "bilinear".

function [] = __kernel__ imresize_nearest(x : cube'clamped, sr : scalar, sc : scalar, _
        y : cube'unchecked, pos : ivec3)
    i = int(floor((pos[0] + 0.5) / sr))
    j = int(floor((pos[1] + 0.5) / sc))
    y[pos] = x[i, j, pos[2]]
end

function [] = __kernel__ imresize_bilinear(x : cube'clamped, sr : scalar, sc : scalar, _
        y : cube'unchecked, pos : ivec3)
    si = min(max((pos[0] + 0.5) / sr - 0.5, 0.0), size(x, 0) - 1.0)
    sj = min(max((pos[1] + 0.5) / sc - 0.5, 0.0), size(x, 1) - 1.0)
    i = int(floor(si))
    j = int(floor(sj))
    a = si - i
    b = sj - j
    top = (1 - b) * x[i, j, pos[2]] + b * x[i, j + 1, pos[2]]
    bottom = (1 - b) * x[i + 1, j, pos[2]] + b * x[i + 1, j + 1, pos[2]]
    y[pos] = (1 - a) * top + a * bottom
end

function w = __device__ imresize_cubic(t : scalar)
    t = abs(t)
    w = 0.0
    if t <= 1
        w = (1.5 * t - 2.5) * t * t + 1
    elseif t < 2
        w = ((-0.5 * t + 2.5) * t - 4) * t + 2
    end
end

function i = __device__ imresize_symmetric(i : int, n : int)
    i = periodize(i, 2 * n)
    if i >= n
        i = 2 * n - 1 - i
    end
end

function [] = __kernel__ imresize_bicubic(x : cube'unchecked, sr : scalar, sc : scalar, _
        y : cube'unchecked, pos : ivec3)
    si = (pos[0] + 0.5) / sr - 0.5
    sj = (pos[1] + 0.5) / sc - 0.5
    i0 = int(floor(si)) - 1
    j0 = int(floor(sj)) - 1
    acc = 0.0
    for a = 0..3
        wi = imresize_cubic(si - (i0 + a))
        i = imresize_symmetric(i0 + a, size(x, 0))
        row = 0.0
        for b = 0..3
            j = imresize_symmetric(j0 + b, size(x, 1))
            row += imresize_cubic(sj - (j0 + b)) * x[i, j, pos[2]]
        end
        acc += wi * row
    end
    y[pos] = acc
end

% imresize(x, factor) · imresize(x, [rows, cols]) · imresize(x, size_or_factor, method)
%
% x (a mat or cube, channels kept) scaled by factor (ceil(factor * rows) rows, as
% MATLAB) or to the given size, with method "nearest", "bilinear" (the default) or
% "bicubic"; pixel centres are aligned as in MATLAB and OpenCV, without antialiasing.
%
% Example:
%     print imresize([[1, 2], [3, 4]], 2, "nearest")
%     print size(imresize(ones(6, 6, 3), [3, 2]))
% Output:
%     [ [1,1,2,2],
%       [1,1,2,2],
%       [3,3,4,4],
%       [3,3,4,4] ]
%     [3,2,3]
function y = imresize(x, sz, method : string)
    if ndims(x) == 1
        % a vec as a 1 x N mat: kernels then read its rows through the access modifier
        % of a mat (a promoted vec's boundary reads are not per dimension yet)
        x = [x]
    end
    rows = size(x, 0)
    cols = size(x, 1)
    if numel(sz) == 1
        if sz <= 0
            error("imresize: the scale factor must be positive")
        end
        out_r = int(ceil(sz * rows))
        out_c = int(ceil(sz * cols))
        sr = sz
        sc = sz
    else
        out_r = int(sz[0])
        out_c = int(sz[1])
        if out_r <= 0 || out_c <= 0
            error("imresize: the output size must be positive")
        end
        sr = out_r / rows
        sc = out_c / cols
    end
    y = zeros(out_r, out_c, size(x, 2))
    dims = [out_r, out_c, size(x, 2)]
    match method with
    | "nearest" -> parallel_do(dims, x, sr, sc, y, imresize_nearest)
    | "bilinear" -> parallel_do(dims, x, sr, sc, y, imresize_bilinear)
    | "bicubic" -> parallel_do(dims, x, sr, sc, y, imresize_bicubic)
    | _ -> error(sprintf("imresize: unknown method %s (use nearest, bilinear or bicubic)", method))
    end
end

function y = imresize(x, sz)
    y = imresize(x, sz, "bilinear")
end
