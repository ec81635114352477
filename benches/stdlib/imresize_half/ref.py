"""Peer of prog.q: y = imresize(x, 0.5, "bilinear") as ndimage.zoom of order 1."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from ndimage import common, ndimage  # noqa: E402


def op(xp, x):
    return ndimage(xp).zoom(x, (0.5, 0.5, 1), order=1, grid_mode=True, mode="nearest")


common.main(op, "x")
