"""The CUDA C++ that simt generates for its own array kernels (reductions in every pass layout,
scans, matmul tiles, copies) compiles with NVRTC for sm_90, checked on machines without a GPU."""
import numpy as np
import pytest

import nvrtc_check
import simt
from pass_shapes import pass_shapes  # noqa: F401  (fixture)
from simt import _kernelgen

pytestmark = pytest.mark.skipif(not nvrtc_check.available(), reason="needs NVRTC (CUDA toolkit) to compile CUDA C++")


def exercise():
    """Runs a representative set of array functions; the kernels they launch are recorded."""
    for dt in (np.float64, np.float16, np.int8, np.bool_, np.complex64):
        a = simt.zeros((7, 9), dt)
        for op in ("sum", "prod", "min", "max", "argmin", "argmax", "all", "any", "mean"):
            getattr(simt, op)(a)
            getattr(simt, op)(a, axis=0)
            getattr(simt, op)(a, axis=1)
        if dt != np.bool_:
            simt.var(a, axis=0)
            simt.std(a)
        simt.cumsum(a)
        simt.cumsum(a, axis=0)
        simt.matmul(a, simt.zeros((9, 4), dt))
    simt.sum(simt.zeros((3, 4, 5)), axis=(0, 2))
    simt.cumsum(simt.zeros(1000))
    simt.sum(simt.zeros((4, 5)), axis=0, out=simt.zeros(5, np.float32))


def test_generated_kernels_compile_with_nvrtc(pass_shapes, monkeypatch):
    """Kernels are recorded instead of launched (their CUDA source is what is checked here; the
    other tests run them), so no host compiler is involved."""
    if pass_shapes == "cpu-split":
        pytest.skip("the cpu backend's kernel forms are covered by the default layout here")
    launched = {}

    def record(k, grid, block, *args):
        launched.setdefault(id(k), (k, args))
    monkeypatch.setattr(_kernelgen, "launch", record)
    exercise()
    assert len(launched) > 20
    sources = {}
    for k, args in launched.values():
        sources.setdefault(simt._simt._generate_source(k, "cuda", *args), k._name)
    failures = []
    for source, name in sources.items():
        log = nvrtc_check.compile_cuda(source)
        if log is not None:
            failures.append(f"{name}:\n{log[:2000]}")
    assert not failures, "\n\n".join(failures)
