# Twin of call_compiled.q: ten million calls of a small function from a loop.
def step(x, i):
    return 0.5 * x + i % 7


def run(n):
    s = 0.0
    for i in range(1, n + 1):
        s = step(s, i)
    return s


print(run(10000000))
