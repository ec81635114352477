"""Peer of prog.q: `r = x[0..M/2-1, :, :]` with NumPy or CuPy.

The first half of the rows as a new array (NumPy: a copy of the view, so both sides copy).
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import common  # noqa: E402

common.main(lambda xp, x: x[: x.shape[0] // 2].copy(), "x")
