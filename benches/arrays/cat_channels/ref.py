"""Peer of prog.q: `r = cat(2, x, y)` with NumPy or CuPy.

Two images joined along the channels, M x N x 2C (NumPy: concatenate along axis 2).
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import common  # noqa: E402

def checksum(xp, r):
    """The sum, plus the first channel of the second image along one row."""
    return common.total(xp, r) + common.total(xp, r[0, :, r.shape[2] // 2])


common.main(lambda xp, x, y: xp.concatenate((x, y), axis=2), "xy", checksum=checksum)
