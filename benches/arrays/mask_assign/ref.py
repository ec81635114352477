"""Peer of prog.q: `w[w > 200] = 200` with NumPy or CuPy.

Masked assignment, in place on a fresh copy made outside the timed region.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import common  # noqa: E402


def clip(xp, w):
    w[w > 200] = 200
    return w


common.main(clip, "x", setup=lambda x: (x.copy(),))
