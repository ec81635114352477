"""Peer of prog.q: `r = sum(x)` with NumPy or CuPy.

Sum of all elements (a host value).
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import common  # noqa: E402

common.main(lambda xp, x: float(xp.sum(x)), "x")
