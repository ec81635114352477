# Twin of recurrence.q.
s = 0.0
for i in range(1, 1000001):
    s = 0.5 * s + i % 7
print(s)
