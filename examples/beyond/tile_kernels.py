"""Tile kernels (cuda.tile's API, `import simt.cuda.tile as ct`): whole tiles instead of threads.
A layer normalization of each row and a matrix product written with `@`, checked against NumPy
on whichever backend is active."""
import numpy as np

import simt
import simt.cuda.tile as ct


@ct.kernel
def layer_norm(x, out, width: ct.Constant[int], n: ct.Constant[int]):
    row = ct.bid(0)
    t = ct.load(x, index=(row, 0), shape=(1, n))              # the padding beyond `width` reads 0
    mean = ct.sum(t) / width
    centered = ct.where(ct.arange(n, dtype=ct.int32) < width, t - mean, 0.0)
    ct.store(out, index=(row, 0), tile=centered * ct.rsqrt(ct.sum(centered * centered) / width + 1e-5))


@ct.kernel
def product(a, b, c, tile: ct.Constant[int]):
    i, j = ct.bid(0), ct.bid(1)
    acc = ct.zeros((tile, tile), dtype=ct.float64)
    for k in range(ct.num_tiles(a, axis=1, shape=(tile, tile))):
        acc += ct.load(a, index=(i, k), shape=(tile, tile)) @ ct.load(b, index=(k, j), shape=(tile, tile))
    ct.store(c, index=(i, j), tile=acc)


rng = np.random.default_rng(7)
x = rng.standard_normal((300, 1000)).astype(np.float32)
y = simt.empty_like(simt.asarray(x))
ct.launch(None, x.shape[0], layer_norm, (simt.asarray(x), y, x.shape[1], 1024))  # one 1024-wide tile a row
mean = x.astype(np.float64).mean(axis=1, keepdims=True)
expected = (x - mean) / np.sqrt(((x - mean) ** 2).mean(axis=1, keepdims=True) + 1e-5)
np.testing.assert_allclose(y.get(), expected, rtol=1e-4, atol=1e-4)

a, b = rng.uniform(-1, 1, (200, 300)), rng.uniform(-1, 1, (300, 100))
c = simt.zeros((200, 100))
ct.launch(None, (ct.cdiv(200, 32), ct.cdiv(100, 32)), product, (simt.asarray(a), simt.asarray(b), c, 32))
np.testing.assert_allclose(c.get(), a @ b, rtol=1e-12, atol=1e-12)
print("tile layer norm and matmul ok on the", simt.backend(), "backend")
