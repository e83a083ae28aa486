"""The cuda backend on a GPU: streams and events, the memory pool, out-of-memory errors,
boundscheck, PTX, errors that leave the context usable, and sticky errors. Tests marked
`needs_cuda` are skipped unless the cuda backend is active (SIMT_BACKEND=cuda on a GPU); the
others pin down behaviour both backends share (random bits, fills, copies, threads) and run on
either."""
import os
import subprocess
import sys
import threading

import numpy as np
import pytest

import simt
from simt import cuda

from conftest import ROOT

SIMT_PATH = os.path.dirname(os.path.dirname(os.path.abspath(simt.__file__)))  # where the simt under test lives

needs_cuda = pytest.mark.skipif(simt.backend() != "cuda", reason="needs the cuda backend (SIMT_BACKEND=cuda on a GPU)")

SEED_ERROR_TEXT = ("CUDA_ERROR_INVALID_VALUE: This indicates that one or more of the parameters passed to the API "
                   "call is not within an acceptable range of values.")


@cuda.jit
def spin(A, n):
    """Each thread runs n dependent multiply-adds: device time grows with n."""
    i = cuda.grid(1)
    if i < A.size:
        v = A[i]
        for _ in range(n):
            v = v * 0.999999 + 1e-7
        A[i] = v


@cuda.jit
def axpy(a, X, Y, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a * X[i] + Y[i]


@cuda.jit
def copy_kernel(src, dst):
    i = cuda.grid(1)
    if i < dst.size:
        dst[i] = src[i]


# ---- Philox4x32-10 in NumPy: the cpu backend's formula, to check both backends bit for bit ----
_MASK = np.uint64(0xFFFFFFFF)


def philox_words(counters, seed):
    c0 = counters & _MASK
    c1 = counters >> np.uint64(32)
    c2 = np.zeros_like(counters)
    c3 = np.zeros_like(counters)
    k0, k1 = np.uint64(seed & 0xFFFFFFFF), np.uint64(seed >> 32)
    for _ in range(10):
        p0 = np.uint64(0xD2511F53) * c0
        p1 = np.uint64(0xCD9E8D57) * c2
        c0, c1, c2, c3 = (p1 >> np.uint64(32)) ^ c1 ^ k0, p1 & _MASK, (p0 >> np.uint64(32)) ^ c3 ^ k1, p0 & _MASK
        k0 = (k0 + np.uint64(0x9E3779B9)) & _MASK
        k1 = (k1 + np.uint64(0xBB67AE85)) & _MASK
    return c0, c1, c2, c3


def reference_uniform64(seed, offset, n, low, high):
    w = philox_words(np.arange(offset, offset + (n + 1) // 2, dtype=np.uint64), seed)
    bits = np.empty(2 * len(w[0]), dtype=np.uint64)
    bits[0::2] = (w[0] << np.uint64(32)) | w[1]
    bits[1::2] = (w[2] << np.uint64(32)) | w[3]
    unit = (bits[:n] >> np.uint64(11)).astype(np.float64) * (1.0 / 9007199254740992.0)
    return low + (high - low) * unit


def reference_uniform32(seed, offset, n, low, high):
    w = philox_words(np.arange(offset, offset + (n + 3) // 4, dtype=np.uint64), seed)
    words = np.stack(w, axis=1).reshape(-1)[:n]
    unit = (words >> np.uint64(8)).astype(np.float32) * np.float32(1.0 / 16777216.0)
    lo, span = np.float32(low), np.float32(high) - np.float32(low)
    return lo + span * unit


def reference_integers(seed, offset, n, low, high):
    w = philox_words(np.arange(offset, offset + (n + 1) // 2, dtype=np.uint64), seed)
    out = []
    for i in range(n):
        b, h = divmod(i, 2)
        u = (int(w[2 * h][b]) << 32) | int(w[2 * h + 1][b])
        out.append(low + ((u * (high - low)) >> 64))
    return np.array(out, dtype=np.int64)


def test_random_uniform_is_bit_identical_to_the_cpu_formula(rng):
    seed = int(rng.integers(0, 2**63))
    simt.random.seed(seed)
    n64, n32, nint = 1001, 1003, 999
    a = simt.random.uniform(-3.5, 7.25, n64).get()
    b = simt.random.uniform(-1.0, 2.0, n32, dtype=np.float32).get()
    c = simt.random.randint(-1000, 12345, nint).get()
    off32 = (n64 + 1) // 2  # each call starts where the last one's Philox blocks ended
    offint = off32 + (n32 + 3) // 4
    np.testing.assert_array_equal(a.view(np.uint64), reference_uniform64(seed, 0, n64, -3.5, 7.25).view(np.uint64))
    np.testing.assert_array_equal(b.view(np.uint32), reference_uniform32(seed, off32, n32, -1.0, 2.0).view(np.uint32))
    np.testing.assert_array_equal(c, reference_integers(seed, offint, nint, -1000, 12345))


@pytest.mark.parametrize("dtype, value", [
    (np.int8, -7), (np.uint16, 0xBEEF), (np.float32, -2.5), (np.int64, 0x1234_5678_9ABC_DEF0),
    (np.float64, np.pi), (np.float64, 0.0), (np.complex64, 1.5 - 2.25j), (np.complex128, -0.1 + 3.7j),
    (np.float16, 0.333), (np.int32, 0),
])
def test_fill_patterns_of_every_width(dtype, value):
    n = 100_003
    got = simt.full(n, value, dtype=dtype).get()
    np.testing.assert_array_equal(got, np.full(n, value, dtype=dtype))


@pytest.mark.parametrize("nbytes", [1, (8 << 20) - 1, 8 << 20, (8 << 20) + 1, 5 * (8 << 20) + 12345])
def test_copies_across_staging_chunk_boundaries(rng, nbytes):
    host = rng.integers(0, 256, nbytes, dtype=np.uint8)
    original = host.copy()
    dev = simt.asarray(host)
    host[:] = 0  # the copy finished reading the source before returning
    back = dev.get()
    assert back.dtype == np.uint8 and back.shape == (nbytes,)
    np.testing.assert_array_equal(back, original)
    np.testing.assert_array_equal(simt.asarray(back[1:]).get(), original[1:])  # odd sizes and offsets


def test_copy_source_is_reusable_as_soon_as_the_call_returns(rng):
    host = rng.standard_normal(3 * (1 << 20))
    original = host.copy()
    dev = simt.asarray(host)
    host[:] = np.nan
    np.testing.assert_array_equal(dev.get(), original)


def test_launches_from_several_threads(rng):
    n = 10_000
    x, y = rng.standard_normal(n), rng.standard_normal(n)
    dx, dy = simt.asarray(x), simt.asarray(y)
    results, errors = {}, []

    def work(k):
        try:
            out = simt.zeros(n)
            for _ in range(20):
                axpy[(n + 255) // 256, 256](float(k), dx, dy, out)
            results[k] = out.get()
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    for k in range(4):
        np.testing.assert_allclose(results[k], k * x + y, rtol=1e-15, atol=1e-15)


def test_many_kernel_parameters(rng, tmp_path):
    params = ", ".join(f"p{i}" for i in range(40))
    body = " + ".join(f"p{i}" for i in range(40))
    text = f"from simt import cuda\n\ndef many(out, {params}):\n    out[cuda.grid(1)] = {body}\n"
    path = tmp_path / "many_params.py"
    path.write_text(text)
    ns = {}
    exec(compile(text, str(path), "exec"), ns)
    many = cuda.jit(ns["many"])
    values = rng.standard_normal(40)
    out = simt.zeros(4)
    many[1, 4](out, *[float(v) for v in values])
    # p0 + p1 + ... adds left to right, rounding after each add; so does this reference (Python
    # 3.12's sum() of floats compensates its rounding errors, so it is no reference here).
    expected = 0.0
    for v in values:
        expected += float(v)
    np.testing.assert_array_equal(out.get(), np.full(4, expected))


# ---- GPU only ------------------------------------------------------------------------------

@needs_cuda
def test_events_time_device_work(rng):
    a = simt.asarray(rng.standard_normal(32))
    spin[1, 32](a, 10)
    cuda.synchronize()
    start, end = cuda.event(), cuda.event()
    start.record()
    spin[1, 32](a, 2_000_000)
    end.record()
    assert not end.query()  # the launch returned long before the kernel finished
    end.synchronize()
    assert end.query()
    long_ms = cuda.event_elapsed_time(start, end)
    start.record()
    spin[1, 32](a, 200_000)
    end.record()
    short_ms = start.elapsed_time(end)  # waits for both events
    assert 0 < short_ms < long_ms
    assert long_ms > 0.5


@needs_cuda
def test_with_stream_launches_on_that_stream(rng):
    host = rng.standard_normal(32)
    a, b = simt.asarray(host), simt.asarray(host)
    spin[1, 32](b, 3_000_000)  # reference result on the default stream
    cuda.synchronize()  # a non-blocking stream does not wait for the copies on the default stream
    s = cuda.Stream(non_blocking=True)
    with s:
        assert cuda.get_current_stream() is s
        spin[1, 32](a, 3_000_000)
        assert not s.query()  # the work went to s, which is still busy
    assert cuda.get_current_stream() is cuda.default_stream()
    s.synchronize()
    assert s.query()
    np.testing.assert_array_equal(a.get(), b.get())


@needs_cuda
def test_stream_waits_for_an_event_on_another_stream(rng):
    host = rng.standard_normal(32)
    a, out = simt.asarray(host), simt.zeros(32)
    expected = simt.asarray(host)
    spin[1, 32](expected, 2_000_000)
    cuda.synchronize()  # non-blocking streams do not wait for the default stream's copies
    s1, s2 = cuda.Stream(non_blocking=True), cuda.Stream(non_blocking=True)
    spin[1, 32, s1](a, 2_000_000)
    done = cuda.event()
    done.record(s1)
    done.wait(s2)
    copy_kernel[1, 32, s2](a, out)
    s2.synchronize()
    np.testing.assert_array_equal(out.get(), expected.get())


@needs_cuda
def test_pool_reuses_freed_memory():
    total = cuda.Device().attributes["total_memory"]
    n = int(total * 0.3) // 8
    for _ in range(10):  # 3x the device's memory in total: only works if frees return to the pool
        x = simt.empty(n)
        del x
    cuda.synchronize()
    simt.get_default_memory_pool().free_all_blocks()  # leave the memory to other test processes


@cuda.jit
def spin_then_copy(src, dst, n):
    """Busy for a while, then copies src into dst: a late reader of src."""
    i = cuda.grid(1)
    if i < dst.size:
        v = 0.0
        for _ in range(n):
            v = v * 0.999999 + 1e-7
        dst[i] = src[i] + v * 0.0


@needs_cuda
def test_reused_small_blocks_wait_for_their_last_reader(rng):
    # Frees are stream-ordered: the pool may hand the block of a freed array to the next
    # allocation on the default stream while a kernel queued before the free still reads it.
    for n in (1, 1000, 20000):
        old, new = rng.standard_normal(n), rng.standard_normal(n)
        src, dst = simt.asarray(old), simt.zeros(n)
        spin_then_copy[(n + 127) // 128, 128](src, dst, 2_000_000)  # still running below
        del src
        reused = simt.asarray(new)  # often src's block, written in stream order after the kernel
        np.testing.assert_array_equal(dst.get(), old)
        np.testing.assert_array_equal(reused.get(), new)


@needs_cuda
def test_small_blocks_freed_behind_another_stream_are_not_reused_early(rng):
    n = 4096
    old, new = rng.standard_normal(n), rng.standard_normal(n)
    src, dst = simt.asarray(old), simt.zeros(n)
    cuda.synchronize()
    s = cuda.Stream(non_blocking=True)
    spin_then_copy[n // 128, 128, s](src, dst, 2_000_000)
    del src  # held by the launch until the stream passes it
    others = [simt.asarray(new) for _ in range(4)]  # the default stream, same size class
    s.synchronize()
    np.testing.assert_array_equal(dst.get(), old)
    for o in others:
        np.testing.assert_array_equal(o.get(), new)


@needs_cuda
def test_free_all_blocks_after_many_small_arrays(rng):
    sizes = rng.integers(1, 5000, 3000)
    arrays = [simt.full(int(k), float(i)) for i, k in enumerate(sizes)]
    del arrays
    simt.get_default_memory_pool().free_all_blocks()  # the pool trimmed while nothing is queued
    again = [simt.full(int(k), float(-i)) for i, k in enumerate(sizes[:50])]
    for i, (a, k) in enumerate(zip(again, sizes[:50])):
        np.testing.assert_array_equal(a.get(), np.full(int(k), float(-i)))


@needs_cuda
def test_out_of_memory_names_the_size():
    total = cuda.Device().attributes["total_memory"]
    too_big = (total * 4) // 8
    with pytest.raises(cuda.OutOfMemoryError) as info:
        simt.empty(too_big)
    assert isinstance(info.value, MemoryError)
    assert f"cannot allocate {too_big * 8} bytes" in str(info.value)
    # A request the driver itself refuses (fits the device, not what is left of it).
    half = int(total * 0.6) // 8
    held = simt.empty(half)
    with pytest.raises(cuda.OutOfMemoryError, match=f"cannot allocate {half * 8} bytes .*CUDA_ERROR_OUT_OF_MEMORY"):
        simt.empty(half)
    del held
    ok = simt.empty(half)  # the memory is back
    assert ok.size == half
    del ok
    simt.get_default_memory_pool().free_all_blocks()


@needs_cuda
def test_boundscheck_errors_surface_at_every_synchronization_point_once():
    # test_bounds.py covers the message; here: copies and stream syncs report it too, and the
    # device-side record is reset so later launches start clean.
    @cuda.jit(boundscheck=True)
    def k(A):
        A[cuda.grid(1)] = 2.0

    a = simt.zeros(10)
    k[1, 11](a)
    with pytest.raises(IndexError, match="index 10 is out of bounds"):
        a.get()
    cuda.synchronize()  # reported once
    k[1, 10](a)
    cuda.synchronize()
    s = cuda.stream()
    k[1, 12, s](a)
    with pytest.raises(IndexError, match="index 1[01] is out of bounds"):  # whichever thread came first
        s.synchronize()
    np.testing.assert_array_equal(a.get(), np.full(10, 2.0))


@needs_cuda
def test_inspect_asm_is_the_ptx_for_this_device(rng):
    a = simt.asarray(rng.standard_normal(8))
    copy_kernel[1, 8](a, simt.zeros(8))
    (ptx,) = copy_kernel.inspect_asm().values()
    major, minor = cuda.Device().compute_capability
    archs = simt.pathfinder.report()["nvrtc_library"]["archs"]
    if major * 10 + minor in archs:
        assert f".target sm_{major}{minor}" in ptx
    assert ".entry copy_kernel(" in ptx


@needs_cuda
def test_invalid_launch_leaves_the_context_usable(rng):
    n = 5000
    x, y = rng.standard_normal(n), rng.standard_normal(n)
    dx, dy, out = simt.asarray(x), simt.asarray(y), simt.zeros(n)
    with pytest.raises(cuda.CUDAError) as info:
        axpy[(n + 2047) // 2048, 2048](2.0, dx, dy, out)
    assert str(info.value) == SEED_ERROR_TEXT
    assert info.value.name == "CUDA_ERROR_INVALID_VALUE" and info.value.code == 1
    with pytest.raises(cuda.CUDAError, match="CUDA_ERROR_INVALID_VALUE"):
        axpy[2**33, 256](2.0, dx, dy, out)  # does not fit the driver's 32-bit grid
    axpy[(n + 255) // 256, 256](2.0, dx, dy, out)
    cuda.synchronize()
    np.testing.assert_allclose(out.get(), 2.0 * x + y, rtol=1e-15)


@needs_cuda
def test_device_description_and_selection():
    d = cuda.Device()
    report = simt.pathfinder.report()
    name, cc = report["driver"]["devices"][0]
    assert d.name == name and d.compute_capability == tuple(cc)
    attrs = d.attributes
    assert attrs["max_threads_per_block"] == 1024 and attrs["warp_size"] == 32
    assert attrs["multiprocessor_count"] > 0 and attrs["total_memory"] > 1 << 30
    assert len(cuda.gpus) == len(report["driver"]["devices"])
    assert cuda.select_device(0) == cuda.Device(0)
    with cuda.Device(0) as dev:
        dev.synchronize()
    assert cuda.is_available() and simt.backend() == "cuda"


@needs_cuda
def test_illegal_address_is_a_cuda_error_at_synchronize(tmp_path):
    script = tmp_path / "wild.py"
    script.write_text(
        "import simt\nfrom simt import cuda\n"
        "@cuda.jit(boundscheck=False)\ndef k(A):\n    A[1 << 40] = 1.0\n"
        "a = simt.zeros(4)\nk[1, 1](a)\n"
        "try:\n    cuda.synchronize()\nexcept cuda.CUDAError as e:\n    print('CUDAError:', e)\n")
    r = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120,
                       env={**os.environ, "PYTHONPATH": SIMT_PATH + os.pathsep +
                            os.environ.get("PYTHONPATH", "")})
    assert "CUDAError: CUDA_ERROR_ILLEGAL_ADDRESS" in r.stdout, r.stdout + r.stderr
