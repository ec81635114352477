# Twin of builtins.q.
import math

s = 0.0
for i in range(1, 1000001):
    s = 0.5 * s + math.sqrt(i) + math.floor(i / 3) - i % 5
print(s)
