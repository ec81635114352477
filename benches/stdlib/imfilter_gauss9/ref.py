"""Peer of prog.q: y = imfilter(x, h, [4, 4], "mirror") as ndimage.correlate."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from ndimage import common, gauss9, ndimage  # noqa: E402


def op(xp, x):
    return ndimage(xp).correlate(x, gauss9(xp), mode="mirror")


common.main(op, "x")
