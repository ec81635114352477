% Helper for import_error.q (no test block): reads past the end of its argument.
function y = second_of(v)
    y = v[5]
end
