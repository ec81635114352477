"""Peer of prog.q: `U, s, Vt = np.linalg.svd(G)` (full matrices)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import common  # noqa: E402

common.main(lambda xp, G: xp.linalg.svd(G), ["G"],
            checksum=lambda xp, r: float(xp.sum(r[1], dtype=xp.float64)))
