"""Peer of prog.q: gamma, a 3x3 box blur as nine shifted slices, threshold and sum with
NumPy or CuPy (the sum read back to the host).
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import common  # noqa: E402


def pipeline(xp, x):
    m, n = x.shape[0], x.shape[1]
    g = 255 * (x / 255) ** 0.45
    b = sum(g[i:m - 2 + i, j:n - 2 + j, :] for j in range(3) for i in range(3)) / 9
    t = b > 128
    return float(xp.sum(t * b))


common.main(pipeline, "x")
