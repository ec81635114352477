"""Peer of prog.q: `r = atan2(x, y)` with NumPy or CuPy.

Element-wise two-argument arctangent.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import common  # noqa: E402

common.main(lambda xp, x, y: xp.arctan2(x, y), "xy")
