% Planted race: every thread writes the same global element.
function [] = __kernel__ remember_last(flag : vec, pos : int)
    flag[0] = pos
end

flag = zeros(1)
parallel_do(32, flag, remember_last)
print flag[0] >= 0
