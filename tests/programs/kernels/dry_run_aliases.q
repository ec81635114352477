% A name rebound to another array by a statement whose types the first typing pass
% of the kernel cannot know yet (a device function's result, typed from a variable
% assigned later): later statements must not type themselves from the old binding.
% `v` reads the int array (16777217 is exact in i32, not in f32), inside an `if` and
% at the top of the kernel.
% ==
% stdout {
% [16777217,3]
% [16777217,3]
% }
function r = __device__ same(a : vec[int], k : int)
    r = a
endfunction

function [] = __kernel__ nested(x : vec, y : vec[int], o : vec[int], pos : int)
    m = 1
    a = x
    if pos >= 0
        a = same(y, m)
        v = a[pos]
        o[pos] = v
    endif
endfunction

function [] = __kernel__ flat(x : vec, y : vec[int], o : vec[int], pos : int)
    m = 1
    a = x
    a = same(y, m)
    v = a[pos]
    o[pos] = v
endfunction

x = [0.5, 0.25]
y = vec[int](2)
y[0] = 16777217
y[1] = 3
o = vec[int](2)
parallel_do(2, x, y, o, nested)
print o
o2 = vec[int](2)
parallel_do(2, x, y, o2, flat)
print o2
