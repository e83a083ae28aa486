"""The CUDA C++ generated for kernels using math, cmath, complex, float16, casts, tuples,
in-kernel random numbers and every kernel option compiles with NVRTC for sm_90, with the
NVRTC options simt derives from the kernel options. (No GPU needed: only the compiler.)"""
import cmath
import ctypes
import ctypes.util
import glob
import math
import os

import numpy as np
import pytest

from simt import _simt, cuda
from simt.cuda.random import (init_xoroshiro128p_state, xoroshiro128p_jump, xoroshiro128p_next,
                              xoroshiro128p_normal_float32, xoroshiro128p_normal_float64,
                              xoroshiro128p_uniform_float32, xoroshiro128p_uniform_float64)


def _find_nvrtc():
    candidates = []
    for root in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"):
        if root:
            candidates += sorted(glob.glob(os.path.join(root, "lib64", "libnvrtc.so*")))
    found = ctypes.util.find_library("nvrtc")
    if found:
        candidates.append(found)
    for path in candidates:
        if "builtins" in path or ".alt." in path:
            continue
        try:
            return ctypes.CDLL(path)
        except OSError:
            continue
    return None


NVRTC = _find_nvrtc()
pytestmark = pytest.mark.skipif(NVRTC is None, reason="NVRTC (libnvrtc) is not installed on this machine")


def nvrtc_compile(source, options):
    """Compiles with NVRTC; returns (ok, log)."""
    prog = ctypes.c_void_p()
    assert NVRTC.nvrtcCreateProgram(ctypes.byref(prog), source.encode(), b"simt_kernel.cu", 0, None, None) == 0
    try:
        opts = [o.encode() for o in options]
        rc = NVRTC.nvrtcCompileProgram(prog, len(opts), (ctypes.c_char_p * len(opts))(*opts))
        size = ctypes.c_size_t()
        NVRTC.nvrtcGetProgramLogSize(prog, ctypes.byref(size))
        log = ctypes.create_string_buffer(size.value)
        NVRTC.nvrtcGetProgramLog(prog, log)
        return rc == 0, log.value.decode(errors="replace")
    finally:
        NVRTC.nvrtcDestroyProgram(ctypes.byref(prog))


@cuda.jit
def real_math(X, I, out):
    i = cuda.grid(1)
    if i < X.size:
        x = X[i]
        m, e = math.frexp(x)
        f, w = math.modf(x)
        r = math.sin(x) + math.cos(x) + math.tan(x) + math.asinh(x) + math.exp(x) + math.expm1(x) + math.log1p(abs(x))
        r += math.log(abs(x) + 1, 3) + math.log2(abs(x) + 1) + math.log10(abs(x) + 1) + math.sqrt(abs(x)) + math.erf(x)
        r += math.erfc(x) + math.gamma(x) + math.lgamma(x) + math.atan2(x, 2) + math.hypot(x, 3) + math.pow(x, 2)
        r += math.fmod(x, 3) + math.copysign(1, x) + math.remainder(x, 3) + math.nextafter(x, 0) + math.radians(x)
        r += math.degrees(x) + math.floor(x) + math.ceil(x) + math.trunc(x) + math.ldexp(m, e) + f + w + math.fabs(x)
        r += math.isnan(x) + math.isinf(x) + math.isfinite(x) + math.isnan(I[i]) + math.sqrt(I[i])
        out[i] = r


@cuda.jit
def complex_math(Z, out):
    i = cuda.grid(1)
    if i < Z.size:
        z = Z[i]
        r = cmath.sqrt(z) + cmath.exp(z) + cmath.log(z) + cmath.log10(z) + cmath.log(z, 2) + cmath.sin(z)
        r += cmath.cos(z) + cmath.tan(z) + cmath.asin(z) + cmath.acos(z) + cmath.atan(z) + cmath.sinh(z)
        r += cmath.cosh(z) + cmath.tanh(z) + cmath.asinh(z) + cmath.acosh(z) + cmath.atanh(z)
        p, phi = cmath.polar(z)
        r += cmath.rect(p, phi) + cmath.phase(z) + cmath.isnan(z) + cmath.isinf(z) + cmath.isfinite(z)
        r += z ** 2 + z ** 0.5 + z ** z + abs(z) + z.conjugate() + z.real + z.imag + complex(z.imag, z.real)
        r += (z == r) + (z != 1j) + cmath.pi + cmath.infj
        out[i] = r / (z + 1)


@cuda.jit
def half_and_casts(H, X, out, cast):
    i = cuda.grid(1)
    if i < H.size:
        h = H[i]
        t = h * h + h / h - h // np.float16(2) + h % np.float16(3) + h ** np.float16(2) + h ** 3 - abs(-h)
        t = max(t, h) + min(t, h) + math.sin(h) + math.sqrt(abs(h)) + math.tan(h)
        out[i] = t
        cast[i, 0] = np.int8(X[i]) + np.uint16(X[i]) + np.int32(X[i]) + np.uint64(X[i]) + np.bool_(X[i])
        cast[i, 1] = np.float16(X[i]) + np.float32(X[i]) + np.complex64(X[i]).real + np.float16(i)


@cuda.jit(device=True, inline=True)
def rotate(t):
    return t[1:] + t[:1]


@cuda.jit
def tuples(A, out):
    i = cuda.grid(1)
    if i < A.size:
        t = (A[i], i, A[i] * 2, np.float32(1))
        s = rotate(t)[::-1] + t[1:3]
        acc = 0.0
        for v in s[:4]:
            acc += v
        out[i] = acc + len(s) + s[-1]


@cuda.jit
def random_numbers(states, out):
    i = cuda.grid(1)
    if i < out.shape[0]:
        out[i, 0] = xoroshiro128p_uniform_float32(states, i) + xoroshiro128p_uniform_float64(states, i)
        out[i, 1] = xoroshiro128p_normal_float32(states, i) + xoroshiro128p_normal_float64(states, i)
        out[i, 2] = xoroshiro128p_next(states, i)
        xoroshiro128p_jump(states, i)
        init_xoroshiro128p_state(states, i, 42)


@cuda.jit
def fp16_intrinsics(A, out, flags):
    i = cuda.grid(1)
    if i < A.size:
        a = A[i]
        h = cuda.fp16.hadd(a, a) + cuda.fp16.hsub(a, a) + cuda.fp16.hmul(a, a) + cuda.fp16.hdiv(a, a)
        h += cuda.fp16.hmax(a, a) + cuda.fp16.hmin(a, a) + cuda.fp16.hfma(a, a, a) + cuda.fp16.hneg(a)
        h += cuda.fp16.habs(a) + cuda.fp16.hsin(a) + cuda.fp16.hcos(a) + cuda.fp16.hlog(a) + cuda.fp16.hlog10(a)
        h += cuda.fp16.hlog2(a) + cuda.fp16.hexp(a) + cuda.fp16.hexp10(a) + cuda.fp16.hexp2(a) + cuda.fp16.hsqrt(a)
        h += cuda.fp16.hrsqrt(a) + cuda.fp16.hrcp(a) + cuda.fp16.hceil(a) + cuda.fp16.hfloor(a) + cuda.fp16.htrunc(a)
        out[i] = h + cuda.fp16.hrint(a)
        flags[i] = cuda.fp16.heq(a, h) or cuda.fp16.hne(a, h) or cuda.fp16.hgt(a, h) or cuda.fp16.hge(a, h) or \
            cuda.fp16.hlt(a, h) or cuda.fp16.hle(a, h)


@cuda.jit
def scalar_parameters(h, z, n, out, zout):
    out[0] = h * h + n
    zout[0] = z * z + h


KERNELS = [
    (scalar_parameters, "void(float16, complex64, uint8, float16[:], complex64[:])"),
    (fp16_intrinsics, "void(float16[:], float16[:], boolean[:])"),
    (real_math, "void(float64[:], int64[:], float64[:])"),
    (real_math, "void(float32[::1], int32[::1], float32[::1])"),
    (complex_math, "void(complex128[:], complex128[:])"),
    (complex_math, "void(complex64[:], complex64[:])"),
    (half_and_casts, "void(float16[:], float64[:], float16[:], float64[:, :])"),
    (tuples, "void(float64[:], float64[:])"),
    (random_numbers, "void(uint64[:, ::1], float64[:, :])"),
]


@pytest.mark.parametrize("kernel,signature", KERNELS, ids=[f"{k.__name__}:{s}" for k, s in KERNELS])
def test_generated_cuda_compiles_with_nvrtc(kernel, signature):
    source, entry, _ = kernel._generate("cuda", signature)
    ok, log = nvrtc_compile(source, _simt.nvrtc_options({}, 9, 0))
    assert ok, log
    assert f'extern "C" __global__ void {entry}(' in source


@pytest.mark.parametrize("options", [
    dict(fastmath=True), dict(debug=True), dict(debug=True, opt=True), dict(lineinfo=True), dict(opt=False),
    dict(max_registers=32), dict(fastmath=True, lineinfo=True, max_registers=64),
], ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_kernel_options_compile_with_nvrtc(options):
    @cuda.jit(**options)
    def k(X, out):
        i = cuda.grid(1)
        if i < X.size:
            out[i] = math.sin(X[i]) + math.exp(X[i]) + math.log(X[i]) + math.pow(X[i], X[i]) + X[i] / 3

    source, _, _ = k._generate("cuda", "void(float32[:], float32[:])")
    nvrtc_options = _simt.nvrtc_options(options, 9, 0)
    ok, log = nvrtc_compile(source, nvrtc_options)
    assert ok, f"{nvrtc_options}\n{log}"
    assert ("__sinf(" in source) == bool(options.get("fastmath"))
