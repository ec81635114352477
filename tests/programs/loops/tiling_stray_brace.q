% A `!kernel_tiling` line ending in a stray `}` (as printed in some published code)
% keeps its values: the target is "cpu", so the block shape applies here; `check` warns
% about the brace. Results equal the serial loop's.
% ==
% stdout {
% 64 2016 6048
% }
x = zeros(64, 64)
for i = 0..63
    for j = 0..63
        !kernel_tiling dims=[8, 16]; mode="global"; target="cpu"}
        x[i, j] = i + j
    end
end
print numel(x) / 64, " ", sum(x[0, :]), " ", sum(x[:, 63])
