% Written in the style of published Quasar code: an import by the author's absolute
% Windows path, a plugin whose display functions only run when asked for, a tile
% position passed as a vec where an ivec2 is declared, an output declared mat that
% holds a cube on the way, and a kernel that accumulates the colour channels of a
% window in a register vector.
% ==
% stdout {
% window means: [3.5,4.5,5.5]
% tile: [ [7.5,9],
%   [9,10.5] ]
% toned corner: 0.25
% }
import "C:\Users\someone\Documents\Quasar\windows_import_lib.q"
import "Quasar.UI.dll"

function [] = __kernel__ window_mean(img : cube, means : mat, pos : int)
    acc = zeros(3)
    for j = 0..1
        acc = acc + img[pos, j, 0..2]
    end
    acc = acc / 2
    means[pos, 0..2] = acc
end

function y : mat = tile_sum(img : cube, at : ivec2)
    y = img[at[0]..at[0] + 1, at[1]..at[1] + 1, :]
    y = y[:, :, 0] + y[:, :, 1] + y[:, :, 2]
    y = y / 2
end

img = zeros(3, 4, 3)
for i = 0..2
    for j = 0..3
        for c = 0..2
            img[i, j, c] = i + j + c + 2 * (i > 0)
        end
    end
end
means = zeros(3, 3)
parallel_do(3, img, means, window_mean)
print "window means: ", means[1, :]
print "tile: ", tile_sum(img, [1.0, 1.0])
show = false
if show
    frm = form("tone mapping")
    frm.show()
end
print "toned corner: ", gamma_curve(0.5, 2)
