# Twin of affine.q: the same recurrence in CPython.
s = 0.0
for i in range(1000000):
    s = 0.5 * s + i
print(s)
