% Under `--double` a function the compiled host tier runs computes in float64, as the
% interpreter does (without `--double` it prints 12.090142). Ten decimals: the last
% digits of a float64 sum depend on its order, which a run over several devices changes.
% ==
% options { --double }
% stdout {
% 12.0901461299
% }
function s = harmonic(n : int)
    s = 0.0
    for k = 1..n
        s = s + 1 / k
    end
end
printf("%.10f\n", harmonic(100000))
