% colortransform.q: Blazar's bundled colour-space module. Colour images are cubes whose
% last index is the channel (R, G, B = 0, 1, 2), with values in Quasar's usual range
% [0, 255] (imread's).
%
% rgb2gray(x): the M x N luma 0.299 R + 0.587 G + 0.114 B (Rec. 601, MATLAB's weights).
% rgb2ycbcr(x) / ycbcr2rgb(x): MATLAB's Rec. 601 studio-range transform for 8-bit data,
%   Y  = 16  + ( 65.481 R + 128.553 G +  24.966 B) / 255
%   Cb = 128 + (-37.797 R -  74.203 G + 112.000 B) / 255
%   Cr = 128 + (112.000 R -  93.786 G -  18.214 B) / 255
%   and its exact inverse (no rounding and no clipping: values stay floats).
% rgb2hsv(x) / hsv2rgb(x): hue and saturation in [0, 1] as MATLAB's, value the largest
%   channel (in the input's range, so hsv2rgb(rgb2hsv(x)) gives x back). A grey pixel has
%   hue 0 and saturation 0; black has saturation 0.

function [] = __kernel__ rgb2gray_kernel(x : cube'unchecked, y : mat'unchecked, _
        pos : ivec2)
    y[pos] = 0.299 * x[pos[0], pos[1], 0] + 0.587 * x[pos[0], pos[1], 1] + _
        0.114 * x[pos[0], pos[1], 2]
end

function [] = __kernel__ rgb2ycbcr_kernel(x : cube'unchecked, y : cube'unchecked, _
        pos : ivec2)
    r = x[pos[0], pos[1], 0]
    g = x[pos[0], pos[1], 1]
    b = x[pos[0], pos[1], 2]
    y[pos[0], pos[1], 0] = 16 + (65.481 * r + 128.553 * g + 24.966 * b) / 255
    y[pos[0], pos[1], 1] = 128 + (-37.797 * r - 74.203 * g + 112.0 * b) / 255
    y[pos[0], pos[1], 2] = 128 + (112.0 * r - 93.786 * g - 18.214 * b) / 255
end

function [] = __kernel__ ycbcr2rgb_kernel(x : cube'unchecked, y : cube'unchecked, _
        pos : ivec2)
    l = x[pos[0], pos[1], 0] - 16
    cb = x[pos[0], pos[1], 1] - 128
    cr = x[pos[0], pos[1], 2] - 128
    y[pos[0], pos[1], 0] = 1.16438356 * l + 3.01124397e-07 * cb + 1.59602689 * cr
    y[pos[0], pos[1], 1] = 1.16438356 * l - 0.39176254 * cb - 0.812968292 * cr
    y[pos[0], pos[1], 2] = 1.16438356 * l + 2.01723264 * cb + 3.05426175e-06 * cr
end

function [] = __kernel__ rgb2hsv_kernel(x : cube'unchecked, y : cube'unchecked, _
        pos : ivec2)
    r = x[pos[0], pos[1], 0]
    g = x[pos[0], pos[1], 1]
    b = x[pos[0], pos[1], 2]
    v = max(r, max(g, b))
    d = v - min(r, min(g, b))
    h = 0.0
    s = 0.0
    if v > 0
        s = d / v
    end
    if d > 0
        if v == r
            h = (g - b) / d
            if h < 0
                h += 6
            end
        elseif v == g
            h = 2 + (b - r) / d
        else
            h = 4 + (r - g) / d
        end
        h = h / 6
    end
    y[pos[0], pos[1], 0] = h
    y[pos[0], pos[1], 1] = s
    y[pos[0], pos[1], 2] = v
end

function [] = __kernel__ hsv2rgb_kernel(x : cube'unchecked, y : cube'unchecked, _
        pos : ivec2)
    h6 = x[pos[0], pos[1], 0] * 6
    s = x[pos[0], pos[1], 1]
    v = x[pos[0], pos[1], 2]
    k = floor(h6)
    f = h6 - k
    sector = int(periodize(k, 6))
    p = v * (1 - s)
    q = v * (1 - s * f)
    t = v * (1 - s * (1 - f))
    r = v
    g = t
    b = p
    if sector == 1
        r = q
        g = v
        b = p
    elseif sector == 2
        r = p
        g = v
        b = t
    elseif sector == 3
        r = p
        g = q
        b = v
    elseif sector == 4
        r = t
        g = p
        b = v
    elseif sector == 5
        r = v
        g = p
        b = q
    end
    y[pos[0], pos[1], 0] = r
    y[pos[0], pos[1], 1] = g
    y[pos[0], pos[1], 2] = b
end

function [] = colortransform_check(x, name : string)
    if ndims(x) != 3 || size(x, 2) != 3
        error(sprintf("%s: expects an M x N x 3 cube", name))
    end
end

function y = rgb2gray(x)
    colortransform_check(x, "rgb2gray")
    y = zeros(size(x, 0), size(x, 1))
    parallel_do([size(x, 0), size(x, 1)], x, y, rgb2gray_kernel)
end

function y = rgb2ycbcr(x)
    colortransform_check(x, "rgb2ycbcr")
    y = zeros(size(x))
    parallel_do([size(x, 0), size(x, 1)], x, y, rgb2ycbcr_kernel)
end

function y = ycbcr2rgb(x)
    colortransform_check(x, "ycbcr2rgb")
    y = zeros(size(x))
    parallel_do([size(x, 0), size(x, 1)], x, y, ycbcr2rgb_kernel)
end

function y = rgb2hsv(x)
    colortransform_check(x, "rgb2hsv")
    y = zeros(size(x))
    parallel_do([size(x, 0), size(x, 1)], x, y, rgb2hsv_kernel)
end

function y = hsv2rgb(x)
    colortransform_check(x, "hsv2rgb")
    y = zeros(size(x))
    parallel_do([size(x, 0), size(x, 1)], x, y, hsv2rgb_kernel)
end
