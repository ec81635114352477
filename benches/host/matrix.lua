-- Twin of matrix.q, with a table of tables.
local n = 64
local A = {}
for i = 0, n - 1 do
    A[i] = {}
    for j = 0, n - 1 do
        A[i][j] = 0.0
    end
end
for j = 0, n - 1 do
    A[0][j] = 1.0
end
for sweep = 1, 260 do
    for i = 1, n - 2 do
        for j = 1, n - 2 do
            A[i][j] = 0.25 * (A[i - 1][j] + A[i + 1][j] + A[i][j - 1] + A[i][j + 1])
        end
    end
end
local total = 0.0
for i = 0, n - 1 do
    for j = 0, n - 1 do
        total = total + A[i][j]
    end
end
print(total)
