% A kernel lambda is launched with parallel_do; calling it like a function is an error.
% ==
% error: lambda_called_directly\.q:5:1: error: kernel function `<lambda>` cannot be called directly
fill = __kernel__ (y : vec, pos : int) -> y[pos] = 1
fill(zeros(3), 0)
