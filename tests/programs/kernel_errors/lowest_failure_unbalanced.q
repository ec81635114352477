% In a large launch spread over threads whose work items cost very different amounts,
% the failure reported is still the lowest failing position: position (10, 7) fails
% after a long loop, while every position of the last rows fails at once (their
% chunks finish, and stop the launch, long before the slow chunk reaches its failure).
% ==
% error: (?s)lowest_failure_unbalanced\.q:18:5: error: \(parallel_do\) slow_first - assertion failed: line 18.*lowest_failure_unbalanced\.q:23:1: note: `slow_first` was launched here
function [] = __kernel__ slow_first(y : mat, pos : ivec2)
    k = 0
    a = 0
    if pos[0] < 12
        while k < 500
            a = mod(a * 31 + pos[1] + k, 1009)
            k += 1
        endwhile
    endif
    assert(pos[0] < 900)
    y[pos] = a
    assert(pos[0] != 10 || pos[1] < 7)
    y[pos] = y[pos] + 1
endfunction

y = zeros(1000, 600)
parallel_do(size(y), y, slow_first)
