"""Peer of prog.q: y = immedfilt(x, 1) as ndimage.median_filter."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from ndimage import common, ndimage  # noqa: E402


def op(xp, x):
    return ndimage(xp).median_filter(x, size=(3, 3, 1), mode="nearest")


common.main(op, "x")
