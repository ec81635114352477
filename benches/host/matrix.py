# Twin of matrix.q, with a list of lists as a user without NumPy writes it.
n = 64
A = [[0.0] * n for _ in range(n)]
for j in range(n):
    A[0][j] = 1.0
for sweep in range(1, 261):
    for i in range(1, n - 1):
        for j in range(1, n - 1):
            A[i][j] = 0.25 * (A[i - 1][j] + A[i + 1][j] + A[i][j - 1] + A[i][j + 1])
print(sum(sum(row) for row in A))
