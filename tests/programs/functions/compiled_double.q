% Under `--double` a function the compiled host tier runs computes in float64, as the
% interpreter does (without `--double` it prints 12090142097408). Twelve decimals are
% printed: several simulated devices split the loop as a parallel sum, whose order
% changes the last bits.
% ==
% options { --double }
% stdout {
% 12090146129863
% }
function s = harmonic(n : int)
    s = 0.0
    for k = 1..n
        s = s + 1 / k
    end
end
print round(harmonic(100000) * 1e12)
