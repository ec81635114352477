% bytes: 536870912
% One step of Conway's Game of Life on an 8192x8192 board of 0/1 cells; cells outside
% the board are dead (zero extension). One read and one write of the board per
% repetition (the eight neighbour reads are served by the caches).

function [] = __kernel__ make_board(a : mat'unchecked, pos : ivec2)
    i = pos[0]
    j = pos[1]
    if mod(mod(i * j, 1021) * 13 + i * 3 + j * 5, 7) < 2
        a[pos] = 1
    else
        a[pos] = 0
    endif
endfunction

function [] = __kernel__ life_step(a : mat, b : mat'unchecked, pos : ivec2)
    live = a[pos + [-1, -1]] + a[pos + [-1, 0]] + a[pos + [-1, 1]] + _
           a[pos + [0, -1]] + a[pos + [0, 1]] + _
           a[pos + [1, -1]] + a[pos + [1, 0]] + a[pos + [1, 1]]
    if live == 3 || (live == 2 && a[pos] == 1)
        b[pos] = 1
    else
        b[pos] = 0
    endif
endfunction

reps = 30
a = zeros(8192, 8192)
parallel_do(size(a), a, make_board)
b = zeros(size(a))

parallel_do(size(a), a, b, life_step)
for r = 1..reps
    tic()
    parallel_do(size(a), a, b, life_step)
    toc("rep")
endfor
% Weight the cells by their row, so that where they live counts too.
print "checksum: ", sum(b) + sum(b .* transpose(0..8191)) / 8192
