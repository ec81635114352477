% An attribute value that does not parse is a located error, before anything runs.
% ==
% error: attribute_bad_value\.q:7:5: error: `!kernel_tiling`: the value of `target` has no closing quote
print "never printed"
x = zeros(64, 64)
for i = 0..63
    {!kernel_tiling dims=[8, 8]; target="gpu}
    for j = 0..63
        x[i, j] = i + j
    end
end
