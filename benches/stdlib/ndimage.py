"""Shared by the peers (`ref.py`) of benches/stdlib: the ndimage module of the backend
and the 9x9 Gaussian of the filter benchmark. The arguments, data, timing and output
are those of benches/arrays/common.py (`ref.py numpy|cupy M N C S REPS`): `numpy`
means SciPy's `scipy.ndimage` on the CPU, `cupy` means `cupyx.scipy.ndimage` on the
GPU."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "arrays"))
import common  # noqa: E402,F401  (re-exported for the ref.py files)


def ndimage(xp):
    if xp.__name__ == "cupy":
        import cupyx.scipy.ndimage as nd
    else:
        import scipy.ndimage as nd
    return nd


def gauss9(xp):
    """exp(-((m-4)^2 + (n-4)^2) / (2 * 1.5^2)), normalised, float32, 9x9x1 (each
    channel filtered alone)."""
    k = xp.arange(9, dtype=xp.float64) - 4
    g = xp.exp(-(k[:, None] ** 2 + k[None, :] ** 2) / (2 * 1.5**2))
    return (g / g.sum()).astype(xp.float32)[:, :, None]
