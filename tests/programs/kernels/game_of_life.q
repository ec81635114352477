% Conway's Game of Life on a torus: the kernel reads its neighbours through a
% 'circular parameter. A glider placed across the border wraps around; after 8
% generations it is the start pattern moved by (2, 2), and a host simulation with
% periodize agrees at every step.
% ==
% stdout {
% 5
% 1
% 1
% [ [0,1,0,0,0,0,0,0],
%   [0,0,1,0,0,0,0,0],
%   [1,1,1,0,0,0,0,0],
%   [0,0,0,0,0,0,0,0],
%   [0,0,0,0,0,0,0,0],
%   [0,0,0,0,0,0,0,0],
%   [0,0,0,0,0,0,0,0],
%   [0,0,0,0,0,0,0,0] ]
% }
function [] = __kernel__ life_step(a : mat'circular, b : mat, pos : ivec2)
    n = 0
    for dr = -1..1
        for dc = -1..1
            if dr != 0 || dc != 0
                n += a[pos + [dr, dc]]
            endif
        endfor
    endfor
    alive = a[pos] > 0
    b[pos] = (alive && (n == 2 || n == 3)) || (!alive && n == 3) ? 1 : 0
endfunction

function b = host_step(a)
    [M, N] = size(a)
    b = zeros(M, N)
    for r = 0..M - 1
        for c = 0..N - 1
            n = 0
            for dr = -1..1
                for dc = -1..1
                    if dr != 0 || dc != 0
                        n += a[periodize(r + dr, M), periodize(c + dc, N)]
                    end
                end
            end
            if a[r, c] > 0
                b[r, c] = n == 2 || n == 3
            else
                b[r, c] = n == 3
            end
        end
    end
end

G = 8
board = zeros(G, G)
% A glider heading down-right, straddling the bottom and right edges.
board[6, 7] = 1
board[7, 0] = 1
board[0, 6] = 1
board[0, 7] = 1
board[0, 0] = 1
start = copy(board)
print sum(board)
host = copy(board)
same = 1
for gen = 1..8
    next = zeros(G, G)
    parallel_do(size(board), board, next, life_step)
    board = next
    host = host_step(host)
    same = same && sum(abs(board - host)) == 0
end
print same
moved = zeros(G, G)
for r = 0..G - 1
    for c = 0..G - 1
        moved[r, c] = start[periodize(r - 2, G), periodize(c - 2, G)]
    end
end
print sum(abs(board - moved)) == 0
print board
