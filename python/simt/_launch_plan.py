"""Recorded launch sequences for the multi-kernel array operations (reductions, scans). Working
out a plan (layouts, pass shapes, kernel sources, grids) costs tens of microseconds of Python;
recording it once per input layout leaves each later call only its allocations and launches.

A plan names its buffers by slot: slot 0 is the input (or a view of it), slot 1 the result (or a
view of it), later slots are temporaries, views, and further inputs given to run() (arrays or
scalars: a fused reduction's operands). Kernels get `Buf`s in place of arrays
while recording; running the plan swaps in the real arrays."""
import math

import numpy as np

from . import _kernelgen as kg
from . import _simt
from ._ndarray import ndarray


class Buf:
    """A buffer of a plan: its slot and the layout its kernels see."""
    __slots__ = ("slot", "shape", "strides", "dtype")

    def __init__(self, slot, shape, strides, dtype):
        self.slot, self.shape, self.strides, self.dtype = slot, tuple(shape), tuple(strides), np.dtype(dtype)

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def itemsize(self):
        return self.dtype.itemsize

    @property
    def size(self):
        return math.prod(self.shape)


class Plan:
    """Result shape and dtype, how to make each buffer, and the launches over them.
    Buffer recipes: ("view", source_slot, shape, strides), ("empty", shape, dtype),
    ("zeros", shape, dtype) or ("input", k): run()'s k-th further input."""

    def __init__(self, result_shape, result_dtype):
        self.result_shape, self.result_dtype = tuple(result_shape), np.dtype(result_dtype)
        self.recipes = [None, None]  # the input and the result: given to run()
        self.launches = []            # (kernel, grid, block, args): a Buf in args stands for its slot
        self.warning = None           # a RuntimeWarning each run gives (NumPy's, e.g. for ddof >= n)

    def _add(self, recipe, shape, strides, dtype):
        self.recipes.append(recipe)
        return Buf(len(self.recipes) - 1, shape, strides, dtype)

    def temp(self, shape, dtype, zeroed=False):
        """A new C-contiguous temporary (zero-filled when `zeroed`)."""
        shape = tuple(int(n) for n in shape)
        dtype = np.dtype(dtype)
        return self._add(("zeros" if zeroed else "empty", shape, dtype), shape, kg.c_strides(shape, dtype.itemsize),
                         dtype)

    def input(self, k, shape=(), strides=(), dtype=np.uint8):
        """run()'s k-th further input (k >= 0), with the layout its kernels see."""
        return self._add(("input", int(k)), shape, strides, dtype)

    def view(self, buf, shape, strides):
        """Another layout of buf's memory (as kg.view)."""
        shape, strides = tuple(map(int, shape)), tuple(map(int, strides))  # checked once, here
        if shape == buf.shape and strides == buf.strides:
            return buf
        return self._add(("view", buf.slot, shape, strides), shape, strides, buf.dtype)

    def launch(self, k, grid, block, *args):
        self.launches.append((k, grid, block, args))

    def launch_1d(self, k, nthreads, *args):
        """As kg.launch_1d: at least `nthreads` threads in 1-D blocks."""
        if nthreads > 0:
            self.launch(k, *kg.grid_1d(nthreads), *args)

    def run(self, source, *inputs):
        """Makes the result and the other buffers and launches the kernels, on the current stream;
        returns the result. `source` fills slot 0 (its layout as recorded), `inputs` the slots
        input() made."""
        result = ndarray(self.result_shape, self.result_dtype)
        bufs = [source, result]
        for recipe in self.recipes[2:]:
            kind = recipe[0]
            if kind == "view":  # extents and strides were made ints when recorded
                bufs.append(_simt._restride(bufs[recipe[1]], recipe[2], recipe[3], 0))
            elif kind == "input":
                bufs.append(inputs[recipe[1]])
            else:  # shapes and dtypes were normalized when recorded
                buf = ndarray(recipe[1], recipe[2])
                if kind == "zeros":
                    buf._fill_bytes(bytes(recipe[2].itemsize))
                bufs.append(buf)
        for k, grid, block, args in self.launches:
            kg.launch(k, grid, block, *[bufs[a.slot] if type(a) is Buf else a for a in args])
        return result


class PlanCache:
    """Plans by key, dropped wholesale when full (keys hold shapes, so a long-running program
    with ever-new shapes must not grow it without bound)."""

    def __init__(self, limit=512):
        self._plans, self._limit = {}, limit

    def get(self, key):
        return self._plans.get(key)

    def put(self, key, plan):
        if len(self._plans) >= self._limit:
            self._plans.clear()
        self._plans[key] = plan

    def get_or_make(self, key, table, make):
        """The plan cached under `key` for the current device and tuning entry `table`, else
        make()'s, cached. The entry is kept with the plan, so its id in the key cannot be reused
        while the key lives."""
        key += (_simt.current_device(), id(table))
        try:
            entry = self._plans.get(key)
        except TypeError:  # an unhashable axis or dtype: plan without caching
            return make()
        if entry is None:
            entry = (make(), table)
            self.put(key, entry)
        return entry[0]
