% Unbounded recursion ends with a located error about the call depth, not a crash.
% ==
% error: runaway_recursion\.q:5:9: error: .*(recursion|depth|stack)
function y = down(n)
    y = down(n + 1)
end
print down(0)
