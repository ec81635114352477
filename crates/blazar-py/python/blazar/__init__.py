"""Blazar from Python: Quasar modules, kernels and element-wise expressions.

    m = blazar.load("prog.q")           # or blazar.module(source_text)
    y = m.denoise(img, sigma=10.0)      # a Quasar function, named arguments by name

    k = blazar.kernel("__kernel__ (x : cube, g : scalar, pos : ivec3) -> "
                      "x[pos] = 255*(x[pos]/255)^g")
    k(x.shape, x, 0.45)                 # writes x in place

    f = blazar.elementwise("255*(x/255)^g")
    y = f(x=img, g=0.45)                # or f(img, 0.45): free names in order of appearance

Arrays of other libraries pass through DLPack without a copy (CuPy arrays and PyTorch
tensors on the GPU, anything with `__dlpack__`); the results of such a call come back as
`DLArray`s on the same device: `cupy.from_dlpack(r)`, `torch.from_dlpack(r)`. A strided
GPU array (a slice, a transposed view) is copied to a contiguous one on the GPU and
copied back after the call, so a kernel's writes reach it. A call on CuPy or PyTorch GPU
arrays returns without waiting for the GPU, ordered on the library's current stream.
Ctrl-C stops a long call with `KeyboardInterrupt`.

`device` is "auto" (CUDA when a GPU is usable, else the CPU, as `blazar run`), "cpu" or
"cuda"; `double=True` runs in double precision (`blazar run --double`). Errors raise
`blazar.Error`.
"""

from ._native import DLArray, Error, Function, Module, cuda_available, free_names, kernel_params
from ._native import load as _load
from ._native import module as _module

__all__ = [
    "Error",
    "DLArray",
    "Module",
    "Function",
    "Kernel",
    "Elementwise",
    "load",
    "module",
    "kernel",
    "elementwise",
    "cuda_available",
]


def load(path, device=None, double=False, threads=0):
    """Loads and compiles the Quasar module in file `path`; its functions are attributes."""
    return _load(str(path), device=device, double=double, threads=threads)


def module(source, name="<module>", device=None, double=False, threads=0):
    """Compiles a Quasar module from its text; its functions are attributes."""
    return _module(source, name=name, device=device, double=double, threads=threads)


class Kernel:
    """A `__kernel__` function launched over an index space: `k(dims, *args)`.

    `dims` is the launch's shape (a tuple such as `x.shape`); `args` are the kernel's
    parameters except `pos` (and `blkpos`, `blkdim`, ...), in order. Arrays are passed
    without a copy where their dtype and layout allow, so the kernel's writes land in
    the caller's arrays.
    """

    def __init__(self, source, device=None, double=False, threads=0):
        self.params = kernel_params(source)
        args = ", ".join(self.params)
        text = (
            f"function [] = blazar_launch_(blazar_dims_{', ' if args else ''}{args})\n"
            f"    blazar_kernel_ = {source}\n"
            f"    parallel_do(blazar_dims_, {args}{', ' if args else ''}blazar_kernel_)\n"
            "end\n"
        )
        self.source = source
        self._module = _module(text, name="<kernel>", device=device, double=double,
                               threads=threads)
        self._launch = self._module.blazar_launch_

    @property
    def device(self):
        return self._module.device

    def memory_stats(self):
        """Counts of the GPU memory pool (`Module.memory_stats`)."""
        return self._module.memory_stats()

    def __call__(self, dims, *args):
        if len(args) != len(self.params):
            raise TypeError(
                f"this kernel takes {len(self.params)} arguments after the dimensions "
                f"({', '.join(self.params)}), got {len(args)}"
            )
        if isinstance(dims, int):
            dims = (dims,)
        self._launch(tuple(dims), *args)

    def __repr__(self):
        return f"<blazar kernel ({', '.join(self.params)}) on {self.device}>"


class Elementwise:
    """An element-wise expression over arrays and scalars, fused into one kernel.

    Call it with the expression's free names by name (`f(x=img, g=0.45)`) or by
    position in their order of first appearance (`f(img, 0.45)`).
    """

    def __init__(self, expr, device=None, double=False, threads=0):
        self.names = free_names(expr)
        args = ", ".join(self.names)
        text = f"function y = blazar_elementwise_({args})\n    y = {expr}\nend\n"
        self.expr = expr
        self._module = _module(text, name="<elementwise>", device=device, double=double,
                               threads=threads)
        self._fn = self._module.blazar_elementwise_

    @property
    def device(self):
        return self._module.device

    def memory_stats(self):
        """Counts of the GPU memory pool (`Module.memory_stats`): a loop of calls whose
        results go out through DLPack allocates once (`allocs`), then `reuses`."""
        return self._module.memory_stats()

    def __call__(self, *args, **kwargs):
        if len(args) > len(self.names):
            raise TypeError(
                f"`{self.expr}` has {len(self.names)} free names ({', '.join(self.names)}), "
                f"got {len(args)} arguments"
            )
        values = list(args)
        for name in self.names[len(args):]:
            if name not in kwargs:
                raise TypeError(f"missing argument `{name}` of `{self.expr}`")
            values.append(kwargs.pop(name))
        if kwargs:
            extra = ", ".join(sorted(kwargs))
            raise TypeError(
                f"`{self.expr}` has no free name {extra} (its names: {', '.join(self.names)})"
            )
        return self._fn(*values)

    def __repr__(self):
        return f"<blazar elementwise {self.expr!r} on {self.device}>"


def kernel(source, device=None, double=False, threads=0):
    """Compiles a `__kernel__` lambda; call the result as `k(dims, *args)`."""
    return Kernel(source, device=device, double=double, threads=threads)


def elementwise(expr, device=None, double=False, threads=0):
    """Compiles an element-wise expression; call it with its free names."""
    return Elementwise(expr, device=device, double=double, threads=threads)
