"""Peer of prog.q: `r = exp(-x/64)` with NumPy or CuPy.

Element-wise exponential.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import common  # noqa: E402

common.main(lambda xp, x: xp.exp(-x / 64), "x")
