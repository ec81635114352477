"""Peer of prog.q: `r = sum(x, 2)` with NumPy or CuPy.

Sum along the channels: an M x N matrix.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import common  # noqa: E402

common.main(lambda xp, x: xp.sum(x, axis=2), "x")
