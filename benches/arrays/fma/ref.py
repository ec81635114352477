"""Peer of prog.q: `r = x .* y + z` with NumPy or CuPy.

Element-wise product and sum of three images.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import common  # noqa: E402

common.main(lambda xp, x, y, z: x * y + z, "xyz")
