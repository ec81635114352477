"""Peer of prog.q: `np.linalg.inv(Gd)`."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import common  # noqa: E402

common.main(lambda xp, Gd: xp.linalg.inv(Gd), ["Gd"],
            checksum=lambda xp, r: float(xp.sum(xp.abs(r), dtype=xp.float64)))
