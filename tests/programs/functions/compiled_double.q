% Under `--double` a function the compiled host tier runs computes in float64, as the
% interpreter does (without `--double` it prints 12.090142).
% ==
% options { --double }
% stdout {
% 12.090146129863426
% }
function s = harmonic(n : int)
    s = 0.0
    for k = 1..n
        s = s + 1 / k
    end
end
print harmonic(100000)
