"""The block-cooperative reduction (the cuda backend's path for whole arrays and contiguous rows),
forced on whatever backend runs the tests: every op and dtype against NumPy, odd sizes, one
element, many partial blocks, rows and merged axes, strided views, and float accuracy at 10**6."""
import numpy as np
import pytest

import simt
from simt import _kernelgen, _reduce_passes
from test_reductions import LOOSE, LOOSE_ABS, call, data
from xp_compare import numpy_simt_allclose

# (threads per block, most blocks, elements per thread before another split, accumulators)
PLANS = {"one-warp": (32, 3, 1, 1), "two-warps": (64, 7, 2, 4), "three-warps": (96, 4, 1, 8)}


def _tuning(threads, max_blocks, per_thread, unroll):
    t = dict(_reduce_passes.TUNING["cuda"])
    t.update(block_threads=threads, max_blocks=max_blocks, block_min_row=1, block_per_thread=per_thread,
             block_unroll=unroll)
    return t


def _force(plan, monkeypatch):
    """Forces the block path; returns the list the number of block launches is appended to."""
    monkeypatch.setitem(_reduce_passes.TUNING, _kernelgen.backend_kind(), _tuning(*PLANS[plan]))
    calls = []
    run = _reduce_passes._run_block_passes

    def counted(*args):
        calls.append(args[1])
        return run(*args)
    monkeypatch.setattr(_reduce_passes, "_run_block_passes", counted)
    return calls


@pytest.fixture(params=list(PLANS))
def block_plan(request, monkeypatch):
    return _force(request.param, monkeypatch)


# The large op x dtype tables take the plans with more than one warp (every combine level): both
# for float32 and float64, one each for the other dtypes (each pair is a set of compiled kernels).
WHOLE_ARRAY_CASES = [(np.bool_, "three-warps"), (np.int32, "two-warps"), (np.int64, "three-warps"),
                     (np.float32, "two-warps"), (np.float32, "three-warps"), (np.float64, "two-warps"),
                     (np.float64, "three-warps")]
SHARED_MEMORY_CASES = [(np.int8, "two-warps"), (np.uint16, "three-warps"), (np.float16, "two-warps"),
                       (np.complex64, "three-warps"), (np.complex128, "two-warps")]


OPS = ["sum", "prod", "min", "max", "mean", "var", "std", "argmin", "argmax", "all", "any"]


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("dtype, plan", WHOLE_ARRAY_CASES)
@numpy_simt_allclose(rtol=1e-12, atol=1e-10, rtol_by_dtype=LOOSE, atol_by_dtype=LOOSE_ABS)
def test_whole_array(xp, rng, monkeypatch, op, dtype, plan):
    _force(plan, monkeypatch)
    # One element, part of a warp, a few warps, many blocks with a tail; (products of thousands
    # of random integers overflow, differently in each order, so they stop at 1000).
    sizes = [1, 2, 33, 1000] + ([] if op == "prod" and dtype != np.bool_ else [2**12 + 3])
    return tuple(call(xp, op, xp.asarray(data(rng, (n,), dtype, op)), None, False) for n in sizes)


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("dtype, plan", SHARED_MEMORY_CASES)
@numpy_simt_allclose(rtol=1e-12, atol=1e-10, rtol_by_dtype=LOOSE, atol_by_dtype=LOOSE_ABS)
def test_types_shuffles_cannot_move(xp, rng, monkeypatch, op, dtype, plan):
    _force(plan, monkeypatch)
    # Small integers (min, max, all, any), bool and complex accumulators combine through shared memory.
    return call(xp, op, xp.asarray(data(rng, (777,), dtype, op)), None, False)


@pytest.mark.parametrize("op", ["sum", "max", "mean", "var", "argmin", "argmax", "any"])
@pytest.mark.parametrize("shape, axis", [((5, 1001), 1), ((5, 1001), -1), ((3, 4, 257), 2), ((2, 3, 100), (1, 2)),
                                         ((40, 9), 1), ((1, 500), 1), ((3, 4, 5), None), ((2, 5000), 1)])
@numpy_simt_allclose(rtol=1e-12, atol=1e-10)
def test_contiguous_rows(xp, rng, block_plan, op, shape, axis):
    return call(xp, op, xp.asarray(data(rng, shape, np.float64, op)), axis, False)


@pytest.mark.parametrize("op", ["sum", "min", "argmax", "var"])
@numpy_simt_allclose(rtol=1e-12, atol=1e-10)
def test_strided_views(xp, rng, block_plan, op):
    a = xp.asarray(data(rng, (6, 2001), np.float64, op))
    return call(xp, op, a[:, ::3], 1, False), call(xp, op, a[1::2, 5:], None, False), call(xp, op, a[::-1, ::-2], 1, False)


@pytest.mark.parametrize("op", ["argmin", "argmax", "min", "max"])
@numpy_simt_allclose()
def test_nans_ties_and_infinities(xp, rng, block_plan, op):
    h = rng.integers(-2, 3, (4, 1500)).astype(np.float64)
    h[1, 7], h[2, 900] = np.inf, -np.inf
    h[3, rng.integers(0, 1500, 3)] = np.nan
    return call(xp, op, xp.asarray(h), 1, False), call(xp, op, xp.asarray(h[:3]), None, False)


def test_the_block_path_serves_whole_arrays_and_rows_only(rng, block_plan):
    a = simt.asarray(rng.standard_normal((30, 40)))
    simt.sum(a)
    simt.sum(a, axis=1)
    assert len(block_plan) == 2
    simt.sum(a, axis=0)  # a column reduction: threads of a block would read 40 elements apart
    assert len(block_plan) == 2


@pytest.mark.parametrize("n", [10**6, 2**20 + 3])
def test_float_sums_stay_accurate_with_the_cuda_plan(rng, monkeypatch, n):
    monkeypatch.setitem(_reduce_passes.TUNING, _kernelgen.backend_kind(), dict(_reduce_passes.TUNING["cuda"]))
    h = rng.uniform(-1, 1, n)
    exact = h.sum()
    for dtype, rtol in ((np.float64, 1e-12), (np.float32, 1e-5)):
        x = h.astype(dtype)
        # Within the error NumPy's pairwise summation makes on the same float32 data.
        bound = max(abs(float(np.sum(x)) - exact), np.finfo(dtype).eps * np.abs(h).sum() / 8)
        assert abs(float(simt.sum(simt.asarray(x)).get()) - exact) <= max(bound * 4, rtol * abs(exact))
    np.testing.assert_allclose(simt.mean(simt.asarray(h.astype(np.float32))).get(), h.mean(), rtol=1e-4, atol=1e-7)
    assert simt.argmax(simt.asarray(h)).get() == h.argmax()


def test_the_cuda_plan_takes_whole_arrays_of_any_length_and_long_rows():
    cuda = _reduce_passes.TUNING["cuda"]
    assert _reduce_passes._block_path(cuda, [(5, 8)], True, 1)
    assert _reduce_passes._block_path(cuda, [(4096, 8)], True, 7)
    assert not _reduce_passes._block_path(cuda, [(100, 8)], True, 7)  # short rows: a thread per split
    assert not _reduce_passes._block_path(cuda, [(4096, 800)], False, 7)  # columns
    assert not _reduce_passes._block_path(cuda, [(30, 32), (4, 8)], True, 1)  # two reduced axes
    assert not _reduce_passes._block_path(_reduce_passes.TUNING["cpu"], [(10**6, 8)], True, 1)
