"""Peer of prog.q: `r = sqrt(abs(x - 100)) + mod(x, 7)` with NumPy or CuPy.

A chain of element-wise builtins.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import common  # noqa: E402

common.main(lambda xp, x: xp.sqrt(xp.abs(x - 100)) + xp.mod(x, 7), "x")
