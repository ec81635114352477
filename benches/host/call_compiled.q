% Compiled host code: a small typed user function called ten million times from a
% loop that itself runs compiled (the function with the loop compiles whole, the call
% inside it costs what its body costs). Compare `call.q`, the same call from
% interpreted code.
% iterations: 10000000
function y = step(x, i : int)
    y = 0.5*x + mod(i, 7)
end
function s = run(n : int)
    s = 0.
    for i = 1..n
        s = step(s, i)
    end
end
print run(10000000)
