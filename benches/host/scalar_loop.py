# Reference for scalar_loop.q: the same loop in CPython.
s = 0.0
for i in range(10000000):
    s += i * 0.5
print(s)
