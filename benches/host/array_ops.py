# Reference for array_ops.q: the same element-wise work in plain CPython lists would be
# unfair; NumPy is what a researcher would use, so it is the reference when installed.
import numpy as np
x = np.random.rand(2048, 2048).astype(np.float32)
y = np.zeros((2048, 2048), dtype=np.float32)
for k in range(10):
    y = y + 0.5 * x * x - x / 4
print(int(y.sum() > 0))
