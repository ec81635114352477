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
% rgb2lab(x) / lab2rgb(x): CIE L*a*b* (L in [0, 100]) of sRGB data (IEC 61966-2-1 transfer
%   curve and matrix [0.4124 0.3576 0.1805; 0.2126 0.7152 0.0722; 0.0193 0.1192 0.9505],
%   D65 white = that matrix's row sums [0.9505 1 1.089], so white has a = b = 0), and the
%   inverse back to [0, 255] without clipping.
% csdecodeRec709(x) / csdecodeRec2020(x): CIE XYZ (Y = 1 for white) of Rec. 709 / Rec. 2020
%   RGB data in [0, 255]: each channel V = x / 255 is decoded with the inverse of the
%   standard's transfer function (its OETF), L = V / 4.5 for V < 4.5 beta, else
%   ((V + alpha - 1) / alpha)^(1 / 0.45), with alpha = 1.099, beta = 0.018 (Rec. 709) and
%   alpha = 1.09929682680944, beta = 0.018053968510807 (Rec. 2020), then multiplied by
%   the RGB -> XYZ matrix derived from the standard's primaries and the D65 white
%   (0.3127, 0.3290):
%     Rec. 709  [0.4123907993 0.3575843394 0.1804807884; 0.2126390059 0.7151686788
%                0.0721923154; 0.0193308187 0.1191947798 0.9505321522]
%     Rec. 2020 [0.6369580483 0.1446169036 0.1688809752; 0.2627002120 0.6779980715
%                0.0593017165; 0 0.0280726930 1.0609850577]
% csencodeSRGB(x): sRGB in [0, 255] of CIE XYZ data: the inverse of the Rec. 709 matrix
%   above (sRGB shares its primaries), then the sRGB transfer curve (12.92 L for
%   L <= 0.0031308, else 1.055 L^(1 / 2.4) - 0.055), times 255. Out-of-gamut values are
%   not clipped (negative ones stay on the linear segment).

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

function c = __device__ srgb_decode(v : scalar)
    c = v / 255
    if c <= 0.04045
        c = c / 12.92
    else
        c = ((c + 0.055) / 1.055)^2.4
    end
end

function v = __device__ srgb_encode(c : scalar)
    if c <= 0.0031308
        v = 12.92 * c
    else
        v = 1.055 * c^(1 / 2.4) - 0.055
    end
    v = 255 * v
end

function f = __device__ lab_f(t : scalar)
    if t > 216 / 24389
        f = t^(1 / 3)
    else
        f = t * 841 / 108 + 4 / 29
    end
end

function t = __device__ lab_finv(f : scalar)
    if f > 6 / 29
        t = f * f * f
    else
        t = (f - 4 / 29) * 108 / 841
    end
end

function [] = __kernel__ rgb2lab_kernel(x : cube'unchecked, y : cube'unchecked, _
        pos : ivec2)
    r = srgb_decode(x[pos[0], pos[1], 0])
    g = srgb_decode(x[pos[0], pos[1], 1])
    b = srgb_decode(x[pos[0], pos[1], 2])
    fx = lab_f((0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.9505)
    fy = lab_f(0.2126 * r + 0.7152 * g + 0.0722 * b)
    fz = lab_f((0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.089)
    y[pos[0], pos[1], 0] = 116 * fy - 16
    y[pos[0], pos[1], 1] = 500 * (fx - fy)
    y[pos[0], pos[1], 2] = 200 * (fy - fz)
end

function [] = __kernel__ lab2rgb_kernel(x : cube'unchecked, y : cube'unchecked, _
        pos : ivec2)
    fy = (x[pos[0], pos[1], 0] + 16) / 116
    fx = fy + x[pos[0], pos[1], 1] / 500
    fz = fy - x[pos[0], pos[1], 2] / 200
    cx = 0.9505 * lab_finv(fx)
    cy = lab_finv(fy)
    cz = 1.089 * lab_finv(fz)
    y[pos[0], pos[1], 0] = srgb_encode(3.2406254773 * cx - 1.5372079722 * cy - 0.4986285987 * cz)
    y[pos[0], pos[1], 1] = srgb_encode(-0.9689307147 * cx + 1.8757560609 * cy + 0.0415175238 * cz)
    y[pos[0], pos[1], 2] = srgb_encode(0.0557101204 * cx - 0.2040210506 * cy + 1.0569959423 * cz)
end

function l = __device__ cs_decode_curve(v : scalar, alpha : scalar, beta : scalar)
    l = v / 255
    if l < 4.5 * beta
        l = l / 4.5
    else
        l = ((l + alpha - 1) / alpha)^(1 / 0.45)
    end
end

function [] = __kernel__ cs_decode_kernel(x : cube'unchecked, y : cube'unchecked, _
        m : mat'unchecked, alpha : scalar, beta : scalar, pos : ivec2)
    r = cs_decode_curve(x[pos[0], pos[1], 0], alpha, beta)
    g = cs_decode_curve(x[pos[0], pos[1], 1], alpha, beta)
    b = cs_decode_curve(x[pos[0], pos[1], 2], alpha, beta)
    for c = 0..2
        y[pos[0], pos[1], c] = m[c, 0] * r + m[c, 1] * g + m[c, 2] * b
    end
end

function [] = __kernel__ cs_encode_srgb_kernel(x : cube'unchecked, y : cube'unchecked, _
        m : mat'unchecked, pos : ivec2)
    cx = x[pos[0], pos[1], 0]
    cy = x[pos[0], pos[1], 1]
    cz = x[pos[0], pos[1], 2]
    for c = 0..2
        y[pos[0], pos[1], c] = srgb_encode(m[c, 0] * cx + m[c, 1] * cy + m[c, 2] * cz)
    end
end

% internal
function [] = colortransform_check(x, name : string)
    if ndims(x) != 3 || size(x, 2) != 3
        error(sprintf("%s: expects an M x N x 3 cube", name))
    end
end

% rgb2gray(x)
%
% The luma 0.299 R + 0.587 G + 0.114 B of an M×N×3 colour image (values 0..255, as
% `imread` gives), as an M×N mat (MATLAB's weights).
%
% Example:
%     img = ones(2, 2, 3) .* reshape([255, 0, 0], [1, 1, 3])
%     print round(rgb2gray(img))
% Output:
%     [ [76,76],
%       [76,76] ]
function y = rgb2gray(x)
    colortransform_check(x, "rgb2gray")
    y = zeros(size(x, 0), size(x, 1))
    parallel_do([size(x, 0), size(x, 1)], x, y, rgb2gray_kernel)
end

% rgb2ycbcr(x)
%
% Rec. 601 studio-range Y, Cb, Cr channels of an M×N×3 RGB image in 0..255 (MATLAB's
% transform for 8-bit data), without rounding or clipping.
%
% Example:
%     ycc = rgb2ycbcr(ones(1, 1, 3) * 255)
%     print round(ycc[0, 0, :])
% Output:
%     [ [ [235,128,128] ] ]
function y = rgb2ycbcr(x)
    colortransform_check(x, "rgb2ycbcr")
    y = zeros(size(x))
    parallel_do([size(x, 0), size(x, 1)], x, y, rgb2ycbcr_kernel)
end

% ycbcr2rgb(x)
%
% The exact inverse of `rgb2ycbcr`: RGB in 0..255 from Y, Cb, Cr (no rounding, no
% clipping).
%
% Example:
%     x = ones(1, 1, 3) * 100
%     print round(ycbcr2rgb(rgb2ycbcr(x))[0, 0, :])
% Output:
%     [ [ [100,100,100] ] ]
function y = ycbcr2rgb(x)
    colortransform_check(x, "ycbcr2rgb")
    y = zeros(size(x))
    parallel_do([size(x, 0), size(x, 1)], x, y, ycbcr2rgb_kernel)
end

% rgb2hsv(x)
%
% Hue and saturation in 0..1 (as MATLAB's) and value, the largest channel in the input's
% range, of an M×N×3 RGB image. Grey pixels have hue and saturation 0.
%
% Example:
%     hsv = rgb2hsv(reshape([255, 0, 0], [1, 1, 3]))
%     print hsv[0, 0, :]
% Output:
%     [ [ [0,1,255] ] ]
function y = rgb2hsv(x)
    colortransform_check(x, "rgb2hsv")
    y = zeros(size(x))
    parallel_do([size(x, 0), size(x, 1)], x, y, rgb2hsv_kernel)
end

% hsv2rgb(x)
%
% The inverse of `rgb2hsv`: an RGB image from hue, saturation (0..1) and value.
%
% Example:
%     print hsv2rgb(reshape([0, 1, 200], [1, 1, 3]))[0, 0, :]
% Output:
%     [ [ [200,0,0] ] ]
function y = hsv2rgb(x)
    colortransform_check(x, "hsv2rgb")
    y = zeros(size(x))
    parallel_do([size(x, 0), size(x, 1)], x, y, hsv2rgb_kernel)
end

% rgb2lab(x)
%
% CIE L*a*b* (L in 0..100, D65 white) of an sRGB image in 0..255; white has a = b = 0.
%
% Example:
%     lab = rgb2lab(ones(1, 1, 3) * 255)
%     print round(lab[0, 0, :])
% Output:
%     [ [ [100,0,0] ] ]
function y = rgb2lab(x)
    colortransform_check(x, "rgb2lab")
    y = zeros(size(x))
    parallel_do([size(x, 0), size(x, 1)], x, y, rgb2lab_kernel)
end

% lab2rgb(x)
%
% The inverse of `rgb2lab`: sRGB in 0..255 (not clipped) from CIE L*a*b*.
%
% Example:
%     print round(lab2rgb(reshape([100, 0, 0], [1, 1, 3]))[0, 0, :])
% Output:
%     [ [ [255,255,255] ] ]
function y = lab2rgb(x)
    colortransform_check(x, "lab2rgb")
    y = zeros(size(x))
    parallel_do([size(x, 0), size(x, 1)], x, y, lab2rgb_kernel)
end

% csdecodeRec709(x)
%
% CIE XYZ (Y = 1 for white) of Rec. 709 RGB data in 0..255: each channel decoded with
% the inverse of the standard's transfer function, then the RGB to XYZ matrix of its
% primaries and D65 white.
%
% Example:
%     xyz = csdecodeRec709(ones(1, 1, 3) * 255)
%     print round(1000 * xyz[0, 0, 1]) / 1000
% Output:
%     1
function y = csdecodeRec709(x)
    colortransform_check(x, "csdecodeRec709")
    m = [[0.4123907993, 0.3575843394, 0.1804807884], _
        [0.2126390059, 0.7151686788, 0.0721923154], _
        [0.0193308187, 0.1191947798, 0.9505321522]]
    y = zeros(size(x))
    parallel_do([size(x, 0), size(x, 1)], x, y, m, 1.099, 0.018, cs_decode_kernel)
end

% csdecodeRec2020(x)
%
% CIE XYZ (Y = 1 for white) of Rec. 2020 RGB data in 0..255, as `csdecodeRec709` with
% the Rec. 2020 transfer function and primaries.
%
% Example:
%     xyz = csdecodeRec2020(ones(1, 1, 3) * 255)
%     print round(1000 * xyz[0, 0, 1]) / 1000
% Output:
%     1
function y = csdecodeRec2020(x)
    colortransform_check(x, "csdecodeRec2020")
    m = [[0.6369580483, 0.1446169036, 0.1688809752], _
        [0.2627002120, 0.6779980715, 0.0593017165], _
        [0.0, 0.0280726930, 1.0609850577]]
    y = zeros(size(x))
    parallel_do([size(x, 0), size(x, 1)], x, y, m, 1.09929682680944, 0.018053968510807, _
        cs_decode_kernel)
end

% csencodeSRGB(x)
%
% sRGB in 0..255 of CIE XYZ data: the inverse Rec. 709 matrix (sRGB shares its
% primaries), then the sRGB transfer curve.
%
% Example:
%     rgb = csencodeSRGB(csdecodeRec709(ones(1, 1, 3) * 255))
%     print round(rgb[0, 0, :])
% Output:
%     [ [ [255,255,255] ] ]
function y = csencodeSRGB(x)
    colortransform_check(x, "csencodeSRGB")
    m = [[3.2409699419, -1.5373831776, -0.4986107603], _
        [-0.9692436363, 1.8759675015, 0.0415550574], _
        [0.0556300797, -0.2039769589, 1.0569715142]]
    y = zeros(size(x))
    parallel_do([size(x, 0), size(x, 1)], x, y, m, cs_encode_srgb_kernel)
end
