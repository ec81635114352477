"""The Python package: conversions, zero-copy, errors, reference counts, threads,
kernels and element-wise expressions (on the CPU; the GPU cases skip without one)."""

import gc
import sys
import threading
import time

import numpy as np
import pytest

import blazar

SOURCE = """
function y = ident(x)
    y = x
end

function y = dup(x)
    y = copy(x)
end

function [] = poke(x, v)
    x[0] = v
end

function y = scale(x, a = 2.0, b = 1.0)
    y = a * x + b
end

function [s, p] = sum_prod(a, b)
    s = a + b
    p = a * b
end

function c = make_cell()
    c = cell(3)
    c[0] = "a"
    c[1] = [1, 2]
    c[2] = 7
end

function n = count(c)
    n = numel(c)
end

function y = zeros_of(n : int)
    y = zeros(n)
end

function y = inner(x)
    if x < 0
        error("value must be positive")
    end
    y = x
end

function y = outer(x)
    y = inner(x - 10)
end

function s = spin(n : int)
    s = 0
    i = 0
    while i < n
        s = s + 1
        i = i + 1
    end
end

function s = churn(n : int)
    s = 1
    for i = 1..n
        s = mod(s * 48271 + i, 2147483647)
    end
end

function [] = nothing()
end
"""

DTYPES = [
    np.float32, np.float64, np.complex64, np.complex128,
    np.int8, np.int16, np.int32, np.int64,
    np.uint8, np.uint16, np.uint32, np.uint64,
]


@pytest.fixture(scope="module")
def m(tmp_path_factory):
    path = tmp_path_factory.mktemp("q") / "prog.q"
    path.write_text(SOURCE)
    return blazar.load(path, device="cpu")


def sample(dtype, shape):
    a = (np.arange(int(np.prod(shape))) % 100).reshape(shape)
    if np.issubdtype(dtype, np.complexfloating):
        return (a + 1j * a).astype(dtype)
    return a.astype(dtype)


# ---- conversions ---------------------------------------------------------------------


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(5,), (3, 4), (2, 3, 4), (2, 2, 3, 2)])
def test_arrays_round_trip_every_type_and_rank(m, dtype, shape):
    x = sample(dtype, shape)
    y = m.dup(x)
    assert isinstance(y, np.ndarray)
    assert y.dtype == x.dtype and y.shape == x.shape
    np.testing.assert_array_equal(y, x)
    assert not np.shares_memory(x, y)


@pytest.mark.parametrize("dtype", DTYPES)
def test_argument_is_lent_without_copy(m, dtype):
    x = sample(dtype, (4, 3))
    m.poke(x, 42)
    assert x[0, 0] == 42


def test_returned_argument_is_the_callers_array(m):
    x = np.arange(6, dtype=np.float32)
    y = m.ident(x)
    assert y is x
    y[2] = -1.0
    assert x[2] == -1.0


def test_result_moves_into_numpy_without_copy(m):
    y = m.zeros_of(1000)
    assert y.dtype == np.float32 and y.shape == (1000,)
    assert not y.flags.owndata  # NumPy views Blazar's buffer, moved (not copied) in
    y[0] = 3.0
    assert y[0] == 3.0


def test_non_contiguous_and_readonly_arrays_are_copied(m):
    x = np.zeros((4, 4), dtype=np.float64)
    view = x[:, ::2]
    m.poke(view, 5)
    assert x[0, 0] == 0.0
    r = np.zeros(3)
    r.flags.writeable = False
    m.poke(r, 5)
    assert r[0] == 0.0
    fortran = np.asfortranarray(np.arange(6.0).reshape(2, 3))
    np.testing.assert_array_equal(m.dup(fortran), fortran)


def test_bool_arrays_become_uint8(m):
    y = m.dup(np.array([True, False, True]))
    assert y.dtype == np.uint8
    np.testing.assert_array_equal(y, [1, 0, 1])


def test_scalars_strings_and_named_arguments(m):
    assert m.scale(3.0) == 7.0
    assert m.scale(3.0, b=5.0) == 11.0
    assert m.scale(3.0, a=1.0, b=0.0) == 3.0
    assert m.scale(x=1.0, b=0.5) == 2.5
    s, p = m.sum_prod(2, 5)
    assert (s, p) == (7, 10)
    assert isinstance(s, int)
    z = m.ident(1 + 2j)
    assert z == 1 + 2j
    assert m.ident("text") == "text"
    assert m.ident(np.float32(1.5)) == 1.5
    assert m.ident(np.array(4.0)) == 4.0
    assert m.nothing() is None


def test_cells_lists_tuples_and_dicts(m):
    c = m.make_cell()
    assert isinstance(c, list) and len(c) == 3
    assert c[0] == "a" and c[2] == 7
    np.testing.assert_array_equal(c[1], [1, 2])
    assert m.count([1, "b", np.zeros(3)]) == 3
    back = m.ident([1, "b", [2.5]])
    assert back == [1, "b", [2.5]]
    t = m.ident((1, 2, 3))
    np.testing.assert_array_equal(t, [1, 2, 3])
    assert m.ident({"a": 1, "b": "c"}) == {"a": 1, "b": "c"}


def test_unconvertible_values_raise_type_error(m):
    with pytest.raises(TypeError):
        m.ident(object())
    with pytest.raises(TypeError):
        m.ident(np.zeros(3, dtype=np.float16))


# ---- errors --------------------------------------------------------------------------


def test_runtime_error_carries_location_and_stack(m):
    with pytest.raises(blazar.Error) as info:
        m.outer(3.0)
    e = info.value
    assert e.message == "value must be positive"
    assert e.location.endswith("prog.q:40:9")
    assert len(e.stack) == 1 and "`inner` was called here" in e.stack[0]
    assert "prog.q:46:9" in e.stack[0]
    assert "error: value must be positive" in str(e)


def test_compile_error_on_load():
    with pytest.raises(blazar.Error) as info:
        blazar.module("function y = f(x)\n    y = x + undefined_name\nend\n", device="cpu")
    assert "undefined variable or function `undefined_name`" in str(info.value)
    assert info.value.location == "<module>:2:13"


def test_call_errors(m):
    with pytest.raises(AttributeError):
        m.no_such_function
    with pytest.raises(blazar.Error, match="missing argument `x`"):
        m.scale()
    with pytest.raises(blazar.Error, match="has no parameter `c`"):
        m.scale(1.0, c=2.0)
    with pytest.raises(blazar.Error, match="takes 3 arguments, got 4"):
        m.scale(1, 2, 3, 4)
    with pytest.raises(blazar.Error, match="unknown device"):
        blazar.module("x = 1\n", device="tpu")


# ---- reference counts ----------------------------------------------------------------


def test_no_leak_over_many_calls(m):
    x = np.ones(16, dtype=np.float32)
    for _ in range(1000):  # warm up caches
        m.dup(x)
        m.ident(x)
    gc.collect()
    refs = sys.getrefcount(x)
    blocks = sys.getallocatedblocks()
    for _ in range(100_000):
        m.dup(x)
        m.ident(x)
        m.scale(1.0, b=2.0)
    gc.collect()
    assert sys.getrefcount(x) == refs
    assert sys.getallocatedblocks() - blocks < 100


# ---- threads -------------------------------------------------------------------------


def test_gil_is_released_during_a_long_call(m):
    ticks = 0
    done = threading.Event()

    def run():
        m.spin(30_000_000)
        done.set()

    t = threading.Thread(target=run)
    t.start()
    while not done.is_set():
        ticks += 1
        time.sleep(0.001)
    t.join()
    assert ticks > 5


def test_two_threads_calling_at_once(m):
    errors = []

    def work(k):
        try:
            x = np.full(1000, float(k), dtype=np.float64)
            for _ in range(200):
                y = m.scale(x, a=2.0, b=float(k))
                assert np.all(y == 3.0 * k)
                assert m.spin(100) == 100
        except Exception as e:  # noqa: BLE001 (reported below)
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(1, 5)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


# ---- kernels and element-wise expressions --------------------------------------------


GAMMA = "__kernel__ (x : cube, g : scalar, pos : ivec3) -> x[pos] = 255*(x[pos]/255)^g"


def test_kernel_writes_in_place():
    k = blazar.kernel(GAMMA, device="cpu")
    assert k.params == ["x", "g"]
    x = np.random.default_rng(1).uniform(0, 255, (64, 48, 3)).astype(np.float32)
    want = (255 * (x / 255) ** np.float32(0.45)).astype(np.float32)
    k(x.shape, x, 0.45)
    np.testing.assert_allclose(x, want, rtol=1e-5)


def test_kernel_argument_count_is_checked():
    k = blazar.kernel(GAMMA, device="cpu")
    with pytest.raises(TypeError, match="takes 2 arguments"):
        k((2, 2, 3), np.zeros((2, 2, 3), np.float32))


def test_elementwise_by_name_and_position():
    f = blazar.elementwise("255*(x/255)^g", device="cpu")
    assert f.names == ["x", "g"]
    x = np.random.default_rng(2).uniform(0, 255, (300, 200, 3)).astype(np.float32)
    want = 255 * (x / 255) ** np.float32(0.45)
    np.testing.assert_allclose(f(x=x, g=0.45), want, rtol=1e-5)
    np.testing.assert_allclose(f(x, 0.45), want, rtol=1e-5)
    np.testing.assert_allclose(f(x, g=0.45), want, rtol=1e-5)
    with pytest.raises(TypeError, match="missing argument `g`"):
        f(x)


def test_elementwise_names_in_order_of_first_appearance():
    f = blazar.elementwise("a*exp(-b) + c*a", device="cpu")
    assert f.names == ["a", "b", "c"]
    assert f(2.0, 0.0, 3.0) == pytest.approx(8.0)


def test_elementwise_syntax_error():
    with pytest.raises(blazar.Error):
        blazar.elementwise("x + * 2", device="cpu")


# ---- GPU (DLPack) ----------------------------------------------------------------------


def _cupy():
    try:
        import cupy  # noqa: F401

        return cupy
    except Exception:  # noqa: BLE001
        return None


gpu = pytest.mark.skipif(
    _cupy() is None or not blazar.cuda_available(),
    reason="no CUDA device with CuPy here (runs on the GPU machine)",
)


@gpu
def test_cuda_module_runs_on_the_gpu():
    f = blazar.elementwise("255*(x/255)^g", device="cuda")
    assert f.device == "cuda"
    x = np.random.default_rng(3).uniform(0, 255, (64, 64, 3)).astype(np.float32)
    np.testing.assert_allclose(f(x, 0.45), 255 * (x / 255) ** np.float32(0.45), rtol=1e-4)


def _torch_cuda():
    try:
        import torch

        return torch if torch.cuda.is_available() else None
    except Exception:  # noqa: BLE001
        return None


gpu_torch = pytest.mark.skipif(
    _torch_cuda() is None or not blazar.cuda_available(),
    reason="no CUDA device with PyTorch here (runs on the GPU machine)",
)


@gpu
def test_cupy_arrays_through_dlpack():
    cupy = _cupy()
    f = blazar.elementwise("2*x + 1", device="cuda")
    x = cupy.arange(100_000, dtype=cupy.float32)
    y = f(x)
    assert y.__dlpack_device__() == (2, x.device.id)
    assert isinstance(y, blazar.DLArray)
    z = cupy.from_dlpack(y)
    cupy.testing.assert_allclose(z, 2 * x + 1)
    # Zero-copy out: two consumers see one memory.
    assert cupy.from_dlpack(y).data.ptr == z.data.ptr


@gpu
def test_kernel_writes_a_cupy_array_in_place():
    cupy = _cupy()
    k = blazar.kernel("__kernel__ (x : cube, g : scalar, pos : ivec3) -> "
                      "x[pos] = 255*(x[pos]/255)^g", device="cuda")
    x = cupy.random.uniform(0, 255, (64, 32, 3)).astype(cupy.float32)
    want = 255 * (x / 255) ** cupy.float32(0.45)
    k(x.shape, x, 0.45)
    cupy.testing.assert_allclose(x, want, rtol=1e-4)


@gpu
def test_cupy_argument_returned_is_the_callers_array():
    cupy = _cupy()
    m = blazar.module("function y = ident(x)\n    y = x\nend\n", device="cuda")
    x = cupy.ones((300, 200), dtype=cupy.float64)
    assert m.ident(x) is x


@gpu
def test_cupy_array_on_a_cpu_module_is_an_error():
    cupy = _cupy()
    f = blazar.elementwise("2*x", device="cpu")
    with pytest.raises(blazar.Error, match="runs on the CPU"):
        f(cupy.ones(10, dtype=cupy.float32))


@gpu_torch
def test_torch_cuda_tensors_through_dlpack():
    torch = _torch_cuda()
    f = blazar.elementwise("255*(x/255)^g", device="cuda")
    x = torch.rand(64, 64, 3, device="cuda") * 255
    y = torch.from_dlpack(f(x, 0.45))
    assert y.is_cuda
    torch.testing.assert_close(y, 255 * (x / 255) ** 0.45, rtol=1e-4, atol=1e-3)
    # A non-contiguous tensor is gathered on the GPU.
    xt = x.transpose(0, 1)
    assert not xt.is_contiguous()
    yt = torch.from_dlpack(f(xt, 0.45))
    torch.testing.assert_close(yt, 255 * (xt / 255) ** 0.45, rtol=1e-4, atol=1e-3)


@gpu_torch
def test_kernel_writes_a_non_contiguous_torch_tensor_on_a_side_stream():
    torch = _torch_cuda()
    k = blazar.kernel("__kernel__ (x : mat, pos : ivec2) -> x[pos] = 2*x[pos] + 1",
                      device="cuda")
    base = torch.arange(12.0, device="cuda").reshape(3, 4)
    want = base.clone()
    want[:, ::2] = 2 * want[:, ::2] + 1
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        view = base[:, ::2]
        k(tuple(view.shape), view)
        got = base.clone()  # on the side stream, after Blazar's work
    s.synchronize()
    torch.testing.assert_close(got, want)


# ---- GPU: memory, streams and strided arrays -------------------------------------------


@gpu
def test_elementwise_results_reuse_the_pool():
    cupy = _cupy()
    f = blazar.elementwise("2*x + 1", device="cuda")
    x = cupy.arange(1 << 20, dtype=cupy.float32)
    for _ in range(3):
        f(x)
    before = f.memory_stats()
    for _ in range(100):
        f(x)  # the result is dropped at once: its memory goes home
    for _ in range(20):
        y = cupy.from_dlpack(f(x))  # taken by CuPy, then let go
        del y
    after = f.memory_stats()
    assert after["device"] == "cuda"
    assert after["allocs"] == before["allocs"], (before, after)
    assert after["reuses"] - before["reuses"] >= 120, (before, after)
    assert after["returned"] - before["returned"] >= 119, (before, after)
    assert after["export_copies"] == 0, after
    cupy.testing.assert_allclose(cupy.from_dlpack(f(x)), 2 * x + 1)


@gpu
def test_results_are_ordered_before_a_non_blocking_consumer_stream():
    cupy = _cupy()
    f = blazar.elementwise("255*(x/255)^g", device="cuda")
    x = cupy.random.uniform(0, 255, (2048, 2048)).astype(cupy.float32)
    want = 255 * (x / 255) ** cupy.float32(0.45)
    s = cupy.cuda.Stream(non_blocking=True)
    for _ in range(5):
        with s:
            y = cupy.from_dlpack(f(x, 0.45))
            total = float(y.sum())  # on s, after Blazar's kernel
        s.synchronize()
        assert abs(total - float(want.sum())) <= 1e-3 * abs(float(want.sum()))


@gpu
def test_kernel_in_place_then_cupy_reads_on_a_non_blocking_stream():
    cupy = _cupy()
    k = blazar.kernel("__kernel__ (x : vec, pos : int) -> x[pos] = x[pos] + 1", device="cuda")
    s = cupy.cuda.Stream(non_blocking=True)
    with s:
        x = cupy.zeros(1 << 22, dtype=cupy.float32)
        s.synchronize()
        for _ in range(10):
            k(x.shape, x)
        total = float(x.sum())
    assert total == 10.0 * (1 << 22)


@gpu
def test_strided_cupy_views_are_gathered_and_written_back():
    cupy = _cupy()
    f = blazar.elementwise("2*x + 1", device="cuda")
    a = cupy.arange(60, dtype=cupy.float32).reshape(3, 4, 5)
    for view in (a.transpose(2, 0, 1), a[:, ::2, 1:], a[..., 3]):
        assert not view.flags.c_contiguous
        cupy.testing.assert_array_equal(cupy.from_dlpack(f(view)), 2 * view + 1)
    k = blazar.kernel("__kernel__ (x : mat, pos : ivec2) -> x[pos] = -x[pos]", device="cuda")
    b = cupy.arange(30, dtype=cupy.float64).reshape(5, 6)
    want = b.copy()
    want[::2, 1::2] *= -1
    view = b[::2, 1::2]
    k(view.shape, view)
    cupy.testing.assert_array_equal(b, want)  # written back into the caller's array
    t = b.T
    k(t.shape, t)
    cupy.testing.assert_array_equal(b, -want)


@gpu
def test_strided_cupy_views_that_repeat_or_alias_are_refused():
    cupy = _cupy()
    k = blazar.kernel("__kernel__ (x : mat, y : mat, pos : ivec2) -> y[pos] = x[pos]",
                      device="cuda")
    row = cupy.arange(4, dtype=cupy.float32)
    bcast = cupy.broadcast_to(row, (3, 4))
    out = cupy.zeros((3, 4), dtype=cupy.float32)
    with pytest.raises(blazar.Error, match="overlap|read-only"):
        k((3, 4), bcast, out)
    sq = cupy.arange(16, dtype=cupy.float32).reshape(4, 4)
    with pytest.raises(blazar.Error, match="shares memory"):
        k((4, 4), sq, sq.T)
    # Sliding windows: no stride is 0, yet element 1 is in windows 0 and 1.
    flat = cupy.arange(10, dtype=cupy.float32)
    windows = cupy.lib.stride_tricks.as_strided(flat, shape=(8, 3), strides=(4, 4))
    with pytest.raises(blazar.Error, match="overlap"):
        k((8, 3), cupy.zeros((8, 3), dtype=cupy.float32), windows)


# ---- DLPack on the CPU ---------------------------------------------------------------


class Producer:
    """An array known to Blazar only through DLPack (as a PyTorch CPU tensor would be)."""

    def __init__(self, a, legacy=False):
        self.a = a
        self.legacy = legacy

    def __dlpack__(self, stream=None, max_version=None, **kw):
        if self.legacy:
            if max_version is not None:
                raise TypeError("__dlpack__() got an unexpected keyword 'max_version'")
            return self.a.__dlpack__(stream=stream)
        return self.a.__dlpack__(stream=stream, max_version=max_version, **kw)

    def __dlpack_device__(self):
        return self.a.__dlpack_device__()


def test_cpu_dlpack_objects_are_accepted(m):
    x = np.arange(4, dtype=np.float64)
    np.testing.assert_array_equal(np.from_dlpack(m.dup(Producer(x))), x)


@pytest.mark.parametrize("legacy", [False, True])
@pytest.mark.parametrize("dtype", DTYPES)
def test_dlpack_argument_is_lent_and_results_go_out_through_dlpack(m, dtype, legacy):
    x = sample(dtype, (3, 4))
    p = Producer(x, legacy)
    m.poke(p, 42)
    assert x[0, 0] == 42  # the kernel wrote the producer's own memory
    r = m.dup(p)
    assert isinstance(r, blazar.DLArray)
    assert r.__dlpack_device__() == (1, 0)
    assert r.shape == (3, 4) and r.dtype == np.dtype(dtype).name
    a, b = np.from_dlpack(r), np.from_dlpack(r)
    np.testing.assert_array_equal(a, x)
    assert np.shares_memory(a, b)  # handed out without a copy
    assert not np.shares_memory(a, x)
    np.testing.assert_array_equal(np.asarray(r), x)


def test_dlpack_argument_returned_is_the_producer(m):
    p = Producer(np.arange(6, dtype=np.float32))
    assert m.ident(p) is p


def test_strided_and_readonly_dlpack_arguments_are_copied(m):
    x = np.arange(12, dtype=np.float64).reshape(3, 4)
    np.testing.assert_array_equal(np.from_dlpack(m.dup(Producer(x[:, ::2]))), x[:, ::2])
    ro = np.arange(5, dtype=np.float32)
    ro.flags.writeable = False
    m.poke(Producer(ro), 9)
    assert ro[0] == 0  # a read-only producer is never written


def test_dlpack_results_outlive_their_consumers(m):
    r = m.scale(Producer(np.ones(1000, dtype=np.float32)), 3.0)
    views = [np.from_dlpack(r) for _ in range(3)]
    del r
    gc.collect()
    for v in views:
        np.testing.assert_array_equal(v, np.full(1000, 4.0, dtype=np.float32))


def test_dlpack_tensors_are_released(m):
    x = np.arange(100, dtype=np.float64)
    p = Producer(x)
    before = sys.getrefcount(x)
    for _ in range(2000):
        m.dup(p)
        m.poke(p, 1)
    gc.collect()
    assert sys.getrefcount(x) == before


def test_memory_stats_of_a_cpu_module(m):
    f = blazar.elementwise("2*x", device="cpu")
    assert f.memory_stats() == {"device": "cpu"}
    assert m.memory_stats()["device"] == "cpu"


def test_gpu_array_on_a_cpu_module_is_an_error(m):
    class OnGpu:
        def __dlpack__(self, **kw):
            raise AssertionError("must not be taken")

        def __dlpack_device__(self):
            return (2, 0)

    with pytest.raises(blazar.Error, match="runs on the CPU"):
        m.dup(OnGpu())


# ---- Ctrl-C --------------------------------------------------------------------------


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_stops_a_long_call(m):
    import os
    import signal

    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        # A background job of a non-interactive shell starts with SIGINT ignored:
        # Ctrl-C cannot reach it, and Blazar keeps it so.
        pytest.skip("SIGINT is ignored in this process (started in the background)")
    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        # A recurrence no compiler can fold: seconds even as native code, so the
        # interrupt must stop it (compiled code polls the flag).
        m.churn(2_000_000_000)
    timer.join()
    assert time.monotonic() - started < 1.3
    # The module still works, and the next call is not stopped.
    assert m.spin(10) == 10
