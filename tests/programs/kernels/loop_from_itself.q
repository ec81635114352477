% A counted loop may start from its own variable's value (`for i = i..5`): each thread
% counts on from where its `i` was (the SIMT interpreter once read the variable after
% clearing it and stopped with an internal error).
% ==
% stdout {
% [15,15,14,12]
% }
function [] = __kernel__ k(y : vec[int], pos : int)
    i = pos
    s = 0
    for i = i..5
        s = s + i
    end
    y[pos] = s
endfunction
y = int(zeros(4))
parallel_do(4, y, k)
print y
