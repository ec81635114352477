# Twin of recurrence_10m.q.
s = 0.0
for i in range(1, 10000001):
    s = 0.5 * s + i % 7
print(s)
