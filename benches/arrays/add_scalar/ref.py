"""Peer of prog.q: `r = x + 1` with NumPy or CuPy.

Element-wise: add a scalar.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import common  # noqa: E402

common.main(lambda xp, x: x + 1, "x")
