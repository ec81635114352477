% return leaves a function early, also from inside a loop.
% ==
% stdout {
% 3
% -1
% done
% }
function idx = find_first(v, x)
    idx = -1
    for i = 0..numel(v) - 1
        if v[i] == x
            idx = i
            return
        end
    end
end
print find_first([5, 6, 7, 8], 8)
print find_first([5, 6], 1)
function [] = say()
    print "done"
    return
    print "not reached"
end
say()
