"""python -m simt.compat: programs written for numba.cuda and CuPy run unmodified on simt, the
seed's verbatim listings print the seed's output, and the import hook lives only in that run."""
import os
import subprocess
import sys
import textwrap

import pytest

from conftest import ROOT
from test_examples import SEED_ERROR_TEXT


@pytest.fixture
def run_module():
    def run(*args, cwd=ROOT):
        return subprocess.run([sys.executable, *args], capture_output=True, text=True, env=dict(os.environ),
                              timeout=600, cwd=cwd)
    return run


def test_verbatim_vecadd_prints_test_succeeded(run_module):
    r = run_module("-m", "simt.compat", os.path.join(ROOT, "examples", "verbatim", "vecadd.py"))
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "Test succeeded"


def test_verbatim_vecadd_error_prints_the_seeds_text(run_module):
    r = run_module("-m", "simt.compat", os.path.join(ROOT, "examples", "verbatim", "vecadd_error.py"))
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == SEED_ERROR_TEXT


def _seed_text():
    for shared in (os.path.join(os.path.dirname(ROOT), "shared"), os.path.join(ROOT, "shared"), "/work/shared"):
        path = os.path.join(shared, "seed", "000_6c49efe7296e5155.txt")
        if os.path.exists(path):
            return open(path, encoding="utf-8").read()
    return None


def test_verbatim_listings_match_the_seed():
    seed = _seed_text()
    for name in ("vecadd.py", "vecadd_error.py"):
        text = open(os.path.join(ROOT, "examples", "verbatim", name), encoding="utf-8").read()
        assert text.startswith("import numpy as np\nfrom numba import cuda\nimport cupy as cp\n")
        if seed is not None:
            assert text.rstrip("\n") in seed


def test_every_import_spelling_resolves_to_simt(run_module, tmp_path):
    script = tmp_path / "spellings.py"
    script.write_text(textwrap.dedent("""
        import sys
        import numba
        import numba.cuda
        from numba import cuda
        from numba.cuda import jit, grid
        import cupy as cp
        import cupy.random
        from cupy import asnumpy
        import simt
        assert cuda is simt.cuda and numba.cuda is simt.cuda and jit is simt.cuda.jit and grid is simt.cuda.grid
        assert cp is simt and cupy.random is simt.random and asnumpy is simt.asnumpy
        assert numba.float32.dtype == __import__("numpy").dtype("float32") and str(numba.float32) == "float32"

        @numba.cuda.jit
        def double(a):
            i = cuda.grid(1)
            if i < a.size:
                a[i] *= 2

        x = cp.arange(5.0) if hasattr(cp, "arange") else cp.asarray([0.0, 1.0, 2.0, 3.0, 4.0])
        double[1, 32](x)
        print(cp.asnumpy(x).tolist(), float(cp.sum(x).get()), sys.argv[1:])
    """))
    r = run_module("-m", "simt.compat", str(script), "alpha", "--beta")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[0.0, 2.0, 4.0, 6.0, 8.0] 20.0 ['alpha', '--beta']"


def test_cuda_python_spellings_resolve_to_simt(run_module, tmp_path):
    script = tmp_path / "cuda_python.py"
    script.write_text(textwrap.dedent("""
        import simt
        from cuda.core.experimental import Device, Program, ProgramOptions
        from cuda.core import LaunchConfig
        from cuda.bindings import nvrtc, driver
        import cuda.compute
        from cuda import pathfinder
        assert Device is simt.core.Device and LaunchConfig is simt.core.LaunchConfig
        assert nvrtc is simt.bindings.nvrtc and driver is simt.bindings.driver
        assert cuda.compute is simt.compute and pathfinder is simt.pathfinder
        print(nvrtc.nvrtcGetErrorString(0))
    """))
    r = run_module("-m", "simt.compat", str(script))
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "b'NVRTC_SUCCESS'"


def test_what_simt_does_not_provide_fails_clearly(run_module, tmp_path):
    script = tmp_path / "unsupported.py"
    script.write_text("import numba\nnumba.njit\n")
    r = run_module("-m", "simt.compat", str(script))
    assert r.returncode != 0 and "simt.compat provides numba.cuda only; numba.njit" in r.stderr
    script.write_text("import numba.typed\n")
    r = run_module("-m", "simt.compat", str(script))
    assert r.returncode != 0 and "ModuleNotFoundError" in r.stderr and "numba.typed" in r.stderr
    script.write_text("import cupy.no_such_module\n")
    r = run_module("-m", "simt.compat", str(script))
    assert r.returncode != 0 and "cupy.no_such_module has no simt counterpart" in r.stderr


def test_exit_status_and_exceptions_pass_through(run_module, tmp_path):
    script = tmp_path / "exits.py"
    script.write_text("import sys\nsys.exit(3)\n")
    assert run_module("-m", "simt.compat", str(script)).returncode == 3
    script.write_text("raise RuntimeError('boom')\n")
    r = run_module("-m", "simt.compat", str(script))
    assert r.returncode == 1 and "RuntimeError: boom" in r.stderr
    r = run_module("-m", "simt.compat", str(tmp_path / "missing.py"))
    assert r.returncode == 2 and "no such file" in r.stderr
    r = run_module("-m", "simt.compat")
    assert r.returncode == 2 and "usage" in r.stderr


def test_the_hook_is_confined_to_its_process(run_module):
    """Without the runner, `import cupy` is whatever the environment has (here: possibly
    nothing); the runner never writes anything that would change that."""
    probe = "import importlib.util; print(importlib.util.find_spec('cupy') is not None and " \
            "importlib.util.find_spec('cupy').origin)"
    before = run_module("-c", probe).stdout
    r = run_module("-c", "import simt.compat; simt.compat.install(); import cupy, simt; assert cupy is simt; "
                         "simt.compat.uninstall(); import sys; assert 'cupy' not in sys.modules or sys.modules['cupy'] "
                         "is not simt; print('ok')")
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr
    assert run_module("-c", probe).stdout == before


def test_a_cupy_raw_kernel_script_runs_unchanged(run_module, tmp_path):
    # CuPy's own RawKernel example shape: CUDA C++ source, launched with (grid, block, args).
    script = tmp_path / "raw_add.py"
    script.write_text(textwrap.dedent('''
        import cupy as cp
        import numpy as np
        add_kernel = cp.RawKernel(r"""
        extern "C" __global__
        void my_add(const float* x1, const float* x2, float* y) {
            int tid = blockDim.x * blockIdx.x + threadIdx.x;
            y[tid] = x1[tid] + x2[tid];
        }
        """, "my_add")
        rng = np.random.default_rng()
        h1, h2 = rng.standard_normal((2, 5, 5)).astype(np.float32)
        x1, x2 = cp.asarray(h1), cp.asarray(h2)
        y = cp.zeros((5, 5), dtype=cp.float32)
        add_kernel((5,), (5,), (x1, x2, y))
        assert np.array_equal(cp.asnumpy(y), h1 + h2)
        print("raw kernel ok")
    '''))
    r = run_module("-m", "simt.compat", str(script))
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "raw kernel ok"


def test_a_numba_gufunc_script_runs_unchanged(run_module, tmp_path):
    script = tmp_path / "gufunc.py"
    script.write_text(textwrap.dedent("""\
        import numpy as np
        from numba import cuda, guvectorize, vectorize

        @guvectorize(["void(float64[:], float64, float64[:])"], "(n),()->(n)", target="cuda")
        def shift(x, y, out):
            for i in range(x.shape[0]):
                out[i] = x[i] + y

        @vectorize(["float64(float64, float64)"], target="cuda")
        def hyp(a, b):
            return (a * a + b * b) ** 0.5

        x = np.arange(12.0).reshape(3, 4)
        d = cuda.to_device(x)
        r = shift(d, 1.5).copy_to_host()
        assert np.allclose(r, x + 1.5), r
        assert np.allclose(hyp(d, d).copy_to_host(), np.sqrt(2) * x)
        try:
            guvectorize(["void(float64[:], float64[:])"], "(n)->(n)")
        except NotImplementedError as e:
            print(e)
        print("gufunc ok")
        """))
    r = run_module("-m", "simt.compat", str(script))
    assert r.returncode == 0, r.stderr
    assert "numba.guvectorize for target='cuda' only" in r.stdout and r.stdout.strip().endswith("gufunc ok")


def test_numba_type_objects_error_classes_and_driver_names(run_module, tmp_path):
    script = tmp_path / "typed.py"
    script.write_text(textwrap.dedent("""\
        import warnings
        import numpy as np
        import numba
        from numba import cuda, void, float32, float64, types
        from numba.core.errors import NumbaPerformanceWarning
        from numba.cuda.cudadrv.devicearray import DeviceNDArray
        from numba.cuda.cudadrv.driver import CudaAPIError
        from numba.types import intp

        warnings.simplefilter("ignore", category=NumbaPerformanceWarning)

        @cuda.jit(void(float32[:], float32[:], float32))
        def scale(x, out, k):
            i = numba.cuda.grid(1)  # (numba.cuda inside a kernel)
            if i < x.size:
                out[i] = numba.float32(x[i] * k) + numba.f4(0) + types.float32(numba.types.int32(0))

        @cuda.jit((types.float64[:, ::1], intp))
        def first_norm(a, n):
            i = cuda.grid(1)
            if i < n:
                a[i, 0] = (a[i, 0] ** 2 + a[i, 1] ** 2) ** 0.5

        rng = np.random.default_rng()
        x = rng.standard_normal(100).astype(np.float32)
        d = cuda.to_device(x)
        assert isinstance(d, DeviceNDArray)
        out = cuda.device_array_like(d)
        scale[1, 128](d, out, 3.0)
        assert np.allclose(out.copy_to_host(), x * np.float32(3), rtol=1e-6)
        a = rng.standard_normal((50, 2))
        da = cuda.to_device(a)
        first_norm[1, 64](da, 50)
        assert np.allclose(da.copy_to_host()[:, 0], np.hypot(a[:, 0], a[:, 1]))
        try:
            scale[1, 2048](d, out, 1.0)
            cuda.synchronize()
        except CudaAPIError as e:
            print("caught", str(e).split(":")[0])
        print("typed ok")
        """))
    r = run_module("-m", "simt.compat", str(script))
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["caught", "CUDA_ERROR_INVALID_VALUE", "typed", "ok"], r.stdout
