# Twin of call.q.
def f(x):
    return 0.5 * x + 1


s = 0.0
for i in range(1, 1000001):
    s = f(s)
print(s)
