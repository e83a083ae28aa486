"""simt.bindings.nvrtc and simt.bindings.driver, cuda.bindings' way: NVRTC compiles a kernel to
PTX and a cubin (no GPU needed); on the cuda backend the driver calls allocate, copy, load and
launch it and the result is compared with NumPy. Over the stand-in driver: test_cuda_mock.py."""
import numpy as np
import pytest

import simt
from simt.bindings import driver, nvrtc

NVRTC, WHY = simt._simt._nvrtc_available()
needs_nvrtc = pytest.mark.skipif(not NVRTC, reason=f"NVRTC not found: {WHY}")

AXPY = b"""
extern "C" __global__ void axpy(float a, const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
"""
OK = nvrtc.nvrtcResult.NVRTC_SUCCESS


def compile_axpy(arch="sm_90"):
    err, prog = nvrtc.nvrtcCreateProgram(AXPY, b"axpy.cu", 0, [], [])
    assert err == OK
    opts = [f"--gpu-architecture={arch}".encode()]
    err, = nvrtc.nvrtcCompileProgram(prog, len(opts), opts)
    assert err == OK
    err, n = nvrtc.nvrtcGetCUBINSize(prog)
    cubin = b" " * n
    assert nvrtc.nvrtcGetCUBIN(prog, cubin) == (OK,)
    assert nvrtc.nvrtcDestroyProgram(prog) == (OK,)
    return cubin


@needs_nvrtc
def test_nvrtc_compiles_to_ptx_and_reports_errors():
    err, major, minor = nvrtc.nvrtcVersion()
    assert err == OK and major >= 11
    err, archs = nvrtc.nvrtcGetSupportedArchs()
    assert err == OK and 90 in archs
    err, prog = nvrtc.nvrtcCreateProgram(AXPY.decode(), "axpy.cu", 0, [], [])
    assert nvrtc.nvrtcCompileProgram(prog, 1, ["--gpu-architecture=compute_90"]) == (OK,)
    err, n = nvrtc.nvrtcGetPTXSize(prog)
    ptx = bytearray(n)
    assert nvrtc.nvrtcGetPTX(prog, ptx) == (OK,)
    assert b".visible .entry axpy(" in ptx and b".target sm_90" in ptx
    nvrtc.nvrtcDestroyProgram(prog)
    assert compile_axpy()[:4] == b"\x7fELF"
    err, prog = nvrtc.nvrtcCreateProgram(AXPY, b"axpy.cu", 0, [], [])
    nvrtc.nvrtcCompileProgram(prog, 1, [b"--gpu-architecture=compute_90"])
    err, n = nvrtc.nvrtcGetProgramLogSize(prog)
    with pytest.raises(ValueError, match="bytearray"):  # b" " * 1 is Python's shared b" "
        nvrtc.nvrtcGetProgramLog(prog, b" " * n if n <= 1 else b" ")
    assert b" " == bytes([32])
    nvrtc.nvrtcDestroyProgram(prog)

    err, bad = nvrtc.nvrtcCreateProgram(b"__global__ void k() { undeclared(); }", b"bad.cu", 0, [], [])
    err, = nvrtc.nvrtcCompileProgram(bad, 0, [])
    assert err == nvrtc.nvrtcResult.NVRTC_ERROR_COMPILATION
    assert nvrtc.nvrtcGetErrorString(err) == b"NVRTC_ERROR_COMPILATION"
    err, n = nvrtc.nvrtcGetProgramLogSize(bad)
    log = b" " * n
    nvrtc.nvrtcGetProgramLog(bad, log)
    assert b"bad.cu(1)" in log and b"undeclared" in log
    with pytest.raises(ValueError, match="buffer holds 3 bytes"):
        nvrtc.nvrtcGetProgramLog(bad, bytearray(3))
    nvrtc.nvrtcDestroyProgram(bad)


@needs_nvrtc
def test_nvrtc_headers_and_name_expressions():
    src = b'#include "scale.h"\ntemplate <class T> __global__ void k(T* p) { p[0] = SCALE * p[0]; }\n'
    err, prog = nvrtc.nvrtcCreateProgram(src, b"t.cu", 1, [b"#define SCALE 3\n"], [b"scale.h"])
    assert nvrtc.nvrtcAddNameExpression(prog, b"k<float>") == (OK,)
    assert nvrtc.nvrtcCompileProgram(prog, 1, [b"--gpu-architecture=compute_90"]) == (OK,)
    err, lowered = nvrtc.nvrtcGetLoweredName(prog, b"k<float>")
    assert err == OK and lowered.startswith(b"_Z") and b"k" in lowered
    nvrtc.nvrtcDestroyProgram(prog)
    with pytest.raises(ValueError, match="numHeaders is 2"):
        nvrtc.nvrtcCreateProgram(src, b"t.cu", 2, [b""], [b"scale.h"])


@pytest.mark.skipif(simt.backend() == "cuda", reason="the cpu backend runs where no driver is loaded")
def test_driver_calls_without_a_driver_say_why():
    if simt._simt.pathfinder_report()["libcuda"]["path"]:
        pytest.skip("a CUDA driver library is installed here")
    with pytest.raises(RuntimeError, match="CUDA driver is unavailable"):
        driver.cuDeviceGetCount()


@needs_nvrtc
@pytest.mark.skipif(simt.backend() != "cuda", reason="driver calls need the cuda backend's GPU")
def test_driver_loads_and_launches_a_kernel(rng):
    ok = driver.CUresult.CUDA_SUCCESS
    assert driver.cuInit(0) == (ok,)
    err, count = driver.cuDeviceGetCount()
    assert err == ok and count >= 1
    err, dev = driver.cuDeviceGet(0)
    err, major = driver.cuDeviceGetAttribute(driver.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev)
    err, minor = driver.cuDeviceGetAttribute(driver.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev)
    assert (major, minor) == simt.cuda.Device(0).compute_capability
    err, name = driver.cuDeviceGetName(256, dev)
    assert name.decode() == simt.cuda.Device(0).name
    err, ctx = driver.cuDevicePrimaryCtxRetain(dev)
    assert driver.cuCtxSetCurrent(ctx) == (ok,)
    err, cubin_module = driver.cuModuleLoadData(compile_axpy(f"sm_{major}{minor}"))
    assert err == ok
    err, kernel = driver.cuModuleGetFunction(cubin_module, b"axpy")
    assert err == ok
    n = 10_000
    x, y = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    err, dx = driver.cuMemAlloc(x.nbytes)
    err, dy = driver.cuMemAlloc(y.nbytes)
    assert driver.cuMemcpyHtoD(dx, x, x.nbytes) == (ok,)
    assert driver.cuMemcpyHtoD(dy, y.ctypes.data, y.nbytes) == (ok,)
    # A blocking stream: it waits for the copies above (cuMemcpyHtoD from pageable memory returns
    # before its DMA has landed, and a non-blocking stream would not wait for it).
    err, stream = driver.cuStreamCreate(driver.CUstream_flags.CU_STREAM_DEFAULT)
    err, start = driver.cuEventCreate(0)
    err, end = driver.cuEventCreate(0)
    values = [np.array(2.5, np.float32), np.array(dx, np.uint64), np.array(dy, np.uint64), np.array(n, np.int32)]
    params = np.array([v.ctypes.data for v in values], np.uint64)
    assert driver.cuEventRecord(start, stream) == (ok,)
    assert driver.cuLaunchKernel(kernel, (n + 255) // 256, 1, 1, 256, 1, 1, 0, stream, params.ctypes.data, None) == (ok,)
    assert driver.cuEventRecord(end, stream) == (ok,)
    assert driver.cuStreamSynchronize(stream) == (ok,)
    assert driver.cuStreamQuery(stream) == (ok,)
    err, ms = driver.cuEventElapsedTime(start, end)
    assert err == ok and ms >= 0
    out = np.empty_like(y)
    assert driver.cuMemcpyDtoH(out, dy, out.nbytes) == (ok,)
    # (the GPU fuses the multiply-add: compared with a float64 reference, not NumPy's float32 steps)
    np.testing.assert_allclose(out, 2.5 * x.astype(np.float64) + y, rtol=1e-6, atol=1e-6)
    for call, arg in [(driver.cuMemFree, dx), (driver.cuMemFree, dy), (driver.cuEventDestroy, start),
                      (driver.cuEventDestroy, end), (driver.cuStreamDestroy, stream), (driver.cuModuleUnload, cubin_module)]:
        assert call(arg) == (ok,)
    err, text = driver.cuGetErrorName(driver.CUresult.CUDA_ERROR_INVALID_VALUE)
    assert text == b"CUDA_ERROR_INVALID_VALUE"
    err, bad = driver.cuModuleGetFunction(0, b"axpy")
    assert err != ok
