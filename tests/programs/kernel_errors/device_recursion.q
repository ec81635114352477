% Device functions are inlined into kernels, so they cannot be recursive.
% ==
% error: device_recursion\.q:8:17: error: `fact` calls itself; kernel and device functions cannot be recursive
function y = __device__ fact(n : int)
    if n <= 1
        y = 1
    else
        y = n * fact(n - 1)
    end
end
v = zeros(4)
parallel_do(4, v, __kernel__ (v : vec, pos : int) -> v[pos] = fact(pos))
