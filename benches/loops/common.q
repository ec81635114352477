% Shared by the programs of benches/loops (each has `import "../common.q"`): the input
% image, values 0..255 from an integer formula of the position.
function [] = __kernel__ fill_image(x : cube'unchecked, pos : ivec3)
    x[pos] = mod(37 * pos[0] + 11 * pos[1] + 71 * pos[2] + pos[0] * pos[1], 256)
endfunction

function x = make_image(M, N, C)
    x = zeros(M, N, C)
    parallel_do(size(x), x, fill_image)
endfunction
