"""Sorting device arrays, and device-wide algorithms with Python operators (cuda.compute's API)."""
import numpy as np

import simt
import simt.compute as cc

rng = np.random.default_rng(7)
keys = simt.asarray(rng.standard_normal(100_000).astype(np.float32))

order = simt.argsort(keys)                       # stable, NaN last, as NumPy
assert np.array_equal(simt.take(keys, order).get(), np.sort(keys.get()))
print("median", float(simt.median(keys)), "unique of rounded:", simt.unique(simt.rint(keys * 2)).size)


def nearer_zero(a, b):                           # a user operator: compiled into the kernel
    return a if abs(a) < abs(b) else b


out = simt.empty(1, np.float32)
cc.reduce_into(keys, out, nearer_zero, keys.size, np.array([np.inf], np.float32))
assert out.get()[0] == keys.get()[np.argmin(np.abs(keys.get()))]

squares = cc.TransformIterator(cc.CountingIterator(np.int64(1)), lambda i: i * i)   # 1, 4, 9, ... lazily
total = simt.empty(1, np.int64)
cc.reduce_into(squares, total, cc.OpKind.PLUS, 1000, np.zeros(1, np.int64))
assert total.get()[0] == sum(i * i for i in range(1, 1001))

sorted_keys, ids = simt.empty_like(keys), simt.empty(keys.size, np.int64)
cc.radix_sort(keys, sorted_keys, simt.arange(keys.size), ids, cc.SortOrder.DESCENDING, keys.size)
assert np.array_equal(sorted_keys.get(), np.sort(keys.get())[::-1])
print("sort and compute ok on the", simt.backend(), "backend")
