"""Peer of prog.q: `r = x > 128` with NumPy or CuPy.

Comparison (a 0/1 array; a bool array in NumPy).
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import common  # noqa: E402

common.main(lambda xp, x: x > 128, "x")
