"""Peer of prog.q: `r = sum((x - y).^2)` with NumPy or CuPy.

Squared distance of two images (a host value).
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import common  # noqa: E402

common.main(lambda xp, x, y: float(xp.sum((x - y) ** 2)), "xy")
