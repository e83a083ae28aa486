"""simt.cuda.tile kernels of the tile workload (bench/workloads/tile.py): what a cuda.tile user writes
for an elementwise add, a row softmax and a matrix product."""
import simt
import simt.cuda.tile as ct

ADD_TILE = 1024
MATMUL_TILES = (64, 64, 32)
MATMUL_TILES_LARGE = (128, 128, 32)


@ct.kernel
def add(a, b, c, n: ct.Constant[int]):
    i = ct.bid(0)
    ct.store(c, index=(i,), tile=ct.load(a, index=(i,), shape=(n,)) + ct.load(b, index=(i,), shape=(n,)))


@ct.kernel
def softmax_rows(x, y, n: ct.Constant[int]):
    row = ct.bid(0)
    t = ct.load(x, index=(row, 0), shape=(1, n), padding_mode=ct.PaddingMode.NEG_INF)
    e = ct.exp(t - ct.max(t))
    ct.store(y, index=(row, 0), tile=e / ct.sum(e))


@ct.kernel
def matmul(A, B, C, tm: ct.Constant[int], tn: ct.Constant[int], tk: ct.Constant[int]):
    bx, by = ct.bid(0), ct.bid(1)
    acc = ct.zeros((tm, tn), dtype=ct.float32)
    for k in range(ct.num_tiles(A, axis=1, shape=(tm, tk))):
        a = ct.load(A, index=(bx, k), shape=(tm, tk))
        b = ct.load(B, index=(k, by), shape=(tk, tn))
        acc = ct.mma(a, b, acc)
    ct.store(C, index=(bx, by), tile=acc.astype(C.dtype))


def launch_add(a, b, c):
    ct.launch(None, ct.cdiv(a.size, ADD_TILE), add, (a, b, c, ADD_TILE))


def launch_softmax(x):
    y = simt.empty_like(x)
    n = 1 << (x.shape[1] - 1).bit_length()
    ct.launch(None, x.shape[0], softmax_rows, (x, y, n))
    return y


def launch_matmul(a, b, tiles=MATMUL_TILES):
    tm, tn, tk = tiles
    c = simt.empty((a.shape[0], b.shape[1]), a.dtype)
    ct.launch(None, (ct.cdiv(a.shape[0], tm), ct.cdiv(b.shape[1], tn)), matmul, (a, b, c, tm, tn, tk))
    return c


def launch_matmul_large(a, b):
    return launch_matmul(a, b, MATMUL_TILES_LARGE)
