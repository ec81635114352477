% A host function that writes an array element in a recurrence (a loop that cannot run
% in parallel), which the compiled host tier runs whole: a read on a line with four
% accesses fails on the last one. The call cannot be replayed on the interpreter (it
% wrote `y`), so the kernel itself names the column.
% ==
% options { --host-tier compiled }
% stdout {
% 3
% }
% error: (?s)compiled_writer_error_column\.q:15:34: error: index 4 is out of bounds for dimension 0 of size 4.*compiled_writer_error_column\.q:22:7: note: `running` was called here
function s = running(y : vec, x : vec, k : int)
    s = 0
    n = numel(y)
    for i = 1..n - 1
        y[i] = y[i - 1] + x[i] * x[i + k]
    end
    s = y[n - 1]
end
x = [1, 1, 1, 1]
y = zeros(4)
print running(y, x, 0)
print running(y, x, 1)
