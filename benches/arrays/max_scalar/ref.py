"""Peer of prog.q: `r = max(x, 100)` with NumPy or CuPy.

Element-wise maximum with a scalar.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import common  # noqa: E402

common.main(lambda xp, x: xp.maximum(x, 100), "x")
