"""Peer of prog.q: `r = copy(x)` with NumPy or CuPy.

A copy of the whole image.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import common  # noqa: E402

common.main(lambda xp, x: x.copy(), "x")
