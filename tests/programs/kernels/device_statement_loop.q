% A __device__ function with a loop, called as a statement, keeps the kernel's earlier
% writes and binds its own parameters.
function [] = __device__ bump(s : vec'unchecked, i : int, n : int)
    d = 1
    while d < n
        s[i] = s[i] + 1
        d = d * 2
    endwhile
endfunction

function [] = __kernel__ fill_then_bump(out : vec'unchecked, pos : int)
    out[pos] = 10
    bump(out, pos, 4)
endfunction

out = zeros(4)
parallel_do(4, out, fill_then_bump)
print out
% ==
% stdout { [12,12,12,12] }
