"""Peer of prog.q: `np.linalg.solve(Gd, b)`."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import common  # noqa: E402

common.main(lambda xp, Gd, b: xp.linalg.solve(Gd, b), ["Gd", "b"],
            checksum=lambda xp, r: float(xp.sum(r, dtype=xp.float64)
                                         + xp.sum(xp.abs(r), dtype=xp.float64)))
