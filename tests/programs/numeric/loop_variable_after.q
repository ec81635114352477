% After `for j = a..b` the variable holds the last value the loop gave it, in kernels
% as on the host (not the value past the end); a loop that runs no iteration leaves it
% as it was; `break` leaves the value it had; assigning it in the body does not change
% the iterations (issue 32, item 4).
% ==
% stdout {
% [4,7,3,10,5,100,-2]
% [4,7,3,10,5,100,-2]
% }
function [] = __kernel__ k(y : vec[int], pos : int)
    for j = 0..4
    end
    y[0] = j
    for j = 1..3..7
    end
    y[1] = j
    for j = 0..9
        if j == 3
            break
        end
    end
    y[2] = j
    n = 0
    for j = 0..4
        n += 2
        j = 100
    end
    y[3] = n
    y[4] = j - 95
    j = 100
    for j = 5..4
    end
    y[5] = j
    for j = 2..-2..-3
    end
    y[6] = j
end
function [] = h(y : vec[int], pos : int)
    for j = 0..4
    end
    y[0] = j
    for j = 1..3..7
    end
    y[1] = j
    for j = 0..9
        if j == 3
            break
        end
    end
    y[2] = j
    n = 0
    for j = 0..4
        n += 2
        j = 100
    end
    y[3] = n
    y[4] = j - 95
    j = 100
    for j = 5..4
    end
    y[5] = j
    for j = 2..-2..-3
    end
    y[6] = j
end
y = int(zeros(7))
parallel_do(1, y, k)
print y
y = int(zeros(7))
h(y, 0)
print y
