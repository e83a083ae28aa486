"""Block-wide primitives inside a @cuda.jit kernel (cuda.coop's API): each block sums its tile."""
import numpy as np

import simt
from simt import cuda
from simt.cuda import coop

THREADS, ITEMS = 128, 4
block_sum = coop.block.sum(np.float64, THREADS, ITEMS)
block_load = coop.block.load(np.float64, THREADS, ITEMS, "striped")


@cuda.jit(link=block_sum.files + block_load.files)
def tile_sums(x, out):
    items = cuda.local.array(ITEMS, np.float64)
    block_load(x[cuda.blockIdx.x * THREADS * ITEMS:], items)
    total = block_sum(items)
    if cuda.threadIdx.x == 0:
        out[cuda.blockIdx.x] = total


x = np.random.default_rng(3).standard_normal(16 * THREADS * ITEMS)
out = simt.zeros(16)
tile_sums[16, THREADS](simt.asarray(x), out)
assert np.allclose(out.get(), x.reshape(16, -1).sum(axis=1))
print("coop block sums ok on the", simt.backend(), "backend")
