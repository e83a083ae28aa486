"""simt.cuda.tile: loads and stores through permuted axes (order=) against NumPy on fresh random
data, on every backend the suite runs (python/simt/cuda/tile, src/simt/sema/builtins_tile.cpp,
simt_permute_axes in src/simt/codegen/prelude/tile.h)."""
import numpy as np
import pytest

import simt
import simt.cuda.tile as ct
from xp_testing import random_host


def run(kernel, grid, *args):
    ct.launch(None, grid, kernel, tuple(args))
    simt.cuda.synchronize()


@ct.kernel
def load_transposed(x, y, tm: ct.Constant[int], tn: ct.Constant[int], how: ct.Constant[int]):
    # y's tile (i, j) is x's tile (j, i) read along x's columns: y = x.T
    i, j = ct.bid(0), ct.bid(1)
    if how == 0:
        t = ct.load(x, index=(i, j), shape=(tm, tn), order=(1, 0), padding_mode=ct.PaddingMode.NAN)
    else:
        t = ct.load(x, index=(i, j), shape=(tm, tn), order="F", padding_mode=ct.PaddingMode.NAN)
    ct.store(y, index=(i, j), tile=t)


@pytest.mark.parametrize("how", [0, 1])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_load_with_order_reads_the_transpose(rng, how, dtype):
    h = random_host(rng, (37, 53), dtype)
    y = simt.zeros((53, 37), dtype)
    run(load_transposed, (ct.cdiv(53, 8), ct.cdiv(37, 16)), simt.asarray(h), y, 8, 16, how)
    np.testing.assert_array_equal(y.get(), h.T)


@ct.kernel
def store_transposed(x, y, tm: ct.Constant[int], tn: ct.Constant[int]):
    i, j = ct.bid(0), ct.bid(1)
    ct.store(y, index=(i, j), tile=ct.load(x, index=(i, j), shape=(tm, tn)), order=(1, 0))


def test_store_with_order_writes_the_transpose(rng):
    h = random_host(rng, (20, 44), np.int32)
    y = simt.full((44, 20), -1, np.int32)
    run(store_transposed, (ct.cdiv(20, 4), ct.cdiv(44, 16)), simt.asarray(h), y, 4, 16)
    np.testing.assert_array_equal(y.get(), h.T)  # (elements past y's edges are dropped, none missing)


@ct.kernel
def load_permuted_3d(x, y, a: ct.Constant[int], b: ct.Constant[int], c: ct.Constant[int]):
    idx = (ct.bid(0), ct.bid(1), ct.bid(2))
    ct.store(y, index=idx, tile=ct.load(x, index=idx, shape=(a, b, c), order=(2, 0, 1)))


@ct.kernel
def load_reversed_3d(x, y, a: ct.Constant[int], b: ct.Constant[int], c: ct.Constant[int]):
    idx = (ct.bid(0), ct.bid(1), ct.bid(2))
    ct.store(y, index=idx, tile=ct.load(x, index=idx, shape=(a, b, c), order="F"))


def test_load_with_3d_orders_over_strided_views(rng):
    big = random_host(rng, (12, 14, 22), np.float32)
    view = simt.asarray(big)[::2, 1:, ::3]  # (6, 13, 8), strided in every axis
    ref = big[::2, 1:, ::3]
    y = simt.zeros((8, 6, 13), np.float32)
    run(load_permuted_3d, (ct.cdiv(8, 4), ct.cdiv(6, 2), ct.cdiv(13, 8)), view, y, 4, 2, 8)
    np.testing.assert_array_equal(y.get(), ref.transpose(2, 0, 1))
    z = simt.zeros((8, 13, 6), np.float32)
    run(load_reversed_3d, (2, 4, 1), view, z, 4, 4, 8)
    np.testing.assert_array_equal(z.get(), ref.transpose(2, 1, 0))
    # a Fortran-ordered array read with order='F' is its C-ordered transpose
    f = simt.asarray(np.asfortranarray(ref))
    run(load_reversed_3d, (2, 4, 1), f, z, 4, 4, 8)
    np.testing.assert_array_equal(z.get(), ref.transpose(2, 1, 0))


@ct.kernel
def scalar_store_transposed(y):
    ct.store(y, index=(1, 2), tile=7.5, order=(1, 0))


def test_scalar_store_with_order():
    y = simt.zeros((4, 3))
    run(scalar_store_transposed, 1, y)
    expected = np.zeros((4, 3))
    expected[2, 1] = 7.5
    np.testing.assert_array_equal(y.get(), expected)


@ct.kernel
def bad_order(x, which: ct.Constant[int]):
    if which == 0:
        t = ct.load(x, index=(0, 0), shape=(2, 2), order=(0, 0))
    elif which == 1:
        t = ct.load(x, index=(0, 0), shape=(2, 2), order="K")
    else:
        t = ct.load(x, index=(0, 0), shape=(2, 2), order=(1, 0, 2))
    ct.store(x, index=(0, 0), tile=t)


@pytest.mark.parametrize("which,message", [(0, r"order must be a permutation of the array's axes 0..1"),
                                           (1, "order must be 'C', 'F' or a constant tuple"),
                                           (2, "order names 3 axes for an array of 2")])
def test_order_errors(which, message):
    with pytest.raises(simt.cuda.TypingError, match=message):
        run(bad_order, 1, simt.zeros((4, 4)), which)


@ct.kernel
def rows_of_slice(x, y, start, stop, t: ct.Constant[int]):
    # each block copies one tile of rows [start, stop) of x (as a view) into the same rows of y
    v = x.slice(axis=0, start=start, stop=stop)
    w = y.slice(0, start, stop)
    ct.store(w, index=(ct.bid(0), 0), tile=ct.load(v, index=(ct.bid(0), 0), shape=(t, 8)))


@ct.kernel
def columns_of_slice(x, y, start, stop):
    v = x.slice(-1, start, stop)
    ct.store(y, index=(0, 0), tile=ct.load(v, index=(0, 0), shape=(8, 8), padding_mode=ct.PaddingMode.NAN))


def test_array_slice_views(rng):
    h = random_host(rng, (30, 8), np.float64)
    y = simt.zeros((30, 8))
    run(rows_of_slice, ct.cdiv(30 - 5, 4), simt.asarray(h), y, 5, 29, 4)
    expected = np.zeros((30, 8))
    expected[5:29] = h[5:29]
    np.testing.assert_array_equal(y.get(), expected)  # (the last tile's rows past stop are not written)
    g = random_host(rng, (8, 20), np.float32)
    z = simt.zeros((8, 8), np.float32)
    run(columns_of_slice, 1, simt.asarray(g), z, 13, 18)
    expected = np.full((8, 8), np.nan, np.float32)
    expected[:, :5] = g[:, 13:18]
    np.testing.assert_array_equal(z.get(), expected)
    # bounds past the array are clamped into it: the view never reaches outside
    run(columns_of_slice, 1, simt.asarray(g), z, 17, 99)
    expected = np.full((8, 8), np.nan, np.float32)
    expected[:, :3] = g[:, 17:]
    np.testing.assert_array_equal(z.get(), expected)


@ct.kernel
def slice_with_float(x):
    v = x.slice(0, 1.5, 3)
    ct.store(v, index=(0,), tile=ct.zeros((2,), dtype=x.dtype))


def test_array_slice_errors():
    with pytest.raises(simt.cuda.TypingError, match=r"Array.slice\(\) start and stop must be integers"):
        run(slice_with_float, 1, simt.zeros(4))


@ct.kernel
def copy_through_views(x, y, tm: ct.Constant[int], tn: ct.Constant[int]):
    src = x.tiled_view((tm, tn), padding_mode=ct.PaddingMode.NAN)
    dst = y.tiled_view((tm, tn))
    i, j = ct.bid(0), ct.bid(1)
    dst.store((i, j), src.load((i, j)) * 2)


@ct.kernel
def view_properties(x, out):
    v = x.tiled_view((4, 8))
    tm, tn = v.tile_shape
    n0, n1 = v.num_tiles(0), v.num_tiles(axis=1)
    ct.store(out, index=(0,), tile=ct.full((4,), n0 * 1000 + n1 * 10 + tm + tn, dtype=ct.int64))
    w = out.tiled_view(4)
    w.store(1, ct.arange(4, dtype=ct.int32))  # converted to the view's dtype
    w.store(2, 7)  # a number fills the tile
    w.store((3,), ct.full((1,), 5, dtype=ct.int64))  # broadcast to the tile shape
    ct.store(out, index=(4,), tile=ct.full((4,), ct.sum(v.load((0, 0))), dtype=v.dtype))


def test_tiled_views_load_and_store(rng):
    h = random_host(rng, (37, 53), np.float32)
    y = simt.zeros((37, 53), np.float32)
    run(copy_through_views, (ct.cdiv(37, 8), ct.cdiv(53, 16)), simt.asarray(h), y, 8, 16)
    np.testing.assert_array_equal(y.get(), h * 2)
    g = rng.integers(0, 9, (10, 30)).astype(np.int64)
    out = simt.zeros(20, np.int64)
    run(view_properties, 1, simt.asarray(g), out)
    expected = np.concatenate([np.full(4, 3 * 1000 + 4 * 10 + 12), np.arange(4), np.full(4, 7), np.full(4, 5),
                               np.full(4, g[:4, :8].sum())])
    np.testing.assert_array_equal(out.get(), expected)


@ct.kernel
def bad_view(x, which: ct.Constant[int]):
    if which == 0:
        v = x.tiled_view((4,))
    elif which == 1:
        v = x.tiled_view((4, 6))
    else:
        v = x.tiled_view((4, 4), traversal_steps=(2, 2))
    v.store((0, 0), v.load((0, 0)))


def test_tiled_view_errors():
    x = simt.zeros((8, 8))
    with pytest.raises(simt.cuda.TypingError, match=r"tile_shape has 1 dimension\(s\) for an array of 2"):
        run(bad_view, 1, x, 0)
    with pytest.raises(simt.cuda.TypingError, match="powers of two, not 6"):
        run(bad_view, 1, x, 1)
    with pytest.raises(simt.cuda.UnsupportedError, match="traversal_steps is not supported"):
        run(bad_view, 1, x, 2)


def load_from(view, i):
    return view.load((i,))


def both_views(x, y):
    return x.tiled_view((4,)), y.tiled_view((4,), padding_mode=ct.PaddingMode.ZERO)


@ct.kernel
def views_through_helpers(x, y):
    a, b = both_views(x, y)  # views in a tuple, returned by a helper
    pair = (a, b)
    b.store((1,), load_from(pair[0], 0) + 1.0)


def test_tiled_views_pass_through_helpers_and_tuples(rng):
    h = random_host(rng, 8, np.float64)
    y = simt.zeros(8)
    run(views_through_helpers, 1, simt.asarray(h), y)
    np.testing.assert_array_equal(y.get(), np.concatenate([np.zeros(4), h[:4] + 1.0]))
