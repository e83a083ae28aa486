"""Launch plans of reductions and scans, cached per input layout: a cached plan must never serve
a call whose layout or arguments differ, warnings still come on every call, and changing a
tuning entry gives new plans."""
import warnings

import numpy as np
import pytest

import simt
from simt import _kernelgen, _reduce_passes, _scan


def _fresh(rng, shape, dtype=np.float64):
    return rng.uniform(-1, 1, shape).astype(dtype)


def test_repeated_calls_reuse_one_plan_and_stay_correct(rng):
    h = _fresh(rng, (37, 53))
    a = simt.asarray(h)
    for _ in range(3):
        np.testing.assert_allclose(simt.sum(a, axis=1).get(), h.sum(axis=1), rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(simt.cumsum(a, axis=0).get(), np.cumsum(h, axis=0), rtol=1e-12, atol=1e-12)
    # New data of the same layout goes through the cached plans.
    h2 = _fresh(rng, (37, 53))
    np.testing.assert_allclose(simt.sum(simt.asarray(h2), axis=1).get(), h2.sum(axis=1), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1), -1])
def test_same_shape_other_strides_or_axis_get_their_own_plan(rng, axis):
    h = _fresh(rng, (24, 30))
    a = simt.asarray(h)
    views = {"c": (a, h), "transposed": (a.T, h.T), "strided": (a[:, ::2], h[:, ::2]),
             "reversed": (a[::-1], h[::-1])}
    for name, (d, ref) in views.items():
        np.testing.assert_allclose(simt.sum(d, axis=axis).get(), ref.sum(axis=axis), rtol=1e-12, atol=1e-12,
                                   err_msg=name)
        np.testing.assert_allclose(simt.max(d, axis=axis).get(), ref.max(axis=axis), err_msg=name)
        if not isinstance(axis, tuple):
            np.testing.assert_allclose(simt.cumsum(d, axis=axis).get(), np.cumsum(ref, axis=axis), rtol=1e-12,
                                       atol=1e-12, err_msg=name)


def test_keepdims_dtype_and_op_are_part_of_the_key(rng):
    h = _fresh(rng, (16, 9), np.float32)
    a = simt.asarray(h)
    assert simt.sum(a, axis=0).shape == (9,)
    assert simt.sum(a, axis=0, keepdims=True).shape == (1, 9)
    assert simt.sum(a, axis=0, dtype=np.float64).dtype == np.float64
    assert simt.sum(a, axis=0).dtype == np.float32
    np.testing.assert_allclose(simt.prod(a, axis=0).get(), h.prod(axis=0), rtol=1e-5)
    np.testing.assert_allclose(simt.mean(a, axis=0).get(), h.mean(axis=0), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(simt.cumsum(a, dtype=np.float64).get(), np.cumsum(h, dtype=np.float64), rtol=1e-10)
    assert simt.cumsum(a).dtype == np.float32


def test_unhashable_axis_still_works(rng):
    h = _fresh(rng, (5, 6, 7))
    d = simt.asarray(h)
    # NumPy takes only ints and tuples; a list reaches the planner, which rejects it the same way each time.
    for _ in range(2):
        with pytest.raises(TypeError):
            simt.sum(d, axis=[0, 1])


def test_an_axis_equal_to_a_cached_one_but_not_an_integer_is_still_refused(rng):
    a = simt.asarray(_fresh(rng, (4, 5)))
    simt.sum(a, axis=1)
    simt.cumsum(a, axis=1)
    with pytest.raises(TypeError):
        simt.sum(a, axis=1.0)  # 1.0 == 1 and hashes alike, but NumPy refuses a float axis
    with pytest.raises(TypeError):
        simt.cumsum(a, axis=1.0)
    simt.sum(a, axis=(0, 1))
    with pytest.raises(TypeError):
        simt.sum(a, axis=(0, 1.0))


def test_ddof_warning_comes_on_every_call(rng):
    a = simt.asarray(_fresh(rng, 3))
    for _ in range(2):
        with pytest.warns(RuntimeWarning, match="Degrees of freedom"):
            simt.var(a, ddof=3)


def test_empty_reductions_raise_or_warn_on_every_call():
    e = simt.zeros((0, 4))
    for _ in range(2):
        with pytest.raises(ValueError):
            simt.max(e, axis=0)
        with pytest.warns(RuntimeWarning):
            assert np.isnan(simt.mean(e, axis=0).get()).all()
    assert simt.sum(e, axis=1).shape == (0,)


def test_a_replaced_tuning_entry_gives_new_plans(rng, monkeypatch):
    h = _fresh(rng, 5000)
    a = simt.asarray(h)
    backend = _kernelgen.backend_kind()
    first = simt.sum(a).get()
    recorded = []
    run = _reduce_passes._run_passes

    def counted(plan, x, *args):
        recorded.append(x.shape)
        return run(plan, x, *args)
    monkeypatch.setattr(_reduce_passes, "_run_passes", counted)
    # A cpu-shaped (thread-per-split) plan replaces whatever the backend used: the call must plan again.
    monkeypatch.setitem(_reduce_passes.TUNING, backend, dict(_reduce_passes.TUNING["cpu"], threads=8, per_thread=64))
    second = simt.sum(a).get()
    assert recorded, "the new tuning entry was not planned for"
    np.testing.assert_allclose(second, first, rtol=1e-12)
    np.testing.assert_allclose(second, h.sum(), rtol=1e-12)
    monkeypatch.setitem(_scan.TUNING, backend, {"threads": 4, "min_tile": 100})
    np.testing.assert_allclose(simt.cumsum(a).get(), np.cumsum(h), rtol=1e-12, atol=1e-12)


def test_plans_follow_the_current_stream(rng):
    from simt import cuda
    h = _fresh(rng, 10_000)
    a = simt.asarray(h)
    simt.sum(a)  # planned on the default stream
    s = cuda.stream()
    with s:
        total = simt.sum(a)
        scan = simt.cumsum(a)
    s.synchronize()
    np.testing.assert_allclose(total.get(), h.sum(), rtol=1e-12)
    np.testing.assert_allclose(scan.get(), np.cumsum(h), rtol=1e-12, atol=1e-12)


def test_the_cache_is_bounded():
    from simt._launch_plan import PlanCache
    cache = PlanCache(limit=3)
    for i in range(10):
        cache.put(i, i)
        assert len(cache._plans) <= 3
    assert cache.get(9) == 9 and cache.get(0) is None
