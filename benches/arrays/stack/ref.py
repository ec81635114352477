"""Peer of prog.q: `r = [x, y]` with NumPy or CuPy.

Two images stacked along a new leading dimension (a matrix literal of arrays; NumPy: stack).
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import common  # noqa: E402

def checksum(xp, r):
    """The sum, plus a column of the second image (it tells the order of the parts)."""
    return common.total(xp, r) + common.total(xp, r[1, 0, :, 0])


common.main(lambda xp, x, y: xp.stack((x, y)), "xy", checksum=checksum)
