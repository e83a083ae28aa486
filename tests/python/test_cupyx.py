"""simt.cupyx (what `import cupyx` gives under simt.compat): scatter updates against NumPy's
ufunc.at, rsqrt, pinned host arrays, cupyx.scipy.special against float64 references computed with
Python's math module, and cupyx.profiler."""
import math
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import simt
from simt import cupyx
from simt.cupyx import profiler
from simt.cupyx.scipy import special

from conftest import ROOT


# ---- scatter updates and rsqrt ----------------------------------------------------------------
@pytest.mark.parametrize("name, ufunc", [("scatter_add", np.add), ("scatter_max", np.maximum), ("scatter_min", np.minimum)])
def test_scatter_updates_apply_every_repeated_index(rng, name, ufunc):
    host = rng.standard_normal((6, 4))
    rows = rng.integers(0, 6, 25)  # (repeats certain)
    values = rng.standard_normal((25, 4))
    expected = host.copy()
    ufunc.at(expected, rows, values)
    a = simt.asarray(host)
    getattr(cupyx, name)(a, simt.asarray(rows), simt.asarray(values))
    np.testing.assert_allclose(a.get(), expected, rtol=1e-14)
    # A tuple of index arrays and a scalar value.
    cols = rng.integers(0, 4, 25)
    expected2 = host.copy()
    ufunc.at(expected2, (rows, cols), 0.75)
    b = simt.asarray(host)
    getattr(cupyx, name)(b, (simt.asarray(rows), simt.asarray(cols)), 0.75)
    np.testing.assert_allclose(b.get(), expected2, rtol=1e-14)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32])
def test_rsqrt_matches_numpy(rng, dtype):
    host = (rng.random(1000) * 100 + 0.01).astype(dtype) if dtype != np.int32 else rng.integers(1, 1000, 1000, dtype=dtype)
    got = cupyx.rsqrt(simt.asarray(host))
    expected = 1 / np.sqrt(host)
    assert got.dtype == expected.dtype
    np.testing.assert_allclose(got.get(), expected, rtol=2e-7 if dtype == np.float32 else 1e-15)
    out = simt.empty(1000, expected.dtype)
    cupyx.rsqrt(simt.asarray(host), out=out)
    np.testing.assert_allclose(out.get(), expected, rtol=2e-7 if dtype == np.float32 else 1e-15)


# ---- pinned host arrays -----------------------------------------------------------------------
def test_pinned_arrays_are_numpy_arrays_that_copy_to_the_device(rng):
    e = cupyx.empty_pinned((3, 5), np.float32)
    assert isinstance(e, np.ndarray) and e.shape == (3, 5) and e.dtype == np.float32 and e.flags.c_contiguous
    z = cupyx.zeros_pinned((4, 2), order="F")
    assert z.dtype == np.float64 and z.flags.f_contiguous and not z.any()
    source = np.asfortranarray(rng.standard_normal((5, 7)))
    like = cupyx.empty_like_pinned(source)
    assert like.shape == (5, 7) and like.flags.f_contiguous and like.dtype == np.float64
    like[...] = source
    np.testing.assert_array_equal(simt.asarray(like).get(), source)
    zl = cupyx.zeros_like_pinned(source, dtype=np.int16, shape=(2, 2))
    assert zl.shape == (2, 2) and zl.dtype == np.int16 and not zl.any()
    with pytest.raises(TypeError, match="subok"):
        cupyx.empty_like_pinned(source, subok=True)


# ---- cupyx.scipy.special ----------------------------------------------------------------------
def _expit(x):
    return 1 / (1 + math.exp(-x)) if x >= 0 else math.exp(x) / (1 + math.exp(x))


def _entr(x):
    return -x * math.log(x) if x > 0 else (0.0 if x == 0 else -math.inf)


# name -> (float64 reference of one value, input range, float64 relative tolerance); functions with
# a zero inside the range also get an absolute tolerance there (NEAR_ZERO).
UNARY = {
    "erf": (math.erf, (-4, 4), 1e-15),
    "erfc": (math.erfc, (-4, 8), 1e-13),
    "gamma": (math.gamma, (0.05, 20), 1e-13),
    "gammaln": (math.lgamma, (0.05, 50), 1e-13),
    "rgamma": (lambda x: 1 / math.gamma(x), (0.05, 20), 1e-13),
    "expit": (_expit, (-40, 40), 1e-15),
    "log_expit": (lambda x: -math.log1p(math.exp(-x)) if x >= 0 else x - math.log1p(math.exp(x)), (-40, 40), 1e-14),
    "logit": (lambda p: math.log(p / (1 - p)), (0.001, 0.999), 1e-13),
    "ndtr": (lambda x: 0.5 * math.erfc(-x / math.sqrt(2)), (-6, 6), 1e-14),
    "entr": (_entr, (0.001, 10), 1e-14),
    "exp2": (lambda x: 2.0 ** x, (-20, 20), 1e-15),
    "exp10": (lambda x: 10.0 ** x, (-10, 10), 1e-14),
    "expm1": (math.expm1, (-3, 3), 1e-15),
    "log1p": (math.log1p, (-0.9, 10), 1e-15),
    "cbrt": (lambda x: math.copysign(abs(x) ** (1 / 3), x), (-100, 100), 1e-15),
}


NEAR_ZERO = {"gammaln": 1e-15, "logit": 1e-15, "entr": 1e-15}


@pytest.mark.parametrize("name", sorted(UNARY))
def test_special_unary_functions_match_float64_references(rng, name):
    reference, (lo, hi), rtol = UNARY[name]
    host = rng.uniform(lo, hi, 300)
    expected = np.array([reference(v) for v in host])
    fn = getattr(special, name)
    got = fn(simt.asarray(host))
    assert got.dtype == np.float64
    np.testing.assert_allclose(got.get(), expected, rtol=rtol, atol=NEAR_ZERO.get(name, 0))
    got32 = fn(simt.asarray(host.astype(np.float32)))
    assert got32.dtype == np.float32  # (float32 in, float32 out, as SciPy's loops)
    expected32 = np.array([reference(float(v)) for v in host.astype(np.float32)])
    np.testing.assert_allclose(got32.get(), expected32, rtol=5e-6, atol=1e-6)  # (float32 arithmetic)


def test_special_values_and_integer_inputs():
    big = simt.asarray([-800.0, 0.0, 800.0])
    np.testing.assert_array_equal(special.expit(big).get(), [0.0, 0.5, 1.0])  # no overflow
    np.testing.assert_array_equal(special.log_expit(big).get(), [-800.0, -math.log(2), 0.0])
    np.testing.assert_array_equal(special.logit(simt.asarray([0.0, 1.0])).get(), [-np.inf, np.inf])
    assert np.isnan(special.logit(simt.asarray([1.5])).get()[0])
    np.testing.assert_array_equal(special.entr(simt.asarray([0.0, -1.0])).get(), [0.0, -np.inf])
    assert np.isnan(special.entr(simt.asarray([np.nan])).get()[0])
    np.testing.assert_array_equal(special.rgamma(simt.asarray([0.0, -1.0, -2.0])).get(), [0.0, 0.0, 0.0])
    ints = special.erf(simt.asarray(np.array([0, 1, 2], np.int64)))
    assert ints.dtype == np.float64
    np.testing.assert_allclose(ints.get(), [0.0, math.erf(1), math.erf(2)], rtol=1e-15)


def test_special_binary_functions(rng):
    x = rng.uniform(-5, 5, 200)
    y = rng.uniform(0.01, 20, 200)
    x[:10] = 0.0
    np.testing.assert_allclose(special.xlogy(simt.asarray(x), simt.asarray(y)).get(), x * np.log(y), rtol=1e-15)
    np.testing.assert_allclose(special.xlog1py(simt.asarray(x), simt.asarray(y)).get(), x * np.log1p(y), rtol=1e-15)
    # 0 * log(0) is 0, not nan; a nan y stays nan.
    got = special.xlogy(simt.asarray([0.0, 0.0, 2.0]), simt.asarray([0.0, np.nan, 1.0])).get()
    assert got[0] == 0.0 and np.isnan(got[1]) and got[2] == 0.0


# ---- cupyx.profiler ----------------------------------------------------------------------------
def test_benchmark_times_each_call_on_host_and_device():
    x = simt.ones(1000)
    calls = []

    def work(a, scale=1.0):
        calls.append(1)
        return a * scale

    r = profiler.benchmark(work, (x,), {"scale": 2.0}, n_repeat=20, n_warmup=3, name="double")
    assert len(calls) == 23
    assert r.cpu_times.shape == (20,) and (r.cpu_times > 0).all()
    assert r.gpu_times.shape == (1, 20) and (r.gpu_times >= 0).all()
    text = str(r)
    assert text.startswith("double") and "CPU:" in text and "GPU-0:" in text
    assert "GPU" not in r.to_str(show_gpu=False)
    # max_duration=0: one timed call.
    calls.clear()
    assert profiler.benchmark(work, (x,), n_repeat=50, n_warmup=0, max_duration=0).cpu_times.shape == (1,)
    assert len(calls) == 1


def test_benchmark_rejects_bad_arguments():
    with pytest.raises(TypeError, match="callable"):
        profiler.benchmark(42)
    with pytest.raises(TypeError, match="tuple"):
        profiler.benchmark(print, [1])
    with pytest.raises(ValueError, match="n_repeat"):
        profiler.benchmark(print, n_repeat=0)


def test_time_range_and_profile_are_simts():
    assert profiler.time_range is simt.cuda.nvtx.time_range and profiler.profile is simt.cuda.profiler.profile
    with profiler.time_range("block", color_id=1), profiler.profile():
        y = simt.arange(10.0) * 3
    np.testing.assert_array_equal(y.get(), np.arange(10.0) * 3)


# ---- under simt.compat -------------------------------------------------------------------------
def test_import_cupyx_under_compat(tmp_path):
    script = tmp_path / "uses_cupyx.py"
    script.write_text(textwrap.dedent("""
        import cupy as cp, cupyx, numpy as np
        from cupyx.scipy import special
        from cupyx.profiler import benchmark
        import simt
        assert cupyx is simt.cupyx and special is simt.cupyx.scipy.special
        a = cp.zeros(4)
        cupyx.scatter_add(a, cp.asarray([1, 1, 3]), 2.0)
        print(a.get().tolist(), float(special.ndtr(cp.asarray([0.0]))[0]))
        try:
            import cupyx.scipy.ndimage
        except ModuleNotFoundError as e:
            print("missing:", e.name)
    """))
    r = subprocess.run([sys.executable, "-m", "simt.compat", str(script)], capture_output=True, text=True,
                       env=dict(os.environ), timeout=600, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == ["[0.0, 4.0, 0.0, 2.0] 0.5", "missing: cupyx.scipy.ndimage"]
