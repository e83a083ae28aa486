"""The single-pass look-back scan (the cuda backend's cumsum/cumprod along a contiguous axis),
forced on whatever backend runs the tests: dtypes, odd lengths and tile boundaries, many tiles,
rows and views against NumPy, and the look-back itself from planted predecessor states."""
import numpy as np
import pytest

import simt
from simt import _kernelgen, _scan, _scan_lookback
from test_reductions import data
from xp_compare import numpy_simt_allclose

PLANS = {"one-warp": (32, 1), "two-warps": (64, 3), "cuda-default": (256, 8)}


@pytest.fixture(params=list(PLANS))
def tile_plan(request, monkeypatch):
    """Forces the look-back scan; returns (threads, items) and the list its launches go to."""
    threads, items = PLANS[request.param]
    t = dict(_scan.TUNING["cuda"])
    t.update(tile_threads=threads, tile_items=items, tile_min_line=1)
    t.pop("tile_by_itemsize", None)  # these tile shapes for every dtype
    monkeypatch.setitem(_scan.TUNING, _kernelgen.backend_kind(), t)
    calls = []
    run = _scan_lookback.scan_lines

    def counted(plan, op, x, *args):  # called while a launch plan is worked out
        calls.append(x.shape)
        return run(plan, op, x, *args)
    monkeypatch.setattr(_scan_lookback, "scan_lines", counted)
    return threads * items, calls


@pytest.mark.parametrize("n", [1, 2, 31, 32, 33, 64, 191, 192, 193, 2048, 2049, 10_007])
@pytest.mark.parametrize("dtype", [np.float64, np.int32])
@numpy_simt_allclose(rtol=1e-11, atol=1e-9)
def test_cumsum_lengths_around_tile_boundaries(xp, rng, tile_plan, n, dtype):
    return xp.cumsum(xp.asarray(data(rng, (n,), dtype)))


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint16, np.int32, np.int64, np.uint64, np.float32,
                                   np.float64])
# float32: NumPy adds in sequence, the scan in a tree; their prefixes of 3001 values differ by up
# to ~1e-3 (NumPy's own rounding over thousands of steps near |prefix| ~ 100, measured over 40
# seeds), far below the size of any lost or doubled element.
@numpy_simt_allclose(rtol=1e-12, atol=1e-4, rtol_by_dtype={np.float32: 1e-5}, atol_by_dtype={np.float32: 5e-3})
def test_cumsum_dtypes(xp, rng, tile_plan, dtype):
    return xp.cumsum(xp.asarray(data(rng, (3001,), dtype)))


def test_cumsum_float16_accumulates_in_float32(rng, tile_plan):
    h = rng.standard_normal(3001).astype(np.float16)
    r = simt.cumsum(simt.asarray(h)).get()
    assert r.dtype == np.float16
    np.testing.assert_allclose(r.astype(np.float64), np.cumsum(h.astype(np.float64)), rtol=2e-3, atol=0.05)


def test_many_tiles(rng, tile_plan):
    tile, calls = tile_plan
    h = rng.standard_normal(100_003)
    np.testing.assert_allclose(simt.cumsum(simt.asarray(h)).get(), np.cumsum(h), rtol=1e-9, atol=1e-9)
    i = rng.integers(-5, 6, 100_003)
    np.testing.assert_array_equal(simt.cumsum(simt.asarray(i)).get(), np.cumsum(i))
    assert len(calls) == 2


@pytest.mark.parametrize("dtype", [np.int64, np.float64, np.float32])
@numpy_simt_allclose(rtol=1e-10, atol=1e-10, rtol_by_dtype={np.float32: 2e-5})
def test_cumprod(xp, rng, tile_plan, dtype):
    h = data(rng, (4, 900), dtype, "prod")
    if np.dtype(dtype).kind == "i":
        h = rng.choice(np.array([1, 1, 1, -1, 2], dtype), (4, 900))
    return xp.cumprod(xp.asarray(h), axis=1), xp.cumprod(xp.asarray(h[0]))


@pytest.mark.parametrize("shape, axis", [((7, 1000), 1), ((7, 1000), -1), ((3, 4, 300), 2), ((3, 4, 300), None),
                                         ((1, 5000), 1), ((50, 3), 1)])
@numpy_simt_allclose(rtol=1e-11, atol=1e-9)
def test_rows(xp, rng, tile_plan, shape, axis):
    return xp.cumsum(xp.asarray(data(rng, shape, np.float64)), axis=axis)


@numpy_simt_allclose(rtol=1e-11, atol=1e-9)
def test_strided_views_and_dtype_argument(xp, rng, tile_plan):
    a = xp.asarray(data(rng, (6, 2001), np.float64))
    i = xp.asarray(data(rng, (2, 999), np.int64))
    return (xp.cumsum(a[:, ::3], axis=1), xp.cumsum(a[::-2, 7:], axis=1), xp.cumsum(a[:, ::-1], axis=1),
            xp.cumsum(i, axis=1, dtype=np.int32), xp.cumsum(i, axis=1, dtype=np.float32))


def test_columns_and_complex_keep_the_tiled_multipass_scan(rng, tile_plan):
    _, calls = tile_plan
    h = rng.standard_normal((300, 4))
    np.testing.assert_allclose(simt.cumsum(simt.asarray(h), axis=0).get(), np.cumsum(h, axis=0), rtol=1e-12,
                               atol=1e-12)
    c = h[:, 0] + 1j * h[:, 1]
    np.testing.assert_allclose(simt.cumsum(simt.asarray(c)).get(), np.cumsum(c), rtol=1e-12, atol=1e-12)
    assert (4, 300) not in calls and (300,) not in calls  # (the tile totals of the first may take it)


@pytest.mark.parametrize("planted", ["all-aggregates", "mixed", "inclusive-far-back"])
def test_look_back_walks_windows_of_published_tiles(rng, planted):
    # Tiles 0 .. first-1 are planted as published by earlier blocks (some with only their
    # aggregate); the launched blocks, taking tiles from `first` on, must look back across them.
    threads, items = 32, 2
    tile = threads * items
    ntiles, first = 80, 75
    n = ntiles * tile - 5
    h = rng.integers(-9, 10, n).astype(np.int64)
    sums = np.add.reduceat(h, np.arange(0, n, tile))
    status = np.full(first, _scan_lookback.AGGREGATE, np.int32)
    status[0] = _scan_lookback.INCLUSIVE
    if planted == "mixed":
        status[rng.integers(1, first, 10)] = _scan_lookback.INCLUSIVE
    elif planted == "inclusive-far-back":
        status[3] = _scan_lookback.INCLUSIVE
    flags = np.zeros(ntiles + 1, np.int32)
    flags[:first] = status
    flags[ntiles] = first  # the tile counter
    incl = np.cumsum(sums).astype(np.int64)
    incl[:first][status != _scan_lookback.INCLUSIVE] = 10**12  # never to be read
    agg = sums.astype(np.int64)
    out = simt.zeros(n, np.int64)
    src = _scan_lookback.lookback_source("sum", 0, np.dtype(np.int64), np.dtype(np.int64), np.dtype(np.int64),
                                         threads, items)
    k = _kernelgen.kernel("simt_scan_lookback", src, boundscheck=False)
    _kernelgen.launch(k, ntiles - first, threads, simt.asarray(h), out, simt.asarray(flags), simt.asarray(agg),
                      simt.asarray(incl), ntiles, ntiles)
    expected = np.cumsum(h)
    np.testing.assert_array_equal(out.get()[first * tile:], expected[first * tile:])
