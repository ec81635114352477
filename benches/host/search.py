# Twin of search.q.
def first_above(a, t):
    for k in range(len(a)):
        if a[k] > t:
            return k
    return -1


n = 1000000
a = [float((k * 7919) % 1000) for k in range(n)]
a[n - 1] = 5000.0
total = 0
for t in (998, 999, 1000, 1500, 2000, 3000, 4000, 4500):
    total += first_above(a, t)
print(total)
