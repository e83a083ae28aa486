"""compile_ptx and inspect_asm: NVRTC compiles the CUDA C++ simt generates, with no GPU needed."""
import re

import numpy as np
import pytest

import simt
from simt import cuda

NVRTC, WHY = simt._simt._nvrtc_available()
pytestmark = pytest.mark.skipif(not NVRTC, reason=f"NVRTC not found: {WHY}")


def vecadd(A, B, C):
    i = cuda.grid(1)
    C[i] = A[i] + B[i]


def divide(a, b):
    return a / b + 1


def ratio(a, b):
    return a / b


def test_kernel_ptx_for_the_default_and_a_chosen_architecture():
    ptx, resty = cuda.compile_ptx(vecadd, "void(float32[:], float32[:], float32[:])")
    assert resty == "void"
    assert ".target sm_90" in ptx
    assert re.search(r"\.visible \.entry vecadd\(", ptx)
    assert "add.f32" in ptx and "add.f64" not in ptx  # float32 arrays stay float32
    ptx80, _ = cuda.compile_ptx(vecadd, "void(float64[::1], float64[::1], float64[::1])", cc=(8, 0))
    assert ".target sm_80" in ptx80 and "add.f64" in ptx80


def test_signature_as_a_tuple_of_types():
    ptx, resty = cuda.compile_ptx(vecadd, ("int32[:]", "int32[:]", "int32[:]"))
    assert resty == "void" and "add.s32" in ptx


def test_device_function_ptx_is_exported_under_its_name():
    ptx, resty = cuda.compile_ptx(divide, "float64(float64, float64)", device=True)
    assert resty == "float64"
    assert re.search(r"\.visible \.func\s+\(\.param \.b64 func_retval0\) divide\(", ptx)
    ptx32, resty32 = cuda.compile_ptx(ratio, "(float32, float32)", device=True)
    assert resty32 == "float32" and "div.rn.f32" in ptx32


def test_fastmath_and_lineinfo_reach_nvrtc():
    exact, _ = cuda.compile_ptx(ratio, "(float32, float32)", device=True)
    fast, _ = cuda.compile_ptx(ratio, "(float32, float32)", device=True, fastmath=True)
    assert "div.rn.f32" in exact and "div.rn.f32" not in fast
    plain, _ = cuda.compile_ptx(vecadd, "void(float64[:], float64[:], float64[:])")
    lines, _ = cuda.compile_ptx(vecadd, "void(float64[:], float64[:], float64[:])", lineinfo=True)
    assert ".loc" not in plain
    assert ".loc" in lines and __file__ in lines  # #line directives point PTX at this file


def test_bad_signatures_and_bad_kernels_raise_clear_errors():
    with pytest.raises(TypeError, match="cannot return float64"):
        cuda.compile_ptx(vecadd, "float64(float64[:], float64[:], float64[:])")
    with pytest.raises(TypeError, match="takes 3 arguments but 2 were given"):
        cuda.compile_ptx(vecadd, "void(float64[:], float64[:])")
    with pytest.raises(TypeError, match="returns float64 but the signature says int32"):
        cuda.compile_ptx(divide, "int32(float64, float64)", device=True)

    def untyped(A):
        A[0] = no_such_name  # noqa: F821

    with pytest.raises(cuda.TypingError, match="no_such_name") as info:
        cuda.compile_ptx(untyped, "void(float64[:])")
    assert "A[0] = no_such_name" in str(info.value)


def test_inspect_asm_of_launched_specializations(rng):
    @cuda.jit
    def scale(A, factor):
        i = cuda.grid(1)
        A[i] = A[i] * factor

    host = rng.standard_normal(50)
    a = simt.asarray(host)
    scale[1, 64](a, 2.5)
    scale[1, 64](simt.asarray(host.astype(np.float32)), 2.5)
    np.testing.assert_array_equal(a.get(), host * 2.5)
    asm = scale.inspect_asm()
    assert set(asm) == set(scale.inspect_source())
    assert len(asm) == 2
    for ptx in asm.values():
        assert re.search(r"\.entry scale\(", ptx) and ".target sm_" in ptx
    key = next(k for k in asm if "float32" in k[0])
    assert "ld.global.f32" in asm[key] and "st.global.f32" in asm[key]
    assert "ld.global.f32" not in asm[next(k for k in asm if "float64" in k[0])]
