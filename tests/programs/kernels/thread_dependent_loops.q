% Counted loops whose bounds are the thread's position itself (no arithmetic on it):
% each thread runs its own trip count and reads its own loop variable.
% ==
% stdout {
% [0,1,2,3,4,5]
% [1,2,3,4,5,6]
% [5,4,3,2,1,0]
% [0,1,3,6,10,15]
% }
function [] = __kernel__ up_to(y : vec[int], pos : int)
    for i = 0..pos
        y[pos] = i
    end
end

function [] = __kernel__ count_down(y : vec[int], pos : int)
    c = 0
    for i = pos..-1..0
        c = c + 1
    end
    y[pos] = c
end

function [] = __kernel__ from_pos(y : vec[int], pos : int)
    last = -1
    for i = pos..5
        last = i
    end
    y[pos] = last - pos
end

function [] = __kernel__ triangle(y : vec[int], pos : int)
    s = 0
    for i = 1..pos
        s += i
    end
    y[pos] = s
end

y = int(zeros(6))
parallel_do(6, y, up_to)
print y
parallel_do(6, y, count_down)
print y
parallel_do(6, y, from_pos)
print y
parallel_do(6, y, triangle)
print y
