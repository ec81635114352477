"""Peer of prog.q: `r = reshape(x, [M, N * C])` with NumPy or CuPy.

An image as an M x NC matrix, in the same element order (NumPy: a view, no copy).
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import common  # noqa: E402

def checksum(xp, r):
    """The sum, plus the first row (it tells the element order)."""
    return common.total(xp, r) + common.total(xp, r[0, :])


common.main(lambda xp, x: x.reshape(x.shape[0], -1), "x", checksum=checksum)
