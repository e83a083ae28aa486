"""@cuda.jit options: fastmath, debug, lineinfo, opt, max_registers, cache, inline/forceinline,
and .forall(n). Each option changes the generated code or the compiler flags, hence the cache
key; kernels compiled with any of them still compute the right results."""
import math

import numpy as np
import pytest

import simt
from simt import _simt, cuda

N = 1000


def make_kernel(salt=0, **options):
    """The same kernel with these options; a different `salt` gives different code."""
    @cuda.jit(**options)
    def k(X, out):
        i = cuda.grid(1)
        if i < X.size:
            out[i] = math.sin(X[i]) * math.exp(X[i] / np.float32(4)) + X[i] / 3 + salt
    return k


def expected(x):
    x64 = x.astype(np.float64)
    return np.sin(x64) * np.exp(x64 / 4) + x64 / 3


@pytest.mark.parametrize("options", [
    dict(fastmath=True), dict(debug=True), dict(debug=True, opt=True), dict(lineinfo=True), dict(opt=False),
    dict(max_registers=32), dict(cache=True), dict(fastmath=True, lineinfo=True, max_registers=64),
], ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_kernels_with_options_compute_correctly(rng, options):
    k = make_kernel(**options)
    x = rng.uniform(-4, 4, N).astype(np.float32)
    out = simt.zeros(N, dtype=np.float32)
    k[(N + 127) // 128, 128](simt.asarray(x), out)
    tol = 5e-4 if options.get("fastmath") else 4e-6
    np.testing.assert_allclose(out.get(), expected(x), rtol=tol, atol=tol)
    source = next(iter(k.inspect_source().values()))
    for key in ("fastmath", "debug", "lineinfo", "max_registers"):
        assert f"{key}={int(options.get(key, 0))}" in source
    opt = options.get("opt", not options.get("debug", False))  # debug turns optimization off by default
    assert f"opt={int(opt)}" in source


def test_each_option_gets_its_own_cache_entry(rng):
    x = simt.asarray(rng.uniform(-1, 1, 64).astype(np.float32))
    out = simt.zeros(64, dtype=np.float32)
    salt = int(rng.integers(1, 2**40))  # code no other test (or earlier run) compiled
    make_kernel(salt)[1, 64](x, out)  # the plain kernel is now loaded in this process
    for options in (dict(fastmath=True), dict(debug=True), dict(lineinfo=True), dict(opt=False), dict(max_registers=40)):
        before = _simt.compile_counters()["memory_hits"]
        make_kernel(salt, **options)[1, 64](x, out)
        assert _simt.compile_counters()["memory_hits"] == before, f"{options} reused the plain kernel's binary"
    before = _simt.compile_counters()["memory_hits"]
    make_kernel(salt, max_registers=40)[1, 64](x, out)
    assert _simt.compile_counters()["memory_hits"] == before + 1  # same options: same binary


def test_fastmath_uses_the_fast_intrinsics_on_cuda():
    fast, precise = make_kernel(fastmath=True), make_kernel()
    sig = "void(float32[:], float32[:])"
    fast_src = fast._generate("cuda", sig)[2]  # the kernel's own code, without the prelude
    precise_src = precise._generate("cuda", sig)[2]
    assert "__sinf(" in fast_src and "__expf(" in fast_src and "#define SIMT_FASTMATH 1" in fast_src
    assert "__sinf(" not in precise_src and "sinf(" in precise_src and "expf(" in precise_src
    # float64 math has no fast intrinsics: unchanged under fastmath
    f64_src = fast._generate("cuda", "void(float64[:], float64[:])")[2]
    assert "__sin" not in f64_src and "sin(" in f64_src
    # the cpu target keeps the C functions (the host compiler's -ffast-math does the rest)
    assert "__sinf(" not in fast._generate("cpu", sig)[2]


def test_nvrtc_options_follow_the_kernel_options():
    assert _simt.nvrtc_options({}, 9, 0) == ["--gpu-architecture=sm_90", "--std=c++17"]
    opts = _simt.nvrtc_options({"fastmath": True, "lineinfo": True, "max_registers": 32}, 9, 0)
    assert {"--use_fast_math", "--generate-line-info", "--maxrregcount=32"} <= set(opts)
    assert "--device-debug" in _simt.nvrtc_options({"debug": True}, 8, 0)
    assert "--dopt=on" not in _simt.nvrtc_options({"debug": True}, 8, 0)
    assert "--dopt=on" in _simt.nvrtc_options({"debug": True, "opt": True}, 8, 0)
    assert "--ptxas-options=-O0" in _simt.nvrtc_options({"opt": False}, 8, 0)


@pytest.mark.parametrize("inline", [True, "always", False, "never"])
def test_inline_device_functions(rng, inline):
    @cuda.jit(device=True, inline=inline)
    def poly(v):
        return v * v - 2 * v + 1

    @cuda.jit
    def k(X, out):
        i = cuda.grid(1)
        if i < X.size:
            out[i] = poly(X[i])

    x = rng.uniform(-3, 3, N)
    out = simt.zeros(N)
    k[(N + 127) // 128, 128](simt.asarray(x), out)
    # atol: near x = 1 the result cancels, and the GPU may fuse multiply-adds.
    np.testing.assert_allclose(out.get(), x * x - 2 * x + 1, rtol=1e-14, atol=1e-14)
    source = next(iter(k.inspect_source().values()))
    forced = inline in (True, "always")
    assert ("static SIMT_INLINE double poly" in source) == forced


def test_forceinline(rng):
    @cuda.jit(device=True, forceinline=True)
    def twice(v):
        return 2 * v

    @cuda.jit
    def k(out):
        out[0] = twice(21)

    out = simt.zeros(1, dtype=np.int64)
    k[1, 1](out)
    assert out.get()[0] == 42
    assert "static SIMT_INLINE int64_t twice" in next(iter(k.inspect_source().values()))


def test_forall_covers_every_task(rng):
    @cuda.jit
    def k(X, out):
        i = cuda.grid(1)
        if i < X.size:
            out[i] = X[i] * 2

    for n in (1, 127, 1000, 4097):
        x = rng.standard_normal(n)
        out = simt.zeros(n)
        k.forall(n)(simt.asarray(x), out)
        np.testing.assert_array_equal(out.get(), x * 2)


def test_unknown_options_are_rejected():
    with pytest.raises(TypeError, match="unknown @cuda.jit option\\(s\\): fast_math"):
        cuda.jit(fast_math=True)


def test_fastmath_kernels_leave_subnormals_alone_elsewhere(rng):
    # A fastmath kernel must not switch the process to flush-to-zero (as linking with the host
    # compiler's -ffast-math would): plain kernels and NumPy keep their subnormal results.
    salt = int(rng.integers(1, 2**40))
    x = simt.asarray(rng.uniform(-1, 1, 64).astype(np.float32))
    make_kernel(salt, fastmath=True)[1, 64](x, simt.zeros(64, dtype=np.float32))

    @cuda.jit
    def halve(X, out):
        i = cuda.grid(1)
        if i < X.size:
            out[i] = X[i] * 0.5

    tiny = np.full(256, 1e-310)
    out = simt.zeros(256)
    halve[2, 128](simt.asarray(tiny), out)
    np.testing.assert_array_equal(out.get(), tiny * 0.5)
    assert (tiny * 0.5 != 0).all()
