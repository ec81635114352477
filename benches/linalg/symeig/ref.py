"""Peer of prog.q: `d, V = np.linalg.eigh(H)`."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import common  # noqa: E402

common.main(lambda xp, H: xp.linalg.eigh(H), ["H"],
            checksum=lambda xp, r: float(xp.sum(r[0], dtype=xp.float64)
                                         + xp.sum(xp.abs(r[0]), dtype=xp.float64)))
