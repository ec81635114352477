% bytes: 33554432
% One step of Conway's Game of Life on a 2048x2048 board of 0/1 cells; cells outside
% the board are dead (zero extension).

function [] = __kernel__ make_board(a : mat'unchecked, pos : ivec2)
    i = pos[0]
    j = pos[1]
    if mod(i * i * 31 + j * j * 17 + i * j * 7 + i * 3 + j, 7) < 2
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

reps = 7
a = zeros(2048, 2048)
parallel_do(size(a), a, make_board)
b = zeros(size(a))

parallel_do(size(a), a, b, life_step)
for r = 1..reps
    tic()
    parallel_do(size(a), a, b, life_step)
    toc("rep")
endfor
% Weight the cells by their row, so that where they live counts too.
print "checksum: ", sum(b) + sum(b .* transpose(0..2047)) / 2048
