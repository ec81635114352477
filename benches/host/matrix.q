% Host interpreter: nested loops over a small matrix with element reads and writes:
% 260 Gauss-Seidel sweeps of a 64x64 grid (each update reads values written in the
% same sweep, so no kernel can take the loops).
% iterations: 999440
n = 64
A = zeros(n, n)
for j = 0..n-1
    A[0, j] = 1.
end
for sweep = 1..260
    for i = 1..n-2
        for j = 1..n-2
            A[i, j] = 0.25*(A[i-1, j] + A[i+1, j] + A[i, j-1] + A[i, j+1])
        end
    end
end
print sum(A)
