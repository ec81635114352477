% Reductions along one dimension (`sum(x, d)`, `mean`, `prod`) fuse with their producer: a
% thread per element of the other dimensions loops over the reduced one. Int sums stay
% int, int means are real; unit dimensions of the result drop as on the host (a 1×N result is a vec).
% ==
% stdout {
% [ [6,46,86],
%   [406,446,486] ]
% [ [50,51,52,53],
%   [60,61,62,63],
%   [70,71,72,73] ]
% [ [60,66,72,78],
%   [660,666,672,678] ]
% [ [0.020000001,1.32,4.62],
%   [103.020004,124.32,147.62] ]
% [1,5][2,2,2,2,2]
% [ [6,46,86],
%   [406,446,486] ]
% [ [1.5,11.5,21.5],
%   [101.5,111.5,121.5] ]
% }
C = zeros(2, 3, 4)
for i = 0..1
    for j = 0..2
        for k = 0..3
            C[i, j, k] = 100 * i + 10 * j + k
        end
    end
end
print sum(C, 2)
print mean(C, 0)
print sum(C .* 2, 1)
print prod(C[:, :, 1..2] / 10, 2)
print size(sum(zeros(1, 5, 2) + 1, 2)), sum(zeros(1, 5, 2) + 1, 2)
n = int32(C)
print sum(n, 2)
print mean(n, 2)
