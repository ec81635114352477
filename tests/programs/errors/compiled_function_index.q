% An index out of range inside a function that the compiled host tier runs is the
% interpreter's error: located at the element access, with the call that led to it.
% ==
% error: (?s)compiled_function_index\.q:9:17: error: index 4 is out of bounds.*compiled_function_index\.q:15:7: note: `total` was called here: total\(v, 5\)
function s = total(a : vec, n : int)
    s = 0
    for k = 0..n - 1
        if k >= 0
            x = a[k]
            s = 0.5 * s + x
        end
    end
end
v = [1, 2, 3, 4]
print total(v, 5)
