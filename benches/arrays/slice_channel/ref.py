"""Peer of prog.q: `r = x[:, :, 0]` with NumPy or CuPy.

One channel as a new matrix (NumPy: a copy of the view, so both sides copy).
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import common  # noqa: E402

common.main(lambda xp, x: x[:, :, 0].copy(), "x")
