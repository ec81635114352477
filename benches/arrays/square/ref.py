"""Peer of prog.q: `r = x.^2` with NumPy or CuPy.

Element-wise power by 2.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import common  # noqa: E402

common.main(lambda xp, x: x**2, "x")
