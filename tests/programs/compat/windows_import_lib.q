% Helper for windows_import.q (no test block): a small transfer function.
function y = gamma_curve(x, g)
    y = x .^ g
end
