"""Peer of prog.q: `r = A * B` with NumPy or CuPy.

Matrix product, S x S (NumPy: OpenBLAS; CuPy: cuBLAS).
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import common  # noqa: E402


def checksum(xp, r):
    """The sum, plus the sum of magnitudes (the sum alone may cancel)."""
    return common.total(xp, r) + common.total(xp, xp.abs(r))


common.main(lambda xp, A, B: A @ B, "AB", checksum=checksum)
