% An intermediate read later only inside a typed conversion (`y : vec`) is live: the
% statements still fuse around it, and the read sees this iteration's value (the second
% iteration's arrays are large enough to fuse; the first runs statement by statement).
for n = [4, 1000000]
    x = ones(1, n)
    y = x .* 2
    z = y + 1
    print n, " ", sum(y : vec), " ", sum(z)
endfor
% ==
% stdout {
% 4 8 12
% 1000000 2000000 3000000
% }
