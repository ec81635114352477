"""Peer of prog.q: `y = 255*(x/255).^0.45; t = y > 128; e = sum(t .* y)` with NumPy
or CuPy (three operations, two intermediate arrays; the sum read back to the host).
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import common  # noqa: E402


def pipeline(xp, x):
    y = 255 * (x / 255) ** 0.45
    t = y > 128
    return float(xp.sum(t * y))


common.main(pipeline, "x")
