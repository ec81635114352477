% if / elseif / else chains, closed with `end` or `endif`.
% ==
% stdout {
% negative
% zero
% small
% large
% yes
% }
function [] = classify(x)
    if x < 0
        print "negative"
    elseif x == 0
        print "zero"
    elseif x < 10
        print "small"
    else
        print "large"
    endif
end
classify(-3)
classify(0)
classify(4)
classify(100)
if 1 < 2 && 3 > 2
    print "yes"
end
