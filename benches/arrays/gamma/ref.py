"""Peer of prog.q: `r = 255*(x/255).^0.45` with NumPy or CuPy.

Gamma correction, a real power.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import common  # noqa: E402

common.main(lambda xp, x: 255 * (x / 255) ** 0.45, "x")
