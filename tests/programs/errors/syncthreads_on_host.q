% `syncthreads` in code that only runs on the host is refused by `check`, as `run` would
% refuse it (a function a kernel calls may hold one).
% ==
% error: syncthreads_on_host\.q:7:5: error: `syncthreads` can only be used inside a kernel function
function y = normalise(x)
    y = x / max(x)
    syncthreads
end
print normalise([1, 2, 4])
