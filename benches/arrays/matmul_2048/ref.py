"""Peer of prog.q: `r = A * B` of 2048 x 2048 matrices with NumPy or CuPy.

The harness passes the device's matrix size; this product is 2048 x 2048 everywhere.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import common  # noqa: E402

if len(sys.argv) == 7:
    sys.argv[5] = "2048"  # S, in `ref.py BACKEND M N C S REPS`


def checksum(xp, r):
    """The sum, plus the sum of magnitudes (the sum alone may cancel)."""
    return common.total(xp, r) + common.total(xp, xp.abs(r))


common.main(lambda xp, A, B: A @ B, "AB", checksum=checksum)
