"""Peer of prog.q: `np.linalg.slogdet(Gd)[1]`."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import common  # noqa: E402

common.main(lambda xp, Gd: xp.linalg.slogdet(Gd)[1], ["Gd"],
            checksum=lambda xp, r: float(r))
