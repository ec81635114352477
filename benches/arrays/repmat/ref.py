"""Peer of prog.q: `r = repmat(g, [1, 1, 3])` with NumPy or CuPy.

An M x N matrix repeated into three channels.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import common  # noqa: E402

common.main(lambda xp, g: xp.tile(g[:, :, None], (1, 1, 3)), "g")
