% An update of an add-only global array out of its range, in a launch large enough for
% private copies (`codegen-c/cpp/private.rs`), reports the lowest failing thread.
% ==
% error: (?s)private_copy_update_out_of_range\.q:6:5: error: \(parallel_do\) count - index 300 is out of bounds for dimension 0 of size 256: line 6.*private_copy_update_out_of_range\.q:14:1: note: `count` was launched here
function [] = __kernel__ count(x : vec, h : vec'checked, pos : int)
    h[int(x[pos])] += 1
endfunction
x = zeros(8192)
for i = 0..8191
    x[i] = mod(i * 37, 256)
endfor
x[5000] = 300.5
x[7000] = 400
parallel_do(numel(x), x, zeros(256), count)
