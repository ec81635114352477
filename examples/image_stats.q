% A small image-processing session in host code: build a test image, correct its
% gamma, take a histogram, denoise it with a 3x3 mean filter and save the results.

function img = test_image(m : int, n : int)
    % A diagonal gradient with a bright disc in the middle, values 0..255.
    img = zeros(m, n, 3)
    for r = 0..m-1
        for c = 0..n-1
            g = 255 * (r + c) / (m + n - 2)
            inside = (r - m/2)^2 + (c - n/2)^2 < (m/4)^2
            img[r, c, :] = inside ? [255, 220, 40] : [g, g, 255 - g]
        end
    end
end

function y = gamma_correct(x, gamma : scalar = 0.45)
    y = 255 * (x / 255) .^ gamma
end

function h = histogram(x : mat)
    h = zeros(8)
    for v = 0..numel(x)-1
        bin = int(x[v] / 32)
        h[bin] += 1
    end
end

function y = mean3x3(x : mat'clamped)
    [m, n] = size(x)
    y = zeros(m, n)
    for r = 0..m-1
        for c = 0..n-1
            y[r, c] = sum(x[r-1..r+1, c-1..c+1]) / 9
        end
    end
end

img = test_image(48, 64)
bright = gamma_correct(img)
gray = (bright[:, :, 0] + bright[:, :, 1] + bright[:, :, 2]) / 3
smooth = mean3x3(gray)

print "image size: ", size(img)
print "mean before/after gamma: ", round(mean(img)), " / ", round(mean(bright))
print "histogram of gray levels (8 bins): ", histogram(gray)
printf("smoothing changed the image by at most %.2f\n", max(abs(smooth - gray)))

imwrite("image_stats_out.png", bright)
back = imread("image_stats_out.png")
print "saved and re-read: ", size(back), ", max difference ", max(abs(back - round(bright)))
