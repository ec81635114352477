% A user module for the debugger tests: a kernel, and host functions that call each other.
function [] = __kernel__ times_k(v : vec, k : scalar, pos : int)
    v[pos] = v[pos] * k
endfunction

function y = launch_times(v, k)
    y = copy(v)
    parallel_do(numel(y), y, k, times_k)
endfunction

function y = scaled(x, k)
    factor = k + 1
    y = launch_times(x, factor)
endfunction
