"""Peer of prog.q: `r = transpose(g)` with NumPy or CuPy.

Transpose of an M x N matrix (NumPy: a contiguous copy of the view).
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import common  # noqa: E402


def checksum(xp, r):
    """The sum, plus the first row (it tells a transpose from a copy)."""
    return common.total(xp, r) + common.total(xp, r[0, :])


common.main(lambda xp, g: xp.ascontiguousarray(g.T), "g", checksum=checksum)
