"""simt.ElementwiseKernel: CuPy's user-defined elementwise kernels. The operation is a CUDA C++
snippet over the parameters' elements; simt writes the kernel around it (one thread per output
element, broadcasting inputs by their strides) and compiles it as a raw CUDA C++ kernel, so the
same kernel runs on both backends (python/simt/_raw_kernels.py)."""
import numpy as np

from . import _kernel_params as kp
from ._manipulation import broadcast_to
from ._ndarray import ndarray
from ._raw_kernels import RawKernel

_MAX_BLOCKS = 1 << 16  # (a grid-stride loop covers the rest)

# Raw parameters are views with CuPy's CArray spelling: x[j] and x.size().
RAW_VIEW = """template <class E> struct simt_raw_view {
    E* p; long long count;
    __device__ E& operator[](long long j) const { return p[j]; }
    __device__ long long size() const { return count; }
};
struct simt_index { long long count; __device__ long long size() const { return count; } };
"""


def typedefs(types):
    return "".join(f"typedef {kp.ctype(dt, 'typedef')} {letter};\n" for letter, dt in sorted(types.items()))


def offset_lines(index, dims, arrays, ind):
    """Lines adding to each array's byte offset `_off_<name>` the offset of flat `index` over axes
    `dims` (C order over extents _d<k>, byte strides _s_<name>_<k>; broadcast axes have stride 0).
    (Generated names start with _, which parameter names cannot: they never collide.)"""
    if not dims or not arrays:
        return []
    lines = [f"{ind}{{ long long _rest = {index};"]
    for d in reversed(list(dims)):
        lines.append(f"{ind}  {{ long long _k = _rest % _d{d}; _rest /= _d{d};")
        lines += [f"{ind}    _off_{a} += _k * _s_{a}_{d};" for a in arrays]
        lines.append(f"{ind}  }}")
    lines.append(f"{ind}}}")
    return lines


class ElementwiseKernel:
    """kernel = ElementwiseKernel('float32 x, T y', 'T z', 'z = x * y', 'name'); kernel(x, y[, z],
    size=None, block_size=None). Types are NumPy dtype names or one-letter placeholders bound by
    the arguments; `raw` parameters are arrays indexed by hand (x[j], x.size()); `i` is the
    element's index and `_ind.size()` the element count."""

    def __init__(self, in_params, out_params, operation, name="kernel", reduce_dims=True, preamble="",
                 no_return=False, return_tuple=False, loop_prep="", after_loop="", options=()):
        _, self.in_params, self.out_params = kp.parse_kernel(
            "ElementwiseKernel", name, in_params, out_params,
            {"operation": operation, "preamble": preamble, "loop_prep": loop_prep, "after_loop": after_loop})
        self.name = name
        self.operation, self.preamble = operation, preamble
        self.loop_prep, self.after_loop = loop_prep, after_loop
        self.no_return, self.return_tuple = no_return, return_tuple
        self.options = tuple(options)
        self._kernels = {}

    def __call__(self, *args, size=None, block_size=None):
        where = f"ElementwiseKernel '{self.name}'"
        nin, nout = len(self.in_params), len(self.out_params)
        if len(args) not in (nin, nin + nout):
            raise TypeError(f"{where} takes {nin} inputs and optionally {nout} outputs, got {len(args)} arguments")
        params = self.in_params + self.out_params
        values = [kp.device_argument(a, p, where) for a, p in zip(args, params)]
        values += [None] * (len(params) - len(values))
        types = kp.bind_types(params, values, where)
        shape = self._shape(params, values, size, where)
        for k, p in enumerate(self.out_params, start=nin):
            if values[k] is None:
                if p.raw:
                    raise TypeError(f"{where}: the raw output {p.name!r} must be passed (its size is not known)")
                from ._creation import empty
                values[k] = empty(shape, kp.dtype_of(p, types, where))
            elif not isinstance(values[k], ndarray):
                raise TypeError(f"{where}: output {p.name!r} must be a device array, not a scalar")
        dtypes = [kp.dtype_of(p, types, where) for p in params]
        self._launch(params, values, dtypes, types, shape, block_size, where)
        outs = values[nin:]
        if self.no_return:
            return None
        return tuple(outs) if self.return_tuple or nout > 1 else outs[0]

    def _shape(self, params, values, size, where):
        nin = len(self.in_params)
        arrays = [v for p, v in zip(params[:nin], values[:nin]) if isinstance(v, ndarray) and not p.raw]
        if not arrays:  # (outputs alone give the shape, as in `fill(out)`)
            arrays = [v for p, v in zip(params[nin:], values[nin:]) if isinstance(v, ndarray) and not p.raw]
        if arrays:
            try:
                shape = np.broadcast_shapes(*(a.shape for a in arrays))
            except ValueError:
                raise ValueError(f"{where}: the arguments' shapes {[a.shape for a in arrays]} do not broadcast") from None
            if size is not None and int(size) != int(np.prod(shape)):
                raise ValueError(f"{where}: size={size} but the arguments broadcast to {shape}")
            for p, v in zip(params[nin:], values[nin:]):
                if isinstance(v, ndarray) and not p.raw and v.shape != shape:
                    raise ValueError(f"{where}: output {p.name!r} has shape {v.shape}, the arguments broadcast to {shape}")
            return shape
        if size is None:
            raise ValueError(f"{where}: no non-raw array argument gives the size: pass size=")
        return (int(size),)

    def _launch(self, params, values, dtypes, types, shape, block_size, where):
        n = int(np.prod(shape))
        strided = []
        for p, v in zip(params, values):
            if not isinstance(v, ndarray):
                continue
            if p.raw:
                if not v._c_contiguous:
                    raise ValueError(f"{where}: the raw parameter {p.name!r} needs a C-contiguous array")
            elif v.shape != shape or not v._c_contiguous:
                strided.append(p.name)
        contiguous = not strided
        key = (tuple(dtypes), tuple(type(v) is ndarray for v in values), len(shape), contiguous)
        kernel = self._kernels.get(key)
        if kernel is None:
            source = self._source(params, values, dtypes, types, len(shape), contiguous)
            kernel = self._kernels[key] = RawKernel(source, self.name, self.options)
        kargs = []
        for p, v, dt in zip(params, values, dtypes):
            if isinstance(v, ndarray):
                kargs.append(v)
                if p.raw:
                    kargs.append(np.int64(v.size))
            else:
                kargs.append(dt.type(v))
        for p, v in zip(params, values):
            if isinstance(v, ndarray) and not p.raw and not contiguous:
                kargs += [np.int64(s) for s in broadcast_to(v, shape).strides]
        if not contiguous:
            kargs += [np.int64(d) for d in shape]
        kargs.append(np.int64(n))
        if n == 0:
            return
        block = int(block_size or 256)
        kernel((min(-(-n // block), _MAX_BLOCKS),), (block,), tuple(kargs))

    def _source(self, params, values, dtypes, types, ndim, contiguous):
        nin = len(self.in_params)
        sig, body = [], []
        for k, (p, v, dt) in enumerate(zip(params, values, dtypes)):
            c = kp.ctype(dt, self.name)
            const = "const " if k < nin else ""
            if isinstance(v, ndarray) and p.raw:
                sig += [f"{const}{c}* _p_{p.name}", f"long long _n_{p.name}"]
                body.append(f"    simt_raw_view<{const}{c}> {p.name} = {{_p_{p.name}, _n_{p.name}}};")
            elif isinstance(v, ndarray):
                sig.append(f"{const}{'char' if not contiguous else c}* _p_{p.name}")
            else:
                sig.append(f"{c} _v_{p.name}")
        arrays = [p.name for p, v in zip(params, values) if isinstance(v, ndarray) and not p.raw]
        if not contiguous:
            sig += [f"long long _s_{a}_{d}" for a in arrays for d in range(ndim)]
            sig += [f"long long _d{d}" for d in range(ndim)]
        sig.append("long long _n")
        loop = ["    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < _n;",
                "         i += (long long)blockDim.x * gridDim.x) {"]
        if not contiguous:
            loop += [f"        long long _off_{a} = 0;" for a in arrays]
            loop += offset_lines("i", range(ndim), arrays, "        ")
        for k, (p, v, dt) in enumerate(zip(params, values, dtypes)):
            if p.raw:
                continue
            c = kp.ctype(dt, self.name)
            if not isinstance(v, ndarray):
                loop.append(f"        const {c} {p.name} = _v_{p.name};")
                continue
            ref = f"_p_{p.name}[i]" if contiguous else f"*({'const ' if k < nin else ''}{c}*)(_p_{p.name} + _off_{p.name})"
            loop.append(f"        {'const ' if k < nin else ''}{c}{'' if k < nin else '&'} {p.name} = {ref};")
        loop += ["        {", "            " + self.operation + ";", "        }", "    }"]
        headers = kp.headers_for(list(dtypes) + list(types.values()),
                                 (self.operation, self.preamble, self.loop_prep, self.after_loop))
        return "\n".join([headers + self.preamble, RAW_VIEW, typedefs(types),
                          f'extern "C" __global__ void {self.name}({", ".join(sig)}) {{',
                          *body, "    simt_index _ind = {_n};", "    (void)_ind;", self.loop_prep, *loop,
                          self.after_loop, "}", ""])

